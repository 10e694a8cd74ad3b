"""What is told of YAML from a text alone, without PyYAML: the usual slips of
frontmatter written by hand, and whether a one-line value is valid, where the line
tells. A rejected frontmatter is most often one of those: told here, it costs no
import of PyYAML and yamlload (93 million instructions, on bench/'s M-broken tree two
thirds of what its 400 rejected frontmatters cost more than the same store mended).
yamlload gives the same answers through its parsers where the text does not tell
(tests/unit/test_yamlload.py holds these against the Python parser)."""

from __future__ import annotations

from memcheck import lazy_regex

# The kinds of error the Python parser raises on a usual slip (yamlload raises them).
SCANNER, PARSER = "scanner", "parser"

# The usual slips of frontmatter written by hand, each after a flat head (FLAT_HEAD,
# of no line or more): a colon and a space in a plain value ("colon"); a quote never
# closed ("open"); text after a closing quote ("after", the next line at the margin);
# a `- ` item under a complete entry ("item"); a line indented by a tab ("tab"). Up to
# the slip the Python scanner and parser are where any head leaves them, and each
# slip stops them at once, at a place and in words told from the line: no parser
# reads the text (libyaml's reading and the translation of its error took 15-25 us a
# file, two thirds of what a rejected frontmatter cost more than a good one on bench/'s
# M-broken tree). tests/unit/test_yamlload.py holds each against the Python parser.
_WORDS = r"[A-Za-z][A-Za-z0-9 .,;()/_'-]*"
_HEAD_LINE = rf"[A-Za-z_][A-Za-z0-9_-]*: +{_WORDS}\n"
_USUAL_SLIP = lazy_regex.compile(
    rf"(?:{_HEAD_LINE})*(?:"
    rf"[A-Za-z_][A-Za-z0-9_-]*: +(?:(?P<colon>{_WORDS}):(?: |\n|\Z)|(?P<quoted>\"[^\"\\\n]*\"|'[^'\n]*') +(?P<after>{_WORDS})(?=\n[^ \n]|\n?\Z)|(?P<open>[\"']))"
    r"|(?<=\n)(?P<item>-)(?: |\n|\Z)|(?:[A-Za-z_][A-Za-z0-9_-]*:\n)?(?P<tab>\t))"
)
# What the Python reader refuses anywhere, or reads otherwise after the slip (see
# _PYTHON_ONLY), but a tab (searched as a space): frontmatter_reading._NOT_SIMPLE's very pattern,
# which re's cache then compiles once a process (half a millisecond).
_NOT_PLAIN_TEXT = lazy_regex.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u2028\u2029\ufeff\ufffe\uffff\ud800-\udfff]")
# In a quoted scalar, what ends it otherwise than the end of the text.
_SEPARATOR_LINE = lazy_regex.compile(r"\n(?:---|\.\.\.)(?:[ \t\n]|\Z)")


def slip_problem(text: str) -> tuple[str, int] | None:
    """What the Python parser says of ``text`` and on which line (from 0) if it is a
    usual slip, or a flat head and a list never closed: what yamlload's ``load``
    raises, without raising it (a frontmatter needs no more)."""
    slip = usual_slip(text)
    if slip is not None:
        return slip[3], text.count("\n", 0, slip[4])
    # (After the usual slips, as load looks: a text with a `[` is no other parser's.)
    head = FLAT_HEAD.match(text)
    if head is not None and len(text) <= HEAD_MOST_CHARS and "*" not in text and unclosed_list(text, head.end()):
        return UNCLOSED_LIST_PROBLEM, text.count("\n")
    return None


# Lines at the start of a text that leave the parser where the first line of their
# own would (in the document's block mapping, after a complete entry): `key: words`,
# the value plain text of a few ASCII characters that no scalar, comment or key can
# end early, followed by a line that starts with a key.
FLAT_HEAD = lazy_regex.compile(r"(?:[A-Za-z_][A-Za-z0-9_-]*: +[A-Za-z][A-Za-z0-9 .,;()/_'-]*\n)+(?=[A-Za-z_][A-Za-z0-9_-]*:(?: |\n|$))")


# The unclosed list of the usual slip (`tags: [a, b` as the last line): words that
# the scanner reads as plain scalars, one or more, a comma between two, no `]`.
_LIST_WORD = r"[A-Za-z0-9][A-Za-z0-9._/-]*(?: +[A-Za-z0-9._/-]+)*"
_UNCLOSED_LIST = lazy_regex.compile(rf"[A-Za-z_][A-Za-z0-9_-]*: +\[ *{_LIST_WORD}(?: *, *{_LIST_WORD})* *\n?")
# How long a text yamlload reads the rest of after its flat head, alone (its
# MAX_VALUES // 2: a test holds them equal).
HEAD_MOST_CHARS = 10_000
# What the Python parser says of a list never closed, where the text ends.
UNCLOSED_LIST_PROBLEM = "expected ',' or ']', but got '<stream end>'"


