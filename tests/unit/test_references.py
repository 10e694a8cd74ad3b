"""MEM023 (and its meeting with MEM011) on files held in memory: memories saved twice.
The REF rules' cases are in tests/unit/rules/test_ref00*.py."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import memory
from hypothesis import given
from hypothesis import strategies as st

STORE = ".claude/memory"
INDEX = f"{STORE}/MEMORY.md"


def findings(files: dict[str, str], select: str = "REF,MEM023") -> list[tuple[str, int, str, str]]:
    """(path, line, code, message) of every finding, as a user reads them."""
    from memcheck import config
    from memcheck.engine.collect import collect
    from memcheck.engine.targets import targets_for
    from memcheck.workspace.discover import Workspace
    from memcheck.workspace.memory import MemorySource

    data = config.defaults()
    data["select"] = select.split(",")
    settings = config.from_mapping(Path("/nonexistent/memcheck-in-memory"), data)
    ws = Workspace(settings, MemorySource({path: text.encode() for path, text in files.items()}))
    return sorted((p.path, p.line, p.code, p.message) for p in collect(ws, targets_for(ws, None)))


def store(**bodies: str) -> dict[str, str]:
    files = {INDEX: "# Memory\n\n" + "".join(f"- [{n}]({n}.md) - {n}\n" for n in bodies)}
    files.update({f"{STORE}/{n}.md": memory(n, f"About {n}", "feedback", body=b) for n, b in bodies.items()})
    return files


def test_the_same_memory_under_two_names_is_reported_on_the_later_one() -> None:
    body = "Run the integration tests against a real database,\nnever mocks.\n"
    files = store(
        feedback_testing=body,
        feedback_tests="run the integration tests  against a REAL database, never mocks.\n",
        other="Deploy on Fridays never.\n",
    )
    [(path, line, code, message)] = findings(files)
    assert (path, line, code) == (f"{STORE}/feedback_tests.md", 1, "MEM023")
    assert "same body as feedback_testing.md" in message


def test_a_duplicate_memory_the_index_lists_once_is_not_said_to_be_listed_twice() -> None:
    body = "Run the integration tests against a real database, never mocks.\n"
    files = store(feedback_testing=body, feedback_tests=body)
    files[INDEX] = "# Memory\n\n- [feedback_testing](feedback_testing.md) - feedback_testing\n"
    [(_, _, _, message)] = findings(files, "MEM023")
    assert (
        message
        == "feedback_tests.md has the same body as feedback_testing.md: the store holds one memory under two names; merge them into feedback_testing.md and delete this one"
    )


def test_a_near_copy_under_the_same_description_is_reported() -> None:
    words = " ".join(f"word{i}" for i in range(40))
    files = store(a=words + " one.\n", b=words + " two and a few more words here.\n")
    files[f"{STORE}/b.md"] = files[f"{STORE}/b.md"].replace("About b", "About a")
    [(path, _, code, message)] = findings(files)
    assert (path, code) == (f"{STORE}/b.md", "MEM023")
    assert "description of a.md and nearly its body" in message


def test_a_near_copy_under_another_description_is_not_reported() -> None:
    words = " ".join(f"word{i}" for i in range(40))
    assert findings(store(a=words + " one.\n", b=words + " two.\n")) == []


@given(
    st.lists(st.sampled_from(["Run", "the", "TESTS", "on", "a", "real", "database", "never", "mocks."]), min_size=4, max_size=30),
    st.lists(st.sampled_from([" ", "\n", "  ", "\t", "\n\n"]), min_size=30, max_size=30),
)
def test_a_body_saved_again_with_other_case_and_spacing_is_the_same_body(words: list[str], gaps: list[str]) -> None:
    from memcheck.text.duplicates import duplicates

    first = " ".join(words)
    again = "".join(w.swapcase() + gap for w, gap in zip(words, gaps))
    found = list(duplicates([("s/a.md", "another", first), ("s/b.md", "one", again)]))  # in file-name order, as a store lists them
    assert [(d.path, d.earlier, d.ratio) for d in found] == [("s/b.md", "s/a.md", 1.0)]


def test_a_duplicate_memory_s_message_escapes_its_file_names() -> None:
    body = "Run the integration tests against a real database, never mocks.\n"
    files = store(a=body, **{"b\x1b[2J": body})
    [(_, _, code, message)] = findings(files, "MEM023")
    assert code == "MEM023" and "\x1b" not in message and "b\\u001b[2J.md has the same body as a.md" in message


def test_one_memory_saved_twice_under_one_name_is_one_finding_that_says_merge() -> None:
    body = "Run the integration tests against a real database, never mocks.\n"
    files = store(feedback_testing=body, feedback_tests=body)
    files[f"{STORE}/feedback_tests.md"] = memory("feedback_testing", "About feedback_testing", "feedback", body=body)
    [(path, _, code, message)] = findings(files, "MEM011,MEM023")
    assert (path, code) == (f"{STORE}/feedback_tests.md", "MEM011")
    assert message.endswith(
        "is already used by feedback_testing.md; it says what feedback_testing.md says: merge them into it and delete this one"
    )


def test_two_memories_of_one_name_that_say_different_things_keep_the_rename_advice() -> None:
    files = store(a="Deploy on Fridays never.\n", b="Run the linter before each push.\n")
    files[f"{STORE}/b.md"] = memory("a", "About b", "feedback", body="Run the linter before each push.\n")
    [(_, _, code, message)] = findings(files, "MEM011,MEM023")
    assert code == "MEM011" and message.endswith("give each memory its own name")


def test_near_copies_are_weighed_within_a_budget_of_word_pairs_per_store(monkeypatch: pytest.MonkeyPatch) -> None:
    # Bodies of the same few words pass difflib's cheap bounds and cost the product of
    # their lengths each: the full ratio is weighed only while the store's budget lasts.
    import difflib

    from memcheck.text import duplicates as dup

    weighed: list[int] = []

    class Counting(difflib.SequenceMatcher):  # type: ignore[type-arg]
        def ratio(self) -> float:
            weighed.append(len(self.a) * len(self.b))
            return 0.0  # nothing alike: every pair is tried

    monkeypatch.setattr(difflib, "SequenceMatcher", Counting)  # (imported from difflib when weighed)
    words = " ".join(["alpha", "beta", "gamma"] * 100)
    items = [(f"m{i:03}.md", "note", f"{i} {words}") for i in range(200)]
    assert list(dup.duplicates(items)) == []
    assert 0 < sum(weighed) <= dup._RATIO_WORD_PAIRS
