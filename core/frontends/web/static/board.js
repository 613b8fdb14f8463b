// The board: the game's own SVG made interactive — zoom and pan, the options that name a
// hex, area, box or piece highlighted, and a click on them reported as the options it picks.
// The view opens on, and follows, the places of the pending decision, zoomed so that every
// counter there is at least READABLE pixels across; "Fit" shows the whole map. Hovering a
// stack shows its counters fanned out (a view only: clicks go through it); a click on a
// stack that picks nothing keeps it open, and a counter in the open fan picks that unit.

const TARGET_ATTRS = ["hex", "area", "box", "piece"];
const SVGNS = "http://www.w3.org/2000/svg";
export const READABLE = 32; // px across a counter of the decision's places is drawn at least
const MAX_ZOOM = 1.6; // screen px per map unit the view zooms in to at most when it need not
const CHIT = "rect.chit";
const NAMING = "[data-hex],[data-area],[data-box],[data-piece],[data-pieces]"; // what names a target

export class Board {
  constructor(container, { onPick } = {}) {
    this.container = container;
    this.onPick = onPick || (() => {});
    this.svg = null;
    this.drawn = null; // the SVG text of the picture shown (drawn whole)
    this.key = null; // the server's name of the picture's fixed part (the map), sent back with requests
    this.layerTexts = new Map(); // the text of each layer drawn since (name -> text)
    this.full = null; // the picture's own viewBox
    this.box = null; // the viewBox shown now (zoom and pan)
    this.byTarget = new Map();
    this.index = null; // the picture's elements by the ids they name (see named)
    this.marked = new Set(); // the elements the page has marked (targets, hovered options)
    this.overlay = null; // the highlights drawn over the decision's hexes
    this.drag = null;
    this.dragged = false;
    container.addEventListener("wheel", (e) => this.wheel(e), { passive: false });
    container.addEventListener("pointerdown", (e) => this.down(e));
    container.addEventListener("pointermove", (e) => this.move(e));
    container.addEventListener("pointerup", (e) => this.up(e));
    container.addEventListener("pointercancel", () => { this.drag = null; });
    container.addEventListener("click", (e) => this.click(e));
  }

  // Draw an answer's board, keeping the zoom of the last picture when it has the same size:
  // a whole picture (SVG text, or an answer's {svg, picture}), or the layers of a new one
  // over the picture shown ({layers, size, picture}: the map stays, only what changed on it
  // is drawn again). False when those layers are not for the picture shown: the page then
  // asks for the whole picture (``key`` is cleared, so its next request does).
  show(answer) {
    const got = typeof answer === "string" ? { svg: answer } : answer || {};
    if (got.layers) return this.showLayers(got);
    const svgText = got.svg || "";
    this.key = got.picture || null;
    this.layerTexts = new Map();
    if (this.svg && svgText === this.drawn) return true; // the same picture again: kept as it is
    this.drawn = svgText;
    const keep = this.box && this.full;
    const old = this.full;
    this.container.innerHTML = svgText;
    this.svg = this.container.querySelector("svg");
    this.index = null;
    this.marked = new Set();
    this.overlay = null;
    if (!this.svg) return true;
    const vb = (this.svg.getAttribute("viewBox") || "0 0 1000 1000").split(/[ ,]+/).map(Number);
    this.full = { x: vb[0], y: vb[1], w: vb[2], h: vb[3] };
    this.svg.removeAttribute("width");
    this.svg.removeAttribute("height");
    this.svg.setAttribute("preserveAspectRatio", "xMidYMid meet");
    // an opened stack comes to the front, so its fan covers its neighbours
    this.svg.addEventListener("pointerover", (e) => this.raise(e.target));
    this.focused = null;
    if (keep && old.w === this.full.w && old.h === this.full.h) this.apply(this.box);
    else this.start();
    return true;
  }

