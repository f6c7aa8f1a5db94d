"""The honest floor: the build's own drawing, replayed through bare ReportLab.

``python bench/floor.py record PROJECT LOG`` runs one cold, serial build of PROJECT with
ReportLab's canvas, path and text objects wrapped, and writes LOG: for every PDF the build
saves, its canvas settings and every canvas operation in order (colours as converted, images
as drawn, each face's operations where a file defines the face's form).

``python bench/floor.py replay LOG OUT`` registers the same fonts and replays every PDF's
operations on a plain ``reportlab.pdfgen.canvas.Canvas`` into OUT (one file per PDF), then
prints the CPU and wall seconds it spent reading LOG (not part of the floor) as JSON.

So the floor writes the same files with the same drawing: the same pages, paths, text,
images, gradients and forms, through ReportLab's own code, but with none of the build's
work of deciding what to draw (loading, checking, composing, fitting text, preparing art,
placing cards). It is the ReportLab cost of these PDFs when each file draws its faces
itself, which is what a file-by-file ReportLab writer must do; see bench/README.md.
"""

from __future__ import annotations

import io
import itertools
import json
import pickle
import sys
import time
from pathlib import Path
from typing import Any

from reportlab.lib.utils import ImageReader
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen import canvas as rl_canvas
from reportlab.pdfgen.pathobject import PDFPathObject
from reportlab.pdfgen.textobject import PDFTextObject

#: Canvas methods that only answer questions: never logged (they draw nothing).
_QUESTIONS = ("get", "stringWidth", "_")
_COLOUR_SETTERS = {"setFillColor", "setStrokeColor"}
_INIT_DROP = {"enforceColorSpace", "cmyk"}


class _Ref:
    """A path or text object in the log, by number."""

    def __init__(self, oid: int):
        self.oid = oid


class _Image:
    """An image as drawn: encoded bytes or a PIL image."""

    def __init__(self, data: Any):
        self.data = data


# --- recording ---------------------------------------------------------------------------

_ids = itertools.count(1)


def _encode(value: Any, log: list) -> Any:
    if isinstance(value, (PDFPathObject, PDFTextObject)):
        oid = getattr(value, "_bench_id", None)
        if oid is None:  # made inside ReportLab and handed over: log its code as it is now
            oid = value._bench_id = next(_ids)
            log.append(("raw_path", oid, value.getCode()))
        return _Ref(oid)
    if isinstance(value, ImageReader):
        fp = getattr(value, "fp", None)
        if isinstance(fp, io.BytesIO):
            return _Image(fp.getvalue())
        pil = getattr(value, "_image", None)
        if pil is not None:
            return _Image(pil)
        return _Image(Path(value.fileName).read_bytes())
    if isinstance(value, (list, tuple)):
        return type(value)(_encode(v, log) for v in value)
    return value


def _canvas_wrapper(name: str, method: Any) -> Any:
    def wrapped(self, *args, **kwargs):
        log = getattr(self, "_bench_log", None)
        depth = getattr(self, "_bench_depth", 0)
        if log is None or depth:
            return method(self, *args, **kwargs)
        if name in _COLOUR_SETTERS and self._enforceColorSpace and args:
            args = (self._enforceColorSpace(args[0]), *args[1:])
        if name == "endForm":
            kwargs = {}  # a subclass's complete resources: bare ReportLab makes its own
        entry = ("call", name, _encode(args, log), _encode(kwargs, log))
        self._bench_depth = depth + 1
        try:
            result = method(self, *args, **kwargs)
        finally:
            self._bench_depth = depth
        if isinstance(result, (PDFPathObject, PDFTextObject)):
            result._bench_id = next(_ids)
            result._bench_log = log
            result._bench_canvas = self
            entry = ("new", result._bench_id, *entry[1:])
        log.append(entry)
        return result

    return wrapped


def _object_wrapper(name: str, method: Any) -> Any:
    def wrapped(self, *args, **kwargs):
        log = getattr(self, "_bench_log", None)
        depth = getattr(self, "_bench_depth", 0)
        if log is None or depth:
            return method(self, *args, **kwargs)
        canvas = getattr(self, "_bench_canvas", None)
        enforce = getattr(canvas, "_enforceColorSpace", None)
        if name in _COLOUR_SETTERS and enforce and args:
            args = (enforce(args[0]), *args[1:])
        log.append(("obj", self._bench_id, name, _encode(args, log), _encode(kwargs, log)))
        self._bench_depth = depth + 1
        try:
            return method(self, *args, **kwargs)
        finally:
            self._bench_depth = depth

    return wrapped


def _public(cls: type) -> list[str]:
    names = set()
    for klass in cls.__mro__:
        if klass is object:
            continue
        names |= {n for n, v in vars(klass).items()
                  if callable(v) and not n.startswith(_QUESTIONS) and n != "__init__"}
    return sorted(names)


