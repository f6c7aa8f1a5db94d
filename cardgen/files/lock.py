"""One build at a time per output folder: a second build waits for none and says why."""

from __future__ import annotations

import fcntl
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from ..errors import CardgenError, Location, error
from .oserrors import os_errors
from .safepath import output_path
from .write import make_folder

LOCK_NAME = ".cardgen.lock"


@contextmanager
def build_lock(output: Path) -> Iterator[None]:
    """Hold an exclusive lock on ``output`` for the duration of a build.

    The lock is an OS file lock, so it is released even when the process is killed; forked
    workers share it, and they die with the build (:mod:`cardgen.build.making`), so a killed build
    never leaves it held.
    """
    path = output_path(output, LOCK_NAME)  # output/ inside the project, the lock no link out
    make_folder(output)
    with os_errors("lock", path):
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC | os.O_NOFOLLOW, 0o644)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise CardgenError(error(
                "build-running", "another cardgen build is writing to this output folder",
                location=Location(str(output)),
                hint="wait for it to finish, then build again")) from None
        yield
    finally:
        os.close(fd)
