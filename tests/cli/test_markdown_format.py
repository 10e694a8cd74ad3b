"""`memcheck check --format markdown`: the page a CI job summary or a pull-request
comment shows (the Action's job summary is made from it). Nothing a file chooses
(its name, a quoted value) becomes markup there."""

from __future__ import annotations

import re
from pathlib import Path

from conftest import commit_all, memory, run_cli, store_with_unlisted, write

from memcheck.output import markdown
from memcheck.problem import Problem

UNLISTED = (
    "| 4 | IDX003 | error | memory file project\\_b\\.md is not listed in MEMORY\\.md\\; agents that load only the index never see it "
    "\\(run \\`memcheck fix\\`\\) |"
)


def test_check_prints_counts_findings_by_file_by_rule_and_the_index_caps(repo: Path) -> None:
    store_with_unlisted(repo)
    proc = run_cli(repo, "check", "--format", "markdown")
    assert proc.returncode == 1, proc.stdout + proc.stderr
    page = proc.stdout
    assert page.startswith("## memcheck\n\n**1 error, 1 warning** (1 fixable with `memcheck fix`); fail-on: error\n\n### Findings\n\n")
    assert "#### `.claude/memory/MEMORY.md`\n\n| Line | Rule | Severity | Message |\n| ---: | --- | --- | --- |\n" + UNLISTED + "\n" in page
    assert "| IDX003 | unlisted-memory | error | 1 |\n| MEM010 | unknown-key | warning | 1 |\n" in page
    caps = page.split("### Index caps\n\n", 1)[1]
    assert caps.startswith(
        "| Index | Lines | Bytes |\n| --- | --- | --- |\n| `.claude/memory/MEMORY.md` | `░░░░░░░░░░░░░░░░░░░░` 4 / 200 lines (2%) | "
    )
    assert page.endswith(" bytes (0%) |\n")


def test_new_since_names_the_base_and_the_older_findings_with_how_to_adopt_them(repo: Path) -> None:
    store_with_unlisted(repo)
    commit_all(repo)
    write(repo, ".claude/memory/project_c.md", memory("c", "About c", "project", extra="tpye: user\n"))
    proc = run_cli(repo, "check", "--format", "markdown", "--new-since", "HEAD")
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "**1 error, 1 warning** new since `HEAD` (1 fixable with `memcheck fix`); fail-on: error\n" in proc.stdout
    assert (
        "\n2 older findings (in files the change does not touch, or there before it) are not listed and do not fail: `--all` lists and judges them."
        in proc.stdout
    )
    assert "`memcheck check --write-baseline .memcheck-baseline.json`" in proc.stdout


def test_a_clean_tree_and_guard_say_so(repo: Path) -> None:
    write(repo, ".claude/memory/project_a.md", memory("a", "About a", "project"))
    write(repo, ".claude/memory/MEMORY.md", "# Memory\n\n## Project\n- [a](project_a.md) - About a\n")
    proc = run_cli(repo, "check", "--format", "markdown")
    assert proc.returncode == 0
    assert "### Findings\n\nNo findings.\n\n### Findings by rule\n\nNo findings.\n\n### Index caps\n\n| Index |" in proc.stdout
    write(repo, ".env", "KEY=x\n")
    guard = run_cli(repo, "guard", "--format", "markdown", ".env")
    assert guard.returncode == 1
    # guard's is the section that follows check's page: what fails, and the guarded paths
    assert guard.stdout.startswith("### Guarded paths\n\nThese fail the job; a secret is never let through")
    assert "| `.env` | GRD001 |" in guard.stdout and "### Index caps" not in guard.stdout  # guard measures no index


HOSTILE = "[approved](https://evil.example/x) <img src=x> *c* www.x.example\x1b|"


def test_text_from_the_files_is_never_markup() -> None:
    assert (
        markdown.cell(HOSTILE)
        == "\\[approved\\]\\(https\\:\\/\\/evil\\.example\\/x\\) \\<img src\\=x\\> \\*c\\* www\\.x\\.example\\\\u001b\\|"
    )
    assert markdown.code("a\x1bb|c") == "`a\\u001bb\\|c`"
    assert markdown.code("we`ird|x.md") == "``we`ird\\|x.md``"
    page = markdown.findings([Problem(HOSTILE, 1, 1, "GRD001", HOSTILE, "error")])
    outside_code = re.sub(r"(`+).*?\1", "", re.sub(r"\\.", "", "\n".join(page)))
    assert "](" not in outside_code and "<" not in outside_code and "https:" not in outside_code and "\x1b" not in outside_code


def test_the_list_stops_at_200_with_a_count_of_the_rest() -> None:
    problems = [Problem(f"m/{i:03}.md", 1, 1, "MEM010", "unknown key | x", "warning") for i in range(250)]
    lines = markdown.findings(problems)
    assert sum(line.startswith("| 1 | MEM010 |") for line in lines) == 200
    assert "unknown key \\| x" in lines[4]  # a pipe cannot break the table
    assert lines[-1] == "… and 50 more findings (every other format of `memcheck check` lists them all)."


def test_bar() -> None:
    assert [markdown.bar(v, c) for v, c in ((0, 200), (100, 200), (200, 200), (450, 200), (3, 0))] == [
        "░" * 20, "█" * 10 + "░" * 10, "█" * 20, "█" * 20, "█" * 20,
    ]  # fmt: skip
