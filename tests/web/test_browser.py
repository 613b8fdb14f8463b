"""End to end in a real browser: Debian's Chromium driven by Playwright against a
`tabletop serve` started for the tests: start a match, click the map,
see the log, undo, save, reload, replay; two seat links playing two-player Bonins.

Screenshots go to ``$TABLETOP_SCREENSHOTS`` (a temporary folder when unset)."""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tabletop.core.engine.record import replay
from tabletop.core.engine.visibility import find_leaks, secrets_of

from .conftest import EXAMPLE, ROOT, game

CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync"]
TIMEOUT = 20_000  # ms for one step to show in the page


def _chromium() -> str:
    path = shutil.which("chromium") or shutil.which("chromium-browser")
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        path = None
    if path is None:
        message = "needs Debian's chromium and the playwright package (see .ci/run)"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    return path


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    """`tabletop serve docs/example/skirmish` on a free local port, stopped after the tests."""
    _chromium()
    data = tmp_path_factory.mktemp("serve")
    port = _free_port()
    proc = subprocess.Popen([sys.executable, "-m", "tabletop.core.frontends.cli", "serve", EXAMPLE,
                             "--port", str(port), "--data", str(data)], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                urllib.request.urlopen(base + "/api/games", timeout=2).read()
                break
            except (urllib.error.URLError, ConnectionError):
                if proc.poll() is not None or time.monotonic() > deadline:
                    out = proc.stdout.read() if proc.stdout else ""
                    raise RuntimeError(f"tabletop serve did not start: {out}") from None
                time.sleep(0.2)
        yield {"base": base, "data": data}
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()


@pytest.fixture(scope="module")
def browser(server: dict[str, Any]) -> Iterator[Any]:
    """Debian's Chromium under Playwright (no browser download)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=_chromium(), args=CHROMIUM_FLAGS)
        yield chromium
        chromium.close()


@pytest.fixture(scope="module")
def shots(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where the screenshots go."""
    folder = os.environ.get("TABLETOP_SCREENSHOTS")
    path = Path(folder) if folder else tmp_path_factory.mktemp("screenshots")
    path.mkdir(parents=True, exist_ok=True)
    return path


def _page(browser: Any) -> Any:
    context = browser.new_context(viewport={"width": 1400, "height": 900}, accept_downloads=True)
    page = context.new_page()
    page.set_default_timeout(TIMEOUT)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.errors = errors
    return page


def _post(base: str, path: str, body: dict[str, Any], seat: str = "") -> dict[str, Any]:
    req = urllib.request.Request(base + path, data=json.dumps(body).encode(), method="POST",
                                 headers={"Content-Type": "application/json", "X-Seat": seat})
    with urllib.request.urlopen(req, timeout=30) as res:
        out: dict[str, Any] = json.loads(res.read())
        return out


def _get(base: str, path: str, seat: str) -> dict[str, Any]:
    req = urllib.request.Request(base + path, headers={"X-Seat": seat})
    with urllib.request.urlopen(req, timeout=30) as res:
        out: dict[str, Any] = json.loads(res.read())
        return out


def click_map(page: Any, selector: str) -> None:
    """Click the middle of a map element as a person would (whatever lies on top of it)."""
    page.mouse.move(1, 1)  # off the board: no stack stays opened by the last hover
    node = page.locator(selector).first
    node.wait_for(state="attached")
    node.scroll_into_view_if_needed()
    if not in_view(page, node):  # the view follows the decision; the rest is a Fit away
        page.locator("#zoom-fit").click()
    box = node.bounding_box()
    assert box, selector
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)


def prompt(page: Any, text: str) -> None:
    """Wait until the pending decision's prompt shows ``text``."""
    page.locator("#prompt", has_text=text).wait_for()


def log_lines(page: Any) -> list[str]:
    """The log's lines as shown (open and folded groups alike)."""
    lines: list[str] = page.locator("#log li").all_text_contents()
    return lines


def log_groups(page: Any) -> list[list[Any]]:
    """The log's groups as shown: heading, class, whether open, and each line with its class."""
    groups: list[list[Any]] = page.locator("#log details").evaluate_all(
        "ds => ds.map(d => [d.querySelector('summary').textContent, d.className, d.open, "
        "[...d.querySelectorAll('li')].map(li => [li.className, li.dataset.seq, li.textContent])])")
    return groups


