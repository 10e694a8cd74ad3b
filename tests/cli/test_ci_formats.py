"""`--format gitlab` (GitLab Code Quality) and `--format junit` (Jenkins, Azure)."""

from __future__ import annotations

import io
import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from conftest import REPO_ROOT, git, invoke, memory, run_cli, write
from hypothesis import given, settings
from hypothesis import strategies as st

from memcheck.output import ReportContext, gitlab, junit
from memcheck.problem import Problem

# Written from GitLab's documentation of the report format (see tests/schemas/README.md).
GITLAB_SCHEMA = REPO_ROOT / "tests" / "schemas" / "gitlab-code-quality-report.json"


def _broken_store(root: Path) -> None:
    """A store whose index misses an entry (error) and carries a CRLF (warning)."""
    write(root, ".claude/memory/user_prefs.md", memory("prefs", "Prefers short answers", "user"))
    write(root, ".claude/memory/feedback_tests.md", memory("tests", "Run pytest first", "feedback"))
    write(root, ".claude/memory/MEMORY.md", "# Memory\r\n\r\n## User\r\n- [prefs](user_prefs.md) - Prefers short answers\r\n")


def _gitlab_errors(doc: object) -> list[str]:
    import jsonschema

    schema = json.loads(GITLAB_SCHEMA.read_text(encoding="utf-8"))
    validator = jsonschema.validators.validator_for(schema)(schema)
    return sorted(e.message for e in validator.iter_errors(doc))


