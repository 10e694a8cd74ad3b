"""SKL017 key-not-read: a skill key that none of the agents loading the skill reads."""

from __future__ import annotations

from conftest import example, findings, lint

SHARED = ".agents/skills/deploy/SKILL.md"
CLAUDE = ".claude/skills/deploy/SKILL.md"


def _skill(fields: str) -> str:
    return f"---\n{fields}---\n\nDeploy the app.\n"


def test_the_docs_example_is_reported() -> None:
    (found,) = findings({SHARED: _skill(example("SKL017"))})
    assert (found.path, found.line, found.code, found.severity) == (SHARED, 4, "SKL017", "warning")
    # Codex's and Gemini CLI's loaders are the confirmed sources; Amp's keys are not in the data.
    assert "Codex and Gemini CLI ignore it, and Amp is not known to read it" in found.message
    assert "Claude Code does not load skills from .agents/skills" in found.message
    assert "link the skill folder into .claude/skills" in found.message


def test_the_docs_use_instead_is_not_reported() -> None:
    assert lint({CLAUDE: _skill(example("SKL017", "Use instead"))}) == []


def test_every_claude_code_key_the_issue_names_is_reported_in_a_shared_folder() -> None:
    keys = (
        "hooks:\n  Stop: []\nmodel: sonnet\ncontext: fork\nagent: Explore\nargument-hint: '[env]'\n"
        "disable-model-invocation: true\nuser-invocable: false\n"
    )
    fields = "name: deploy\ndescription: Deploys the app. Use when shipping.\n" + keys
    # One finding for the skill, at its first such key, naming every one in file order:
    # one per key told the same fix seven times.
    (found,) = [p for p in findings({SHARED: _skill(fields)}) if p.code == "SKL017"]
    assert found.line == 4
    assert found.message.startswith(
        "'hooks', 'model', 'context', 'agent', 'argument-hint', 'disable-model-invocation' and 'user-invocable' do nothing here: "
        "of the agents that load skills from .agents/skills, Codex and Gemini CLI ignore them, and Amp is not known to read them; "
        "they are Claude Code's keys, and Claude Code does not load skills from .agents/skills: "
        "link the skill folder into .claude/skills, or remove the keys"
    )


def test_the_specification_keys_a_teams_own_keys_and_codexs_metadata_are_not_reported() -> None:
    fields = (
        "name: deploy\ndescription: Deploys the app. Use when shipping.\nlicense: MIT\nallowed-tools: Read\n"
        "metadata:\n  short-description: Deploys\nowner: team-a\n"
    )
    assert lint({SHARED: _skill(fields)}) == []


def test_a_skill_copied_or_linked_into_claude_code_s_folder_is_read_by_claude_code() -> None:
    text = _skill(example("SKL017"))
    assert lint({SHARED: text, CLAUDE: text}) == []


def test_a_folder_whose_agents_keys_are_not_known_says_nothing() -> None:
    # Copilot loads .github/skills; what it reads of a skill is not in the data.
    assert lint({".github/skills/deploy/SKILL.md": _skill(example("SKL017"))}) == []


SETTINGS = ".claude/settings.json"


def test_nothing_is_told_where_the_settings_turn_a_claude_code_plugin_on() -> None:
    # The skill's Claude Code copy comes from a plugin the project's settings enable
    # (a scaffold keeps the other agents' copy in .agents/skills): memcheck cannot see
    # the plugin's skills, so it cannot say Claude Code lacks this one.
    text = _skill(example("SKL017"))
    on = '{"enabledPlugins": {"workflow@team": true, "off@team": false}}'
    assert lint({SHARED: text, SETTINGS: on}) == []
    assert lint({SHARED: text, ".claude/settings.local.json": '{"enabledPlugins": {"workflow@team": ["1.2.0"]}}'}) == []


def test_settings_that_turn_no_plugin_on_leave_the_finding() -> None:
    text = _skill(example("SKL017"))
    for settings in ('{"enabledPlugins": {"workflow@team": false}}', '{"env": {}}', "{not json"):
        assert [c for _, _, c in lint({SHARED: text, SETTINGS: settings})] == ["SKL017"], settings