  // The layers of a new picture drawn over the one shown; the view stays where it is. A
  // layer the same as the one shown is left as it is; in one that changed, every element
  // equal to the new one is kept (the browser styles and lays out only what changed).
  showLayers(got) {
    if (!this.svg || !got.picture || got.picture !== this.key) {
      this.key = null;
      return false;
    }
    let cleaned = false;
    for (const [name, text] of Object.entries(got.layers)) {
      if (this.layerTexts.get(name) === text) continue;
      const layer = this.svg.querySelector(`g[data-layer="${name}"]`);
      if (!layer) {
        this.key = null;
        return false;
      }
      if (!cleaned) { // what the page added (marks, an opened stack) goes before comparing
        this.unmark();
        for (const open of this.svg.querySelectorAll("g.counter.open")) open.classList.remove("open");
        cleaned = true;
      }
      const fresh = document.createElementNS(SVGNS, "g");
      fresh.innerHTML = text; // parsed apart from the page: no style or layout yet
      morph(layer, fresh);
      this.layerTexts.set(name, text);
      if (this.index) this.index.layers = null;
    }
    this.drawn = null;
    const [w, h] = got.size || [this.full.w, this.full.h];
    if (w !== this.full.w || h !== this.full.h) this.full = { x: 0, y: 0, w, h };
    this.focused = null;
    return true;
  }

  raise(node) {
    const stack = node && node.closest ? node.closest("g.counter.stack") : null;
    if (!stack || !stack.parentNode || stack.parentNode.lastElementChild === stack) return;
    stack.parentNode.appendChild(stack);
    const place = stack.parentNode.closest("g.area, g.box");
    if (place && place.parentNode && place.parentNode.lastElementChild !== place) place.parentNode.appendChild(place);
  }

  // The map box of an element, in the picture's own units.
  unitBox(node) {
    const r = node.getBoundingClientRect();
    const m = this.svg.getScreenCTM();
    if (!m || (!r.width && !r.height)) return null;
    const inv = m.inverse();
    const p = this.svg.createSVGPoint();
    p.x = r.left;
    p.y = r.top;
    const a = p.matrixTransform(inv);
    p.x = r.right;
    p.y = r.bottom;
    const b = p.matrixTransform(inv);
    return { x: Math.min(a.x, b.x), y: Math.min(a.y, b.y), w: Math.abs(b.x - a.x), h: Math.abs(b.y - a.y) };
  }

  // The elements of the pending decision's places: the highlighted hexes, positions, boxes
  // and counters (not those in a closed fan).
  focusNodes() {
    if (!this.svg) return [];
    return [...this.svg.querySelectorAll(".target")].filter((n) => !n.closest("g.fan"));
  }

  // Zoom and pan to the decision's places: all of them in view when they fit at a size where
  // every counter there is READABLE px across, else centred on them at that size. Nothing
  // moves when they are already in view at that size (unless ``force``).
  focus(force = false) {
    const nodes = this.focusNodes();
    if (!nodes.length || !this.full) return;
    let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
    let chit = Infinity;
    for (const node of nodes) {
      const b = this.unitBox(node);
      if (!b) continue;
      x0 = Math.min(x0, b.x); y0 = Math.min(y0, b.y);
      x1 = Math.max(x1, b.x + b.w); y1 = Math.max(y1, b.y + b.h);
    }
    if (!Number.isFinite(x0)) return;
    for (const rect of this.placeCounters(nodes)) {
      const b = this.unitBox(rect);
      if (b && b.w > 0) chit = Math.min(chit, b.w);
    }
    if (!Number.isFinite(chit)) chit = 34;
    const rect = this.svg.getBoundingClientRect();
    if (!rect.width || !rect.height) return;
    const need = READABLE / chit; // screen px per unit so the smallest counter is readable
    const pad = 40;
    const fit = Math.min(rect.width / (x1 - x0 + 2 * pad), rect.height / (y1 - y0 + 2 * pad));
    const now = this.scale();
    const inView = this.box && x0 >= this.box.x && y0 >= this.box.y &&
      x1 <= this.box.x + this.box.w && y1 <= this.box.y + this.box.h;
    if (!force && inView && now >= need) return;
    const k = Math.max(need, Math.min(fit, Math.max(MAX_ZOOM, need)));
    const w = rect.width / k;
    const h = rect.height / k;
    this.apply({ x: (x0 + x1) / 2 - w / 2, y: (y0 + y1) / 2 - h / 2, w, h });
  }

