// The board: the game's own SVG made interactive — zoom and pan, the options that name a
// hex, area, box or piece highlighted, and a click on them reported as the options it picks.

const TARGET_ATTRS = ["hex", "area", "box", "piece"];
const SVGNS = "http://www.w3.org/2000/svg";

export class Board {
  constructor(container, { onPick } = {}) {
    this.container = container;
    this.onPick = onPick || (() => {});
    this.svg = null;
    this.drawn = null; // the SVG text of the picture shown
    this.full = null; // the picture's own viewBox
    this.box = null; // the viewBox shown now (zoom and pan)
    this.byTarget = new Map();
    this.drag = null;
    this.dragged = false;
    container.addEventListener("wheel", (e) => this.wheel(e), { passive: false });
    container.addEventListener("pointerdown", (e) => this.down(e));
    container.addEventListener("pointermove", (e) => this.move(e));
    container.addEventListener("pointerup", (e) => this.up(e));
    container.addEventListener("pointercancel", () => { this.drag = null; });
    container.addEventListener("click", (e) => this.click(e));
  }

  // Draw a new picture, keeping the zoom of the last one when it has the same size; the
  // same picture again (most decisions move nothing) is kept as it is, not drawn again.
  show(svgText) {
    if (this.svg && svgText === this.drawn) return;
    this.drawn = svgText;
    const keep = this.box && this.full;
    const old = this.full;
    this.container.innerHTML = svgText;
    this.svg = this.container.querySelector("svg");
    if (!this.svg) return;
    const vb = (this.svg.getAttribute("viewBox") || "0 0 1000 1000").split(/[ ,]+/).map(Number);
    this.full = { x: vb[0], y: vb[1], w: vb[2], h: vb[3] };
    this.svg.removeAttribute("width");
    this.svg.removeAttribute("height");
    this.svg.setAttribute("preserveAspectRatio", "xMidYMid meet");
    // place names stay on top of the counters, and never catch a click
    const labels = this.svg.querySelector("g.labels");
    if (labels && labels.parentNode) {
      labels.parentNode.appendChild(labels);
      labels.style.pointerEvents = "none";
    }
    if (keep && old.w === this.full.w && old.h === this.full.h) this.apply(this.box);
    else this.start();
  }

  // The first view of a picture: all of it, unless the column beside a hex map (key and
  // off-map boxes) makes it much taller than the map; then the map's height, full width.
  start() {
    this.fit();
    const map = this.svg && this.svg.querySelector("g.map");
    if (!map || !map.getBBox) return;
    const own = map.transform && map.transform.baseVal.consolidate();
    const b = map.getBBox();
    const bottom = b.y + b.height + (own ? own.matrix.f : 0) + 20;
    if (bottom > this.full.y && bottom < this.full.y + this.full.h * 0.75) {
      this.apply({ ...this.full, h: bottom - this.full.y });
    }
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
    for (const node of this.svg.querySelectorAll(".target, .hover")) node.classList.remove("target", "hover");
    for (const node of this.svg.querySelectorAll("g.highlights")) node.remove();
    const overlay = document.createElementNS(SVGNS, "g");
    overlay.setAttribute("class", "highlights");
    overlay.style.pointerEvents = "none";
    for (const node of this.svg.querySelectorAll("[data-hex],[data-area],[data-box],[data-piece],[data-pieces]")) {
      if (!this.ids(node).some((id) => this.byTarget.has(id))) continue;
      node.classList.add("target");
      if (node.tagName.toLowerCase() === "polygon") {
        const copy = node.cloneNode(false);
        copy.removeAttribute("data-hex");
        copy.setAttribute("class", "hl");
        overlay.appendChild(copy);
      }
    }
    const pieces = this.svg.querySelector("g.pieces");
    if (overlay.childNodes.length && pieces && pieces.parentNode) pieces.parentNode.insertBefore(overlay, pieces);
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

  // The target ids under a click: the element itself and everything it sits in or on.
  idsAt(node) {
    const ids = new Set();
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
    const ids = this.idsAt(e.target);
    const picked = [];
    for (const id of ids) for (const opt of this.byTarget.get(id) || []) if (!picked.includes(opt)) picked.push(opt);
    if (picked.length) this.onPick(picked, e);
  }

  // The elements of the map these ids name (to show which a listed option would pick).
  findAll(ids) {
    if (!this.svg || !ids || !ids.length) return [];
    const want = new Set(ids);
    return [...this.svg.querySelectorAll("[data-hex],[data-area],[data-box],[data-piece],[data-pieces]")]
      .filter((node) => this.ids(node).some((id) => want.has(id)));
  }
}