def unclosed_list(text: str, start: int) -> bool:
    """Whether ``text`` from ``start`` is one `key: [words, words` line: a list that
    never closes (see _UNCLOSED_LIST)."""
    return _UNCLOSED_LIST.fullmatch(text, start) is not None


Slip = tuple[str, "str | None", "int | None", str, int]  # the error (SCANNER or PARSER), context, its offset, problem, its offset


def usual_slip(text: str) -> Slip | None:
    """The Python parser's error on ``text`` if it is a usual slip, as yamlload raises it."""
    slip = _USUAL_SLIP.match(text)
    if slip is None or _NOT_PLAIN_TEXT.search(text.replace("\t", " ") if "\t" in text else text):
        return None
    if slip.group("colon") is not None:
        return SCANNER, None, None, "mapping values are not allowed here", slip.end("colon")
    if slip.group("tab") is not None:
        return SCANNER, "while scanning for the next token", None, "found character '\\t' that cannot start any token", slip.start("tab")
    quote = slip.group("open")
    if quote is not None:
        start = slip.start("open")
        rest = text[start + 1 :]
        if quote in rest or "\\" in rest or "\t" in rest or _SEPARATOR_LINE.search(text, start):
            return None  # it closes, escapes, or meets what ends a quoted scalar otherwise
        return SCANNER, "while scanning a quoted scalar", start, "found unexpected end of stream", len(text)
    found, at = ("'-'", slip.start("item")) if slip.group("item") is not None else ("'<scalar>'", slip.start("after"))
    return PARSER, "while parsing a block mapping", 0, f"expected <block end>, but found {found}", at


# Most values: plain text that starts with a letter (so no resolver reads it as a
# number or a date, which PyYAML may fail to build) and holds nothing YAML refuses
# anywhere; each is read as the string, boolean or null it says, without a parser.
# (A rejected frontmatter's values are checked one by one for which to quote: most
# are these.)
_PLAIN_WORDS = lazy_regex.compile("[A-Za-z][^\x00-\x1f\x7f-\x9f\u2028\u2029\ufeff\ufffe\uffff\ud800-\udfff]*")
# What a quoted scalar may hold on one line without asking a parser: no control
# character, no line or paragraph separator, no byte-order mark or non-character.
_PRINTABLE = lazy_regex.compile("[^\x00-\x1f\x7f-\x9f\u2028\u2029\ufeff\ufffe\uffff\ud800-\udfff]*")


def value_told(value: str) -> bool | None:
    """Whether ``value`` (one line, as it follows a key's colon) is, alone, a valid
    YAML value, where its line tells it as every parser would; None where a parser
    must say (see yamlload.valid_value)."""
    if _PLAIN_WORDS.fullmatch(value) and " #" not in value:
        if ": " in value:
            # (The usual slip, `description: Deploy notes: see the runbook`.) A plain
            # scalar after a key's colon cannot be a key itself: YAML rejects the line
            # ("mapping values are not allowed here"), and no parser need say so.
            return False
        if value[-1] != ":":
            return True  # one plain scalar that every parser reads, as a string, a boolean or null
    first = value[:1]
    if first in ("'", '"') and _PRINTABLE.fullmatch(value):
        # A quoted value on one line (the other usual slips: a quote never closed, or
        # text after the closing one): told from the line, as every parser tells it.
        end = closing_quote(value)
        if end is None:
            return False  # the text ends inside the quotes
        after = value[end + 1 :].lstrip(" ")
        if after and after[0] != "#":
            return False  # a second token where the value should end
        if not after and (first == "'" or "\\" not in value):
            return True
    elif (first == "[" and "]" not in value) or (first == "{" and "}" not in value):
        return False  # a flow collection that cannot close before the text ends
    return None


def closing_quote(quoted: str) -> int | None:
    """The index of the quote that closes the quoted scalar ``quoted`` starts with (on
    its line), or None. (str.find between quotes and backslashes: a loop over every
    character, or a regular expression, took 3-4 us for a 60-character value.)"""
    quote, i = quoted[0], 1
    while True:
        end = quoted.find(quote, i)
        if end < 0:
            return None
        if quote == '"' and (escape := quoted.find("\\", i, end)) >= 0:
            i = escape + 2  # a backslash escapes the character after it
        elif quote == "'" and quoted[end + 1 : end + 2] == "'":
            i = end + 2  # '' is a quote inside single quotes
        else:
            return end