  // Screen pixels per picture unit at the present zoom.
  scale() {
    if (!this.svg || !this.box) return 1;
    const rect = this.svg.getBoundingClientRect();
    return Math.min(rect.width / this.box.w, rect.height / this.box.h);
  }

  // The counters (their squares) standing on the decision's places, or being them.
  placeCounters(nodes) {
    const places = new Set();
    const out = new Set();
    for (const node of nodes) {
      for (const key of ["hex", "area", "box"]) if (node.dataset[key] !== undefined) places.add(node.dataset[key]);
      if (node.matches("g.counter")) out.add(node.querySelector(`:scope > ${CHIT}`));
      for (const rect of node.querySelectorAll(`g.counter > ${CHIT}`)) if (!rect.closest("g.fan")) out.add(rect);
    }
    for (const counter of this.svg.querySelectorAll("g.counter[data-at]")) {
      if (places.has(counter.dataset.at) && !counter.closest("g.fan")) out.add(counter.querySelector(`:scope > ${CHIT}`));
    }
    out.delete(null);
    return [...out];
  }

  // The first view of a picture: all of it, unless the column beside a hex map (key and
  // off-map boxes) makes it much taller than the map; then the map's height, full width.
  start() {
    this.fit();
    const map = this.svg && this.svg.querySelector("g.map");
    if (map && map.getBBox) {
      const own = map.transform && map.transform.baseVal.consolidate();
      const b = map.getBBox();
      const bottom = b.y + b.height + (own ? own.matrix.f : 0) + 20;
      if (bottom > this.full.y && bottom < this.full.y + this.full.h * 0.75) {
        this.apply({ ...this.full, h: bottom - this.full.y });
      }
    }
    this.readable();
  }

  // With no places to follow yet, a first view in which the board's counters can be read:
  // when the whole picture draws them under READABLE px, zoom to that size, centred on the
  // counters on the board (not those in the boxes of the key's column).
  readable() {
    if (!this.svg) return;
    const chits = [...this.svg.querySelectorAll(`g.counter > ${CHIT}`)]
      .filter((n) => !n.closest("g.fan") && !n.closest("g.box:not(.placed)"));
    let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity, chit = Infinity;
    for (const node of chits) {
      const b = this.unitBox(node);
      if (!b) continue;
      x0 = Math.min(x0, b.x); y0 = Math.min(y0, b.y);
      x1 = Math.max(x1, b.x + b.w); y1 = Math.max(y1, b.y + b.h);
      chit = Math.min(chit, b.w);
    }
    if (!Number.isFinite(chit)) return;
    const need = READABLE / chit;
    if (this.scale() >= need) return;
    const rect = this.svg.getBoundingClientRect();
    const w = rect.width / need;
    const h = rect.height / need;
    this.apply({ x: (x0 + x1) / 2 - w / 2, y: (y0 + y1) / 2 - h / 2, w, h });
  }

  apply(box) {
    this.box = box;
    if (this.svg) this.svg.setAttribute("viewBox", `${box.x} ${box.y} ${box.w} ${box.h}`);
  }

  fit() {
    if (this.full) this.apply({ ...this.full });
  }

  zoom(factor, cx, cy) {
    if (!this.box) return;
    const b = this.box;
    const x = cx === undefined ? b.x + b.w / 2 : cx;
    const y = cy === undefined ? b.y + b.h / 2 : cy;
    const w = Math.min(Math.max(b.w * factor, this.full.w / 12), this.full.w * 1.5);
    const k = w / b.w;
    this.apply({ x: x - (x - b.x) * k, y: y - (y - b.y) * k, w, h: b.h * k });
  }

  point(e) {
    const p = this.svg.createSVGPoint();
    p.x = e.clientX;
    p.y = e.clientY;
    const m = this.svg.getScreenCTM();
    return m ? p.matrixTransform(m.inverse()) : { x: 0, y: 0 };
  }

  wheel(e) {
    if (!this.svg) return;
    e.preventDefault();
    const p = this.point(e);
    this.zoom(e.deltaY > 0 ? 1.2 : 1 / 1.2, p.x, p.y);
  }

