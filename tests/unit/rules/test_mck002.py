"""MCK002 unknown-suppression-code: a suppression comment that names no rule."""

from __future__ import annotations

from conftest import example, findings, lint

GUIDANCE = "AGENTS.md"


def test_the_docs_example_misspelt_code_is_reported() -> None:
    files = {GUIDANCE: "# Agents\n\n" + example("MCK002") + "See @docs/style.md.\n", "docs/style.md": "# Style\n"}
    assert lint(files) == [(GUIDANCE, 3, "MCK002")]
    (found,) = findings(files)
    assert found.message.startswith("GND009 in this suppression names no rule")


def test_the_docs_use_instead_corrected_code_is_not_reported_while_it_suppresses() -> None:
    files = {GUIDANCE: "# Agents\n\n" + example("MCK002", "Use instead") + "See @docs/style.md.\n"}
    assert lint(files) == []
