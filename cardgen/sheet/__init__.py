"""The designer's numbers in a spreadsheet (issue 39): the card data as ODS, XLSX and CSV
tables, and a changed table read back into ``card_data/``.

Takes the loaded project and the check's findings (noted on the cells); gives the
spreadsheet files, and the value changes a read table makes, written by the translation
stage's value writer (:mod:`cardgen.translate.values`, which keeps texts and the Czech
state in step). Its own level, after ``translate`` (whose writer it calls) and before
``build`` (whose ``sheet`` command runs it).
"""
