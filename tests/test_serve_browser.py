"""`cardgen serve` end to end in a real headless browser (Debian's chromium + chromium-driver,
driven by Selenium): every card image shows and loads, a saved Czech text redraws that one
card in the open page without a reload, a broken YAML file puts its file:line at the top of
the page while the last good images stay, and repairing it clears the banner."""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

import pytest
from conftest import ROOT, allow_czech_rewording, replace_in

webdriver = pytest.importorskip("selenium.webdriver",
                                reason="selenium is not installed (pip install '.[test]')")
CHROMIUM = shutil.which("chromium")
DRIVER = shutil.which("chromedriver")
pytestmark = pytest.mark.skipif(
    not (CHROMIUM and DRIVER),
    reason="needs Debian's chromium and chromium-driver (apt-get install chromium chromium-driver)")

EVENTS = Path("card_data/cards/events.yaml")
CARD = "dream-at-terenzo"  # card 45, its Czech event text is edited below
CS_TEXT = "Lucemburkové vyřadí ze hry až 2\u00a0karty"
PHYSICAL_CARDS = 82  # rule 2.1, counted with copies (game.yaml counts.physical_cards)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Served:
    """A `cardgen serve` process on the project copy, its output collected line by line."""

    def __init__(self, project: Path):
        self.lines: list[str] = []
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "cardgen.cli", "serve", "--project", str(project),
             "--port", str(_free_port())],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, encoding="utf-8",
            env={**os.environ, "PYTHONPATH": str(ROOT)})
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.append(line.rstrip("\n"))

    def url(self, timeout: float = 30) -> str:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            for line in self.lines:
                if "open http://" in line:
                    return line.split("open ", 1)[1].split()[0]
            assert self.proc.poll() is None, "\n".join(self.lines)
            time.sleep(0.05)
        raise AssertionError("no URL printed:\n" + "\n".join(self.lines))

    def stop(self) -> None:
        self.proc.terminate()
        self.proc.wait(timeout=30)


def _browser():
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--window-size=1400,1000"):
        options.add_argument(arg)
    return webdriver.Chrome(options=options, service=Service(DRIVER))


def _wait(driver, script: str, timeout: float, what: str):
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(driver, timeout, poll_frequency=0.1).until(
        lambda d: d.execute_script(script), message=what)


LOADED = """
const imgs = [...document.querySelectorAll('img.face-img')];
const count = (lang) => imgs.filter(i => i.dataset.lang === lang && i.complete && i.naturalWidth > 0).length;
return {en: count('en'), cs: count('cs'), all: imgs.length};
"""
SRC = """
return Object.fromEntries([...document.querySelectorAll('img.face-img')].map(
    i => [i.dataset.card + '/' + i.dataset.lang + '/' + i.dataset.copy, i.getAttribute('src')]));
"""


def _state(url: str) -> dict:
    with urllib.request.urlopen(url + "api/state", timeout=10) as res:
        return json.load(res)


def _shot(driver, folder: Path, name: str) -> None:
    """A screenshot in the test's output (CARDGEN_SCREENSHOTS, else the test's tmp folder)."""
    folder.mkdir(parents=True, exist_ok=True)
    driver.save_screenshot(str(folder / f"{name}.png"))
    print(f"screenshot: {folder / name}.png")


FULL = """
const imgs = [...document.querySelectorAll('#viewer img.full-img')];
return imgs.length === 2 && imgs.every(i => i.complete && i.naturalWidth > 0) &&
  imgs.map(i => [i.dataset.lang, i.naturalWidth, i.naturalHeight, i.getBoundingClientRect().width]);
"""
REGIONS = """
return [...document.querySelectorAll('#viewer .sheet')[0].querySelectorAll('.ov')].map(o => {
  const r = o.getBoundingClientRect(), s = o.parentNode.getBoundingClientRect();
  return [o.dataset.region, (r.top - s.top) / s.height, r.height / s.height];
});
"""


