"""The summary of a study: one JSON object with every statistic, and the same as a text table.

Each setting gets its results, each side's win rate (counts, shares, 95% Wilson intervals),
its scores (mean, standard deviation, median, quartiles) and its game length in turns and
decisions; with several settings, each one after the first is compared with the first, seed
by seed (:func:`tabletop.core.studies.stats.compare`). Text puts the settings side by side, one
column each. A study of one setting also keeps the fields ``simulate --json`` always had
(``results``, ``winners``, ``mean_turns``, ``mean_scores``, ``score_spread``).
"""

from __future__ import annotations

import statistics
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any

from ..engine.canonical import JSON
from ..engine.match import Game
from .stats import Sample, compare_pairs, numeric_scores, share, summarise
from .study import Row, StudyRun


def sides_of(game: Game, rows: Iterable[Row]) -> list[str]:
    """The sides whose win rates a summary shows: the game's players, then any other winner."""
    winners = sorted({str(r["winner"]) for r in rows if r.get("winner") is not None})
    return list(dict.fromkeys([*game.info.players, *winners]))


def study_summary(run: StudyRun, game: Game) -> dict[str, JSON]:
    """Every statistic of a study run, as JSON (no timings: the same whatever played it).

    The rows are read from the run's files a setting at a time, as they come; what is kept
    of them is counts (:class:`~.stats.Sample`), so a study of any size is summarised in
    the same memory."""
    study = run.study
    sides = sides_of(game, run.all_rows())
    settings: list[dict[str, Any]] = []
    for index, setting in enumerate(study.settings):
        settings.append({"setting": setting.label, "options": game.info.resolve_options(setting.options),
                         "agents": dict(setting.agents), **summarise(run.setting_rows(index), sides)})
    comparisons = [
        {"baseline": study.settings[0].label, "setting": setting.label,
         **compare_pairs(_by_seed(run.setting_rows(0), run.setting_rows(index)), sides)}
        for index, setting in enumerate(study.settings) if index > 0]
    out: dict[str, JSON] = {
        "game": game.info.id, "version": game.info.version,
        "scenario": game.info.scenario(study.scenario).id,
        "games": run.games, "planned": study.planned, "interrupted": run.interrupted,
        "seeds": [study.first_seed, study.first_seed + study.count - 1],
        "sides": sides, "settings": settings, "comparisons": comparisons,
    }
    if len(study.settings) == 1:
        out["options"] = game.info.resolve_options(study.settings[0].options)
        out.update(_legacy(lambda: run.setting_rows(0)))
    return out


def _by_seed(first: Iterator[Row], second: Iterator[Row]) -> Iterator[tuple[Row, Row]]:
    """The pairs of rows of the same seed of two settings, each given in seed order (as a
    study keeps them), in that order."""
    a = next(first, None)
    for b in second:
        while a is not None and int(a["seed"]) < int(b["seed"]):
            a = next(first, None)
        if a is not None and int(a["seed"]) == int(b["seed"]):
            yield a, b


def _legacy(rows: Callable[[], Iterator[Row]]) -> dict[str, JSON]:
    """The fields of a one-setting summary that ``simulate --json`` gave before sweeps; the
    rows are read again for the sums (added in the rows' order, as they always were)."""
    levels: Counter[str] = Counter()
    winners: Counter[str] = Counter()
    values: dict[str, Sample] = {}
    for r in rows():
        levels[str(r["result"])] += 1
        winners[str(r["winner"]) if r["winner"] is not None else "draw"] += 1
        for key, value in numeric_scores(r).items():
            values.setdefault(key, Sample()).add(value)
    n = sum(levels.values())
    if not n:
        return {"results": {}, "winners": {}, "mean_turns": None, "mean_scores": {}, "score_spread": {}}
    spread: dict[str, JSON] = {}
    for k, v in sorted(values.items()):
        ordered = v.ordered()
        spread[k] = {"n": v.n, "sd": round(statistics.pstdev(ordered), 3), "min": ordered[0],
                     "max": ordered[-1]}
    return {
        "results": dict(levels.most_common()), "winners": dict(winners.most_common()),
        "mean_turns": round(sum(float(r["turns"]) for r in rows()) / n, 3),
        # each score over the games whose result gives it (a draw may give none)
        "mean_scores": {k: round(sum(numeric_scores(r)[k] for r in rows() if k in numeric_scores(r))
                                 / v.n, 3) for k, v in sorted(values.items())},
        "score_spread": spread,
    }


# ----------------------------------------------------------------------------- text

def _pct(entry: dict[str, Any]) -> str:
    low, high = entry["ci95"]
    return f"{100 * entry['share']:.1f}% ({100 * low:.1f}–{100 * high:.1f})"


