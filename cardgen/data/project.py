"""The gathered project: every input file read and parsed once, for every stage.

A build used to parse its YAML 76 times over 19 files (``components.yaml`` 24 times): each
target and check read the files it needed again (issue 37). :func:`load_project` reads the
card data into :class:`~cardgen.data.model.GameData` and keeps every file it parsed in one
:class:`Documents`; the later stages take the :class:`Project` and read their layouts from
it, so each file is read from disk and parsed at most once per project, and what a stage
derives from a file (a typed layout, the components with their typography) is made once.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from ..errors import CardgenError, Finding, Location, error
from ..files.oserrors import check_regular
from ..files.safepath import in_project
from .yamlsrc import LocMap, load_yaml_file

if TYPE_CHECKING:
    from .cardcache import CardFileCache
    from .layout import Layout
    from .model import GameData

#: The card layout every card is drawn with.
CARD_LAYOUT = Path("layouts") / "card.yaml"
#: What one command may parse of a project's data files, repeats not counted (the shipped
#: project parses 18 files, 0.3 MB): a folder of planted files stops here, not at the disk.
MAX_DATA_FILES = 1000
MAX_DATA_BYTES = 256 * 1024 * 1024

T = TypeVar("T")


class Documents:
    """The YAML files of one project folder, each read and parsed at most once.

    A file is named by its path relative to the project (``layouts/board.yaml``); what it
    parsed to, or the error it raised, is kept and given (raised) again on every read. The
    parsed values are shared: a reader that changes one must copy it first.
    """

    def __init__(self, root: Path) -> None:
        self.root = root
        self._parsed: dict[str, Any] = {}
        self._failed: dict[str, CardgenError] = {}
        #: layouts loaded through ``extends:`` by this command, repeats counted: a file is
        #: parsed once, but each load merges its whole tree again (a diamond doubles per level)
        self.extends_loads = 0
        self.files_read = 0  # data files parsed by this command, against MAX_DATA_FILES
        self.bytes_read = 0  # their sizes, against MAX_DATA_BYTES

    def exists(self, rel: str) -> bool:
        return (self.root / rel).is_file()

    def read(self, rel: str | Path) -> Any:
        """The parsed content of ``rel``; a CardgenError (kept) when it cannot be read,
        lies outside the project through a link, or is not valid YAML."""
        rel = self.rel(rel)
        if rel in self._parsed:
            return self._parsed[rel]
        if rel in self._failed:
            raise self._failed[rel]
        path = self.root / rel
        try:
            in_project(path, self.root, what="data file")
            self._spend(path, rel)
            value = load_yaml_file(path, rel)
        except CardgenError as exc:
            self._failed[rel] = exc
            raise
        self._parsed[rel] = value
        return value

    def _spend(self, path: Path, rel: str) -> None:
        """Count ``path`` against the command's data budget before it is read."""
        self.files_read += 1
        with contextlib.suppress(OSError):  # the reader then says what is wrong with it
            self.bytes_read += path.stat().st_size
        if self.files_read > MAX_DATA_FILES or self.bytes_read > MAX_DATA_BYTES:
            raise CardgenError(error(
                "data-budget", f"this command would parse more than {MAX_DATA_FILES:,} data files "
                f"or {MAX_DATA_BYTES // 2**20} MB of them (the budget of data read is spent at "
                f"this file, after {self.files_read - 1:,} files and "
                f"{self.bytes_read // 2**20} MB)", location=Location(rel),
                hint="remove the files that are no cards or layouts of yours from card_data/ "
                "and layouts/; a larger project needs MAX_DATA_FILES / MAX_DATA_BYTES raised in "
                "cardgen/data/project.py"))

    def mapping(self, rel: str, findings: list[Finding]) -> LocMap | None:
        """``rel`` as a mapping, or None with why (missing, unreadable, not a mapping)
        added to ``findings``."""
        if not self.exists(rel):
            findings.append(check_regular(self.root / rel, rel)  # a loop of links, a FIFO …
                            or error("file-missing", f"{rel} not found", location=Location(rel)))
            return None
        try:
            raw = self.read(rel)
        except CardgenError as exc:
            findings.extend(f for f in exc.findings if f not in findings)
            return None
        if not isinstance(raw, LocMap):
            findings.append(error("shape", f"{rel} must be a mapping", location=Location(rel)))
            return None
        return raw

    def rel(self, path: str | Path) -> str:
        """``path`` relative to the project (as the documents are named)."""
        path = Path(path)
        if not path.is_absolute():
            return path.as_posix()
        for root in (self.root, self.root.resolve()):
            if path.is_relative_to(root):
                return path.relative_to(root).as_posix()
        return str(path)


@dataclass(frozen=True, eq=False)
class Project:
    """One project as every stage after the loader sees it: the card data and the parsed
    input files, with what the stages derived from them."""

    root: Path
    data: GameData
    documents: Documents
    _derived: dict[str, Any] = field(default_factory=dict, repr=False)

    @classmethod
    def around(cls, data: GameData) -> Project:
        """A project around card data loaded on its own (a test's, a tool's): its other
        files are read when a stage first asks for them."""
        return cls(data.root, data, Documents(data.root))

    def derived(self, key: str, make: Callable[[], T]) -> T:
        """What ``make`` derives from the project's files, made once per project (a typed
        layout, the components…); a CardgenError it raises is raised again each time."""
        if key not in self._derived:
            try:
                self._derived[key] = make()
            except CardgenError as exc:
                self._derived[key] = exc
        value = self._derived[key]
        if isinstance(value, CardgenError):
            raise value
        return value

    def card_layout(self) -> Layout:
        """``layouts/card.yaml``, merged, validated and frozen (a CardgenError if not)."""
        from .layout import load_layout
        return self.derived("layout:card", lambda: load_layout(
            self.root / CARD_LAYOUT, documents=self.documents))


def load_project(root: Path, card_cache: CardFileCache | None = None
                 ) -> tuple[Project, list[Finding]]:
    """The project at ``root`` with every finding its card data raised; raises only when
    there is no card data to load (no ``card_data/`` folder)."""
    from .load import load
    documents = Documents(root)
    data, findings = load(root, card_cache, documents)
    return Project(root, data, documents), findings
