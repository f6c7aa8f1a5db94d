// The designer's desk: shows the state of `cardgen serve` and follows it through
// server-sent events. Plain JavaScript, no build step, no network beyond this server.
"use strict";

const LANGS = ["en", "cs"];
const page = { version: -1, ids: "", tiles: new Map(), cards: [], editor: false, gameKey: "",
               geometry: null, viewing: null };
const $ = (id) => document.getElementById(id);

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (name === "class") node.className = value;
    else if (name === "dataset") Object.assign(node.dataset, value);
    // custom properties through the CSSOM: the server's policy refuses style="" attributes
    else if (name === "style") for (const [prop, v] of Object.entries(value)) node.style.setProperty(prop, String(v));
    else if (name.startsWith("on")) node.addEventListener(name.slice(2), value);
    else node.setAttribute(name, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child !== null && child !== undefined && child !== false) {
      node.append(child instanceof Node ? child : String(child));
    }
  }
  return node;
}

// search ignores case and diacritics: "rimsky" finds "římský"
const fold = (text) => text.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase();

// --- talking to the server -------------------------------------------------------------

let loading = false;
let again = false;

async function refresh() {
  if (loading) { again = true; return; }
  loading = true;
  try {
    const res = await fetch("/api/state", { cache: "no-store" });
    apply(await res.json());
  } catch (err) {
    setStatus("cannot reach cardgen serve: " + err.message, "bad");
  } finally {
    loading = false;
    if (again) { again = false; refresh(); }
  }
}

function listen() {
  const events = new EventSource("/events");
  events.addEventListener("state", (e) => { if (Number(e.data) !== page.version) refresh(); });
  events.onopen = () => refresh();
  events.onerror = () => {
    setStatus("connection to cardgen serve lost; retrying…", "bad");
    // a refused stream (503: too many pages open) is not retried by the browser itself
    if (events.readyState === EventSource.CLOSED) setTimeout(listen, 5000);
  };
}

async function openInEditor(finding) {
  const res = await fetch("/api/open", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ file: finding.file, line: finding.line }),
  });
  const answer = await res.json().catch(() => ({}));
  toast(res.ok ? `opened ${finding.file}:${finding.line}` : answer.error || res.statusText);
}

// --- applying a state --------------------------------------------------------------------

function apply(state) {
  page.version = state.version;
  page.editor = state.editor;
  showStatus(state);
  showBanner(state.errors, state.build);
  showNotes(state.notes);
  const ids = state.cards.map((c) => c.id).join(",");
  if (ids !== page.ids) {
    drawDecks(state.cards);
    fillFilters(state.cards);
    page.ids = ids;
  } else {
    const loads = state.cards.flatMap(updateTile);
    if (state.build && state.build.at !== page.buildAt) timeUpdate(state.build, loads);
  }
  page.buildAt = state.build && state.build.at;
  page.cards = state.cards;
  page.geometry = state.geometry;
  showGame(state.game);
  filter();
  if (page.viewing) showViewer(page.viewing);
}

function setStatus(text, tone = "") {
  const status = $("status");
  status.textContent = text;
  status.className = "status " + tone;
}

function showStatus(state) {
  const b = state.build;
  if (state.building) return setStatus("building…", "busy");
  if (!b) return setStatus("waiting for the first build…", "busy");
  if (!b.ok) {
    return setStatus(`build failed at ${b.finished} (${plural(b.errors, "error")}); ` +
                     "showing the last good cards", "bad");
  }
  const changed = b.changed.length ? ` · changed: ${b.changed.join(", ")}` : "";
  setStatus(`built ${b.finished} in ${b.seconds} s · ${b.written} written, ${b.unchanged} unchanged · ` +
            `${plural(b.errors, "error")}, ${plural(b.warnings, "warning")} · ` +
            `${plural(b.redrawn, "card image")} drawn${changed}`, b.warnings ? "warn" : "ok");
}

const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;

function showBanner(errors, build) {
  const banner = $("banner");
  banner.hidden = !errors.length;
  if (!errors.length) return banner.replaceChildren();
  banner.replaceChildren(
    el("h2", {}, `The build failed${build ? " at " + build.finished : ""}: fix ` +
       `${errors.length === 1 ? "this error" : "these errors"} and save. ` +
       "The cards below are from the last good build."),
    el("ul", { class: "findings" }, errors.map(findingItem)));
}

function showNotes(notes) {
  const box = $("notes");
  box.hidden = !notes.length;
  box.replaceChildren(el("h2", {}, "Findings for the whole game"),
                      el("ul", { class: "findings" }, notes.map(findingItem)));
}

