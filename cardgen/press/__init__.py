"""Press: reading finished PDFs as a print shop does.

Takes PDF bytes; gives per-page ink, colour spaces, fonts, image resolution and boxes
(``pdfread``), what an OutputIntent's ICC profile says (``iccinfo``: version, ink limit)
and the preflight's findings against a print profile (``preflight``).
"""
