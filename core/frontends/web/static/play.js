// The play page: one seat's view of a match — board, pending decision, log, undo, save.
import { api, ApiError, banner, h, LogView, renderStatus } from "/static/common.js";
import { Board } from "/static/board.js";
import { RouteLayer } from "/static/routes.js";

const matchId = decodeURIComponent(location.pathname.split("/").filter(Boolean)[1] || "");
const seat = new URLSearchParams(location.search).get("seat") || "";
const path = `/api/matches/${encodeURIComponent(matchId)}`;

let state = null;
let busy = false;
let shownSide = null; // the side whose board is on the screen (hot-seat curtain)
let poller = null;
let held = null; // the log this page holds: {key, next} of the last answer, sent back as ?since=&log=

const board = new Board(document.getElementById("board"), { onPick: pick });
const log = new LogView(document.getElementById("log"));
const routes = new RouteLayer(board);

// The query that asks only for the log's events after the page's copy, and for the board
// as layers over the picture the page shows.
function since() {
  const log = held ? `since=${held.next}&log=${encodeURIComponent(held.key)}` : "";
  return board.key ? `${log}${log ? "&" : ""}picture=${encodeURIComponent(board.key)}` : log;
}

function closeMenu() {
  const menu = document.getElementById("menu");
  menu.hidden = true;
  menu.replaceChildren();
  routes.preview(null);
}

// A destination clicked: its path drawn on the map, and a confirmation (its cost and what
// awaits there); confirmed, the server moves the unit there step by step.
function chooseRoute(opt, event) {
  closeMenu();
  routes.preview(opt.route);
  const menu = document.getElementById("menu");
  menu.replaceChildren(
    h("div", { class: "menu-head" }, `Move to ${opt.route}`),
    h("button", { type: "button", class: "menu-item route-go", onclick: () => { closeMenu(); moveTo(opt); } },
      h("span", { class: "label" }, `Confirm: ${opt.route}`),
      h("span", { class: "info" }, state.pending.routes.cost_unit === "hexes" ? opt.info
        : `${opt.path.length - 1} hex${opt.path.length === 2 ? "" : "es"}, ${opt.info}`)),
    h("button", { type: "button", class: "menu-cancel", onclick: closeMenu }, "Cancel"));
  menu.style.left = `${Math.min(event.clientX + 8, window.innerWidth - 380)}px`;
  menu.style.top = `${Math.min(event.clientY + 8, window.innerHeight - 200)}px`;
  menu.hidden = false;
}

function moveTo(opt) {
  return answer("route", { to: opt.route, version: opt.version });
}

// Options picked on the map: one without odds is taken at once; otherwise a small menu
// shows each with its odds (info) to confirm.
function pick(options, event) {
  if (!state || !state.your_turn || busy) return;
  if (options.length === 1 && options[0].route !== undefined) {
    chooseRoute(options[0], event);
    return;
  }
  const mover = state.pending && state.pending.picks_mover;
  if (options.length === 1 && (!options[0].info || mover)) {
    decide(options[0]);
    return;
  }
  const menu = document.getElementById("menu");
  menu.replaceChildren(...[
    h("div", { class: "menu-head" }, options.length === 1 ? "Confirm" : "Choose"),
    options.map((opt) => h("button", { type: "button", class: "menu-item", onclick: () => { closeMenu(); decide(opt); } },
      h("span", { class: "label" }, opt.label || JSON.stringify(opt.value)),
      opt.info ? h("span", { class: "info" }, opt.info) : null)),
    h("button", { type: "button", class: "menu-cancel", onclick: closeMenu }, "Cancel")].flat());
  menu.style.left = `${Math.min(event.clientX + 8, window.innerWidth - 380)}px`;
  menu.style.top = `${Math.min(event.clientY + 8, window.innerHeight - 200)}px`;
  menu.hidden = false;
}

// Post an answer (a decision, the bot's turn) for the version of the match the page shows:
// the server refuses it if the match has moved on since (another tab, a poll), and the page
// is then redrawn.
async function answer(what, body) {
  if (busy) return;
  busy = true;
  closeMenu();
  banner("");
  document.body.classList.add("busy");
  try {
    render(await api(`${path}/${what}?${since()}`, { method: "POST", seat, body }));
  } catch (err) {
    banner(err.message);
    if (err instanceof ApiError && err.status === 409) await load();
  } finally {
    busy = false;
    document.body.classList.remove("busy");
  }
}

function decide(opt) {
  return answer("decide", { index: opt.index, value: opt.value, version: opt.version });
}

async function undo() {
  if (busy || !state) return;
  busy = true;
  banner("");
  try {
    render(await api(`${path}/undo?${since()}`, { method: "POST", seat, body: { version: state.version } }));
    banner("undone", "note");
  } catch (err) {
    banner(err.message);
    if (err instanceof ApiError && err.status === 409) await load();
  } finally {
    busy = false;
  }
}

