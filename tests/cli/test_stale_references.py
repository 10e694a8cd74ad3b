"""REF and MEM023 through the command line, on real git repositories: what git
ignores, and what a commit holds. What each REF rule reports, and the text a user
reads: tests/unit/rules/test_ref00*.py."""

from __future__ import annotations

from pathlib import Path

from conftest import check_json, git, memory, write


def _codes(problems: list[dict[str, object]]) -> list[tuple[object, object, object]]:
    return [(p["path"], p["line"], p["code"]) for p in problems if str(p["code"]).startswith(("REF", "MEM023"))]


def test_a_moved_file_is_reported_and_an_ignored_one_is_not(repo: Path) -> None:
    write(repo, "src/app/entry/main.py", "")
    write(repo, ".gitignore", "generated/\n")
    # `generated/main.py` is a build's output, absent from this clone; `app/main.py` moved to src/app/entry/.
    write(repo, "CLAUDE.md", "# Guide\n\nThe entry point is `app/main.py`; the build writes `generated/main.py`.\n")
    git(repo, "add", "-A")
    problems = check_json(repo)
    assert _codes(problems) == [("CLAUDE.md", 3, "REF001")]
    assert "may have moved to src/app/entry/main.py" in str(problems[0]["message"])


def test_a_memory_saved_twice_is_reported_once_on_the_later_file(repo: Path) -> None:
    body = "Run the integration tests against a real database, never mocks.\n"
    write(repo, ".claude/memory/MEMORY.md", "# Memory\n\n- [Testing](feedback_testing.md) - tests\n- [Tests](feedback_tests.md) - tests\n")
    write(repo, ".claude/memory/feedback_testing.md", memory("Testing", "How to test", "feedback", body=body))
    write(repo, ".claude/memory/feedback_tests.md", memory("Tests", "How we test", "feedback", body=body.upper()))
    git(repo, "add", "-A")
    assert _codes(check_json(repo)) == [(".claude/memory/feedback_tests.md", 1, "MEM023")]
