"""Values that stand for a secret rather than being one: placeholders
(`<your-token>`, `CHANGE_ME`, `google-client-secret`), the samples documentation prints
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
    one character, a documented sample, or words that name their own role."""
    return bool(_PLACEHOLDER.search(value) or _RUN.search(value) or _CHANGE_ME.fullmatch(value) or _names_itself(value)) or any(
        sample in value for sample in _DOCUMENTED_SAMPLES
    )


# A value made only of words that describe a credential (`client_secret =
# "google-client-secret"`, `GOG_KEYRING_PASSWORD='secure-password'`,
# `JWT_SECRET_KEY=dev-secret-key-for-testing-only`, each judged a placeholder on an
# unseen repository): a description of a secret, not one. Every word must come from a
# closed list (a role, what it is for, whose it is, a filler): one word outside it
# (`secret-kzqxwvjpmfhy`, `orchard-key-glacier-tulip`, an outside attack's recipes) and
# the value is judged as any other.
_WORDS = lazy_regex.compile(r"[a-z]{2,}(?:[-_.][a-z]{2,})+")
_ROLE_WORDS = frozenset(
    {"secret", "password", "passwd", "pwd", "key", "token", "apikey", "credential", "credentials", "pass", "passphrase"}
)
_DESCRIBING_WORDS = _ROLE_WORDS | frozenset(
    {
        # what it is for, and whose
        "api", "access", "auth", "client", "app", "application", "service", "user", "admin", "account", "db", "database",
        "jwt", "oauth", "session", "signing", "encryption", "webhook", "keyring", "bot", "id", "private", "public", "master",
        "google", "microsoft", "github", "gitlab", "aws", "azure", "gcp", "slack", "stripe", "openai", "anthropic", "twilio",
        "sendgrid", "discord", "supabase", "firebase", "postgres", "mysql", "redis", "mongo",
        # fillers of samples
        "your", "my", "our", "the", "a", "an", "for", "of", "to", "and", "only", "here", "this", "some", "new", "value",
        "secure", "strong", "super", "very", "dev", "development", "local", "localhost", "test", "testing", "demo",
        "default", "sample", "example", "dummy", "fake", "placeholder", "goes", "put", "insert", "replace", "with",
    }
)  # fmt: skip


def _names_itself(value: str) -> bool:
    if _WORDS.fullmatch(value) is None:
        return False
    words = re.split(r"[-_.]", value)
    return not _ROLE_WORDS.isdisjoint(words) and _DESCRIBING_WORDS.issuperset(words)


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