function renderDecision(st) {
  const box = document.getElementById("decision");
  box.replaceChildren();
  if (st.result) {
    const r = st.result;
    box.append(h("div", { class: "result", id: "result" },
      h("h2", {}, "Game over"),
      h("p", {}, `${r.level}${r.winner ? " — " + r.winner + " wins" : ""} (rule ${r.section})`),
      r.reason ? h("p", { class: "muted" }, r.reason) : null));
    board.setTargets([]);
    routes.clear();
    return;
  }
  const p = st.pending;
  if (!p) return;
  if (!st.your_turn || !p.options) {
    box.append(h("p", { class: "waiting", id: "waiting" }, `Waiting for ${p.player} (rule ${p.section})…`));
    board.setTargets([]);
    routes.options({}, st.version);
    routes.clear();
    return;
  }
  box.append(h("div", { class: "prompt", id: "prompt" },
    h("span", { class: "who" }, p.player), " ", p.prompt, " ",
    h("span", { class: "sec", title: "rule section" }, `rule ${p.section}`)));
  p.options.forEach((o, i) => { o.index = i; o.version = st.version; });
  // the odds once, as a compact table (a row an option, a column a result); an option's own
  // line stays short, its full odds text on hover
  const withOdds = new Set(((p.odds && p.odds.rows) || []).map((r) => r.index));
  for (const o of p.options) o.short = withOdds.has(o.index);
  const byRoute = routes.options(p, st.version); // a move by destination: its places lit
  const onMap = byRoute || p.options.filter((o) => o.targets && o.targets.length);
  const buttons = p.options.filter((o) => !o.targets || !o.targets.length);
  board.setTargets(onMap);
  routes.show();
  if (byRoute) {
    box.append(h("p", { class: "hint", id: "route-hint" }, `Click a lit hex to move there (${byRoute.length} destination${byRoute.length === 1 ? "" : "s"}, cost in ${p.routes.cost_unit} on each), then confirm.`));
    box.append(h("details", { class: "maplist" }, h("summary", {}, "…or pick from a list"),
      byRoute.map((o) => routeButton(o))));
  } else if (onMap.length) {
    box.append(h("p", { class: "hint" }, `Click a highlighted place on the map (${onMap.length} choice${onMap.length === 1 ? "" : "s"}).`));
    box.append(h("details", { class: "maplist" }, h("summary", {}, "…or pick from a list"),
      onMap.map((o) => optionButton(o, true))));
  }
  if (buttons.length) box.append(h("div", { class: "options" }, buttons.map((o) => optionButton(o, false))));
  if (p.odds && p.odds.rows.length) {
    const res = p.odds.results;
    box.append(h("table", { class: "odds", id: "odds" },
      h("caption", {}, "Chances of each result (%)"),
      h("tr", {}, h("th", {}, ""), res.map((r) => h("th", {}, r))),
      p.odds.rows.map((row) => {
        const o = p.options[row.index];
        return h("tr", { title: o.info || "" }, h("th", { class: "opt" }, o.label || JSON.stringify(o.value)),
          res.map((r) => h("td", {}, r in row.percents ? String(row.percents[r]) : "–")));
      })));
  }
  box.append(h("div", { class: "botask" },
    h("button", { type: "button", id: "bot-one", title: "the game's bot takes this decision for you (the terminal's b)", onclick: () => botDecides("one") }, "Let the bot decide"),
    h("button", { type: "button", id: "bot-phase", title: "the game's bot takes your decisions until this phase of the turn ends (the terminal's b phase)", onclick: () => botDecides("phase") }, "Bot: rest of this phase")));
}

function botDecides(scope) {
  if (state) return answer("bot", { version: state.version, scope });
}

function routeButton(opt) {
  return h("button", {
    type: "button", class: "option onmap", title: opt.info, "data-route": opt.route,
    onclick: (e) => (opt.route !== undefined ? chooseRoute(opt, e) : pick([opt], e)),
    onmouseenter: () => { if (opt.route !== undefined) routes.preview(opt.route); },
    onmouseleave: () => { if (document.getElementById("menu").hidden) routes.preview(null); },
  }, opt.label || JSON.stringify(opt.value), h("span", { class: "info" }, opt.info));
}

function optionButton(opt, onMap) {
  const confirmFirst = Boolean(opt.info);
  return h("button", {
    type: "button", class: onMap ? "option onmap" : "option", title: opt.info || "",
    "data-value": JSON.stringify(opt.value),
    onclick: (e) => (confirmFirst ? pick([opt], e) : decide(opt)),
    onmouseenter: () => { for (const n of board.findAll(opt.targets)) n.classList.add("hover"); },
    onmouseleave: () => { for (const n of board.findAll(opt.targets)) n.classList.remove("hover"); },
  }, opt.label || JSON.stringify(opt.value), opt.info && !opt.short ? h("span", { class: "info" }, opt.info) : null);
}

function renderLinks(st) {
  const box = document.getElementById("links");
  box.replaceChildren();
  if (!st.links || !st.links.length) return;
  box.append(...[h("h2", {}, "Seat links"),
    h("p", { class: "muted" }, "Send each player their link; a link is their seat and only theirs."),
    st.links.map((l) => {
      const url = new URL(l.url, location.href).href;
      return h("p", { class: "seatlink" }, h("b", {}, l.sides.join(", ")), " ", h("a", { href: url, target: "_blank" }, url));
    })].flat());
}

