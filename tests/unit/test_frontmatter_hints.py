"""The remedies messages give for frontmatter and file names, held to what they promise:
the value a hint says to write reads, in strict YAML, as what the agents' line parsers
read now; the name a rename suggests has nothing left to object to."""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memcheck.paths import name_trouble, safe_name
from memcheck.text import yamlload
from memcheck.text.frontmatter import quote_hint

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
        pytest.param("'it''s' fine: yes", "; the value of 'k' starts with a quoted string and goes on after it; quote the whole value: k: '''it''''s'' fine: yes'", id="doubled-quote"),
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
