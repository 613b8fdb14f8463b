"""The table as a player sees it in a 1400×900 browser window, for every game: at the start
and after ten decisions taken by clicking, every counter on the places of the pending
decision is at least 28 px across (with no such places, every counter in view), the view
shows those places, and no place name or label covers a counter. Screenshots of each are
taken (to ``docs/screenshots/`` when ``TABLETOP_DOC_SCREENSHOTS`` is set, the pictures the
docs show); for Valor of Arms the time an answer takes to draw is printed (see
docs/benchmarks.md).
"""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

import pytest

from .conftest import ROOT
from .test_browser import _page, browser, play_by_clicking, server, start_here  # noqa: F401

READABLE = 28  # px: the least width of a counter on the decision's places

# The check run in the page: the decision's places (highlighted hexes, positions, boxes and
# counters, not those inside a closed stack's fan), the counters standing on them, every
# counter on the board and every label; widths and overlaps in screen pixels.
MEASURE = """() => {
  const svg = document.querySelector('#board svg');
  const board = document.querySelector('#board').getBoundingClientRect();
  const outsideFan = (n) => !n.closest('g.fan');
  const targets = [...svg.querySelectorAll('.target')].filter(outsideFan);
  const places = new Set();
  const mine = new Set();
  for (const t of targets) {
    for (const k of ['hex', 'area', 'box']) if (t.dataset[k] !== undefined) places.add(t.dataset[k]);
    if (t.matches('g.counter')) mine.add(t);
    for (const c of t.querySelectorAll('g.counter')) if (outsideFan(c)) mine.add(c);
  }
  const counters = [...svg.querySelectorAll('g.counter')].filter(outsideFan);
  for (const c of counters) if (places.has(c.dataset.at)) mine.add(c);
  const chit = (c) => c.querySelector(':scope > rect.chit').getBoundingClientRect();
  const widths = [...mine].map((c) => [c.dataset.piece || c.dataset.at || '?', chit(c).width]);
  const labels = [...svg.querySelectorAll('.label, .hex-name, .area-name, .area-sub, .box-name')];
  const overlaps = [];
  const boxes = counters.map((c) => [c, chit(c)]);
  for (const l of labels) {
    const a = l.getBoundingClientRect();
    if (!a.width) continue;
    for (const [c, b] of boxes) {
      const e = 0.5;
      if (a.left < b.right - e && b.left < a.right - e && a.top < b.bottom - e && b.top < a.bottom - e) {
        overlaps.push([l.textContent, c.dataset.piece || c.dataset.at]);
      }
    }
  }
  const inView = (r) => {
    const x = r.left + r.width / 2, y = r.top + r.height / 2;
    return x >= board.left && x <= board.right && y >= board.top && y <= board.bottom;
  };
  const seen = targets.some((t) => inView(t.getBoundingClientRect()));
  // with no places to decide on, the counters the view shows are the ones to read
  const shown = counters.filter((c) => inView(chit(c)))
    .map((c) => [c.dataset.piece || c.dataset.at || '?', chit(c).width]);
  return {targets: targets.length, widths: targets.length ? widths : shown, overlaps, seen,
          shown: shown.length};
}"""

