"""MCK001 unused-suppression: a suppression comment that suppresses nothing."""

from __future__ import annotations

from conftest import example, findings, lint

GUIDANCE = "AGENTS.md"


def test_the_docs_example_is_reported_once_the_import_it_was_written_for_resolves() -> None:
    # The doc's comment, written for a broken import, after docs/style.md was restored.
    files = {GUIDANCE: "# Agents\n\n" + example("MCK001"), "docs/style.md": "# Style\n"}
    assert lint(files) == [(GUIDANCE, 3, "MCK001")]


def test_the_docs_use_instead_the_line_without_the_comment_is_not_reported() -> None:
    assert lint({GUIDANCE: "# Agents\n\n" + example("MCK001", "Use instead"), "docs/style.md": "# Style\n"}) == []


def test_a_comment_that_still_suppresses_its_finding_is_not_reported() -> None:
    files = {GUIDANCE: "# Agents\n\n" + example("MCK001")}  # docs/style.md missing: GDN009 suppressed
    assert lint(files) == []


def test_the_message_names_the_code_that_suppresses_nothing() -> None:
    files = {GUIDANCE: "# Agents\n\n" + example("MCK001"), "docs/style.md": "# Style\n"}
    (found,) = findings(files)
    assert "GDN009" in found.message
