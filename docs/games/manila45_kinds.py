"""Which kinds of move and attack the Manila '45 bots use, game by game (docs/games/manila45.md).

Run: python docs/games/manila45_kinds.py FIRST_SEED GAMES OUT.jsonl [SIDE=AGENT ...]

Plays GAMES games from FIRST_SEED exactly as ``tabletop simulate manila45`` does (the same
agents, seeds and options: the rows' ``state_hash`` match its rows), and writes one JSON line
a game: seed, winner, turns, decisions, state_hash, the count of each kind of move and attack
used (read from the game's log), and each side's decisions and CPU seconds spent choosing.
``python docs/games/manila45_kinds.py --summary BEFORE.jsonl AFTER.jsonl`` prints the share of
games using each kind and the paired win rates with their 95% intervals.
"""

from __future__ import annotations

import json
import sys
import time
from collections import Counter
from typing import Any

KINDS = (
    "us_entry", "us_move", "us_pontoon", "us_amtrac_river", "us_coastal", "us_replacement",
    "us_defensive_fire", "us_direct_fire", "us_indirect_fire", "us_air", "us_close_assault_advance",
    "us_fga", "us_bridge_demolition", "us_structure_demolition",
    "jp_move", "jp_counterattack_move", "jp_counterattack_fire", "jp_defensive_fire",
    "jp_direct_fire", "jp_indirect_fire", "jp_close_assault_advance", "jp_bridge_demolition",
    "jp_structure_demolition",
)


def kinds_used(match: Any) -> Counter[str]:
    """The kinds of move and attack in a finished match's log, counted."""
    from tabletop.games.manila45.components import components

    counters = components().counters
    hm = components().hexmap
    used: Counter[str] = Counter()
    jp_moved: dict[int, set[str]] = {}
    us_at: dict[str, str] = {}
    at: dict[str, str] = {}  # where each unit stands, as the log tells it
    for e in match.log:
        data = e.data or {}
        side_of = {"US": "us", "Japan": "jp"}
        if e.kind == "setup" and "unit" in data:
            at[str(data["unit"])] = str(data["hex"])
        if e.kind == "entry" and "unit" in data:
            used["us_entry"] += 1
            if "unit" in data and "to" in data:
                us_at[str(data["unit"])] = str(data["to"])
        if "unit" in data and "to" in data:
            at[str(data["unit"])] = str(data["to"])
        if e.kind == "move" and "unit" in data:
            uid = str(data["unit"])
            who = side_of[counters[uid].side]
            used[f"{who}_move"] += 1
            if who == "us":
                us_at[uid] = str(data["to"])
            else:
                jp_moved.setdefault(e.turn, set()).add(uid)
                if any(hm.id_distance(str(data["to"]), h) <= 1 for h in us_at.values()):
                    used["jp_counterattack_move"] += 1
        elif e.kind == "pontoon" and "moves off" not in e.text:
            used["us_pontoon"] += 1
        elif e.kind == "amtrac":
            used["us_coastal" if e.section == "8.10" and "no coastal" not in e.text
                 else "us_amtrac_river"] += 1
        elif e.kind == "replacement" and "unit" in data:
            used["us_replacement"] += 1
        elif e.kind == "advance":
            used[f"{side_of[counters[str(data['unit'])].side]}_close_assault_advance"] += 1
        elif e.kind == "fire":
            firers = [str(f) for f in data.get("firers", ())]
            if not firers:
                continue
            who = side_of[counters[firers[0]].side]
            target = str(data.get("target", ""))
            if e.section == "9.2":
                used[f"{who}_defensive_fire"] += 1
            elif e.section == "10.19":
                used[f"{who}_bridge_demolition"] += 1
            elif e.section == "10.21":
                used[f"{who}_structure_demolition"] += 1
            else:
                air = [f for f in firers if counters[f].has("air")]
                if air:
                    used["us_air"] += 1
                if any(counters[f].has("ifc") and not counters[f].has("air")
                       and hm.id_distance(at[f], target) > 1 for f in firers if f in at):
                    used[f"{who}_indirect_fire"] += 1
                if len(air) < len(firers):
                    used[f"{who}_direct_fire"] += 1
                if who == "us" and "flamethrower" in e.text:
                    used["us_fga"] += 1
                if who == "jp" and set(firers) & jp_moved.get(e.turn, set()):
                    used["jp_counterattack_fire"] += 1
        if e.kind == "eliminated" and "unit" in data:
            us_at.pop(str(data["unit"]), None)
            at.pop(str(data["unit"]), None)
    return used


