"""The report's charts, drawn with ReportLab shapes: every chart has labelled axes with
ticks, rows in numeric order (the caller sorts), and a number beside every mark."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

from reportlab.graphics.shapes import Drawing, Group, Line, Rect, String
from reportlab.lib import colors
from reportlab.lib.units import mm

Format = Callable[[float], str]
LABEL_W = 48 * mm     # the row labels' column
ROW_H = 5.2 * mm
AXIS_H = 11 * mm      # ticks, tick labels and the axis title under the plot
SIZE = 7
GRID = colors.HexColor("#d9d2c3")
INK = colors.HexColor("#222222")


def _drawing(width: float, height: float, font: str) -> Drawing:
    d = Drawing(width, height)
    d.initialFontName = font  # the renderer's starting font: no stray Helvetica
    return d


def nice_ticks(lo: float, hi: float, target: int = 6) -> list[float]:
    """Round tick values covering [lo, hi]."""
    span = max(hi - lo, 1e-9)
    raw = span / target
    mag = 10 ** math.floor(math.log10(raw))
    step = next(m * mag for m in (1, 2, 2.5, 5, 10) if m * mag >= raw)
    start = math.floor(lo / step) * step
    ticks, t = [round(start, 10)], start
    while ticks[-1] < hi - step * 1e-6:  # the last tick at or beyond hi
        t += step
        ticks.append(round(t, 10))
    return ticks


def _axis(d: Drawing, x0: float, x1: float, y: float, top: float, lo: float, hi: float,
          ticks: Sequence[float], fmt: Format, title: str, font: str) -> Callable[[float], float]:
    """A horizontal value axis under a plot from ``y`` to ``top``; returns value → x."""
    def x_of(v: float) -> float:
        return x0 + (x1 - x0) * (v - lo) / (hi - lo)
    d.add(Line(x0, y, x1, y, strokeColor=INK, strokeWidth=0.6))
    for t in ticks:
        x = x_of(t)
        d.add(Line(x, y, x, top, strokeColor=GRID, strokeWidth=0.4))
        d.add(Line(x, y, x, y - 1.2 * mm, strokeColor=INK, strokeWidth=0.6))
        d.add(String(x, y - 4 * mm, fmt(t), fontName=font, fontSize=SIZE - 0.5, textAnchor="middle"))
    d.add(String((x0 + x1) / 2, y - 8.5 * mm, title, fontName=font, fontSize=SIZE,
                 textAnchor="middle"))
    return x_of


def interval_chart(rows: Sequence[tuple[str, float, tuple[float, float], colors.Color]],
                   width: float, font: str, axis_title: str, fmt: Format,
                   lo: float | None = None, hi: float | None = None,
                   reference: float | None = None, bars: bool = True,
                   hollow: Sequence[bool] = ()) -> Drawing:
    """One row per (label, value, (low, high), colour): a bar (or a square mark, hollow
    where ``hollow`` says) with its interval whiskers and the value beside it;
    ``reference`` draws a dashed line (50 %, 0)."""
    values = [v for _l, v, (a, b), _c in rows for v in (v, a, b)]
    lo = min([*values, 0.0 if bars else min(values, default=0)]) if lo is None else lo
    hi = max([*values, 0.0]) if hi is None else hi
    ticks = nice_ticks(lo, hi)
    lo, hi = min(lo, ticks[0]), max(hi, ticks[-1])
    plot_right = width - 14 * mm
    height = AXIS_H + ROW_H * len(rows) + 2 * mm
    d = _drawing(width, height, font)
    top = height - 1 * mm
    x_of = _axis(d, LABEL_W, plot_right, AXIS_H, top, lo, hi, ticks, fmt, axis_title, font)
    for i, (label, value, (a, b), colour) in enumerate(rows):
        yc = top - ROW_H * (i + 0.5)
        d.add(String(LABEL_W - 2 * mm, yc - 2.3, label, fontName=font, fontSize=SIZE,
                     textAnchor="end"))
        if bars:
            x0, x1 = sorted((x_of(0.0 if lo <= 0 <= hi else lo), x_of(value)))
            d.add(Rect(x0, yc - ROW_H * 0.3, x1 - x0, ROW_H * 0.6, fillColor=colour, strokeColor=None))
        else:
            empty = i < len(hollow) and hollow[i]
            d.add(Rect(x_of(value) - 1.1 * mm, yc - 1.1 * mm, 2.2 * mm, 2.2 * mm,
                       fillColor=colors.white if empty else colour,
                       strokeColor=colour if empty else None, strokeWidth=0.9))
        xa, xb = x_of(a), x_of(b)
        d.add(Line(xa, yc, xb, yc, strokeColor=INK, strokeWidth=0.8))
        for x in (xa, xb):
            d.add(Line(x, yc - 1.2 * mm, x, yc + 1.2 * mm, strokeColor=INK, strokeWidth=0.8))
        d.add(String(max(xb, x_of(value)) + 1.5 * mm, yc - 2.3, fmt(value), fontName=font,
                     fontSize=SIZE - 0.5))
    if reference is not None:
        x = x_of(reference)
        d.add(Line(x, AXIS_H, x, top, strokeColor=colors.grey, strokeDashArray=[2, 2]))
    return d


def stacked_chart(rows: Sequence[tuple[str, Sequence[float]]], fills: Sequence[colors.Color],
                  width: float, font: str, axis_title: str, fmt: Format) -> Drawing:
    """One row per (label, shares summing to 1), as a 0–100 % bar in parts, each part's
    share written in it when it is wide enough."""
    plot_right = width - 4 * mm
    height = AXIS_H + ROW_H * len(rows) + 2 * mm
    d = _drawing(width, height, font)
    top = height - 1 * mm
    x_of = _axis(d, LABEL_W, plot_right, AXIS_H, top, 0.0, 1.0,
                 [i / 10 for i in range(11)], fmt, axis_title, font)
    for i, (label, parts) in enumerate(rows):
        yc = top - ROW_H * (i + 0.5)
        d.add(String(LABEL_W - 2 * mm, yc - 2.3, label, fontName=font, fontSize=SIZE,
                     textAnchor="end"))
        acc = 0.0
        for share, fill in zip(parts, fills, strict=True):
            x0, x1 = x_of(acc), x_of(acc + share)
            d.add(Rect(x0, yc - ROW_H * 0.35, x1 - x0, ROW_H * 0.7, fillColor=fill, strokeColor=None))
            if x1 - x0 > 8 * mm:
                d.add(String((x0 + x1) / 2, yc - 2.3, fmt(share), fontName=font, fontSize=SIZE - 0.5,
                             fillColor=colors.white if fill != GRID else INK, textAnchor="middle"))
            acc += share
    return d


def column_chart(categories: Sequence[str], series: Sequence[Sequence[float]],
                 fills: Sequence[colors.Color], width: float, font: str, x_title: str,
                 y_title: str, fmt: Format, height: float = 50 * mm) -> Drawing:
    """Stacked columns, one per category (in the given order), with a value axis."""
    d = _drawing(width, height, font)
    left, bottom, top = 16 * mm, AXIS_H, height - 3 * mm
    totals = [sum(s[i] for s in series) for i in range(len(categories))]
    ticks = nice_ticks(0.0, max([*totals, 1e-9]), 5)
    hi = ticks[-1]

    def y_of(v: float) -> float:
        return bottom + (top - bottom) * v / hi
    for t in ticks:
        d.add(Line(left, y_of(t), width, y_of(t), strokeColor=GRID, strokeWidth=0.4))
        d.add(String(left - 1.5 * mm, y_of(t) - 2.3, fmt(t), fontName=font, fontSize=SIZE - 0.5,
                     textAnchor="end"))
    d.add(Line(left, bottom, width, bottom, strokeColor=INK, strokeWidth=0.6))
    d.add(Line(left, bottom, left, top, strokeColor=INK, strokeWidth=0.6))
    slot = (width - left) / max(len(categories), 1)
    for i, cat in enumerate(categories):
        acc = 0.0
        x = left + slot * (i + 0.2)
        for s, fill in zip(series, fills, strict=True):
            d.add(Rect(x, y_of(acc), slot * 0.6, y_of(acc + s[i]) - y_of(acc), fillColor=fill,
                       strokeColor=None))
            acc += s[i]
        d.add(String(x + slot * 0.3, y_of(acc) + 1 * mm, fmt(acc), fontName=font,
                     fontSize=SIZE - 1, textAnchor="middle"))
        d.add(String(x + slot * 0.3, bottom - 4 * mm, cat, fontName=font, fontSize=SIZE - 0.5,
                     textAnchor="middle"))
    d.add(String((left + width) / 2, bottom - 8.5 * mm, x_title, fontName=font, fontSize=SIZE,
                 textAnchor="middle"))
    title = String(0, 0, y_title, fontName=font, fontSize=SIZE, textAnchor="middle")
    g = Group(title)
    g.transform = (0, 1, -1, 0, 3 * mm, (bottom + top) / 2)
    d.add(g)
    return d
