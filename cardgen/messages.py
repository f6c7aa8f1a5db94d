"""The terminal's own words in the user's language: gettext catalogues under
``cardgen/locale/<lang>/LC_MESSAGES/cardgen.po``, read (and compiled in memory) with Babel.

The translator is chosen once by the CLI (:func:`use`) and held in a context variable, so a
test or a thread sets its own; without one every message is English.
"""

from __future__ import annotations

import gettext
import io
from collections.abc import Mapping
from contextvars import ContextVar
from functools import cache
from pathlib import Path

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

#: Languages the terminal speaks; English is the source text.
UI_LANGS = ("en", "cs")
LOCALE = Path(__file__).parent / "locale"
DOMAIN = "cardgen"

#: English: the source texts themselves.
ENGLISH = gettext.NullTranslations()
_current: ContextVar[gettext.NullTranslations | None] = ContextVar("cardgen_ui", default=None)


@cache
def translator(lang: str) -> gettext.NullTranslations:
    """The catalogue of ``lang`` (English: the source texts themselves)."""
    po = LOCALE / lang / "LC_MESSAGES" / f"{DOMAIN}.po"
    if lang == "en" or not po.is_file():
        return ENGLISH
    with po.open("rb") as f:
        catalog = read_po(f, locale=lang)
    buffer = io.BytesIO()
    write_mo(buffer, catalog)
    buffer.seek(0)
    return gettext.GNUTranslations(buffer)


def ui_lang(option: str | None, environ: Mapping[str, str]) -> str:
    """The terminal's language: ``--ui-lang`` wins, then the locale (``LC_ALL``,
    ``LC_MESSAGES``, ``LANG``, the first one set, as gettext reads them); English otherwise."""
    if option:
        return option
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = environ.get(name)
        if value:
            code = value.split("_")[0].split(".")[0].lower()
            return code if code in UI_LANGS else "en"
    return "en"


def use(lang: str) -> None:
    """Speak ``lang`` from now on in this context (the CLI calls it once)."""
    _current.set(translator(lang))


def _(message: str) -> str:
    """``message`` in the current language."""
    return (_current.get() or ENGLISH).gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form for ``n`` (Czech has three: 1 karta, 2–4 karty, 5 karet)."""
    return (_current.get() or ENGLISH).ngettext(singular, plural, n)
