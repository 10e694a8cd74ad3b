"""bench/conformance.py: where each peer's case is laid out, what counts as agreement, and
how a Python peer's own tests are recorded. The peers' files are not used here: the
recording runs on a stand-in peer this test writes, and memcheck on cases written here."""

from __future__ import annotations

import sys
import textwrap
from pathlib import Path

import pytest
from conftest import REPO_ROOT, load_script

conformance = load_script(REPO_ROOT / "bench" / "conformance.py")

SKILL = b"---\nname: good-skill\ndescription: Use when testing the conformance run.\n---\nDo the thing.\n"


def test_a_fixture_under_an_agent_folder_keeps_its_path_from_that_folder_on() -> None:
    assert conformance.place("cursor-invalid/.cursor/rules/bad-glob.mdc", b"") == ".cursor/rules/bad-glob.mdc"
    assert conformance.place("copilot/.github/agents/reviewer.agent.md", b"") == ".github/agents/reviewer.agent.md"
    assert conformance.place("invalid/agents/missing-name.md", b"") == ".claude/agents/missing-name.md"


def test_a_skill_folder_is_named_after_the_skills_own_name_where_that_is_a_valid_one() -> None:
    assert conformance.place("invalid/skills/some-folder/SKILL.md", SKILL) == ".claude/skills/good-skill/SKILL.md"
    bad = b"---\nname: invalid_name\n---\n"
    assert conformance.place("invalid/skills/invalid-name/SKILL.md", bad) == ".claude/skills/invalid-name/SKILL.md"
    # The fixture about a folder that differs from the name keeps its folder.
    mismatch = "invalid/skills/name-directory-mismatch/SKILL.md"
    assert conformance.place(mismatch, b"---\nname: directory-helper\n---\n") == ".claude/skills/name-directory-mismatch/SKILL.md"


def test_every_listed_fixture_has_a_place_and_every_justified_case_is_listed() -> None:
    listed = {fixture for cases in conformance.CASES.values() for fixture, _ in cases}
    for fixture in listed:
        assert conformance.place(fixture, SKILL)
    assert set(conformance.CASES) <= set(conformance.KINDS)
    # A justification names an agnix fixture listed here, or a reference validator's test.
    assert all(name in listed or name.startswith("tests/test_") for name in conformance.JUSTIFIED)


def case(expect: str, *found: tuple[str, str]) -> object:
    return conformance.Case("skills", "agnix", "x", {}, expect, [{"code": c, "severity": s, "message": "m"} for c, s in found])


def test_an_error_or_a_warning_makes_a_case_invalid_and_info_or_a_scratch_tree_finding_does_not() -> None:
    assert case("AS-001", ("SKL002", "error")).agrees
    assert case("AS-001", ("SKL010", "warning")).agrees
    assert not case("AS-001", ("SKL010", "info")).agrees
    assert not case("AS-001").agrees
    assert case(conformance.VALID).agrees
    assert case(conformance.VALID, ("SKL010", "info")).agrees
    assert case(conformance.VALID, ("GDN008", "warning")).agrees  # a glob that matches nothing of the scratch project
    assert not case(conformance.VALID, ("SKL005", "error")).agrees


def test_a_justified_disagreement_counts_as_agreement_and_is_listed_with_its_reason(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(conformance, "JUSTIFIED", {"lower": "agents load SKILL.md by exact name"})
    agree = case(conformance.VALID)
    lower = conformance.Case(
        "skills", "agentskills", "lower", {}, conformance.VALID, [{"code": "SKL016", "severity": "warning", "message": "m"}]
    )
    missed = conformance.Case("skills", "agnix", "missed", {}, "AS-014")
    out = conformance.report([agree, lower, missed], {"agnix": "abc 2026-01-01"}, "memcheck 0")
    assert "skills                   3     1         1      1       67%" in out
    assert "- [justified] agentskills: lower" in out and "why memcheck is right: agents load SKILL.md by exact name" in out
    assert "- [DIFFERS] agnix: missed" in out and "peer: invalid (AS-014)" in out
    assert "agnix at abc 2026-01-01" in out


def write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text), encoding="utf-8")