def start_here(page: Any, server: dict[str, Any], game_id: str, *, scenario: str | None = None,
               seed: int = 3) -> None:
    """Start a match on the home page with the default sides (a person here against the bot)."""
    page.goto(server["base"] + "/")
    page.locator("body[data-ready]").wait_for()
    form = page.locator(f"form[data-game='{game_id}']")
    if scenario:
        form.locator("select[name=scenario]").select_option(scenario)
    form.locator("input[name=seed]").fill(str(seed))
    form.locator("button.start").click()
    page.wait_for_url("**/play/**")


def undo_save_reload_replay(page: Any, server: dict[str, Any], shots: Path, name: str,
                            moved: str) -> Path:
    """Undo takes the last move back; Save downloads a save; a reload shows the same match;
    the save opens in the replay viewer and steps to its end."""
    before = log_lines(page)
    page.locator("#undo").click()
    page.locator("#banner", has_text="undone").wait_for()
    after = log_lines(page)
    assert len(after) < len(before) and not any(moved in line for line in after[-3:])
    with page.expect_download() as download:
        page.locator("#save").click()
    path = Path(download.value.path())
    save = json.loads(path.read_text())
    assert save["format"] == "tabletop-save/1" and save["header"]["game"] == name
    shown = page.locator("#prompt").text_content()
    page.reload()
    page.locator("#prompt").wait_for()
    assert page.locator("#prompt").text_content() == shown
    assert log_lines(page) == after
    page.goto(server["base"] + "/")
    page.locator("body[data-ready]").wait_for()
    page.locator("#replay-file").set_input_files(str(path))
    page.wait_for_url("**/replay/**")
    total = len(save["decisions"])
    page.locator("#stepno", has_text=f"decision 0 of {total}").wait_for()
    page.locator("#last").click()
    page.locator("#stepno", has_text=f"decision {total} of {total}").wait_for()
    page.locator("#steptext", has_text="Last:").wait_for()
    page.locator("#board svg text", has_text="all pieces face-up").wait_for()
    side = page.locator("#side option").nth(1).get_attribute("value")
    page.locator("#side").select_option(side)
    page.locator("#board svg text", has_text=f"as seen by {side}").wait_for()
    page.screenshot(path=str(shots / f"{name}-replay.png"))
    assert not page.errors, page.errors
    return path


def in_view(page: Any, node: Any) -> bool:
    """Whether the middle of a map element is inside the board's window on the page."""
    box, board = node.bounding_box(), page.locator("#board").bounding_box()
    if not box or not board:
        return False
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    return bool(board["x"] <= x <= board["x"] + board["width"]
                and board["y"] <= y <= board["y"] + board["height"])


def play_by_clicking(page: Any, seed: int, most: int, *, to_the_end: bool = True) -> int:
    """Play the seat's decisions as a person would, to the end of the game (or ``most``
    decisions when not ``to_the_end``): click one of the highlighted places or counters on
    the map (a random one), or one of the buttons when no option is on the map, confirming
    in the menu when one opens (odds, or several options in one place); returns the number
    of decisions taken."""
    import random

    rng = random.Random(seed)
    taken = 0
    while page.locator("#result").count() == 0:
        if taken == most and not to_the_end:
            break
        assert taken < most, f"the game did not end in {most} decisions"
        page.locator("#prompt, #result").first.wait_for()
        if page.locator("#result").count():
            break
        version = page.evaluate("document.body.dataset.version")
        page.mouse.move(1, 1)  # off the board: no stack stays opened by the last hover
        targets = page.locator("#board .target")
        if targets.count():
            node = targets.nth(rng.randrange(targets.count()))
            node.scroll_into_view_if_needed()
            if not in_view(page, node):  # the view follows the decision; the rest is a Fit away
                page.locator("#zoom-fit").click()
            box = node.bounding_box()
            assert box
            page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        else:
            buttons = page.locator("#decision .options button.option")
            buttons.nth(rng.randrange(buttons.count())).click()
        if page.locator("#menu").is_visible():
            items = page.locator("#menu .menu-item")
            items.nth(rng.randrange(items.count())).click()
        page.wait_for_function("v => document.body.dataset.version !== v", arg=version)
        taken += 1
    assert not page.errors, page.errors
    return taken


