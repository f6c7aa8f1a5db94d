"""report.pdf: the playtest report as text, tables and charts drawn with ReportLab's own
graphics, in the project's fonts (embedded and subset)."""

from __future__ import annotations

from collections.abc import Mapping
from io import BytesIO
from pathlib import Path
from typing import Any

from reportlab.graphics.charts.barcharts import HorizontalBarChart, VerticalBarChart
from reportlab.graphics.shapes import Drawing, Line, Rect, String
from reportlab.lib import colors
from reportlab.lib.pagesizes import A4
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.platypus import Paragraph, SimpleDocTemplate, Spacer, Table, TableStyle

from ..fonts import register_fonts
from ..render.cmyk import canvas_maker

WIDTH = 170 * mm
SIDE_COLOURS = (colors.HexColor("#9b1c1c"), colors.HexColor("#1f4e8c"))


def _styles(fonts: Mapping[str, str]) -> dict[str, ParagraphStyle]:
    body = ParagraphStyle("body", fontName=fonts["body"], fontSize=9, leading=12)
    return {"body": body,
            "h1": ParagraphStyle("h1", parent=body, fontName=fonts["bold"], fontSize=16, leading=20,
                                 spaceAfter=6),
            "h2": ParagraphStyle("h2", parent=body, fontName=fonts["bold"], fontSize=11.5, leading=15,
                                 spaceBefore=8, spaceAfter=3)}


def _drawing(height: float, font: str) -> Drawing:
    d = Drawing(WIDTH, height)
    d.initialFontName = font  # the renderer's starting font: no stray Helvetica
    return d


def _bar(categories: list[str], series: list[list[float]], font: str, *, height: float = 55 * mm,
         horizontal: bool = False, value_max: float | None = None,
         fills: tuple[Any, ...] = SIDE_COLOURS) -> Drawing:
    d = _drawing(height, font)
    chart = HorizontalBarChart() if horizontal else VerticalBarChart()
    chart.x, chart.y = (42 * mm, 6 * mm) if horizontal else (12 * mm, 12 * mm)
    chart.width = WIDTH - chart.x - 6 * mm
    chart.height = height - chart.y - 4 * mm
    chart.data = series or [[0]]
    chart.categoryAxis.categoryNames = categories
    for axis in (chart.categoryAxis, chart.valueAxis):
        axis.labels.fontName = font
        axis.labels.fontSize = 6.5
    chart.valueAxis.valueMin = 0
    if value_max is not None:
        chart.valueAxis.valueMax = value_max
    if not horizontal and len(categories) > 12:
        chart.categoryAxis.labels.angle = 45
        chart.categoryAxis.labels.boxAnchor = "ne"
    for i, fill in enumerate(fills[:len(chart.data)]):
        chart.bars[i].fillColor = fill
        chart.bars[i].strokeColor = None
    d.add(chart)
    return d


def _win_chart(report: dict[str, Any], font: str) -> Drawing:
    """Win rate per house with its 95 % interval."""
    d = _drawing(28 * mm, font)
    left, width = 34 * mm, WIDTH - 44 * mm
    for row, side in enumerate(("luxembourg", "wittelsbach")):
        h = report["houses"][side]
        y = 17 * mm - row * 10 * mm
        d.add(String(0, y + 2, f"{side.title()} {h['rate']:.1%}", fontName=font, fontSize=8))
        d.add(Rect(left, y, width * h["rate"], 6 * mm, fillColor=SIDE_COLOURS[row], strokeColor=None))
        lo, hi = h["ci95"]
        d.add(Line(left + width * lo, y + 3 * mm, left + width * hi, y + 3 * mm, strokeWidth=1.2))
        for x in (lo, hi):
            d.add(Line(left + width * x, y + 1.5 * mm, left + width * x, y + 4.5 * mm, strokeWidth=1.2))
    d.add(Line(left + width / 2, 0, left + width / 2, 26 * mm, strokeColor=colors.grey,
               strokeDashArray=[2, 2]))
    return d


def _table(rows: list[list[Any]], font: str, bold: str, widths: list[float] | None = None) -> Table:
    t = Table(rows, colWidths=widths, repeatRows=1)
    t.setStyle(TableStyle([
        ("FONTNAME", (0, 0), (-1, -1), font), ("FONTNAME", (0, 0), (-1, 0), bold),
        ("FONTSIZE", (0, 0), (-1, -1), 7), ("LEADING", (0, 0), (-1, -1), 8.5),
        ("ALIGN", (1, 0), (-1, -1), "RIGHT"),
        ("LINEBELOW", (0, 0), (-1, 0), 0.5, colors.black),
        ("ROWBACKGROUNDS", (0, 1), (-1, -1), [colors.white, colors.HexColor("#f1ede4")]),
        ("TOPPADDING", (0, 0), (-1, -1), 1), ("BOTTOMPADDING", (0, 0), (-1, -1), 1)]))
    return t


