"""The shapes of secrets, and what a message may show of a file's text.

The token patterns are those the SEC rules look for (``checks/secrets.py`` judges
which matches are real credentials); ``redact`` uses them to take every token out of
text memcheck is about to print, and ``excerpt`` and ``bounded`` keep what a message
quotes of a file short. A config error goes to a CI log that anyone may read, and a
config can be the pull request's own file: its message names the key and shows a
few characters of the value, never a whole line of the file.
"""
from __future__ import annotations

import re

ALNUM = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
WORD = ALNUM + "_"
WORD_DASH = WORD + "-"

# Group "p" is the prefix that names the kind of token: it may be shown, the rest not.
# Each pattern comes with a probe: a cheap search for the literal prefix it needs
# (a file without it is not scanned by the pattern at all; one probe per kind of
# token, not one `in` per prefix, because each costs a pass over the text), and the
# characters that may not precede it. That check is done in Python rather than as a
# leading lookbehind, because a pattern that starts with a literal lets the regex
# engine jump between candidates.
TOKENS: tuple[tuple[re.Pattern[str], frozenset[str], re.Pattern[str]], ...] = tuple(
    (re.compile(probe), frozenset(before), re.compile(p))
    for probe, before, p in (
        ("AKIA|ASIA|ABIA|ACCA", ALNUM, r"(?P<t>(?P<p>AKIA|ASIA|ABIA|ACCA)[0-9A-Z]{16})(?![A-Za-z0-9])"),
        ("gh[pousr]_", WORD, r"(?P<t>(?P<p>gh[pousr]_)[A-Za-z0-9]{36,255})(?![A-Za-z0-9_])"),
        ("github_pat_", WORD, r"(?P<t>(?P<p>github_pat_)[A-Za-z0-9_]{50,255})(?![A-Za-z0-9_])"),
        (
            "gl(?:pat|dt|ptt|rt|cbt|oas|soat|ft|imt)-",
            WORD, r"(?P<t>(?P<p>gl(?:pat|dt|ptt|rt|cbt|oas|soat|ft|imt)-)[A-Za-z0-9_-]{20,})(?![A-Za-z0-9_-])",
        ),
        ("xox[abposr]-", WORD, r"(?P<t>(?P<p>xox[abposr]-)[0-9]{6,}-[A-Za-z0-9-]{6,})(?![A-Za-z0-9-])"),
        (r"hooks\.slack\.com", "", r"(?P<t>(?P<p>https://hooks\.slack\.com/services/)T[A-Z0-9]{6,}/B[A-Z0-9]{6,}/[A-Za-z0-9]{20,})"),
        ("k_(?:live|test|prod)_", WORD, r"(?P<t>(?P<p>(?:sk|rk)_(?:live|test|prod)_)[A-Za-z0-9]{20,})(?![A-Za-z0-9_])"),
        ("sk-", WORD_DASH, r"(?P<t>(?P<p>sk-ant-(?:api|admin|oat|sid)\d{2}-)[A-Za-z0-9_-]{40,})(?![A-Za-z0-9_-])"),
        ("sk-", WORD_DASH, r"(?P<t>(?P<p>sk-(?!ant-)(?:proj-|svcacct-|admin-)?)[A-Za-z0-9_-]{32,})(?![A-Za-z0-9_-])"),
    )
)
# The patterns by probe, in order: the two OpenAI-style patterns share "sk-".
PROBES: tuple[tuple[re.Pattern[str], tuple[tuple[frozenset[str], re.Pattern[str]], ...]], ...] = tuple(
    (probe, tuple((before, pattern) for p, before, pattern in TOKENS if p.pattern == probe.pattern))
    for probe in {p.pattern: p for p, _, _ in TOKENS}.values()
)
# A name ending in one of these words, then `=`, `:`, `:=` or `=>`, then a quoted
# value. The match starts at the word; the rest of the name is read backwards from it.
# Where one can start: the lower-cased first letters of each word.
ASSIGN_STARTS = ("passw", "secret", "token", "api", "access", "private")
ASSIGN = re.compile(
    r"""(?i)(?:password|passwd|secret|token|api[_-]?key|apikey|access[_-]?key|secret[_-]?key|private[_-]?key)["']?[ \t]*(?::=|=>|=|:)[ \t]*(["'])([^"'\s]{8,256})\1"""
)

# What ``redact`` takes out besides the tokens: a value given to a credential's name,
# quoted or not (the rules ask for quotes, to tell code from a secret; a message
# need not tell), and the password in a URL (``https://user:PASSWORD@host``, as
# ~/.git-credentials holds them).
_ASSIGNED = re.compile(
    r"""(?i)(?:password|passwd|secret|token|api[_-]?key|apikey|access[_-]?key|secret[_-]?key|private[_-]?key)["']?[ \t]*(?::=|=>|=|:)[ \t]*["']?([^"'\s,;]{6,})"""
)
_URL_PASSWORD = re.compile(r"(?<=://)([^/\s:@]*):([^/\s@]+)@")
# Private key material, or any other random run of base64: upper and lower case and
# digits mixed (a long word or a run of one letter is left to be cut short).
_BASE64_RUN = re.compile(r"[A-Za-z0-9+/=]{40,}")

EXCERPT = 40  # characters of a file's text a message may quote in one place


def redact(text: str) -> str:
    """``text`` with every secret-shaped string replaced by its kind and length
    (``ghp_…(40 chars)``). Unlike the SEC rules, it takes out placeholders and
    low-entropy tokens too: a message loses nothing by it."""
    for probe, patterns in PROBES:
        if probe.search(text):
            for _, pattern in patterns:
                text = pattern.sub(lambda m: f"{m.group('p')}…({len(m.group('t'))} chars)", text)
    text = _ASSIGNED.sub(lambda m: m.group(0)[: m.start(1) - m.start(0)] + "…", text)
    text = _URL_PASSWORD.sub(lambda m: f"{m.group(1)}:…@", text)
    return _BASE64_RUN.sub(_random_run, text)


def _random_run(m: re.Match[str]) -> str:
    run = m.group(0)
    mixed = any(c.isupper() for c in run) and any(c.islower() for c in run) and any(c.isdigit() for c in run)
    return f"…({len(run)} chars)" if mixed else run


def excerpt(text: str, limit: int = EXCERPT) -> str:
    """What a message may show of ``text``, a piece of a file: secrets redacted, then
    at most ``limit`` characters, an ellipsis marking the cut."""
    # Redacting shortens a token to some 15 characters, so what can reach the first
    # ``limit`` characters lies within the first 8 * limit: the rest is never scanned.
    shown = redact(text[: 8 * limit])
    return shown if len(shown) <= limit and len(text) <= 8 * limit else shown[: limit - 1] + "…"


_QUOTED = re.compile(r"'(?:[^'\\\n]|\\.)*'|\"(?:[^\"\\\n]|\\.)*\"")
_RUN = re.compile(rf"[^\s'\"]{{{EXCERPT + 1},}}")


def bounded(message: str, limit: int = 4 * EXCERPT) -> str:
    """A message written by a library (PyYAML, tomllib, re) that may quote the file:
    secrets redacted, each quoted part and each unbroken run of characters cut to an
    excerpt, and the whole to ``limit`` characters."""
    message = redact(message)
    message = _QUOTED.sub(lambda m: m.group(0) if len(m.group(0)) <= EXCERPT + 2 else m.group(0)[: EXCERPT + 1] + "…" + m.group(0)[0], message)
    message = _RUN.sub(lambda m: m.group(0)[: EXCERPT - 1] + "…", message)
    return message if len(message) <= limit else message[: limit - 1] + "…"