def test_gitlab_validates_against_the_schema(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _broken_store(repo)
    result = invoke(repo, "check", "--format", "gitlab", monkeypatch=monkeypatch)
    assert result.exit_code == 1
    doc = json.loads(result.output)
    assert _gitlab_errors(doc) == []
    by_code = {issue["check_name"]: issue for issue in doc}
    assert by_code["IDX003"]["severity"] == "major" and by_code["IDX010"]["severity"] == "minor"
    assert by_code["IDX003"]["location"] == {"path": ".claude/memory/MEMORY.md", "lines": {"begin": 4}}
    assert by_code["IDX003"]["description"].startswith("IDX003: memory file feedback_tests.md is not listed in MEMORY.md")
    # Not vacuous: the schema rejects what GitLab does not read.
    doc[0]["severity"] = "error"
    del doc[1]["location"]["lines"]
    assert len(_gitlab_errors(doc)) == 2


def test_gitlab_clean_tree_is_an_empty_array(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write(repo, "AGENTS.md", "# Agents\n\nRun the tests.\n")
    result = invoke(repo, "check", "--format", "gitlab", monkeypatch=monkeypatch)
    assert (result.exit_code, json.loads(result.output)) == (0, [])


def test_gitlab_fingerprints_survive_a_move_and_tell_twins_apart(repo: Path) -> None:
    write(repo, "AGENTS.md", "# Agents\n\nSee @docs/a.md, @docs/a.md and @docs/b.md.\n")

    def issues() -> list[tuple[int, str]]:
        return [
            (i["location"]["lines"]["begin"], i["fingerprint"]) for i in json.loads(run_cli(repo, "check", "--format", "gitlab").stdout)
        ]

    before = issues()
    assert len(before) == 3 and len({f for _, f in before}) == 3  # the two @docs/a.md are two issues
    assert all(len(f) == 64 and int(f, 16) >= 0 for _, f in before)
    write(repo, "AGENTS.md", "# Agents\n\nIntro.\n\nSee @docs/a.md, @docs/a.md and @docs/b.md.\n")
    after = issues()
    assert [line for line, _ in after] == [line + 2 for line, _ in before]
    assert [f for _, f in after] == [f for _, f in before]


def _junit(text: str) -> ET.Element:
    assert text.startswith('<?xml version="1.0" encoding="UTF-8"?>\n')
    return ET.fromstring(text.encode("utf-8"))


def _counts(element: ET.Element) -> tuple[int, int, int, int]:
    return tuple(int(element.get(k, "-1")) for k in ("tests", "failures", "errors", "skipped"))  # type: ignore[return-value]


def test_junit_counts_fail_on(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _broken_store(repo)
    result = invoke(repo, "check", "--format", "junit", monkeypatch=monkeypatch)
    assert result.exit_code == 1
    root = _junit(result.output)
    assert root.tag == "testsuites" and _counts(root) == (2, 1, 0, 1)
    (suite,) = root
    assert suite.get("name") == "memcheck.IDX" and _counts(suite) == (2, 1, 0, 1)
    cases = {case.get("name"): case for case in suite.iter("testcase")}
    assert set(cases) == {"IDX003 .claude/memory/MEMORY.md", "IDX010 .claude/memory/MEMORY.md"}
    failure = cases["IDX003 .claude/memory/MEMORY.md"].find("failure")
    assert failure is not None and failure.get("message", "").startswith("memory file feedback_tests.md is not listed")
    assert ".claude/memory/MEMORY.md:4:1: IDX003 " in (failure.text or "")
    assert cases["IDX010 .claude/memory/MEMORY.md"].find("skipped") is not None  # a warning passes, as the exit code says
    # --fail-on warning: the warning fails the build too.
    strict = _junit(invoke(repo, "check", "--format", "junit", "--fail-on", "warning", monkeypatch=monkeypatch).output)
    assert _counts(strict) == (2, 2, 0, 0)


def test_junit_clean_tree_is_one_passing_test(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write(repo, "AGENTS.md", "# Agents\n\nRun the tests.\n")
    result = invoke(repo, "check", "--format", "junit", monkeypatch=monkeypatch)
    root = _junit(result.output)
    assert result.exit_code == 0 and _counts(root) == (1, 0, 0, 0)
    assert [case.get("name") for case in root.iter("testcase")] == ["memcheck check: no findings"]


def test_fix_junit_lists_what_is_left(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _broken_store(repo)
    result = invoke(repo, "fix", "--format", "junit", monkeypatch=monkeypatch)
    assert result.exit_code == 0, result.output
    root = _junit(result.output)  # no "Fixing ..." line: the report is XML only
    assert _counts(root) == (1, 0, 0, 0)  # fix listed the memory and dropped the CRLF: nothing is left
    assert [case.get("name") for case in root.iter("testcase")] == ["memcheck fix: no findings"]


def test_junit_twins_get_numbered_names(repo: Path) -> None:
    write(repo, "AGENTS.md", "# Agents\n\nSee @docs/a.md and @docs/b.md.\n")
    names = [c.get("name") for c in _junit(run_cli(repo, "check", "--format", "junit").stdout).iter("testcase")]
    assert names == ["GDN009 AGENTS.md", "GDN009 AGENTS.md #2"]


HOSTILE = "a\x1b[2J]]><x>&\"'\x00\x0b\ud800\ufffe\u2028 end"


def test_junit_escapes_what_a_file_quotes() -> None:
    problems = [Problem(f"docs/{HOSTILE}.md", 2, 3, "MEM003", f"bad value {HOSTILE}", "error")]
    out = io.StringIO()
    junit.report(problems, out, ReportContext(fail_on="error"))
    root = _junit(out.getvalue())
    failure = root.find("./testsuite/testcase/failure")
    assert failure is not None and _counts(root) == (1, 1, 0, 0)
    message = failure.get("message", "")
    assert message.startswith("bad value a\\u001b[2J]]><x>&\"'\\u0000\\u000b\\ud800\\ufffe\\u2028 end")
    assert "\x1b" not in out.getvalue() and "\x00" not in out.getvalue()


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.text(min_size=1), st.text(), st.sampled_from(["error", "warning"])), max_size=5))
def test_junit_always_parses(found: list[tuple[str, str, str]]) -> None:
    problems = [Problem(path, 1, 1, "MEM003", message, severity) for path, message, severity in found]
    out = io.StringIO()
    junit.report(problems, out, ReportContext(fail_on="error"))
    root = _junit(out.getvalue())
    errors = sum(s == "error" for _, _, s in found)
    assert _counts(root) == ((len(found), errors, 0, len(found) - errors) if found else (1, 0, 0, 0))


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.text(min_size=1), st.text()), max_size=5))
def test_gitlab_always_validates(found: list[tuple[str, str]]) -> None:
    problems = [Problem(path, 1, 1, "MEM003", message, "warning") for path, message in found]
    out = io.StringIO()
    gitlab.report(problems, out, ReportContext())
    doc = json.loads(out.getvalue())
    assert _gitlab_errors(doc) == [] and [i["description"] for i in doc] == [f"MEM003: {m}" for _, m in found]


def test_guard_junit_fails_on_every_finding(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write(repo, ".env", "A=1\n")
    git(repo, "add", ".env")
    result = invoke(repo, "guard", "--format", "junit", monkeypatch=monkeypatch)
    root = _junit(result.output)
    assert result.exit_code == 1 and _counts(root) == (1, 1, 0, 0)
    assert [case.get("name") for case in root.iter("testcase")] == ["GRD001 .env"]
