"""GDN019 loads-nothing: an instructions file the agent loads nothing from."""

from __future__ import annotations

import pytest
from conftest import example, findings, lint

STEERING = ".kiro/steering/ts.md"


def test_the_docs_example_filematch_without_a_pattern_is_reported() -> None:
    assert lint({STEERING: example("GDN019")}) == [(STEERING, 1, "GDN019")]  # a missing key is reported on the first line


def test_the_docs_use_instead_is_not_reported() -> None:
    assert lint({STEERING: example("GDN019", "Use instead"), "src/app.ts": "x\n"}) == []


@pytest.mark.parametrize("text", ["", "---\ndescription: Rules\n---\n"], ids=["no-text", "only-frontmatter"])
def test_a_guidance_file_with_no_text(text: str) -> None:
    (found,) = findings({"AGENTS.md": text}, select="GDN019")
    assert (found.path, found.line) == ("AGENTS.md", 1)
    assert found.message.startswith("AGENTS.md holds no text")


def test_an_empty_agents_override_md_is_not_empty_for_nothing() -> None:
    # It still hides its folder's AGENTS.md from Codex.
    assert lint({"AGENTS.md": "# Rules\n", "AGENTS.override.md": ""}, select="GDN019") == []


def test_a_copilot_instructions_file_without_apply_to() -> None:
    assert [
        code
        for _, _, code in lint({".github/instructions/api.instructions.md": "---\ndescription: API\n---\n\nUse REST.\n"}, select="GDN019")
    ] == ["GDN019"]