# The picture on the page (drawn whole at first, then answer by answer from the layers that
# changed) against the whole picture of the same position asked of the server, both written
# out the same way: the page's own marks taken away (highlights, a move's lit destinations
# and path, hovered and opened stacks,
# its zoom), and the children of a place in any order (the page brings a hovered stack to
# the front). Empty when they are the same; else where they first differ.
SAME_AS_WHOLE = """async () => {
  const seat = new URLSearchParams(location.search).get('seat');
  const path = '/api/matches/' + location.pathname.split('/').filter(Boolean)[1];
  const st = await (await fetch(path, {headers: {'X-Seat': seat}, cache: 'no-store'})).json();
  if (!st.svg) return 'the server sent no whole picture';
  const whole = new DOMParser().parseFromString(st.svg, 'image/svg+xml').documentElement;
  const shown = document.querySelector('#board svg').cloneNode(true);
  for (const n of shown.querySelectorAll('g.highlights, g.route-costs, g.route-path')) n.remove();
  for (const n of shown.querySelectorAll('.target, .hover, .fan-target, .open')) {
    n.classList.remove('target', 'hover', 'fan-target', 'open');
  }
  const canon = (n, top) => {
    if (n.nodeType === 3) return n.data;
    if (n.nodeType !== 1) return '';
    const attrs = [...n.attributes]
      .filter((a) => !(top && ['width', 'height', 'viewBox', 'preserveAspectRatio'].includes(a.name)))
      .map((a) => a.name + '=' + a.value).sort().join(' ');
    let kids = [...n.childNodes].map((c) => canon(c, false));
    if ([...n.children].some((c) => c.matches('g.counter, g.area, g.box'))) kids = kids.sort();
    return '<' + n.localName + ' ' + attrs + '>' + kids.join('') + '</' + n.localName + '>';
  };
  const a = canon(shown, true), b = canon(whole, true);
  if (a === b) return '';
  let k = 0;
  while (a[k] === b[k]) k++;
  const around = (text) => text.slice(Math.max(0, k - 150), k + 150);
  return 'shown: ' + around(a) + '\\nwhole: ' + around(b);
}"""

DRAWN = "() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(true))))"


def _shots(tmp_path: Path) -> Path:
    """Where the screenshots go: the docs' folder when asked for, else a temporary one."""
    if os.environ.get("TABLETOP_DOC_SCREENSHOTS"):
        path = ROOT / "docs" / "screenshots"
        path.mkdir(exist_ok=True)
        return path
    return tmp_path


def _shoot(page: Any, path: Path) -> None:
    """A screenshot of the window, kept small (a palette of colours, when Pillow is there)."""
    page.screenshot(path=str(path))
    try:
        from PIL import Image
    except ImportError:
        return
    with Image.open(path) as image:
        small = image.convert("RGB").quantize(colors=128, method=Image.Quantize.MEDIANCUT)
    small.save(path, optimize=True)


def _check_drawn_whole(page: Any, when: str) -> None:
    """The picture the page shows is the whole picture of its position (see SAME_AS_WHOLE)."""
    page.evaluate(DRAWN)
    differs = page.evaluate(SAME_AS_WHOLE)
    assert not differs, f"{when}: the picture drawn from the answers' layers is not the whole one:\n{differs}"


def _check_table(page: Any, when: str) -> dict[str, Any]:
    """The page's counters and labels measured; asserts the table is readable."""
    page.evaluate(DRAWN)
    got: dict[str, Any] = page.evaluate(MEASURE)
    small = [(who, round(w, 1)) for who, w in got["widths"] if w < READABLE]
    assert not small, f"{when}: counters of the decision's places under {READABLE} px: {small[:8]}"
    assert not got["overlaps"], f"{when}: labels over counters: {got['overlaps'][:8]}"
    if got["targets"]:
        assert got["seen"], f"{when}: none of the decision's places is in view"
    else:
        assert got["shown"], f"{when}: no counter in view"
    return got


# Kept in the page while answers are timed: when the last click was made, when the last
# request went out and its answer came in, and for each answer drawn (the page's version
# changed: render() has run) the time two animation frames later, when it is on the screen.
TIMING = """() => {
  const t = window.tabletopTiming = {answers: []};
  addEventListener('click', () => { t.click = performance.now(); }, true);
  const fetch0 = window.fetch;
  window.fetch = async (...args) => {
    t.sent = performance.now();
    const res = await fetch0(...args);
    t.received = performance.now();
    return res;
  };
  new MutationObserver(() => {
    const one = {click: t.click, sent: t.sent, received: t.received};
    requestAnimationFrame(() => requestAnimationFrame(() => {
      one.drawn = performance.now();
      t.answers.push(one);
    }));
  }).observe(document.body, {attributes: true, attributeFilter: ['data-version']});
}"""


