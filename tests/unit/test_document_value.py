"""A Document is a value, as the frozen dataclass it was: equal by its fields, shown
by them, never changed once made; ``replace`` makes another."""

from __future__ import annotations

import pytest

from memcheck.text import document
from memcheck.text.document import Document


def test_equal_by_fields_and_shown_by_them() -> None:
    a = document.parse("a.md", b"---\nname: a\n---\n\nBody.\n")
    assert a == document.parse("a.md", b"---\nname: a\n---\n\nBody.\n")
    assert a != document.parse("b.md", b"---\nname: a\n---\n\nBody.\n") and a != "a.md"
    assert Document("x.md", error="gone") == Document("x.md", error="gone")
    assert repr(Document("x.md", size=3)).startswith("Document(path='x.md', text='', error=None, error_line=1, bom=False,")
    assert hash(Document("x.md")) == hash(Document("x.md"))


def test_the_fast_builder_builds_what_the_constructor_builds() -> None:
    plain = document.parse("n.md", b"Just text.\n")  # built by _document
    assert plain == Document("n.md", text="Just text.\n", size=11, body="Just text.\n", blob=plain.blob)


def test_never_changed_once_made() -> None:
    doc = Document("x.md")
    with pytest.raises(AttributeError):
        doc.size = 4
    with pytest.raises(AttributeError):
        del doc.path


def test_replace_makes_another_with_the_fields_given() -> None:
    doc = document.parse("a.md", b"text\n")
    assert doc.lines == ("text", "")  # worked out and kept on this one
    bigger = document.replace(doc, size=99)
    assert (bigger.size, bigger.text, bigger.blob, doc.size) == (99, "text\n", doc.blob, 5)
    assert "lines" not in vars(bigger) and bigger.lines == ("text", "")
    with pytest.raises(TypeError):
        document.replace(doc, sizes=1)
