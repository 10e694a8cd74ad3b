"""AGT011 ignored-key: a key no Copilot reference lists for a custom agent."""

from __future__ import annotations

from conftest import example, findings, lint, with_frontmatter

AGENT = ".github/agents/reviewer.agent.md"


def agent(keys: str) -> str:
    return with_frontmatter(keys, "Review pull requests.\n")


def test_the_docs_example_is_reported() -> None:
    files = {AGENT: agent(example("AGT011"))}
    assert lint(files, select="AGT") == [(AGENT, 3, "AGT011")]
    assert "'temperature' is not among the keys Copilot's references list for a custom agent" in findings(files, select="AGT")[0].message


def test_the_docs_use_instead_is_not_reported() -> None:
    assert lint({AGENT: agent(example("AGT011", "Use instead"))}, select="AGT") == []


def test_every_documented_key_is_taken() -> None:
    keys = (
        "name: r\ndescription: x\ntarget: vscode\ntools: [read]\nmodel: gpt-5\ndisable-model-invocation: false\n"
        "user-invocable: true\nargument-hint: a file\nagents: [a]\nhooks: {}\nhandoffs: []\n"
    )
    assert lint({AGENT: agent(keys)}, select="AGT011") == []


def test_a_misspelt_key_is_agt007s_alone() -> None:
    assert lint({AGENT: agent("description: x\ndescripton: y\n")}, select="AGT") == [(AGENT, 3, "AGT007")]


def test_a_claude_subagent_is_not_judged_as_closed() -> None:
    files = {".claude/agents/r.md": "---\nname: r\ndescription: x\nversion: 2\n---\nx\n"}
    assert lint(files, select="AGT011") == []


def test_a_prompt_files_keys_are_closed_too() -> None:
    prompt = ".github/prompts/review.prompt.md"
    keys = "description: x\nname: r\nargument-hint: a file\nagent: agent\nmodel: gpt-5\ntools: [read]\nunknown-option: 1\n"
    assert lint({prompt: with_frontmatter(keys, "Review the file.\n")}, select="AGT011") == [(prompt, 8, "AGT011")]