def test_a_python_peers_own_tests_are_recorded_with_the_verdicts_its_validator_gives(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The stand-in's tests need pytest alone: the plugins installed beside memcheck's own
    # tests (pytest-xdist, hypothesis, pytest-asyncio, pytest-lsp) are not loaded into its run.
    monkeypatch.setitem(conformance.ENV, "PYTEST_DISABLE_PLUGIN_AUTOLOAD", "1")
    # A stand-in for the reference validator: the same module names and entry points.
    package = tmp_path / "skills-ref"
    write(package / "src" / "skills_ref" / "__init__.py", "")
    write(
        package / "src" / "skills_ref" / "parser.py",
        """
        from pathlib import Path

        def parse_frontmatter(content):
            if not content.startswith("---"):
                raise ValueError("must start with frontmatter")
            return {}, content

        def read_properties(skill_dir):
            return parse_frontmatter((Path(skill_dir) / "SKILL.md").read_text())
        """,
    )
    write(
        package / "src" / "skills_ref" / "validator.py",
        """
        from pathlib import Path
        from skills_ref.parser import read_properties

        def validate(skill_dir):
            read_properties(skill_dir)  # a nested call: not a case of its own
            text = (Path(skill_dir) / "SKILL.md").read_text()
            return [] if "name: " + Path(skill_dir).name in text else ["name must match the folder"]
        """,
    )
    write(
        package / "tests" / "test_stand_in.py",
        """
        import pytest
        from skills_ref.parser import parse_frontmatter
        from skills_ref.validator import validate

        def test_good_and_bad(tmp_path):
            for folder, name in (("my-skill", "my-skill"), ("wrong", "other")):
                (tmp_path / folder).mkdir()
                (tmp_path / folder / "SKILL.md").write_text("---\\nname: " + name + "\\n---\\nBody\\n")
            assert validate(tmp_path / "my-skill") == []
            assert validate(tmp_path / "wrong") != []

        def test_no_frontmatter():
            with pytest.raises(ValueError):
                parse_frontmatter("# no frontmatter")
        """,
    )
    cases = conformance.agentskills_cases(tmp_path, sys.executable)
    seen = {c.name: (c.expect, sorted(c.files)) for c in cases}
    assert seen == {
        "tests/test_stand_in.py::test_good_and_bad": (conformance.VALID, [".agents/skills/my-skill/SKILL.md"]),
        "tests/test_stand_in.py::test_good_and_bad#2": ("name must match the folder", [".agents/skills/wrong/SKILL.md"]),
        "tests/test_stand_in.py::test_no_frontmatter": ("ValueError: must start with frontmatter", [".agents/skills/my-skill/SKILL.md"]),
    }


def test_memcheck_runs_on_each_case_in_a_scratch_repository_of_its_own() -> None:
    memcheck = [sys.executable, "-m", "memcheck"]
    good = conformance.Case("skills", "agnix", "good", {".claude/skills/good-skill/SKILL.md": SKILL}, conformance.VALID)
    bare = conformance.Case("skills", "agnix", "bare", {".claude/skills/bare/SKILL.md": b"No frontmatter here.\n"}, "AS-001")
    for each in (good, bare):
        conformance.run_memcheck(memcheck, each)
    assert good.found == [] and good.agrees
    assert [p["code"] for p in bare.flagged] == ["SKL002"] and bare.agrees


def test_a_fixture_of_a_kind_in_scope_that_no_case_lists_is_named_not_left_out(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    fixtures = tmp_path / "tests" / "fixtures"
    write(fixtures / "cursor" / ".cursor" / "rules" / "listed.mdc", "---\ndescription: d\n---\nBody\n")
    write(fixtures / "cursor" / ".cursor" / "rules" / "new.mdc", "---\ndescription: d\n---\nBody\n")
    write(fixtures / "hooks" / "settings.json", "{}")  # not a kind in scope
    monkeypatch.setattr(
        conformance,
        "CASES",
        {"rules frontmatter": [("cursor/.cursor/rules/listed.mdc", conformance.VALID), ("gone/.cursor/rules/old.mdc", "CUR-001")]},
    )
    monkeypatch.setattr(conformance, "INLINE", [("imports and links", "crates/x/tests/cli.rs", "test_gone", "CLAUDE.md", "REF-002")])
    cases, unmatched = conformance.agnix_cases(tmp_path)
    assert [(c.name, sorted(c.files)) for c in cases if c.peer == "agnix" and c.kind == "rules frontmatter"] == [
        ("cursor/.cursor/rules/listed.mdc", [".cursor/rules/listed.mdc"])
    ]
    assert unmatched == [
        "gone/.cursor/rules/old.mdc (listed, not in this clone)",
        "cursor/.cursor/rules/new.mdc (in this clone, not listed)",
        "cli.rs::test_gone (listed, not in this clone)",
    ]


def test_the_text_a_rust_test_writes_inline_is_read_from_the_test_itself() -> None:
    source = textwrap.dedent(
        """
        fn test_other() {
            std::fs::write(&p, "not this").unwrap();
        }

        fn test_writes_claude_md() {
            let temp = tempfile::TempDir::new().unwrap();
            std::fs::write(
                &claude_path,
                "# Title\\n\\nSee [a \\"quoted\\" guide](gone.md).\\n",
            )
            .unwrap();
        }
        """
    )
    assert conformance.inline_text(source, "test_writes_claude_md") == b'# Title\n\nSee [a "quoted" guide](gone.md).\n'
    assert conformance.inline_text(source, "test_missing") is None