def _num(value: float) -> str:
    if float(value).is_integer():
        return str(int(value))
    return f"{value:.2f}" if abs(value) < 1000 else f"{value:.0f}"


def _spread(d: dict[str, Any]) -> tuple[str, str]:
    if not d.get("n"):
        return "—", "—"
    return (f"{_num(d['mean'])} (sd {_num(d['sd'])})",
            f"{_num(d['median'])} [{_num(d['q1'])}, {_num(d['q3'])}]")


def _signed(d: dict[str, Any], scale: float, digits: int) -> str:
    if not d.get("pairs") or d.get("ci95") is None:
        return "—"
    low, high = d["ci95"]
    mark = " *" if d["excludes_zero"] else "  "
    return (f"{scale * d['difference']:+.{digits}f} "
            f"({scale * low:+.{digits}f} to {scale * high:+.{digits}f}){mark}")


def _table(lines: Sequence[Sequence[str]]) -> list[str]:
    widths = [max(len(line[i]) for line in lines) for i in range(len(lines[0]))]
    out = []
    for line in lines:
        cells = [line[0].ljust(widths[0])] + [c.rjust(w) for c, w in zip(line[1:], widths[1:], strict=True)]
        out.append("  " + "  ".join(cells).rstrip())
    return out


def format_summary(summary: dict[str, Any]) -> str:
    """The summary as text: the settings side by side, then the paired differences."""
    settings: list[dict[str, Any]] = summary["settings"]
    first, last = summary["seeds"]
    head = (f"{summary['games']} games of {summary['game']} ({summary['scenario']}), seeds {first}..{last}"
            if len(settings) == 1 else
            f"{summary['games']} games of {summary['game']} ({summary['scenario']}), seeds {first}..{last} "
            f"under each of {len(settings)} settings")
    lines = [head]
    if summary["interrupted"]:
        lines.append(f"  stopped early: {summary['games']} of {summary['planned']} games played")
    grid: list[list[str]] = [["", *(s["setting"] for s in settings)]]
    grid.append(["games", *(str(s["games"]) for s in settings)])
    for side in dict.fromkeys(side for s in settings for side in s.get("agents", {})):
        grid.append([f"{side} played by", *(str(s.get("agents", {}).get(side, "—")) for s in settings)])
    levels = list(dict.fromkeys(level for s in settings for level in s.get("results", {})))
    for level in levels:
        grid.append([level, *(_pct(s["results"].get(level, share(0, s["games"]))) if s["games"] else "—"
                              for s in settings)])
    for side in summary["sides"]:
        grid.append([f"{side} wins", *(_pct(s["win_rate"][side]) if s["games"] else "—" for s in settings)])
    if any(s["games"] and s["draws"]["count"] for s in settings):
        grid.append(["draws", *(_pct(s["draws"]) if s["games"] else "—" for s in settings)])
    for what in ("turns", "decisions"):
        grid.append([f"{what}: mean", *(_spread(s.get(what, {}))[0] for s in settings)])
        grid.append([f"{what}: median [q1, q3]", *(_spread(s.get(what, {}))[1] for s in settings)])
    keys = list(dict.fromkeys(k for s in settings for k in s.get("scores", {})))
    for key in keys:
        cells = [_spread(s["scores"].get(key, {})) if s["games"] else ("—", "—") for s in settings]
        grid.append([f"{key}: mean", *(c[0] for c in cells)])
        grid.append([f"{key}: median [q1, q3]", *(c[1] for c in cells)])
        counts = [s["scores"].get(key, {}).get("n", 0) for s in settings]
        if any(n != s["games"] for n, s in zip(counts, settings, strict=True)):
            grid.append([f"{key}: games that give it", *(str(n) for n in counts)])
    lines += _table(grid)
    comparisons: list[dict[str, Any]] = summary["comparisons"]
    if comparisons:
        lines.append("")
        lines.append(f"Paired by seed, each setting minus {comparisons[0]['baseline']} "
                     "(win rates in points, 95% interval; * the interval excludes zero):")
        diff: list[list[str]] = [["", *(c["setting"] for c in comparisons)]]
        diff.append(["pairs", *(str(c["pairs"]) for c in comparisons)])
        for side in summary["sides"]:
            diff.append([f"{side} win rate", *(_signed(c["win_rate"][side], 100, 1) for c in comparisons)])
        for key in list(dict.fromkeys(k for c in comparisons for k in c["scores"])):
            diff.append([f"{key}", *(_signed(c["scores"].get(key, {}), 1, 2) for c in comparisons)])
        lines += _table(diff)
    lines.append("")
    lines.append("Shares with 95% Wilson intervals; sd is the sample standard deviation.")
    return "\n".join(lines)
