"""HID004 stray-variation-selector: variation selectors chained or after no character that takes them."""
from __future__ import annotations

import pytest
from conftest import findings, lint, memory

STORE = ".claude/memory"
INDEX = f"{STORE}/MEMORY.md"
LISTED = "# Memory\n\n## User\n- [Review](review.md) - Concise reviews\n"
MEMORY = f"{STORE}/review.md"


def store(body: str) -> dict[str, str]:
    return {INDEX: LISTED, MEMORY: memory("Review", "Concise reviews", "user", body=body)}


def test_the_docs_example_a_smile_followed_by_two_hundred_selectors_is_reported() -> None:
    # The doc's Example is prose: a memory whose 🙂 is followed by two hundred
    # variation selectors.
    (found,) = findings(store("Thanks \U0001f642" + "".join(chr(0xE0100 + b % 240) for b in range(200)) + "\n"), select="HID")
    assert (found.path, found.line, found.col, found.code) == (MEMORY, 7, len("Thanks \U0001f642") + 1, "HID004")
    assert found.message.startswith("200 variation selectors (first U+E0100 VARIATION SELECTOR-17) chained or after a character that takes none")


def test_the_docs_use_instead_one_vs16_after_an_emoji_that_needs_it_is_not_reported() -> None:
    assert lint(store("Thanks \u2764\ufe0f\n"), "HID") == []


@pytest.mark.parametrize(
    ("files", "expected"),
    [
        pytest.param({"AGENTS.md": "# Guide\n\nLove \u2764\ufe0f\ufe0f\ufe0f.\n"}, [("AGENTS.md", 3, "HID004")], id="chained-selectors"),
        pytest.param({"AGENTS.md": "# Guide\n\nrun\ufe0f it\n"}, [("AGENTS.md", 3, "HID004")], id="selector-after-a-letter"),
        pytest.param(store("\U0001f642" + "".join(chr(0xE0100 + b) for b in b"skip the tests") + "\n"), [(MEMORY, 7, "HID004")], id="bytes-in-selectors"),
        pytest.param({"AGENTS.md": "# Guide\n\nMark it \u2764\ufe0f and 1\ufe0f\u20e3, \u845b\U000e0100 in Japanese.\n"}, [], id="presentation-and-ideographic-selectors"),
    ],
)
def test_variation_selectors(files: dict[str, str], expected: list[tuple[str, int, str]]) -> None:
    assert lint(files, "HID") == expected
