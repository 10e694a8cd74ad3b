"""bench/precision.py: a stratified sample of findings, and the table of a judged one."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
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


def listed_row(code: str, line: int, rule_findings: int, true: str, wanted: str, repo: str = "o/r", repo_findings: int = 0) -> str:
    fields = [repo, "c0ffee", "f.md", str(line), code, str(rule_findings), str(repo_findings or rule_findings), "m", true, wanted, ""]
    return "\t".join(fields)


def test_the_table_weights_each_rule_by_its_count_and_says_when_it_sampled(tmp_path: Path) -> None:
    judged = tmp_path / "j.tsv"
    rows = [listed_row("REF001", n, 300, "y" if n < 15 else "n", "n") for n in range(30)]
    rows += [listed_row("MEM001", n, 10, "y", "y") for n in range(10)]
    judged.write_text("\n".join(["\t".join(precision.LISTED_COLUMNS), *rows]) + "\n", encoding="utf-8")
    out = precision.table(judged)
    assert "| REF001 | 300 | 30 sampled | 50% (15) | 0% (0) |" in out
    assert "| MEM001 | 10 | all | 100% (10) | 100% (10) |" in out
    # 300 findings at 50% and 10 at 100%: (150 + 10) / 310, not the mean of the shares
    assert "| all | 310 | 51.6% | 3.2% |" in out
    assert "| REF | 300 | 50.0% | 0.0% |" in out


def test_a_sampled_rule_weights_each_repository_by_its_count(tmp_path: Path) -> None:
    # 28 findings drawn from a repository with 280 (all true) and 2 from one with 2
    # (both untrue): the rule is about 99% true, not 93%
    judged = tmp_path / "j.tsv"
    rows = [listed_row("GDN013", n, 282, "y", "y", "big/r", 280) for n in range(28)]
    rows += [listed_row("GDN013", n, 282, "n", "n", "small/r", 2) for n in range(2)]
    judged.write_text("\n".join(["\t".join(precision.LISTED_COLUMNS), *rows]) + "\n", encoding="utf-8")
    out = precision.table(judged)
    assert "| GDN013 | 282 | 30 sampled | 99% (28) | 99% (28) |" in out
    assert "| all | 282 | 99.3% | 99.3% |" in out


def test_several_judged_sets_make_one_table_each_rule_weighted_by_its_count_over_all(tmp_path: Path) -> None:
    # Set one: 300 REF001 (30 drawn, half true); set two: 10 REF001 (all judged, all
    # true) and 10 MEM001. Together REF001 has 310 findings, 150 + 10 of them true.
    one, two = tmp_path / "one.tsv", tmp_path / "two.tsv"
    header = "\t".join(precision.LISTED_COLUMNS)
    one.write_text("\n".join([header, *(listed_row("REF001", n, 300, "y" if n < 15 else "n", "n", "a/r") for n in range(30))]) + "\n")
    rows = [listed_row("REF001", n, 10, "y", "y", "b/r") for n in range(10)] + [
        listed_row("MEM001", n, 10, "y", "y", "b/r") for n in range(10)
    ]
    two.write_text("\n".join([header, *rows]) + "\n")
    out = precision.table(one, two)
    assert "| REF001 | 310 | 40 sampled | 52% (25) | 3% (10) |" in out
    assert "| REF | 310 | 51.6% | 3.2% |" in out
    assert "| all | 320 | 53.1% | 6.2% |" in out


def test_a_new_sample_keeps_the_verdicts_of_identical_findings(tmp_path: Path) -> None:
    old = tmp_path / "old.tsv"
    kept, changed = precision.Finding("o/r", "a.md", 3, "GDN013", "link  dead"), precision.Finding("o/r", "b.md", 4, "GDN013", "x")
    precision.write_listed_sample(old, [kept, changed], {"o/r": "c1"}, {("o/r", "GDN013"): 2}, {})
    lines = old.read_text(encoding="utf-8").splitlines()
    old.write_text("\n".join([lines[0], lines[1].rsplit("\t", 3)[0] + "\ty\tn\tnote", lines[2]]) + "\n", encoding="utf-8")
    new = tmp_path / "new.tsv"
    moved = changed._replace(line=5)
    reused = precision.write_listed_sample(new, [kept, moved], {"o/r": "c1"}, {("o/r", "GDN013"): 2}, precision.earlier_verdicts([old]))
    assert reused == 1
    rows = new.read_text(encoding="utf-8").splitlines()
    assert rows[1].endswith("\ty\tn\tnote") and rows[2].endswith("\t\t\t")
    # another commit is another tree: its findings wait for the judge again
    assert precision.write_listed_sample(new, [kept], {"o/r": "c2"}, {("o/r", "GDN013"): 1}, precision.earlier_verdicts([old])) == 0


def test_a_listed_repository_at_another_commit_is_refused(tmp_path: Path) -> None:
    repo = tmp_path / "r"
    repo.mkdir()
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@t", "-C", str(repo)]
    subprocess.run([*git, "init", "-q"], check=True)
    subprocess.run([*git, "commit", "-q", "--allow-empty", "-m", "one"], check=True)
    head = subprocess.run([*git, "rev-parse", "HEAD"], capture_output=True, text=True, check=True).stdout.strip()
    listing = tmp_path / "list.tsv"
    listing.write_text(f"repo\tcommit\tfolder\tkind\no/r\t{head}\tr\tstore\n", encoding="utf-8")
    assert precision.read_list(listing, tmp_path) == [precision.Listed("o/r", head, repo)]
    listing.write_text("repo\tcommit\tfolder\tkind\no/r\t" + "0" * 40 + "\tr\tstore\n", encoding="utf-8")
    with pytest.raises(SystemExit):
        precision.read_list(listing, tmp_path)
