"""What is wrong with an instructions file as its kind's schema in the agent data
has it (``agentkinds``): Kiro steering, Cline rules, Copilot path instructions; and
what every guidance file's globs and text come to. The GDN rules say it; these are
the facts, as plain values, so the rule family holds only the words.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterator, Sequence

from memcheck import lazy_regex
from memcheck.agents import guidance_model
from memcheck.agents import kinds as agentkinds
from memcheck.paths import basename
from memcheck.records import NamedTuple
from memcheck.text import patterns
from memcheck.text.frontmatter import frontmatter_problem

if TYPE_CHECKING:
    from memcheck.text.document import Document
    from memcheck.workspace.discover import Workspace


class Pattern(NamedTuple):
    """A glob that does not work: ``bad`` says why (None: it is valid but names no file)."""

    pattern: str
    bad: str | None


def broken_patterns(ws: Workspace, values: Sequence[str], folder: str, check_matches: bool, project: str = "") -> Iterator[Pattern]:
    """The invalid patterns of ``values``, and (with ``check_matches``) the ones that
    name no file or folder of the checkout, tried from ``folder``. An exclusion that
    matches nothing excludes nothing: it is not one of them. ``project``: the folder a
    rules folder below the root speaks for (``app`` for ``app/.claude/rules/x.md``)."""
    judged: list[tuple[str, str | None, bool]] = []  # each pattern, what is wrong with it, whether it matches
    for pattern in values:
        bad = patterns.problem(pattern)
        matches = bad is None and (not check_matches or pattern.startswith("!") or guidance_model.glob_matches(ws, pattern, folder))
        judged.append((pattern, bad, matches))
    live = [pattern for pattern, bad, matches in judged if bad is None and matches and not pattern.startswith("!")]
    # Each dead pattern is looked up among the live ones, not compared with each: a list
    # of thousands of both was seconds (10,000 patterns in one applyTo: 17 s).
    twins = _Twins(live)
    file_type_live = any(_FILE_TYPE_ANYWHERE.fullmatch(other) for other in live)
    named: frozenset[str] | None = None  # the live patterns' endings, at the first dead pattern that needs them
    for pattern, bad, matches in judged:
        if bad is not None:
            yield Pattern(pattern, bad)
        elif not matches and guidance_model.could_be_cloned_into(ws, pattern, folder) is None:
            if twins.of(pattern) or (file_type_live and _WHOLE_FOLDER.fullmatch(pattern) is not None):
                continue
            if live and _FILE_TYPE_ANYWHERE.fullmatch(pattern) is not None:
                named = _named_endings(live) if named is None else named
                if _kind_absent(ws, pattern, named):
                    continue
            # Last, as they read the whole listing (once per run): a tree without code, or
            # a rules folder's folder of agents' settings alone (a template other projects copy).
            if guidance_model.holds_source_code(ws) and not (project and guidance_model.holds_only_agent_settings(ws, project)):
                yield Pattern(pattern, None)


def _kind_absent(ws: Workspace, pattern: str, named: frozenset[str]) -> bool:
    """Whether ``pattern`` names a kind of file by a known ending (``**/*.js``,
    ``*.scss``) of which the tree holds none, nor any near kind that the file's live
    patterns (whose endings are ``named``) leave out: a rule for a stack names its every
    ending (`**/*.jsx, **/*.tsx, **/*.js, **/*.ts`), and a tree written in one of them
    has none of the others, while the rule applies by its other patterns. Reported
    still: an ending no language has (a typo), one the tree holds in another case
    (``*.TS``), and one beside files of a near ending that no pattern of the rule names
    (``**/*.cs`` in a tree of ``.css`` files, ``**/*.yml`` in one of ``.yaml``,
    ``**/*.h`` in one of ``.hpp``): the rule misses the files its author meant."""
    if _FILE_TYPE_ANYWHERE.fullmatch(pattern) is None:
        return False
    ending = pattern.rpartition(".")[2].lower()
    here = ws.once(_endings_here)
    if ending not in guidance_model.KNOWN_ENDINGS or ending in here.endings:
        return False
    # The endings of one stack's list (js, ts, ...) are no typo of each other where the
    # rule names one of them that matches: that pattern carries the stack's files.
    stack_named = ending in _STACK_VARIANTS and not named.isdisjoint(_STACK_VARIANTS)
    return not any(other not in named and not (stack_named and other in _STACK_VARIANTS) for other in here.near(ending))


def _named_endings(patterns: Sequence[str]) -> frozenset[str]:
    """The endings ``patterns`` name files by (``ts`` of ``src/**/*.ts``), lower-cased."""
    return frozenset(m.group(1).lower() for m in map(_NAMED_ENDING.search, patterns) if m is not None)


# The last segment of a pattern that names files by their ending: `*.ts` of `src/**/*.ts`.
_NAMED_ENDING = lazy_regex.compile(r"(?:^|/)\*\.([A-Za-z0-9]+)$")
# Endings of one kind of file: where the tree holds one and a rule names another of the
# group, the rule's author may well have meant the tree's files.
_NEAR_ENDINGS: dict[str, frozenset[str]] = {
    ending: group
    for group in map(
        frozenset,
        (
            ("yml", "yaml"),
            ("htm", "html", "xhtml"),
            ("md", "markdown", "mdx", "mdc"),
            ("c", "h", "cc", "hh", "cpp", "hpp", "cxx", "hxx"),
            ("css", "scss", "sass", "less", "pcss", "styl"),
            ("sh", "bash", "zsh"),
            ("jpg", "jpeg"),
            ("tif", "tiff"),
        ),
    )
    for ending in group
}
# JavaScript's and TypeScript's endings: a rule for that stack lists them all.
_STACK_VARIANTS = frozenset(("js", "jsx", "mjs", "cjs", "ts", "tsx", "mts", "cts"))


class _Endings:
    """The endings of the files git lists, lower-cased, indexed for the near ones of an
    ending (``near``): each by itself and by itself less each letter, so that two one
    letter apart share a key (looked up, not compared with each: a tree of thousands of
    endings beside a rule of thousands of patterns was quadratic, 8,000 of each 55 s)."""

    def __init__(self, endings: frozenset[str]) -> None:
        self.endings = endings
        self._by_key: dict[str, set[str]] = {}
        for ending in endings:
            for key in _one_letter_less(ending):
                self._by_key.setdefault(key, set()).add(ending)

    def near(self, ending: str) -> set[str]:
        """The endings here that a rule naming ``ending`` may have meant: the same kind's
        other spellings (`yml` for `yaml`, `h` for `hpp`) and those one letter apart
        (`cs` for `css`)."""
        found = {e for key in _one_letter_less(ending) for e in self._by_key.get(key, ()) if _one_edit_apart(e, ending)}
        found.update(e for e in _NEAR_ENDINGS.get(ending, ()) if e in self.endings)
        found.discard(ending)
        return found


def _one_letter_less(ending: str) -> list[str]:
    return [ending, *(ending[:i] + ending[i + 1 :] for i in range(len(ending)))]


def _one_edit_apart(a: str, b: str) -> bool:
    """``a`` and ``b`` differ by one letter changed, added or dropped (`cs` and `css`)."""
    if a == b or abs(len(a) - len(b)) > 1:
        return False
    if len(a) == len(b):
        return sum(x != y for x, y in zip(a, b)) == 1
    short, long = (a, b) if len(a) < len(b) else (b, a)
    return any(long[:i] + long[i + 1 :] == short for i in range(len(long)))


def _endings_here(ws: Workspace) -> _Endings:
    """The endings of the listed files, lower-cased (see _Endings)."""
    return _Endings(frozenset(path.rpartition(".")[2].lower() for path in ws.file_set if "." in path.rpartition("/")[2]))


# A whole folder (`tests/**`, `tests/`, `tests/**/*`), its path written out; and a kind
# of file at any depth (`**/*.py`, `*.py`).
_WHOLE_FOLDER = lazy_regex.compile(r"[^*?\[\]{}!]+?/(?:\*\*(?:/\*)?)?")
_FILE_TYPE_ANYWHERE = lazy_regex.compile(r"(?:\*\*/)?\*\.[A-Za-z0-9]+")


# A dead pattern that names a whole folder (`tests/**`, `tests/`, `tests/**/*`) beside a
# live one that names a kind of file at any depth (`**/*.py`) is not reported: the file
# applies to those files wherever they are, the folder's among them once it exists; the
# folder pattern names it for the day it holds others. A folder pattern alone, or beside
# patterns for other folders, is still one the file never applies by.


class _Twins:
    """The live patterns, by what comes before their extension, to tell a dead pattern
    that differs from one of them only in a letter or two added to one's extension
    (`**/*.ts` and `**/*.tsx`, `docs/**/*.mdx` and `docs/**/*.md`): the same files in
    their syntax variant, which a rule names beside them for the day the tree has some.
    A typo or a move changes more than that. Extensions of letters and digits only."""

    def __init__(self, live: Sequence[str]) -> None:
        self._extensions: dict[str, set[str]] = {}  # stem -> the live extensions
        self._trimmed: dict[str, set[str]] = {}  # stem -> those extensions less their last one or two characters
        for pattern in live:
            stem, dot, ext = pattern.rpartition(".")
            if dot and ext.isalnum():
                self._extensions.setdefault(stem, set()).add(ext)
                self._trimmed.setdefault(stem, set()).update(ext[:-k] for k in (1, 2) if len(ext) > k)

    def of(self, pattern: str) -> bool:
        stem, dot, ext = pattern.rpartition(".")
        if not dot or not ext.isalnum():
            return False
        shorter = self._extensions.get(stem, set())
        # A live extension one or two characters shorter, or one or two longer.
        return any(len(ext) > k and ext[:-k] in shorter for k in (1, 2)) or ext in self._trimmed.get(stem, set())


def is_empty(doc: Document) -> bool:
    """The file holds no text an agent would load: nothing, or only frontmatter."""
    return doc.error is None and not doc.body.strip()


class Unparsable(NamedTuple):
    line: int
    message: str
    fails_open: bool  # the agent reads the file anyway, its frontmatter as text


def unparsable(kind: agentkinds.Kind, doc: Document) -> Unparsable | None:
    """Frontmatter the kind's agent cannot use, and what it does then: Cline fails open
    (the rule applies everywhere, its frontmatter read as text)."""
    trouble = frontmatter_problem(doc)
    if trouble is None:
        return None
    fm = doc.frontmatter
    if kind.unparsable == "warning" and fm is not None and fm.yaml_error is not None:
        return Unparsable(trouble[0], f"{kind.agent_title} applies this file everywhere, its frontmatter read as text: {trouble[1]}", True)
    return Unparsable(trouble[0], trouble[1], False)


class KindIssue(NamedTuple):
    line: int
    what: str  # agentkinds.Issue's what; "empty"; "glob-invalid" / "glob-dead": a pattern that does not work
    message: str


def file_issues(ws: Workspace, kind: agentkinds.Kind | None, doc: Document, check_matches: bool) -> Iterator[KindIssue]:
    """What is wrong with an instructions file of ``kind`` (None: a guidance file the
    agent data has no schema for): no text to load; what the kind's schema finds
    wrong in its parsed frontmatter (no frontmatter is an empty one: a key it
    requires is missing); and the globs of its glob keys that do not work, tried from
    the workspace root, where Kiro and Cline match them."""
    if is_empty(doc):
        who = f"{kind.agent_title} loads" if kind is not None else "agents load"
        but = " but its frontmatter" if doc.has_frontmatter else ""
        yield KindIssue(
            1, "empty", f"{basename(doc.path)} holds no text{but}, so {who} nothing from it; write the instructions or delete the file"
        )
    fm = doc.frontmatter
    if kind is None or not kind.confirmed or (fm is not None and fm.yaml_error is not None):
        return
    data = fm.data if fm is not None else {}
    lines = fm.key_lines if fm is not None else {}
    for issue in agentkinds.validate(kind, data):
        yield KindIssue(lines.get(issue.key, 1), issue.what, issue.message)
    for spec in kind.keys.values():
        value = data.get(spec.name)
        if not (spec.globs and spec.confirmed and kind.confirmed) or not isinstance(value, (str, list)):
            continue
        values = patterns.split_list(value) if isinstance(value, str) else [v for v in value if isinstance(v, str)]
        for broken in broken_patterns(ws, values, "", check_matches):
            if broken.bad is not None:
                yield KindIssue(lines.get(spec.name, 1), "glob-invalid", f"glob {broken.pattern!r} {broken.bad}")
            else:
                yield KindIssue(
                    lines.get(spec.name, 1),
                    "glob-dead",
                    f"{spec.name} pattern {broken.pattern!r}: no file here matches it (ignored files included), so {kind.agent_title} never applies this file by it; fix the pattern or remove it",
                )
