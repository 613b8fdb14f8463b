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


def _draw_times(page: Any, decisions: int) -> tuple[list[float], list[float]]:
    """Milliseconds from a click to the answer drawn (server and page together), and for the
    page alone to draw the same picture again, over ``decisions`` decisions taken by button
    or map as :func:`play_by_clicking` would."""
    trips, draws = [], []
    for n in range(decisions):
        if page.locator("#result").count():
            break
        start = time.perf_counter()
        play_by_clicking(page, seed=100 + n, most=1, to_the_end=False)
        page.evaluate(DRAWN)
        trips.append((time.perf_counter() - start) * 1000)
        draws.append(page.evaluate("""() => new Promise((done) => {
          const board = document.querySelector('#board');
          const svg = board.innerHTML;
          const t0 = performance.now();
          board.innerHTML = svg;
          board.querySelector('svg').getBoundingClientRect();
          requestAnimationFrame(() => requestAnimationFrame(() => done(performance.now() - t0)));
        })"""))
    return trips, draws


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
    start_here(page, server, game_id, scenario=scenario, seed=seed)
    page.locator("#prompt, #waiting, #result").first.wait_for()
    _check_table(page, f"{game_id} at the start")
    _shoot(page, shots / f"{game_id}-start.png")
    assert play_by_clicking(page, seed=seed, most=10, to_the_end=False) == 10
    page.locator("#prompt, #waiting, #result").first.wait_for()
    _check_table(page, f"{game_id} after 10 decisions")
    _shoot(page, shots / f"{game_id}-10.png")
    zoomed = [float(v) for v in (page.locator("#board svg").get_attribute("viewBox") or "").split()]
    page.locator("#zoom-fit").click()
    whole = [float(v) for v in (page.locator("#board svg").get_attribute("viewBox") or "").split()]
    assert whole[:2] == [0, 0] and whole[2] >= zoomed[2] and whole[3] >= zoomed[3]
    page.locator("#zoom-focus").click()
    _check_table(page, f"{game_id} back at the decision")
    if game_id == "iwo_valor":
        trips, draws = _draw_times(page, 10)
        if trips:
            trip, draw = sorted(trips)[len(trips) // 2], sorted(draws)[len(draws) // 2]
            print(f"\niwo_valor: click to answer drawn {trip:.0f} ms median (max {max(trips):.0f}); "
                  f"the page alone redraws in {draw:.0f} ms median (max {max(draws):.0f}) "
                  f"over {len(trips)} decisions")
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
