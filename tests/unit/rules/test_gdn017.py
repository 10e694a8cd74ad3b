"""GDN017 copilot-review-limit: Copilot code review may read only the first 4,000 characters (opt-in)."""

from __future__ import annotations

from conftest import example, findings, lint

PATH = ".github/copilot-instructions.md"


def _instructions(chars: int) -> str:
    line = "- Prefer small functions with one purpose.\n"
    return "# Instructions\n\n" + line * (chars // len(line)) + "## Review checklist\n\n- Every change has a test.\n"


def _exactly(chars: int, tail: str) -> str:
    """A file of ``chars`` characters that ends in ``tail``."""
    head = "# Instructions\n\n"
    line = "- Prefer small functions with one purpose.\n"
    middle = chars - len(head) - len(tail)
    return head + (line * (middle // len(line) + 1))[: middle - 1] + "\n" + tail


def test_the_docs_example_a_9000_character_file_with_its_checklist_at_the_end_is_reported() -> None:
    # The doc shows the file's `wc -m` and its last lines: such a file is built here.
    count, tail = example("GDN017").split("$ tail -n 3 .github/copilot-instructions.md\n")
    chars, path = count.splitlines()[1].split()
    text = _exactly(int(chars), tail)
    assert (len(text), text.endswith(tail)) == (9_000, True)
    assert findings({path: text}) == []  # off unless selected: the limit is not confirmed today
    (found,) = findings({path: text}, select="GDN017")
    assert (found.path, found.code) == (PATH, "GDN017")
    assert found.message.startswith(
        "Copilot code review read only the first 4,000 characters of this file, as GitHub's documentation said until 2026 "
        "(it no longer says so), and it has 9,000"
    )


def test_the_docs_use_instead_the_checklist_first_in_a_short_file_is_not_reported() -> None:
    assert lint({PATH: example("GDN017", "Use instead"), "docs/style.md": "# Style\n"}, select="GDN017") == []


def test_not_when_review_is_excluded() -> None:
    text = '---\napplyTo: "**"\nexcludeAgent: code-review\n---\n\n' + _instructions(9_000)
    assert lint({".github/instructions/api.instructions.md": text}, select="GDN017") == []


def test_the_finding_names_the_first_line_review_never_sees() -> None:
    (found,) = findings({PATH: "".join(f"Rule {i:03}: " + "x" * 89 + "\n" for i in range(60))}, select="GDN017")
    # lines 1-40 are the first 4,000 characters exactly
    assert found.line == 41 and found.severity == "warning" and "from line 41 on, review may not see it" in found.message


def test_only_a_select_that_names_it_turns_it_on() -> None:
    files = {PATH: _instructions(9_000)}
    assert findings(files, select="GDN") == [] and findings(files, select="ALL") == []
    assert [p.code for p in findings(files, select="GDN,GDN017")] == ["GDN017"]