def install_recorder(saved: list[dict]) -> None:
    """Wrap ReportLab so every canvas logs its operations; each saved PDF's log is appended
    to ``saved``."""
    base = rl_canvas.Canvas
    for name in _public(base):
        setattr(base, name, _canvas_wrapper(name, getattr(base, name)))
    for cls in (PDFPathObject, PDFTextObject):
        # platypus paragraphs set text through two private methods of the text object
        extra = ["_textOut", "_setFont"] if cls is PDFTextObject else []
        for name in _public(cls) + extra:
            setattr(cls, name, _object_wrapper(name, getattr(cls, name)))
    init, save = base.__init__, base.save

    def init_wrapped(self, filename, *args, **kwargs):
        init(self, filename, *args, **kwargs)
        settings = {k: v for k, v in kwargs.items() if k not in _INIT_DROP}
        self._bench_log = [("init", tuple(a for a in args), settings)]

    def save_wrapped(self):
        log = self._bench_log
        self._bench_log = None
        saved.append({"log": log})
        return save(self)

    base.__init__ = init_wrapped
    base.save = save_wrapped


def install_face_hooks() -> None:
    """Where a file takes a face's form from the face library, log the face's own drawing
    operations as a form defined in that file (a build without the library draws each
    face in each file: nothing to do)."""
    try:
        from cardgen.render import faceforms
    except ImportError:
        return

    record, define = faceforms.FaceLibrary._record, faceforms.FileForms.define
    ops: dict[tuple[int, Any], list] = {}

    def record_wrapped(self, key, draw):
        log = self._canvas._bench_log
        start = len(log)
        result = record(self, key, draw)
        if len(log) > start:
            ops[(id(self), key)] = log[start:]
            del log[start:]
        return result

    def define_wrapped(self, name, face):
        new = name not in self._defined
        result = define(self, name, face)
        if new:
            key = "back" if face is None else face
            w, h = self.library.layout.page_size
            self.canvas._bench_log.append(("form", name, (0, 0, w, h),
                                           ops[(id(self.library), key)]))
        return result

    faceforms.FaceLibrary._record = record_wrapped
    faceforms.FileForms.define = define_wrapped


def record(project: Path, out: Path) -> None:
    saved: list[dict] = []
    install_recorder(saved)
    install_face_hooks()
    from cardgen import fonts
    from cardgen.build.build import build
    from cardgen.build.options import BuildOptions

    # a cold build: faces kept from an earlier build would not be drawn, so not logged
    for kept in (project / "output" / ".cache").glob("faces-*.bin"):
        kept.unlink()
    build(project, BuildOptions(jobs=1))
    # the build read its fonts from a copy of the inputs, removed since: the project's own
    registered = {name: str(project / "fonts" / path.name)
                  for path, name in fonts._REGISTERED.items()}
    with open(out, "wb") as fh:
        pickle.dump({"fonts": registered, "pdfs": saved}, fh, protocol=pickle.HIGHEST_PROTOCOL)


# --- replaying -----------------------------------------------------------------------------

class _Canvas(rl_canvas.Canvas):
    """ReportLab's canvas, its forms given the gradients and graphics states they use (as
    the build's canvas does; ReportLab's own forms would lose them)."""

    def endForm(self, **extra: Any) -> None:
        from cardgen.render.cmyk import form_resources  # the build's own, one definition
        super().endForm(Resources=form_resources(self), **extra)


def _decode(value: Any, objs: dict[int, Any]) -> Any:
    if isinstance(value, _Ref):
        return objs[value.oid]
    if isinstance(value, _Image):
        data = value.data
        return ImageReader(io.BytesIO(data) if isinstance(data, bytes) else data)
    if isinstance(value, (list, tuple)):
        return type(value)(_decode(v, objs) for v in value)
    return value


def replay_ops(c: rl_canvas.Canvas, entries: list, objs: dict[int, Any]) -> None:
    for entry in entries:
        kind = entry[0]
        if kind == "call":
            _, name, args, kwargs = entry
            getattr(c, name)(*_decode(args, objs), **_decode(kwargs, objs))
        elif kind == "new":
            _, oid, name, args, kwargs = entry
            objs[oid] = getattr(c, name)(*_decode(args, objs), **_decode(kwargs, objs))
        elif kind == "obj":
            _, oid, name, args, kwargs = entry
            getattr(objs[oid], name)(*_decode(args, objs), **_decode(kwargs, objs))
        elif kind == "raw_path":
            path = PDFPathObject()
            path._code = [entry[2]]
            objs[entry[1]] = path
        elif kind == "form":
            _, name, bbox, ops = entry
            c.beginForm(name, *bbox)
            replay_ops(c, ops, objs)
            c.endForm()


def replay(log_file: Path, out: Path) -> dict[str, float]:
    cpu, wall = time.process_time(), time.perf_counter()
    with open(log_file, "rb") as fh:
        data = pickle.load(fh)
    load = {"load_cpu_s": time.process_time() - cpu, "load_wall_s": time.perf_counter() - wall}
    out.mkdir(parents=True, exist_ok=True)
    for name, path in sorted(data["fonts"].items()):
        pdfmetrics.registerFont(TTFont(name, path))
    for i, pdf in enumerate(data["pdfs"], 1):
        (_, args, settings), *entries = pdf["log"]
        buf = io.BytesIO()
        c = _Canvas(buf, *args, **settings)
        replay_ops(c, entries, {})
        c.save()
        (out / f"{i:03d}.pdf").write_bytes(buf.getvalue())
    return load


def main(argv: list[str]) -> int:
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # this checkout's cardgen
    if len(argv) == 3 and argv[0] == "record":
        record(Path(argv[1]), Path(argv[2]))
        return 0
    if len(argv) == 3 and argv[0] == "replay":
        print(json.dumps(replay(Path(argv[1]), Path(argv[2]))))
        return 0
    print(__doc__.split("\n\n")[1], file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
