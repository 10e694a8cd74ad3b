"""Properties of what `fix` writes to a curated index, on text in memory: the caps
come first, each new entry has a description and copies no secret, and a second run
changes nothing.

`plan` is a pure function of the old index and the store, so hypothesis can try many
more indexes here than through git repositories (tests/cli/test_index_sync.py).
"""

from __future__ import annotations

import pytest
from conftest import HOSTILE_BODIES, cpu_limit
from hypothesis import HealthCheck, event, example, given, settings
from hypothesis import strategies as st

from memcheck.index.caps import cap_lines, loaded_lines
from memcheck.index.fit import fits
from memcheck.index.links import links
from memcheck.index.memory import NO_DATES, SENTENCE_MAX, Memory, first_heading, first_sentence
from memcheck.index.plan import SYNC, normalise, plan
from memcheck.index.survey import survey
from memcheck.text.secrets import redact

TYPES = ("user", "feedback", "project", "reference")
TOKEN = "ghp_" + "aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5"
STEMS = ["a", "b_note", "c-x", "d", "session_2026-04-30", "session_2026-05-02", "e", "f"]
DESCRIPTIONS = [None, "", "short one", "a longer description of what the memory holds", f"token {TOKEN}", "TODO"]
BODIES = ["", "First sentence. Second.\n", f"Key {TOKEN} here.\n", "# A heading\n\nThen text.\n", "# Only a heading\n"]
DATES = [None, "2026-05-20", "2026-05-10", "2026-04-01"]


@st.composite
def _memories(draw: st.DrawFn) -> list[Memory]:
    stems = draw(st.lists(st.sampled_from(STEMS), unique=True, max_size=7))
    out = []
    for stem in stems:
        date = draw(st.sampled_from(DATES))
        out.append(
            Memory(
                f"{stem}.md",
                draw(st.sampled_from([None, stem, stem.upper(), "Title " + stem])),
                draw(st.sampled_from(DESCRIPTIONS)),
                draw(st.sampled_from([None, *TYPES])),
                draw(st.sampled_from(BODIES)),
                (date, None, None),
                draw(st.booleans()),
            )
        )
    return out


def _line(draw: st.DrawFn, stems: list[str]) -> str:
    stem = draw(st.sampled_from(stems))
    return draw(
        st.sampled_from(
            [
                f"- [{stem}]({stem}.md) \u2014 hand-written hook",
                f"* [{stem.upper()}]({stem}.md): hook",
                f"- **[{stem}]({stem}.md)** - hook",
                f"- [{stem}]({stem}.md) - TODO",
                f"- [{stem}]({stem}.md) ---",
                f"- {stem}: named [user]",
                f"- [gone]({stem}_gone.md) - dead",
                f"| [{stem}]({stem}.md) | row |",
                "# Memory",
                "## Feedback",
                "## Notes",
                "Some prose about the store.",
                "",
                "- a plain note",
            ]
        )
    )


@st.composite
def _indexes(draw: st.DrawFn) -> tuple[list[Memory], str]:
    memories = draw(_memories())
    stems = [m.stem for m in memories] or ["a"]
    lines = [_line(draw, stems) for _ in range(draw(st.integers(0, 12)))]
    return memories, "\n".join(lines) + "\n"


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(_indexes(), st.sampled_from([200, 10, 5, 3]), st.sampled_from([25_000, 300, 120]), st.sampled_from([None, SYNC]))
@example(([Memory("a.md", "a", "x", "user"), Memory("b.md", "b", "y", "user")], "- [a](a.md) - x\n"), 1, 25_000, SYNC)
def test_fix_keeps_the_caps_describes_each_entry_copies_no_secret_and_settles(
    store: tuple[list[Memory], str], max_lines: int, max_bytes: int, mode: str | None
) -> None:
    memories, before = store
    caps = (max_lines, max_bytes)
    on_disk = {m.filename for m in memories}

    def exists(path: str) -> bool:
        return path in on_disk

    first = plan(before, memories, exists, TYPES, mode, None, caps=caps)
    after = first.text
    event(f"mode {first.mode}; refused {bool(first.refused)}")
    # The caps come first: over a cap it was under, never; and nothing new unless all fits.
    added = first.changes.added if first.changes is not None else ()
    if added or (first.mode == SYNC and fits(before, caps)):
        assert fits(after, caps)
    if first.mode == SYNC:
        # No line agents read before is past a cap now (lines only move up, or stay).
        read_before = loaded_lines(cap_lines(before), *caps)
        read_after = loaded_lines(cap_lines(after), *caps)
        out = after.split("\n")
        old = before.split("\n")
        for i, line in enumerate(old[:read_before]):
            if line.strip() and old.count(line) == 1 and out.count(line) == 1:  # a line told apart from the others
                assert out.index(line) < read_after, (line, i)
        # What is not listed now is what did not fit.
        listed = survey(after, memories, exists).listed
        assert on_disk - listed <= set(first.refused) | _claimed(first)
    # Each new entry says something, and nothing holds a secret the index did not.
    lines = after.split("\n")
    for _name, lineno in added:
        line = lines[lineno - 1]
        found = links(line, lineno)
        assert not found or line[found[0].stop :].strip(" *"), line  # a description after the link
    if redact(before) == before:
        assert redact(after) == after
    # A second run changes nothing.
    second = plan(after, memories, exists, TYPES, mode, None, caps=caps)
    assert normalise(second.text) == normalise(after)


def _claimed(p: object) -> set[str]:
    """Memories a dead entry may have been renamed to: listed by that entry, for now."""
    found = getattr(p, "survey", None)
    return {name for d in found.dead.values() for name in d.renamed} if found is not None else set()


def test_dates_default_to_none() -> None:
    assert Memory("a.md", None, None, None).dates == NO_DATES


@pytest.mark.parametrize(
    "body",
    [
        *HOSTILE_BODIES.values(),
        "x. " * 200_000,  # a sentence end skipped (an initial) at every word
        "# " + " " * 100_000 + "x",
        "[[" * 100_000,
        "`" * 100_001,
        "<a " * 100_000,
    ],
    ids=[*HOSTILE_BODIES, "initials", "spaced-heading", "wiki-openers", "backticks", "tag-openers"],
)
def test_a_hostile_body_gives_a_bounded_first_sentence_at_once(body: str) -> None:
    with cpu_limit(5, "reading a hostile body's first sentence and heading"):
        sentence, heading = first_sentence(body + "\n"), first_heading(body + "\n")
    assert sentence is None or (len(sentence) <= SENTENCE_MAX and "\n" not in sentence and sentence.count("`") % 2 == 0)
    assert heading is None or len(heading) <= 500
