"""`cardgen diff [OLD]`: the value changes of card_data/ since a git revision or another
project folder, printed and written to output/diff/changes.md and changes.json."""

from __future__ import annotations

import tempfile
from dataclasses import replace
from pathlib import Path

from ..errors import CardgenError, error, has_errors
from ..files.safepath import in_output
from ..files.write import atomic_write

#: What `cardgen diff` compares with when no revision is given.
DEFAULT = "HEAD"


def diff(project: Path, since: str = DEFAULT) -> tuple[list[str], list[Path]]:
    """The change lines (``charles-iv political 3 → 4 (card_data/cards/luxembourg.yaml:10)``)
    and the files written."""
    from ..data.load import load
    from ..data.project import load_project
    from ..sheet.diff import changes_json, changes_markdown, value_changes
    from ..translate.review import git_card_data
    gathered, findings = load_project(project)
    if has_errors(findings):
        raise CardgenError(findings)
    folder = Path(since)
    try:
        if (folder / "card_data").is_dir():
            old, _ = load(folder)
        else:
            with tempfile.TemporaryDirectory(prefix="cardgen-diff-") as tmp:
                git_card_data(project, since, Path(tmp), what="cardgen diff")
                old, _ = load(Path(tmp))
    except CardgenError as exc:
        if all(f.code == "usage" for f in exc.findings):
            raise
        raise CardgenError([error("usage", f"cardgen diff {since}: the card data there cannot "
                                  "be loaded (its problems follow)",
                                  hint="compare with another revision or folder"),
                            *(replace(f, message=f"at {since}: {f.message}")
                              for f in exc.findings)]) from None
    changes = value_changes(old, gathered.data)
    written = []
    for name, text in (("changes.md", changes_markdown(changes, since)),
                       ("changes.json", changes_json(changes, since))):
        path = in_output(project, f"diff/{name}")
        atomic_write(path, text.encode("utf-8"))
        written.append(path)
    return [c.line() for c in changes], written
