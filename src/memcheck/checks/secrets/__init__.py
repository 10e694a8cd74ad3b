"""SEC: secret-like content in memory, guidance and skill files (SPEC §4; seed 004).

These files are committed, loaded into every session and sent to a model provider:
no place for credentials. The secret itself never appears in a message: findings
show a redacted form (``ghp_…(40 chars)``), and ``scrub`` removes any secret that
another rule's message happens to quote. What counts as a secret is found in
``text/secrets.py``, where what ``memcheck context`` prints and the entries
``memcheck fix`` writes are redacted by the same patterns.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Iterable, Iterator, Sequence

from memcheck.problem import ERROR, Problem, Rule
from memcheck.records import NamedTuple
from memcheck.text import invisible
from memcheck.text import secrets as detect
from memcheck.text.document import Document
from memcheck.workspace.discover import Workspace

if TYPE_CHECKING:
    from memcheck.workspace.targets import Targets

# Security severity (what code scanning ranks the alert by): a private key or a cloud
# token in a committed file is a live credential (critical, 9.0); a literal password
# may be a sample's (high, 7.5).
SEC001 = Rule("SEC001", "private-key", ERROR, False, "File holds a private key block", """\
## What it does
Reports a `-----BEGIN … PRIVATE KEY-----` block with key material in it (a block
whose body is `...` or a placeholder is documentation and is not reported).

## Why is this bad?
Memory, guidance and skill files are committed and loaded into every agent session:
the key is in the history of every clone and in the model provider's logs.

## Example
A memory file that saved the deploy key "so the agent can ssh in next time".

## Use instead
Keep the key in an SSH agent or a secret manager; the memory can say where it
lives. Rotate the key: removing it from the file does not remove it from history.
""", security_severity="9.0")

SEC002 = Rule("SEC002", "api-token", ERROR, False, "File holds a cloud or API token", """\
## What it does
Reports strings shaped like real credentials: AWS access key ids (`AKIA…`), GitHub
(`ghp_…`, `github_pat_…`), GitLab (`glpat-…`), Slack (`xoxb-…`, webhook URLs),
Stripe (`sk_live_…`), OpenAI (`sk-…`, `sk-proj-…`) and Anthropic (`sk-ant-…`) tokens.
Documentation placeholders (`sk-...`, `AKIAIOSFODNN7EXAMPLE`, `xxxx`, `<your-token>`)
are not reported.

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
""", security_severity="9.0")

SEC003 = Rule("SEC003", "hardcoded-credential", ERROR, False, "A password, secret, token or API key is assigned a literal value", """\
## What it does
Reports a quoted, high-entropy value assigned to a name ending in `password`,
`secret`, `token`, `api_key`, `access_key` or `private_key` (`DB_PASSWORD = "…"`,
`apiKey: '…'`). Placeholders, environment references and low-entropy words are not
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
""", security_severity="7.5")

RULES = (SEC001, SEC002, SEC003)


class Secret(NamedTuple):
    line: int
    col: int
    rule: Rule
    shown: str  # the redacted form, safe to print
    value: str  # never printed: used to scrub other messages


_RULE = {detect.KEY: SEC001, detect.TOKEN: SEC002, detect.ASSIGNMENT: SEC003}


def find(doc: Document) -> Iterator[Secret]:
    """Secret-like strings in a document, in line order (what ``text.secrets`` finds, by the rule that reports it)."""
    for found in detect.find(doc):
        yield Secret(found.line, found.col, _RULE[found.kind], found.shown, found.value)
    if doc.error is None and invisible.has_tags(doc.text):
        yield from _in_tags(doc)


def _in_tags(doc: Document) -> Iterator[Secret]:
    """Secrets spelt in invisible tag characters (U+E0000–U+E007F), which an agent
    reads as the ASCII they stand for: found in the decoded text, placed at their
    first tag character."""
    for tags in invisible.tag_texts(doc.lines):
        plain = tags.plain
        for found in detect.find_in(plain, [plain]):
            yield Secret(tags.line, tags.cols[found.col - 1], _RULE[found.kind], f"{found.shown}, hidden in invisible tag characters,", found.value)


def files_of(targets: Targets) -> list[str]:
    return targets.agent_files()


# What each detector's finding says, by the rule it reports.
_MESSAGES = {
    SEC001: "{shown}; remove it, keep keys in an SSH agent or secret manager, and rotate it",
    SEC002: "token {shown} looks like a real credential; remove it, reference the environment variable instead, and rotate it",
    SEC003: "credential {shown} is a literal value; read it from the environment or a secret manager instead, and rotate it",
}


def check(ws: Workspace, targets: Targets) -> Iterator[Problem]:
    for path in files_of(targets):
        seen: set[tuple[int, str]] = set()
        for secret in secrets_in(ws, path):
            if (secret.line, secret.rule.code) in seen and secret.rule is SEC001:
                continue  # one finding per key block
            seen.add((secret.line, secret.rule.code))
            yield secret.rule.at(path, secret.line, secret.col, _MESSAGES[secret.rule].format(shown=secret.shown))


def scrub(problems: Iterable[Problem], ws: Workspace, paths: Sequence[str]) -> list[Problem]:
    """Problems whose messages hold no secret found in ``paths``."""
    values = {s.value for p in paths for s in secrets_in(ws, p) if s.value}
    if not values:
        return list(problems)
    hidden = _Hidden(values)
    return [p._replace(message=hidden.hide(p.message)) for p in problems]


class _Hidden:
    """Secret values to take out of messages.

    A message is searched for the secrets that start at each of its offsets (looked
    up by their first few characters) rather than for every secret in turn: 4,000
    secrets in a file, each with a finding, took 2.4 s the second way. The ones
    present are replaced longest first, so a secret inside a longer one never leaves
    the longer one's tail showing."""

    def __init__(self, values: Iterable[str]):
        values = set(values)
        self.key = min(8, *map(len, values))
        self.by_start: dict[str, list[str]] = {}
        for value in values:
            self.by_start.setdefault(value[: self.key], []).append(value)

    def hide(self, message: str) -> str:
        key, by_start = self.key, self.by_start
        present = {v for i in range(len(message) - key + 1) for v in by_start.get(message[i : i + key], ()) if message.startswith(v, i)}
        for value in sorted(present, key=lambda v: (-len(v), v)):
            message = message.replace(value, detect.short_form(value, 0))
        return message


def secrets_in(ws: Workspace, path: str) -> list[Secret]:
    """The secrets of a file, found once however many ask (the check, then the scrub).
    That a memory holds none is kept between runs (nothing is kept of one that holds
    some: the cache keeps no secret), so an unchanged memory is not read for it."""
    return ws.of_file("secrets", path, lambda: ws.derived(ws.document(path), _secrets), _none_kept, _none)


def _none_kept(found: list[Secret]) -> list[Secret] | None:
    return None if found else []


def _none(kept: object) -> list[Secret]:
    return []


def _secrets(ws: Workspace, doc: Document) -> list[Secret]:
    return list(find(doc))
