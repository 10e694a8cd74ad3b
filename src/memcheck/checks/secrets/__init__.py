"""SEC: secret-like content in memory, guidance and skill files.

These files are committed, loaded into every session and sent to a model provider:
no place for credentials. The secret itself never appears in a message: findings
show a redacted form (``ghp_…(40 chars)``), and ``scrub`` removes any secret that
another rule's message happens to quote. What counts as a secret is found in
``text/secrets.py``, where what ``memcheck context`` prints and the entries
``memcheck fix`` writes are redacted by the same patterns.

One module per rule (``private_key``, ``api_token``, ``hardcoded_credential``), each
with the kind of find it reports and its message; the one detector pass, which every
rule's findings come from and which ``scrub`` (engine/part) asks again, is here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterable, Iterator, Sequence

from memcheck.checks.secrets import api_token, hardcoded_credential, private_key
from memcheck.checks.secrets.api_token import SEC002
from memcheck.checks.secrets.hardcoded_credential import SEC003
from memcheck.checks.secrets.private_key import SEC001
from memcheck.problem import NOTE, Problem, Rule
from memcheck.records import NamedTuple
from memcheck.text import escapes, invisible
from memcheck.text import secrets as detect
from memcheck.text.document import Document
from memcheck.workspace.discover import Workspace

if TYPE_CHECKING:
    from memcheck.workspace.targets import Targets

RULES = (SEC001, SEC002, SEC003)


class Secret(NamedTuple):
    line: int
    col: int
    rule: Rule
    shown: str  # the redacted form, safe to print
    value: str  # never printed: used to scrub other messages


# The rule that reports each kind of the detector's finds, and what its finding says.
_RULE = {private_key.KIND: SEC001, api_token.KIND: SEC002, hardcoded_credential.KIND: SEC003}
_MESSAGES = {SEC001: private_key.MESSAGE, SEC002: api_token.MESSAGE, SEC003: hardcoded_credential.MESSAGE}


def find(doc: Document) -> Iterator[Secret]:
    """Secret-like strings in a document, in line order (what ``text.secrets`` finds, by the rule that reports it),
    and the documented example keys passed over (``value`` empty: a note, not a finding)."""
    if doc.error is not None:  # not UTF-8, or too large: an agent reads it all the same
        from memcheck.text import salvage  # (rare: not imported by the usual run)

        doc = salvage.readable(doc) or doc
    for found in detect.find(doc):
        yield Secret(found.line, found.col, _RULE[found.kind], found.shown, found.value)
    if doc.error is None and invisible.has_tags(doc.text):
        yield from _in_tags(doc)
    if doc.error is None:
        for line, col, key in api_token.documented_examples(doc.text):
            yield Secret(line, col, SEC002, key, "")
    for value in escapes.values(doc):
        yield from _in_escapes(value)


def _in_tags(doc: Document) -> Iterator[Secret]:
    """Secrets spelt in invisible tag characters (U+E0000–U+E007F), which an agent
    reads as the ASCII they stand for: found in the decoded text, placed at their
    first tag character."""
    for tags in invisible.tag_texts(doc.lines):
        plain = tags.plain
        for found in detect.find_in(plain, [plain]):
            yield Secret(
                tags.line, tags.cols[found.col - 1], _RULE[found.kind], f"{found.shown}, hidden in invisible tag characters,", found.value
            )


def _in_escapes(value: escapes.Escaped) -> Iterator[Secret]:
    """Secrets in a frontmatter value as YAML decodes its escapes (``\\x67hp_…``), which
    an agent reads decoded: placed at the key's line. One written out in the file as
    well is reported where it is written, not again here."""
    written = "\n".join(value.raw)
    lines = value.value.split("\n")
    finds = [(f, f.shown) for f in detect.find_in(value.value, lines)]
    if invisible.has_tags(value.value):
        finds += [
            (f, f"{f.shown}, hidden in invisible tag characters,")
            for tags in invisible.tag_texts(lines)
            for f in detect.find_in(tags.plain, [tags.plain])
        ]
    for found, shown in finds:
        if found.value not in written:
            yield Secret(value.line, value.col, _RULE[found.kind], f"{shown} (in {value.key!r}, written as YAML escapes)", found.value)


def files_of(targets: Targets, ws: Workspace) -> list[str]:
    """Every file of the targets an agent reads: the agent files, and the files the
    guidance files @-import (docs/notes.md, which Claude Code loads with the CLAUDE.md
    that names it) where the targets hold guidance."""
    if not targets.guidance:
        return targets.agent_files()
    from memcheck.agents import expansion  # with guidance only: a commit of a memory needs none

    return expansion.with_imports(ws, targets.agent_files(), targets.guidance)


def check(ws: Workspace, targets: Targets) -> Iterator[Problem]:
    for path in files_of(targets, ws):
        seen: set[tuple[int, str]] = set()
        for secret in secrets_in(ws, path):
            if (secret.line, secret.rule.code) in seen and secret.rule is SEC001:
                continue  # one finding per key block
            seen.add((secret.line, secret.rule.code))
            if not secret.value:  # a documented example key: said once in the summary line
                yield SEC002.at(path, secret.line, secret.col, secret.shown)._replace(severity=NOTE)
                continue
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
