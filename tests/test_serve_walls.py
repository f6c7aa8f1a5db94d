"""The preview's walls (issue 38): every answer forbids framing and foreign content, a client
that trickles its request in is cut off at the deadline, connections and event streams past
their caps get a 503, and no request, however long its path, puts anything on the server's
terminal."""

from __future__ import annotations

import http.client
import select
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from cardgen.serve.desk import Desk
from cardgen.serve.web import SECURITY_HEADERS, DeskServer, Limits
from tests.conftest import send_raw

CSP = "frame-ancestors 'none'; default-src 'self'"


def _server(tmp_path: Path, limits: Limits) -> DeskServer:
    project = tmp_path / "project"
    (project / "card_data" / "cards").mkdir(parents=True)
    images = project / "output" / "serve"
    (images / "cards").mkdir(parents=True)
    (images / "cards" / "a.jpg").write_bytes(b"\xff\xd8jpeg")
    server = DeskServer(0, Desk(project, editor=False), images, limits=limits)
    threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True).start()
    return server


@pytest.fixture
def served(tmp_path: Path, request) -> Iterator[DeskServer]:
    server = _server(tmp_path, getattr(request, "param", Limits()))
    yield server
    server.stop()


def _connect(server: DeskServer) -> http.client.HTTPConnection:
    return http.client.HTTPConnection("127.0.0.1", server.server_address[1], timeout=10)


def _get(server: DeskServer, path: str, method: str = "GET",
         host: str | None = None) -> http.client.HTTPResponse:
    conn = _connect(server)
    conn.putrequest(method, path, skip_host=True, skip_accept_encoding=True)
    conn.putheader("Host", host or f"127.0.0.1:{server.server_address[1]}")
    conn.endheaders()
    res = conn.getresponse()
    if path != "/events" or res.status != 200:
        res.read()
        conn.close()
    return res


def _headers(answer: bytes) -> dict[str, str]:
    head = answer.split(b"\r\n\r\n", 1)[0].decode("latin-1").split("\r\n")[1:]
    return {k.strip().lower(): v.strip() for k, v in (line.split(":", 1) for line in head)}


@pytest.mark.parametrize("path,method,host,status", [
    ("/", "GET", None, 200),                        # the page
    ("/static/app.js", "GET", None, 200),           # its script and style
    ("/static/app.css", "GET", None, 200),
    ("/api/state", "GET", None, 200),               # its state
    ("/img/cards/a.jpg", "GET", None, 200),         # an image
    ("/img/cards/none.jpg", "GET", None, 404),
    ("/img/../../x", "GET", None, 403),
    ("/api/state", "GET", "evil.example", 403),     # DNS rebinding
    ("/api/open", "POST", None, 415),
    ("/x", "PUT", None, 501),                       # the standard library's own error page
    ("/events", "GET", None, 200),                  # the event stream
])
def test_every_answer_forbids_framing_and_foreign_content(served, path, method, host, status):
    res = _get(served, path, method, host)
    assert res.status == status
    assert res.getheader("X-Frame-Options") == "DENY"
    assert res.getheader("Content-Security-Policy") == CSP
    assert res.getheader("X-Content-Type-Options") == "nosniff"
    res.close()


def test_a_request_line_too_long_is_414_with_the_headers_and_a_long_path_404(served, capfd):
    port = served.server_address[1]
    answer = send_raw(served.server_address[1], b"GET /" + b"a" * 70_000 + b" HTTP/1.1\r\n\r\n")
    assert answer.startswith(b"HTTP/1.1 414") or answer.startswith(b"HTTP/1.0 414")
    assert _headers(answer)["content-security-policy"] == CSP
    for path in ("/" + "a" * 10_000, "/img/" + "a" * 10_000 + ".jpg",
                 "/img/" + "/".join(["b" * 250] * 40) + ".png", "/static/" + "c" * 10_000,
                 "/img/" + "%41" * 3_000 + ".jpg"):
        request = f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n"
        assert send_raw(served.server_address[1], request.encode()).split(b" ")[1] == b"404", path[:20]
    out = capfd.readouterr()
    assert out.err == "" and out.out == ""


@pytest.mark.parametrize("served", [Limits(request_seconds=0.3)], indirect=True)
def test_a_client_trickling_its_request_in_is_cut_off(served):
    """A slow-loris client: a byte at a time, each well within the per-read timeout, the
    whole request never done; the server closes the connection and frees the thread."""
    with socket.create_connection(("127.0.0.1", served.server_address[1]), timeout=10) as sock:
        sock.sendall(b"GET / HTTP/1.1\r\n")
        closed = False
        for _ in range(5_000):  # bounded: a byte every 10 ms
            try:
                sock.sendall(b"X")
            except OSError:
                closed = True
                break
            if select.select([sock], [], [], 0.01)[0]:
                try:
                    closed = sock.recv(4096) == b""
                except ConnectionResetError:
                    closed = True
                break
        assert closed


