"""SEC: secret-like content in memory, guidance and skill files (SPEC §4; seed 004).

These files are committed, loaded into every session and sent to a model provider:
no place for credentials. The secret itself never appears in a message: findings
show a redacted form (``ghp_…(40 chars)``), and ``scrub`` removes any secret that
another rule's message happens to quote.
"""
from __future__ import annotations

import math
import re
from bisect import bisect_right
from collections import Counter
from typing import TYPE_CHECKING, Callable, Iterable, Iterator, NamedTuple, Sequence

from memcheck.problem import ERROR, Problem, Rule
from memcheck.text.document import Document
from memcheck.text.secrets import ASSIGN, ASSIGN_STARTS, PROBES, WORD_DASH
from memcheck.workspace.discover import Workspace

if TYPE_CHECKING:
    from memcheck.engine.targets import Targets

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
""")

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
""")

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
""")

RULES = (SEC001, SEC002, SEC003)


class Secret(NamedTuple):
    line: int
    col: int
    rule: Rule
    shown: str  # the redacted form, safe to print
    value: str  # never printed: used to scrub other messages


_KEY_BEGIN = re.compile(r"-----BEGIN ((?:RSA|DSA|EC|OPENSSH|PGP|ENCRYPTED|SSH2) )?PRIVATE KEY( BLOCK)?-----")
_KEY_END = re.compile(r"-----END [A-Z0-9 ]*PRIVATE KEY")
_KEY_BODY = re.compile(r"^[A-Za-z0-9+/=]{40,}$")

# The token and assignment patterns are shared with what prints a file's text in a
# message (a config error): see memcheck.text.secrets.
_NAME_CHARS = frozenset(WORD_DASH + ".")
_PLACEHOLDER = re.compile(r"(?i)x{4,}|\*{3,}|\.{3}|…|<[^>]*>|\{\{|\$\{|\$\(|%\(|example|sample|placeholder|dummy|fake|redacted|changeme|change-me|your[_-]|[_-]here\b|replace|insert|todo|test[_-]?key|secret[_-]?key[_-]?here|process\.env|os\.environ|getenv")
_RUN = re.compile(r"(.)\1{5,}")


def _assignment_starts(text: str) -> list[int]:
    """Offsets where a credential name's last word may begin, in order."""
    low = text.lower()
    found: set[int] = set()
    for word in ASSIGN_STARTS:
        at = low.find(word)
        while at >= 0:
            found.add(at)
            at = low.find(word, at + 1)
    return sorted(found)


def entropy(text: str) -> float:
    """Shannon entropy in bits per character."""
    counts = Counter(text)
    n = len(text)
    return -sum(c / n * math.log2(c / n) for c in counts.values())


def _placeholder(value: str) -> bool:
    return bool(_PLACEHOLDER.search(value) or _RUN.search(value))


def _classes(value: str) -> int:
    return sum(bool(re.search(p, value)) for p in (r"[a-z]", r"[A-Z]", r"[0-9]", r"[^A-Za-z0-9]"))


def _random_enough(value: str) -> bool:
    return entropy(value) >= 3.0 and _classes(value) >= 2


def _redact(value: str, shown_prefix: int) -> str:
    return f"{value[:shown_prefix]}…({len(value)} chars)"


def find(doc: Document) -> Iterator[Secret]:
    """Secret-like strings in a document, in line order.

    Each pattern scans the whole text once (no pattern crosses a line end), rather
    than every line being scanned by every pattern: on a large tree that is the
    difference between milliseconds and seconds.
    """
    if doc.error is not None:
        return
    found, inside_keys = _key_blocks(doc.lines) if "-----BEGIN" in doc.text else ([], set())
    found.extend(_tokens(doc, inside_keys))
    yield from sorted(found, key=lambda s: (s.line, s.col, s.rule.code))


def _key_blocks(lines: tuple[str, ...]) -> tuple[list[Secret], set[int]]:
    """Private key blocks with real key material, and the 0-based lines they span."""
    found: list[Secret] = []
    spanned: set[int] = set()
    i = 0
    while i < len(lines):
        key = _KEY_BEGIN.search(lines[i])
        if key:
            body: list[str] = []
            j = i + 1
            while j < len(lines) and j < i + 200 and not _KEY_END.search(lines[j]):
                body.append(lines[j].strip())
                j += 1
            material = [b for b in body if _KEY_BODY.match(b) and not _placeholder(b)]
            if material:
                kind = (key.group(1) or "").strip() or "generic"
                shown = f"private key block ({kind}, {len(body)} lines)"
                found.extend(Secret(i + 1, key.start() + 1, SEC001, shown, value) for value in material)
                spanned.update(range(i, j + 1))
                i = j + 1
                continue
        i += 1
    return found, spanned


