// Shared helpers of the tabletop pages: the JSON API, building elements, the log and status.

export class ApiError extends Error {
  constructor(message, status) {
    super(message);
    this.status = status;
  }
}

// Call the server's JSON API; a refusal becomes an ApiError carrying the server's message.
export async function api(path, { method = "GET", body, seat } = {}) {
  const headers = {};
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (seat) headers["X-Seat"] = seat;
  let res;
  try {
    res = await fetch(path, {
      method, headers, cache: "no-store",
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (err) {
    throw new ApiError("the server cannot be reached (is `tabletop serve` still running?)", 0);
  }
  let data = null;
  try {
    data = await res.json();
  } catch (err) {
    data = null;
  }
  if (!res.ok) throw new ApiError((data && data.error) || `HTTP ${res.status}`, res.status);
  return data;
}

// h("div", {class: "x", onclick: f}, child, "text", ...) -> an element.
export function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") node.addEventListener(key.slice(2), value);
    else if (key === "text") node.textContent = value;
    else node.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

// A message at the top of the page; errors stay until the next action, notes fade.
export function banner(text, kind = "error") {
  const box = document.getElementById("banner");
  if (!box) return;
  box.textContent = text || "";
  box.className = text ? `banner ${kind}` : "banner";
  if (text && kind !== "error") {
    setTimeout(() => { if (box.textContent === text) banner(""); }, 4000);
  }
}

// The log beside the map: events grouped by turn and phase, each with its rule section.
// Groups in which `side` took no decision (the other side's moves) are summarised and
// folded; the latest group is open.
export function renderLog(container, events, side) {
  const groups = [];
  for (const ev of events) {
    const last = groups[groups.length - 1];
    if (last && last.turn === ev.turn && last.phase === ev.phase) last.events.push(ev);
    else groups.push({ turn: ev.turn, phase: ev.phase, events: [ev] });
  }
  const atBottom = container.scrollHeight - container.scrollTop - container.clientHeight < 40;
  container.replaceChildren();
  groups.forEach((g, i) => {
    const mine = side && g.events.some((e) => e.kind === "decision" && e.player === side);
    const deciders = [...new Set(g.events.filter((e) => e.kind === "decision" && e.player)
      .map((e) => e.player))];
    const who = deciders.length ? ` · ${deciders.join(", ")}` : "";
    const head = `Turn ${g.turn}${g.phase ? " · " + g.phase : ""}${who} — ${g.events.length} event${g.events.length === 1 ? "" : "s"}`;
    const open = i >= groups.length - 2 || (mine && i >= groups.length - 4);
    const details = h("details", { class: mine ? "group mine" : "group", open },
      h("summary", {}, head),
      h("ol", { class: "events" }, g.events.map((e) =>
        h("li", { class: `ev ev-${e.kind}`, "data-seq": e.seq },
          e.section ? h("span", { class: "sec", title: "rule section" }, e.section) : null,
          " ", e.text))));
    container.append(details);
  });
  // new events bring the log to its end; otherwise a reader scrolled back stays where they are
  const grew = events.length !== Number(container.dataset.count || -1);
  if (atBottom || grew) container.scrollTop = container.scrollHeight;
  container.dataset.count = String(events.length);
}

// Score, tracks and victory as a small table, for the status dialog.
export function renderStatus(container, st) {
  container.replaceChildren();
  const rows = [];
  rows.push(["Scenario", `${st.scenario.name}${st.scenario.description ? " — " + st.scenario.description : ""}`]);
  rows.push(["Turn", `${st.turn}${st.phase ? " · " + st.phase : ""}`]);
  for (const [k, v] of Object.entries(st.tracks || {})) rows.push([`track ${k}`, JSON.stringify(v)]);
  for (const [k, v] of Object.entries(st.vars || {})) rows.push([k, typeof v === "string" ? v : JSON.stringify(v)]);
  if (st.result) {
    rows.push(["Result", `${st.result.level}${st.result.winner ? " (" + st.result.winner + ")" : ""} — rule ${st.result.section}`]);
    if (st.result.reason) rows.push(["Why", st.result.reason]);
    for (const [k, v] of Object.entries(st.result.scores || {})) rows.push([k, JSON.stringify(v)]);
  }
  for (const [k, v] of Object.entries(st.summary || {})) rows.push([k, JSON.stringify(v)]);
  container.append(h("table", { class: "status" }, rows.map(([k, v]) => h("tr", {}, h("th", {}, k), h("td", {}, v)))));
  if (st.description) container.append(h("p", {}, st.description));
  if (st.rulebook) container.append(h("p", { class: "muted" }, `Victory conditions and every rule: ${st.rulebook}`));
}
