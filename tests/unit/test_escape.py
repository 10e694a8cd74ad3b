"""Text from files printed safely: ``escaped`` for a message, ``shown`` for a path,
``json_text`` for a JSON document (problem.py)."""

from __future__ import annotations

import json

import pytest

from memcheck.problem import escaped, json_text, shown

# Every character a terminal or a log viewer acts on, and the start of GitHub's
# older workflow command.
HOSTILE = "".join(map(chr, range(0x20))) + "\x7f" + "".join(map(chr, range(0x80, 0xA0))) + "\u2028\u2029##[error]"


def _raw(text: str) -> list[str]:
    return [ch for ch in text if ord(ch) < 0x20 or 0x7F <= ord(ch) <= 0x9F or ch in "\u2028\u2029"]


def test_escaped_leaves_no_control_character_and_no_old_style_command() -> None:
    out = escaped(HOSTILE)
    assert _raw(out) == [] and "##[" not in out
    assert (
        out.startswith("\\u0000\\u0001")
        and "\\t\\n\\u000b\\f\\r" in out
        and "\\u001b" in out
        and out.endswith("\\u2028\\u2029##\\u005berror]")
    )


@pytest.mark.parametrize(
    "text", ["MEMORY.md is 210 lines, over the 200-line cap", "link 'a b.md' points at a b.md", "naïve — ünïcode 名前"]
)
def test_usual_text_is_printed_as_it_is(text: str) -> None:
    assert escaped(text) is text and shown(text) is text


@pytest.mark.parametrize("path", [HOSTILE, "::error::x.md", " ::warning::x.md", "\u3000::error::x.md", "docs/##[error]x.md", "a\nb.md"])
def test_a_path_that_could_forge_a_line_is_a_json_string_of_itself(path: str) -> None:
    out = shown(path)
    assert out.startswith('"') and _raw(out) == [] and "##[" not in out
    assert json.loads(out) == path


def test_json_text_is_the_same_document_with_nothing_raw() -> None:
    doc = {"message": HOSTILE, "path": "::error::x.md"}
    out = json_text(json.dumps(doc, ensure_ascii=False, indent=2))
    assert _raw(out.replace("\n", "")) == [] and "##[" not in out
    assert json.loads(out) == doc
