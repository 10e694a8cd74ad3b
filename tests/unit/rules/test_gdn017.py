"""GDN017 copilot-review-limit: Copilot code review reads only the first 4,000 characters."""
from __future__ import annotations

from conftest import findings, lint

PATH = ".github/copilot-instructions.md"


def _instructions(chars: int) -> str:
    line = "- Prefer small functions with one purpose.\n"
    return "# Instructions\n\n" + line * (chars // len(line)) + "## Review checklist\n\n- Every change has a test.\n"


def test_the_docs_example_a_9000_character_file_is_reported() -> None:
    # The doc's Example is prose: a 9,000-character copilot-instructions.md whose review checklist is at the end.
    (found,) = findings({PATH: _instructions(9_000)}, select="GDN017")
    assert found.path == PATH
    assert found.message.startswith("Copilot code review reads only the first 4,000 characters of this file")


def test_the_docs_use_instead_a_short_file_passes() -> None:
    assert lint({PATH: _instructions(2_000)}, select="GDN017") == []


def test_not_when_review_is_excluded() -> None:
    text = '---\napplyTo: "**"\nexcludeAgent: code-review\n---\n\n' + _instructions(9_000)
    assert lint({".github/instructions/api.instructions.md": text}, select="GDN017") == []


def test_the_finding_names_the_first_line_review_never_sees() -> None:
    (found,) = findings({PATH: "".join(f"Rule {i:03}: " + "x" * 89 + "\n" for i in range(60))}, select="GDN017")
    # lines 1-40 are the first 4,000 characters exactly
    assert found.line == 41 and found.severity == "warning" and "from line 41 on, review never sees it" in found.message
