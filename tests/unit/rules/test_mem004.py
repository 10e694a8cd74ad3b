"""MEM004 frontmatter-not-strict-yaml: frontmatter strict YAML rejects but a line
reading reads; the finding names the value to quote."""

from __future__ import annotations

import pytest
from conftest import example
from memory_rules import MEMORY, findings, lint, with_fields


def test_the_docs_example_is_reported_and_names_the_value_to_quote() -> None:
    (found,) = findings({MEMORY: with_fields(f"name: Deploy\n{example('MEM004')}type: project\n")})
    assert (found.path, found.line, found.code) == (MEMORY, 3, "MEM004")
    assert found.message.startswith("frontmatter is not valid YAML (")


def test_the_docs_use_instead_is_not_reported() -> None:
    assert lint({MEMORY: with_fields(f"name: Deploy\n{example('MEM004', 'Use instead')}type: project\n")}) == []


@pytest.mark.parametrize(
    ("fields", "line"),
    [
        pytest.param("name: [x\ndescription: y\ntype: user\n", 2, id="quote-the-right-value"),
        pytest.param("name: X\ndescription: Deploy: Railway\ntype: user\n", 3, id="needs-quotes"),
    ],
)
def test_the_value_to_quote_is_the_line_reported(fields: str, line: int) -> None:
    assert (MEMORY, line, "MEM004") in lint({MEMORY: with_fields(fields)})


def test_the_fields_are_still_read_from_the_line_reading() -> None:
    # metadata.type counts for type, so the memory has its three fields: MEM004 alone.
    assert lint({MEMORY: "---\nname: Alpha\ndescription: Deploy: Railway\nmetadata:\n  type: project\n---\nBody\n"}) == [
        (MEMORY, 3, "MEM004")
    ]


@pytest.mark.parametrize(
    ("line", "key", "fixed"),
    [
        pytest.param('name: "Deploy" target notes', "name", "name: '\"Deploy\" target notes'", id="double-quoted-start"),
        pytest.param(
            "description: 'fast' reviews: always", "description", "description: '''fast'' reviews: always'", id="single-quoted-start"
        ),
    ],
)
def test_a_quoted_start_followed_by_more_text_says_to_quote_the_whole_value(line: str, key: str, fixed: str) -> None:
    fields = {"name": "name: Deploy", "description": "description: Where we deploy", "type": "type: project"}
    fields[key] = line
    (found,) = findings({MEMORY: with_fields("".join(f"{v}\n" for v in fields.values()))})
    assert (found.line, found.code) == (list(fields).index(key) + 2, "MEM004")
    assert found.message.endswith(
        f"the value of {key!r} starts with a quoted string and goes on after it; quote the whole value: {fixed}"
    ), found.message


def test_an_unquoted_value_gets_the_plain_hint() -> None:
    (found,) = findings({MEMORY: with_fields("name: Deploy\ndescription: Target: Railway\ntype: project\n")})
    assert found.message.endswith("; quote the value of 'description'"), found.message