def play(seed: int, agents: dict[str, str]) -> dict[str, Any]:
    """One game, played as a study plays it, with its row and the kinds used."""
    from tabletop.core.engine.match import Match
    from tabletop.core.engine.registry import load_game, make_agent

    game = load_game("tabletop.games.manila45:GAME")
    names = {side: agents.get(side, game.default_bot(side)) for side in game.info.players}
    bots = {side: make_agent(game, side, name, seed) for side, name in names.items()}
    match = Match(game, seed=seed, snapshots=False)
    spent: Counter[str] = Counter()
    asked: Counter[str] = Counter()
    while match.pending is not None:
        decision = match.pending
        side = decision.player
        began = time.process_time()
        answer = bots[side].choose(match.view(side), decision)
        spent[side] += time.process_time() - began
        asked[side] += 1
        match.decide(answer)
    result = match.result
    assert result is not None
    return {"seed": seed, "agents": names, "winner": result.winner, "turns": match.state.turn,
            "decisions": len(match.decisions), "state_hash": match.state_hash(),
            "kinds": dict(sorted(kinds_used(match).items())),
            "asked": dict(asked), "cpu": {k: round(v, 4) for k, v in spent.items()}}


def summary(before_file: str, after_file: str) -> None:
    """The share of games using each kind, and the paired win rates, before and after."""
    from tabletop.core.studies.stats import paired_difference, wilson

    def read(path: str) -> dict[int, dict[str, Any]]:
        with open(path, encoding="utf-8") as f:
            return {int(r["seed"]): r for r in map(json.loads, f)}

    before, after = read(before_file), read(after_file)
    seeds = sorted(set(before) & set(after))
    n = len(seeds)
    print(f"{n} paired seeds {seeds[0]}..{seeds[-1]}")
    print(f"{'kind':28} {'before':>8} {'after':>8}")
    for kind in KINDS:
        b = sum(1 for s in seeds if before[s]["kinds"].get(kind))
        a = sum(1 for s in seeds if after[s]["kinds"].get(kind))
        print(f"{kind:28} {100 * b / n:7.1f}% {100 * a / n:7.1f}%")
    for side in ("US", "Japan"):
        wb = [before[s]["winner"] == side for s in seeds]
        wa = [after[s]["winner"] == side for s in seeds]
        lo_b, hi_b = wilson(sum(wb), n)
        lo_a, hi_a = wilson(sum(wa), n)
        d = paired_difference(wb, wa)
        print(f"{side} wins: before {100 * sum(wb) / n:.1f}% ({100 * lo_b:.1f}-{100 * hi_b:.1f}), after "
              f"{100 * sum(wa) / n:.1f}% ({100 * lo_a:.1f}-{100 * hi_a:.1f}); after minus before {d}")
    for label, rows in (("before", before), ("after", after)):
        for side in ("US", "Japan"):
            cpu = sum(rows[s]["cpu"].get(side, 0.0) for s in seeds)
            asked = sum(rows[s]["asked"].get(side, 0) for s in seeds)
            print(f"{label} {side}: {asked / n:.0f} decisions a game, {1e6 * cpu / max(asked, 1):.0f} "
                  "us CPU a decision")


def main(argv: list[str]) -> None:
    """The command line (see the module's docstring)."""
    if argv[:1] == ["--summary"]:
        summary(argv[1], argv[2])
        return
    first, games, out = int(argv[0]), int(argv[1]), argv[2]
    agents = dict(a.split("=", 1) for a in argv[3:])
    with open(out, "a", encoding="utf-8") as f:
        for seed in range(first, first + games):
            f.write(json.dumps(play(seed, agents), sort_keys=True) + "\n")
            f.flush()


if __name__ == "__main__":
    main(sys.argv[1:])
