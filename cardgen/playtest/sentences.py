"""The report's sentences and names in one language: a finding, a component kind, a
compared figure, each written from its language-neutral record."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .words import Words


def component_name(w: Words, key: str, reminders: Mapping[str, Mapping[str, str]]) -> str:
    """"Vote markers, Luxembourg" from "vote_markers:luxembourg"."""
    group, owner = key.split(":", 1)
    if group in ("vote_markers", "influence", "military"):
        name = w.side(owner)
    elif group == "currency":
        cur = w.data.currencies.get(owner)
        name = (cur.name.get(w.lang) if cur else None) or owner
    else:
        name = (reminders.get(owner) or {}).get(w.lang) or owner
    return w(f"component.{group}", owner=name)


def figure_name(w: Words, row: Mapping[str, Any], reminders: Mapping[str, Mapping[str, str]]) -> str:
    kind, subject = row["kind"], row["subject"]
    if kind == "control":
        country, side = subject.split(":")
        return w("figure.control", country=w.place(country, heading=False), subject=w.side(side))
    if kind == "purchases":
        return w("figure.purchases", subject=w.side(subject))
    if kind in ("bought", "played"):
        return w(f"figure.{kind}", subject=w.card(subject))
    if kind in ("peak", "short"):
        return w(f"figure.{kind}", subject=component_name(w, subject, reminders))
    return w(f"figure.{kind}")


def finding_text(w: Words, f: Mapping[str, Any], reminders: Mapping[str, Mapping[str, str]]) -> str:
    kind = f["kind"]
    if kind in ("house", "house_balanced"):
        return w(f"finding.{kind}", side=w.side(f["side"]), rate=w.pct(f["rate"]), ci=w.ci(f["ci95"]))
    if kind == "electors_held":
        return w("finding.electors_held", holds="; ".join(
            w("finding.holder", side=w.side(s["side"]), electors=w.join([
                w("finding.elector", country=w.place(e["country"], heading=False),
                  rate=w.pct(e["rate"]), ci=w.ci(e["ci95"])) for e in s["electors"]]))
            for s in f["sides"]))
    if kind in ("card_stronger", "card_weaker"):
        return w(f"finding.{kind}", card=w.card(f["card"]), effect=w.pp(abs(f["effect"])).lstrip("+"),
                 ci=w.ci(f["ci95"]), n=w.count(f["n"], "game"))
    if kind == "no_card_effect":
        return w("finding.no_card_effect", games=w.count(f["games"], "game"))
    if kind == "component_short":
        return w("finding.component_short", components="; ".join(
            w("finding.component", component=component_name(w, c["component"], reminders),
              rate=w.pct(c["rate"]), ci=w.ci(c["ci95"]), peak=w.num(c["peak"]),
              printed=w.num(c["printed"])) for c in f["components"]))
    if kind == "first_player":
        return w("finding.first_player", side=w.side(f["side"]),
                 effect=w.pp(abs(f["effect"])).lstrip("+"),
                 direction=w.raw("finding.more" if f["effect"] > 0 else "finding.less"),
                 condition=w.raw(f"finding.{f['condition']}"), ci=w.ci(f["ci95"]))
    raise ValueError(f"unknown finding kind {kind!r}")
