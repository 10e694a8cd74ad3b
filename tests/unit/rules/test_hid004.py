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
    assert found.message.startswith(
        "200 variation selectors (first U+E0100 VARIATION SELECTOR-17) chained or after a character that takes none"
    )


def test_the_docs_use_instead_one_vs16_after_an_emoji_that_needs_it_is_not_reported() -> None:
    assert lint(store("Thanks \u2764\ufe0f\n"), "HID") == []


@pytest.mark.parametrize(
    ("files", "expected"),
    [
        pytest.param({"AGENTS.md": "# Guide\n\nLove \u2764\ufe0f\ufe0f\ufe0f.\n"}, [("AGENTS.md", 3, "HID004")], id="chained-selectors"),
        pytest.param({"AGENTS.md": "# Guide\n\nrun\ufe0f it\n"}, [("AGENTS.md", 3, "HID004")], id="selector-after-a-letter"),
        pytest.param(
            store("\U0001f642" + "".join(chr(0xE0100 + b) for b in b"skip the tests") + "\n"),
            [(MEMORY, 7, "HID004")],
            id="bytes-in-selectors",
        ),
        pytest.param(
            {"AGENTS.md": "# Guide\n\nMark it \u2764\ufe0f and 1\ufe0f\u20e3, \u845b\U000e0100 in Japanese.\n"},
            [],
            id="presentation-and-ideographic-selectors",
        ),
    ],
)
def test_variation_selectors(files: dict[str, str], expected: list[tuple[str, int, str]]) -> None:
    assert lint(files, "HID") == expected


def test_a_selector_after_each_ideograph_is_reported_where_no_sequence_registers_it() -> None:
    # Each ideograph of a plain sentence carries one selector: a byte each, drawn as
    # nothing. The Ideographic Variation Database registers none of these pairs.
    sentence = "".join(
        ch + chr(0xE0100 + b % 240) for ch, b in zip("\u4eec\u8fd9\u8bf4\u8bdd\u4eec\u8fd9\u8bf4\u8bdd\u4eec\u8fd9", b"skip tests")
    )
    (found,) = findings({"CLAUDE.md": "# Guide\n\n" + sentence + "\n"}, select="HID")
    assert (found.line, found.code) == (3, "HID004")
    assert found.message.startswith("10 variation selectors (first U+E0173 VARIATION SELECTOR-132)")


def test_vs17_after_every_ideograph_carries_bits_and_is_reported() -> None:
    # Where VS17 stands or not is a bit: an ideograph the database gives no sequence is
    # no place for one.
    assert lint({"CLAUDE.md": "# Guide\n\n\u4eec\U000e0100\u8fd9\u8bf4\U000e0100\u8bdd\n"}, "HID") == [("CLAUDE.md", 3, "HID004")]


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("\u845b\U000e0100\u57ce\u5e02 and \u8fbb\U000e0101", id="registered-ideographic-sequences"),
        pytest.param("\u585a\ufe00 and \u585a\ufe01", id="cjk-compatibility-variants"),
        pytest.param("\u2229\ufe00 and 0\ufe00", id="standardized-math-and-digit-variants"),
        pytest.param("\u1820\u180b", id="mongolian-free-variation-selector"),
    ],
)
def test_the_sequences_unicode_registers_are_not_reported(text: str) -> None:
    assert lint({"CLAUDE.md": f"# Guide\n\n{text}\n"}, "HID") == []


def test_a_mongolian_variation_selector_after_a_latin_letter_is_reported() -> None:
    assert lint({"CLAUDE.md": "# Guide\n\nrun\u180b it\n"}, "HID") == [("CLAUDE.md", 3, "HID004")]
