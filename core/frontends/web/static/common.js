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
  new LogView(container).replace(events, side);
}

// The log of a page that is sent only the events after its copy: they are added to the
// groups shown (the last group grows while they continue it) instead of drawing all again.
export class LogView {
  constructor(container) {
    this.container = container;
    this.groups = [];
    this.side = null;
  }

  // Show these events (a whole log) as `side` sees them, in place of those shown.
  replace(events, side) {
    const atBottom = this.atBottom();
    this.container.replaceChildren();
    this.groups = [];
    this.side = side;
    this.add(events);
    this.settle(0, atBottom, events.length);
  }

  // Add the events that came after those shown.
  append(events) {
    if (!events.length) return;
    const atBottom = this.atBottom();
    const from = Math.max(this.groups.length - 4, 0); // the groups whose folding may change
    this.add(events);
    this.settle(from, atBottom, Number(this.container.dataset.count || 0) + events.length);
  }

  atBottom() {
    const c = this.container;
    return c.scrollHeight - c.scrollTop - c.clientHeight < 40;
  }

  add(events) {
    const grown = new Set();
    for (const ev of events) {
      let g = this.groups[this.groups.length - 1];
      if (!g || g.turn !== ev.turn || g.phase !== ev.phase) {
        g = { turn: ev.turn, phase: ev.phase, phaseName: ev.phase_name || ev.phase, count: 0, deciders: [], mine: false,
          summary: h("summary", {}), list: h("ol", { class: "events" }) };
        g.details = h("details", { class: "group" }, g.summary, g.list);
        this.groups.push(g);
        this.container.append(g.details);
      }
      g.count += 1;
      if (ev.kind === "decision" && ev.player) {
        if (!g.deciders.includes(ev.player)) g.deciders.push(ev.player);
        if (this.side && ev.player === this.side) g.mine = true;
      }
      g.list.append(h("li", { class: `ev ev-${ev.kind}`, "data-seq": ev.seq },
        ev.section ? h("span", { class: "sec", title: "rule section" }, ev.section) : null,
        " ", ev.text));
      grown.add(g);
    }
    for (const g of grown) {
      const who = g.deciders.length ? ` · ${g.deciders.join(", ")}` : "";
      g.summary.textContent = `Turn ${g.turn}${g.phase ? " · " + g.phaseName : ""}${who} — ${g.count} event${g.count === 1 ? "" : "s"}`;
      g.details.className = g.mine ? "group mine" : "group";
    }
  }

  // Fold the groups from `from` on as the log's end asks (the last two open, and this side's
  // among the last four); new events bring the log to its end, otherwise a reader scrolled
  // back stays where they are.
  settle(from, atBottom, count) {
    const n = this.groups.length;
    for (let i = from; i < n; i++) {
      const g = this.groups[i];
      g.details.open = i >= n - 2 || (g.mine && i >= n - 4);
    }
    const c = this.container;
    const grew = count !== Number(c.dataset.count || -1);
    if (atBottom || grew) c.scrollTop = c.scrollHeight;
    c.dataset.count = String(count);
  }
}

// The victory standing in the game's own words (the terminal's `v`), then the turn and the
// tracks, for the status dialog.
export function renderStatus(container, st) {
  container.replaceChildren();
  const words = (k) => k.replace(/[_:]+/g, " ");
  container.append(h("div", { class: "standing", id: "standing" }, (st.standing || []).map((line) => h("p", {}, line))));
  const rows = [];
  rows.push(["Scenario", `${st.scenario.name}${st.scenario.description ? " — " + st.scenario.description : ""}`]);
  rows.push(["Turn", `${st.turn}`]);
  for (const [k, v] of Object.entries(st.tracks || {})) {
    const value = v && typeof v === "object" && "value" in v ? v.value : v;
    rows.push([words(k), String(value)]);
  }
  container.append(h("table", { class: "status" }, rows.map(([k, v]) => h("tr", {}, h("th", {}, k), h("td", {}, v)))));
  if (st.description) container.append(h("p", {}, st.description));
  if (st.rulebook) container.append(h("p", { class: "muted" }, `Victory conditions and every rule: ${st.rulebook}`));
}