def _draw_times(page: Any, decisions: int) -> dict[str, list[float]]:
    """Milliseconds, over ``decisions`` decisions taken by button or map as
    :func:`play_by_clicking` would: from the click that sends an answer to the answer drawn
    (``trip``: the server's decision, its bots and picture, the transfer, the page's drawing
    and two animation frames), the page's part of it (``page``: from the answer received to
    drawn), the server's (``server``: from the request sent to the answer received), and
    ``outer``, the same step timed from the test (with Playwright's own steps: finding the
    place to click, moving the mouse, waiting for the page)."""
    page.evaluate(TIMING)
    outer = []
    for n in range(decisions):
        if page.locator("#result").count():
            break
        start = time.perf_counter()
        play_by_clicking(page, seed=100 + n, most=1, to_the_end=False)
        page.wait_for_function(f"window.tabletopTiming.answers.length > {n}")
        outer.append((time.perf_counter() - start) * 1000)
    answers = page.evaluate("window.tabletopTiming.answers")
    return {"trip": [a["drawn"] - a["click"] for a in answers],
            "page": [a["drawn"] - a["received"] for a in answers],
            "server": [a["received"] - a["sent"] for a in answers], "outer": outer}


def _median(values: list[float]) -> float:
    return sorted(values)[len(values) // 2]


GAMES = [
    pytest.param("skirmish", None, 5, id="skirmish"),
    pytest.param("iwo_bonins", "solitaire", 4, id="iwo_bonins"),
    pytest.param("iwo_1945", None, 2, id="iwo_1945"),
    pytest.param("manila45", None, 3, id="manila45"),
    pytest.param("iwo_valor", "line_of_departure", 3, id="iwo_valor", marks=pytest.mark.slow),
]


@pytest.mark.parametrize("game_id, scenario, seed", GAMES)
def test_counters_on_the_decision_are_readable_and_uncovered(
        browser: Any, server: dict[str, Any], tmp_path: Path, game_id: str,  # noqa: F811
        scenario: str | None, seed: int) -> None:
    """At 1400×900, at the start and after ten decisions taken by clicking: the view shows
    the decision's places, every counter on them is at least 28 px across, and no label box
    overlaps a counter; "Fit" then shows the whole map and the decision's button brings the
    view back."""
    shots = _shots(tmp_path)
    page = _page(browser)
    answers: list[Any] = []  # the answers to the decisions taken (a move by destination: one)
    page.on("response",
            lambda res: answers.append(res) if res.url.split("?")[0].endswith(("/decide", "/route"))
            else None)
    start_here(page, server, game_id, scenario=scenario, seed=seed)
    page.locator("#prompt, #waiting, #result").first.wait_for()
    _check_table(page, f"{game_id} at the start")
    _shoot(page, shots / f"{game_id}-start.png")
    assert play_by_clicking(page, seed=seed, most=10, to_the_end=False) == 10
    page.locator("#prompt, #waiting, #result").first.wait_for()
    _check_table(page, f"{game_id} after 10 decisions")
    _check_drawn_whole(page, f"{game_id} after 10 decisions")
    # the page holds the picture: each answer brings the layers over its map, not the map
    sent = [res.json() for res in answers]
    assert len(sent) == 10 and all("layers" in a and "svg" not in a for a in sent), \
        [sorted(a) for a in sent]
    _shoot(page, shots / f"{game_id}-10.png")
    zoomed = [float(v) for v in (page.locator("#board svg").get_attribute("viewBox") or "").split()]
    page.locator("#zoom-fit").click()
    whole = [float(v) for v in (page.locator("#board svg").get_attribute("viewBox") or "").split()]
    assert whole[:2] == [0, 0] and whole[2] >= zoomed[2] and whole[3] >= zoomed[3]
    page.locator("#zoom-focus").click()
    _check_table(page, f"{game_id} back at the decision")
    if game_id == "iwo_valor":
        times = _draw_times(page, 10)
        assert len(times["trip"]) == len(times["outer"]), "an answer was drawn twice or not at all"
        if times["trip"]:
            print(f"\niwo_valor over {len(times['trip'])} decisions, ms median (max): click to answer "
                  f"drawn {_median(times['trip']):.0f} ({max(times['trip']):.0f}); the page's part "
                  f"{_median(times['page']):.0f} ({max(times['page']):.0f}); the server's "
                  f"{_median(times['server']):.0f} ({max(times['server']):.0f}); timed from the test "
                  f"{_median(times['outer']):.0f} ({max(times['outer']):.0f})")
        _check_drawn_whole(page, f"{game_id} after the timed decisions")
    assert not page.errors, page.errors
    page.context.close()


def test_layers_for_another_picture_make_the_page_ask_for_the_whole(
        browser: Any, server: dict[str, Any]) -> None:  # noqa: F811
    """An answer whose layers are not over the picture the page holds (here, its ``picture``
    altered on the way) is not drawn over it: the page asks for the whole picture (a request
    that names no picture) and shows the position whole."""
    import json
    import urllib.request

    page = _page(browser)
    start_here(page, server, "skirmish", seed=5)
    page.locator("#prompt").wait_for()
    asked: list[str] = []
    page.on("request", lambda req: asked.append(req.url) if "/api/matches/" in req.url else None)

    def altered(route: Any) -> None:
        req = route.request
        sent = urllib.request.Request(req.url, data=req.post_data_buffer, method=req.method,
                                      headers={k: v for k, v in req.headers.items()
                                               if k.lower() in ("content-type", "x-seat", "origin")})
        with urllib.request.urlopen(sent, timeout=30) as res:
            body = json.loads(res.read())
        body["picture"] = "0" * len(body["picture"])
        route.fulfill(status=200, content_type="application/json", body=json.dumps(body))

    page.route("**/decide?*", altered)
    assert play_by_clicking(page, seed=5, most=1, to_the_end=False) == 1
    page.unroute("**/decide?*")
    page.wait_for_function("() => !document.body.classList.contains('busy')")
    page.wait_for_timeout(500)
    whole = [url for url in asked if "/decide" not in url and "picture=" not in url]
    assert whole, asked
    _check_drawn_whole(page, "after layers for another picture")
    assert not page.errors, page.errors
    page.context.close()


def test_a_stack_opens_as_a_fan_of_counters_as_large_as_its_top(
        browser: Any, server: dict[str, Any]) -> None:  # noqa: F811
    """A stack shows its top counter and its depth; hovering it opens the fan of all its
    counters (Iwo Jima 1945: three IJA markers in each position, 5.0), each as large as the
    top one, and a click that picks nothing keeps it open."""
    page = _page(browser)
    start_here(page, server, "iwo_1945", seed=2)
    page.locator("#prompt").wait_for()
    page.locator("#zoom-fit").click()
    top = page.locator("g.area g.counter.stack").first
    depth = int(top.get_attribute("data-depth") or "0")
    fan = top.locator(":scope > g.fan")
    assert depth >= 2 and not fan.is_visible()
    box = top.locator(":scope > rect.chit").bounding_box()
    assert box
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    fan.wait_for(state="visible")
    items = fan.locator("g.fan-item > rect.chit")
    assert items.count() == depth
    widths = [(items.nth(k).bounding_box() or {"width": 0})["width"] for k in range(depth)]
    assert min(widths) >= box["width"] - 0.5
    page.mouse.move(2, 2)
    fan.wait_for(state="hidden")
    assert not page.errors, page.errors
    page.context.close()
