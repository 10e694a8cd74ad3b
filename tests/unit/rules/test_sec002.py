"""SEC002 api-token: a cloud or API token in a file an agent loads.

Every token is generated at test time (``test_secrets.TOKENS``, from a seeded random
source): the shapes are real, the values are not anyone's credentials."""

from __future__ import annotations

import pytest
from conftest import example, findings, lint, memory
from test_secrets import TOKENS

from memcheck.text import secrets as detect

STORE = ".claude/memory"
REVIEW = f"{STORE}/review.md"
INDEX = f"{STORE}/MEMORY.md"
LISTED = "# Memory\n\n## User\n- [Review](review.md) - Concise reviews\n"


def test_the_docs_example_is_reported_once_the_token_is_pasted_in_full() -> None:
    # The doc shows the token cut short ("ghp_… (pasted in full)"): as written it is
    # no token, and with the full token in its place it is the finding.
    as_written = {"AGENTS.md": "# Guide\n\n" + example("SEC002")}
    assert lint(as_written, select="SEC") == []
    files = {"AGENTS.md": "# Guide\n\n" + example("SEC002").replace("ghp_…", TOKENS["github"])}
    assert lint(files, select="SEC") == [("AGENTS.md", 3, "SEC002")]
    (found,) = findings(files, select="SEC")
    assert (
        found.message
        == f"token ghp_…({len(TOKENS['github'])} chars) looks like a real credential; remove it, reference the environment variable instead, and rotate it"
    )


def test_the_docs_use_instead_naming_the_environment_variable_is_not_reported() -> None:
    # The doc's Use instead is prose: name the variable or store that holds the token.
    assert lint({"AGENTS.md": "# Guide\n\nThe CI token is in `$GITHUB_TOKEN`.\n"}, select="SEC") == []


@pytest.mark.parametrize("kind", sorted(TOKENS))
def test_each_token_shape_is_reported_and_redacted(kind: str) -> None:
    token = TOKENS[kind]
    (found,) = findings({"AGENTS.md": f"# Guide\n\nThe {kind} token: {token}\n"}, select="SEC")
    assert (found.line, found.code) == (3, "SEC002")
    assert token not in found.message and f"…({len(token)} chars)" in found.message


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("export OPENAI_API_KEY=sk-...", id="sk-dots"),
        pytest.param("AMP_API_KEY | Anthropic API key | sk-ant-...", id="seed-000-table"),
        pytest.param("aws_access_key_id = AKIAIOSFODNN7EXAMPLE", id="aws-docs-example"),
        pytest.param("GITHUB_TOKEN=ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx", id="x-run"),
        pytest.param("sk-per-session and sk-resilience", id="sk-words"),
        pytest.param('"apiKey": "sk_test_' + "x" * 24 + '"', id="stripe-placeholder"),
    ],
)
def test_documentation_placeholders_are_not_tokens(text: str) -> None:
    assert lint({"AGENTS.md": f"# Guide\n\n{text}\n"}, select="SEC") == []


def test_a_token_is_found_in_a_memorys_description_and_body_in_a_skill_and_in_guidance() -> None:
    files = {
        INDEX: LISTED,
        REVIEW: memory("Review", f"github {TOKENS['github']}", "user", body=f"Use {TOKENS['gitlab']}.\n"),
        ".claude/skills/ship/SKILL.md": f"---\nname: ship\ndescription: Ship with {TOKENS['anthropic']}\n---\n\nBody.\n",
        "AGENTS.md": f"# Guide\n\nPay with {TOKENS['stripe']}.\n",
    }
    assert lint(files, select="SEC") == [
        (REVIEW, 3, "SEC002"),
        (REVIEW, 7, "SEC002"),
        (".claude/skills/ship/SKILL.md", 3, "SEC002"),
        ("AGENTS.md", 3, "SEC002"),
    ]


def test_a_token_written_with_a_markdown_escape_is_reported_as_an_agent_reads_it() -> None:
    # `ghp\_…` renders as `ghp_…`, and an agent reads it so.
    token = TOKENS["github"]
    (found,) = findings({"CLAUDE.md": "# Guide\n\nThe CI token: " + token.replace("_", "\\_", 1) + "\n"}, select="SEC")
    assert (found.line, found.col, found.code) == (3, len("The CI token: ") + 1, "SEC002")
    assert token[4:] not in found.message


def test_a_token_split_by_a_zero_width_space_is_reported_whatever_hid_says() -> None:
    token = TOKENS["openai"]
    split = token[:20] + "\u200b" + token[20:]
    files = {"CLAUDE.md": f"# Guide\n\n<!-- memcheck: disable=HID003 -->\nThe key: {split}\n"}
    assert ("CLAUDE.md", 4, "SEC002") in lint(files)


