"""REF and MEM023 through the command line, on real git repositories: what git
ignores, what a commit holds, and the text a user reads."""
from __future__ import annotations

from pathlib import Path

from conftest import check_json, git, memory, run_cli, write


def _codes(problems: list[dict[str, object]]) -> list[tuple[object, object, object]]:
    return [(p["path"], p["line"], p["code"]) for p in problems if str(p["code"]).startswith(("REF", "MEM023"))]


def test_a_moved_file_is_reported_and_an_ignored_one_is_not(repo: Path) -> None:
    write(repo, "src/entry/main.py", "")
    write(repo, ".gitignore", "generated/\n")
    # `generated/main.py` is a build's output, absent from this clone; `app/main.py` moved to src/entry/.
    write(repo, "CLAUDE.md", "# Guide\n\nThe entry point is `app/main.py`; the build writes `generated/main.py`.\n")
    git(repo, "add", "-A")
    problems = check_json(repo)
    assert _codes(problems) == [("CLAUDE.md", 3, "REF001")]
    assert "src/entry/main.py has its name" in str(problems[0]["message"])


def test_text_output_names_the_file_the_line_and_the_redacted_home(repo: Path) -> None:
    write(repo, "AGENTS.md", "# Guide\n\nOpen C:\\Users\\Adiel\\AppData\\Local\\Android\\Sdk\\adb.exe to debug.\n")
    git(repo, "add", "-A")
    out = run_cli(repo, "check").stdout
    assert "AGENTS.md:3:6: REF002 absolute path into a user's home folder (C:\\Users\\A***\\…, user name redacted)" in out
    assert "Adiel" not in out


def test_a_memory_saved_twice_is_reported_once_on_the_later_file(repo: Path) -> None:
    body = "Run the integration tests against a real database, never mocks.\n"
    write(repo, ".claude/memory/MEMORY.md", "# Memory\n\n- [Testing](feedback_testing.md) - tests\n- [Tests](feedback_tests.md) - tests\n")
    write(repo, ".claude/memory/feedback_testing.md", memory("Testing", "How to test", "feedback", body=body))
    write(repo, ".claude/memory/feedback_tests.md", memory("Tests", "How we test", "feedback", body=body.upper()))
    git(repo, "add", "-A")
    assert _codes(check_json(repo)) == [(".claude/memory/feedback_tests.md", 1, "MEM023")]
