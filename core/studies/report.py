"""The report of a study: a self-contained HTML page of tables and plots drawn from its rows.

``tabletop report ROWS -o report.html`` reads the rows ``simulate --rows`` wrote (JSON Lines,
Parquet or CSV), groups them by setting in the order they appear, computes the same statistics
as ``simulate`` (:mod:`tabletop.core.studies.stats`) and draws four plots with matplotlib: the
distribution of results by setting, each side's win rate with its 95% interval, the score
histograms and the game length. The plots are embedded in the page as PNG data, so the page
is one file a designer can open or send; ``--plots DIR`` also writes them as PNG or SVG files.
Figures are drawn on matplotlib's object API (no pyplot, no global state).
"""

from __future__ import annotations

import base64
import html
import io
import math
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..engine.canonical import dumps
from ..engine.errors import TabletopError
from ..engine.record import atomic_write_text
from .rows import INSTALL_STUDY, Row, read_rows
from .stats import compare, numeric_scores, share, summarise

if TYPE_CHECKING:
    from matplotlib.figure import Figure

PLOTS = ("results", "win_rate", "scores", "length")
"""The plots of a report, in page order (also the names of their files)."""

CAPTIONS = {
    "results": "Distribution of results by setting (share of games).",
    "win_rate": "Each side's win rate by setting, with its 95% Wilson interval.",
    "scores": "Score histograms by setting.",
    "length": "Game length by setting: turns and decisions.",
}


def group_rows(rows: Sequence[Row]) -> dict[str, list[Row]]:
    """Rows by setting label, settings in the order they first appear, games in seed order."""
    groups: dict[str, list[Row]] = {}
    for row in rows:
        groups.setdefault(str(row.get("setting", "defaults")), []).append(row)
    for group in groups.values():
        group.sort(key=lambda r: int(r["seed"]))
    return groups


def sides_in(rows: Sequence[Row]) -> list[str]:
    """The sides of the games: those given an agent, then any other winner."""
    sides: dict[str, None] = {}
    for row in rows:
        sides.update(dict.fromkeys(row.get("agents") or {}))
    sides.update(dict.fromkeys(sorted({str(r["winner"]) for r in rows if r.get("winner") is not None})))
    return list(sides)


def write_report(rows_path: str, output: str, *, plots_dir: str | None = None,
                 plot_format: str = "png") -> list[str]:
    """Write the HTML report of a rows file (and the plot files); returns lines to print."""
    rows = read_rows(rows_path)
    if not rows:
        raise TabletopError(f"{rows_path}: no rows to report on")
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise TabletopError(f"the report draws with matplotlib: {INSTALL_STUDY}") from None
    groups = group_rows(rows)
    sides = sides_in(rows)
    figures = dict(draw_plots(groups, sides))
    written = []
    if plots_dir:
        folder = Path(plots_dir)
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise TabletopError(f"--plots {plots_dir}: cannot make the folder "
                                f"({exc.strerror or exc})") from None
        for name, figure in figures.items():
            target = folder / f"{name}.{plot_format}"
            figure.savefig(target, format=plot_format, metadata=_metadata(plot_format))
            written.append(f"wrote {target}")
    page = render_html(rows_path, rows, groups, sides, {n: _png(f) for n, f in figures.items()})
    atomic_write_text(output, page)
    return [*written, f"wrote {output} ({len(rows)} games, {len(groups)} settings)"]


def _metadata(fmt: str) -> dict[str, Any]:
    """File metadata without dates, so the same rows give the same files."""
    return {"Date": None} if fmt == "svg" else {}


def _png(figure: Figure) -> str:
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=100)
    return base64.b64encode(buffer.getvalue()).decode("ascii")


# ----------------------------------------------------------------------------- plots

def _figure(width: float, height: float) -> Figure:
    from matplotlib.figure import Figure

    return Figure(figsize=(width, height), layout="constrained")


def draw_plots(groups: dict[str, list[Row]], sides: Sequence[str]) -> Iterator[tuple[str, Figure]]:
    """The report's figures, by name (see :data:`PLOTS`)."""
    labels = list(groups)
    stats = {label: summarise(rows, sides) for label, rows in groups.items()}
    yield "results", _plot_results(labels, stats)
    yield "win_rate", _plot_win_rates(labels, stats, sides)
    yield "scores", _plot_scores(groups)
    yield "length", _plot_length(groups)