class _Taken:
    """Spans of the text already reported, merged, for "is this offset inside one?" by
    bisection (a list tried span by span made a file of 4,000 tokens take 6 s)."""

    def __init__(self) -> None:
        self.starts: list[int] = []
        self.ends: list[int] = []

    def covers(self, offset: int) -> bool:
        i = bisect_right(self.starts, offset) - 1
        return i >= 0 and offset < self.ends[i]

    def add(self, start: int, end: int) -> None:
        i = bisect_right(self.starts, start)
        if i > 0 and self.ends[i - 1] >= start:  # joins the span before
            i -= 1
            start, end = self.starts[i], max(end, self.ends[i])
            del self.starts[i], self.ends[i]
        while i < len(self.starts) and self.starts[i] <= end:  # swallows the spans after
            end = max(end, self.ends[i])
            del self.starts[i], self.ends[i]
        self.starts.insert(i, start)
        self.ends.insert(i, end)


def _tokens(doc: Document, skip_lines: set[int]) -> Iterator[Secret]:
    text = doc.text
    taken = _Taken()
    starts: list[int] = []  # offset of each line, built only when something matches

    def place(offset: int) -> tuple[int, int] | None:
        if not starts:
            starts.append(0)
            for line_text in doc.lines[:-1]:
                starts.append(starts[-1] + len(line_text) + 1)
        line = bisect_right(starts, offset) - 1
        return None if line in skip_lines else (line + 1, offset - starts[line] + 1)

    for probe, patterns in PROBES:
        if probe.search(text):
            yield from _token_matches(text, patterns, taken, place)
    if '"' not in text and "'" not in text:
        return  # every credential assignment quotes its value
    end = 0
    for start in _assignment_starts(text):
        found = ASSIGN.match(text, start) if start >= end else None
        if found is None:
            continue
        end = found.end()
        value, quote = found.group(2), found.group(1)
        where = place(found.start(2))
        if where is None or taken.covers(found.start(2)) or _placeholder(value):
            continue
        if len(value) < 12 or entropy(value) < 3.2 or _classes(value) < 2 or _looks_like_code(value):
            continue
        begin = start
        while begin > 0 and text[begin - 1] in _NAME_CHARS:
            begin -= 1
        name = text[begin : found.end()].split(quote, 1)[0].rstrip("\"' \t=:>")
        yield Secret(*where, SEC003, f"{name} = {quote}…{quote}({len(value)} chars)", value)


def _token_matches(
    text: str, patterns: Sequence[tuple[frozenset[str], re.Pattern[str]]], taken: _Taken, place: Callable[[int], tuple[int, int] | None]
) -> Iterator[Secret]:
    for before, pattern in patterns:
        for m in pattern.finditer(text):
            if m.start() > 0 and text[m.start() - 1] in before:
                continue
            value, prefix = m.group("t"), m.group("p")
            tail = value[len(prefix) :]
            where = place(m.start("t"))
            if where is None or _placeholder(value) or taken.covers(m.start("t")):
                continue
            if not _random_enough(tail) or (entropy(tail) < 3.3 and len(tail) < 30):
                continue
            taken.add(m.start("t"), m.end("t"))
            yield Secret(*where, SEC002, _redact(value, len(prefix)), value)


def _looks_like_code(value: str) -> bool:
    # A reference, a path, a dotted name, a URL without credentials: not a secret.
    return bool(re.match(r"^(?:[A-Za-z_][\w]*\.)+[A-Za-z_]\w*$|^[./~]|^https?://[^@]*$|^[A-Z_][A-Z0-9_]*$", value))


def files_of(targets: Targets) -> list[str]:
    paths: set[str] = set(targets.guidance) | set(targets.skills)
    for store in targets.stores:
        paths.update(store.files)
        if store.has_index:
            paths.add(store.index)
    return sorted(paths)


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
            message = message.replace(value, _redact(value, 0))
        return message


def secrets_in(ws: Workspace, path: str) -> list[Secret]:
    """The secrets of a file, found once however many ask (the check, then the scrub)."""
    return ws.derived(ws.document(path), _secrets)


def _secrets(ws: Workspace, doc: Document) -> list[Secret]:
    return list(find(doc))
