"""SEC001: a private key block in a file an agent loads.

Found by the family's one detector pass (``checks.secrets.find``, over
``text.secrets``), which tells this rule's finds by their kind (``KIND``); the pass
reports each with ``MESSAGE``.
"""

from __future__ import annotations

from memcheck.problem import ERROR, Rule
from memcheck.text import secrets as detect

# Security severity (what code scanning ranks the alert by): a private key in a
# committed file is a live credential (critical, 9.0).
SEC001 = Rule(
    "SEC001",
    "private-key",
    ERROR,
    False,
    "File holds a private key block",
    """\
## What it does
Reports a `-----BEGIN … PRIVATE KEY-----` block with key material in it (a block
whose body is `...` or a placeholder is documentation and is not reported), also
where an agent reads one: quoted (`> `) or in a list, or as one JSON string with
`\\n` escapes, as a Google Cloud service-account key file holds its `private_key`.

## Why is this bad?
Memory, guidance and skill files are committed and loaded into every agent session:
the key is in the history of every clone and in the model provider's logs.

## Example
A memory file that saved the deploy key "so the agent can ssh in next time".

## Use instead
Keep the key in an SSH agent or a secret manager; the memory can say where it
lives. Rotate the key: removing it from the file does not remove it from history.
""",
    security_severity="9.0",
)

KIND = detect.KEY  # the detector's finds this rule reports

# What a finding says; ``shown`` is the secret's redacted form, never the secret.
MESSAGE = "{shown}; remove it, keep keys in an SSH agent or secret manager, and rotate it"
