"""SEC001 private-key: a private key block in a file an agent loads.

The key material is generated at test time (``test_secrets.key_block``, from a seeded
random source): the shape is real, the key is nobody's."""

from __future__ import annotations

from conftest import findings, lint, memory
from test_secrets import key_block

STORE = ".claude/memory"
DEPLOY = f"{STORE}/deploy.md"
INDEX = f"{STORE}/MEMORY.md"
LISTED = "# Memory\n\n## Reference\n- [Deploy](deploy.md) - How to deploy\n"


def test_the_docs_example_a_memory_that_saved_the_deploy_key_is_reported() -> None:
    # The doc's Example is prose (no fenced block): a memory file that saved the
    # deploy key "so the agent can ssh in next time".
    body = f"The deploy key, so the agent can ssh in next time:\n\n{key_block()}\n"
    files = {INDEX: LISTED, DEPLOY: memory("Deploy", "How to deploy", "reference", body=body)}
    assert lint(files, select="SEC") == [(DEPLOY, 9, "SEC001")]
    (found,) = findings(files, select="SEC")
    assert found.message == "private key block (RSA, 5 lines); remove it, keep keys in an SSH agent or secret manager, and rotate it"
    assert found.col == 1


def test_the_docs_use_instead_a_memory_that_says_where_the_key_lives_is_not_reported() -> None:
    body = 'The deploy key is in the team\'s SSH agent (1Password vault "Deploy").\n'
    assert lint({INDEX: LISTED, DEPLOY: memory("Deploy", "How to deploy", "reference", body=body)}, select="SEC") == []


def test_a_key_block_whose_body_is_a_placeholder_is_documentation() -> None:
    text = "# Keys\n\n-----BEGIN RSA PRIVATE KEY-----\n...\n-----END RSA PRIVATE KEY-----\n"
    assert lint({"AGENTS.md": text}, select="SEC") == []


def test_a_key_block_in_a_guidance_file_is_reported_once_at_its_first_line() -> None:
    assert lint({"AGENTS.md": f"# Ops\n\n{key_block()}\n"}, select="SEC") == [("AGENTS.md", 3, "SEC001")]


def _key_lines() -> list[str]:
    return [line for line in key_block().split("\n") if not line.startswith("-----")]


def test_a_service_account_json_with_its_key_in_one_escaped_string_is_reported() -> None:
    # Google Cloud's service-account key file: the PEM block is one JSON string with
    # `\n` escapes, which an agent reads as the key's lines.
    pem = "\\n".join(["-----BEGIN PRIVATE KEY-----", *_key_lines(), "-----END PRIVATE KEY-----", ""])
    text = f'# Guide\n\nThe deploy credentials:\n\n```json\n{{\n  "type": "service_account",\n  "private_key": "{pem}",\n  "client_email": "deploy@proj.iam.gserviceaccount.com"\n}}\n```\n'
    (found,) = findings({"CLAUDE.md": text}, select="SEC")
    assert (found.line, found.code) == (8, "SEC001")
    assert not any(line in found.message for line in _key_lines())


def test_a_key_block_quoted_as_markdown_is_reported() -> None:
    quoted = "\n".join("> " + line for line in key_block().split("\n"))
    assert lint({"CLAUDE.md": f"# Guide\n\nThe key, as the ops channel pasted it:\n\n{quoted}\n"}, select="SEC") == [
        ("CLAUDE.md", 5, "SEC001")
    ]
