"""`cardgen proof`: the bilingual review sheet, all cards or what changed since."""

from __future__ import annotations

import tempfile
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from ..data.model import LANGS
from ..errors import CardgenError, Severity, error
from ..files.safepath import in_output
from ..files.write import atomic_write
from .check import face_keys_of, run_check
from .options import read_manifest

if TYPE_CHECKING:
    from ..data.model import GameData
    from ..translate.review import Earlier


#: output/proof/…: every card; only what changed (`--changed-since`), kept apart so that
#: neither overwrites the other.
FULL_PROOF, CHANGES_PROOF = "cs-en.pdf", "cs-en-changes.pdf"


def proof(project: Path, *, only_problems: bool = False, changed_since: str | None = None
          ) -> Path:
    """`cardgen proof`: output/proof/cs-en.pdf with every card in both languages, or with
    ``changed_since`` (an earlier manifest.json or a git revision) cs-en-changes.pdf with
    only the changed cards."""
    from ..render.card import draw_card
    from ..translate.proof import build_proof
    from ..translate.translation import text_states
    from ..wording.compose import compose_faces
    # through the output wall before the long part: a link out or a FIFO there is refused
    path = in_output(project, "proof/" + (FULL_PROOF if changed_since is None else CHANGES_PROOF))
    report = run_check(project)
    data, gathered = report.data, report.project
    if data is None or gathered is None:
        raise CardgenError([f for f in report.findings if f.severity is Severity.ERROR])
    # a proof is most useful when the texts have errors: compose even then
    layout = report.layout or gathered.card_layout()
    faces = report.faces or {lang: compose_faces(data, lang, project) for lang in LANGS}
    earlier, hashes = None, None
    if changed_since is not None:
        earlier = _earlier(project, changed_since, data)
        keys = report.face_keys or face_keys_of(faces, layout, project)
        hashes = {lang: {card: key[:16] for card, key in keys[lang].items()} for lang in LANGS}
    pdf = build_proof(data, faces["en"], faces["cs"], report.findings, draw_card, layout,
                      only_problems=only_problems, earlier=earlier, hashes=hashes,
                      states=text_states(data, gathered))
    atomic_write(in_output(project, path.relative_to(project / "output").as_posix()), pdf)
    return path


def _earlier(project: Path, since: str, today: GameData) -> Earlier:
    """What `proof --changed-since` compares with: an earlier build's manifest.json (and the
    other languages' manifests beside it), or card_data/ at a git revision, composed again
    (with its value changes, the lines `cardgen diff` prints; a manifest keeps no values)."""
    from ..translate.review import Earlier, git_card_data, manifest_earlier, texts_of
    path = Path(since)
    if path.exists():
        docs = {}
        for lang in LANGS:
            other = path.parent.parent / lang / path.name
            if other != path and other.is_file():
                doc = read_manifest(other)[1]
                docs[str(doc.get("lang") or lang)] = doc
        doc = read_manifest(path)[1]
        docs[str(doc.get("lang") or path.parent.name)] = doc
        return manifest_earlier(str(path), docs)
    from ..data.load import load
    from ..wording.compose import compose_faces
    with tempfile.TemporaryDirectory(prefix="cardgen-proof-") as tmp:
        git_card_data(project, since, Path(tmp))
        try:
            data, _ = load(Path(tmp))
            return Earlier(f"git {since}", {lang: texts_of(compose_faces(data, lang, Path(tmp)))
                                            for lang in LANGS}, values=_value_lines(data, today))
        except CardgenError as exc:
            raise CardgenError([error("usage", f"--changed-since {since}: the card data of that "
                                      "revision cannot be composed (its problems follow)",
                                      hint="compare with a later revision or a manifest"),
                                *(replace(f, message=f"at {since}: {f.message}")
                                  for f in exc.findings)]) from None


def _value_lines(old: GameData, new: GameData) -> dict[str, list[str]]:
    """Card or place id → its value change lines since ``old``, as `cardgen diff` says them."""
    from ..sheet.diff import value_changes
    out: dict[str, list[str]] = {}
    for change in value_changes(old, new):
        out.setdefault(change.id, []).append(change.line())
    return out
