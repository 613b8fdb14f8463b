"""Counter art (core/board/counters.py): each game's ``data/counter_art.yaml`` is read and
every piece of every game is drawn as a counter with a type symbol; a bad file is refused in
one line; status, the reduced band, the face-down back and the opened stack are drawn."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from tabletop.core.board.counters import (
    ART_FILE,
    SYMBOLS,
    CounterArt,
    guess_symbol,
    load_counter_art,
    symbol_svg,
)
from tabletop.core.board.render.svg import game_art, render_hexmap, render_match
from tabletop.core.engine.errors import DataError
from tabletop.core.engine.match import Match
from tabletop.core.engine.pieces import Piece
from tabletop.core.engine.registry import load_game

ROOT = Path(__file__).resolve().parents[2]
GAMES = ["iwo_bonins", "iwo_valor", "iwo_1945", "manila45", str(ROOT / "docs" / "example" / "skirmish")]
NS = {"s": "http://www.w3.org/2000/svg"}


@pytest.mark.parametrize("name", GAMES)
def test_every_game_declares_its_counter_art_and_every_piece_has_a_symbol(name: str) -> None:
    """Each game has its counter art file; every unit of its opening is drawn with a declared
    type (not a guess) and a side colour from the file, and its factors are printed."""
    game = load_game(name)
    folder = game.data_dir()
    assert folder is not None and (folder / ART_FILE).is_file()
    art = game_art(game)
    assert art is not DEFAULT and art.types and art.sides
    match = Match(game, seed=1)
    for piece in match.state.pieces:
        if not piece.side:
            continue
        assert art.unit_type(piece) in art.types or piece.kind in art.types, piece.id
        face = art.face(piece, game.piece_label(piece), "#000000")
        assert face.symbol in SYMBOLS and not face.marker
        assert face.fill == art.colours(piece, "#000000").fill != "#000000"


DEFAULT = CounterArt()


def test_a_bad_counter_art_file_is_refused_in_one_line(tmp_path: Path) -> None:
    """An unknown symbol or a colour that is not #rrggbb: one line naming the file and field."""
    (tmp_path / ART_FILE).write_text("types: {tank: spaceship}\nsides: {Blue: {fill: blue}}\n")
    with pytest.raises(DataError) as err:
        load_counter_art(tmp_path)
    message = str(err.value)
    assert "\n" not in message and ART_FILE in message
    assert "types.tank" in message and "sides.Blue.fill" in message
    assert load_counter_art(tmp_path / "nowhere") is load_counter_art(None)


def test_types_are_guessed_from_their_names_without_art() -> None:
    """A game without the file still gets NATO symbols from its kinds' names."""
    assert guess_symbol("tank") == "armour" and guess_symbol("heavy_mortar") == "mortar"
    assert guess_symbol("hq") == "hq" and guess_symbol("mg") == "machine_gun"
    assert guess_symbol("rifles") == "infantry"


@pytest.mark.parametrize("symbol", SYMBOLS)
def test_every_symbol_is_well_formed_svg(symbol: str) -> None:
    """Each symbol's markup parses as SVG."""
    inner = symbol_svg(symbol, 0, 0, 20, 12, "#000000", text="AB")
    ET.fromstring(f'<g xmlns="http://www.w3.org/2000/svg">{inner}</g>')


def _counters(svg: str) -> dict[str, ET.Element]:
    root = ET.fromstring(svg)
    return {g.get("data-piece") or "": g for g in root.iter("{http://www.w3.org/2000/svg}g")
            if "counter" in (g.get("class") or "").split()}


def test_status_reduced_and_symbol_are_drawn_on_the_counter() -> None:
    """Manila '45: a unit that moved shows its "M" marker; a reduced skirmish unit its band;
    every counter carries its type symbol."""
    game = load_game("manila45")
    match = Match(game, seed=1)
    unit = next(p for p in match.state.pieces if p.side == "US" and "moved" in p.attrs)
    with match.edit() as state:
        state.pieces[unit.id].attrs["moved"] = True
    counter = _counters(render_match(match))[unit.id]
    marks = [g for g in counter.iter() if (g.get("class") or "") == "status"]
    assert [g.get("data-status") for g in marks] == ["moved this turn"]
    assert counter.find("s:g[@class='symbol']", NS) is not None

    skirmish = load_game(GAMES[-1])
    match = Match(skirmish, seed=1)
    with match.edit() as state:
        state.pieces["B1"].steps = 1
        state.pieces["B1"].face = "back"
    counter = _counters(render_match(match))["B1"]
    assert counter.find("s:rect[@class='reduced']", NS) is not None


