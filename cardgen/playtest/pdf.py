"""report.pdf in one language: the findings page, then one section per question a designer
asks (who wins, who holds which elector, what the first player gains, which cards matter,
whether the printed pieces suffice, what a data change did), then an appendix.

Each heading stays on the page of its chart or table and caption (KeepTogether); a table
that may run longer than a page starts where its heading, caption and first rows fit and
splits, its head repeated (a whole long table kept with its heading would leave a page
empty first)."""

from __future__ import annotations

from collections.abc import Mapping
from io import BytesIO
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape

from reportlab.lib import colors
from reportlab.lib.enums import TA_RIGHT
from reportlab.lib.pagesizes import A4
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.platypus import (
    CondPageBreak,
    Flowable,
    KeepTogether,
    ListFlowable,
    ListItem,
    PageBreak,
    Paragraph,
    SimpleDocTemplate,
    Spacer,
    Table,
    TableStyle,
)

from ..fonts import register_fonts
from ..render.cmyk import canvas_maker
from . import charts
from .sentences import component_name, figure_name, finding_text
from .words import Words

WIDTH = 170 * mm
PAD = 3  # points left and right of a table cell's text
KEEP = 40 * mm  # a long table's heading, caption and first rows
HEAD_SIZE, CELL_SIZE = 7.5, 7
SIDE_COLOURS = {"luxembourg": colors.HexColor("#9b1c1c"), "wittelsbach": colors.HexColor("#1f4e8c")}
BROWN, BLUE = colors.HexColor("#b08d57"), colors.HexColor("#4a6fa5")
UP, DOWN = colors.HexColor("#3f7a3a"), colors.HexColor("#a33a2c")


def fitted(widths: list[float], needs: list[float], text_columns: int) -> list[float]:
    """Column widths in which every column gets at least what it needs (its longest head
    word, its widest cell): a narrow column is widened at the cost of the text columns, as
    far as their own needs allow; a table wider than the page then shrinks evenly."""
    out = [max(w, n) for w, n in zip(widths, needs, strict=True)]
    excess = sum(out) - sum(widths)
    for i in range(text_columns):
        give = min(excess, max(0.0, out[i] - needs[i]))
        out[i] -= give
        excess -= give
    total = sum(out)
    return out if total <= WIDTH else [w * WIDTH / total for w in out]


def capitalised(label: str) -> str:
    """A name that starts a table row starts with a capital (the words may start lower-case,
    for use inside a sentence)."""
    return label[:1].upper() + label[1:]


