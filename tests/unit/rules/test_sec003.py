"""SEC003 hardcoded-credential: a password, secret, token or API key assigned a literal value."""

from __future__ import annotations

import pytest
from conftest import example, findings, lint
from test_secrets import ASSIGNED

GUIDANCE = "AGENTS.md"


def _guidance(text: str) -> dict[str, str]:
    return {GUIDANCE: f"# Guide\n\n{text}"}


def test_the_docs_example_is_reported_once_the_value_is_written_in_full() -> None:
    # The doc cuts its value short ("3f9a1c0e7b..."), which reads as a placeholder;
    # the value written in full is the finding.
    assert lint(_guidance(example("SEC003")), select="SEC") == []
    files = _guidance(example("SEC003").replace("3f9a1c0e7b...", "3f9a1c0e7b" + ASSIGNED))
    assert lint(files, select="SEC") == [(GUIDANCE, 3, "SEC003")]
    (found,) = findings(files, select="SEC")
    assert found.message.startswith('credential OPENWEATHER_API_KEY = "') and ASSIGNED not in found.message
    assert found.message.endswith(" is a literal value; read it from the environment or a secret manager instead, and rotate it")


def test_the_docs_use_instead_reading_the_environment_is_not_reported() -> None:
    assert lint(_guidance(example("SEC003", "Use instead")), select="SEC") == []


@pytest.mark.parametrize(
    "line",
    [
        'DB_PASSWORD = "' + ASSIGNED + '"',
        "apiKey: '" + ASSIGNED + "'",
        '"client_secret": "' + ASSIGNED + '"',
        "auth_token := '" + ASSIGNED + "'",
        # A literal that begins with `$` is no environment variable's name, nor one
        # in braces that only looks like OpenCode's reference.
        'api_key = "{env:OPENAI_API_KEY}x9Zt2Lm"',
        # An outside attack's recipes: a key pasted where the variable's name goes, and a
        # password after the words that say to change it.
        '"apiKey": "{env:Xk9mQ2vL8pR4tZwN7aB3cDeFgHiJkLmNoPqR}"',
        '"client_secret": "CHANGE_ME_Xk9mQ2vL8pR4tZwN7aB3"',
        '"apiKey": "{env:A1B2C3D4E5F6A7B8C9D0E1F2A3B4C5D6}"',
        '"apiKey": "{env:SG_XK9MQ2VL8PR4TZWN7AB3CDEFGHIJ}"',
        '"password": "CHANGE_ME_xkqm_qvlp_rtzw_nabc_dxkq"',
        'password = "$kq9Zt2LmW8xRv"',
    ],
)
def test_assigned_credentials_are_reported_without_their_value(line: str) -> None:
    (found,) = findings(_guidance(line + "\n"), select="SEC")
    assert (found.line, found.code) == (3, "SEC003") and ASSIGNED not in found.message


@pytest.mark.parametrize(
    "text",
    [
        pytest.param('token: "<your-token>"', id="angle-placeholder"),
        pytest.param('api_key = "YOUR_API_KEY"', id="env-name"),
        pytest.param('password = "${DB_PASSWORD}"', id="env-reference"),
        pytest.param('password: "changeme123"', id="changeme"),
        pytest.param('secret = "process.env.SECRET"', id="code-reference"),
        pytest.param('token = "abcdefghijkl"', id="low-entropy-word"),
        pytest.param("max_tokens = '4096000000000'", id="not-a-credential-name"),
        pytest.param("tokenizer: 'cl100k_base_v2x'", id="tokenizer"),
        # A skill's example, after "Generate API credentials at: <url>" (found on an unseen repository).
        pytest.param('export AMO_API_KEY="user:12345678:123"', id="counting-digits"),
        # A skill's code sample whose value says where the real one comes from (an unseen repository).
        pytest.param('SECRET_KEY = "read-from-env"  # use os.environ / settings', id="read-from-env"),
        pytest.param('api_key: "set_from_env_var"', id="from-env-var"),
        # Two shapes judged on unseen repositories: a URL's password that says to change it,
        # and OpenCode's reference to an environment variable in a skill's advice.
        pytest.param("postgresql+asyncpg://app:CHANGE_ME_USE_STRONG_PASSWORD@localhost:5432/app_db", id="change-me-in-url"),
        pytest.param('"apiKey": "{env:OPENAI_API_KEY}"', id="opencode-env-reference"),
    ],
)
def test_placeholders_references_and_words_are_not_credentials(text: str) -> None:
    assert lint(_guidance(text + "\n"), select="SEC") == []


