"""bench/precision.py: a stratified sample of findings, and the table of a judged one."""

from __future__ import annotations

from pathlib import Path

from conftest import REPO_ROOT, load_script

precision = load_script(REPO_ROOT / "bench" / "precision.py")


def finding(repo: str, code: str, n: int) -> object:
    return precision.Finding(repo, f"f{n}.md", n, code, "m")


def test_a_rule_that_fires_often_in_one_repository_does_not_crowd_out_the_others() -> None:
    found = [finding("big", "MEM001", n) for n in range(100)] + [
        finding("a", "MEM001", 1),
        finding("b", "MEM001", 2),
        finding("a", "IDX002", 3),
    ]
    picked = precision.stratified(found, 3, seed=0)
    mem = [p for p in picked if p.code == "MEM001"]
    assert len(mem) == 3 and {p.repo for p in mem} == {"big", "a", "b"}
    assert [p.code for p in picked].count("IDX002") == 1
    assert picked == precision.stratified(list(reversed(found)), 3, seed=0)  # the same sample, whatever the order


def test_the_table_counts_true_and_wanted_per_family(tmp_path: Path) -> None:
    judged = tmp_path / "j.tsv"
    precision.write_sample(
        judged, [finding("a", "MEM001", 1), finding("a", "MEM002", 2), finding("b", "IDX001", 3), finding("b", "GDN001", 4)]
    )
    rows = judged.read_text(encoding="utf-8").splitlines()
    verdicts = ["y\ty", "n\tn", "y\tn", ""]
    judged.write_text(
        "\n".join([rows[0]] + [r.rsplit("\t", 3)[0] + ("\t" + v if v else "\t\t") + "\t" for r, v in zip(rows[1:], verdicts)]) + "\n",
        encoding="utf-8",
    )
    out = precision.table(judged)
    assert "| MEM | 2 | 2 | 50% (1) | 50% (1) |" in out
    assert "| IDX | 1 | 1 | 100% (1) | 0% (0) |" in out
    assert "| GDN | 1 | 0 | - | - |" in out
    assert "| all | 4 | 3 | 67% (2) | 33% (1) |" in out