def test_preview_follows_saves_in_the_browser(project: Path, tmp_path: Path) -> None:
    shots = Path(os.environ.get("CARDGEN_SCREENSHOTS") or tmp_path / "screenshots")
    allow_czech_rewording(project)
    git = ["git", "-C", str(project), "-c", "user.name=t", "-c", "user.email=t@example.org"]
    for args in (["init", "-q"], ["add", "card_data"], ["commit", "-qm", "the data"]):
        subprocess.run([*git, *args], check=True)  # the tiles say what changed since this
    served = Served(project)
    driver = None
    try:
        url = served.url()
        driver = _browser()
        driver.get(url)
        # the first build draws every face: 82 printed cards per language, each loaded
        _wait(driver, f"const n = (() => {{{LOADED}}})(); return n.en === {PHYSICAL_CARDS} && "
              f"n.cs === {PHYSICAL_CARDS} && n;", 120, "every card image shown and loaded")
        assert driver.execute_script("return document.querySelectorAll('section.deck').length") == 3
        assert driver.find_element("css selector", "#game img") is not None  # board, tokens, aid
        tile = driver.find_element("id", f"card-{CARD}")
        driver.execute_script("arguments[0].scrollIntoView(); window.__marker = 'same page';", tile)
        scroll = driver.execute_script("return window.scrollY")
        before = driver.execute_script(SRC)

        # a saved Czech text: that card's Czech image changes in place, nothing else does
        text_line = replace_in(project / EVENTS, CS_TEXT,
                               "Lucemburkové smějí  vyřadit ze hry až 2\u00a0karty")
        key = f"{CARD}/cs/1"
        _wait(driver, f"return document.querySelector('img[data-card=\"{CARD}\"][data-lang=\"cs\"]')"
              f".getAttribute('src') !== {json.dumps(before[key])};", 60, "the Czech image changed")
        _wait(driver, f"const i = document.querySelector('img[data-card=\"{CARD}\"][data-lang=\"cs\"]');"
              " return i.complete && i.naturalWidth > 0;", 10, "the new image loaded")
        # the page times itself from the build's end to the new image shown (not asserted:
        # timing belongs in measurements, README "Live preview")
        shown_after = _wait(driver, "return window.cardgenShownAfter;", 10, "the update timed")
        print(f"page updated {shown_after:.2f} s after the build finished")
        after = driver.execute_script(SRC)
        assert {k for k in before if before[k] != after[k]} == {key}
        assert driver.execute_script("return window.__marker") == "same page"  # no reload
        assert driver.execute_script("return window.scrollY") == scroll
        # its finding (a doubled space, a warning: the build goes on) sits beside it with file:line
        beside = driver.execute_script("return arguments[0].querySelector('aside').innerText", tile)
        assert f"{EVENTS.as_posix()}:{text_line}:" in beside and "double space" in beside
        assert "Since the last commit" in beside and ".text.cs" in beside  # its Czech text
        build = _state(url)["build"]
        assert (build["redrawn"], build["changed"]) == (1, [CARD])  # one card rasterised
        old, new = (urllib.request.urlopen(url + src.lstrip("/"), timeout=10).read()
                    for src in (before[key], after[key]))
        assert old != new

        # the text search finds Czech words without their accents
        driver.find_element("id", "f-text").send_keys("smeji vyradit")
        assert driver.execute_script("return [...document.querySelectorAll('article.card')]"
                                     ".filter(t => !t.hidden).map(t => t.dataset.id)") == [CARD]
        driver.find_element("id", "f-text").clear()
        driver.execute_script("document.getElementById('f-text').dispatchEvent(new Event('input'))")

        # broken YAML: the banner names file:line, the last good images stay
        line = replace_in(project / EVENTS, "    number: 45\n", "    number: 45\n  deck: [market\n") + 1
        banner = _wait(driver, "const b = document.getElementById('banner');"
                       " return !b.hidden && b.innerText;", 60, "the error banner")
        assert f"{EVENTS.as_posix()}:{line}:" in banner
        assert "YAML syntax error" in banner
        shown = driver.execute_script(f"return (() => {{{LOADED}}})()")
        assert (shown["en"], shown["cs"]) == (PHYSICAL_CARDS, PHYSICAL_CARDS)
        # … and on the tile of the card whose record holds the line, in red, with the line
        errors = _wait(driver, f"const e = document.querySelector('#card-{CARD} aside .errors');"
                       " return e && e.innerText;", 10, "the error on its card's tile")
        assert f"{EVENTS.as_posix()}:{line}:" in errors and "deck: [market" in errors
        assert driver.execute_script(f"return getComputedStyle(document.querySelector("
                                     f"'#card-{CARD} .errors .message')).color") == "rgb(163, 38, 42)"
        driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", tile)
        _shot(driver, shots, "1-error-on-its-tile")

        # a click opens the card full size, both languages side by side, with the overlay
        tile.find_element("css selector", "figure.face").click()
        sizes = _wait(driver, FULL, 30, "both faces full size")
        assert [s[:3] for s in sizes] == [["en", 815, 1111], ["cs", 815, 1111]]  # 300 ppi, bleed
        assert all(abs(s[3] - 815) < 2 for s in sizes)  # shown one image pixel to a CSS pixel
        regions = {name: (top, height) for name, top, height in driver.execute_script(REGIONS)}
        assert set(regions) == {"trim", "safe", "frame", "window", "name_bar", "text_panel"}
        assert regions["window"] == pytest.approx((17.4 / 94, 29.6 / 94), abs=0.004)
        assert regions["trim"] == pytest.approx((3 / 94, 88 / 94), abs=0.004)
        viewer = driver.find_element("id", "viewer").text
        assert f"{EVENTS.as_posix()}:{line}:" in viewer  # the card's error, here too
        _shot(driver, shots, "2-full-size-with-overlay")
        body = driver.find_element("css selector", "body")
        body.send_keys("f")  # fit to the window
        _shot(driver, shots, "3-fit-to-window")
        body.send_keys("o")  # the overlay off
        assert not driver.find_element("css selector", "#viewer .overlay").is_displayed()
        body.send_keys(webdriver.Keys.ARROW_RIGHT)  # the next card
        _wait(driver, "return document.getElementById('viewer-title').innerText.startsWith('046');",
              10, "the next card in the viewer")
        body.send_keys(webdriver.Keys.ESCAPE)
        assert driver.execute_script("return document.getElementById('viewer').hidden")
        # the keyboard: the tile has the focus back; j moves to the next card, Enter opens it
        assert driver.execute_script("return document.activeElement.dataset.id") == CARD
        driver.switch_to.active_element.send_keys("j")
        assert driver.execute_script("return document.activeElement.dataset.id") == "coronation-in-rome"
        driver.switch_to.active_element.send_keys(webdriver.Keys.ENTER)
        assert driver.execute_script("return document.getElementById('viewer-title').innerText"
                                     ".startsWith('046')")
        driver.switch_to.active_element.send_keys(webdriver.Keys.ESCAPE)

        # repaired: the banner goes, still the same page
        replace_in(project / EVENTS, "  deck: [market\n", "")
        _wait(driver, "return document.getElementById('banner').hidden;", 60, "the banner cleared")
        assert not driver.find_elements("css selector", f"#card-{CARD} aside .errors")
        assert driver.execute_script("return window.__marker") == "same page"
    finally:
        if driver is not None:
            driver.quit()
        served.stop()
    assert not (project / "card_data" / "serve").exists()