@pytest.mark.parametrize("game_id, scenario, seed, most, section", [
    ("skirmish", None, 5, 400, "6."),
    pytest.param("iwo_1945", None, 2, 2000, "7.0", marks=pytest.mark.slow),
    pytest.param("iwo_bonins", "solitaire", 4, 5000, "4.", marks=pytest.mark.slow)])
def test_whole_game_by_clicking(browser: Any, server: dict[str, Any], shots: Path, game_id: str,
                                scenario: str | None, seed: int, most: int, section: str) -> None:
    """A whole game from the first decision to the result, every decision of the person's
    side taken by a click on the map or a button, the other side played between them; the
    result shows with its rule section (example 6.1-6.3, Iwo Jima 1945 7.0, Bonins 4.x); the
    log, sent and drawn a few events at a time, is then the whole log drawn after a reload."""
    page = _page(browser)
    start_here(page, server, game_id, scenario=scenario, seed=seed)
    assert play_by_clicking(page, seed=seed, most=most) > 10
    result = page.locator("#result").text_content() or ""
    assert "Game over" in result and f"rule {section}" in result
    page.screenshot(path=str(shots / f"{game_id}-over.png"))
    # the log grown a few events at a time is the whole log drawn at once (after a reload)
    grown = log_groups(page)
    page.reload()
    page.locator("#result").wait_for()
    assert len(grown) > 3 and log_groups(page) == grown
    page.context.close()


@pytest.mark.parametrize("game_id, scenario", [("iwo_valor", "line_of_departure"), ("manila45", None)])
def test_big_maps_zoom_and_play_by_clicking(browser: Any, server: dict[str, Any], shots: Path,
                                            game_id: str, scenario: str | None) -> None:
    """The two big sheets (Valor of Arms V, Manila '45 3.2-3.4): the map zooms in and out and
    fits again, and the first decisions are taken by clicking the highlighted hexes and
    counters or the buttons, each adding to the log."""
    page = _page(browser)
    start_here(page, server, game_id, scenario=scenario, seed=3)
    page.locator("#prompt").wait_for()
    view = page.locator("#board svg").get_attribute("viewBox")
    page.locator("#zoom-in").click()
    assert page.locator("#board svg").get_attribute("viewBox") != view
    page.locator("#zoom-out").click()
    page.locator("#zoom-fit").click()
    before = page.locator("#log li").count()
    assert play_by_clicking(page, seed=3, most=12, to_the_end=False) == 12
    assert page.locator("#log li").count() > before
    page.screenshot(path=str(shots / f"{game_id}-played.png"))
    page.context.close()


def test_example_game_click_a_unit_then_a_hex(browser: Any, server: dict[str, Any], shots: Path) -> None:
    """Skirmish: pick a unit by clicking its counter, then a highlighted hex; the log shows the
    move with its rule section; undo, save, reload and replay."""
    page = _page(browser)
    start_here(page, server, "skirmish")
    prompt(page, "Move which unit?")
    assert page.locator("g.counter.target").count() == 4
    page.screenshot(path=str(shots / "skirmish-start.png"))
    click_map(page, "g.counter[data-piece='B1']")
    prompt(page, "Move 1/5 from 0102 to?")
    assert page.locator("polygon.hex.target").count() >= 3
    click_map(page, "polygon.hex[data-hex='0203']")
    prompt(page, "Move which unit?")
    page.locator("#log li", has_text="1/5 moves 0102 -> 0203").wait_for()
    assert "B1" in json.loads(page.locator("g.counter[data-at='0203']").get_attribute("data-pieces") or "[]")
    page.screenshot(path=str(shots / "skirmish-moved.png"))
    saved = undo_save_reload_replay(page, server, shots, "skirmish", "1/5 moves 0102 -> 0203")
    # the save resumes from the home page as a new match, at the same decision
    page.goto(server["base"] + "/")
    page.locator("body[data-ready]").wait_for()
    page.locator("#resume-file").set_input_files(str(saved))
    page.locator("#resume-go").click()
    page.wait_for_url("**/play/**")
    prompt(page, "Move 1/5 from 0102 to?")
    assert not page.errors, page.errors
    page.context.close()


