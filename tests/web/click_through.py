"""Play whole games in Chromium by clicking only, at random: map targets or buttons.

Not a test (it takes minutes): a check by hand that every game can be played to the end in
the browser. It starts its own ``tabletop serve`` and prints, per game, the clicks it took,
how many were on the map, the seconds and the result::

    python -m tests.web.click_through                    # the example, Bonins, 1945
    python -m tests.web.click_through iwo_bonins:two_player skirmish
"""

from __future__ import annotations

import random
import subprocess
import sys
import tempfile
import time
import urllib.request
from typing import Any

from .conftest import EXAMPLE, ROOT
from .test_browser import CHROMIUM_FLAGS, _free_port

MOVED = "v => document.body.dataset.version !== v || document.querySelector('#result')"
GAMES = ("skirmish", "iwo_bonins:solitaire", "iwo_1945")
TARGETS = ("#board [data-hex].target, #board [data-area].target, #board [data-box].target, "
           "#board [data-piece].target")


def play(page: Any, base: str, game: str, scenario: str, seed: int, limit: int = 5000) -> str:
    """One game from the home page to its end; every person side is at this browser."""
    rng = random.Random(seed)
    page.goto(base + "/")
    page.locator("body[data-ready]").wait_for()
    form = page.locator(f"form[data-game='{game}']")
    if scenario:
        form.locator("select[name=scenario]").select_option(scenario)
    for select in form.locator("select[data-side]").all():  # bots stay bots; people play here
        if select.input_value() == "link":
            select.select_option("here")
    form.locator("input[name=seed]").fill(str(seed))
    form.locator("button.start").click()
    page.wait_for_url("**/play/**")
    page.locator("body[data-version]").wait_for(state="attached")
    start, clicks, on_map, idle = time.monotonic(), 0, 0, 0
    while not page.locator("#result").count() and clicks < limit:
        if page.locator("#curtain").is_visible():
            page.locator("#curtain-go").click()
        version = page.evaluate("document.body.dataset.version")
        targets, buttons = page.locator(TARGETS), page.locator("#decision .options button.option")
        nt, nb = targets.count(), buttons.count()
        if nt and (not nb or rng.random() < 0.8):
            node = targets.nth(rng.randrange(nt))
            node.scroll_into_view_if_needed()
            box = node.bounding_box()
            page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
            on_map += 1
        elif nb:
            buttons.nth(rng.randrange(nb)).click()
        else:
            idle += 1
            if idle > 100:  # nothing to click for 20 s: a decision the page cannot take
                raise RuntimeError(f"nothing to click: {page.locator('#decision').inner_text()[:300]}")
            page.wait_for_timeout(200)
            continue
        idle = 0
        clicks += 1
        items = page.locator("#menu:not([hidden]) .menu-item")
        if items.count():
            items.nth(rng.randrange(items.count())).click()
        page.wait_for_function(MOVED, arg=version, timeout=60_000)
    over = page.locator("#result")
    result = over.inner_text().replace("\n", " ") if over.count() else "unfinished"
    return (f"{game} {scenario or ''}: {clicks} clicks ({on_map} on the map), "
            f"{time.monotonic() - start:.0f} s: {result}")


def main(names: list[str]) -> None:
    """Start a server, play each game named (``game`` or ``game:scenario``), stop the server."""
    from playwright.sync_api import sync_playwright

    port = _free_port()
    with tempfile.TemporaryDirectory() as data:
        proc = subprocess.Popen([sys.executable, "-m", "tabletop.core.frontends.cli", "serve", EXAMPLE,
                                 "--port", str(port), "--data", data], cwd=ROOT)
        base = f"http://127.0.0.1:{port}"
        try:
            for _ in range(150):
                try:
                    urllib.request.urlopen(base + "/api/games", timeout=2).read()
                    break
                except OSError:
                    time.sleep(0.2)
            with sync_playwright() as pw:
                browser = pw.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_FLAGS)
                for n, name in enumerate(names or GAMES, start=1):
                    game, _, scenario = name.partition(":")
                    page = browser.new_page(viewport={"width": 1400, "height": 900})
                    page.set_default_timeout(60_000)
                    print(play(page, base, game, scenario, n), flush=True)
                    page.close()
                browser.close()
        finally:
            proc.terminate()
            proc.wait(timeout=10)


if __name__ == "__main__":
    main(sys.argv[1:])
