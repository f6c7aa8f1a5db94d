"""Representative card faces built in code (shared by the render tests), and their fit."""

from __future__ import annotations

from pathlib import Path

import pytest

from cardgen.data.layout import load_layout
from cardgen.render import check_face
from cardgen.wording.face import CardFace, CurrencyStyle, ShieldStyle, TextLine

ROOT = Path(__file__).resolve().parents[1]
LAYOUT = ROOT / "layouts" / "card.yaml"

CUR = {
    "church": CurrencyStyle("church", "Church", "#c9a227", "cross"),
    "german": CurrencyStyle("german", "German", "#3b3b3b", "eagle"),
    "western": CurrencyStyle("western", "Western", "#2f6db5", "lily"),
    "eastern": CurrencyStyle("eastern", "Eastern", "#3f8f4f", "star"),
    "any": CurrencyStyle("any", "any", "#8a7f70", "blank"),
}
ALL_CUR = tuple(CUR.values())
SHIELD = ShieldStyle("edward-iii", "Edward III shield", "#c0392b", "lion")
KEYS = ShieldStyle("clement-vi", "Clement VI shield", "#d4a017", "keys")


def face(**kw: object) -> CardFace:
    base: dict[str, object] = dict(
        card_id="x", lang="en", kind="card", side=None, name="Card", political=1, military=1,
        yields=("church",), cost=(), use_cost=None, use_cost_label=None, shield=None,
        crown=False, year=None, lines=(), deck_label="Market", number=1, version="v0.27.4",
        art=None, currencies=ALL_CUR,
    )
    base.update(kw)
    return CardFace(**base)  # type: ignore[arg-type]


def samples() -> list[CardFace]:
    return [
        face(card_id="blanche-de-valois", lang="en", side="luxembourg", name="Blanche de Valois",
             political=2, military=0, yields=("western",), deck_label="Starter", number=2,
             lines=(TextLine("deed", "Gain 2 :western:. If Wittelsbach holds John, move John "
                             "1\u00a0step toward Charles.", title="French Bride"),)),
        face(card_id="charles-iv", lang="cs", kind="king", side="luxembourg", name="Karel IV.",
             political=3, military=1, yields=("any",), crown=True, deck_label="Základní",
             number=1,
             lines=(TextLine("deed", "Umísti 2\u00a0vliv do jedné kurfiřtské země, kde už máš "
                             "vliv, a lízni 1\u00a0kartu.", title="Římský král"),
                    TextLine("boost", "Umísti ještě 1\u00a0vliv do téže země.",
                             cost=("church", "church")))),
        face(card_id="edward-iii", lang="en", side=None, name="Edward III", political=1,
             military=3, yields=("western", "western"), cost=("western", "western", "any"),
             shield=SHIELD, number=23,
             lines=(TextLine("deed", "Place 2 military in the Low Countries.",
                             title="Claim to France"),
                    TextLine("boost", "Place 1 more military there.", cost=("western",)),
                    TextLine("acquire", "place :shield-edward-iii: in your Court.",
                             title="When acquired:"),
                    TextLine("passive", "If :shield-edward-iii: is in your Court, Crécy gives "
                             "you 1 extra vote."))),
        face(card_id="john-iv-drazice", lang="cs", side=None, name="Jan IV. z Dražic",
             political=2, military=0, yields=("church",), cost=("church", "church", "eastern"),
             number=31,
             lines=(TextLine("deed", "Umísti 2\u00a0vliv do Trevíru nebo Mohuče.",
                             title="Biskup pražský"),
                    TextLine("counter", "Když soupeř zahraje čin s :church:, můžeš tuto kartu "
                             "odhodit z ruky a zrušit jeho čin kontrou.", title="Kontra"))),
        face(card_id="royal-retinue", lang="en", side="luxembourg", name="Royal Retinue",
             political=0, military=0, yields=("church",), deck_label="Starter", number=8,
             copies=4),
        face(card_id="john-of-luxembourg-w", lang="en", kind="john", side="wittelsbach",
             name="John of Luxembourg", political=2, military=3, yields=(), use_cost=3,
             use_cost_label="Costs 3 :any: to use", deck_label="Starter", number=12,
             lines=(TextLine("deed", "Place 3 military in one battleground where you already "
                             "have a foothold.", title="The Blind King"),)),
        face(card_id="declaration-of-rhens", lang="cs", kind="event", side=None,
             name="Rhenské prohlášení", political=None, military=None, yields=(), year=1338,
             kind_label="Událost", number=45, deck_label="Trh",
             lines=(TextLine("event", "Kurfiřti prohlašují, že zvolený král nepotřebuje "
                             "papežovo potvrzení. Každý hráč s většinou v alespoň dvou "
                             "církevních kurfiřtských zemích získá 1\u00a0hlas."),
                    TextLine("note", "Tuto událost nelze zrušit kontrou."))),
    ]


LONG_CS = (
    "Vyber jednu kurfiřtskou zemi, ve které má soupeř nejvýznamnější většinu, a přesuň "
    "odtamtud až 2\u00a0vlivy do sousední země se zásobovací linií. Pokud tím získáš "
    "většinu, lízni 1\u00a0kartu a umísti 1\u00a0vojsko na libovolné bojiště, kde už máš "
    "opěrný bod. Nelze-li čin vyhodnotit, nestane se nic."
)


def long_czech() -> CardFace:
    return face(card_id="henry-of-lipa", lang="cs", name="Jindřich z Lipé", political=2,
                military=2, yields=("eastern", "german"), cost=("eastern", "eastern", "german"),
                shield=KEYS, number=27, deck_label="Trh",
                lines=(TextLine("deed", LONG_CS, title="Nejvyšší maršálek"),
                       TextLine("boost", "Místo 1\u00a0vojska umísti 2\u00a0vojska.",
                                cost=("eastern",)),
                       TextLine("acquire", "umísti :shield-clement-vi: do kurie.",
                                title="Při získání:")))


@pytest.mark.parametrize("f", [*samples(), long_czech()], ids=lambda f: f"{f.card_id}-{f.lang}")
def test_sample_faces_fit(f: CardFace) -> None:
    fit, findings = check_face(f, load_layout(LAYOUT))
    assert fit.fits, findings
    assert fit.size >= 6.5
    assert not findings


def test_an_event_name_spreads_over_the_bar_that_has_no_value_icons() -> None:
    """An event shows no values (2.31, 2.32): its name may fill nearly the whole bar, so a
    name that would be too long between the icons fits there."""
    layout = load_layout(LAYOUT)
    name = "Coronation of the Emperor in Rome by the Cardinal"
    on_character = face(name=name)
    on_event = face(name=name, kind="event", political=None, military=None)
    assert "name-overflow" in [f.code for f in check_face(on_character, layout)[1]]
    assert "name-overflow" not in [f.code for f in check_face(on_event, layout)[1]]
