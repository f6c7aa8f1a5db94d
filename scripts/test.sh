#!/usr/bin/env bash
# Set up a fresh machine and run the whole test suite (the README's test command).
#
# Installs, only where missing: Debian's poppler-utils (pdftoppm, pdftotext, pdffonts),
# qpdf, ghostscript, gettext (msgfmt, msgmerge), chromium and chromium-driver (the browser
# test of `cardgen serve`), through apt-get as root or with sudo; then a virtual environment
# .venv/ (PEP 668: Debian's Python refuses pip outside one) with cardgen and its test, docs
# and sheet extras (openpyxl, odfpy: `cardgen sheet`); the manual (mkdocs.yml, docs/) is
# built with --strict, so no link of it breaks.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v pdftoppm >/dev/null || ! command -v qpdf >/dev/null || ! command -v gs >/dev/null \
        || ! command -v chromedriver >/dev/null || ! command -v msgmerge >/dev/null; then
    if command -v apt-get >/dev/null; then
        sudo=""
        [ "$(id -u)" = 0 ] || sudo="sudo"
        $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq \
            poppler-utils qpdf ghostscript chromium chromium-driver gettext >/dev/null
    else
        echo "install poppler-utils, qpdf, ghostscript, gettext and chromium with its driver" >&2
    fi
fi
# the machine's packages stay visible, so what is installed already is not fetched again
[ -x .venv/bin/python ] || python3 -m venv --system-site-packages .venv
.venv/bin/python -m pip install -q -e '.[test,docs,sheet]'
.venv/bin/python -m ruff check cardgen tests bench
.venv/bin/python -m mypy cardgen
# dead code: unused functions, methods, attributes, unreachable code (false positives whitelisted)
.venv/bin/python -m vulture cardgen tests bench scripts/vulture-whitelist.py --min-confidence 60
# the manual: every page, link and anchor (about 2 s); built into a folder removed after
site=$(mktemp -d)
NO_MKDOCS_2_WARNING=1 .venv/bin/python -m mkdocs build --strict --quiet --site-dir "$site"
rm -rf "$site"
# one test process per core; a file's tests stay together, so they share its built project
.venv/bin/python -m pytest -n auto --dist loadfile
