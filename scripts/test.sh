#!/usr/bin/env bash
# Set up a fresh machine and run the whole test suite (the README's test command).
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v pdftoppm >/dev/null || ! command -v qpdf >/dev/null || ! command -v gs >/dev/null \
        || ! command -v chromedriver >/dev/null || ! command -v msgmerge >/dev/null; then
    if command -v apt-get >/dev/null; then
        apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
            poppler-utils qpdf ghostscript chromium chromium-driver gettext >/dev/null
    fi
fi
python3 -m pip install -q -e '.[test]'
python3 -m ruff check cardgen tests bench
python3 -m pytest
