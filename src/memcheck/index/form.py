"""How a curated index writes its entries, read from the entries it has, and its
entries whose description is a placeholder.

A curator's index has a form of its own: a bullet, link text that is the memory's
`name`, its file's stem or name, or its body's title, a separator before the
description, sometimes bold links, a `[type]` tag, or no links at all (`- stem:
description`). ``detect_form`` reads it from the entries that are there, so that a
new entry looks like its neighbours; ``write_entry`` writes one.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Iterator, Sequence

from memcheck import lazy_regex
from memcheck.index.links import INLINE, Link
from memcheck.index.naming import memories_named
from memcheck.index.render import FLAT_EMDASH, described, escape_target, escape_text, shown_name
from memcheck.records import NamedTuple
from memcheck.text import blocks

if TYPE_CHECKING:
    from memcheck.index.memory import Memory

NAME, STEM, FILENAME, TITLE = "name", "stem", "file name", "title"
LABELS = (NAME, STEM, FILENAME, TITLE)  # in the order a tie is settled


class EntryForm(NamedTuple):
    bullet: str = "-"
    label: str = NAME  # what the link text (or a link-less entry's lead) is: one of LABELS
    linked: bool = True  # `- [label](file.md) ...`, or `- label: ...` (a link-less index)
    bold: str = ""  # `**` or `__` around the link, or around a link-less entry's label
    sep: str = " - "  # between the link (or label) and the description
    tag: bool = False  # a `[type]` tag ends the description
    code: bool = False  # a link-less entry names the file in a code span: `- \`a.md\` — ...`
    named: str = ""  # STEM or FILENAME: the description ends naming the file, `- Title — ... (stem)`


def default_form(style: str) -> EntryForm:
    """The form of the style's own entries: for an index with none to learn from."""
    return EntryForm(sep=" \u2014 " if style == FLAT_EMDASH else " - ")


class Entry(NamedTuple):
    """An entry of the index: a list item that starts with a link to a memory (or,
    in a link-less index, with the memory's name), read into its parts."""

    line: int  # 0-based
    memory: Memory
    bullet: str
    bold: str
    label: str  # the link text, unescaped, or the link-less entry's lead
    sep: str  # as written
    desc_at: int  # offset of the description in the line (where ``sep`` ends)
    desc: str
    linked: bool
    code: bool = False  # the lead is the file name in a code span


_LINKED_HEAD = lazy_regex.compile(r"([-*+])[ \t]+(\*\*|__)?")
_LINKLESS = lazy_regex.compile(r"([-*+])[ \t]+(\*\*|__)?([^*_:\s](?:[^:]*?[^*_:\s])?)\2?(:[ \t]+|[ \t]+[-\u2013\u2014][ \t]+)(.*)")
# After the link: a dash between spaces, a colon, or just a space, then the description.
_REST = lazy_regex.compile(r"([ \t]+[-\u2013\u2014][ \t]+|:[ \t]+|[ \t]+)(.*)")
_ESCAPE = lazy_regex.compile(r"\\(.)")


