"""The emoji data the HID rules read (``resources/emoji.json``): up to date with
Unicode's files, loaded once, and what it makes of real emoji sequences beside the
invisible characters that must still be reported."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import pytest
from conftest import REPO_ROOT, lint
from hypothesis import given
from hypothesis import strategies as st

from memcheck.text import invisible

UNICODE_DATA = Path("/usr/share/unicode")
RGI_FIXTURE = REPO_ROOT / "tests" / "fixtures" / "emoji" / "rgi.txt"
ZWJ, ZWNJ, VS15, VS16 = "\u200d", "\u200c", "\ufe0e", "\ufe0f"


def generator() -> ModuleType:
    spec = importlib.util.spec_from_file_location("emoji_data", REPO_ROOT / "tools" / "emoji_data.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def rgi_sequences() -> dict[str, list[str]]:
    """Every RGI emoji sequence of the fixture, as text, by type."""
    by_type: dict[str, list[str]] = {}
    for line in RGI_FIXTURE.read_text(encoding="utf-8").splitlines():
        if line.startswith("#"):
            continue
        points, kind = line.split(";")
        if ".." in points:  # a range of single code points (Basic_Emoji)
            first, last = (int(p, 16) for p in points.split(".."))
            sequences = [chr(cp) for cp in range(first, last + 1)]
        else:
            sequences = ["".join(chr(int(p, 16)) for p in points.split())]
        by_type.setdefault(kind, []).extend(sequences)
    return by_type


RGI = rgi_sequences()
ALL_RGI = sorted(s for sequences in RGI.values() for s in sequences)


@pytest.mark.skipif(
    not (UNICODE_DATA / "emoji" / "emoji-data.txt").is_file(),
    reason="Unicode's emoji data files are not installed (Debian's unicode-data package)",
)
def test_the_resource_and_fixture_are_what_the_generator_writes_from_unicodes_files() -> None:
    emoji_data = generator()
    resource, fixture = emoji_data.build(UNICODE_DATA)
    assert (REPO_ROOT / "src" / "memcheck" / "resources" / "emoji.json").read_text(encoding="utf-8") == resource, (
        "run python tools/emoji_data.py"
    )
    assert RGI_FIXTURE.read_text(encoding="utf-8") == fixture, "run python tools/emoji_data.py"


def test_the_resource_loads_once_and_knows_its_version_and_known_emoji() -> None:
    data = invisible.emoji_data()
    assert invisible.emoji_data() is data
    assert data.unicode.count(".") == 2 and int(data.unicode.split(".")[0]) >= 15
    # Pictographs old and new, the skin tones, the hair components.
    assert all(invisible.is_emoji(ch) for ch in "\u2764\u00a9\U0001f468\U0001f525\U0001f9b0\U0001faf8")
    assert not any(invisible.is_emoji(ch) for ch in "A\u00e9\u05d0\u0645\u4e00#1\U0001f3fb")
    assert "\U0001f3fb" in data.properties["Emoji_Modifier"] and "\U0001f44d" in data.properties["Emoji_Modifier_Base"]
    assert "#" in data.properties["Emoji_Component"] and "#" in data.properties["Emoji"]
    assert "\U0001f600" in data.properties["Emoji_Presentation"] and "\u2764" not in data.properties["Emoji_Presentation"]
    # The bases of emoji-variation-sequences: heart, copyright, the keycap digits.
    assert all(ch in data.variation_bases for ch in "\u2764\u00a90#") and "A" not in data.variation_bases


def test_the_fixture_holds_every_kind_of_rgi_sequence() -> None:
    assert {kind: len(sequences) > 0 for kind, sequences in RGI.items()} == {
        "Basic_Emoji": True, "Emoji_Keycap_Sequence": True, "RGI_Emoji_Flag_Sequence": True,
        "RGI_Emoji_Modifier_Sequence": True, "RGI_Emoji_Tag_Sequence": True, "RGI_Emoji_ZWJ_Sequence": True,
    }  # fmt: skip
    assert len(RGI["RGI_Emoji_ZWJ_Sequence"]) >= 1000


def one_per_line(sequences: list[str]) -> dict[str, str]:
    return {"AGENTS.md": "# Emoji\n\n" + "".join(f"Say {s} to the team.\n" for s in sequences)}


def test_every_zwj_sequence_unicode_lists_is_clean() -> None:
    assert lint(one_per_line(RGI["RGI_Emoji_ZWJ_Sequence"]), "HID") == []


def test_every_emoji_variation_sequence_with_vs16_or_vs15_is_clean() -> None:
    bases = [chr(cp) for cp in range(0x110000) if chr(cp) in invisible.emoji_data().variation_bases]
    assert len(bases) > 300
    assert lint(one_per_line([b + VS16 for b in bases] + [b + VS15 for b in bases]), "HID") == []


@pytest.mark.parametrize(
    ("line", "codes"),
    [
        pytest.param(f"pip install req{ZWJ}uests", ["HID003"], id="zwj-between-letters"),
        pytest.param(f"the team{ZWJ}\U0001f469 works", ["HID003"], id="zwj-after-a-letter-before-an-emoji"),
        pytest.param(f"\U0001f468{ZWJ}team", ["HID003"], id="zwj-after-an-emoji-before-a-letter"),
        pytest.param(f"\U0001f468{ZWJ}{ZWJ}\U0001f469", ["HID003"], id="two-zwj-between-emoji"),
        pytest.param(f"run{VS16} it", ["HID004"], id="vs16-after-a-letter"),
        pytest.param(f"the arrow \u2192{VS16} here", ["HID004"], id="vs16-after-a-symbol-that-takes-none"),
        pytest.param(f"\U0001f600{VS15} smiles", ["HID004"], id="vs15-after-an-emoji-that-is-no-base"),
        pytest.param(f"a{VS16}{ZWJ}\U0001f469", ["HID003", "HID004"], id="zwj-after-a-selector-after-a-letter"),
        pytest.param(f"Love \u2764{VS16}{VS16}{VS16}.", ["HID004"], id="chained-selectors"),
        pytest.param(f"\u2764{VS16}{VS16}{ZWJ}\U0001f525", ["HID004"], id="chained-selectors-in-a-zwj-sequence"),
    ],
)
def test_invisible_characters_outside_emoji_are_still_reported(line: str, codes: list[str]) -> None:
    assert [code for _, _, code in lint({"AGENTS.md": f"# Guide\n\n{line}\n"}, "HID")] == codes


# Clean text in scripts that use invisible characters themselves: Persian with a ZWNJ,
# Hebrew with an RLM, Devanagari with a ZWJ, and plain English.
CLEAN_WORDS = [
    f"\u0645\u06cc{ZWNJ}\u062e\u0648\u0627\u0647\u0645",
    "\u05e9\u05dc\u05d5\u05dd\u200f",
    f"\u0915\u094d{ZWJ}\u0937",
    "Run",
    "the",
    "tests",
    "first.",
]


def test_persian_hebrew_and_devanagari_words_are_clean() -> None:
    assert lint({"AGENTS.md": "# Guide\n\n" + " ".join(CLEAN_WORDS) + "\n"}, "HID") == []


@given(
    words=st.lists(st.sampled_from(CLEAN_WORDS), min_size=1, max_size=8),
    emoji=st.lists(st.sampled_from(ALL_RGI), min_size=1, max_size=3),
    data=st.data(),
)
def test_rgi_emoji_inserted_into_clean_text_keep_it_clean(words: list[str], emoji: list[str], data: st.DataObject) -> None:
    for sequence in emoji:
        words.insert(data.draw(st.integers(0, len(words))), sequence)
    assert lint({"AGENTS.md": "# Guide\n\n" + " ".join(words) + "\n"}, "HID") == []


def test_a_pictograph_set_aside_for_future_emoji_joins_like_a_listed_one() -> None:
    # U+1FAF9..U+1FAFF are Extended_Pictographic but not yet emoji in the shipped
    # data: a sequence of a newer Unicode joins them, and is not reported.
    assert lint(one_per_line([f"\U0001f9d1{ZWJ}\U0001faff", f"\U0001f426{ZWJ}\U0001f525"]), "HID") == []
