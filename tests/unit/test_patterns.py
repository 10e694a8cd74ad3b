"""Gitignore lines and folder globs as text/patterns.py matches them: pathspec reads the
lines, re2 matches them (no user pattern ever reaches a backtracking engine), each list
compiled once; folder globs one fnmatch pattern per segment."""

from __future__ import annotations

import pytest
from conftest import cpu_limit

from memcheck.text import first_match, patterns

# pathspec's regex for this line took Python's re 40 s against 40 characters.
HOSTILE = "*a*a*a*a*a*a*a*a*a*a*b"


def test_a_hostile_line_is_matched_in_time_linear_in_the_path() -> None:
    with cpu_limit(10, "a line re would backtrack on"):
        assert not patterns.GitIgnore([HOSTILE]).match("a" * 10_000)
        assert not patterns.GitIgnore([HOSTILE], each_alone=True).match("a" * 10_000)
        assert first_match.FirstMatch([HOSTILE]).first("a" * 10_000) is None
        assert first_match.FirstMatch(["x/" + HOSTILE]).first("x/" + "a" * 10_000) is None
        assert patterns.GitIgnore([HOSTILE]).match("a" * 10_000 + "ab")


def test_a_list_is_compiled_once() -> None:
    assert patterns.gitignore(("*.md", "!keep.md")) is patterns.gitignore(("*.md", "!keep.md"))
    assert patterns.any_line(("docs/",)) is patterns.any_line(("docs/",))


@pytest.mark.parametrize(
    ("lines", "path", "matched"),
    [
        (("*.md", "!keep.md"), "a/b.md", True),
        (("*.md", "!keep.md"), "a/keep.md", False),
        (("docs/",), "docs/a.txt", True),
        (("/top.txt",), "sub/top.txt", False),
        (("a/**/b",), "a/x/y/b", True),
        (("",), "a", False),  # a blank line matches nothing (pathspec 1.0.0 refused it on re2)
    ],
)
def test_gitignore_reads_lines_as_git_does(lines: tuple[str, ...], path: str, matched: bool) -> None:
    assert patterns.gitignore(lines).match(path) is matched


def test_any_line_judges_each_line_on_its_own() -> None:
    # A later `!` line takes nothing back: alone, it matches nothing.
    assert patterns.any_line(("*.md", "!keep.md")).match("keep.md")
    assert not patterns.any_line(("!keep.md",)).match("keep.md")
    assert patterns.any_line(("!keep.md", "*.md")).match("keep.md")


def test_an_undecodable_name_is_matched_like_any_other_character() -> None:
    # Python decodes a name's stray bytes to lone surrogates, which re2 cannot take.
    name = "caf\udce9/.env"
    assert patterns.gitignore(("caf?/",)).match(name)
    assert not patterns.gitignore(("cafe/",)).match(name)
    assert first_match.FirstMatch([".env"]).first_at(name) == (0, True)
    assert first_match.FirstMatch(["caf*/"]).first_at(name) == (0, False)
    assert first_match.FirstMatch(["caf\udce9/"]).first(name) == 0


def test_a_line_re2_refuses_is_a_value_error() -> None:
    # re reads [[:alpha:]] as a set of characters, re2 as a class; the config refuses
    # it before anything is matched, and anything else re2 refused would say so.
    with pytest.raises(ValueError, match="re2 cannot compile it"):
        patterns.GitIgnore(["x[a[:alpha:]]"])


@pytest.mark.parametrize(
    ("glob", "folder", "matched"),
    [
        (".claude/agent-memory/*", "apps/web/.claude/agent-memory/helper", True),
        (".claude/agent-memory/*", ".claude/agent-memory", False),
        ("*", "", False),
        ("/docs/", "a/docs", True),
        ("[ab]", "b", True),
    ],
)
def test_folder_globs_name_a_folder_by_its_last_segments(glob: str, folder: str, matched: bool) -> None:
    assert patterns.glob_matches_folder(glob, folder) is matched


def test_folder_globs_are_linear_too() -> None:
    with cpu_limit(10, "a folder glob"):
        assert not patterns.glob_matches_folder(HOSTILE, "ab" * 5_000 + "c")


def test_whole_path_lines_see_the_path_as_it_is() -> None:
    # pathspec drops a leading "/" or "./" of what it is given; FirstMatch's whole-path
    # lines still see them, and a `!` only marks a line.
    assert first_match.FirstMatch(["*"]).first_at(".", is_dir=True) == (0, False)
    assert first_match.FirstMatch(["**/"]).first("/x") == 0
    assert first_match.FirstMatch(["**/"]).first("a/x") is None
    assert first_match.FirstMatch(["!a/b"]).first("a/b") == 0


WHOLE_LINES = ["**/secrets/x", "/dist/", "a/*/b", "**/.vscode/settings.json", "/proc/*/environ"]


@pytest.mark.parametrize(
    ("path", "first"),
    [
        ("ſecrets/x", 0),  # re2 folds ſ to s: a path that is not ASCII is always asked
        ("a/SECRETS/x", 0),
        ("a/secrets/y", None),
        ("Dist/q", 1),
        ("A/q/B", 2),
        ("x/.Vscode/SETTINGS.json", 3),
        ("x/vscode/settings.json", None),
        ("proc/1/environ", 4),
        ("src/main.py", None),
    ],
)
def test_lines_with_a_slash_are_asked_only_of_paths_holding_a_name_they_need(
    path: str, first: int | None, monkeypatch: pytest.MonkeyPatch
) -> None:
    match = first_match.FirstMatch(WHOLE_LINES)
    whole = match._whole_set()
    asked: list[str] = []

    class Counted:
        def first(self, text: str) -> int | None:
            asked.append(text)
            return whole.first(text)

    monkeypatch.setattr(match, "_whole", Counted())
    assert match.first(path) == first
    holds_a_name = not path.isascii() or {"secrets", "dist", "a", ".vscode", "proc"} & set(path.lower().split("/"))
    assert len(asked) == (1 if holds_a_name else 0)


def test_a_line_with_no_plain_name_has_every_path_asked() -> None:
    match = first_match.FirstMatch(["*/x.pem", "**/*a*/b", "[Ss]ecrets/*"])
    assert match.first("q/x.pem") == 0 and match.first("z/ba/b") == 1 and match.first("Secrets/k") == 2
    assert match._whole_names is None
