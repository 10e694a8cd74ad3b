"""GDN026 ignored-frontmatter-key: a rule key its agent is not documented to read."""

from __future__ import annotations

import pytest
from conftest import example, findings, lint, with_frontmatter

RULE = ".claude/rules/api.md"


def rule(keys: str) -> str:
    return with_frontmatter(keys, "Validate every request.\n")


def test_the_docs_example_is_reported() -> None:
    files = {RULE: rule(example("GDN026")), "src/api/x.ts": "x\n"}
    assert lint(files, select="GDN") == [(RULE, 2, "GDN026")]
    assert findings(files, select="GDN")[0].message == (
        "frontmatter key 'globs' is not among the keys documented for a Claude Code rule file (paths), so its agent is not "
        "known to read it; write the patterns under paths, the key that scopes this file"
    )


def test_the_docs_use_instead_is_not_reported() -> None:
    assert lint({RULE: rule(example("GDN026", "Use instead")), "src/api/x.ts": "x\n"}, select="GDN") == []


@pytest.mark.parametrize(
    ("path", "keys", "reported"),
    [
        pytest.param(".cursor/rules/a.mdc", "description: x\npriority: 1\n", True, id="cursor-priority"),
        pytest.param(".cursor/rules/a.mdc", "description: x\nalwaysApply: false\n", False, id="cursor-keys"),
        pytest.param(".github/instructions/a.instructions.md", "applyTo: '**'\nname: A\ndescription: x\n", False, id="copilot-vscode-keys"),
        pytest.param(".github/instructions/a.instructions.md", "applyTo: '**'\nmode: agent\n", True, id="copilot-mode"),
        pytest.param("AGENTS.md", "owner: me\n", False, id="agents-md-schema-is-not-closed"),
    ],
)
def test_closed_schemas_only(path: str, keys: str, reported: bool) -> None:
    assert bool(lint({path: rule(keys)}, select="GDN026")) is reported


def test_a_misspelling_is_gdn006s_and_an_allowed_key_nobodys() -> None:
    files = {".cursor/rules/a.mdc": rule("description: x\nalwaysapply: true\nowner: me\n")}
    assert lint(files, select="GDN006,GDN026") == [(".cursor/rules/a.mdc", 3, "GDN006"), (".cursor/rules/a.mdc", 4, "GDN026")]
    assert lint(files, select="GDN026", config={"guidance": {"allowed-keys": ["owner"]}}) == []


def test_another_agents_globs_key_beside_this_agents_own_is_that_agents() -> None:
    # A rule shared with Copilot's instructions by a link often carries both keys:
    # paths scopes it for Claude Code, applyTo for Copilot, and neither is ignored.
    files = {".claude/rules/cs.md": rule('applyTo: "**/*.cs"\npaths:\n  - "**/*.cs"\n'), "a.cs": "x\n"}
    assert lint(files, select="GDN026") == []


def test_another_agents_everywhere_pattern_means_what_no_scope_means() -> None:
    # applyTo "**/*" with no paths: Claude Code loads the rule at launch, as the
    # pattern says; a pattern narrower than every file is what GDN026 is for.
    assert lint({".claude/rules/all.md": rule('applyTo: "**/*"\n')}, select="GDN026") == []
    assert lint({".claude/rules/all.md": rule('applyTo: "src/**, **"\n')}, select="GDN026") == []
    files = {".claude/rules/cs.md": rule('applyTo: "**/*.cs"\n'), "a.cs": "x\n"}
    (found,) = findings(files, select="GDN026")
    assert found.message.endswith("write the patterns under paths, the key that scopes this file")


def test_the_other_agents_keys_ride_with_its_scoping_key() -> None:
    # description is Copilot's (and VS Code's) beside applyTo; alone, in a Claude Code
    # rule, nothing reads it.
    shared = {".claude/rules/a.md": rule('applyTo: "**/*"\ndescription: How we write C#\n')}
    assert lint(shared, select="GDN026") == []
    alone = {".claude/rules/a.md": rule("description: How we write C#\n")}
    assert lint(alone, select="GDN026") == [(".claude/rules/a.md", 2, "GDN026")]
    # Only that agent's keys: a key no agent documents is still reported.
    assert lint({".claude/rules/a.md": rule('applyTo: "**/*"\npriority: 1\n')}, select="GDN026") == [(".claude/rules/a.md", 3, "GDN026")]


def test_a_cline_rule_takes_paths_alone() -> None:
    files = {".clinerules/api.md": rule('paths: ["src/**"]\npriority: high\n'), "src/a.ts": "x\n"}
    (found,) = findings(files, select="GDN026")
    assert (found.path, found.line) == (".clinerules/api.md", 3)
    assert "not among the keys documented for a Cline rule file (paths)" in found.message


def test_a_key_the_teams_rules_carry_by_convention_is_theirs() -> None:
    # version: in three of the team's Cursor rules is read by their installer; in
    # one or two it may be a slip, and is reported.
    rules = {f".cursor/rules/r{n}.mdc": rule("description: x\nversion: 1.0.0\n") for n in range(3)}
    assert lint(rules, select="GDN026") == []
    two = dict(list(rules.items())[:2])
    assert lint(two, select="GDN026") == [(".cursor/rules/r0.mdc", 3, "GDN026"), (".cursor/rules/r1.mdc", 3, "GDN026")]
    # Per kind: three Claude Code rules with the key do not make it a Cursor rule's.
    claude = {f".claude/rules/r{n}.md": rule("version: 1\n") for n in range(3)}
    assert lint({**claude, ".cursor/rules/a.mdc": rule("description: x\nversion: 1\n")}, select="GDN026") == [
        (".cursor/rules/a.mdc", 3, "GDN026")
    ]
    # Another agent's scoping key is judged file by file, however many carry it.
    globs = {f".claude/rules/g{n}.md": rule('globs: ["src/**"]\n') for n in range(3)}
    assert len(lint({**globs, "src/a.ts": "x\n"}, select="GDN026")) == 3


def test_a_description_beside_the_rules_own_scope_is_a_summary() -> None:
    # A Claude Code rule scoped by paths with a one-line description above it (judged
    # unwanted on an unseen repository: removing it changes nothing for the agent).
    scoped = rule('description: Runtime ingest paths must update the digests\npaths:\n  - "internal/ingest/**"\n')
    assert lint({".claude/rules/digests.md": scoped, "internal/ingest/a.go": "x\n"}, select="GDN026") == []
    # Without paths the description cannot be a scope's summary: in a Cursor rule it is
    # what decides when the rule applies, and Claude Code does no such thing with it.
    unscoped = rule("description: Apply when editing the ingest code\n")
    assert lint({".claude/rules/digests.md": unscoped}, select="GDN026") == [(".claude/rules/digests.md", 2, "GDN026")]
    # Only the summary rides with the scope: another unread key beside paths is reported.
    files = {".claude/rules/digests.md": rule('paths:\n  - "internal/**"\npriority: 1\n'), "internal/a.go": "x\n"}
    assert lint(files, select="GDN026") == [(".claude/rules/digests.md", 4, "GDN026")]


@pytest.mark.parametrize("paths", ["paths: []\n", "paths:\n", 'paths: ""\n'])
def test_a_description_beside_paths_that_name_no_pattern_is_still_reported(paths: str) -> None:
    # An outside attack's recipe: an empty `paths` scopes nothing, so the description is
    # what the author expects to choose when the rule applies, and Claude Code does not read it.
    files = {".claude/rules/api.md": rule(f"description: Use when editing the API\n{paths}")}
    assert [f[2] for f in lint(files, select="GDN026")] == ["GDN026"]