function findingItem(f) {
  const where = f.where || "(no file)";
  return el("li", { class: "finding sev-" + f.severity },
    el("div", { class: "head" },
      el("code", { class: "where", title: "file:line:column" }, where),
      " ", el("span", { class: "sev" }, f.severity), f.lang ? ` (${f.lang})` : "",
      f.rule ? el("span", { class: "rule" }, ` rule ${f.rule}`) : "",
      page.editor && f.openable
        ? el("button", { type: "button", class: "open", onclick: () => openInEditor(f) }, "open in editor")
        : ""),
    el("div", { class: "message" }, f.message),
    f.hint ? el("div", { class: "hint" }, "fix: " + f.hint) : "",
    f.source !== null && f.source !== undefined
      ? el("pre", { class: "source", title: where }, el("span", { class: "ln" }, f.line + " "), f.source)
      : "");
}

// --- the cards ---------------------------------------------------------------------------

function drawDecks(cards) {
  page.tiles.clear();
  const decks = new Map();
  for (const card of cards) {
    if (!decks.has(card.deck)) decks.set(card.deck, { title: card.deck_title, cards: [] });
    decks.get(card.deck).cards.push(card);
  }
  const sections = [...decks].map(([deck, group]) => {
    const count = group.cards.reduce((n, c) => n + c.copies, 0);
    return el("section", { class: "deck", dataset: { deck } },
      el("h2", {}, group.title, el("span", { class: "count" }, ` ${group.cards.length} cards, ${count} printed`)),
      el("div", { class: "tiles" }, group.cards.map(drawTile)));
  });
  $("decks").replaceChildren(...sections);
}

function drawTile(card) {
  const faces = LANGS.filter((l) => card.images[l]).map((lang) =>
    el("figure", { class: "face", title: "open full size (Enter)", onclick: () => openViewer(card.id) },
      el("div", { class: "stack", style: { "--copies": card.copies } },
        Array.from({ length: card.copies }, (_, i) =>
          el("img", { class: "face-img", src: card.images[lang], alt: `${card.names[lang]} (${lang})`,
                      width: 200, height: 279, style: { "--i": i },
                      dataset: { lang, card: card.id, copy: i + 1 } }))),
      el("figcaption", {}, lang.toUpperCase(), card.copies > 1 ? ` · ×${card.copies}` : "")));
  const tile = el("article", { class: "card", id: "card-" + card.id, dataset: { id: card.id }, tabindex: 0 },
    el("header", {},
      el("span", { class: "num" }, String(card.number).padStart(3, "0")),
      el("span", { class: "names" }, LANGS.map((l) => card.names[l]).filter(Boolean).join(" / ")),
      el("span", { class: "tags" }, [card.kind.replace("_", " "), card.side].join(" · "))),
    el("div", { class: "body" }, faces, el("aside", { class: "side" })),
    el("footer", {}, el("code", { class: "where" }, card.where)));
  page.tiles.set(card.id, tile);
  fillSide(tile, card);
  return tile;
}

// a failed build's errors at the top of their card's tile (in red, with their line), then
// the last good build's findings
function cardFindings(card) {
  const errors = card.errors || [];
  return [
    errors.length ? el("div", { class: "errors" },
      el("h3", {}, errors.length === 1 ? "This error stops the build:" : "These errors stop the build:"),
      el("ul", { class: "findings" }, errors.map(findingItem))) : "",
    card.findings.length
      ? el("ul", { class: "findings" }, card.findings.map(findingItem))
      : errors.length ? "" : el("p", { class: "clean" }, "no findings"),
    sinceCommit(card),
  ];
}

// what the card's record changed since the last commit: "political: 2 → 3"
function sinceCommit(card) {
  const changes = card.since_commit || [];
  if (!changes.length) return "";
  return el("div", { class: "since-commit" },
    el("h3", {}, "Since the last commit"),
    el("ul", {}, changes.map((c) => el("li", { title: c.was ? `was: ${c.was}\nnow: ${c.now}` : "" },
      el("code", {}, c.what),
      c.what === "new card" ? "" : [": ", el("del", {}, c.was), " → ", el("ins", {}, c.now)]))));
}

function fillSide(tile, card) {
  tile.querySelector("aside").replaceChildren(...cardFindings(card));
  tile.classList.toggle("has-findings", card.findings.length > 0);
  tile.classList.toggle("has-errors", (card.errors || []).length > 0);
  tile.classList.toggle("changed", card.changed);
  tile.classList.toggle("since-commit", (card.since_commit || []).length > 0);
}

// seconds from the build's end to the new images shown (window.cardgenShownAfter, and the
// status line's tooltip): how the page keeps its promise of "within a second"
function timeUpdate(build, loads) {
  Promise.all(loads).then(() => {
    window.cardgenShownAfter = Date.now() / 1000 - build.at;
    $("status").title = `page updated ${window.cardgenShownAfter.toFixed(2)} s after the build`;
  });
}