@pytest.mark.parametrize("served", [Limits(threads=1)], indirect=True)
def test_connections_past_the_cap_get_503(served):
    stream = _get(served, "/events")  # holds the one thread
    assert stream.status == 200
    with socket.create_connection(("127.0.0.1", served.server_address[1]), timeout=10) as sock:
        answer = b""
        while chunk := sock.recv(4096):
            answer += chunk
    assert answer.startswith(b"HTTP/1.1 503 ")
    headers = _headers(answer)
    assert headers["content-security-policy"] == CSP and headers["x-frame-options"] == "DENY"
    assert headers["retry-after"] == "2"
    stream.close()


@pytest.mark.parametrize("served", [Limits(streams=1)], indirect=True)
def test_event_streams_past_the_cap_get_503_and_the_page_still_loads(served):
    first = _get(served, "/events")
    assert first.status == 200
    second = _get(served, "/events")
    assert second.status == 503 and second.getheader("Retry-After") == "2"
    assert second.getheader("Content-Security-Policy") == CSP
    assert _get(served, "/api/state").status == 200
    first.close()


@pytest.mark.parametrize("served", [Limits(threads=1, request_seconds=0.3)], indirect=True)
def test_a_stalled_client_frees_its_thread(served):
    """The one thread held by a client that sends nothing is free again after the deadline:
    a later request is answered (retried while the 503 says the thread is still held)."""
    idle = socket.create_connection(("127.0.0.1", served.server_address[1]), timeout=10)
    try:
        assert idle.recv(4096) == b""  # closed by the server, nothing sent
        for _ in range(200):
            status = _get(served, "/api/state").status
            if status != 503:
                break
            time.sleep(0.05)
        assert status == 200
    finally:
        idle.close()


def test_the_security_headers_are_the_documented_ones():
    assert dict(SECURITY_HEADERS) == {"X-Frame-Options": "DENY", "Content-Security-Policy": CSP,
                                      "X-Content-Type-Options": "nosniff"}


# --- the page under its policy, in a real browser ---------------------------------------

CARD = {"id": "x", "number": 1, "deck": "market", "kind": "retinue", "side": "neutral",
        "copies": 2, "where": "card_data/cards/x.yaml:1", "deck_title": "Market",
        "names": {"en": "X", "cs": "X"}, "text": "X", "changed": False,
        "images": {"en": "/img/cards/x.png", "cs": "/img/cards/x.png"},
        "full": {"en": "/img/cards/x.png", "cs": "/img/cards/x.png"}, "errors": [],
        "findings": [{"card": "x", "severity": "warning", "where": "card_data/cards/x.yaml:1",
                      "file": "card_data/cards/x.yaml", "line": 1, "message": "m", "hint": "h",
                      "source": "a: 1", "openable": False, "lang": None, "rule": None}]}
BUILD = {"ok": True, "finished": "12:00:00", "seconds": 1, "written": 1, "unchanged": 0,
         "errors": 0, "warnings": 1, "redrawn": 1, "changed": [], "at": 0}
GEOMETRY = {"page": [69, 94], "dpi": 300, **{name: [3, 3, 63, 88] for name in (
    "trim", "safe", "frame", "art", "name_bar", "text_panel", "window")}}
VIOLATIONS = ("window.__csp = []; document.addEventListener('securitypolicyviolation', "
              "e => window.__csp.push(e.violatedDirective + ' ' + e.blockedURI));")


def test_the_page_works_under_its_policy_in_a_browser(tmp_path: Path):
    """The page's script, style, images, state and event stream load under the policy and
    nothing is refused: a card's copies are stacked (custom properties set through the
    CSSOM, not refused style="" attributes)."""
    pytest.importorskip("selenium.webdriver")
    from test_serve_browser import CHROMIUM, DRIVER, _browser, _wait
    if not (CHROMIUM and DRIVER):
        pytest.skip("needs Debian's chromium and chromium-driver")
    from PIL import Image

    server = _server(tmp_path, Limits())
    Image.new("RGB", (20, 28), "red").save(server.images / "cards" / "x.png")
    server.desk.change(cards=[CARD], build=BUILD, geometry=GEOMETRY)
    driver = _browser()
    try:
        driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": VIOLATIONS})
        driver.get(f"http://127.0.0.1:{server.server_address[1]}/")
        _wait(driver, "const i = [...document.querySelectorAll('img.face-img')];"
              " return i.length === 4 && i.every(x => x.complete && x.naturalWidth > 0);",
              30, "the card's four images loaded")
        _wait(driver, "return document.getElementById('status').className.includes('warn');",
              10, "the state shown")
        stack = "getComputedStyle(document.querySelector('.stack'))"
        assert driver.execute_script(f"return {stack}.getPropertyValue('--copies').trim()") == "2"
        second = "getComputedStyle(document.querySelector('img[data-copy=\"2\"]')).transform"
        assert driver.execute_script(f"return {second}") != "none"  # the copy is offset
        # the full-size view and its overlay, its boxes placed through the CSSOM too
        driver.find_element("css selector", "figure.face").click()
        _wait(driver, "return document.querySelectorAll('#viewer .ov').length === 12;", 10,
              "the overlay drawn")
        width = "document.querySelector('#viewer .ov-trim').style.width"
        assert driver.execute_script(f"return {width}").startswith("91.30")  # 63 of 69 mm
        assert driver.execute_script("return window.__csp") == []
    finally:
        driver.quit()
        server.stop()
