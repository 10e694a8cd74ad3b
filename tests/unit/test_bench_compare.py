"""bench/compare.py's arithmetic and its table, on made-up figures (nothing is timed here)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from conftest import REPO_ROOT

sys.path.insert(0, str(REPO_ROOT / "bench"))
import compare  # noqa: E402  (a script folder, not a package)
import generate  # noqa: E402
from timing import Measure, pair_diff, pair_ratio  # noqa: E402


def m(walls: list[float], cpus: list[float] | None = None, rss: float = 10.0, code: int = 0) -> Measure:
    return Measure(tuple(walls), tuple(cpus or walls), tuple(rss for _ in walls), code)


def test_ratios_are_taken_round_by_round() -> None:
    # A machine that slows down in the last round: the rounds' ratios are 2, 4 and 2,
    # while the medians' ratio (4 / 1) would say 4.
    a, b = m([2, 4, 40]), m([1, 1, 20])
    assert pair_ratio(a, b, "wall") == 2
    assert pair_diff(a, b, "wall") == 3  # 1, 3, 20


def test_the_hooks_together_are_added_round_by_round() -> None:
    total = compare._summed([m([1, 2], rss=5), m([10, 20], rss=7, code=1)])
    assert total.walls == (11, 22) and total.rss == 7 and total.code == 1


def table_of(measures: dict[str, Measure], goals: list[compare.Goal]) -> str:
    return compare.goals_table(compare.Results(measures=measures, goals=goals))


def test_table_says_met_or_not_met_for_each_kind_of_target() -> None:
    measures = {"a": m([0.1, 0.1, 0.1], rss=50), "b": m([0.2, 0.2, 0.2], rss=40), "slow": m([0.5, 0.5, 0.5])}
    table = table_of(
        measures,
        [
            compare.Goal("ratio met", "a", "b", "wall", 1.0),
            compare.Goal("ratio not met", "slow", "b", "wall", 1.0),
            compare.Goal("peak not met", "a", "b", "rss", 1.0),
            compare.Goal("absolute met", "a", None, "wall", 0.15, "abs"),
            compare.Goal("absolute not met", "slow", None, "wall", 0.15, "abs"),
            compare.Goal("difference not met", "slow", "a", "wall", 0.3, "diff"),
            compare.Goal("never measured", "missing", "a", "wall", 1.0),
        ],
    )
    rows = {line.split(" | ")[0][2:]: line for line in table.splitlines()[2:]}
    assert set(rows) == {"ratio met", "ratio not met", "peak not met", "absolute met", "absolute not met", "difference not met"}
    assert rows["ratio met"].endswith("| 0.50× | 0.50× | wall ≤ 1× | met |")
    assert rows["ratio not met"].endswith("| wall ≤ 1× | **not met** |")
    assert "| 50 MiB peak | 40 MiB peak |" in rows["peak not met"] and rows["peak not met"].endswith("| peak ≤ 1× (1.25×) | **not met** |")
    assert rows["absolute met"].endswith("| wall ≤ 0.15 s | met |")
    assert rows["absolute not met"].endswith("| wall ≤ 0.15 s | **not met** |")
    assert rows["difference not met"].endswith("| wall ≤ +0.3 s (+0.40 s) | **not met** |")


def test_the_verdict_reads_the_figure_as_printed() -> None:
    measures = {"a": m([1.0], rss=45.02), "b": m([1.0], rss=45.0), "c": m([1.0], rss=45.5)}
    table = table_of(measures, [compare.Goal("same peak", "a", "b", "rss", 1.0), compare.Goal("higher peak", "c", "b", "rss", 1.0)])
    assert table.splitlines()[2].endswith("| peak ≤ 1× (1.00×) | met |")
    assert table.splitlines()[3].endswith("| peak ≤ 1× (1.01×) | **not met** |")


def test_a_time_is_judged_to_the_millisecond_it_is_printed_in() -> None:
    measures = {"at": m([0.300]), "over": m([0.304])}
    table = table_of(
        measures,
        [compare.Goal("at the target", "at", None, "wall", 0.3, "abs"), compare.Goal("just over", "over", None, "wall", 0.3, "abs")],
    )
    assert table.splitlines()[2].endswith("| wall ≤ 0.3 s | met |")
    assert table.splitlines()[3].endswith("| wall ≤ 0.3 s | **not met** |")


def test_a_command_that_crashed_is_named_in_its_row() -> None:
    table = table_of({"a": m([0.1], code=2), "b": m([0.2])}, [compare.Goal("crashed", "a", "b", "wall", 1.0)])
    assert table.splitlines()[-1].endswith("| met (exit 2, 0) |")


def test_broken_frontmatter_rows_wait_for_the_shape(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(generate, "SIZES", {k: v for k, v in generate.SIZES.items() if k != "M-broken"})
    ctx = compare.Context(tmp_path, 1, sys.executable, compare.Side("new", ["memcheck"]), None, None)
    res = compare.Results()
    compare.group_broken(ctx, res)
    assert res.notes == ["generate.py has no M-broken shape yet: the broken-frontmatter rows are skipped."]
    assert not res.measures and not list(tmp_path.iterdir())