function render(st) {
  if (!st || st.unchanged) return;
  state = st;
  document.body.dataset.version = String(st.version);
  document.title = `${st.title} — ${st.side}`;
  document.getElementById("title").textContent = `${st.title} · ${st.scenario}`;
  const who = Object.entries(st.who).map(([s, w]) => `${s}: ${w === "here" ? "here" : w === "link" ? "seat link" : w}`).join(" · ");
  document.getElementById("where").textContent =
    `you play ${st.seat.sides.join(" + ")} · turn ${st.turn}${st.phase ? " · " + (st.phase_name || st.phase) : ""} · ${who}`;
  const undoBtn = document.getElementById("undo");
  undoBtn.disabled = !st.can_undo;
  for (const [id, kind] of [["save", "save"], ["record", "record"]]) {
    const a = document.getElementById(id);
    a.classList.toggle("disabled", !st.can_download);
    a.href = st.can_download ? `${path}/${kind}?seat=${encodeURIComponent(seat)}` : "#";
    a.title = st.can_download ? `download the ${kind} (JSON)` : "available when the match is over (it would reveal the other side's hidden moves)";
  }
  if (!board.show(st)) load(); // layers over another picture: ask for the whole
  renderDecision(st);
  renderLinks(st);
  showLog(st);
  curtain(st);
  schedulePoll();
}

// The log: an answer's events are added to the page's copy when they follow it
// (log_from = the copy's end), else they are the whole log (log_from 0: a first answer, or
// after an undo, a server restart or a change of side).
function showLog(st) {
  if (!st.log_from) log.replace(st.log, st.side);
  else if (held && st.log_from === held.next && st.log_key === held.key) log.append(st.log);
  else { // an answer to an older copy: ask for the whole log again
    held = null;
    load();
    return;
  }
  held = st.log_key === undefined ? null : { key: st.log_key, next: st.log_next };
}

// Hot-seat: when the board changes hands at one browser, hide it until the next player asks.
function curtain(st) {
  const cover = document.getElementById("curtain");
  if (st.seat.sides.length < 2) {
    cover.hidden = true;
    return;
  }
  if (shownSide === null) shownSide = sessionStorage.getItem(`shown:${matchId}`);
  if (shownSide === st.side) {
    cover.hidden = true;
    return;
  }
  document.getElementById("curtain-text").textContent =
    `${st.side} to play. Pass the screen to the ${st.side} player; the board stays hidden until then.`;
  document.getElementById("curtain-go").textContent = `I am ${st.side}: show my board`;
  cover.hidden = false;
}

// Ask the server now and then whether the match moved: often while another side decides,
// seldom on this seat's own turn (the same seat may be open in another tab).
function schedulePoll() {
  if (poller) clearTimeout(poller);
  poller = null;
  if (!state || state.result) return;
  const seen = state.version;
  poller = setTimeout(async () => {
    poller = null;
    if (busy) return schedulePoll();
    try {
      const got = await api(`${path}?known=${seen}&${since()}`, { seat });
      if (!busy && state.version === seen) render(got);
    } catch (err) {
      banner(err.message);
    }
    if (!poller) schedulePoll();
  }, state.your_turn ? 4000 : 1200);
}

async function load() {
  try {
    render(await api(`${path}?${since()}`, { seat }));
  } catch (err) {
    banner(err.message);
    document.getElementById("decision").replaceChildren(h("p", { class: "muted" }, err.message));
  }
}

async function showStatus() {
  try {
    renderStatus(document.getElementById("status-body"), await api(`${path}/status`, { seat }));
    document.getElementById("status-dialog").showModal();
  } catch (err) {
    banner(err.message);
  }
}

document.getElementById("undo").addEventListener("click", undo);
document.getElementById("status-btn").addEventListener("click", showStatus);
document.getElementById("zoom-in").addEventListener("click", () => board.zoom(1 / 1.4));
document.getElementById("zoom-out").addEventListener("click", () => board.zoom(1.4));
document.getElementById("zoom-fit").addEventListener("click", () => board.fit());
document.getElementById("zoom-focus").addEventListener("click", () => board.focus(true));
document.getElementById("fade").addEventListener("change", (e) => document.getElementById("board").classList.toggle("faded", e.target.checked));
document.getElementById("curtain-go").addEventListener("click", () => {
  shownSide = state.side;
  sessionStorage.setItem(`shown:${matchId}`, shownSide);
  document.getElementById("curtain").hidden = true;
});
for (const id of ["save", "record"]) {
  document.getElementById(id).addEventListener("click", (e) => {
    if (e.currentTarget.classList.contains("disabled")) {
      e.preventDefault();
      banner(e.currentTarget.title);
    }
  });
}
document.addEventListener("keydown", (e) => { if (e.key === "Escape") closeMenu(); });

if (!seat) {
  banner("this page needs its seat link (…/play/MATCH?seat=TOKEN); start a match from the home page");
} else {
  load();
}
