"""Fitting an evaluation's weights to the bots' results (``tools/fit_evaluation.py``): the
least-squares fit it makes, and its command line on Iwo Jima 1945 (7.0's margin)."""

from __future__ import annotations

import random

import pytest

from tools.fit_evaluation import least_squares, main


def test_least_squares_finds_the_weights_a_target_was_made_of() -> None:
    """A target made exactly of known weights over random features gives them back."""
    rng = random.Random(3)
    rows = [[rng.uniform(-5, 5), rng.uniform(0, 30), 1.0] for _ in range(50)]
    target = [0.8 * a + 0.05 * b - 7.5 for a, b, _ in rows]
    assert least_squares(rows, target) == pytest.approx([0.8, 0.05, -7.5])


def test_the_fit_prints_a_weight_for_every_feature_and_the_scale(
        capsys: pytest.CaptureFixture[str]) -> None:
    """7.0: the final margin over 0.5 fitted on the features of iwo_1945's ai.yaml, read at
    the start of each USMC turn of a few heuristic games."""
    code = main(["iwo_1945", "--side", "USMC", "--kind", "usmc_turn", "--target", "margin",
                 "--threshold", "0.5", "--seeds", "1001-1006"])
    out = capsys.readouterr().out.splitlines()
    assert code == 0 and out[0].endswith("of 6 games; target margin less 0.5")
    assert [line.split(":")[0].strip() for line in out[1:-1]] == [
        "margin", "cohesion", "japanese_cards", "usmc_hand", "offset"]
    assert out[-1].startswith("residual sd ") and "; scale " in out[-1]


@pytest.mark.parametrize(("args", "said"), [
    (["iwo_1945", "--side", "USMC", "--target", "nothing"], "no score field 'nothing'"),
    (["iwo_1945", "--side", "Nobody", "--target", "margin"], "no decision of the side"),
    (["no_such_game", "--side", "USMC", "--target", "margin"], "no_such_game"),
])
def test_bad_arguments_are_one_line(args: list[str], said: str,
                                    capsys: pytest.CaptureFixture[str]) -> None:
    """A score field the game's summary lacks, a side that never decides, a game that is
    not there: one line on stderr, exit 2."""
    code = main([*args, "--seeds", "1-1"])
    err = capsys.readouterr().err
    assert code == 2 and said in err and len(err.strip().splitlines()) == 1, err


def test_linearly_dependent_features_are_one_line() -> None:
    """A fit whose features repeat one another has no single answer: a ValueError that
    says so (main prints it as one line)."""
    with pytest.raises(ValueError, match="linearly dependent"):
        least_squares([[1.0, 2.0], [2.0, 4.0], [3.0, 6.0]], [1.0, 2.0, 3.0])
