// The designer's desk: shows the state of `cardgen serve` and follows it through
// server-sent events. Plain JavaScript, no build step, no network beyond this server.
"use strict";

const LANGS = ["en", "cs"];
const page = { version: -1, ids: "", tiles: new Map(), cards: [], editor: false, gameKey: "" };
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
  showGame(state.game);
  filter();
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
    el("figure", { class: "face" },
      el("div", { class: "stack", style: { "--copies": card.copies } },
        Array.from({ length: card.copies }, (_, i) =>
          el("img", { class: "face-img", src: card.images[lang], alt: `${card.names[lang]} (${lang})`,
                      width: 200, height: 279, style: { "--i": i },
                      dataset: { lang, card: card.id, copy: i + 1 } }))),
      el("figcaption", {}, lang.toUpperCase(), card.copies > 1 ? ` · ×${card.copies}` : "")));
  const tile = el("article", { class: "card", id: "card-" + card.id, dataset: { id: card.id } },
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

function fillSide(tile, card) {
  const side = tile.querySelector("aside");
  side.replaceChildren(card.findings.length
    ? el("ul", { class: "findings" }, card.findings.map(findingItem))
    : el("p", { class: "clean" }, "no findings"));
  tile.classList.toggle("has-findings", card.findings.length > 0);
  tile.classList.toggle("changed", card.changed);
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
  const words = fold($("f-text").value).split(/\s+/).filter(Boolean);
  let shown = 0;
  for (const card of page.cards) {
    const tile = page.tiles.get(card.id);
    if (!tile) continue;
    const haystack = fold([card.id, ...Object.values(card.names), card.text].join(" "));
    const visible = (!deck || card.deck === deck) && (!kind || card.kind === kind) &&
      (!side || card.side === side) && (!findingsOnly || card.findings.length > 0) &&
      (!changedOnly || card.changed) && words.every((w) => haystack.includes(w));
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

function toast(text) {
  const box = $("toast");
  box.textContent = text;
  box.hidden = false;
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => { box.hidden = true; }, 4000);
}

for (const id of ["f-deck", "f-kind", "f-side", "f-findings", "f-changed", "f-text"]) {
  $(id).addEventListener("input", filter);
}
$("filters").addEventListener("submit", (e) => e.preventDefault());
listen();
