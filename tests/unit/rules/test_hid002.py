"""HID002 bidi-control: a bidi control reorders how a line displays."""

from __future__ import annotations

from conftest import findings, lint


def test_the_docs_example_a_right_to_left_override_behind_never_push_to_main_is_reported() -> None:
    # The doc's Example is prose: a line that displays as "Never push to main" while
    # its characters say something else behind a RIGHT-TO-LEFT OVERRIDE.
    (found,) = findings({"AGENTS.md": "# Guide\n\nNever push to \u202eniam\n"}, select="HID")
    assert (found.line, found.col, found.code) == (3, 15, "HID002")
    assert found.message == (
        "1 bidi control character on the line; U+202E RIGHT-TO-LEFT OVERRIDE reverses the text after it, "
        "so the line displays in another order than an agent reads it; delete them"
    )
    assert "\u202e" not in found.message


def test_the_docs_use_instead_an_isolate_that_closes_on_its_line_is_not_reported() -> None:
    assert lint({"AGENTS.md": "# Guide\n\nGreet with \u2067\u0645\u0631\u062d\u0628\u0627\u2069 in Arabic.\n"}, "HID") == []


def test_an_isolate_left_open_is_reported() -> None:
    assert lint({"AGENTS.md": "# Guide\n\nSay \u2067مرحبا to users\n"}, "HID") == [("AGENTS.md", 3, "HID002")]


def test_right_to_left_text_with_a_mark_after_it_is_not_reported() -> None:
    assert lint({"AGENTS.md": "# Guide\n\n\u05e9\u05dc\u05d5\u05dd\u200f, with a mark after it.\n"}, "HID") == []