def _plot_results(labels: list[str], stats: dict[str, dict[str, Any]]) -> Figure:
    levels = list(dict.fromkeys(level for s in stats.values() for level in s["results"]))
    figure = _figure(8, 1.2 + 0.45 * len(labels))
    ax = figure.add_subplot()
    left = [0.0] * len(labels)
    colours = _colours(len(levels))
    for level, colour in zip(levels, colours, strict=True):
        shares = [stats[label]["results"].get(level, {}).get("share", 0.0) for label in labels]
        ax.barh(labels, shares, left=left, color=colour, label=level, edgecolor="white")
        for i, value in enumerate(shares):
            if value >= 0.06:
                ax.text(left[i] + value / 2, i, f"{100 * value:.0f}%", ha="center", va="center", fontsize=8)
        left = [a + b for a, b in zip(left, shares, strict=True)]
    ax.set_xlim(0, 1)
    ax.invert_yaxis()
    ax.set_xlabel("share of games")
    ax.set_title("Results by setting")
    figure.legend(loc="outside lower center", ncol=min(4, len(levels)), fontsize=8, frameon=False)
    return figure


def _plot_win_rates(labels: list[str], stats: dict[str, dict[str, Any]], sides: Sequence[str]) -> Figure:
    figure = _figure(8, 3.6)
    ax = figure.add_subplot()
    width = 0.8 / max(1, len(sides))
    for k, (side, colour) in enumerate(zip(sides, _colours(len(sides)), strict=True)):
        xs = [i - 0.4 + width * (k + 0.5) for i in range(len(labels))]
        rates = [stats[label]["win_rate"][side]["share"] for label in labels]
        intervals = [stats[label]["win_rate"][side]["ci95"] for label in labels]
        lows = [r - ci[0] for r, ci in zip(rates, intervals, strict=True)]
        highs = [ci[1] - r for r, ci in zip(rates, intervals, strict=True)]
        ax.errorbar(xs, rates, yerr=[lows, highs], fmt="o", capsize=4, color=colour, label=side)
    ax.set_xticks(range(len(labels)), labels, rotation=15 if len(labels) > 3 else 0, fontsize=8)
    ax.set_ylim(0, 1)
    ax.set_xlim(-0.6, len(labels) - 0.4)
    ax.set_ylabel("win rate")
    ax.axhline(0.5, color="grey", linewidth=0.5, linestyle=":")
    ax.set_title("Win rate by setting (95% interval)")
    ax.legend(fontsize=8)
    return figure