def entries(
    lines: Sequence[str], kinds: Sequence[str], resolved: Sequence[Sequence[tuple[Link, str, str]]], memories: Sequence[Memory]
) -> Iterator[Entry]:
    """The index's entries for memories of the store, in line order: list items that
    start with their link to a memory; and, where no list item of the index starts
    with such a link, the link-less list items that start with a memory's name
    (`- user_prefs: ...`). One pass over the lines."""
    by_file = {m.filename: m for m in memories}
    linked = 0
    plain: list[int] = []  # list items without links: read only if no entry links
    for i, line in enumerate(lines):
        if kinds[i] != blocks.ITEM or line[:1] in (" ", "\t"):
            continue
        found = resolved[i]
        if not found:
            plain.append(i)
            continue
        link, kind, path = found[0]
        head = _LINKED_HEAD.fullmatch(line, 0, link.col - 1)
        if kind != "local" or path not in by_file or link.form != INLINE or head is None:
            continue
        bold = head.group(2) or ""
        after = link.stop
        if bold:
            if not line.startswith(bold, after):
                continue
            after += len(bold)
        rest = _REST.fullmatch(line, after) if after < len(line) else None
        sep, desc_at = (rest.group(1), rest.start(2)) if rest else ("", len(line))
        linked += 1
        yield Entry(i, by_file[path], head.group(1), bold, _ESCAPE.sub(r"\1", link.text), sep, desc_at, line[desc_at:], True)
    if linked or not plain:
        return
    named = memories_named([(i, lines[i]) for i in plain], memories)
    for i in plain:
        m = _LINKLESS.fullmatch(lines[i])
        hits = named.get(i, set())
        if m is None or not hits:
            continue
        label = m.group(3).casefold()
        # `- \`a.md\` — ...`: a code span holding the file name lists it too.
        code = len(label) > 2 and label[0] == label[-1] == "`" and "`" not in label[1:-1]
        for name in sorted(hits):
            memory = by_file[name]
            if code and label[1:-1] == memory.filename.casefold():
                yield Entry(i, memory, m.group(1), m.group(2) or "", m.group(3)[1:-1], m.group(4), m.start(5), m.group(5), False, True)
                break
            if label in {v.casefold() for v in _labels(memory).values() if v}:
                yield Entry(i, memory, m.group(1), m.group(2) or "", m.group(3), m.group(4), m.start(5), m.group(5), False)
                break


def _labels(m: Memory) -> dict[str, str | None]:
    return {NAME: shown_name(m), STEM: m.shown_stem, FILENAME: m.shown_filename, TITLE: m.title}


def detect_form(found: Sequence[Entry], style: str) -> EntryForm:
    """The form most of the entries share, feature by feature: bullet, bold, separator,
    `[type]` tag, and link text, which is the memory's name, stem, file name or title
    when more than half of the entries use that one (hand-written link text otherwise,
    and a new entry then shows the name). No entries: the style's own form."""
    if not found:
        return default_form(style)
    bullets: Counter[str] = Counter()
    bolds: Counter[str] = Counter()
    seps: Counter[str] = Counter()
    labels: Counter[str] = Counter()
    tagged = typed = links = codes = 0
    ends: Counter[str] = Counter()
    for e in found:
        codes += e.code
        ending = _ends_naming(e)
        if ending:
            ends[ending] += 1
        bullets[e.bullet] += 1
        bolds[e.bold] += 1
        links += e.linked
        if e.desc.strip() and _PLACEHOLDER.fullmatch(e.desc.strip()) is None:
            seps[_canonical(e.sep)] += 1
        own = e.label.casefold()
        for field, value in _labels(e.memory).items():
            if value and value.casefold() == own:
                labels[field] += 1
        if e.memory.type:
            typed += 1
            tagged += e.desc.rstrip().endswith(f"[{e.memory.type}]")
    label = max(LABELS, key=lambda f: (labels[f], -LABELS.index(f)))
    return EntryForm(
        bullet=_most(bullets, "-"),
        label=label if 2 * labels[label] > len(found) else NAME,
        linked=2 * links >= len(found),
        bold=_most(bolds, ""),
        sep=_most(seps, default_form(style).sep),
        tag=typed > 0 and 2 * tagged > typed,
        code=2 * codes > len(found),
        named=next((k for k in (STEM, FILENAME) if 2 * ends[k] > len(found)), ""),
    )


def _ends_naming(e: Entry) -> str:
    """STEM or FILENAME when the entry's description ends with the file's stem or
    name in brackets (`(note_02)`, `(note_02.md)`), as a curator's link-less entries
    say where the memory is; "" otherwise."""
    text = _untagged(e)
    for field, value in ((STEM, e.memory.stem), (FILENAME, e.memory.filename)):
        if text.endswith((f"({value})", f"(`{value}`)")):
            return field
    return ""


def _most(votes: Counter[str], default: str) -> str:
    """The commonest, ties settled by the text itself (deterministic)."""
    return min(votes, key=lambda k: (-votes[k], k)) if votes else default


