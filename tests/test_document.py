"""Reading a file once: frontmatter with line numbers, and no traceback on bad input."""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memcheck.document import MAX_BYTES, parse


def test_frontmatter_lines_duplicates_and_body() -> None:
    doc = parse("a.md", b"---\nname: A\ntype: user\ntype: feedback\n---\n\nBody\n")
    fm = doc.frontmatter
    assert fm is not None
    assert fm.key_lines == {"name": 2, "type": 3}
    assert fm.duplicates == (("type", 4),)
    assert fm.data["type"] == "feedback"  # what PyYAML keeps
    assert (doc.body, doc.body_line) == ("\nBody\n", 6)


def test_bom_and_crlf_are_tolerated_and_recorded() -> None:
    doc = parse("a.md", b"\xef\xbb\xbf---\r\nname: A\r\n---\r\nBody\r\n")
    assert (doc.bom, doc.crlf) == (True, True)
    assert doc.frontmatter is not None and doc.frontmatter.data == {"name": "A"}
    assert doc.body == "Body\n"


def test_key_value_fallback_reads_like_the_agents_line_parsers() -> None:
    doc = parse("a.md", b"---\nname: A\ndescription: Deploy: Railway, not Vercel\nmetadata:\n  type: project\n---\n")
    fm = doc.frontmatter
    assert fm is not None and fm.fallback and fm.yaml_error
    assert fm.data == {"name": "A", "description": "Deploy: Railway, not Vercel", "metadata": {"type": "project"}}
    assert fm.display("description") == "Deploy: Railway, not Vercel"


@pytest.mark.parametrize(
    ("raw", "error"),
    [
        pytest.param(b"a\x00b", "binary", id="binary"),
        pytest.param(b"caf\xe9", "not valid UTF-8", id="latin-1"),
        pytest.param(b"x" * (MAX_BYTES + 1), "larger than", id="huge"),
    ],
)
def test_unreadable_content_becomes_an_error_not_an_exception(raw: bytes, error: str) -> None:
    doc = parse("a.md", raw)
    assert doc.error is not None and error in doc.error


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=400) | st.text(max_size=400).map(lambda t: ("---\n" + t + "\n---\n").encode("utf-8", "surrogatepass")))
def test_parse_never_raises(raw: bytes) -> None:
    doc = parse("a.md", raw)
    assert doc.error is not None or isinstance(doc.text, str)
    if doc.frontmatter is not None:
        assert isinstance(doc.frontmatter.data, dict)