function updateTile(card) {
  const tile = page.tiles.get(card.id);
  const loads = [];
  if (!tile) return loads;
  for (const img of tile.querySelectorAll("img.face-img")) {
    const src = card.images[img.dataset.lang];
    if (src && img.getAttribute("src") !== src) {
      img.setAttribute("src", src);
      loads.push(img.decode().catch(() => null));
      tile.classList.remove("flash");
      void tile.offsetWidth; // restart the highlight animation
      tile.classList.add("flash");
    }
  }
  tile.querySelector(".names").textContent = LANGS.map((l) => card.names[l]).filter(Boolean).join(" / ");
  fillSide(tile, card);
  return loads;
}

// --- filters -----------------------------------------------------------------------------

function fillFilters(cards) {
  const options = (id, values) => {
    const select = $(id);
    const chosen = select.value;
    select.replaceChildren(el("option", { value: "" }, "all"),
      ...[...new Set(values)].map((v) => el("option", { value: v }, v.replace("_", " "))));
    select.value = [...select.options].some((o) => o.value === chosen) ? chosen : "";
  };
  options("f-deck", cards.map((c) => c.deck));
  options("f-kind", cards.map((c) => c.kind));
  options("f-side", cards.map((c) => c.side));
}

function filter() {
  const deck = $("f-deck").value, kind = $("f-kind").value, side = $("f-side").value;
  const findingsOnly = $("f-findings").checked, changedOnly = $("f-changed").checked;
  const commitOnly = $("f-commit").checked;
  const words = fold($("f-text").value).split(/\s+/).filter(Boolean);
  let shown = 0;
  for (const card of page.cards) {
    const tile = page.tiles.get(card.id);
    if (!tile) continue;
    const haystack = fold([card.id, ...Object.values(card.names), card.text].join(" "));
    const visible = (!deck || card.deck === deck) && (!kind || card.kind === kind) &&
      (!side || card.side === side) && (!findingsOnly || card.findings.length > 0) &&
      (!changedOnly || card.changed) && (!commitOnly || (card.since_commit || []).length > 0) &&
      words.every((w) => haystack.includes(w));
    tile.hidden = !visible;
    shown += visible;
  }
  for (const section of document.querySelectorAll("section.deck")) {
    section.hidden = !section.querySelector("article.card:not([hidden])");
  }
  $("count").textContent = `${shown} of ${page.cards.length} cards`;
}

// --- board, tokens, aid ------------------------------------------------------------------

function showGame(game) {
  $("game-section").hidden = !game.length;
  const key = game.map((g) => g.lang + g.label + g.images.length).join("|");
  if (key === page.gameKey) {
    const imgs = $("game").querySelectorAll("img");
    game.flatMap((g) => g.images).forEach((src, i) => {
      if (imgs[i].getAttribute("src") !== src) imgs[i].setAttribute("src", src);
    });
    return;
  }
  page.gameKey = key;
  $("game").replaceChildren(...game.map((g) =>
    el("figure", { class: "component" },
      el("figcaption", {}, `${g.label} · ${g.lang.toUpperCase()}`),
      el("div", { class: "pages" }, g.images.map((src, i) =>
        el("a", { href: src, target: "_blank" },
          el("img", { src, alt: `${g.label} (${g.lang}) page ${i + 1}`, loading: "lazy" })))))));
}

// --- one card full size, both languages, with the overlay ---------------------------------

function openViewer(id) {
  page.viewing = id;
  page.returnFocus = page.tiles.get(id) || document.activeElement;
  $("viewer").hidden = false;
  document.body.classList.add("viewing");
  showViewer(id);
  $("v-close").focus();
}

function closeViewer() {
  page.viewing = null;
  $("viewer").hidden = true;
  document.body.classList.remove("viewing");
  const tile = page.returnFocus;
  if (tile && tile.focus) tile.focus();
}

function showViewer(id) {
  const card = page.cards.find((c) => c.id === id);
  if (!card) return closeViewer();
  $("viewer-title").textContent = `${String(card.number).padStart(3, "0")} · ` +
    LANGS.map((l) => card.names[l]).filter(Boolean).join(" / ");
  const g = page.geometry;
  const faces = $("viewer-faces");
  const shown = [...faces.querySelectorAll("img")].map((i) => i.getAttribute("src")).join(" ");
  const wanted = LANGS.filter((l) => card.full[l]).map((l) => card.full[l]).join(" ");
  if (shown !== wanted || faces.dataset.card !== id) {
    faces.dataset.card = id;
    faces.replaceChildren(...LANGS.filter((l) => card.full[l]).map((lang) => {
      return el("figure", { class: "sheet-face" },
        el("div", { class: "sheet" },
          el("img", { class: "full-img", src: card.full[lang], alt: `${card.names[lang]} (${lang}), full size`,
                      dataset: { lang } }),
          g ? overlay(g) : ""),
        el("figcaption", {}, `${lang.toUpperCase()} · ${g ? g.dpi : ""} ppi, bleed included`));
    }));
  }
  $("viewer-findings").replaceChildren(...cardFindings(card));
  applyViewerOptions();
}

