"""HID003 zero-width-character: zero-width characters outside the text that needs them."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import REPO_ROOT, findings, lint, memory

STORE = ".claude/memory"
INDEX = f"{STORE}/MEMORY.md"
LISTED = "# Memory\n\n## User\n- [Review](review.md) - Concise reviews\n"
MEMORY = f"{STORE}/review.md"
ZWSP_RUN = "Install requests" + "\u200b\u200c\u200b\u200d" * 4 + " first.\n"


def store(body: str) -> dict[str, str]:
    return {INDEX: LISTED, MEMORY: memory("Review", "Concise reviews", "user", body=body)}


def test_the_docs_example_a_zwsp_inside_the_package_name_is_reported() -> None:
    # The doc's Example is prose: "Install reqeusts" with a ZWSP inside the package name.
    (found,) = findings({"AGENTS.md": "# Guide\n\nInstall req\u200beusts\n"}, select="HID")
    assert (found.line, found.col, found.code) == (3, len("Install req") + 1, "HID003")
    assert found.message == (
        "1 zero-width character (first U+200B ZERO WIDTH SPACE) outside the words of a script that needs them: "
        "they can hide text or disguise a word; delete them"
    )


def test_the_docs_use_instead_a_zwnj_inside_a_persian_word_is_not_reported() -> None:
    assert lint(store("\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645 (I want) in Persian.\n"), "HID") == []


def test_a_run_is_counted_on_its_line_and_pointed_at_its_first_character() -> None:
    (found,) = findings(store(ZWSP_RUN), select="HID")
    assert (found.line, found.col, found.code) == (7, len("Install requests") + 1, "HID003")
    assert found.message.startswith("16 zero-width characters (first U+200B ZERO WIDTH SPACE)")


@pytest.mark.parametrize(
    ("files", "expected"),
    [
        pytest.param(store(ZWSP_RUN), [(MEMORY, 7, "HID003")], id="zero-width-run"),
        pytest.param({"AGENTS.md": "# Guide\n\npip install req\u200buests\n"}, [("AGENTS.md", 3, "HID003")], id="zwsp-inside-a-latin-word"),
        pytest.param({"AGENTS.md": "# Guide\n\ntext\ufeffmore\n"}, [("AGENTS.md", 3, "HID003")], id="bom-inside-the-file"),
        pytest.param({"AGENTS.md": "# Guide\n\nx \u2062 y\n"}, [("AGENTS.md", 3, "HID003")], id="invisible-times"),
        pytest.param({"AGENTS.md": "# Guide\n\nrun `rm\u00ad\u00ad-rf` now\n"}, [("AGENTS.md", 3, "HID003")], id="soft-hyphens-in-a-run"),
        pytest.param({"AGENTS.md": "# Guide\n\nname\u3164 = 1\n"}, [("AGENTS.md", 3, "HID003")], id="hangul-filler-as-a-blank"),
        pytest.param({"AGENTS.md": "# Guide\n\nsay \u034fhi\n"}, [("AGENTS.md", 3, "HID003")], id="grapheme-joiner-before-no-mark"),
        # What the languages and emoji that need these characters write: no finding.
        pytest.param(
            store("The family emoji \U0001f468\u200d\U0001f469\u200d\U0001f467 and \u2764\ufe0f\u200d\U0001f525.\n"), [], id="emoji-zwj"
        ),
        pytest.param(
            store(
                "\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645, \U0001f468\u200d\U0001f469\u200d\U0001f467, \u05e9\u05dc\u05d5\u05dd\u200f and \u2764\ufe0f in one memory.\n"
            ),
            [],
            id="persian-emoji-hebrew-together",
        ),
        pytest.param(store("Donau\u00addampf\u00adschiff, a hyphenation point in German.\n"), [], id="soft-hyphen-in-a-word"),
        pytest.param(
            store("\u05d0\u05b7\u034f\u05b8 keeps its marks in order; \u1100\u1160 is a jamo with a filler.\n"),
            [],
            id="grapheme-joiner-and-jamo-filler",
        ),
        pytest.param(
            store("\u0915\u094d\u200d\u0937 in Devanagari, \u0e20\u0e32\u0e29\u0e32\u200b\u0e44\u0e17\u0e22 in Thai.\n"),
            [],
            id="indic-zwj-thai-zwsp",
        ),
    ],
)
def test_zero_width_characters(files: dict[str, str], expected: list[tuple[str, int, str]]) -> None:
    assert lint(files, "HID") == expected


@pytest.mark.parametrize(
    "line",
    [
        pytest.param("Run the tests." + "\u2800\u2007\u2800\u2800\u2007", id="braille-and-figure-spaces"),
        pytest.param("Run the tests.\u3000\u3000\u3000", id="ideographic-spaces"),
        pytest.param("Run the tests. \u2009 \u200a", id="thin-and-hair-spaces-among-spaces"),
        pytest.param("Run the tests.\u2800", id="one-braille-blank"),
        pytest.param("\u00a0 \u00a0\u00a0 ", id="no-break-spaces-and-spaces-out-of-turn"),
        pytest.param("Run the tests.\u00a0\u2007", id="a-no-break-and-a-figure-space"),
    ],
)
def test_blank_characters_at_a_lines_end_are_reported(line: str) -> None:
    (found,) = findings({"AGENTS.md": f"# Guide\n\n{line}\n"}, select="HID")
    first = min(i for i, ch in enumerate(line) if ch not in " \t" and not ch.isascii())
    assert (found.line, found.col, found.code) == (3, first + 1, "HID003")
    assert " at the line's end: they draw nothing there and can carry hidden text; delete them" in found.message


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("\u65e5\u672c\u8a9e\u3000\u3067\u3059\u3002\n\u3000\u3000\u6bb5\u843d\u3002\n", id="cjk-spaces-inside-lines"),
        pytest.param("\u65e5\u672c\u8a9e\u3067\u3059\u3002\u3000\n", id="one-ideographic-space-at-the-end"),
        pytest.param("Copied from a page.\u00a0\r\n", id="one-no-break-space-at-the-end"),
        pytest.param("Pay 1\u2007000\u00a0\u20ac now.\n", id="figure-and-no-break-spaces-inside"),
    ],
)
def test_blank_characters_inside_text_are_not_reported(text: str) -> None:
    assert lint(store(text), "HID") == []


@pytest.mark.parametrize(
    "line",
    [
        pytest.param("\u00a0\u00a0", id="a-line-of-no-break-spaces"),
        pytest.param("\u00a0 \u00a0 ", id="a-line-of-no-break-spaces-and-spaces-in-turn"),
        pytest.param("Run the tests. \u00a0 \u00a0", id="a-pasted-run-of-spaces-after-text"),
    ],
)
def test_no_break_spaces_alone_or_in_turn_with_spaces_at_a_lines_end_are_not_reported(line: str) -> None:
    """A sixth unseen set's shape: rules copied from a web page, their blank lines two
    no-break spaces and their indentation `&nbsp; &nbsp;`. Each character follows from
    how many there are: they hide no more than spaces would."""
    assert lint({"AGENTS.md": f"# Guide\n\n{line}\n\n\u00a0 \u00a0 Keep it short.\n"}, "HID") == []


def test_ascii_files_give_no_finding() -> None:
    assert lint(store("Plain text, nothing hidden.\n"), "HID") == []


# Every default-ignorable and format character that no other HID rule judges, in a
# run between Latin letters, where none belongs.
OTHER_INVISIBLES = [
    "\u200e",
    "\u200f",
    "\u061c",
    "\u17b4",
    "\u180e",
    "\u2065",
    "\u206a",
    "\u206f",
    "\ufff0",
    "\ufff9",
    "\ufffb",
    "\u0600",
    "\u06dd",
    "\u070f",
    "\u08e2",
    "\U000110bd",
    "\U00013430",
    "\U0001343f",
    "\U0001bca0",
    "\U0001d173",
    "\U000e0080",
    "\U000e01f0",
    "\U000e0fff",
]


@pytest.mark.parametrize("ch", OTHER_INVISIBLES, ids=lambda ch: f"U+{ord(ch):04X}")
def test_every_other_ignorable_or_format_character_in_a_run_is_reported(ch: str) -> None:
    (found,) = findings({"CLAUDE.md": f"# Guide\n\nrun{ch * 3}the tests\n"}, select="HID")
    assert (found.line, found.col, found.code) == (3, 4, "HID003")
    assert found.message.startswith("3 invisible characters (first U+")


def test_marks_carrying_bits_in_a_latin_line_are_reported() -> None:
    # LRM and RLM between the words of an English line: each one a bit, drawn as nothing.
    line = "Always " + "\u200e" + "run " + "\u200f" + "the " + "\u200e" + "tests"
    assert lint({"CLAUDE.md": f"# Guide\n\n{line}\n"}, "HID") == [("CLAUDE.md", 3, "HID003")]


@pytest.mark.parametrize(
    "text",
    [
        pytest.param(
            "\u05e9\u05dc\u05d5\u05dd\u200f (Hebrew), \u0633\u0644\u0627\u0645\u061c 2", id="directional-marks-beside-right-to-left-text"
        ),
        pytest.param("\u0600\u0661\u0662 an Arabic number sign before its digits", id="arabic-number-sign"),
        pytest.param("\u1820\u180e\u1820 in Mongolian, \u1780\u17b4 in Khmer, \u0710\u070f\u0710 in Syriac", id="script-format-controls"),
        pytest.param("\U00013000\U00013430\U00013001 and \U0001d15e\U0001d173\U0001d15f", id="hieroglyph-and-musical-controls"),
    ],
)
def test_format_characters_in_their_own_text_are_not_reported(text: str) -> None:
    assert lint({"CLAUDE.md": f"# Guide\n\n{text}\n"}, "HID") == []


def test_the_rules_know_every_format_character_unicode_lists() -> None:
    import unicodedata

    from memcheck.text import invisible

    missing = [f"U+{cp:04X}" for cp in range(0x110000) if unicodedata.category(chr(cp)) == "Cf" and not invisible.SUSPECT.match(chr(cp))]
    assert missing == []


def _default_ignorable(text: str) -> list[int]:
    """The code points a DerivedCoreProperties.txt (or its excerpt) lists as Default_Ignorable_Code_Point."""
    found = []
    for line in text.splitlines():
        fields = line.partition("#")[0].split(";")
        if len(fields) == 2 and fields[1].strip() == "Default_Ignorable_Code_Point":
            first, _, last = fields[0].strip().partition("..")
            found += range(int(first, 16), int(last or first, 16) + 1)
    return found


def test_the_rules_know_every_default_ignorable_code_point_unicode_lists() -> None:
    from memcheck.text import invisible

    # Unicode's own list, its lines kept in tests/fixtures; and where the machine has a
    # DerivedCoreProperties.txt itself (Debian's unicode-data), that one's too.
    texts = [(REPO_ROOT / "tests/fixtures/unicode/default-ignorable.txt").read_text(encoding="utf-8")]
    system = Path("/usr/share/unicode/DerivedCoreProperties.txt")
    if system.exists():
        texts.append(system.read_text(encoding="utf-8"))
    for text in texts:
        listed = _default_ignorable(text)
        assert len(listed) > 4000  # (the tag characters alone are 4,096)
        assert [f"U+{cp:04X}" for cp in listed if not invisible.SUSPECT.match(chr(cp))] == []
