"""MEM010 unknown-key: a frontmatter key one slip from a known one (with MEM006 in
keys.py)."""

from __future__ import annotations

import pytest
from conftest import example, memory
from memory_rules import MEMORY, findings, lint, with_fields

BASE = "name: X\ndescription: d\ntype: user\n"


def test_the_docs_example_is_reported() -> None:
    (found,) = findings({MEMORY: with_fields(BASE + example("MEM010"))})
    assert (found.path, found.line, found.code) == (MEMORY, 5, "MEM010")
    assert (
        found.message
        == "frontmatter key 'descripton' looks like a misspelling of 'description': agents match keys exactly, so this setting is ignored; rename it to description"
    )


def test_the_docs_use_instead_the_key_spelt_right_is_not_reported() -> None:
    assert lint({MEMORY: with_fields("name: X\ntype: user\n" + example("MEM010", "Use instead"))}) == []


def test_a_key_the_settings_allow_is_not_reported() -> None:
    assert lint({MEMORY: with_fields(BASE + "descripton: d\n")}, config={"memory": {"allowed-keys": ["descripton"]}}) == []


@pytest.mark.parametrize("key", ["lastReadAt", "created_at", "team"])
def test_a_key_not_near_a_known_one_passes(key: str) -> None:
    assert lint({MEMORY: with_fields(BASE + f"{key}: x\n")}) == []


def test_a_misspelt_key_before_the_real_one_is_reported() -> None:
    assert lint({MEMORY: with_fields("name: X\ndescripton: d\ndescription: d\ntype: user\n")}) == [(MEMORY, 3, "MEM010")]


def test_only_a_key_one_slip_from_a_known_one_is_reported() -> None:
    # Agents ignore keys they do not know, and the tools that write memories add their
    # own (lastReadAt, created_at): only a slip of the keyboard loses a setting.
    extra = "".join(
        f"{key}: x\n" for key in ("tpye", "descripton", "Updated", "lastReadAt", "created_at", "updated_at", "colour", "extra", "lastRead")
    )
    assert [(p.line, p.message) for p in findings({MEMORY: memory("Review", "Concise reviews", "user", extra=extra)})] == [
        (
            line,
            f"frontmatter key {key!r} looks like a misspelling of {meant!r}: agents match keys exactly, so this setting is ignored; rename it to {meant}",
        )
        for line, key, meant in ((5, "tpye", "type"), (6, "descripton", "description"), (7, "Updated", "updated"))
    ]