def build_pdf(report: dict[str, Any], font_files: Mapping[str, Path],
              diff: dict[str, Any] | None = None) -> bytes:
    fonts = register_fonts({k: font_files[k] for k in ("body", "bold")})
    body, bold = fonts["body"], fonts["bold"]
    st = _styles(fonts)
    meta = report["meta"]
    out: list[Any] = []

    def h2(text: str) -> None:
        out.append(Paragraph(text, st["h2"]))

    def p(text: str) -> None:
        out.append(Paragraph(text, st["body"]))

    out.append(Paragraph("Playtest report", st["h1"]))
    p(f"{report['games']} games, seed {meta['seed']}, players {meta['players']}; rules "
      f"v{meta['rules_version']}, data v{meta['data_version']}.")
    h2("Win rate per house (95 % interval)")
    out.append(_win_chart(report, body))
    ties = report["overall_ties"]
    p(f"Overall ties decided by John's marker (12.4): {ties['games']} games ({ties['rate']:.1%}); "
      + ", ".join(f"won by {k} {v}" for k, v in ties["won_by"].items()) + ".")
    fp = report["first_player"]
    p(f"First-player advantage: the side that played first in more rounds won "
      f"{fp['side_first_in_more_rounds_wins']:.1%} of {fp['games_with_more_first']} games; the side "
      f"first in the last round won {fp['last_round_first_wins']:.1%}.")

    h2("Final electors (Luxembourg–Wittelsbach)")
    el = report["electors"]
    out.append(_bar(list(el), [[v / max(report["games"], 1) for v in el.values()]], body,
                    fills=(colors.HexColor("#6b5a3e"),)))
    h2("How games end")
    rounds = [str(r) for r in range(1, 10)]
    crecy = [report["game_end"].get(f"crecy:{r}", 0) for r in rounds]
    nine = [report["game_end"].get(f"round9:{r}", 0) for r in rounds]
    out.append(_bar([f"round {r}" for r in rounds], [crecy, nine], body,
                    fills=(colors.HexColor("#b08d57"), colors.HexColor("#4a6fa5"))))
    p(f"Ended by the Battle of Crécy (brown) in {report['ended_by_crecy']:.1%} of games; the rest "
      f"after round 9 (blue).")

    h2("Currency and purchases (per game)")
    cur = report["currency"]
    names = list(next(iter(cur.values()))["gained"])
    rows = [["", *[f"gained {c}" for c in names], "spent", "purchases", "loyalty steps"]]
    for side, v in cur.items():
        rows.append([side, *[f"{v['gained'][c]:.2f}" for c in names], f"{v['spent']:.2f}",
                     f"{v['purchases']:.2f}", f"{v['loyalty_purchases']:.2f}"])
    out.append(_table(rows, body, bold))
    pr = report["purchases_by_round"]
    out.append(Spacer(1, 3 * mm))
    out.append(_bar([f"round {k}" for k in pr], [list(pr.values())], body, height=40 * mm,
                    fills=(colors.HexColor("#6b5a3e"),)))
    p("Purchases per game in each round, both sides together.")

    cards = report["cards"]
    market = {c: v for c, v in cards.items() if v["owned_games"] or v["bought"]}
    h2("Market cards: bought per game")
    top = sorted(market, key=lambda c: (-market[c]["bought_per_game"], c))
    out.append(_bar([market[c]["name"] for c in top[::-1]],
                    [[market[c]["bought_per_game"] for c in top[::-1]]], body,
                    horizontal=True, height=(len(top) * 3.4 + 12) * mm,
                    fills=(colors.HexColor("#6b5a3e"),)))
    h2("Every card: uses and the owner's win rate")
    rows = [["card", "bought", "free", "political", "military", "deed", "boost", "yield only",
             "countered", "deed blocked", "owner wins"]]
    for _c, v in sorted(cards.items(), key=lambda kv: (kv[1]["name"], kv[0])):
        rate = "" if v["owner_win_rate"] is None else f"{v['owner_win_rate']:.1%}"
        rows.append([v["name"], v["bought"], v["free"], v["political"], v["military"], v["deed"],
                     v["boost"], v["yield_only"], v["countered"], v["deed_unresolvable"], rate])
    out.append(_table(rows, body, bold))
    out.append(Spacer(1, 3 * mm))
    never = report["deeds_never_resolvable"]
    p("Deeds never resolvable when their card was in hand (5.31): "
      + (", ".join(never) if never else "none") + ".")
    if diff:
        h2("What the data change did (against the old report)")
        rows = [["", "old", "new", "change"]]
        rows += [[k, f"{v['old']:.3f}", f"{v['new']:.3f}", f"{v['change']:+.3f}"]
                 for k, v in diff["headline"].items()]
        out.append(_table(rows, body, bold))
        if diff["cards"]:
            out.append(Spacer(1, 3 * mm))
            rows = [["card", "bought per game", "owner win rate"]]
            rows += [[r["card"], f"{r['bought_per_game']:+.3f}", f"{r['owner_win_rate']:+.3f}"]
                     for r in diff["cards"]]
            out.append(_table(rows, body, bold))
    buf = BytesIO()
    doc = SimpleDocTemplate(buf, pagesize=A4, leftMargin=20 * mm, rightMargin=20 * mm,
                            topMargin=15 * mm, bottomMargin=15 * mm, invariant=1,
                            initialFontName=body, initialFontSize=9,  # no stray Helvetica
                            title="Playtest report", author="cardgen")
    doc.build(out, canvasmaker=canvas_maker(None))  # a /ID of its own (render.pdfid)
    return buf.getvalue()
