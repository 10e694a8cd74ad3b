"""The remedies messages give for frontmatter and file names, held to what they promise:
the value a hint says to write reads, in strict YAML, as what the agents' line parsers
read now; the name a rename suggests has nothing left to object to."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memcheck.paths import name_trouble, safe_name
from memcheck.text import yamlload
from memcheck.text.frontmatter import misspelt_key, quote_hint

# One line of text, without what YAML refuses anywhere (control characters).
_LINE = st.text(st.characters(blacklist_categories=("Cc", "Cs"), blacklist_characters="\u2028\u2029\ufeff\x85"), max_size=40)
_SAID = "quote the whole value: k: "


@settings(max_examples=500, deadline=None)
@given(st.sampled_from("\"'"), _LINE, _LINE.filter(lambda t: t.strip() != ""))
def test_quoting_the_whole_value_keeps_what_line_parsers_read(quote: str, inside: str, after: str) -> None:
    inner = inside.replace("\\", "\\\\").replace('"', '\\"') if quote == '"' else inside.replace("'", "''")
    raw = f"{quote}{inner}{quote} {after}".strip()
    hint = quote_hint("k", raw)
    assert hint is not None and "starts with a quoted string and goes on after it" in hint
    if _SAID in hint:
        shown = hint.split(_SAID, 1)[1]
        assert yamlload.load_data(f"k: {shown}\n") == {"k": raw}


@pytest.mark.parametrize(
    ("raw", "hint"),
    [
        pytest.param("Deploy: Railway", "; quote the value of 'k'", id="unquoted"),
        pytest.param('"never closed', None, id="unterminated-quote"),
        pytest.param('"bad \\q escape"', None, id="quoted-whole-but-invalid"),
        pytest.param(
            "'it''s' fine: yes",
            "; the value of 'k' starts with a quoted string and goes on after it; quote the whole value: k: '''it''''s'' fine: yes'",
            id="doubled-quote",
        ),
    ],
)
def test_quote_hint(raw: str, hint: str | None) -> None:
    assert quote_hint("k", raw) == hint


@settings(max_examples=500, deadline=None)
@given(st.text(max_size=30))
def test_a_suggested_name_has_nothing_left_to_object_to(stem: str) -> None:
    name = safe_name(stem + ".md")
    assert name.endswith(".md") and len(name) > 3 and name_trouble(name) is None


@pytest.mark.parametrize(
    ("key", "meant"),
    [
        ("descripton", "description"),
        ("Description", "description"),
        ("Updated", "updated"),
        ("trigger", "triggers"),
        ("disallowed_tools", "disallowed-tools"),
        # A team's own keys, near by difflib's ratio alone, are no misspellings.
        ("lastReadAt", None),  # of last_used_at: three letters apart
        ("created_at", None),  # of created: a word added
        ("updated_at", None),
    ],
)
def test_a_misspelling_is_a_typo_or_two_away(key: str, meant: str | None) -> None:
    from memcheck.text.frontmatter import near_key

    near = near_key(("name", "description", "type", "last_used_at", "created", "updated", "triggers", "disallowed-tools"))
    assert near(key) == meant


def _slips(a: str, b: str) -> int:
    """Edits from a to b (a character changed, added, dropped, or two neighbours
    swapped), worked out the slow, obvious way."""
    d = [[i + j if i * j == 0 else 0 for j in range(len(b) + 1)] for i in range(len(a) + 1)]
    for i in range(1, len(a) + 1):
        for j in range(1, len(b) + 1):
            d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] != b[j - 1]))
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1)
    return d[len(a)][len(b)]


@st.composite
def _known_and_key(draw: st.DrawFn) -> tuple[str, str]:
    """A known key, and a key typed for it with a few slips (or anything)."""
    known = draw(st.text("abc", min_size=3, max_size=7))
    key = draw(st.text("abcAB_-", max_size=8)) if draw(st.booleans()) else known
    for _ in range(draw(st.integers(0, 2))):
        at = draw(st.integers(0, max(len(key) - 1, 0)))
        kind = draw(st.sampled_from(("change", "add", "drop", "swap", "case")))
        c = draw(st.sampled_from("abc"))
        key = {
            "change": key[:at] + c + key[at + 1 :],
            "add": key[:at] + c + key[at:],
            "drop": key[:at] + key[at + 1 :],
            "swap": key[:at] + key[at + 1 : at + 2] + key[at : at + 1] + key[at + 2 :],
            "case": key[:at] + key[at : at + 1].upper() + "_" + key[at + 1 :],
        }[kind]
    return known, key


@settings(max_examples=500, deadline=None)
@given(_known_and_key())
def test_a_key_is_taken_for_a_known_one_only_a_slip_away(known_and_key: tuple[str, str]) -> None:
    known, key = known_and_key
    normed = key.lower().replace("-", "").replace("_", "")
    assert (misspelt_key((known,))(key) == known) == (_slips(normed, known) <= 1)


@pytest.mark.parametrize(
    ("key", "meant"),
    [
        ("tpye", "type"),
        ("descripton", "description"),
        ("Updated", "updated"),
        ("last-used-at", "last_used_at"),
        ("created_at", None),
        ("lastReadAt", None),
        ("colour", None),
        ("k" * 900_000, None),
    ],
)
def test_misspelt_key(key: str, meant: str | None) -> None:
    assert misspelt_key(("created", "description", "last_used_at", "name", "type", "updated"))(key) == meant