def _canonical(sep: str) -> str:
    mark = sep.strip()
    return ": " if mark == ":" else f" {mark} " if mark else " "


def label_of(form: EntryForm, m: Memory) -> str:
    value = _labels(m)[form.label]
    return value if value else shown_name(m)


def write_entry(form: EntryForm, m: Memory) -> str:
    """A new entry for ``m`` in the index's form, with a description (see ``described``).
    A link-less entry that would not read back as naming its memory (a name the
    listing rules cannot find in it) gets a link."""
    label = label_of(form, m)
    desc = described(m, label)
    if form.named:
        # `- Title — description (stem)`: the stem is how the index names the file (an
        # entry without it would name none an agent could open).
        desc = f"{desc} ({m.stem if form.named == STEM else m.filename})".lstrip()
    tag = f" [{m.type}]" if form.tag and m.type and m.type.isidentifier() else ""
    if form.code and "`" not in m.filename:
        return f"{form.bullet} {form.bold}`{m.filename}`{form.bold}{form.sep}{described(m, m.filename)}{tag}"
    if not form.linked:
        line = f"{form.bullet} {form.bold}{escape_text(label)}{form.bold}{form.sep}{desc}{tag}"
        if m.filename in memories_named([(0, line)], [m]).get(0, ()):
            return line
    link = f"[{escape_text(label)}]({escape_target(m.filename)})"
    return f"{form.bullet} {form.bold}{link}{form.bold}{form.sep}{desc}{tag}"


# ---------------------------------------------------------------- placeholder descriptions

# What a broken generator leaves where a description should be.
_PLACEHOLDER = lazy_regex.compile(
    r"(?i)(?:-+|\u2014+|\u2013+|\.{2,}|\u2026|todo|tbd|tba|fixme|xxx|n/?a|none|null|nil|undefined|\?+|"
    r"description|placeholder|<[^<>]*>|\{\{?[^{}]*\}?\}|\"\"|'')[.:!]?"
)
SAME_TEXT_MIN = 3  # memories whose entries must all say the same thing for it to be a placeholder


class Placeholder(NamedTuple):
    line: int  # 0-based
    memory: Memory
    text: str  # the placeholder as written
    start: int  # offsets of what a fill replaces (the separator too, when it is a bare space)
    end: int
    fill: str | None  # what replaces it: the memory's own description, once its frontmatter parses


def placeholders(found: Sequence[Entry], form: EntryForm) -> list[Placeholder]:
    """The entries whose description is a placeholder: a word or mark that stands for
    none (`TODO`, `TBD`, `---`, `...`), or the same text on every entry of the index
    (for at least SAME_TEXT_MIN memories) that is not the memories' own description. A
    `[type]` tag after it is not part of it, and stays."""
    said = [(e, _untagged(e)) for e in found]
    said = [(e, text) for e, text in said if text]
    uniform = (
        len(said) == len(found)
        and len({e.memory.filename for e, _text in said}) >= SAME_TEXT_MIN
        and len({text.casefold() for _e, text in said}) == 1
    )
    out = []
    for e, text in said:
        if _PLACEHOLDER.fullmatch(text) is None and not (uniform and (e.memory.description or "").strip().casefold() != text.casefold()):
            continue
        fill = described(e.memory, e.label) if e.memory.parsed else None
        if fill is not None and fill.casefold() == text.casefold():
            fill = None  # the memory says no more than the index
        bare = not e.sep.strip()  # `- [a](a.md) ---`: the index's separator comes with the fill
        start = e.desc_at - len(e.sep) if bare else e.desc_at
        end = e.desc_at + e.desc.index(text) + len(text)
        out.append(Placeholder(e.line, e.memory, text, start, end, (form.sep + fill) if bare and fill else fill))
    return out


def _untagged(e: Entry) -> str:
    text = e.desc.strip()
    tag = f"[{e.memory.type}]" if e.memory.type else ""
    if tag and text.endswith(tag):
        text = text[: -len(tag)].rstrip()
    return text