# A value that needs no quotes in a dotenv file or a URL (ASSIGNED holds `#` and `@`).
UNQUOTED = "Zq8kP2mW9tR4vHs7Lx0b"


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        pytest.param(
            f"git clone https://deploy:{UNQUOTED[:12]}@git.corp.internal/app.git\n",
            "https://deploy:…(12 chars)@git.corp.internal",
            id="password-in-a-url",
        ),
        pytest.param(f"```\nDATABASE_PASSWORD={UNQUOTED}\n```\n", f"DATABASE_PASSWORD=…({len(UNQUOTED)} chars)", id="unquoted-dotenv-line"),
        pytest.param(
            "export AWS_SECRET_ACCESS_KEY=q8RkP2/mW9tR4vHs7Lx0bN3cZ5dF6gJ1yQ2wE4rT\n",
            "AWS_SECRET_ACCESS_KEY=…(40 chars)",
            id="unquoted-export",
        ),
        pytest.param(f"> - DATABASE_PASSWORD={UNQUOTED}\n", f"DATABASE_PASSWORD=…({len(UNQUOTED)} chars)", id="quoted-list-item"),
        pytest.param(f"PASSWORD={UNQUOTED}  # rotated monthly\n", f"PASSWORD=…({len(UNQUOTED)} chars)", id="dotenv-line-with-a-comment"),
        # Passwords on command lines an agent runs: a person's password is words and
        # digits, so the flag, not the entropy, says what it is.
        pytest.param("Check with `curl -u admin:Summer2024 https://ci.internal/api`\n", "curl -u admin:…(10 chars)", id="curl-user"),
        pytest.param(
            "```\ncurl -X POST \\\n  --user 'deploy:Summer2024' \\\n  https://ci.internal/api\n```\n",
            "curl -u deploy:…(10 chars)",
            id="curl-continued-line",
        ),
        pytest.param("Enter with `sshpass -p 'Summer2024' ssh root@10.0.0.2`\n", "sshpass -p …(10 chars)", id="sshpass-p"),
        pytest.param("`SSHPASS='Summer2024' sshpass -e ssh root@10.0.0.2`\n", "SSHPASS=…(10 chars)", id="sshpass-env"),
        pytest.param(
            'curl -H "Authorization: Bearer Zq8kP2mW9tR4vHs7Lx0bN3cZ" https://api.internal/v1\n',
            "Authorization: Bearer …(24 chars)",
            id="bearer-header",
        ),
        # `admin:Summer2024` in base64, as RFC 7617 writes a user and password
        pytest.param(
            '"headers": {"Authorization": "Basic YWRtaW46U3VtbWVyMjAyNA=="}\n', "Authorization: Basic …(24 chars)", id="basic-header"
        ),
    ],
)
def test_unquoted_credentials_and_url_passwords_are_reported(text: str, shown: str) -> None:
    (found,) = findings(_guidance(text), select="SEC")
    assert found.code == "SEC003"
    assert (
        found.message == f"credential {shown} is a literal value; read it from the environment or a secret manager instead, and rotate it"
    )


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("postgres://postgres:postgres@localhost:5432/app", id="local-database-url"),
        pytest.param("https://user:${TOKEN}@github.com/org/repo.git", id="url-with-a-variable"),
        pytest.param("DATABASE_PASSWORD=${DATABASE_PASSWORD}", id="dotenv-reference"),
        pytest.param("AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", id="aws-docs-example"),
        pytest.param("GITHUB_TOKEN=$GITHUB_TOKEN", id="shell-reference"),
        pytest.param('curl -u "$CI_USER:$CI_PASSWORD" https://ci.internal/api', id="curl-with-variables"),
        pytest.param("curl -u user:password https://httpbin.org/basic-auth/user/password", id="curl-docs-sample"),
        pytest.param("curl -u $STRIPE_KEY: https://api.stripe.com/v1/charges", id="curl-key-without-password"),
        pytest.param("sshpass -p mypassword ssh user@host", id="sshpass-docs-sample"),
        pytest.param("sshpass -f ~/.pw ssh -p 2222 user@host", id="sshpass-file-then-ssh-port"),
        pytest.param("sshpass -p '<password>' ssh user@host", id="sshpass-placeholder"),
        pytest.param('curl -H "Authorization: Bearer $API_TOKEN" https://api.example.com', id="bearer-variable"),
        pytest.param("Authorization: Bearer <your-token>", id="bearer-placeholder"),
        pytest.param("Authorization: Basic anVzdHNvbWVyYW5kb210ZXh0", id="basic-without-a-password"),
        # Issue 40 (a third unseen set): a shell variable inside escaped JSON quotes.
        pytest.param('curl -d "{\\"address\\": \\"$AGENT_EMAIL\\", \\"password\\": \\"$AGENT_EMAIL_PASS\\"}"', id="json-shell-variable"),
        pytest.param('password = "$AGENT_EMAIL_PASS"', id="assigned-shell-variable"),
    ],
)
def test_references_and_documented_examples_are_not_reported(text: str) -> None:
    assert lint(_guidance(f"{text}\n"), select="SEC") == []


