"""The agent files modelled from the agent data (resources/agents/*.toml): Copilot path
instructions, Kiro steering, Cline rules, and the values of Claude Code's skill keys,
and the data itself. Each case is a tree held in memory and the findings it must give
(as tests/unit/test_rules_in_memory.py runs). What the AGT rules make of subagents,
custom agents and prompt files: tests/unit/rules/test_agt00*.py."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import lint
from hypothesis import given
from hypothesis import strategies as st

from memcheck import config
from memcheck.agents import kinds as agentkinds
from memcheck.engine.collect import collect
from memcheck.engine.targets import targets_for
from memcheck.problem import Problem
from memcheck.workspace.discover import Workspace
from memcheck.workspace.memory import MemorySource

SKILLS = ".claude/skills"


def skill(name: str, extra: str = "", description: str = "Runs the tests.") -> str:
    return f"---\nname: {name}\ndescription: {description}\n{extra}---\nBody.\n"


CASES = [
    pytest.param(
        {".github/instructions/ts.instructions.md": "Use strict mode.\n"},
        "GDN019",
        [(".github/instructions/ts.instructions.md", 1, "GDN019")],
        id="copilot-instructions-without-applyTo",
    ),
    pytest.param(
        {".github/instructions/ts.instructions.md": "---\napplyTo: '**/*.md'\n---\nUse strict mode.\n"},
        "GDN019",
        [],
        id="copilot-instructions-with-applyTo",
    ),
    # Kiro steering
    pytest.param(
        {".kiro/steering/ts.md": "---\ninclusion: fileMatch\n---\nUse strict mode.\n"},
        "GDN",
        [(".kiro/steering/ts.md", 1, "GDN019")],
        id="kiro-fileMatch-without-pattern",
    ),
    pytest.param(
        {".kiro/steering/ts.md": "---\ninclusion: fileMatch\nfileMatchPattern: '**/*.md'\n---\nUse strict mode.\n"},
        "GDN",
        [],
        id="kiro-fileMatch-with-pattern",
    ),
    pytest.param(
        {".kiro/steering/ts.md": "---\ninclusion: sometimes\n---\nx\n"},
        "GDN",
        [(".kiro/steering/ts.md", 2, "GDN005")],
        id="kiro-unknown-inclusion",
    ),
    pytest.param({".kiro/steering/ts.md": "---\ninclusion: auto\n---\nx\n"}, "GDN", [], id="kiro-auto-unconfirmed-says-nothing"),
    pytest.param(
        {".kiro/steering/ts.md": "---\ninclusion: always\n---\n"},
        "GDN",
        [(".kiro/steering/ts.md", 1, "GDN019")],
        id="kiro-only-frontmatter",
    ),
    # Cline
    pytest.param(
        {".clinerules/r.md": "---\npaths:\n  - 'nothere/**'\n---\nRule.\n", "src/a.py": "x\n"},
        "GDN",
        [(".clinerules/r.md", 2, "GDN008")],
        id="cline-dead-path",
    ),
    pytest.param({".clinerules/r.md": "---\npaths:\n  - 'src/**'\n---\nRule.\n", "src/a.py": "x\n"}, "GDN", [], id="cline-live-path"),
    pytest.param(
        {".cline/rules/r.md": "---\npaths: src/**\n---\nRule.\n", "src/a.py": "x\n"},
        "GDN",
        [(".cline/rules/r.md", 2, "GDN005")],
        id="cline-paths-not-a-list",
    ),
    pytest.param(
        {".clinerules/r.md": "---\npaths: [src/**\n---\nRule.\n"},
        "GDN004",
        [(".clinerules/r.md", 2, "GDN004")],
        id="cline-unparsable-fails-open",
    ),
    pytest.param({".clinerules": ""}, "GDN", [(".clinerules", 1, "GDN019")], id="cline-empty-rules-file"),
    # Empty guidance
    pytest.param({"AGENTS.md": "\n\n"}, "GDN019", [("AGENTS.md", 1, "GDN019")], id="empty-agents-md"),
    # Skills: Claude Code's keys and values
    pytest.param(
        {
            f"{SKILLS}/run-tests/SKILL.md": skill(
                "run-tests",
                "display-name: Run tests\ndefault-enabled: yes\nfallback: manual\nuser-invocable: 'on'\ndisable-model-invocation: 0\nmetadata:\n  ownerTeam: qa\n  owner_team: qa\n",
            )
        },
        "SKL",
        [],
        id="skill-newer-keys-and-boolean-words",
    ),
    pytest.param(
        {f"{SKILLS}/t/SKILL.md": skill("t", 'disable-model-invocation: "true"\n')},
        "SKL",
        [(f"{SKILLS}/t/SKILL.md", 4, "SKL007")],
        id="skill-boolean-as-string",
    ),
    pytest.param(
        {f"{SKILLS}/t/SKILL.md": skill("t", "model: gpt-4\n")}, "SKL", [(f"{SKILLS}/t/SKILL.md", 4, "SKL007")], id="skill-unknown-model"
    ),
    pytest.param(
        {f"{SKILLS}/t/SKILL.md": skill("t", "context: spawn\n")}, "SKL", [(f"{SKILLS}/t/SKILL.md", 4, "SKL007")], id="skill-unknown-context"
    ),
    pytest.param(
        {f"{SKILLS}/t/SKILL.md": skill("t", "context: fork\nagent: Bad Agent\n")},
        "SKL",
        [(f"{SKILLS}/t/SKILL.md", 5, "SKL007")],
        id="skill-bad-agent",
    ),
    pytest.param(
        {f"{SKILLS}/t/SKILL.md": skill("t", "hooks: [PreToolUse]\n")},
        "SKL",
        [(f"{SKILLS}/t/SKILL.md", 4, "SKL007")],
        id="skill-hooks-not-a-mapping",
    ),
    pytest.param(
        {f"{SKILLS}/t/SKILL.md": skill("t", "allowed-tools: Read Grepp Bash(git add:*)\n")},
        "SKL",
        [(f"{SKILLS}/t/SKILL.md", 4, "SKL014")],
        id="skill-unknown-tool",
    ),
    pytest.param(
        {f"{SKILLS}/claude-helper/SKILL.md": skill("claude-helper")},
        "SKL,SKL015",
        [(f"{SKILLS}/claude-helper/SKILL.md", 2, "SKL015")],
        id="skill-reserved-word",
    ),
    pytest.param(
        {f"{SKILLS}/t/SKILL.md": skill("t", description="Use <example> blocks.")},
        "SKL,SKL015",
        [(f"{SKILLS}/t/SKILL.md", 3, "SKL015")],
        id="skill-xml-in-description",
    ),
    pytest.param(
        {f"{SKILLS}/t/SKILL.md": "---\nname: t\ndescription: Deploy: now\n---\nBody.\n"},
        "SKL003",
        [(f"{SKILLS}/t/SKILL.md", 3, "SKL003")],
        id="skill-yaml-error",
    ),
    pytest.param(
        {".agents/skills/t/SKILL.md": "---\nname: t\ndescription: Deploy: now\n---\nBody.\n"},
        "SKL003",
        [(".agents/skills/t/SKILL.md", 3, "SKL003")],
        id="agents-skill-yaml-error",
    ),
    pytest.param(
        {".agents/skills/t/SKILL.md": skill("t", description="Use for <X> files.")}, "SKL015", [], id="agents-skill-not-for-claude-upload"
    ),
    pytest.param(
        {f"{SKILLS}/deploy/skill.md": skill("deploy")}, "SKL016", [(f"{SKILLS}/deploy/skill.md", 1, "SKL016")], id="skill-lowercase-file"
    ),
    pytest.param(
        {f"{SKILLS}/deploy/notes.md": "# Notes\n"},
        "SKL016",
        [(f"{SKILLS}/deploy/notes.md", 1, "SKL016")],
        id="skill-folder-without-skill-md",
    ),
    pytest.param({f"{SKILLS}/group/deploy/SKILL.md": skill("deploy")}, "SKL016", [], id="skill-group-folder-is-not-loose"),
    pytest.param(
        {".github/skills/Run_Tests/SKILL.md": skill("Run_Tests")},
        "SKL004",
        [(".github/skills/Run_Tests/SKILL.md", 2, "SKL004")],
        id="copilot-repository-skill-is-checked",
    ),
    pytest.param({f"{SKILLS}/café/SKILL.md": skill("café")}, "SKL004,SKL005", [], id="skill-unicode-name-as-reference-validator"),
    pytest.param(
        {f"{SKILLS}/Café/SKILL.md": skill("Café")},
        "SKL004",
        [(f"{SKILLS}/Café/SKILL.md", 2, "SKL004")],
        id="skill-unicode-name-must-be-lowercase",
    ),
]


@pytest.mark.parametrize(("files", "select", "expected"), CASES)
def test_agent_kinds(files: dict[str, str], select: str, expected: list[tuple[str, int, str]]) -> None:
    assert lint(files, select) == sorted(expected)


def problems(files: dict[str, str], select: str) -> list[Problem]:
    """The findings themselves (severity and message too), as ``lint`` reads the files."""
    data = config.defaults()
    data["select"] = select.split(",")
    source = MemorySource({path: text.encode() for path, text in files.items()})
    ws = Workspace(config.from_mapping(Path("/nonexistent/memcheck-in-memory"), data), source)
    return sorted(collect(ws, targets_for(ws, None)))


def test_boolean_string_is_a_warning_not_an_error() -> None:
    found = problems({f"{SKILLS}/t/SKILL.md": skill("t", 'disable-model-invocation: "true"\n')}, "SKL007")
    assert [(p.severity, "unquoted" in p.message) for p in found] == [("warning", True)]


@pytest.mark.parametrize(("root", "severity"), [(SKILLS, "warning"), (".agents/skills", "error")])
def test_yaml_error_is_a_warning_only_where_claude_code_loads_the_body(root: str, severity: str) -> None:
    found = problems({f"{root}/t/SKILL.md": "---\nname: t\ndescription: Deploy: now\n---\nBody.\n"}, "SKL003")
    assert [p.severity for p in found] == [severity]


def test_a_yaml_error_outside_claude_code_says_what_it_costs_and_claims_no_more() -> None:
    [found] = problems({".agents/skills/t/SKILL.md": "---\nname: t\ndescription: Deploy: now\n---\nBody.\n"}, "SKL003")
    assert found.message.startswith("agents that parse the frontmatter see no name or description: frontmatter is not valid YAML (")
    assert found.message.endswith("; quote the value of 'description'")


def test_cline_frontmatter_that_does_not_parse_is_a_warning_saying_the_rule_applies_everywhere() -> None:
    [found] = problems({".clinerules/r.md": "---\npaths: [src/**\n---\nRule.\n"}, "GDN004")
    assert found.severity == "warning" and found.message.startswith("Cline applies this file everywhere, its frontmatter read as text: ")


def test_a_misspelt_skill_tool_is_named_with_the_tool_meant() -> None:
    [found] = problems({f"{SKILLS}/t/SKILL.md": skill("t", "allowed-tools: Read grep\n")}, "SKL014")
    assert "names 'grep'" in found.message and "did you mean 'Grep'?" in found.message


def test_every_kind_names_its_source_and_date() -> None:
    for kind in agentkinds.kinds():
        assert kind.source and kind.checked and kind.version, kind.id
        assert kind.unparsable in ("error", "warning"), kind.id


def test_unconfirmed_kind_is_never_judged() -> None:
    kind = agentkinds.by_id("kiro-steering")._replace(confirmed=False)
    assert agentkinds.validate(kind, {"inclusion": "sometimes"}) == []


_NAMES = st.from_regex(r"[A-Z][A-Za-z]{0,8}", fullmatch=True)
_RULES = st.from_regex(r"[a-z :*,]{0,12}", fullmatch=True)
_TOOLS = st.one_of(_NAMES, st.builds(lambda n, r: f"{n}({r})", _NAMES, _RULES))


@given(st.lists(_TOOLS, min_size=1, max_size=6), st.sampled_from([", ", " ", ",", ",  "]))
def test_a_tool_list_splits_into_its_tools_whatever_the_separator(tools: list[str], separator: str) -> None:
    kind = agentkinds.by_id("claude-subagent")._replace(tools=(), tool_patterns=())
    spec = kind.keys["tools"]._replace(items=None)
    listed = separator.join(tools)
    assert agentkinds.split_tools(listed) == [t.strip() for t in tools]
    assert agentkinds.validate(kind._replace(keys={"tools": spec}), {"tools": listed}) == []


def test_a_data_file_with_the_other_tables_gives_its_kinds_and_leaves_the_rest() -> None:
    try:
        import tomllib  # type: ignore[import-not-found,unused-ignore]
    except ImportError:  # Python < 3.11
        import tomli as tomllib  # type: ignore[import-not-found,no-redef,unused-ignore]

    data = tomllib.loads(
        '[agent]\nid = "example"\ntitle = "Example"\n\n[reads.project]\nfiles = ["EXAMPLE.md"]\n\n'
        '[[kinds]]\nid = "example-rule"\ntitle = "Example rule"\nrole = "guidance"\nglobs = [".example/*.md"]\n'
        'source = "https://example.invalid/docs"\nversion = "docs"\nchecked = "2026-11-27"\nconfirmed = true\n\n'
        '[kinds.keys.when]\ntype = "string"\nenum = ["always", "never"]\n'
    )
    [kind] = agentkinds.kinds_of("example", data)
    assert (kind.id, kind.role, kind.globs, kind.unparsable) == ("example-rule", "guidance", (".example/*.md",), "error")
    assert [i.message for i in agentkinds.validate(kind, {"when": "sometimes"})] == [
        "when 'sometimes' is not a value example knows; use one of always, never"
    ]


@pytest.mark.parametrize(
    ("entry", "said"),
    [
        pytest.param(
            {"id": "x", "title": "X", "role": "robot", "globs": [], "source": "s", "version": "v", "checked": "c", "confirmed": True},
            "role 'robot'",
            id="role",
        ),
        pytest.param({"id": "x", "title": "X", "role": "agent", "globs": []}, "no source", id="provenance"),
        pytest.param(
            {
                "id": "x",
                "title": "X",
                "role": "agent",
                "globs": [],
                "source": "s",
                "version": "v",
                "checked": "c",
                "confirmed": True,
                "keys": {"k": {"type": "text"}},
            },
            "type 'text'",
            id="type",
        ),
    ],
)
def test_a_data_entry_that_breaks_the_format_is_refused(entry: dict[str, object], said: str) -> None:
    with pytest.raises(agentkinds.DataError, match=said):
        agentkinds.kinds_of("example", {"kinds": [entry]})


def test_the_shipped_data_is_well_formed() -> None:
    from memcheck.text import patterns

    kinds = agentkinds.kinds()
    assert len({k.id for k in kinds}) == len(kinds)
    for kind in kinds:
        assert all(patterns.problem(g) is None for g in kind.globs), kind.id


@pytest.mark.parametrize(
    ("path", "kind"),
    [
        (".clinerules", "cline-rule"),
        ("pkg/.clinerules", None),  # Cline reads the workspace's own, at its top
        (".clinerules/python.md", "cline-rule"),
        ("pkg/.clinerules/python.md", None),
        ("pkg/.claude/agents/reviewer.md", "claude-subagent"),  # any folder's
    ],
)
def test_a_glob_from_the_top_names_files_at_the_top_only(path: str, kind: str | None) -> None:
    found = agentkinds.kind_of_path(path)
    assert (found.id if found else None) == kind


def test_a_kind_whose_glob_spells_no_folder_out_still_finds_its_files(monkeypatch: pytest.MonkeyPatch) -> None:
    # The quick filter keeps a file only when it has a folder a glob spells out: a glob
    # like `*.prompt.md` spells none, and its files must not be filtered away.
    from memcheck.workspace import agentfiles

    anywhere = agentkinds.by_id("copilot-prompt")._replace(globs=("**/*.prompt.md",))
    monkeypatch.setattr(agentkinds, "kinds", lambda: [anywhere])
    monkeypatch.setattr(agentkinds, "kind_of_path", lambda path, role=None: anywhere if path.endswith(".prompt.md") else None)
    settings = config.from_mapping(Path("/nonexistent/memcheck-in-memory"), config.defaults())
    ws = Workspace(settings, MemorySource({"docs/ask.prompt.md": b"Explain.\n"}))
    assert agentfiles._find(ws).kinds == {"docs/ask.prompt.md": "copilot-prompt"}


def test_the_quick_folder_test_keeps_every_file_a_kind_names() -> None:
    # find_agent_files tries the globs only on the files whose folder and name spell
    # out a glob's literal segments: it must find what trying every glob on every file
    # finds, for files at the top, deep down, and named as a segment (.clinerules).
    paths = [
        ".clinerules",
        "pkg/.clinerules",
        ".clinerules/python.md",
        "pkg/.clinerules/python.md",
        ".cline/rules/a.md",
        "x/.cline/rules/a.md",
        ".claude/agents/r.md",
        "pkg/.claude/agents/team/r.md",
        ".claude/memory/agents.md",
        "agents/.claude/r.md",
        ".claude/agents",
        ".github/agents/a.agent.md",
        ".github/agents/b.md",
        "pkg/.github/agents/b.md",
        ".github/prompts/p.prompt.md",
        ".github/prompts/p.md",
        ".github/instructions/a/q.instructions.md",
        ".github/instructions/q.md",
        ".kiro/steering/s.md",
        ".kiro/steering/deep/s.md",
        "steering/.kiro/s.md",
        "docs/ask.prompt.md",
        "README.md",
        "AGENTS.md",
        "CLAUDE.md",
    ]
    from memcheck.workspace import agentfiles

    settings = config.from_mapping(Path("/nonexistent/memcheck-in-memory"), config.defaults())
    ws = Workspace(settings, MemorySource(dict.fromkeys(paths, b"# x\n")))
    every = {}
    for path in paths:
        kind = next((k for k in agentkinds.kinds() if k.globs and any(agentkinds.names(g, path) for g in k.globs)), None)
        if kind is not None and path not in ws.guidance:
            every[path] = kind.id
    assert agentfiles._find(ws).kinds == every
    assert len(every) >= 9


_SEGMENT = st.sampled_from(
    [".github", ".claude", ".cline", ".clinerules", ".kiro", "agents", "instructions", "prompts", "rules", "steering", "docs", "a"]
)
_NAME = st.sampled_from([".clinerules", "x.md", "x.agent.md", "x.prompt.md", "x.instructions.md", "SKILL.md", "x.txt"])


@given(st.lists(_SEGMENT, max_size=5), _NAME, st.sampled_from([None, "guidance", "agent"]))
def test_kind_of_path_is_the_first_kind_one_of_whose_globs_names_the_path(folders: list[str], name: str, role: str | None) -> None:
    # kind_of_path skips a glob whose literal segments the path does not hold: never one that names it.
    path = "/".join([*folders, name])
    expected = next(
        (k for k in agentkinds.kinds() if (role is None or k.role == role) and any(agentkinds.names(g, path) for g in k.globs)), None
    )
    assert agentkinds.kind_of_path(path, role) == expected