@pytest.mark.parametrize(
    "text",
    [
        pytest.param(
            "Authorization: Bearer eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c",
            id="jwt-io-sample",
        ),
        pytest.param("AIza... is the shape of a Google API key; hf_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx", id="family-placeholders"),
        pytest.param("escape a literal underscore as \\_ in Markdown, as in snake\\_case", id="markdown-escapes-alone"),
    ],
)
def test_documented_samples_and_placeholders_of_the_new_families_are_not_reported(text: str) -> None:
    assert lint({"AGENTS.md": f"# Guide\n\n{text}\n"}, select="SEC") == []


def test_a_token_written_as_yaml_escapes_in_frontmatter_is_reported_at_its_key() -> None:
    # `"\x67hp_…"` is `ghp_…` to the agent's YAML reader (and to `memcheck fix`, which
    # copies the description into MEMORY.md); the file's own lines never spell it.
    token = TOKENS["github"]
    escaped = "\\x67" + token[1:]
    (found,) = findings({INDEX: LISTED, REVIEW: memory("Review", f'"deploy key {escaped}"', "user")}, select="SEC")
    assert (found.path, found.line, found.col, found.code) == (REVIEW, 3, len("description: ") + 1, "SEC002")
    assert "in 'description', written as YAML escapes" in found.message
    assert token[4:] not in found.message


def test_a_token_written_out_in_a_value_with_an_escape_is_reported_once() -> None:
    token = TOKENS["github"]
    files = {".claude/skills/ship/SKILL.md": f'---\nname: ship\ndescription: "Ships.\\tkey {token}"\n---\n\nBody.\n'}
    (found,) = findings(files, select="SEC")
    assert (found.line, found.code) == (3, "SEC002")
    assert "YAML escapes" not in found.message


def test_a_token_in_a_store_file_named_in_capitals_with_an_empty_name_is_reported() -> None:
    # An outside attack's recipe: a session hand-off log beside the memories, named in
    # capitals, whose frontmatter gives its name no value, holding a token. The next
    # session reads it by its name: whatever the store makes of it, SEC reads it.
    files = {
        INDEX: LISTED,
        REVIEW: memory("review", "Concise reviews", "user"),
        f"{STORE}/LAST_SESSION.md": f'---\nname: ""\n---\nSession 12: deployed with token {TOKENS["github"]}\n',
        f"{STORE}/HANDOFF.md": f"---\nmetadata:\n  session: 8f2c\n---\nThe key: {TOKENS['github']}\n",
    }
    assert [f for f in lint(files, select="SEC")] == [(f"{STORE}/HANDOFF.md", 5, "SEC002"), (f"{STORE}/LAST_SESSION.md", 4, "SEC002")]


def test_a_token_is_found_in_the_first_files_a_process_reads_and_in_those_after(monkeypatch: pytest.MonkeyPatch) -> None:
    # A process probes its first few hundred texts one probe at a time, then asks one
    # set of every probe: a token is found either way.
    monkeypatch.setattr(detect, "_PRESENCE", detect._Presence())
    count = detect._PROBED_ALONE + 40
    files = {f"{STORE}/note_{i:03d}.md": memory(f"Note {i}", "A note", "project") for i in range(count)}
    first, last = f"{STORE}/note_000.md", f"{STORE}/note_{count - 1:03d}.md"
    for path in (first, last):
        files[path] = memory("Deploy", "How we deploy", "project", body=f"The token: {TOKENS['github']}\n")
    assert lint(files, select="SEC") == [(first, 7, "SEC002"), (last, 7, "SEC002")]
    assert detect._PRESENCE.whole is not None  # the later files were asked of the set


def test_a_token_in_a_store_s_own_document_is_reported_and_no_memory_rule_reads_it() -> None:
    # SOUL.md beside the memories of a store found by its MEMORY.md: named in capitals,
    # no memory field, loaded by its name (an agent harness's identity file). The SEC
    # rules read it as that agent does; it is no memory, so no frontmatter finding and
    # no "not listed in MEMORY.md".
    files = {
        "memory/MEMORY.md": "# Memory\n\n## User\n- [Review](review.md) - Concise reviews\n",
        "memory/review.md": memory("review", "Concise reviews", "user"),
        "memory/SOUL.md": f"# Soul\n\nDeploy with {TOKENS['github']}\n",
    }
    assert lint(files) == [("memory/SOUL.md", 3, "SEC002")]


def test_a_token_in_an_own_document_of_a_store_a_glob_names_is_reported() -> None:
    # A store named by a `memory.stores` glob that holds only its harness's files so far.
    files = {"agents/ops/memory/USER.md": f"# User\n\nThe user's key: {TOKENS['openai']}\n"}
    config = {"memory": {"stores": ["agents/*/memory"]}}
    assert lint(files, select="SEC", config=config) == [("agents/ops/memory/USER.md", 3, "SEC002")]
