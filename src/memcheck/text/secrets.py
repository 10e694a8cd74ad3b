"""Secret-like strings in text: private key blocks, cloud and API tokens, and literal
credentials assigned to a name (``DB_PASSWORD = "…"``).

The SEC rules report them (``checks/secrets.py``); ``redact`` takes them out of
text memcheck shows or writes that quotes a file: what ``memcheck context`` prints,
and the entries ``memcheck fix`` writes into MEMORY.md from a memory's frontmatter.
A found secret carries its value, to be replaced or scrubbed, and a form safe to
print (``ghp_…(40 chars)``).

Why not detect-secrets (Yelp's, the Python standard): it runs on every commit here,
and importing it and scanning one memory with its default plugins cost 0.235 s of CPU,
2.4 times a whole `check --changed` of a one-memory commit (0.096 s) on a store of 600
memories (paired runs, medians). Its plugins' shapes are the ones kept below, each with
the vendor's page that documents it.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from typing import TYPE_CHECKING, Any, Callable, Iterator, Sequence

from memcheck import lazy_regex
from memcheck.records import NamedTuple
from memcheck.text import invisible
from memcheck.text.stand_ins import (
    SAMPLE_PASSWORDS,
    classes,
    credible,
    entropy,
    looks_like_code,
    placeholder,
    random_enough,
)

if TYPE_CHECKING:
    from memcheck.text.document import Document

# What was found, in the order of the rules that report them (SEC001, SEC002, SEC003).
KEY, TOKEN, ASSIGNMENT = 1, 2, 3
# What a secret becomes in text that quotes it, after the prefix naming its kind.
REDACTED = "…[redacted]"


class Found(NamedTuple):
    line: int
    col: int
    kind: int  # KEY, TOKEN or ASSIGNMENT
    shown: str  # the redacted form, safe to print
    value: str  # never printed
    prefix: str = ""  # the part of a token that names its kind (``ghp_``): may be shown


_KEY_BEGIN = lazy_regex.compile(r"-----BEGIN ((?:RSA|DSA|EC|OPENSSH|PGP|ENCRYPTED|SSH2) )?PRIVATE KEY( BLOCK)?-----")
_KEY_END = lazy_regex.compile(r"-----END [A-Z0-9 ]*PRIVATE KEY")
_KEY_BODY = lazy_regex.compile(r"^[A-Za-z0-9+/=]{40,}$")
_QUOTE_OR_ITEM = lazy_regex.compile(r"^(?:[ \t]*(?:>|[-*+](?=[ \t])|\d{1,9}[.)](?=[ \t])))+")

_ALNUM = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
_WORD = _ALNUM + "_"
_WORD_DASH = _WORD + "-"
_NAME_CHARS = frozenset(_WORD_DASH + ".")

# Group "p" is the prefix that names the kind of token: it may be shown, the rest not.
# Each pattern comes with a probe: a cheap search for the literal prefix it needs
# (a file without it is not scanned by the pattern at all; one probe per kind of
# token, not one `in` per prefix, because each costs a pass over the text), and the
# characters that may not precede it. That check is done in Python rather than as a
# leading lookbehind, because a pattern that starts with a literal lets the regex
# engine jump between candidates. The kinds whose prefix holds an underscore are
# probed only in a text that has one (one C scan that stops at the first, where a
# probe is a pass over the whole text: most prose has no underscore, and on bench/'s
# M tree the probes were half of the SEC rules' time).


class _Literal:
    """A probe that is a plain string, searched with ``in``: one C scan, where a
    regex search is a call into the engine (the ten families below took 0.15 s
    probed so over the 11,601 files of bench/'s M tree, 0.24 s as regex searches).
    ``gate``, one character of the literal that prose seldom holds, is looked for
    first: a one-character ``in`` is a memchr, a tenth of a longer string's search
    (the ten probes gated so: 58 ms against 134 ms over the same files; one re2 set
    of every probe took 46 ms, but loading re2 raised a whole tree's peak memory by
    3 MiB)."""

    __slots__ = ("gate", "literal", "pattern")

    def __init__(self, literal: str, gate: str) -> None:
        assert gate in literal
        self.literal, self.gate = literal, gate
        self.pattern = re.escape(literal)  # for the patterns that join every probe

    def search(self, text: str) -> bool:
        return self.gate in text and self.literal in text


class _Gated(_Literal):
    """A probe that is a pattern, searched only in a text holding ``gate``, a character
    every match begins with (AWS's key ids all start with `A`, which half of bench/'s
    M files lack: one memchr there instead of a regex scan)."""

    __slots__ = ("regex",)

    def __init__(self, pattern: str, gate: str) -> None:
        self.literal, self.gate, self.pattern = "", gate, pattern
        self.regex = lazy_regex.compile(pattern)

    def search(self, text: str) -> bool:
        return self.gate in text and self.regex.search(text) is not None


_TOKENS: tuple[tuple[re.Pattern[str] | _Literal, frozenset[str], re.Pattern[str]], ...] = tuple(
    (probe if isinstance(probe, _Literal) else lazy_regex.compile(probe), frozenset(before), lazy_regex.compile(p))
    for probe, before, p in (
        (_Gated("AKIA|ASIA|ABIA|ACCA", "A"), _ALNUM, r"(?P<t>(?P<p>AKIA|ASIA|ABIA|ACCA)[0-9A-Z]{16})(?![A-Za-z0-9])"),
        ("gh[pousr]_", _WORD, r"(?P<t>(?P<p>gh[pousr]_)[A-Za-z0-9]{36,255})(?![A-Za-z0-9_])"),
        ("github_pat_", _WORD, r"(?P<t>(?P<p>github_pat_)[A-Za-z0-9_]{50,255})(?![A-Za-z0-9_])"),
        (
            "gl(?:pat|dt|ptt|rt|cbt|oas|soat|ft|imt)-",
            _WORD,
            r"(?P<t>(?P<p>gl(?:pat|dt|ptt|rt|cbt|oas|soat|ft|imt)-)[A-Za-z0-9_-]{20,})(?![A-Za-z0-9_-])",
        ),
        ("xox[abposr]-", _WORD, r"(?P<t>(?P<p>xox[abposr]-)[0-9]{6,}-[A-Za-z0-9-]{6,})(?![A-Za-z0-9-])"),
        (
            _Literal("hooks.slack.com/services/", "."),
            "",
            r"(?P<t>(?P<p>https://hooks\.slack\.com/services/)T[A-Z0-9]{6,}/B[A-Z0-9]{6,}/[A-Za-z0-9]{20,})",
        ),
        ("k_(?:live|test|prod)_", _WORD, r"(?P<t>(?P<p>(?:sk|rk)_(?:live|test|prod)_)[A-Za-z0-9]{20,})(?![A-Za-z0-9_])"),
        (_Literal("sk-", "-"), _WORD_DASH, r"(?P<t>(?P<p>sk-ant-(?:api|admin|oat|sid)\d{2}-)[A-Za-z0-9_-]{40,})(?![A-Za-z0-9_-])"),
        (_Literal("sk-", "-"), _WORD_DASH, r"(?P<t>(?P<p>sk-(?!ant-)(?:proj-|svcacct-|admin-)?)[A-Za-z0-9_-]{32,})(?![A-Za-z0-9_-])"),
        # Each family below with the vendor's page that gives its format.
        # npm: `npm_` and 36 characters (https://github.blog/changelog/2021-09-23-npm-has-a-new-access-token-format/).
        (_Literal("npm_", "_"), _WORD, r"(?P<t>(?P<p>npm_)[A-Za-z0-9]{36})(?![A-Za-z0-9_])"),
        # PyPI: `pypi-` and a macaroon, whose base64 starts `AgE` (https://pypi.org/help/#apitoken).
        (_Literal("pypi-AgE", "E"), _WORD_DASH, r"(?P<t>(?P<p>pypi-)AgE[A-Za-z0-9_-]{50,})(?![A-Za-z0-9_-])"),
        # Google API keys: `AIza` and 35 characters (https://cloud.google.com/docs/authentication/api-keys).
        (_Literal("AIza", "z"), _WORD_DASH, r"(?P<t>(?P<p>AIza)[0-9A-Za-z_-]{35})(?![A-Za-z0-9_-])"),
        # Hugging Face user access tokens: `hf_` and 34 letters (https://huggingface.co/docs/hub/security-tokens).
        (_Literal("hf_", "_"), _WORD, r"(?P<t>(?P<p>hf_)[A-Za-z]{34})(?![A-Za-z0-9_])"),
        # Slack app-level tokens: `xapp-` (https://api.slack.com/authentication/token-types#app-level).
        (_Literal("xapp-", "x"), _WORD, r"(?P<t>(?P<p>xapp-)\d+-[A-Z0-9]{8,}-\d{6,}-[A-Za-z0-9]{32,})(?![A-Za-z0-9-])"),
        # SendGrid API keys: `SG.`, an id and a secret (https://www.twilio.com/docs/sendgrid/ui/account-and-settings/api-keys).
        (_Literal("SG.", "G"), _WORD_DASH + ".", r"(?P<t>(?P<p>SG\.)[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43})(?![A-Za-z0-9_-])"),
        # DigitalOcean personal, OAuth and refresh tokens: `dop_v1_`, `doo_v1_`, `dor_v1_` and 64
        # hexadecimal digits (https://docs.digitalocean.com/reference/api/create-personal-access-token/).
        (_Literal("_v1_", "_"), _WORD, r"(?P<t>(?P<p>do[opr]_v1_)[a-f0-9]{64})(?![A-Za-z0-9_])"),
        # Stripe webhook signing secrets: `whsec_` (https://docs.stripe.com/webhooks#verify-webhook-signatures).
        (_Literal("whsec_", "_"), _WORD, r"(?P<t>(?P<p>whsec_)[A-Za-z0-9+/=]{32,})(?![A-Za-z0-9+/=])"),
        # JSON Web Tokens: a base64url JSON header (`{"` is `eyJ`), payload and signature
        # (https://datatracker.ietf.org/doc/html/rfc7519#section-3.1).
        (
            _Literal(".eyJ", "J"),  # (the payload's start: longer than the header's, so faster to look for)
            _WORD_DASH,
            r"(?P<t>(?P<p>eyJ)[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{20,})(?![A-Za-z0-9_-])",
        ),
        # Azure Storage connection strings: `AccountKey=` and a base64 key of 64 bytes
        # (https://learn.microsoft.com/en-us/azure/storage/common/storage-configure-connection-string).
        (_Literal("AccountKey=", "="), _WORD, r"(?P<t>(?P<p>AccountKey=)[A-Za-z0-9+/]{86}==)(?![A-Za-z0-9+/=])"),
        # age X25519 identities: `AGE-SECRET-KEY-1` and 58 Bech32 characters in upper case
        # (https://github.com/C2SP/C2SP/blob/main/age.md#the-x25519-recipient-type).
        (
            _Literal("AGE-SECRET-KEY-1", "K"),
            _WORD_DASH,
            r"(?P<t>(?P<p>AGE-SECRET-KEY-1)[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58})(?![A-Za-z0-9])",
        ),
        # Shopify access tokens, `shpat_`, `shpca_`, `shppa_` (public, custom and private apps), and app
        # secrets, `shpss_`, each then 32 characters
        # (https://shopify.dev/changelog/length-of-the-shopify-access-token-is-increasing,
        # https://shopify.dev/changelog/app-secret-key-length-has-increased).
        ("shp(?:at|ca|pa|ss)_", _WORD, r"(?P<t>(?P<p>shp(?:at|ca|pa|ss)_)[A-Za-z0-9]{32})(?![A-Za-z0-9_])"),
        # Discord webhook URLs: the webhook's id and its token
        # (https://discord.com/developers/docs/resources/webhook#execute-webhook).
        (
            _Literal("/api/webhooks/", "/"),
            "",
            r"(?P<t>(?P<p>https://(?:ptb\.|canary\.)?discord(?:app)?\.com/api/webhooks/)\d{17,20}/[A-Za-z0-9_-]{60,})(?![A-Za-z0-9_-])",
        ),
        # Groq API keys: `gsk_` and 52 characters (https://console.groq.com/docs/api-keys).
        (_Literal("gsk_", "_"), _WORD, r"(?P<t>(?P<p>gsk_)[A-Za-z0-9]{52})(?![A-Za-z0-9_])"),
        # Linear personal API keys: `lin_api_` and 40 characters (https://linear.app/developers/graphql#personal-api-keys).
        (_Literal("lin_api_", "_"), _WORD, r"(?P<t>(?P<p>lin_api_)[A-Za-z0-9]{40})(?![A-Za-z0-9_])"),
    )
)
# The patterns by probe, in order (the two OpenAI-style patterns share "sk-"), each
# with whether its prefix holds an underscore.
_PROBES: tuple[tuple[re.Pattern[str] | _Literal, bool, tuple[tuple[frozenset[str], re.Pattern[str]], ...]], ...] = tuple(
    (probe, "_" in probe.pattern, tuple((before, pattern) for p, before, pattern in _TOKENS if p.pattern == probe.pattern))
    for probe in {p.pattern: p for p, _, _ in _TOKENS}.values()
)
# A name ending in one of these words, then `=`, `:`, `:=` or `=>`, then a quoted
# value. The match starts at the word; the rest of the name is read backwards from it.
# Where one can start: the lower-cased first letters of each word.
_ASSIGN_STARTS = ("passw", "secret", "token", "api", "access", "private")
_ASSIGN = lazy_regex.compile(
    r"""(?i)(?:password|passwd|secret|token|api[_-]?key|apikey|access[_-]?key|secret[_-]?key|private[_-]?key)["']?[ \t]*(?::=|=>|=|:)[ \t]*(["'])([^"'\s]{8,256})\1"""
)
# A value that is an environment variable's name after `$` (`"password": "$MAIL_PASS"`
# in a shell command): the shell puts the variable's value there when it runs, so the
# text holds a reference, not the password. Upper case only, as environment variables
# are named by convention: a literal password may begin with `$` too.
# `$NAME`, and OpenCode's `{env:NAME}` with a name as variables' are written: capital
# words between `_`, each with a few digits at most after it (`OPENAI_API_KEY`,
# `S3_KEY`); a key pasted there (`{env:A1B2C3D4E5F6}`) is none (outside attacks).
_ENV_REFERENCE = lazy_regex.compile(r"\$[A-Z_][A-Z0-9_]*|\{env:[A-Z]{1,12}[0-9]{0,3}(?:_[A-Z]{1,12}[0-9]{0,3})*\}")
# Whether a short text may hold any secret at all: every token's probe and a key
# block's first line in one pattern, and the words an assignment's name ends in.
_MAY_HOLD = lazy_regex.compile("|".join([*(probe.pattern for probe, _, _ in _PROBES), "-----BEGIN"]))
_ASSIGN_WORD = lazy_regex.compile("(?i)" + "|".join(_ASSIGN_STARTS))


def _may_assign(text: str) -> bool:
    """Whether ``text`` holds a word an assignment's name may end in (_ASSIGN_WORD).
    In ASCII text, the lower-cased text is searched for each word: the pattern, a
    case-blind alternation, tries every offset (7 us for a 100-character message
    that quotes a key, as a rejected frontmatter's finding does, 0.5 us so). Case
    folding outside ASCII (`ſ` is an `s` to it) is the pattern's to tell."""
    if text.isascii():
        low = text.lower()
        return any(word in low for word in _ASSIGN_STARTS)
    return _ASSIGN_WORD.search(text) is not None


def _assignment_starts(text: str) -> list[int]:
    """Offsets where a credential name's last word may begin, in order."""
    low = text.lower()
    found: set[int] = set()
    for word in _ASSIGN_STARTS:
        at = low.find(word)
        while at >= 0:
            found.add(at)
            at = low.find(word, at + 1)
    return sorted(found)


def short_form(value: str, shown_prefix: int) -> str:
    """How a finding names a secret: its first ``shown_prefix`` characters (the
    prefix that names the kind of token) and its length, ``ghp_…(40 chars)``."""
    return f"{value[:shown_prefix]}…({len(value)} chars)"


def find(doc: Document) -> list[Found]:
    """Secret-like strings in a document, in line order."""
    if doc.error is not None:
        return []
    # The document's lines only if something is found: most files hold no secret, and
    # splitting every file into lines was a twentieth of a check of bench/'s M tree.
    return _find_in(doc.text, lambda: doc.lines)


def find_in(text: str, lines: Sequence[str]) -> list[Found]:
    """Secret-like strings in a text split into ``lines`` (at "\\n"), in line order.

    Each pattern scans the whole text once (no pattern crosses a line end), rather
    than every line being scanned by every pattern: on a large tree that is the
    difference between milliseconds and seconds.
    """
    return _find_in(text, lambda: lines)


def _find_in(text: str, lines: Callable[[], Sequence[str]]) -> list[Found]:
    found = _scan(text, lines)
    readable = _as_read(text)
    if readable is not None:
        found.extend(_found_as_read(text, readable, found))
    return sorted(found, key=lambda s: (s.line, s.col, s.kind))


def _scan(text: str, lines: Callable[[], Sequence[str]]) -> list[Found]:
    present = _PRESENCE.of(text)
    found, inside_keys = _key_blocks(lines()) if _KEY_BLOCK in present else ([], set())
    found.extend(_tokens(text, lines, inside_keys, present))
    return found


# --- What a text may hold, in one pass -------------------------------------------------

# Only the patterns whose probe is in a text scan it. In a process that scans many
# texts, the probes are searched for at once, as one re2 set: a pass per probe, even
# each a C scan (``_Literal``), was 0.33 s over the 11,601 files of bench/'s M tree
# (30 probes over 19 MB), the set 0.07 s. The standard library has no such search:
# one alternation of every probe in Python's re tries each offset, and took 1.8 s over
# the same files. Importing re2 and building the set costs some 7 ms, the time of 300
# files probed one by one: the first texts of a process, all a commit hook's run
# scans, are probed so. re2 also brings libstdc++, some 3 MiB of memory: a process
# that forks others to check beside it (engine/queue.py) holds the run's peak, and
# never builds the set (``keep_probing``); its children, whose peak is lower, scan
# most of the memories of a large tree.
_KEY_BLOCK, _COMMAND, _AUTHORIZE, _URL = range(len(_PROBES), len(_PROBES) + 4)
_WHOLE_SET = (
    *(probe.pattern for probe, _, _ in _PROBES),
    r"-----BEGIN",
    r"curl|sshpass|SSHPASS=",  # (_may_command's words)
    r"uthorization|UTHORIZATION",  # (_may_authorize's)
    r"://",
)
_PROBED_ALONE = 300  # texts a process probes one probe at a time before it builds the set


class _Presence:
    """Which probes a text holds: probed one by one at first, then by the set."""

    def __init__(self) -> None:
        self.probed = 0
        self.always_probe = False
        self.whole: Any = None  # the re2 set, once built (re2 ships no types)

    def of(self, text: str) -> frozenset[int]:
        """The probes ``text`` holds (their indices in _PROBES), and _KEY_BLOCK,
        _COMMAND, _AUTHORIZE and _URL where their words are."""
        if self.whole is None:
            if self.always_probe or self.probed < _PROBED_ALONE:
                self.probed += 1
                return _probed(text)
            self.whole = _whole_set()
        try:
            found = self.whole.Match(text)
        except UnicodeEncodeError:  # a lone surrogate, which re2's UTF-8 cannot hold
            return _probed(text)
        return frozenset(found) if found else _NOTHING  # (None when nothing is)


def _whole_set() -> Any:  # (a re2 set: re2 ships no types)
    import re2

    options = re2.Options()
    options.never_capture = True
    whole = re2.Set.SearchSet(options)
    for pattern in _WHOLE_SET:
        whole.Add(pattern)
    whole.Compile()
    return whole


def _probed(text: str) -> frozenset[int]:
    """What ``_Presence.of`` gives, each probe searched for on its own."""
    underscore = "_" in text  # (a probe whose prefix holds one cannot match without)
    held = [i for i, (probe, needs_underscore, _) in enumerate(_PROBES) if (underscore or not needs_underscore) and probe.search(text)]
    for i, holds in (
        (_KEY_BLOCK, "-----BEGIN" in text),
        (_COMMAND, _may_command(text)),
        (_AUTHORIZE, _may_authorize(text)),
        (_URL, "://" in text),
    ):
        if holds:
            held.append(i)
    return frozenset(held) if held else _NOTHING


_NOTHING: frozenset[int] = frozenset()
_PRESENCE = _Presence()


def keep_probing() -> None:
    """This process never builds the set of every probe (see _Presence): it holds a
    run's peak memory, which re2's libraries would raise."""
    _PRESENCE.always_probe = True


# --- The text as an agent reads it ---------------------------------------------------

# What an agent does not see as written: a backslash escape (JSON's `\n` inside a
# string, Markdown's `\_`, which renders as `_`) and the characters that draw nothing
# (a ZWSP splitting a token). The scan runs again on the text with escapes resolved
# and those characters dropped, and each find is placed, and its value taken, in the
# text as written, so a finding points at it and redacting removes it.
_ESCAPE = lazy_regex.compile(r"\\(?:[nrt]|[!-/:-@\[-`{-~])")


class _AsRead(NamedTuple):
    text: str
    # Where each piece of ``text`` came from: its first offset there and in the text
    # as written, by piece, in order.
    starts: list[int]
    origins: list[int]

    def origin(self, offset: int) -> int:
        at = bisect_right(self.starts, offset) - 1
        return self.origins[at] + offset - self.starts[at]


def _as_read(text: str) -> _AsRead | None:
    """``text`` as an agent reads it, or None where it reads it as written (most
    files: one C scan for a backslash, and the ASCII test)."""
    escapes = "\\" in text and _ESCAPE.search(text) is not None
    hidden = invisible.may_hide(text)
    if not escapes and not hidden:
        return None
    pieces: list[str] = []
    starts: list[int] = []
    origins: list[int] = []
    length = 0
    at = 0

    def keep(piece: str, origin: int) -> None:
        nonlocal length
        if piece:
            pieces.append(piece)
            starts.append(length)
            origins.append(origin)
            length += len(piece)

    marks = [(m.start(), m.end(), m.group()) for m in _ESCAPE.finditer(text)] if escapes else []
    if hidden:
        marks = sorted(marks + [(m.start(), m.end(), "") for m in invisible.SUSPECT.finditer(text)])
    for start, end, mark in marks:
        if start < at:
            continue
        keep(text[at:start], at)
        if mark:  # an escape: what it stands for, placed at the character it escapes
            keep({"n": "\n", "t": "\t", "r": ""}.get(mark[1], mark[1]), start + 1)
        at = end
    keep(text[at:], at)
    return _AsRead("".join(pieces), starts or [0], origins or [0])


def _found_as_read(text: str, readable: _AsRead, already: list[Found]) -> Iterator[Found]:
    """What the text as read holds beyond ``already`` (what the text as written
    holds), placed in the text as written, each value as written there."""
    read_lines = readable.text.split("\n")
    line_starts = [0]
    for line in read_lines[:-1]:
        line_starts.append(line_starts[-1] + len(line) + 1)
    written_starts: list[int] = []
    values = {f.value for f in already}
    seen = {(f.line, f.col, f.kind) for f in already}
    for found in _scan(readable.text, lambda: read_lines):
        if found.value in values:
            continue  # read as written
        start = readable.text.find(found.value, line_starts[found.line - 1])
        if start < 0:
            continue
        first = readable.origin(start)
        last = readable.origin(start + len(found.value) - 1)
        marker = readable.origin(line_starts[found.line - 1] + found.col - 1)
        if not written_starts:
            written_starts.append(0)
            written_starts.extend(i + 1 for i, ch in enumerate(text) if ch == "\n")
        row = bisect_right(written_starts, marker) - 1
        where = (row + 1, marker - written_starts[row] + 1)
        if found.kind != KEY and (*where, found.kind) in seen:
            continue  # found as written (a key block's lines all stand at its first)
        seen.add((*where, found.kind))
        yield Found(*where, found.kind, found.shown, text[first : last + 1], found.prefix)


def redact(text: str) -> str:
    """``text`` with each secret ``find`` would report replaced by its redaction: the
    prefix that names a token's kind, if any, then ``…[redacted]`` (``ghp_…[redacted]``,
    ``api_key = "…[redacted]"``). For text memcheck shows or writes that quotes a
    file (``memcheck context``, the entries of MEMORY.md), where the secret itself
    must not go; text with nothing to redact comes back as it is."""
    if (
        not _MAY_HOLD.search(text)
        and not (("'" in text or '"' in text or "=" in text) and _may_assign(text))
        and not ("://" in text and "@" in text)
        and not _may_command(text)
        and not _may_authorize(text)
        and "\\" not in text
        and not invisible.may_hide(text)
    ):
        return text  # one search for the usual name or description, not one per pattern
    found = find_in(text, text.split("\n"))
    # Longest first, so a secret inside a longer one never leaves the longer one's tail.
    for secret in sorted(found, key=lambda s: (-len(s.value), s.value)):
        text = text.replace(secret.value, secret.prefix + REDACTED)
    return text


def _key_blocks(lines: Sequence[str]) -> tuple[list[Found], set[int]]:
    """Private key blocks with real key material, and the 0-based lines they span."""
    found: list[Found] = []
    spanned: set[int] = set()
    i = 0
    while i < len(lines):
        key = _KEY_BEGIN.search(lines[i])
        if key:
            body: list[str] = []
            j = i + 1
            while j < len(lines) and j < i + 200 and not _KEY_END.search(lines[j]):
                # A block quoted (`> `) or in a list item reads as the same key.
                body.append(_QUOTE_OR_ITEM.sub("", lines[j]).strip())
                j += 1
            material = [b for b in body if _KEY_BODY.match(b) and not placeholder(b)]
            if material:
                kind = (key.group(1) or "").strip() or "generic"
                shown = f"private key block ({kind}, {len(body)} lines)"
                found.extend(Found(i + 1, key.start() + 1, KEY, shown, value) for value in material)
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


def _tokens(text: str, lines: Callable[[], Sequence[str]], skip_lines: set[int], present: frozenset[int]) -> Iterator[Found]:
    taken = _Taken()
    starts: list[int] = []  # offset of each line, built only when something matches

    def place(offset: int) -> tuple[int, int] | None:
        if not starts:
            starts.append(0)
            for line_text in lines()[:-1]:
                starts.append(starts[-1] + len(line_text) + 1)
        line = bisect_right(starts, offset) - 1
        return None if line in skip_lines else (line + 1, offset - starts[line] + 1)

    for i in sorted(present):
        if i < _KEY_BLOCK:
            yield from _token_matches(text, _PROBES[i][2], taken, place)
    if _URL in present and "@" in text:
        yield from _url_passwords(text, taken, place)
    if "=" in text and _may_assign(text):
        yield from _env_lines(text, taken, place)
    if _COMMAND in present:
        yield from _command_passwords(text, taken, place)
    if _AUTHORIZE in present:
        yield from _auth_headers(text, taken, place)
    if '"' not in text and "'" not in text:
        return  # every other credential assignment quotes its value
    end = 0
    for start in _assignment_starts(text):
        found = _ASSIGN.match(text, start) if start >= end else None
        if found is None:
            continue
        end = found.end()
        value, quote = found.group(2), found.group(1)
        where = place(found.start(2))
        if where is None or taken.covers(found.start(2)) or placeholder(value) or _ENV_REFERENCE.fullmatch(value):
            continue
        if len(value) < 12 or entropy(value) < 3.2 or classes(value) < 2 or looks_like_code(value):
            continue
        begin = start
        while begin > 0 and text[begin - 1] in _NAME_CHARS:
            begin -= 1
        name = text[begin : found.end()].split(quote, 1)[0].rstrip("\"' \t=:>")
        yield Found(*where, ASSIGNMENT, f"{name} = {quote}…{quote}({len(value)} chars)", value)


# A password in a URL (`https://deploy:PASSWORD@host`, as ~/.git-credentials and
# database URLs hold them; RFC 3986 §3.2.1 calls the form deprecated for this reason).
_URL_CREDENTIAL = lazy_regex.compile(
    r"(?P<scheme>[A-Za-z][A-Za-z0-9+.-]{0,20})://(?P<user>[^/\s:@]{1,64}):(?P<v>[^/\s@]{1,256})@(?P<host>[^\s/@?#]{1,253})"
)
# A dotenv or shell line assigning an unquoted value to a credential's name (`DATABASE_PASSWORD=…`,
# `export AWS_SECRET_ACCESS_KEY=…`), after any quote or list marker, before any comment
# (`# rotated monthly`: dotenv and the shell both end the value at a blank).
_ENV_LINE = lazy_regex.compile(
    r"(?m)^(?:[ \t]*(?:>|[-*+](?=[ \t])))*[ \t]*(?:export[ \t]+)?"
    r"(?P<name>(?:[A-Z][A-Z0-9_]*)?(?:PASSWORD|PASSWD|SECRET|TOKEN|API_KEY|APIKEY|ACCESS_KEY|SECRET_KEY|PRIVATE_KEY))"
    r"[ \t]*=[ \t]*(?P<v>[^\s\"'`#]{12,256})(?:[ \t]+#[^\n]*)?[ \t]*$"
)


# A password on a command line an agent would run, within one command (a continued line
# included): curl's `-u user:password` or `--user` (https://curl.se/docs/manpage.html#-u)
# and sshpass's `-p password`, among sshpass's own options, before the command it runs
# (`ssh -p 2222` is a port), or its `SSHPASS=password`, which `sshpass -e` reads
# (https://man.archlinux.org/man/sshpass.1). The flag says the value is a password, so
# no entropy is asked of it: people's passwords are words and digits (`Summer2024`).
_COMMAND_CREDENTIAL = lazy_regex.compile(
    r"\b(?:(?P<curl>curl)\b(?:[^\n`|;&]|\\\n)*?[ \t](?:-u|--user)(?:[ \t]+|=)?(?P<q>[\"']?)(?P<user>[^\s:\"'@]{1,64}):"
    r"|(?P<sshpass>sshpass)(?:[ \t]+-(?:v|[fdP][ \t]*[^\s-]\S*))*[ \t]+-p[ \t]*(?P<q2>[\"']?)"
    r"|(?P<env>SSHPASS)=(?P<q3>[\"']?))"
    r"(?P<v>[^\s\"'`$]{1,256})(?![^\s\"'`])"
)


# A credential in an HTTP Authorization header an agent would send (`-H "Authorization:
# Bearer …"`, `"Authorization": "Basic …"`): a bearer token (RFC 6750 §2.1) or a
# user and password in base64 (RFC 7617 §2).
_AUTH_HEADER = lazy_regex.compile(
    r"""(?i)\bauthorization["']?[ \t]*[:=][ \t]*["']?(?P<scheme>bearer|basic|token)[ \t]+(?P<v>[A-Za-z0-9._~+/-]{16,2048}=*)(?![A-Za-z0-9._~+/=-])"""
)


def _auth_headers(text: str, taken: _Taken, place: Callable[[int], tuple[int, int] | None]) -> Iterator[Found]:
    for m in _AUTH_HEADER.finditer(text):
        value = m.group("v")
        where = place(m.start("v"))
        if where is None or taken.covers(m.start("v")) or placeholder(value) or not random_enough(value) or looks_like_code(value):
            continue
        if m.group("scheme").lower() == "basic" and ":" not in _base64_text(value):
            continue  # no user and password
        taken.add(m.start("v"), m.end("v"))
        yield Found(*where, ASSIGNMENT, f"Authorization: {m.group('scheme')} …({len(value)} chars)", value)


def _base64_text(value: str) -> str:
    import base64
    import binascii

    try:
        return base64.b64decode(value + "=" * (-len(value) % 4)).decode("utf-8", "replace")
    except (binascii.Error, ValueError):
        return ""


def _may_authorize(text: str) -> bool:
    """Whether ``text`` may hold an Authorization header (its `z` first: one memchr,
    where most text has none)."""
    return ("z" in text and "uthorization" in text) or ("Z" in text and "UTHORIZATION" in text)


def _may_command(text: str) -> bool:
    """Whether ``text`` may hold a command line that _COMMAND_CREDENTIAL reads."""
    return "curl" in text or "sshpass" in text or "SSHPASS=" in text


def _command_passwords(text: str, taken: _Taken, place: Callable[[int], tuple[int, int] | None]) -> Iterator[Found]:
    for m in _COMMAND_CREDENTIAL.finditer(text):
        value, user = m.group("v"), m.group("user") or ""
        where = place(m.start("v"))
        if where is None or taken.covers(m.start("v")) or value == user or value.lower() in SAMPLE_PASSWORDS:
            continue
        if value[0] in "%<{[(" or placeholder(value) or looks_like_code(value) or len(value) < 6 or "passw" in value.lower():
            continue  # (`mypassword`, `Password1`: the words of documentation)
        taken.add(m.start("v"), m.end("v"))
        command = f"curl -u {user}:" if m.group("curl") else "SSHPASS=" if m.group("env") else "sshpass -p "
        shown = f"{command}…({len(value)} chars)"
        yield Found(*where, ASSIGNMENT, shown, value)


def _url_passwords(text: str, taken: _Taken, place: Callable[[int], tuple[int, int] | None]) -> Iterator[Found]:
    for m in _URL_CREDENTIAL.finditer(text):
        value, user = m.group("v"), m.group("user")
        where = place(m.start("v"))
        if where is None or taken.covers(m.start("v")) or value == user or value.lower() in SAMPLE_PASSWORDS:
            continue
        if value[0] in "$%<{[(" or placeholder(value) or len(value) < 6 or entropy(value) < 2.5:
            continue
        taken.add(m.start("v"), m.end("v"))
        shown = f"{m.group('scheme')}://{user}:…({len(value)} chars)@{m.group('host')[:40]}"
        yield Found(*where, ASSIGNMENT, shown, value)


def _env_lines(text: str, taken: _Taken, place: Callable[[int], tuple[int, int] | None]) -> Iterator[Found]:
    for m in _ENV_LINE.finditer(text):
        value = m.group("v")
        where = place(m.start("v"))
        if where is None or taken.covers(m.start("v")) or not credible(value):
            continue
        taken.add(m.start("v"), m.end("v"))
        yield Found(*where, ASSIGNMENT, f"{m.group('name')}=…({len(value)} chars)", value)


def _token_matches(
    text: str, patterns: Sequence[tuple[frozenset[str], re.Pattern[str]]], taken: _Taken, place: Callable[[int], tuple[int, int] | None]
) -> Iterator[Found]:
    for before, pattern in patterns:
        for m in pattern.finditer(text):
            if m.start() > 0 and text[m.start() - 1] in before:
                continue
            value, prefix = m.group("t"), m.group("p")
            tail = value[len(prefix) :]
            where = place(m.start("t"))
            if where is None or placeholder(value) or taken.covers(m.start("t")):
                continue
            if not random_enough(tail) or (entropy(tail) < 3.3 and len(tail) < 30):
                continue
            taken.add(m.start("t"), m.end("t"))
            yield Found(*where, TOKEN, short_form(value, len(prefix)), value, prefix)


# --- Excerpts in messages -----------------------------------------------------------

# What ``redact_message`` takes out besides the tokens: a value given to a credential's name,
# quoted or not (the rules ask for quotes, to tell code from a secret; a message
# need not tell), and the password in a URL (``https://user:PASSWORD@host``, as
# ~/.git-credentials holds them).
_ASSIGNED = lazy_regex.compile(
    r"""(?i)(?:password|passwd|secret|token|api[_-]?key|apikey|access[_-]?key|secret[_-]?key|private[_-]?key)["']?[ \t]*(?::=|=>|=|:)[ \t]*["']?([^"'\s,;]{6,})"""
)
_URL_PASSWORD = lazy_regex.compile(r"(?<=://)([^/\s:@]*):([^/\s@]+)@")
# Private key material, or any other random run of base64: upper and lower case and
# digits mixed (a long word or a run of one letter is left to be cut short).
_BASE64_RUN = lazy_regex.compile(r"[A-Za-z0-9+/=]{40,}")

EXCERPT = 40  # characters of a file's text a message may quote in one place


def holds_secret(text: str) -> bool:
    """Whether ``text`` holds a secret ``redact`` would take out."""
    return redact(text) != text


def redact_message(text: str) -> str:
    """``text`` with every secret-shaped string replaced by its kind and length
    (``ghp_…(40 chars)``). Unlike ``redact`` (what the SEC rules find), it takes out
    placeholders, low-entropy tokens, unquoted values and URL passwords too: an
    error message quoting a config loses nothing by it."""
    for probe, _, patterns in _PROBES:
        if probe.search(text):
            for _, pattern in patterns:
                text = pattern.sub(lambda m: f"{m.group('p')}…({len(m.group('t'))} chars)", text)
    text = _ASSIGNED.sub(lambda m: m.group(0)[: m.start(1) - m.start(0)] + "…", text)
    text = _URL_PASSWORD.sub(lambda m: f"{m.group(1)}:…@", text)
    if _may_command(text):
        text = _COMMAND_CREDENTIAL.sub(lambda m: m.group(0)[: m.start("v") - m.start(0)] + "…", text)
    text = _AUTH_HEADER.sub(lambda m: m.group(0)[: m.start("v") - m.start(0)] + "…", text)
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
    shown = redact_message(text[: 8 * limit])
    return shown if len(shown) <= limit and len(text) <= 8 * limit else shown[: limit - 1] + "…"


_QUOTED = lazy_regex.compile(r"'(?:[^'\\\n]|\\.)*'|\"(?:[^\"\\\n]|\\.)*\"")
_LONG_RUN = lazy_regex.compile(rf"[^\s'\"]{{{EXCERPT + 1},}}")


def bounded(message: str, limit: int = 4 * EXCERPT) -> str:
    """A message written by a library (PyYAML, tomllib, re) that may quote the file:
    secrets redacted, each quoted part and each unbroken run of characters cut to an
    excerpt, and the whole to ``limit`` characters."""
    message = redact_message(message)
    message = _QUOTED.sub(
        lambda m: m.group(0) if len(m.group(0)) <= EXCERPT + 2 else m.group(0)[: EXCERPT + 1] + "…" + m.group(0)[0], message
    )
    message = _LONG_RUN.sub(lambda m: m.group(0)[: EXCERPT - 1] + "…", message)
    return message if len(message) <= limit else message[: limit - 1] + "…"
