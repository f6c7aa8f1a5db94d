"""Press: reading finished PDFs as a print shop does.

Takes PDF bytes; gives per-page ink, colour spaces, fonts, image resolution and boxes
(``pdfread``) and the preflight's findings against a print profile (``preflight``).
"""
