"""How the PO reader's cost grows with the file (issue 38: it was quadratic in escapes and
continuation lines, a 2 MB file taking minutes). Prints the CPU seconds of parsing files of
each kind at 1×, 2× and 4× the size; linear means each doubling about doubles the time.

    python bench/po.py [--lines 100000]
"""

from __future__ import annotations

import argparse
import statistics
import time

from cardgen.translate.pofile import parse_po

HEAD = b'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n'


def files(k: int) -> dict[str, bytes]:
    return {
        "escapes": HEAD + b'msgid "a"\nmsgstr "' + b"\\101" * k + b'"\n',
        "continuations": HEAD + b'msgid "a"\nmsgstr ""\n' + b'"xy"\n' * k,
        "previous": HEAD + b'#| msgid "a"\n' + b'#| "xy"\n' * k + b'msgid "a"\nmsgstr "b"\n',
    }


def cpu(raw: bytes, repeat: int = 3) -> float:
    times = []
    for _ in range(repeat):
        start = time.process_time()
        parse_po(raw, "bench.po")
        times.append(time.process_time() - start)
    return statistics.median(times)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--lines", type=int, default=100_000)
    k = ap.parse_args().lines
    print("kind            size (MB)   CPU s (median of 3)   ×2     ×4")
    for name in files(k):
        t = [cpu(files(k * m)[name]) for m in (1, 2, 4)]
        size = len(files(k * 4)[name]) / 1e6
        print(f"{name:15} {size:9.1f}   {t[0]:8.2f}             {t[1] / t[0]:4.1f}   {t[2] / t[0]:4.1f}")


if __name__ == "__main__":
    main()
