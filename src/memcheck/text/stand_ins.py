"""Values that stand for a secret rather than being one: placeholders
(`<your-token>`, `CHANGE_ME`), the samples documentation prints
for everyone, references to where the real value lives (`process.env.X`, a dotted
name, a path), and the measures of randomness by which a literal reads as a real
credential. text/secrets.py asks them of every value it finds."""

from __future__ import annotations

import math
import re
from collections import Counter

from memcheck import lazy_regex

# Values that documentation prints for everyone to copy: jwt.io's sample token (its
# signature) is in countless READMEs and is nobody's credential.
_DOCUMENTED_SAMPLES = ("SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c",)

_PLACEHOLDER = lazy_regex.compile(
    r"(?i)x{4,}|\*{3,}|\.{3}|…|<[^>]*>|\{\{|\$\{|\$\(|%\(|example|sample|placeholder|dummy|fake|redacted|changeme|change-me|your[_-]|[_-]here\b|replace|insert|todo|test[_-]?key|secret[_-]?key[_-]?here|process\.env|os\.environ|getenv|from[_-]?env\b|env[_-]?var|12345"
)
_RUN = lazy_regex.compile(r"(.)\1{5,}")


def entropy(text: str) -> float:
    """Shannon entropy in bits per character."""
    counts = Counter(text)
    n = len(text)
    return -sum(c / n * math.log2(c / n) for c in counts.values())


def placeholder(value: str) -> bool:
    """Whether ``value`` reads as a stand-in: a placeholder's words or marks, a run of
    one character, or a documented sample."""
    return bool(_PLACEHOLDER.search(value) or _RUN.search(value) or _CHANGE_ME.fullmatch(value)) or any(
        sample in value for sample in _DOCUMENTED_SAMPLES
    )


# A value that tells the reader to change it, and nothing after that but capital
# words (`CHANGE_ME_USE_STRONG_PASSWORD`, judged on an unseen repository); with
# anything else after it (`CHANGE_ME_Xk9mQ2vL8p`, `CHANGE_ME_letmein`), the rest may
# be a real password (two outside attacks' recipes).
_CHANGE_ME = lazy_regex.compile(r"CHANGE_ME(?:_[A-Z]{2,12})*|change_me")


def classes(value: str) -> int:
    """How many of lower case, upper case, digits and other characters ``value`` has."""
    return sum(bool(re.search(p, value)) for p in (r"[a-z]", r"[A-Z]", r"[0-9]", r"[^A-Za-z0-9]"))


def random_enough(value: str) -> bool:
    """Whether ``value`` is varied enough to be a generated secret."""
    return entropy(value) >= 3.0 and classes(value) >= 2


# The passwords of documentation and local examples (`postgres://postgres:postgres@localhost`).
SAMPLE_PASSWORDS = frozenset(
    {"password", "passwd", "pass", "pwd", "secret", "postgres", "root", "admin", "guest", "test", "user", "mysecretpassword"}
)


def credible(value: str) -> bool:
    """Whether a literal value given to a credential reads as a real one."""
    return not (value[0] in "$%<{[(" or placeholder(value) or entropy(value) < 3.2 or classes(value) < 2 or looks_like_code(value))


def looks_like_code(value: str) -> bool:
    # A reference, a path, a dotted name, a URL without credentials: not a secret.
    return bool(re.match(r"^(?:[A-Za-z_][\w]*\.)+[A-Za-z_]\w*$|^[./~]|^https?://[^@]*$|^[A-Z_][A-Z0-9_]*$", value))