// the regions as boxes over the image, placed in percent of the page with bleed (set
// through the CSSOM: the server's policy refuses style="" attributes)
function overlay(g) {
  const [pw, ph] = g.page;
  const box = (name, [x, y, w, h]) => el("div", {
    class: "ov ov-" + name, title: name.replace("_", " "), dataset: { region: name },
    style: { left: `${x / pw * 100}%`, top: `${y / ph * 100}%`, width: `${w / pw * 100}%`, height: `${h / ph * 100}%` },
  });
  return el("div", { class: "overlay" }, box("name_bar", g.name_bar), box("text_panel", g.text_panel),
            box("window", g.window), box("trim", g.trim), box("frame", g.frame), box("safe", g.safe));
}

function applyViewerOptions() {
  $("viewer").classList.toggle("no-overlay", !$("v-overlay").checked);
  $("viewer").classList.toggle("fit", $("v-fit").checked);
}

function stepViewer(step) {
  const ids = visibleIds();
  const at = ids.indexOf(page.viewing);
  if (ids.length) showViewer(page.viewing = ids[(at + step + ids.length) % ids.length]);
}

// --- the keyboard ----------------------------------------------------------------------------

const visibleIds = () => page.cards.map((c) => c.id).filter((id) => !page.tiles.get(id)?.hidden);

function focusTile(step) {
  const ids = visibleIds();
  if (!ids.length) return;
  const current = document.activeElement?.closest?.("article.card")?.dataset.id;
  const at = ids.indexOf(current);
  const next = ids[at < 0 ? (step > 0 ? 0 : ids.length - 1) : Math.min(Math.max(at + step, 0), ids.length - 1)];
  const tile = page.tiles.get(next);
  tile.focus();
  tile.scrollIntoView({ block: "nearest" });
}

function nextError() {
  const ids = visibleIds().filter((id) => (page.cards.find((c) => c.id === id).errors || []).length);
  if (!ids.length) return toast("no card has an error");
  const current = document.activeElement?.closest?.("article.card")?.dataset.id;
  const tile = page.tiles.get(ids[(ids.indexOf(current) + 1) % ids.length]);
  tile.focus();
  tile.scrollIntoView({ block: "center" });
}

function onKey(e) {
  if (e.altKey || e.ctrlKey || e.metaKey) return;
  const typing = e.target.closest && e.target.closest("input, select, textarea");
  if (page.viewing) {
    const act = { Escape: closeViewer, ArrowRight: () => stepViewer(1), ArrowLeft: () => stepViewer(-1),
                  o: () => { $("v-overlay").checked = !$("v-overlay").checked; applyViewerOptions(); },
                  f: () => { $("v-fit").checked = !$("v-fit").checked; applyViewerOptions(); } }[e.key];
    if (act && !(typing && e.key.length === 1)) { e.preventDefault(); act(); }
    return;
  }
  if (typing) {
    if (e.key === "Escape") e.target.blur();
    return;
  }
  const act = { j: () => focusTile(1), ArrowRight: () => focusTile(1), ArrowDown: () => focusTile(1),
                k: () => focusTile(-1), ArrowLeft: () => focusTile(-1), ArrowUp: () => focusTile(-1),
                e: nextError, "/": () => $("f-text").focus(),
                Enter: () => { const t = e.target.closest && e.target.closest("article.card"); if (t) openViewer(t.dataset.id); } }[e.key];
  if (act) { e.preventDefault(); act(); }
}

function toast(text) {
  const box = $("toast");
  box.textContent = text;
  box.hidden = false;
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => { box.hidden = true; }, 4000);
}

for (const id of ["f-deck", "f-kind", "f-side", "f-findings", "f-changed", "f-commit", "f-text"]) {
  $(id).addEventListener("input", filter);
}
$("filters").addEventListener("submit", (e) => e.preventDefault());
$("v-close").addEventListener("click", closeViewer);
$("v-overlay").addEventListener("input", applyViewerOptions);
$("v-fit").addEventListener("input", applyViewerOptions);
$("viewer").addEventListener("click", (e) => { if (e.target === $("viewer")) closeViewer(); });
document.addEventListener("keydown", onKey);
listen();
