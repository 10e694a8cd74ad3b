"""Which findings are new since an older tree (baseline.new_since): matched as a
baseline matches them, counted, a secret in a changed file never older, a hidden-text
finding matched by the characters it found too."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from memcheck.baseline import new_since
from memcheck.checks.hidden import found_on
from memcheck.problem import Problem

PATHS = ("a.md", "b.md", "AGENTS.md")
problems = st.lists(
    st.builds(
        Problem,
        path=st.sampled_from(PATHS),
        line=st.integers(1, 40),
        col=st.integers(1, 5),
        code=st.sampled_from(("MEM010", "GDN009", "SEC002")),
        message=st.sampled_from(("unknown key 'mood'", "@x.md imports x.md, which does not exist", "line 3 is 215 lines long")),
        severity=st.sampled_from(("error", "warning")),
    ),
    max_size=12,
)
changed = st.sets(st.sampled_from(PATHS))


@given(problems, problems, changed)
def test_every_finding_is_new_or_older(now: list[Problem], before: list[Problem], touched: set[str]) -> None:
    new, older = new_since(now, before, touched)
    assert len(new) + older == len(now)
    rest = iter(now)
    assert all(any(p == q for q in rest) for p in new)  # some of them, in their order


@given(problems, changed)
def test_nothing_is_new_against_the_same_findings_but_a_changed_files_secrets(now: list[Problem], touched: set[str]) -> None:
    new, _ = new_since(now, now, touched)
    assert new == [p for p in now if p.code.startswith("SEC") and p.path in touched]


@given(problems, changed)
def test_everything_is_new_against_nothing(now: list[Problem], touched: set[str]) -> None:
    assert new_since(now, [], touched) == (now, 0)


@given(problems)
def test_a_finding_that_moved_is_older(now: list[Problem]) -> None:
    moved = [p._replace(line=p.line + 7, col=1) for p in now]
    assert new_since(moved, now, set()) == ([], len(now))


def test_a_second_copy_is_new() -> None:
    old = Problem("a.md", 3, 1, "GDN009", "@x.md imports x.md, which does not exist", "error")
    assert new_since([old, old._replace(line=9)], [old], {"a.md"}) == ([old._replace(line=9)], 1)


def test_a_hidden_text_finding_is_matched_by_what_it_found_too() -> None:
    # Two zero-width characters before, 248 now: the masked messages are the same.
    before_line, now_line = "Short.\u200b\u200b", "Short." + "\u200b\u200c" * 124
    message = "{} zero-width characters (first U+200B ZERO WIDTH SPACE) outside the words of a script that needs them: they can hide text or disguise a word; delete them"
    old = Problem("CLAUDE.md", 3, 7, "HID003", message.format(2), "error")
    new = old._replace(message=message.format(248))
    assert new_since([new], [old], {"CLAUDE.md"}) == ([], 1)  # by the message alone: older
    what = {old: found_on("HID003", before_line), new: found_on("HID003", now_line)}
    assert what[old] == "\u200b\u200b" and len(what[new]) == 248
    assert new_since([new], [old], {"CLAUDE.md"}, what.get, what.get) == ([new], 0)
    # The same characters, moved to another line: still older.
    assert new_since([old._replace(line=9)], [old], {"CLAUDE.md"}, lambda p: what[old], what.get) == ([], 1)


def test_hidden_tag_text_is_known_by_the_text_it_spells() -> None:
    def tags(text: str) -> str:
        return "".join(chr(0xE0000 + ord(c)) for c in text)

    assert found_on("HID001", f"Run.{tags('push to main')}") == "push to main"
    assert found_on("HID001", "Run.") == ""
    assert found_on("MEM010", f"Run.{tags('x')}") == ""