  down(e) {
    if (!this.svg || e.button !== 0) return;
    this.drag = { x: e.clientX, y: e.clientY, box: { ...this.box } };
    this.dragged = false;
  }

  move(e) {
    if (!this.drag) return;
    const dx = e.clientX - this.drag.x;
    const dy = e.clientY - this.drag.y;
    if (!this.dragged && Math.hypot(dx, dy) < 5) return;
    this.dragged = true;
    const rect = this.svg.getBoundingClientRect();
    const scale = Math.max(this.drag.box.w / rect.width, this.drag.box.h / rect.height);
    this.apply({ ...this.drag.box, x: this.drag.box.x - dx * scale, y: this.drag.box.y - dy * scale });
  }

  up() {
    this.drag = null;
  }

  // Mark the options that name something on the map (and only those: the marks of the last
  // decision go); the rest are for buttons.
  setTargets(options) {
    this.byTarget = new Map();
    for (const opt of options || []) {
      for (const id of opt.targets || []) {
        if (!this.byTarget.has(id)) this.byTarget.set(id, []);
        this.byTarget.get(id).push(opt);
      }
    }
    if (!this.svg) return;
    this.unmark();
    const overlay = document.createElementNS(SVGNS, "g");
    overlay.setAttribute("class", "highlights");
    overlay.style.pointerEvents = "none";
    for (const node of this.named([...this.byTarget.keys()])) {
      this.marked.add(node);
      if (node.closest("g.fan")) { // a unit in a stack's fan: marked, but not a place to go to
        node.classList.add("fan-target");
        continue;
      }
      node.classList.add("target");
      if (node.tagName.toLowerCase() === "polygon") {
        const copy = node.cloneNode(false);
        copy.removeAttribute("data-hex");
        copy.setAttribute("class", "hl");
        overlay.appendChild(copy);
      }
    }
    const pieces = this.svg.querySelector("g.pieces");
    if (overlay.childNodes.length && pieces && pieces.parentNode) {
      pieces.parentNode.insertBefore(overlay, pieces);
      this.overlay = overlay;
    }
    // follow the decision: a new set of places is brought into view, readable
    const key = [...this.byTarget.keys()].sort().join("\u0000");
    if (key && key !== this.focused) {
      this.focused = key;
      this.focus();
    }
  }

  // Take away the marks of the last decision (highlighted places, hovered options).
  unmark() {
    for (const node of this.marked) node.classList.remove("target", "hover", "fan-target");
    this.marked = new Set();
    if (this.overlay) this.overlay.remove();
    this.overlay = null;
  }

  // The ids an element itself names: a place, a box, a piece, or every face-up piece of a
  // stack (a counter lower in a stack is chosen through the stack's top counter).
  ids(node) {
    const out = TARGET_ATTRS.map((a) => node.dataset[a]).filter((v) => v !== undefined);
    if (node.dataset.pieces) {
      try { out.push(...JSON.parse(node.dataset.pieces)); } catch (err) { /* ignore */ }
    }
    return out;
  }

  // The target ids under a click: the element itself and everything it sits in or on; a
  // unit in an opened stack's fan is itself alone.
  idsAt(node) {
    const ids = new Set();
    const item = node.closest ? node.closest("g.fan-item") : null;
    if (item) {
      if (item.dataset.piece) ids.add(item.dataset.piece);
      return ids;
    }
    for (let n = node; n && n !== this.container; n = n.parentNode) {
      if (!n.dataset) continue;
      for (const a of TARGET_ATTRS) if (n.dataset[a] !== undefined) ids.add(n.dataset[a]);
      if (n.dataset.at !== undefined) ids.add(n.dataset.at);
      if (n.dataset.pieces) {
        try { for (const id of JSON.parse(n.dataset.pieces)) ids.add(id); } catch (err) { /* ignore */ }
      }
    }
    return ids;
  }

