"""SEC002: a cloud or API token in a file an agent loads.

Found by the family's one detector pass (``checks.secrets.find``, over
``text.secrets``), which tells this rule's finds by their kind (``KIND``); the pass
reports each with ``MESSAGE``.
"""

from __future__ import annotations

from memcheck.problem import ERROR, Rule
from memcheck.text import secrets as detect

# Security severity (what code scanning ranks the alert by): a cloud or API token in a
# committed file is a live credential (critical, 9.0).
SEC002 = Rule(
    "SEC002",
    "api-token",
    ERROR,
    False,
    "File holds a cloud or API token",
    """\
## What it does
Reports strings shaped like real credentials: AWS access key ids (`AKIA…`), GitHub
(`ghp_…`, `github_pat_…`), GitLab (`glpat-…`), Slack (`xoxb-…`, `xapp-…`, webhook
URLs), Stripe (`sk_live_…`, `whsec_…`), OpenAI (`sk-…`, `sk-proj-…`), Anthropic
(`sk-ant-…`), npm (`npm_…`), PyPI (`pypi-…`), Google API keys (`AIza…`), Hugging
Face (`hf_…`), SendGrid (`SG.…`), DigitalOcean (`dop_v1_…`), Shopify (`shpat_…`,
`shpca_…`, `shppa_…`, `shpss_…`), Groq (`gsk_…`) and Linear (`lin_api_…`) tokens,
Discord webhook URLs, JSON Web Tokens, Azure
Storage keys (`AccountKey=…`) and age identities (`AGE-SECRET-KEY-1…`). The text is read as an agent reads
it: a Markdown escape (`ghp\\_…`) or an invisible character inside a token does
not hide it. Documentation placeholders (`sk-...`, `AKIAIOSFODNN7EXAMPLE`, `xxxx`,
`<your-token>`, jwt.io's sample token) are not reported; where a run of `memcheck check`
passes over a vendor's documented example key (AWS's `AKIAIOSFODNN7EXAMPLE`), its
summary line says so, once.

## Why is this bad?
Agents' own memory guides say memory must not hold credentials. Anyone with the repository, and every
agent session, gets the token.

## Example
```markdown
The CI token is ghp_… (pasted in full).
```

## Use instead
Name the environment variable or secret store that holds it (`$GITHUB_TOKEN`), and
rotate the token.
""",
    security_severity="9.0",
)

KIND = detect.TOKEN  # the detector's finds this rule reports

# What a finding says; ``shown`` is the secret's redacted form, never the secret.
MESSAGE = "token {shown} looks like a real credential; remove it, reference the environment variable instead, and rotate it"

# The example keys vendors publish in their documentation, passed over as
# placeholders; a run that saw one says so once (a newcomer who tries the secret check
# with AWS's example key would otherwise see nothing). Each with its source.
DOCUMENTED_EXAMPLES = (
    "AKIAIOSFODNN7EXAMPLE",  # https://docs.aws.amazon.com/IAM/latest/UserGuide/id_credentials_access-keys.html
    "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",  # the secret access key of the same page
)


def documented_examples(text: str) -> list[tuple[int, int, str]]:
    """(line, column, key) of each documented example key in ``text``."""
    if "EXAMPLE" not in text:  # nearly every file: one scan
        return []
    found = []
    for number, line in enumerate(text.split("\n"), 1):
        found += [(number, line.index(key) + 1, key) for key in DOCUMENTED_EXAMPLES if key in line]
    return found