def test_the_bot_decides_for_the_player_and_the_score_reads_in_words(
        browser: Any, server: dict[str, Any]) -> None:
    """Skirmish: "Let the bot decide" takes the player's decision (a unit picked, its move
    asked next), "Bot: rest of this phase" plays out Blue's movement; the log's groups are
    headed by the phases' printed names; the Score dialog says who would win if the game
    ended now, with no game variable's raw value."""
    page = _page(browser)
    start_here(page, server, "skirmish")
    prompt(page, "Move which unit?")
    page.locator("#bot-one").click()
    prompt(page, " to?")
    page.locator("#bot-phase").click()
    page.locator("#log summary", has_text="Blue combat").first.wait_for(state="attached")
    assert not any("_" in s for s in page.locator("#log summary").all_text_contents())
    page.locator("#status-btn").click()
    standing = page.locator("#standing")
    standing.wait_for()
    text = standing.inner_text()
    assert text.startswith("If the game ended now"), text
    body = page.locator("#status-body").inner_text()
    assert "{" not in body and "_" not in body, body
    assert not page.errors, page.errors
    page.context.close()


def test_the_home_page_offers_the_scenario_first_and_no_seat_to_a_side_the_rules_play(
        browser: Any, server: dict[str, Any]) -> None:
    """Home page: Valor of Arms offers its shortest whole scenario first; Iwo Jima 1945 and
    solitaire Bonins give no seat to the Japanese, whom the rules play, while two-player
    Bonins does; 1945's rule variants are folded under "Rule variants" in the rulebook's
    words, not option ids."""
    page = _page(browser)
    page.goto(server["base"] + "/")
    page.locator("body[data-ready]").wait_for()
    valor = page.locator("form[data-game='iwo_valor']")
    assert valor.locator("select[name=scenario]").input_value() == "line_of_departure"
    assert valor.locator("label[data-seat='US']").is_visible()
    assert valor.locator("label[data-seat='Japan']").is_hidden()
    ia = page.locator("form[data-game='iwo_1945']")
    assert ia.locator("label[data-seat='USMC']").is_visible()
    assert ia.locator("label[data-seat='Japan']").is_hidden()
    assert ia.locator("p[data-ruled='Japan']").is_visible()
    variants = ia.locator("details.variants")
    assert variants.locator("summary").inner_text() == "Rule variants"
    assert not variants.evaluate("d => d.open")
    folded = variants.text_content() or ""
    assert "8.0 difficulty" in folded and "japanese_cards" not in folded
    bonins = page.locator("form[data-game='iwo_bonins']")
    assert bonins.locator("label[data-seat='US']").is_visible()
    assert bonins.locator("label[data-seat='Japan']").is_hidden()
    bonins.locator("select[name=scenario]").select_option("two_player")
    assert bonins.locator("label[data-seat='Japan']").is_visible()
    assert not page.errors, page.errors
    page.context.close()


def test_bonins_solitaire_land_on_a_clicked_beach_hex(browser: Any, server: dict[str, Any],
                                                      shots: Path) -> None:
    """Bonins solitaire: choose the beaches by button (3.3), pick a battalion to land by clicking
    its counter in the off-map box, then a highlighted beach hex (11.2); undo, save, reload,
    replay."""
    page = _page(browser)
    start_here(page, server, "iwo_bonins", scenario="solitaire")
    prompt(page, "Invade which side of the island?")
    page.locator("button.option", has_text="East beaches").click()
    prompt(page, "movement phase: what next?")
    click_map(page, "g.counter.target[data-piece='1/23']")  # in the off-map box of units to land
    prompt(page, "Land 1/23 on which beach hex?")
    target = page.locator("polygon.hex.target").first.get_attribute("data-hex")
    assert target
    unit = page.locator("#prompt").text_content() or ""
    click_map(page, f"polygon.hex[data-hex='{target}']")
    page.locator("#log li", has_text=target).first.wait_for()
    page.screenshot(path=str(shots / "bonins-landed.png"))
    assert unit
    undo_save_reload_replay(page, server, shots, "iwo_bonins", target)
    page.context.close()


