// Moves by destination: a decision that moves a unit (its "routes": each destination with
// its cost and path) lights every destination on the map with its cost; a click on one
// draws the path there and asks for a confirmation; the server then answers each step as
// the game asks it (POST .../route), stopping where fire or anything else interrupts.
// Drawn as an overlay of its own on the board's picture, never catching a click.

const SVGNS = "http://www.w3.org/2000/svg";

export class RouteLayer {
  constructor(board) {
    this.board = board;
    this.routes = null;
  }

  // The options the board lights for a route decision: one a destination (picked by
  // ``route``), plus the decision's own options that name a place no route goes to.
  options(pending, version) {
    this.routes = pending.routes || null;
    if (!this.routes) return null;
    const to = this.routes.to;
    const unit = this.routes.cost_unit;
    const out = Object.entries(to).map(([place, r]) => ({
      route: place, targets: [place], version, cost: r.cost, path: r.path, note: r.note || "",
      label: `to ${place}`, info: `${r.cost} ${unit}${r.note ? "; " + r.note : ""}`,
    }));
    for (const opt of pending.options) {
      if (opt.targets && opt.targets.length && !opt.targets.some((t) => t in to)) out.push(opt);
    }
    return out;
  }

  clear() {
    const svg = this.board.svg;
    if (!svg) return;
    for (const node of svg.querySelectorAll("g.route-costs, g.route-path")) node.remove();
  }

  // The middle of a hex of the picture, in the coordinates of the pieces' layer.
  centre(place) {
    const svg = this.board.svg;
    const node = svg && svg.querySelector(`polygon[data-hex="${CSS.escape(place)}"]`);
    if (!node || !node.getBBox) return null;
    const b = node.getBBox();
    return { x: b.x + b.width / 2, y: b.y + b.height / 2, h: b.height };
  }

  layer(cls) {
    const g = document.createElementNS(SVGNS, "g");
    g.setAttribute("class", cls);
    g.style.pointerEvents = "none";
    const svg = this.board.svg;
    const pieces = svg.querySelector("g.pieces");
    if (pieces && pieces.parentNode) pieces.parentNode.insertBefore(g, pieces.nextSibling);
    else svg.appendChild(g);
    return g;
  }

  // Light the destinations with their cost (the board marks them as targets).
  show() {
    this.clear();
    if (!this.routes || !this.board.svg) return;
    const g = this.layer("route-costs");
    for (const [place, r] of Object.entries(this.routes.to)) {
      const c = this.centre(place);
      if (!c) continue;
      const text = document.createElementNS(SVGNS, "text");
      text.setAttribute("x", String(c.x));
      text.setAttribute("y", String(c.y + c.h * 0.36));
      text.setAttribute("font-size", String(Math.max(6, c.h * 0.26)));
      text.setAttribute("text-anchor", "middle");
      text.setAttribute("class", r.note ? "route-cost fire" : "route-cost");
      text.dataset.to = place;
      text.textContent = String(r.cost);
      g.appendChild(text);
    }
  }

  // Draw the path to a destination (the unit's start to it).
  preview(place) {
    const svg = this.board.svg;
    if (!svg) return;
    for (const node of svg.querySelectorAll("g.route-path")) node.remove();
    const r = this.routes && this.routes.to[place];
    if (!r) return;
    const points = r.path.map((p) => this.centre(p)).filter(Boolean);
    if (points.length < 2) return;
    const g = this.layer("route-path");
    const line = document.createElementNS(SVGNS, "polyline");
    line.setAttribute("points", points.map((p) => `${p.x},${p.y}`).join(" "));
    line.setAttribute("stroke-width", String(Math.max(2, points[0].h * 0.12)));
    line.dataset.to = place;
    g.appendChild(line);
    const end = document.createElementNS(SVGNS, "circle");
    const last = points[points.length - 1];
    end.setAttribute("cx", String(last.x));
    end.setAttribute("cy", String(last.y));
    end.setAttribute("r", String(last.h * 0.18));
    g.appendChild(end);
  }
}