@pytest.mark.parametrize(
    "line",
    [
        'db_password = "db.password.Qw7!zR2#pL9m"',
        'password = "p@ss-password-Kx81!mZq"',
        'auth_token: "auth-token-7f3a9c2e1b8d4f6a0e5c3b9d7a1f2e4c"',
    ],
)
def test_a_secret_that_also_spells_its_keys_words_is_reported(line: str) -> None:
    # An outside attack's recipes against a narrowing that was not merged: writing the
    # key's name into the value must not let a real credential through.
    assert [f[2] for f in lint(_guidance(line + "\n"), select="SEC")] == ["SEC003"]


@pytest.mark.parametrize(
    "line",
    [
        # Lower-case words that name a credential are judged as any value: a narrowing
        # that took them for placeholders let real passwords through (outside attacks:
        # `super-strong-admin-password` in an MCP server's env, a role word beside
        # random letters).
        'DB_PASSWORD = "super-strong-admin-password"',
        "export DB_PASSWORD=super-strong-admin-password",
        'client_secret = "google-client-secret"',
    ],
)
def test_words_that_describe_a_credential_are_still_a_credential(line: str) -> None:
    assert [f[2] for f in lint(_guidance(line + "\n"), select="SEC")] == ["SEC003"]


@pytest.mark.parametrize(
    "line",
    [
        # Words that name no credential: a passphrase is a password.
        'password = "correct-horse-battery-staple"',
        # A role word beside words that describe nothing (an outside attack's recipes):
        # random letters, or a passphrase holding one.
        'DB_PASSWORD = "secret-kzqxwvjpmfhybdlgtcnsa"',
        'DB_PASSWORD = "kzqxwvjpmfhybdlgtcnsa-password"',
        'DB_PASSWORD = "orchard-key-glacier-tulip-zebra-pickle"',
        "DATABASE_PASSWORD=password-kzqxwvjpmfhybdlgtcnsa",
        "Connect with https://deploy:password-kzqxwvjpmfhybdlgtcnsa@db.example.com/prod",
        'curl -H "Authorization: Bearer token-kzqxwvjpmfhybdlgtcnsa" https://api.internal/v1',
        # A digit or a capital among the words: not words alone.
        'client_secret = "google-client-secret-7"',
        'client_secret = "Google-Client-Secret"',
    ],
)
def test_words_that_name_no_role_or_carry_more_are_still_credentials(line: str) -> None:
    assert [f[2] for f in lint(_guidance(line + "\n"), select="SEC")] == ["SEC003"]