  click(e) {
    if (this.dragged) {
      this.dragged = false;
      return;
    }
    const picks = (ids) => {
      const out = [];
      for (const id of ids) for (const opt of this.byTarget.get(id) || []) if (!out.includes(opt)) out.push(opt);
      return out;
    };
    let picked = picks(this.idsAt(e.target));
    // a unit in an opened fan that no option names: the click is on its stack and place
    if (!picked.length && e.target.closest && e.target.closest("g.fan-item")) {
      picked = picks(this.idsAt(e.target.closest("g.fan").parentNode));
    }
    const stack = e.target.closest ? e.target.closest("g.counter.stack") : null;
    for (const open of this.svg ? this.svg.querySelectorAll("g.counter.open") : []) if (open !== stack) open.classList.remove("open");
    if (picked.length) this.onPick(picked, e);
    else if (stack && !e.target.closest("g.fan")) stack.classList.toggle("open"); // a click opens a stack
  }

  // The elements of the map these ids name (to show which a listed option would pick).
  findAll(ids) {
    if (!this.svg || !ids || !ids.length) return [];
    const found = this.named(ids).filter((node) => !node.closest("g.fan"));
    for (const node of found) this.marked.add(node); // the page marks them (hover): unmark takes it away
    return found;
  }

  // The elements that name any of these ids (see ids), in the order of the picture: found
  // in an index of the picture's elements by the ids they name, made once a picture for
  // its fixed part (a big map's thousand hexes) and again for the layers when they change.
  named(ids) {
    if (!this.index) {
      this.index = { fixed: new Map(), layers: null };
      for (const node of this.svg.querySelectorAll(NAMING)) if (!node.closest("g[data-layer]")) this.indexed(this.index.fixed, node);
    }
    if (!this.index.layers) {
      this.index.layers = new Map();
      for (const layer of this.svg.querySelectorAll("g[data-layer]")) {
        for (const node of layer.querySelectorAll(NAMING)) this.indexed(this.index.layers, node);
      }
    }
    const found = new Set();
    for (const id of ids) {
      for (const node of this.index.fixed.get(id) || []) found.add(node);
      for (const node of this.index.layers.get(id) || []) found.add(node);
    }
    return [...found].sort((a, b) => (a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING ? -1 : 1));
  }

  indexed(table, node) {
    for (const id of this.ids(node)) {
      if (!table.has(id)) table.set(id, []);
      table.get(id).push(node);
    }
  }
}

// What a child of a layer is matched by in the next picture: the place, box or piece it
// draws, else its kind (the page's marks are taken away before).
function matchKey(node) {
  if (node.nodeType !== 1) return `#${node.nodeType}`;
  for (const a of ["data-piece", "data-at", "data-box", "data-area", "data-hex", "class"]) {
    const v = node.getAttribute(a);
    if (v !== null) return `${a}=${v}`;
  }
  return node.localName;
}

function sameTag(a, b) {
  if (a.nodeType !== 1 || b.nodeType !== 1 || a.localName !== b.localName) return false;
  if (a.attributes.length !== b.attributes.length) return false;
  for (const attr of b.attributes) if (a.getAttribute(attr.name) !== attr.value) return false;
  return true;
}

// Make the children of ``live`` (in the page) those of ``fresh`` (the same layer parsed
// from the new picture): a child equal to its new one stays as it is, one with the same
// tag and attributes is made over the same way, any other is replaced by the new one.
function morph(live, fresh) {
  const pool = new Map(); // match key -> the live children with it, in order
  for (const node of live.childNodes) {
    const key = matchKey(node);
    if (!pool.has(key)) pool.set(key, []);
    pool.get(key).push(node);
  }
  const next = [];
  for (const node of [...fresh.childNodes]) {
    const old = (pool.get(matchKey(node)) || []).shift();
    if (old && old.isEqualNode(node)) next.push(old);
    else if (old && sameTag(old, node) && node.childNodes.length) {
      morph(old, node);
      next.push(old);
    } else next.push(node);
  }
  let at = live.firstChild;
  for (const node of next) {
    if (node === at) at = at.nextSibling;
    else live.insertBefore(node, at);
  }
  while (at) {
    const after = at.nextSibling;
    at.remove();
    at = after;
  }
}