def _plot_scores(groups: dict[str, list[Row]]) -> Figure:
    keys = sorted({k for rows in groups.values() for r in rows for k in numeric_scores(r)})
    figure = _figure(8, max(2.5, 2.4 * ((len(keys) + 1) // 2)))
    if not keys:
        ax = figure.add_subplot()
        ax.text(0.5, 0.5, "the games give no numeric scores", ha="center", va="center")
        ax.set_axis_off()
        return figure
    columns = 1 if len(keys) == 1 else 2
    rows_n = (len(keys) + columns - 1) // columns
    colours = _colours(len(groups))
    for n, key in enumerate(keys):
        ax = figure.add_subplot(rows_n, columns, n + 1)
        series = [[v for r in rows for k, v in numeric_scores(r).items() if k == key]
                  for rows in groups.values()]
        _histograms(ax, series, colours, list(groups))
        ax.set_title(key, fontsize=9)
        ax.set_ylabel("games", fontsize=8)
        ax.tick_params(labelsize=7)
    _legend(figure, groups)
    return figure


def _plot_length(groups: dict[str, list[Row]]) -> Figure:
    figure = _figure(8, 3.2)
    colours = _colours(len(groups))
    for n, what in enumerate(("turns", "decisions")):
        ax = figure.add_subplot(1, 2, n + 1)
        series = [[float(r[what]) for r in rows if r.get(what) is not None] for rows in groups.values()]
        _histograms(ax, series, colours, list(groups))
        ax.set_title(f"game length in {what}", fontsize=9)
        ax.set_ylabel("games", fontsize=8)
        ax.tick_params(labelsize=7)
    _legend(figure, groups)
    return figure


def _legend(figure: Figure, groups: dict[str, list[Row]]) -> None:
    """One legend of the settings under a figure of several panels (when there are settings)."""
    if len(groups) > 1:
        from matplotlib.lines import Line2D

        handles = [Line2D([], [], color=c, linewidth=1.4) for c in _colours(len(groups))]
        figure.legend(handles, list(groups), loc="outside lower center", ncol=min(4, len(groups)),
                      fontsize=8, frameon=False)


def _histograms(ax: Any, series: list[list[float]], colours: list[Any], labels: list[str]) -> None:
    """Step histograms of several settings' values on shared bins."""
    everything = [v for values in series for v in values]
    if not everything:
        return
    bins = _bins(everything)
    for values, colour, label in zip(series, colours, labels, strict=True):
        if values:
            ax.hist(values, bins=bins, histtype="step", color=colour, label=label, linewidth=1.4)


def _bins(values: Sequence[float]) -> list[float] | int:
    """Bins a whole number wide (or several) centred on whole numbers for whole-number data, at
    most 30 of them; else 30 even bins."""
    low, high = min(values), max(values)
    if all(float(v).is_integer() for v in values):
        step = max(1, math.ceil((high - low + 1) / 30))
        return [low - 0.5 + step * i for i in range(int((high - low) // step) + 2)]
    return 30


def _colours(n: int) -> list[Any]:
    from matplotlib import colormaps

    cmap = colormaps["tab10"]
    return [cmap(i % 10) for i in range(n)]


# ----------------------------------------------------------------------------- page

STYLE = """
body { font-family: system-ui, sans-serif; margin: 2em auto; max-width: 62em; color: #222; }
table { border-collapse: collapse; margin: 0.5em 0 1.5em; font-size: 0.9em; }
th, td { border-bottom: 1px solid #ddd; padding: 0.25em 0.7em; text-align: right; }
th:first-child, td:first-child { text-align: left; }
td.sig { font-weight: bold; }
figure { margin: 1em 0 2em; } figure img { max-width: 100%; }
figcaption, p.note { color: #555; font-size: 0.9em; }
code { background: #f4f4f4; padding: 0 0.2em; }
"""


def _e(value: object) -> str:
    return html.escape(str(value))


def _pct(entry: dict[str, Any]) -> str:
    low, high = entry["ci95"]
    return f"{100 * entry['share']:.1f}% <small>({100 * low:.1f}–{100 * high:.1f})</small>"


def _desc(d: dict[str, Any]) -> str:
    if not d.get("n"):
        return "—"
    return (f"{d['mean']:.2f} ± {d['sd']:.2f}<br><small>median {d['median']:g} "
            f"[{d['q1']:g}, {d['q3']:g}], {d['min']:g}–{d['max']:g}</small>")


def _table(head: Sequence[str], body: Sequence[Sequence[str]]) -> str:
    out = ["<table><thead><tr>" + "".join(f"<th>{h}</th>" for h in head) + "</tr></thead><tbody>"]
    for line in body:
        out.append("<tr>" + "".join(c if c.startswith("<td") else f"<td>{c}</td>" for c in line) + "</tr>")
    out.append("</tbody></table>")
    return "\n".join(out)


def _agents_of(rows: Sequence[Row]) -> dict[str, str]:
    """Which agent played each side in a setting's games (several, when its rows differ)."""
    found: dict[str, dict[str, None]] = {}
    for row in rows:
        for side, name in (row.get("agents") or {}).items():
            found.setdefault(side, {})[str(name)] = None
    return {side: " / ".join(names) for side, names in found.items()}


def render_html(source: str, rows: Sequence[Row], groups: dict[str, list[Row]], sides: Sequence[str],
                images: dict[str, str]) -> str:
    """The report page: the study, the settings side by side, paired differences, the plots."""
    labels = list(groups)
    stats = {label: summarise(g, sides) for label, g in groups.items()}
    first = rows[0]
    seeds = sorted({int(r["seed"]) for r in rows})
    games = {str(r.get("game", "?")) for r in rows}
    parts = [
        "<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
        f"<title>Balance study: {_e(', '.join(sorted(games)))}</title><style>{STYLE}</style></head><body>",
        f"<h1>Balance study: {_e(', '.join(sorted(games)))}</h1>",
        f"<p>{len(rows)} games from <code>{_e(Path(source).name)}</code>: "
        f"version {_e(first.get('version', '?'))}, "
        f"scenario {_e(first.get('scenario', '?'))}, seeds {seeds[0]}–{seeds[-1]} ({len(seeds)} distinct), "
        f"{len(labels)} setting{'s' if len(labels) != 1 else ''}.</p>",
        "<h2>Settings side by side</h2>",
    ]
    body: list[list[str]] = [["games", *(str(stats[x]["games"]) for x in labels)]]
    played = {x: _agents_of(groups[x]) for x in labels}
    body += [[f"{_e(side)} played by", *(_e(played[x].get(side, "—")) for x in labels)]
             for side in dict.fromkeys(side for x in labels for side in played[x])]
    levels = list(dict.fromkeys(level for s in stats.values() for level in s["results"]))
    body += [[_e(level), *(_pct(stats[x]["results"].get(level, share(0, stats[x]["games"]))) for x in labels)]
             for level in levels]
    body += [[f"{_e(side)} wins", *(_pct(stats[x]["win_rate"][side]) for x in labels)] for side in sides]
    if any(stats[x]["draws"]["count"] for x in labels):
        body.append(["draws", *(_pct(stats[x]["draws"]) for x in labels)])
    for what in ("turns", "decisions"):
        body.append([what, *(_desc(stats[x][what]) for x in labels)])
    keys = list(dict.fromkeys(k for s in stats.values() for k in s["scores"]))
    body += [[f"score {_e(k)}", *(_desc(stats[x]["scores"].get(k, {})) for x in labels)] for k in keys]
    parts.append(_table(["", *(_e(x) for x in labels)], body))
    parts.append('<p class="note">Shares with 95% Wilson intervals; scores as mean ± sample standard '
                 "deviation, median [quartiles], least–greatest.</p>")
    if len(labels) > 1:
        parts.append(f"<h2>Paired by seed, against {_e(labels[0])}</h2>")
        comparisons = {x: compare(groups[labels[0]], groups[x], sides) for x in labels[1:]}
        diff: list[list[str]] = [["pairs", *(str(comparisons[x]["pairs"]) for x in labels[1:])]]
        diff += [[f"{_e(side)} win rate", *(_signed(comparisons[x]["win_rate"][side], 100, 1)
                                            for x in labels[1:])] for side in sides]
        keys = list(dict.fromkeys(k for c in comparisons.values() for k in c["scores"]))
        diff += [[f"score {_e(k)}", *(_signed(comparisons[x]["scores"].get(k, {}), 1, 2) for x in labels[1:])]
                 for k in keys]
        parts.append(_table(["", *(_e(x) for x in labels[1:])], diff))
        parts.append('<p class="note">Each setting minus the first on the same seeds: win rates in '
                     "percentage points with Newcombe's interval for paired proportions, scores as the "
                     "mean paired difference with a normal interval; <b>bold</b>: the 95% interval "
                     "excludes zero.</p>")
    parts.append("<h2>Plots</h2>")
    for name in PLOTS:
        parts.append(f'<figure id="{name}"><img alt="{_e(CAPTIONS[name])}" '
                     f'src="data:image/png;base64,{images[name]}"><figcaption>{_e(CAPTIONS[name])}'
                     "</figcaption></figure>")
    opts = " ".join(f"--option {_e(k)}={_e(v if isinstance(v, str) else dumps(v))}"
                    for k, v in (first.get("options") or {}).items())
    agents = " ".join(f"--agent {_e(k)}={_e(v)}" for k, v in (first.get("agents") or {}).items())
    parts.append("<h2>Replaying a game</h2><p>Every row names its seed, options and agents; for example the "
                 f"first game: <code>tabletop play {_e(first.get('game', 'GAME'))} --auto "
                 f"--scenario {_e(first.get('scenario', ''))} --seed "
                 f"{_e(first['seed'])} {opts} {agents} --json</code> ends with state hash "
                 f"<code>{_e(str(first.get('state_hash', ''))[:16])}…</code>.</p>")
    parts.append("</body></html>")
    return "\n".join(parts) + "\n"


def _signed(d: dict[str, Any], scale: float, digits: int) -> str:
    if not d.get("pairs") or d.get("ci95") is None:
        return "—"
    low, high = d["ci95"]
    text = (f"{scale * d['difference']:+.{digits}f} <small>({scale * low:+.{digits}f} to "
            f"{scale * high:+.{digits}f})</small>")
    return f'<td class="sig">{text}</td>' if d["excludes_zero"] else text
