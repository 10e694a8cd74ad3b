"""SKL011 duplicate-trigger: two skills an agent sees together share a trigger.

SKL009 and SKL011 share one module (``checks/skills/duplicates.py``): see test_skl009
for which skills an agent sees together.
"""

from __future__ import annotations

from conftest import example, findings, lint


def _skill(name: str, triggers: str) -> str:
    return f"---\nname: {name}\ndescription: Does {name}. Use when asked.\ntriggers: {triggers}\n---\n\nBody.\n"


RUN_TESTS, UNIT = ".claude/skills/run-tests/SKILL.md", ".claude/skills/unit/SKILL.md"


def test_the_docs_example_is_reported_on_the_later_skill() -> None:
    (found,) = findings({RUN_TESTS: example("SKL011"), UNIT: example("SKL011", nth=2)})
    assert (found.path, found.line, found.code, found.severity) == (UNIT, 4, "SKL011", "warning")
    assert found.message == "trigger '/test' is already used by .claude/skills/run-tests/SKILL.md; give each skill its own triggers"


def test_the_docs_use_instead_each_skill_its_own_triggers_is_not_reported() -> None:
    assert lint({RUN_TESTS: example("SKL011"), UNIT: example("SKL011", "Use instead")}) == []


def test_two_skills_triggered_by_the_same_phrase() -> None:
    files = {".claude/skills/run-tests/SKILL.md": _skill("run-tests", "[/test]"), ".claude/skills/unit/SKILL.md": _skill("unit", "[/test]")}
    (found,) = findings(files)
    assert (found.path, found.line, found.code, found.severity) == (".claude/skills/unit/SKILL.md", 4, "SKL011", "warning")
    assert found.message == "trigger '/test' is already used by .claude/skills/run-tests/SKILL.md; give each skill its own triggers"


def test_each_skill_its_own_triggers() -> None:
    files = {".claude/skills/run-tests/SKILL.md": _skill("run-tests", "[/test]"), ".claude/skills/unit/SKILL.md": _skill("unit", "[/unit]")}
    assert lint(files) == []


def test_a_trigger_twice_in_one_list_compared_without_case_and_space() -> None:
    (found,) = findings({".claude/skills/s/SKILL.md": _skill("s", "[a, A ]")})
    assert (found.code, found.message) == (
        "SKL011",
        "trigger 'A' is already used earlier in the same list; give each skill its own triggers",
    )


def test_a_skill_below_sees_the_triggers_of_the_skills_above_it() -> None:
    files = {".claude/skills/deploy/SKILL.md": _skill("deploy", "[/ship]"), "pkg/.claude/skills/ship/SKILL.md": _skill("ship", "[/ship]")}
    assert lint(files) == [("pkg/.claude/skills/ship/SKILL.md", 4, "SKL011")]


def test_the_same_trigger_in_folders_different_agents_load_is_no_clash() -> None:
    files = {".agents/skills/deploy/SKILL.md": _skill("deploy", "[/ship]"), ".claude/skills/ship/SKILL.md": _skill("ship", "[/ship]")}
    assert lint(files) == []


def test_a_skill_told_it_shares_a_name_is_not_told_its_shared_triggers_too() -> None:
    # A stale copy in another folder: SKL009 tells the name once, and the three triggers
    # the copy shares were judged noise beside it (an unseen repository).
    copy = _skill("open-browser", "[launch chromium, open the browser, show me the browser]")
    files = {".claude/skills/connect-chrome/SKILL.md": copy, ".claude/skills/open-browser/SKILL.md": copy}
    assert [f[2] for f in lint(files) if f[2] in ("SKL009", "SKL011")] == ["SKL009"]
    # A third skill of its own name that shares a trigger is still told.
    files[".claude/skills/other/SKILL.md"] = _skill("other", "[open the browser]")
    assert sorted(f[2] for f in lint(files) if f[2] in ("SKL009", "SKL011")) == ["SKL009", "SKL011"]


def test_with_skl009_off_the_shared_trigger_is_told() -> None:
    # An outside attack: with SKL009 turned off, the trigger two skills of one name
    # share was told nowhere.
    copy = _skill("open-browser", "[/ship]")
    files = {".claude/skills/connect-chrome/SKILL.md": copy, ".claude/skills/open-browser/SKILL.md": copy}
    assert [f[2] for f in lint(files, config={"ignore": ["SKL009", "SKL005"]})] == ["SKL011"]