def test_iwo_1945_attack_by_clicking_a_regiment_and_a_position(browser: Any, server: dict[str, Any],
                                                               shots: Path) -> None:
    """Iwo Jima 1945 (area board, cards): Attack by button, the regiment by clicking one of its
    markers, the target position by clicking it (6.0); undo, save, reload, replay."""
    page = _page(browser)
    start_here(page, server, "iwo_1945")
    prompt(page, "action(s) left")
    page.locator("button.option", has_text="Attack").click()
    prompt(page, "Attack: which regiment?")
    click_map(page, "g.area g.counter.target")
    prompt(page, "attacks which position?")
    area = page.locator("g.area.target").first.get_attribute("data-area")
    click_map(page, f"g.area[data-area='{area}'] > rect:nth-of-type(2)")
    # the attack's odds are shown before it is committed (Iwo Jima 1945 6.0 fire chart)
    odds = page.locator("#menu .menu-item", has_text="dice")
    odds.wait_for()
    assert "removed" in (odds.text_content() or "")
    odds.click()
    prompt(page, "play a card first?")
    # a card's effect is shown before it is played; cancelling changes nothing
    version = page.evaluate("document.body.dataset.version")
    page.locator("#decision button.option", has_text="play ").first.click()
    page.locator("#menu .menu-item .info").wait_for()
    page.screenshot(path=str(shots / "iwo1945-confirm.png"))
    page.locator("#menu .menu-cancel").click()
    assert page.locator("#menu").is_hidden()
    assert page.evaluate("document.body.dataset.version") == version
    attack = page.locator("#log li", has_text=" from ").last.text_content() or ""
    assert " attacks " in attack
    page.screenshot(path=str(shots / "iwo1945-attacked.png"))
    # undone before the dice are rolled: an honest undo never takes back a roll
    undo_save_reload_replay(page, server, shots, "iwo_1945", attack.split("] ")[-1].strip())
    page.context.close()


def test_two_seat_links_play_bonins_without_seeing_each_others_units(
        browser: Any, server: dict[str, Any], shots: Path) -> None:
    """Two-player Bonins (18.0) through two seat links in two browser contexts: Japan deploys
    in secret by clicking hexes, the US lands by clicking; no answer the US browser receives,
    and nothing on its page, names a Japanese unit hidden from it."""
    base = server["base"]
    created = _post(base, "/api/matches", {"game": "iwo_bonins", "scenario": "two_player", "seed": 4,
                                           "sides": {"US": "link", "Japan": "link"}})
    links = {s["sides"][0]: s["url"] for s in created["seats"]}
    tokens = {side: url.rsplit("seat=", 1)[1] for side, url in links.items()}
    japan, us = _page(browser), _page(browser)
    us_bodies: list[str] = []
    us.on("response", lambda r: us_bodies.append(r.text()) if "/api/" in r.url else None)
    japan.goto(base + links["Japan"])
    us.goto(base + links["US"])
    us.locator("#waiting", has_text="Waiting for Japan").wait_for()
    # the first secret placements (18.1) by clicking the map, the rest through the API
    for _ in range(2):
        prompt(japan, "on which initial deployment hex?")
        shown = japan.locator("#log li").count()
        click_map(japan, "polygon.hex.target")
        japan.wait_for_function("n => document.querySelectorAll('#log li').length > n", arg=shown)
    japan.locator("#log li", has_text="Place").first.wait_for()
    japan.screenshot(path=str(shots / "bonins-two-japan.png"))
    while True:
        st = _get(base, f"/api/matches/{created['id']}", tokens["Japan"])
        if not st["your_turn"]:
            break
        _post(base, f"/api/matches/{created['id']}/decide",
              {"index": 0, "value": st["pending"]["options"][0]["value"], "version": st["version"]},
              tokens["Japan"])
    prompt(us, "Invade which side of the island?")
    us.locator("button.option", has_text="East beaches").click()
    prompt(us, "movement phase: what next?")
    click_map(us, "g.counter.target[data-piece='1/23']")
    prompt(us, "Land 1/23 on which beach hex?")
    target = us.locator("polygon.hex.target").first.get_attribute("data-hex")
    click_map(us, f"polygon.hex[data-hex='{target}']")
    us.locator("#log li", has_text=str(target)).first.wait_for()
    japan.locator("#waiting", has_text="Waiting for US").wait_for()
    us.screenshot(path=str(shots / "bonins-two-us.png"))
    japan.screenshot(path=str(shots / "bonins-two-japan-waiting.png"))
    # the game master's knowledge, from the autosave the server wrote
    saved = json.loads((server["data"] / f"match-{created['id']}.json").read_text())
    match = replay(game("iwo_bonins"), saved["save"])
    hidden = secrets_of(match, "US")
    assert len(set(hidden.values())) > 20
    assert not find_leaks(hidden, "the US page", us.content())
    assert us_bodies and not find_leaks(hidden, "the answers to the US browser", "\n".join(us_bodies))
    # the US page never shows a face-down unit's name, and Japan sees its own units
    assert japan.locator("g.counter[data-piece]").count() > 20
    assert us.locator("g.counter.face-down").count() > 20
    for page in (us, japan):
        assert not page.errors, page.errors
        page.context.close()


