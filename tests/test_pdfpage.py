"""Pages written quickly (cardgen.render.pdfpage) are byte for byte ReportLab's own pages:
the same drawing on a plain ReportLab canvas and on the canvas every cardgen file uses."""

from __future__ import annotations

import io
from collections import OrderedDict
from pathlib import Path

import pytest
from PIL import Image
from reportlab.lib.utils import ImageReader
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.pdfdoc import PDFPage
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas

from cardgen.render.cmyk import CmykCanvas, default_converter
from cardgen.render.pdfpage import FastPage

FONT = Path(__file__).resolve().parent.parent / "fonts" / "CharisSIL-Regular.ttf"


def _draw(c: Canvas) -> None:
    """Every kind of page resource cardgen's files use: fonts, forms, images, gradients,
    transparency, boxes, and pages of other sizes and rotations."""
    pdfmetrics.registerFont(TTFont("PageCharis", str(FONT)))
    c.setTrimBox((9, 9, 189, 261))
    c.setBleedBox((0, 0, 198, 270))
    c.beginForm("card", 0, 0, 60, 80)
    c.setFillColorRGB(0.7, 0.2, 0.1)
    c.rect(5, 5, 50, 70, stroke=0, fill=1)
    c.endForm()
    for page in range(12):  # more than 10 forms on a page: ReportLab's line breaks
        for i in range(page + 1):
            c.saveState()
            c.translate(10 * i, 5 * page)
            c.doForm("card")
            c.restoreState()
        c.setFont("PageCharis", 9)
        c.drawString(20, 200, f"Strana {page + 1}: Karel IV. — Čechy")
        if page % 3 == 0:
            c.setFillAlpha(0.5)
            c.linearGradient(0, 0, 100, 100, ["#ff0000", "#0000ff"])
        if page % 4 == 1:
            c.drawImage(ImageReader(Image.new("RGB", (8, 8), (20, 200, 20))), 30, 30, 40, 40)
        if page == 5:
            c.setPageRotation(90)
        if page == 7:
            c.setPageSize((300, 200))
        c.showPage()
    c.save()


@pytest.mark.parametrize("cmyk", [False, True], ids=["rgb", "cmyk"])
def test_fast_pages_are_reportlabs_pages_byte_for_byte(cmyk):
    converter = default_converter() if cmyk else None
    plain, fast = io.BytesIO(), io.BytesIO()

    class PlainCmykCanvas(CmykCanvas):  # the same canvas, pages written by ReportLab
        def showPage(self):
            Canvas.showPage(self)

    options = {"pagesize": (198, 270), "invariant": 1, "pageCompression": 1}
    reference = PlainCmykCanvas(plain, cmyk=converter, **options)
    _draw(reference)
    made = CmykCanvas(fast, cmyk=converter, **options)
    _draw(made)
    assert [type(p) for p in reference._doc.Pages.pages] == [PDFPage] * 12
    assert [type(p) for p in made._doc.Pages.pages] == [FastPage] * 12
    assert fast.getvalue() == plain.getvalue()


def test_a_fast_form_stream_is_reportlabs_stream_byte_for_byte():
    """The face forms every file defines (cardgen.render.faceforms) are FastStreams."""
    from reportlab.pdfbase.pdfdoc import (
        PDFArray,
        PDFDictionary,
        PDFName,
        PDFResourceDictionary,
        PDFStream,
    )

    from cardgen.render.pdfpage import FastStream

    canvas = Canvas(io.BytesIO(), invariant=1)
    doc = canvas._doc
    resources = PDFResourceDictionary()
    resources.allProcs()
    shared = doc.Reference(resources)

    def form(kind):
        return kind(PDFDictionary({
            "Type": PDFName("XObject"), "Subtype": PDFName("Form"), "FormType": 1,
            "BBox": PDFArray([0, 0, 195.59, 266.4567]), "Matrix": PDFArray([1, 0, 0, 1, 0, 0]),
            "Resources": shared, "Filter": PDFName("FlateDecode")}), b"x\x9c\x03\x00", filters=[])

    canvas.showPage()
    canvas.save()  # numbers every object, the shared resources too
    assert form(FastStream).format(doc) == form(PDFStream).format(doc)
    ordered = PDFDictionary(OrderedDict([("Subtype", PDFName("Form")), ("BBox", PDFArray([0, 0, 1, 1]))]))
    assert (FastStream(ordered, b"q Q", filters=[]).format(doc)
            == PDFStream(ordered, b"q Q", filters=[]).format(doc))  # keys kept in their order
    assert b"/BBox [ 0 0 195.59 266.4567 ]" in form(FastStream).format(doc)
