"""SEC003: a password, secret, token or API key assigned a literal value.

Found by the family's one detector pass (``checks.secrets.find``, over
``text.secrets``), which tells this rule's finds by their kind (``KIND``); the pass
reports each with ``MESSAGE``.
"""

from __future__ import annotations

from memcheck.problem import ERROR, Rule
from memcheck.text import secrets as detect

# Security severity (what code scanning ranks the alert by): a literal password may
# be a sample's (high, 7.5), where a key or a token is a live credential.
SEC003 = Rule(
    "SEC003",
    "hardcoded-credential",
    ERROR,
    False,
    "A password, secret, token or API key is assigned a literal value",
    """\
## What it does
Reports a quoted, high-entropy value assigned to a name ending in `password`,
`secret`, `token`, `api_key`, `access_key` or `private_key` (`DB_PASSWORD = "…"`,
`apiKey: '…'`), an unquoted one on a dotenv or shell line
(`DATABASE_PASSWORD=…`, `export AWS_SECRET_ACCESS_KEY=…`, a `# comment` after it),
a password in a URL (`https://deploy:…@host`), and one on a command line an agent
runs (`curl -u user:…`, `sshpass -p …`, `SSHPASS=…`) or an HTTP header it sends
(`Authorization: Bearer …`, `Authorization: Basic …`). Placeholders, environment
references (`${DB_PASSWORD}`, OpenCode's `{env:DB_PASSWORD}`, a quoted `"$MAIL_PASS"`, which the shell fills in, and a
value that says it is read from the environment, `"read-from-env"`),
low-entropy words and the passwords of local examples
(`postgres://postgres:postgres@localhost`, `curl -u user:password`) are not
reported.

## Why is this bad?
A literal credential in an agent's memory or instructions gets copied into code,
commits and prompts.

## Example
```python
OPENWEATHER_API_KEY = "3f9a1c0e7b..."
```

## Use instead
```python
OPENWEATHER_API_KEY = os.environ["OPENWEATHER_API_KEY"]
```
""",
    security_severity="7.5",
)

KIND = detect.ASSIGNMENT  # the detector's finds this rule reports

# What a finding says; ``shown`` is the secret's redacted form, never the secret.
MESSAGE = "credential {shown} is a literal value; read it from the environment or a secret manager instead, and rotate it"