def test_hot_seat_hides_the_board_between_sides(browser: Any, server: dict[str, Any], shots: Path) -> None:
    """Hot-seat at one browser: when the other side is to decide, the board is covered until
    its player asks for it, and then shows that side's view."""
    page = _page(browser)
    page.goto(server["base"] + "/")
    page.locator("body[data-ready]").wait_for()
    form = page.locator("form[data-game='skirmish']")
    form.locator("select[data-side='Red']").select_option("here")
    form.locator("input[name=seed]").fill("3")
    form.locator("button.start").click()
    page.wait_for_url("**/play/**")
    page.locator("#curtain-go", has_text="I am Blue").click()
    prompt(page, "Move which unit?")
    assert page.locator("g.counter.face-down").count() == 4  # Red's units, hidden from Blue
    for _ in range(6):
        if page.locator("#curtain").is_visible():
            break
        page.locator("#decision button.option").last.click()
        page.wait_for_timeout(300)
    assert page.locator("#curtain").is_visible()
    assert "Red to play" in (page.locator("#curtain-text").text_content() or "")
    page.screenshot(path=str(shots / "hotseat-curtain.png"))
    page.locator("#curtain-go").click()
    page.locator("#prompt", has_text="Red").wait_for()
    assert page.locator("g.counter[data-piece='R1']").count() == 1
    assert not page.errors, page.errors
    page.context.close()


def test_seat_links_are_handed_out(browser: Any, server: dict[str, Any]) -> None:
    """A side given to a seat link: the starting player's page lists the link, and the link
    opens that side's seat in another browser; with every person elsewhere, the home page
    lists the links."""
    page = _page(browser)
    page.goto(server["base"] + "/")
    page.locator("body[data-ready]").wait_for()
    form = page.locator("form[data-game='skirmish']")
    form.locator("select[data-side='Red']").select_option("link")
    form.locator("button.start").click()
    page.wait_for_url("**/play/**")
    link = page.locator("#links a")
    link.wait_for()
    assert page.locator("#links b").text_content() == "Red"
    red = _page(browser)
    red.goto(link.get_attribute("href") or "")
    red.locator("#waiting", has_text="Waiting for Blue").wait_for()
    assert red.locator("#links a").count() == 0  # a linked seat never sees the other seats' links
    page.goto(server["base"] + "/")
    page.locator("body[data-ready]").wait_for()
    form = page.locator("form[data-game='skirmish']")
    form.locator("select[data-side='Blue']").select_option("link")
    form.locator("select[data-side='Red']").select_option("link")
    form.locator("button.start").click()
    page.locator("#created a.seat-url").nth(1).wait_for()
    assert page.locator("#created a.seat-url").count() == 2
    for p in (page, red):
        assert not p.errors, p.errors
        p.context.close()
