"""The baseline: adopt memcheck on a repository with findings, fail only on new ones."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
from conftest import check_json, full_index, git, invoke, memory, run_cli, write
from hypothesis import given, settings
from hypothesis import strategies as st

from memcheck import baseline
from memcheck.problem import Problem

TOKEN = "ghp_" + "aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5"  # a GitHub token shape, not a real one


def _messy(repo: Path) -> None:
    write(repo, "AGENTS.md", "# Agents\n\nSee @docs/style.md and @docs/style.md again.\nThen @docs/naming.md.\n")
    write(repo, ".claude/memory/user_prefs.md", memory("prefs", "Prefers short answers", "user", extra="tpye: user\n"))


def test_write_then_check_against_the_baseline(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _messy(repo)
    assert run_cli(repo, "check").returncode == 1
    wrote = run_cli(repo, "check", "--write-baseline", ".memcheck-baseline.json")
    assert wrote.returncode == 0 and wrote.stdout == ""
    assert wrote.stderr == "memcheck: wrote 5 findings to .memcheck-baseline.json\n"
    data = json.loads((repo / ".memcheck-baseline.json").read_text(encoding="utf-8"))
    assert data["version"] == 1
    assert [(f["path"], f["code"], f["count"]) for f in data["findings"]] == [
        (".claude/memory/MEMORY.md", "IDX001", 1),
        (".claude/memory/user_prefs.md", "MEM010", 1),
        ("AGENTS.md", "GDN009", 1),  # docs/naming.md
        ("AGENTS.md", "GDN009", 2),  # docs/style.md, twice: counted
    ]
    clean = run_cli(repo, "check", "--baseline", ".memcheck-baseline.json")
    assert clean.returncode == 0, clean.stdout
    # Never without a word: the summary counts what the baseline accepted.
    assert clean.stdout == "No problems found in 1 guidance file and 1 store (1 memory); 5 accepted by the baseline.\n"
    assert (
        json.loads(run_cli(repo, "check", "--format", "json", "--baseline", ".memcheck-baseline.json").stdout)["summary"]["accepted"] == 5
    )
    # The config names it, for every run (the hooks too).
    write(repo, ".memcheck.yaml", "baseline: .memcheck-baseline.json\n")
    assert run_cli(repo, "check").returncode == 0
    assert invoke(repo, "check", monkeypatch=monkeypatch).exit_code == 0
    assert run_cli(repo, "fix", "--diff").returncode == 1  # fix still fixes what it can


def test_entries_of_mended_findings_are_told_on_a_whole_tree_only(repo: Path) -> None:
    # Left in, the entry of a mended finding would accept the same finding when it
    # comes back: a whole tree's run says how many there are and how to drop them.
    _messy(repo)
    write(repo, ".memcheck.yaml", "baseline: .memcheck-baseline.json\n")
    run_cli(repo, "check", "--write-baseline", ".memcheck-baseline.json")
    write(repo, ".claude/memory/user_prefs.md", memory("prefs", "Prefers short answers", "user"))  # MEM010 mended
    whole = run_cli(repo, "check")
    assert whole.returncode == 0, whole.stdout
    assert whole.stdout == (
        "No problems found in 1 guidance file and 1 store (1 memory); 4 accepted by the baseline; 1 entry of the baseline "
        "matches no finding now (mended since: `memcheck check --write-baseline .memcheck-baseline.json` drops it).\n"
    )
    assert run_cli(repo, "check", ".").stdout == whole.stdout  # the repository's folder is the whole tree
    assert json.loads(run_cli(repo, "check", "--format", "json").stdout)["summary"]["stale_baseline_entries"] == 1
    # Part of the tree, or rules left out: an entry may be about what was not checked.
    assert "matches no finding" not in run_cli(repo, "check", "AGENTS.md").stdout
    assert "matches no finding" not in run_cli(repo, "check", "--select", "GDN").stdout
    run_cli(repo, "check", "--write-baseline", ".memcheck-baseline.json")
    assert run_cli(repo, "check").stdout == "No problems found in 1 guidance file and 1 store (1 memory); 4 accepted by the baseline.\n"


def test_a_team_that_takes_up_another_agent_keeps_its_baseline(repo: Path) -> None:
    # GDN015 names the agents on each side of two files that differ, from the config's
    # `agents:`: one more agent there changes the message, never the finding.
    write(repo, "CLAUDE.md", "# Rules\n\nUse tabs.\n")
    write(repo, "AGENTS.md", "# Rules\n\nUse spaces.\n")
    write(repo, ".memcheck.yaml", "agents: [claude-code, codex]\n")
    assert "while Codex reads AGENTS.md" in run_cli(repo, "check").stdout
    run_cli(repo, "check", "--write-baseline", ".memcheck-baseline.json")
    write(repo, ".memcheck.yaml", "agents: [claude-code, codex, amp]\n")
    assert "while Codex and Amp read AGENTS.md" in run_cli(repo, "check").stdout
    write(repo, ".memcheck.yaml", "agents: [claude-code, codex, amp]\nbaseline: .memcheck-baseline.json\n")
    kept = run_cli(repo, "check")
    assert kept.returncode == 0 and kept.stdout == "No problems found in 2 guidance files; 1 accepted by the baseline.\n", kept.stdout
    # A baseline written before the lists were masked matches as well.
    data = json.loads((repo / ".memcheck-baseline.json").read_text(encoding="utf-8"))
    data["findings"][0]["message"] = data["findings"][0]["message"].replace("(agents) read AGENTS.md", "Codex reads AGENTS.md")
    (repo / ".memcheck-baseline.json").write_text(json.dumps(data), encoding="utf-8")
    assert run_cli(repo, "check").stdout == kept.stdout


def test_the_file_is_deterministic_and_ignores_moves(repo: Path) -> None:
    _messy(repo)
    run_cli(repo, "check", "--write-baseline", "a.json")
    first = (repo / "a.json").read_bytes()
    assert first == json.dumps(json.loads(first), indent=2, sort_keys=True, ensure_ascii=False).encode("utf-8") + b"\n"
    # Lines added above every finding: they all move, none is new.
    write(repo, "AGENTS.md", "# Agents\n\nIntro.\n\nMore intro.\n\nSee @docs/style.md and @docs/style.md again.\nThen @docs/naming.md.\n")
    write(repo, ".claude/memory/user_prefs.md", memory("prefs", "Prefers short answers", "user", extra="created: 2025-01-10\ntpye: user\n"))
    moved = run_cli(repo, "check", "--baseline", "a.json")
    assert (
        moved.returncode == 0
        and moved.stdout == "No problems found in 1 guidance file and 1 store (1 memory); 5 accepted by the baseline.\n"
    )
    run_cli(repo, "check", "--write-baseline", "b.json")
    assert (repo / "b.json").read_bytes() == first


def test_new_findings_and_extra_duplicates_are_reported(repo: Path) -> None:
    _messy(repo)
    run_cli(repo, "check", "--write-baseline", "base.json")
    write(
        repo,
        "AGENTS.md",
        "# Agents\n\nSee @docs/style.md and @docs/style.md again, @docs/style.md thrice.\nThen @docs/naming.md and @docs/new.md.\n",
    )
    found = check_json(repo, "--baseline", "base.json")
    assert [(p["line"], p["code"]) for p in found] == [(3, "GDN009"), (4, "GDN009")]
    assert "docs/style.md" in found[0]["message"] and "docs/new.md" in found[1]["message"]


def test_secrets_are_never_accepted(repo: Path) -> None:
    write(repo, "AGENTS.md", f"# Agents\n\ntoken: {TOKEN}\n")
    wrote = run_cli(repo, "check", "--write-baseline", "base.json")
    assert wrote.returncode == 0
    assert "1 secret finding left out" in wrote.stderr
    assert TOKEN not in (repo / "base.json").read_text(encoding="utf-8")
    proc = run_cli(repo, "check", "--baseline", "base.json")
    assert proc.returncode == 1 and "SEC002" in proc.stdout
    # Even written in by hand.
    data = {
        "version": 1,
        "findings": [
            {
                "path": "AGENTS.md",
                "code": "SEC002",
                "message": json.loads(run_cli(repo, "check", "--format", "json").stdout)["problems"][0]["message"],
                "count": 1,
            }
        ],
    }
    write(repo, "base.json", json.dumps(data))
    assert run_cli(repo, "check", "--baseline", "base.json").returncode == 1


@pytest.mark.parametrize(
    ("content", "message"),
    (
        (None, "baseline {path} does not exist; write it with `memcheck check --write-baseline {path}`"),
        ("not json", "baseline {path}: cannot read it"),
        ('{"version": 2, "findings": []}', "is not a memcheck baseline (version 1)"),
        ('{"version": 1, "findings": [{"path": "a", "code": "MEM010"}]}', "finding 1 needs a path, code and message"),
        ('{"version": 1, "findings": [{"path": "a", "code": "MEM010", "message": "m", "count": true}]}', "finding 1 needs"),
    ),
)
def test_a_bad_baseline_is_a_usage_error(repo: Path, content: str | None, message: str) -> None:
    _messy(repo)
    if content is not None:
        write(repo, "base.json", content)
    proc = run_cli(repo, "check", "--baseline", "base.json")
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.startswith("memcheck: error: ") and message.format(path=repo / "base.json") in proc.stderr


def test_the_hook_honours_the_config_baseline(repo: Path) -> None:
    _messy(repo)
    run_cli(repo, "check", "--write-baseline", ".memcheck-baseline.json")
    write(repo, ".memcheck.yaml", "baseline: .memcheck-baseline.json\n")
    git(repo, "add", "-A")
    assert run_cli(repo, "check", "--changed").returncode == 0
    write(repo, ".claude/memory/user_prefs.md", memory("prefs", "Prefers short answers", "user", extra="tpye: user\nnmae: prefs\n"))
    git(repo, "add", "-A")
    proc = run_cli(repo, "check", "--changed", "--fail-on", "warning")
    assert proc.returncode == 1 and "'nmae'" in proc.stdout and "'tpye'" not in proc.stdout


problems = st.lists(
    st.builds(
        Problem,
        path=st.sampled_from(["a.md", "b/c.md", "~/x.md"]),
        line=st.integers(1, 500),
        col=st.integers(1, 80),
        code=st.sampled_from(["MEM010", "IDX003", "GDN009", "SEC002"]),
        message=st.sampled_from(["key 'x'", "key 'y' on line 12", "note2.md is not listed", "is 25,000 bytes"]),
        severity=st.sampled_from(["error", "warning"]),
    ),
    max_size=40,
)


@given(problems, st.randoms())
@settings(max_examples=200, deadline=None)
@pytest.mark.slow  # a property test: seconds of examples
def test_render_is_order_free_and_load_counts_what_was_written(found: list[Problem], rnd: object) -> None:
    shuffled = list(found)
    rnd.shuffle(shuffled)  # type: ignore[attr-defined]
    text = baseline.render(found)
    assert text == baseline.render(shuffled)
    data = json.loads(text)
    counted: Counter[baseline.Key] = Counter()
    for entry in data["findings"]:
        counted[baseline.Key(entry["path"], entry["code"], entry["message"])] += entry["count"]
    assert counted == Counter(baseline.key(p) for p in found if not p.code.startswith("SEC"))
    moved = [p._replace(line=p.line + 7, message=p.message.replace("12", "19")) for p in found]
    assert baseline.render(moved) == text


@pytest.mark.parametrize(
    ("message", "masked"),
    (
        ("listed on line 12; keep one", "listed on line #; keep one"),
        (
            "has 215 lines, over the 200-line cap; agents never see lines 201-215",
            "has # lines, over the #-line cap; agents never see lines #-#",
        ),
        ("memory file note2.md is not listed", "memory file note2.md is not listed"),
        ("memory file 2fa.md and v1 notes", "memory file 2fa.md and v1 notes"),
        ("is 25,000 bytes", "is #,# bytes"),
    ),
)
def test_numbers_are_masked_names_kept(message: str, masked: str) -> None:
    assert baseline.key(Problem("a.md", 1, 1, "X", message, "error")).message == masked


def test_a_finding_about_another_file_is_new_though_only_numbers_differ(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write(repo, ".claude/memory/session-2025-01-10.md", memory("s", "d", "project"))
    write(repo, ".claude/memory/other.md", memory("other", "d", "project"))
    write(repo, ".claude/memory/MEMORY.md", "# Memory\n\n## Project\n- [other](other.md) - d\n")
    assert run_cli(repo, "check", "--write-baseline", "bl.json").returncode == 0
    (repo / ".claude/memory/session-2025-01-10.md").unlink()
    write(repo, ".claude/memory/session-2026-03-10.md", memory("s", "d", "project"))
    proc = run_cli(repo, "check", "--baseline", "bl.json")
    assert proc.returncode == 1, proc.stdout
    assert "IDX003 memory file session-2026-03-10.md is not listed" in proc.stdout
    result = invoke(repo, "check", "--baseline", "bl.json", monkeypatch=monkeypatch)
    assert result.exit_code == 1 and "session-2026-03-10.md" in result.output


@pytest.mark.parametrize("written", (".claude\\memory\\user_prefs.md", "./.claude/memory/user_prefs.md"))
def test_baseline_paths_are_normalised(repo: Path, written: str) -> None:
    _messy(repo)
    assert run_cli(repo, "check", "--write-baseline", "bl.json").returncode == 0
    data = json.loads((repo / "bl.json").read_text(encoding="utf-8"))
    for entry in data["findings"]:
        if entry["path"] == ".claude/memory/user_prefs.md":
            entry["path"] = written
    (repo / "bl.json").write_text(json.dumps(data), encoding="utf-8")
    proc = run_cli(repo, "check", "--baseline", "bl.json")
    assert (
        proc.returncode == 0 and proc.stdout == "No problems found in 1 guidance file and 1 store (1 memory); 5 accepted by the baseline.\n"
    ), proc.stdout


def test_a_file_name_that_is_not_utf8_is_recorded_in_sarif_and_baselines(repo: Path) -> None:
    # Found by an outside attack: both stopped with "internal error: UnicodeEncodeError"
    # and left the file they were writing empty.
    import os

    os.makedirs(repo / ".claude" / "memory")
    with open(os.fsencode(repo / ".claude" / "memory") + b"/bad\xff.md", "wb") as f:
        f.write(memory("a", "d", "user").encode())
    sarif = repo / "report.sarif"
    proc = run_cli(repo, "check", "--format", "sarif", "-o", str(sarif))
    assert proc.returncode == 1 and proc.stderr == "", proc.stderr
    (run,) = json.loads(sarif.read_text(encoding="utf-8"))["runs"]
    uris = {r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in run["results"]}
    assert ".claude/memory/bad%FF.md" in uris  # the file's own byte, percent-encoded
    proc = run_cli(repo, "check", "--write-baseline", "baseline.json")
    assert proc.returncode == 0, proc.stderr
    proc = run_cli(repo, "check", "--baseline", "baseline.json")
    assert proc.returncode == 0 and proc.stdout.startswith("No problems found in 1 store (1 memory); "), proc.stdout
    assert proc.stdout.endswith(" accepted by the baseline.\n")


def test_a_new_finding_beside_accepted_ones_says_both(repo: Path) -> None:
    _messy(repo)
    run_cli(repo, "check", "--write-baseline", ".memcheck-baseline.json")
    write(repo, "AGENTS.md", "# Agents\n\nSee @docs/style.md and @docs/style.md again.\nThen @docs/naming.md.\nAnd @docs/new.md.\n")
    proc = run_cli(repo, "check", "--baseline", ".memcheck-baseline.json")
    assert proc.returncode == 1
    assert (
        proc.stdout.splitlines()[-1]
        == "Found 1 problem (1 error, 0 warnings) in 1 guidance file and 1 store (1 memory); 5 accepted by the baseline."
    )
    # Kept between runs, the count is the same.
    assert run_cli(repo, "check", "--baseline", ".memcheck-baseline.json").stdout == proc.stdout


def test_the_memories_an_index_has_no_room_for_are_one_entry_holding_each(repo: Path) -> None:
    """The memories MEMORY.md has no room for are one finding: the baseline records it
    with each of them, accepts it while it names no other (one memory fewer, once made
    room for or deleted), and reports it again when one more is left out."""
    store = ".claude/memory"
    for rel, text in full_index(["a_plan", "b_plan", "c_plan"], store).items():
        write(repo, rel, text)
    assert run_cli(repo, "check", "--write-baseline", "base.json").returncode == 0
    (entry,) = [e for e in json.loads((repo / "base.json").read_text())["findings"] if e["code"] == "IDX003"]
    assert entry["files"] == [f"{store}/a_plan.md", f"{store}/b_plan.md", f"{store}/c_plan.md"] and entry["count"] == 1
    assert entry["message"].endswith("; left out") and "a_plan" not in entry["message"]  # the names are the files
    assert run_cli(repo, "check", "--baseline", "base.json").returncode == 0
    (repo / store / "c_plan.md").unlink()
    assert run_cli(repo, "check", "--baseline", "base.json").returncode == 0
    write(repo, f"{store}/d_plan.md", memory("d_plan", "about d_plan", "project"))
    found = [p for p in check_json(repo, "--baseline", "base.json") if p["code"] == "IDX003"]
    assert [sorted(p["files"]) for p in found] == [[f"{store}/a_plan.md", f"{store}/b_plan.md", f"{store}/d_plan.md"]]
    # The entry is the grown finding's, not one mended since.
    assert "mended" not in run_cli(repo, "check", "--baseline", "base.json").stdout
    assert found[0]["message"].endswith("left out: a_plan.md, b_plan.md, d_plan.md")


@pytest.mark.parametrize(
    "files",
    [pytest.param('"files": "a.md"', id="not-a-list"), pytest.param('"files": [1]', id="not-strings")],
)
def test_a_baseline_entry_whose_files_are_not_a_list_of_names_is_a_usage_error(repo: Path, files: str) -> None:
    _messy(repo)
    write(repo, "base.json", '{"version": 1, "findings": [{"path": "a", "code": "IDX003", "message": "m", "count": 1, ' + files + "}]}")
    proc = run_cli(repo, "check", "--baseline", "base.json")
    assert (
        proc.returncode == 2
        and "finding 1 needs a path, code and message (strings), a count of 1 or more, and, if it has files" in proc.stderr
    )
