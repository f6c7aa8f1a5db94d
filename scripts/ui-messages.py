"""Update cardgen/locale/cs/LC_MESSAGES/cardgen.po from the code (Babel's extraction):
``python scripts/ui-messages.py``; then translate every new or fuzzy entry."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
POT = ROOT / "build" / "cardgen.pot"

if __name__ == "__main__":
    POT.parent.mkdir(exist_ok=True)
    babel = [sys.executable, "-m", "babel.messages.frontend"]
    subprocess.run([*babel, "extract", "-F", str(ROOT / "babel.cfg"), "--no-location",
                    "--omit-header", "-o", str(POT), str(ROOT / "cardgen")], check=True)
    subprocess.run([*babel, "update", "-i", str(POT), "-d", str(ROOT / "cardgen" / "locale"),
                    "-D", "cardgen", "-l", "cs", "--no-wrap", "--ignore-obsolete"], check=True)