class Report:
    """Builds the flowables of one language's report."""

    def __init__(self, report: dict[str, Any], w: Words, fonts: Mapping[str, str],
                 reminders: Mapping[str, Mapping[str, str]]):
        self.rep, self.w, self.reminders = report, w, reminders
        self.font, self.bold = fonts["body"], fonts["bold"]
        body = ParagraphStyle("body", fontName=self.font, fontSize=9, leading=12,
                              bulletFontName=self.font)
        self.st = {
            "body": body,
            "small": ParagraphStyle("small", parent=body, fontSize=7.5, leading=9.5,
                                    textColor=colors.HexColor("#444444")),
            # a table head breaks between words only, never inside one (its column fits it)
            "head": ParagraphStyle("head", parent=body, fontSize=HEAD_SIZE, leading=9.5,
                                   textColor=colors.HexColor("#444444"), splitLongWords=0),
            "head_right": ParagraphStyle("head_right", parent=body, fontSize=HEAD_SIZE, leading=9.5,
                                         textColor=colors.HexColor("#444444"), alignment=TA_RIGHT,
                                         splitLongWords=0),
            "finding": ParagraphStyle("finding", parent=body, fontSize=11, leading=15),
            "h1": ParagraphStyle("h1", parent=body, fontName=self.bold, fontSize=16, leading=20,
                                 spaceAfter=4),
            "h2": ParagraphStyle("h2", parent=body, fontName=self.bold, fontSize=11.5, leading=15,
                                 spaceBefore=9, spaceAfter=3, keepWithNext=1),
            "h2_free": ParagraphStyle("h2_free", parent=body, fontName=self.bold, fontSize=11.5,
                                      leading=15, spaceBefore=9, spaceAfter=3),
        }
        self.out: list[Flowable] = []

    # -- building blocks ----------------------------------------------------------------
    def para(self, text: str, style: str = "body") -> Paragraph:
        return Paragraph(escape(text), self.st[style])

    def section(self, heading: str, *blocks: Flowable) -> None:
        """A heading with its chart, table and caption, never split from them by a page."""
        self.out.append(KeepTogether([self.para(heading, "h2"), *blocks]))

    def long_section(self, heading: str, *blocks: Flowable) -> None:
        """A heading and caption with a table that may run over pages: started only where
        the first rows fit too, then split."""
        *before, table = blocks
        self.out += [CondPageBreak(KEEP), KeepTogether([self.para(heading, "h2_free"), *before]), table]

    def table(self, head: list[str], rows: list[list[str]], widths: list[float] | None = None,
              text_columns: int = 1) -> Table:
        """Text in the first ``text_columns`` columns, numbers right-aligned after them; each
        column at least as wide as its longest head word and its widest cell."""
        heads = [self.para(h, "head" if i < text_columns else "head_right")
                 for i, h in enumerate(head)]
        needs = [2 * PAD + max([self.width(word, HEAD_SIZE) for word in h.split(" ")]
                               + [self.width(r[i], CELL_SIZE) for r in rows])
                 for i, h in enumerate(head)]
        if widths is None:
            widths = [WIDTH / len(head)] * len(head)
        t = Table([heads, *rows], colWidths=fitted(widths, needs, text_columns), repeatRows=1)
        t.setStyle(TableStyle([
            ("LEFTPADDING", (0, 0), (-1, -1), PAD), ("RIGHTPADDING", (0, 0), (-1, -1), PAD),
            ("FONTNAME", (0, 0), (-1, -1), self.font), ("FONTSIZE", (0, 0), (-1, -1), CELL_SIZE),
            ("LEADING", (0, 0), (-1, -1), 8.5), ("ALIGN", (text_columns, 1), (-1, -1), "RIGHT"),
            ("VALIGN", (0, 0), (-1, 0), "BOTTOM"),
            ("LINEBELOW", (0, 0), (-1, 0), 0.5, colors.black),
            ("ROWBACKGROUNDS", (0, 1), (-1, -1), [colors.white, colors.HexColor("#f1ede4")]),
            ("TOPPADDING", (0, 0), (-1, -1), 1), ("BOTTOMPADDING", (0, 0), (-1, -1), 1)]))
        return t

    def width(self, text: str, size: float) -> float:
        return stringWidth(text, self.font, size)

    def pct(self, x: float) -> str:
        return self.w.pct(x, 1)

    # -- sections -------------------------------------------------------------------------
    def front(self) -> None:
        w, rep, meta = self.w, self.rep, self.rep["meta"]
        self.out.append(self.para(w("title"), "h1"))
        self.out.append(self.para(w("subtitle", games=w.count(rep["games"], "game"), seed=meta["seed"],
                                    rules=meta["rules_version"], data=meta["data_version"])))
        self.out.append(self.para(w("findings"), "h2"))
        items = [ListItem(self.para(finding_text(w, f, self.reminders), "finding"), leftIndent=14,
                          value=i + 1) for i, f in enumerate(rep["findings"])]
        self.out.append(ListFlowable(items, bulletType="1", bulletFontName=self.bold,
                                     bulletFontSize=11, leftIndent=14))
        self.out.append(Spacer(1, 2 * mm))
        self.out.append(self.para(w("findings_note"), "small"))
        (lux, wit), budgets = meta["players"], meta.get("budgets") or [None, None]
        notes = [self.para(w("players", lux=self.player(lux, budgets[0]),
                             wit=self.player(wit, budgets[1])), "small")]
        notes += [self.para(f"• {w.typo(str(t))}", "small") for t in w.raw("limits")]
        self.section(w("about"), *notes)

    def player(self, kind: str, budget: int | None) -> str:
        """What the player does and its budget, in words (its id if the words lack it)."""
        if not self.w.has(f"player.{kind}"):
            return kind
        return self.w(f"player.{kind}", budget=self.w.num(budget) if budget is not None else "—")

    def houses(self) -> None:
        w, rep = self.w, self.rep
        rows = sorted(((w.side(s), h["rate"], tuple(h["ci95"]), SIDE_COLOURS[s])
                       for s, h in rep["houses"].items()), key=lambda r: -r[1])
        chart = charts.interval_chart(rows, WIDTH, self.font, w("axis_share"),
                                      lambda v: w.num(100 * v), 0.0, 1.0, reference=0.5)
        ties, crecy = rep["overall_ties"], rep["ended_by_crecy"]
        caption = w("houses_caption", ties=f"{self.pct(ties['rate'])} {w.ci(ties['ci95'], decimals=1)}",
                    crecy=f"{self.pct(crecy['rate'])} {w.ci(crecy['ci95'], decimals=1)}")
        self.section(w("houses"), chart, self.para(caption, "small"))

    def electors(self) -> None:
        w = self.w
        ctl = self.rep["elector_control"]
        order = sorted(ctl, key=lambda c: (-ctl[c]["luxembourg"]["rate"], c))
        rows = [(w.place(c), [ctl[c]["luxembourg"]["rate"], ctl[c]["nobody"]["rate"],
                              ctl[c]["wittelsbach"]["rate"]]) for c in order]
        fills = [SIDE_COLOURS["luxembourg"], charts.GRID, SIDE_COLOURS["wittelsbach"]]
        chart = charts.stacked_chart(rows, fills, WIDTH, self.font, w("axis_share"),
                                     lambda v: w.num(100 * v))
        table = self.table(w.head("electors_head"), [
            [w.place(c), *(f"{self.pct(ctl[c][k]['rate'])} {w.ci(ctl[c][k]['ci95'])}"
                           for k in ("luxembourg", "nobody", "wittelsbach"))] for c in order],
            [40 * mm, 40 * mm, 40 * mm, 40 * mm])
        self.section(w("electors"), chart, self.para(w("electors_caption"), "small"),
                     Spacer(1, 2 * mm), table)

    def first_player(self) -> None:
        w = self.w
        rows = []
        for cond in ("last_round", "more_rounds"):
            for side, v in self.rep["first_player"][cond].items():
                d = v["difference"]
                rows.append([w.side(side), w.typo(str(w.raw(f"finding.{cond}"))),
                             f"{self.pct(v['first']['rate'])} (n = {w.num(v['first']['n'])})",
                             f"{self.pct(v['not_first']['rate'])} (n = {w.num(v['not_first']['n'])})",
                             "—" if d is None else f"{w.pp(d['effect'], 1)} {w.ci(d['ci95'], decimals=1)}"])
        self.section(w("first"), self.table(w.head("first_head"), rows,
                                            [28 * mm, 42 * mm, 32 * mm, 32 * mm, 36 * mm], 2),
                     Spacer(1, 1 * mm), self.para(w("first_caption"), "small"))

    def cards(self) -> None:
        w = self.w
        eff = self.rep["card_effects"]
        ranked = sorted((c for c, v in eff.items() if v.get("beyond_noise")),
                        key=lambda c: (-eff[c]["effect"], c))
        estimated = [c for c, v in eff.items() if v["effect"] is not None]
        if ranked:
            rows = [(capitalised(w.card(c)), eff[c]["effect"], tuple(eff[c]["ci95"]),
                     UP if eff[c]["effect"] > 0 else DOWN) for c in ranked]
            chart: Flowable = charts.interval_chart(rows, WIDTH, self.font, w("axis_effect"),
                                                    lambda v: w.signed(100 * v), reference=0.0,
                                                    bars=False,
                                                    hollow=[not eff[c]["beyond_noise_all_cards"]
                                                            for c in ranked])
            caption = w("cards_caption", hidden=len(estimated) - len(ranked))
        else:
            chart, caption = Spacer(1, 1), w("cards_none")
        self.section(w("cards"), chart, self.para(caption, "small"))
        uses = self.rep["cards"]
        cells: list[list[str]] = []
        for c in sorted(eff, key=lambda c: (-(eff[c]["effect"] or 0), c)):
            v = eff[c]
            used = " / ".join(w.num(v["by_side"][s]["games_used"]) for s in ("luxembourg", "wittelsbach"))
            cells.append([capitalised(w.card(c)), used,
                         "—" if v["effect"] is None else w.pp(v["effect"], 1),
                         "—" if v["ci95"] is None else w.ci(v["ci95"], decimals=1),
                         w.num(uses[c]["bought_per_game"], 2), w.num(uses[c]["played_per_game"], 2)])
        self.long_section(w("cards_table"), self.table(w.head("cards_head"), cells,
                                                      [52 * mm, 26 * mm, 22 * mm, 30 * mm, 20 * mm, 20 * mm]))

    def components(self) -> None:
        w = self.w
        comp = self.rep["components"]
        kinds = comp["kinds"]
        order = sorted(kinds, key=lambda k: (-kinds[k]["short"]["rate"],
                                             -kinds[k]["peak"] / max(kinds[k]["printed"], 1), k))
        rows = []
        for key in order:
            v = comp["kinds"][key]
            rows.append([capitalised(component_name(w, key, self.reminders)), w.num(v["printed"]),
                         w.num(v["peak_median"]), w.num(v["peak_p95"]), w.num(v["peak"]),
                         f"{self.pct(v['short']['rate'])} {w.ci(v['short']['ci95'], decimals=1)}"])
        blocks: list[Flowable] = [self.table(w.head("components_head"), rows,
                                             [56 * mm, 18 * mm, 18 * mm, 20 * mm, 18 * mm, 40 * mm]),
                                  Spacer(1, 1 * mm), self.para(w("components_caption"), "small")]
        if comp["unmeasured_reminders"]:
            blocks.append(self.para(w("components_unmeasured", ids=", ".join(comp["unmeasured_reminders"])),
                                    "small"))
        self.section(w("components"), *blocks)

    def compare(self) -> None:
        diff = self.rep.get("compare")
        if not diff:
            return
        w = self.w
        paired = (w("compare_paired", n=w.num(diff["paired_games"])) if diff["paired_games"]
                  else w("compare_unpaired"))
        caption = self.para(w("compare_caption", paired=paired, shown=len(diff["changes"]),
                              figures=diff["figures_compared"]), "small")
        headline = self.para(self.headline(diff["headline"]), "finding")
        if not diff["changes"]:
            self.section(w("compare"), headline, Spacer(1, 1 * mm), caption,
                         self.para(w("compare_none"), "small"))
            return
        rows = [[capitalised(figure_name(w, r, self.reminders)), self.value(r, "old"), self.value(r, "new"),
                 self.value(r, "change"), self.interval(r)] for r in diff["changes"]]
        table = self.table(w.head("compare_head"), rows, [74 * mm, 20 * mm, 20 * mm, 22 * mm, 34 * mm])
        self.long_section(w("compare"), headline, Spacer(1, 1 * mm), caption, Spacer(1, 1 * mm), table)

    def headline(self, row: Mapping[str, Any]) -> str:
        """The house win rate's change, always stated, with its own 95 % interval."""
        w = self.w
        return w("compare_headline", figure=capitalised(figure_name(w, row, self.reminders)),
                 old=self.value(row, "old"), new=self.value(row, "new"),
                 change=self.value(row, "change"), ci=self.interval(row),
                 verdict=w.typo(str(w.raw("compare_beyond" if row["beyond_noise"] else "compare_within"))))

    def _is_share(self, row: Mapping[str, Any]) -> bool:
        return row["kind"] in ("win", "crecy", "tie", "control", "short")

    def value(self, row: Mapping[str, Any], key: str) -> str:
        x = row[key]
        if self._is_share(row):
            return self.w.pp(x, 1) if key == "change" else self.pct(x)
        return self.w.signed(x, 2) if key == "change" else self.w.num(x, 2)

    def interval(self, row: Mapping[str, Any]) -> str:
        if self._is_share(row):
            return self.w.ci(row["interval"], decimals=1)
        return self.w.ci(row["interval"], scale=1, decimals=2)

    def appendix(self) -> None:
        w, rep = self.w, self.rep
        self.out.append(PageBreak())
        self.out.append(self.para(w("appendix"), "h1"))
        rounds = [str(r) for r in range(1, 10)]
        crecy = [rep["game_end"].get(f"crecy:{r}", 0) for r in rounds]
        nine = [rep["game_end"].get(f"round9:{r}", 0) for r in rounds]
        self.section(w("ends"), charts.column_chart(rounds, [crecy, nine], [BROWN, BLUE], WIDTH,
                                                    self.font, w("axis_round"), w("axis_games"),
                                                    lambda v: w.num(v)),
                     self.para(w("ends_caption"), "small"))
        pr = rep["purchases_by_round"]
        self.section(w("purchases"), charts.column_chart(list(pr), [list(pr.values())], [BROWN],
                                                         WIDTH, self.font, w("axis_round"),
                                                         w("axis_per_game"), lambda v: w.num(v, 1),
                                                         height=40 * mm),
                     self.para(w("purchases_caption"), "small"))
        rows = [[w.side(s), *(w.num(v["gained"][c], 2) for c in v["gained"]), w.num(v["spent"], 2),
                 w.num(v["purchases"], 2), w.num(v["loyalty_purchases"], 2)]
                for s, v in rep["currency"].items()]
        self.section(w("economy"), self.table(w.head("economy_head"), rows))
        names = {c: capitalised(w.card(c)) for c in rep["cards"]}
        rows = [[names[c], *(w.num(v[k]) for k in ("bought", "free", "political", "military", "deed",
                                                   "boost", "yield_only", "countered",
                                                   "deed_unresolvable"))]
                for c, v in sorted(rep["cards"].items(), key=lambda kv: (w.collate(names[kv[0]]), kv[0]))]
        caption = self.para(w("uses_caption", games=w.count(rep["games"], "game")), "small")
        self.long_section(w("uses"), caption, Spacer(1, 1 * mm),
                          self.table(w.head("uses_head"), rows, [50 * mm] + [13.3 * mm] * 9))
        if rep.get("ladder"):
            rows = [[f"{w.player_name(r['players'][0])} : {w.player_name(r['players'][1])}",
                     w.num(r["games"]), w.pct(r["rate"]),
                     w.ci(r["ci95"])] for r in rep["ladder"]]
            self.section(w("ladder"), self.table(w.head("ladder_head"), rows),
                         self.para(w("ladder_caption"), "small"))
        never = rep["deeds_never_resolvable"]
        self.out.append(Spacer(1, 2 * mm))
        never = sorted(never, key=lambda c: (w.collate(w.card(c)), c))
        self.out.append(self.para(w("never", cards=", ".join(w.card(c) for c in never) if never
                                    else w.typo(str(w.raw("none"))))))


def report_flowables(report: dict[str, Any], fonts: Mapping[str, str], w: Words,
                     reminders: Mapping[str, Mapping[str, str]]) -> list[Flowable]:
    """The report's pages as flowables, in order (the registered ``body`` and ``bold``)."""
    r = Report(report, w, fonts, reminders)
    r.front()
    r.houses()
    r.electors()
    r.first_player()
    r.compare()
    r.components()
    r.cards()
    r.appendix()
    return r.out


def build_pdf(report: dict[str, Any], font_files: Mapping[str, Path], w: Words,
              reminders: Mapping[str, Mapping[str, str]]) -> bytes:
    fonts = register_fonts({k: font_files[k] for k in ("body", "bold")})
    flowables = report_flowables(report, fonts, w, reminders)
    buf = BytesIO()
    doc = SimpleDocTemplate(buf, pagesize=A4, leftMargin=20 * mm, rightMargin=20 * mm,
                            topMargin=15 * mm, bottomMargin=15 * mm, invariant=1,
                            initialFontName=fonts["body"], initialFontSize=9,  # no stray Helvetica
                            title=w("title"), author="cardgen")
    doc.build(flowables, canvasmaker=canvas_maker(None))  # a /ID of its own (render.pdfid)
    return buf.getvalue()
