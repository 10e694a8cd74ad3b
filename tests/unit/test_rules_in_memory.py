"""Rules on files held in memory, as yamllint's rule tests run: a table of trees, each
with the findings it must give, read through ``MemorySource`` (no disk, no git, no
process). Each tree is also written to disk and checked there: the in-memory source
the editor server and these tests read through must see what the disk does."""

from __future__ import annotations

import functools
from pathlib import Path

import pytest
from conftest import lint, memory
from hypothesis import example, given
from hypothesis import strategies as st

from memcheck import config

STORE = ".claude/memory"
INDEX = f"{STORE}/MEMORY.md"
LISTED = "# Memory\n\n## User\n- [Review](review.md) - Concise reviews\n"
REVIEW = memory("Review", "Concise reviews", "user")

CASES = [
    pytest.param({INDEX: LISTED, f"{STORE}/review.md": REVIEW}, "MEM,IDX", [], id="clean-store"),
    pytest.param(
        {INDEX: LISTED, f"{STORE}/review.md": "# Review\nNo frontmatter.\n"},
        "MEM",
        [(f"{STORE}/review.md", 1, "MEM002")],
        id="MEM002-no-frontmatter",
    ),
    pytest.param(
        {INDEX: LISTED, f"{STORE}/review.md": "---\nname: Review\ndescription: Concise reviews\n---\nBody.\n"},
        "MEM006",
        [(f"{STORE}/review.md", 1, "MEM006")],
        id="MEM006-no-type",
    ),
    pytest.param(
        {INDEX: LISTED, f"{STORE}/review.md": memory("Review", "Concise reviews", "mood")},
        "MEM007",
        [(f"{STORE}/review.md", 4, "MEM007")],
        id="MEM007-unknown-type",
    ),
    pytest.param(
        {INDEX: LISTED + "- [Gone](gone.md) - Deleted\n", f"{STORE}/review.md": REVIEW},
        "IDX002",
        [(INDEX, 5, "IDX002")],
        id="IDX002-dead-entry",
    ),
    pytest.param(
        {INDEX: LISTED, f"{STORE}/review.md": REVIEW, f"{STORE}/style.md": memory("Style", "House style", "feedback")},
        "IDX003",
        [(INDEX, 4, "IDX003")],
        id="IDX003-unlisted",
    ),
    pytest.param(
        {"AGENTS.md": "# Guide\n\nSee @docs/missing.md first.\n"}, "GDN009", [("AGENTS.md", 3, "GDN009")], id="GDN009-missing-import"
    ),
    pytest.param(
        {"AGENTS.md": "# Guide\n\nSee [the style](docs/style.md).\n", "docs/style.md": "# Style\n"}, "GDN013", [], id="GDN013-link-found"
    ),
    pytest.param(
        {".claude/skills/deploy/SKILL.md": "---\nname: Deploy_It\ndescription: Deploys. Use when shipping.\n---\nBody.\n"},
        "SKL004",
        [(".claude/skills/deploy/SKILL.md", 2, "SKL004")],
        id="SKL004-bad-name",
    ),
    pytest.param(
        {
            INDEX: LISTED,
            f"{STORE}/review.md": memory("Review", "Concise reviews", "user", body="token ghp_" + "a1B2c3D4e5F6g7H8i9J0" * 2 + "\n"),
        },
        "SEC",
        [(f"{STORE}/review.md", 7, "SEC002")],
        id="SEC002-token",
    ),
]


@pytest.mark.parametrize(("files", "select", "expected"), CASES)
def test_rule_in_memory(files: dict[str, str], select: str, expected: list[tuple[str, int, str]]) -> None:
    assert lint(files, select) == expected


@pytest.mark.parametrize(("files", "select", "expected"), CASES)
def test_the_disk_gives_the_same_findings(files: dict[str, str], select: str, expected: list[tuple[str, int, str]], tmp_path: Path) -> None:
    assert lint(files, select, root=tmp_path) == lint(files, select)


_KEYS = st.sampled_from(["name", "description", "type", "agent_name", "created", "metadata", "descripton", "lastReadAt"])
_VALUES = st.one_of(
    st.none(),
    st.sampled_from(["", "  ", "user", "feedback", "weird", "two\nlines", "ok text", " x "]),
    st.integers(),
    st.dictionaries(st.just("type"), st.just("user")),
)


@functools.cache
def _memory_config() -> config.MemoryConfig:
    return config.default_config(Path("/nowhere")).memory


_TEXT = st.sampled_from(["ok text", " x ", "", "  ", "two\nlines", "line\n"])


@given(
    st.fixed_dictionaries(
        {}, optional={"name": _TEXT, "description": _TEXT, "type": st.sampled_from(["user", "feedback", "weird", ""])}
    ).flatmap(lambda fields: st.dictionaries(_KEYS, _VALUES, max_size=3).map(lambda more: {**more, **fields})),
)
@example({"name": "ok text", "description": "ok text", "type": "user"})
def test_fields_told_usual_have_no_field_finding(data: dict[str, object]) -> None:
    # The MEM rules skip their questions on fields that usual_memory_fields passes: none
    # of those questions may have an answer there.
    from memcheck.checks.memory import keys, multiline_description, unknown_type, wrong_value_type
    from memcheck.checks.memory.facts import FieldFacts, memory_type
    from memcheck.text.frontmatter import usual_memory_fields
    from memcheck.text.frontmatter_reading import Frontmatter

    cfg = _memory_config()
    allowed = frozenset({"name", "description", "type", "created", "updated", "agent_name", *cfg.allowed_keys, *cfg.required})
    fm = Frontmatter(
        end_line=2 + len(data), data=data, key_lines={k: 2 + i for i, k in enumerate(data)}, raw_values={k: str(v) for k, v in data.items()}
    )
    if usual_memory_fields(fm, cfg.required, cfg.types, allowed):
        assert allowed.issuperset(data)
        f = FieldFacts("m.md", fm, data, cfg, allowed, memory_type(data), False, [])
        assert [p for rule in (keys, unknown_type, wrong_value_type, multiline_description) for p in rule.check(f)] == []