def test_face_down_units_show_the_games_back_and_stacks_open_as_a_fan() -> None:
    """As US, a Bonins Japanese unit is the "?" back in Japan's colour whatever its command,
    unnamed; a stack carries its depth and a fan of every counter in it, the face-down ones
    unnamed there too."""
    game = load_game("iwo_bonins")
    match = Match(game, seed=1, scenario="two_player")
    svg = render_match(match, hidden_from="US")
    root = ET.fromstring(svg)
    down = [g for g in root.iter() if "face-down" in (g.get("class") or "").split()]
    assert down and all(g.get("data-piece") is None for g in down)
    # the back is the side's colour: a formation's colour would tell which command it hides
    backs = {g.find("s:rect[@class='chit']", NS).get("fill") for g in down}  # type: ignore[union-attr]
    assert backs == {game_art(game).sides["Japan"].fill}
    stacks = [g for g in root.iter() if g.get("data-depth")]
    assert stacks  # the US bombardment markers (3.5), alike, stand as one stack of 11
    for stack in stacks:
        fan = stack.find("s:g[@class='fan']", NS)
        assert fan is not None
        items = [g for g in fan if "fan-item" in (g.get("class") or "")]
        assert len(items) == int(stack.get("data-depth") or 0)


def test_place_names_never_cover_a_counter_in_the_picture() -> None:
    """Bonins with a unit on every labelled hex: no map label's box meets a counter's square
    (the labels are moved clear of the counters)."""
    game = load_game("iwo_bonins")
    board = game.board(None)
    art = game_art(game)
    units = [Piece(f"u{k}", "marine", "US", name=f"{k}/23", location=lab.at, steps=2, max_steps=2,
                   values={"front": {"attack": 8, "defense": 4, "movement": 6}})
             for k, lab in enumerate(board.labels)]
    root = ET.fromstring(render_hexmap(board, units, art=art, piece_label=game.piece_label))
    chits = []
    for rect in root.iter("{http://www.w3.org/2000/svg}rect"):
        if rect.get("class") == "chit":
            x, y, w = (float(rect.get(k) or 0) for k in ("x", "y", "width"))
            chits.append((x, y, x + w, y + w))
    labels = [t for t in root.iter("{http://www.w3.org/2000/svg}text") if t.get("class") == "label"]
    assert labels and chits
    for t in labels:
        size, x, y = float(t.get("font-size") or 0), float(t.get("x") or 0), float(t.get("y") or 0)
        half = 0.62 * size * len(t.text or "") / 2
        box = (x - half, y - 0.8 * size, x + half, y + 0.2 * size)
        hit = [c for c in chits if box[0] < c[2] and c[0] < box[2] and box[1] < c[3] and c[1] < box[3]]
        assert not hit, (t.text, hit)


def test_piece_is_kept_unchanged_by_drawing() -> None:
    """Drawing reads pieces only: the art's face of a piece leaves it as it was."""
    piece = Piece("u1", "tank", "Blue", name="A/1", values={"front": {"attack": 6}})
    before = piece.to_json()
    CounterArt().face(piece, "A/1 6", "#3b6fb6")
    assert piece.to_json() == before


def test_validate_checks_the_counter_art_file(tmp_path: Path) -> None:
    """`tabletop validate` reads counter_art.yaml against its model: a good one is named ok,
    a bad one is refused naming the file and the field."""
    from tabletop.core.designer.validation import validate_file

    good = ROOT / "docs" / "example" / "skirmish" / "data" / ART_FILE
    assert validate_file(good, {}).endswith("ok (CounterArt)")
    bad = tmp_path / ART_FILE
    bad.write_text("back: {text: '????'}\n")
    with pytest.raises(DataError, match=r"counter_art\.yaml: back\.text"):
        validate_file(bad, {})
