"""REF001: a path in a code span of a memory or guidance file that names no file of the
repository, where a file of its name is elsewhere (it moved).

Only code spans are read: links are the broken-link rules' (MEM021, GDN013, SKL012),
so no link is reported twice. Most files cost one ``in`` test (no backtick: nothing
to read); the tree's paths are indexed once per run, and only when a file cites a
path the quick look-ups do not find. The family's pass (``checks.references``) asks
``missing_in`` of each file it reads, and ``stale`` once for the whole part, so git
is asked which of the paths it ignores in one batch.
"""

from __future__ import annotations

import posixpath
import re
from typing import Iterator

from memcheck import lazy_regex
from memcheck.paths import basename, folders_of, join, parent
from memcheck.problem import WARNING, Problem, Rule, escaped
from memcheck.records import NamedTuple
from memcheck.text import mentions
from memcheck.text.document import Document, of_content
from memcheck.workspace.discover import Workspace

REF001 = Rule(
    "REF001",
    "stale-reference",
    WARNING,
    False,
    "A path in a code span names no file of the repository",
    """\
## What it does
Reports a path written in a code span (`` `tests/test_cli.py` ``) of a memory or a
guidance file that names no file: not from the file's folder, not from the
repository's root, and not from a folder the file names elsewhere (a package of a
monorepo), while a file of the same name is elsewhere in the repository (one to
three of them): the file moved, and the message names where. In a memory, a bare
memory file name (`` `feedback_testing.md` ``) names a memory of its store, and one
that names none is reported too.

Only what is plainly a path is read: it holds a `/` and ends in a known extension
(or, in a memory, is a Markdown file's name), and is not a glob (`src/**/*.ts`), a placeholder (`<out>/report.md`, `{name}.md`,
`$HOME/x`, `path/to/file.py`, `…`), a URL, a path outside the repository, a file
git ignores, a build's output (`dist/`, `node_modules/`), or an example in a
sentence that says "for example" or "e.g.". A path whose file name the repository
does not hold at all is not reported: it cannot be told from a path in another
repository or on a server the file speaks of. Fenced code blocks are not read,
and links are left to the broken-link rules. `~/` paths are checked only with `--user`, against the home folder.

## Why is this bad?
Agents read these paths as facts about the repository. A path left behind by a move
sends an agent to look for a file that is gone, and it improvises: it searches, or
writes the file anew where nobody will look for it.

## Example
```markdown
Run `tests/test_cli.py` after changing the parser.
```
after the tests moved to `tests/unit/`.

## Use instead
```markdown
Run `tests/unit/test_cli.py` after changing the parser.
```
""",
)


class Cited(NamedTuple):
    path: str  # the citing file
    line: int
    col: int
    token: str  # as written, without a line number
    message: str


def stale(ws: Workspace, missing: list[tuple[Cited, list[str]]]) -> Iterator[Problem]:
    if not missing:
        return
    # A path to a file git ignores (a build's output, a local settings file) is there
    # on the machines that made it, and is no stale reference: asked once per run.
    ignored = ws.ignored_by_git({p for _, tried in missing for p in tried})
    for cited, tried in missing:
        if not ignored.intersection(tried):
            yield REF001.at(cited.path, cited.line, cited.col, cited.message)


def missing_in(ws: Workspace, doc: Document, store: str | None) -> list[tuple[Cited, list[str]]]:
    """The paths ``doc`` cites in code spans that name nothing (``store``: the
    folder of the store ``doc`` is a memory of)."""
    if "`" not in doc.body:
        return []
    tokens = ws.derived(doc, _path_token_list)
    if not tokens:
        return []
    folder = parent(doc.path)
    if ws.user:
        return [
            (Cited(doc.path, line, col, token, _home_message(token)), [])
            for line, col, token in tokens
            if token.startswith("~/") and not ws.exists(token[2:])
        ]
    index = ws.once(_tree_index)
    roots = [r for r in {_found(index, folder, t) for _, _, t in tokens if "/" in t} if r is not None and r in index.folders]
    found: list[tuple[Cited, list[str]]] = []
    for line, col, token in tokens:
        if token.startswith("~/"):
            continue  # another machine's home: information at most, in a repository
        tried = _tried(index, ws, folder, token, roots, store)
        if tried:
            found.append((Cited(doc.path, line, col, token, _message(index, token, store)), tried))
    return found


def _tried(index: TreeIndex, ws: Workspace, folder: str, token: str, roots: list[str], store: str | None) -> list[str]:
    """The places ``token`` was looked for, when it names nothing at any of them;
    [] when it names something (or is not judged)."""
    name = token.rstrip("/")
    if "/" not in name:
        # A bare name in a memory names a memory of its store, or a file of that name
        # anywhere; in guidance a bare name is too often a kind of file (`page.tsx`,
        # `meta.json`) or one on another system to judge.
        if store is None or not name.endswith(".md") or name in index.by_name or name in _KNOWN_NAMES or ws.exists(join(folder, name)):
            return []
        return [join(store, name)]
    if _found(index, folder, token) is not None or any(_exists(index, join(r, name)) for r in roots):
        return []
    same = index.by_name.get(basename(name), ())
    # Reported only when a file of its name is elsewhere, and rare: it moved. A path
    # to a file no one has cannot be told from one in another repository or on a
    # server the file speaks of (24 of 104 findings on real repositories, when
    # these were reported, named a sibling repository's files). Asked first: the
    # test below then looks at a few files, not at every `index.ts` of the tree.
    if not (_has_extension(name) and 0 < len(same) <= _MOVED_MOST):
        return []
    # Written from another root: a package of a monorepo (the path ends one of the
    # tree's), or the folder above the repository (one of the tree's ends the path).
    if any(p.endswith("/" + name) or name.endswith("/" + p) for p in same):
        return []
    here, root = _places(folder, name)
    tried = [p for p in (here, root) if p is not None]
    if any(ws.exists(p) for p in tried):
        return []  # on disk though git lists it not: ignored, asked for in one batch later
    return tried


def _message(index: TreeIndex, token: str, store: str | None) -> str:
    shown = escaped(token)
    name = token.rstrip("/")
    if "/" not in name and store is not None and name.endswith(".md"):
        return f"`{shown}` is no memory of this store and no file of the repository; fix the name or remove the reference"
    near = _nearest(index, name)
    if near is not None:
        return f"`{shown}` names no file of the repository; {escaped(near)} has its name, so it probably moved there: update the path"
    return f"`{shown}` names no file of the repository; fix the path or remove it"


def _home_message(token: str) -> str:
    return f"`{escaped(token)}` names no file of your home folder; fix the path or remove it"


class TreeIndex(NamedTuple):
    files: frozenset[str]
    folders: frozenset[str]
    by_name: dict[str, list[str]]  # a file or folder name -> its paths, sorted


def _tree_index(ws: Workspace) -> TreeIndex:
    """Every file and folder of the tree, and each by its name: built once per run,
    so a citation is a few look-ups, never a walk over the tree."""
    files = frozenset(ws.tree_files)
    folders = folders_of(files) - {""}
    by_name: dict[str, list[str]] = {}
    for path in sorted(files | folders):
        by_name.setdefault(basename(path), []).append(path)
    return TreeIndex(files, folders, by_name)


def _exists(index: TreeIndex, path: str) -> bool:
    return path in index.files or path in index.folders


def _places(folder: str, token: str) -> tuple[str | None, str | None]:
    """``token`` from ``folder`` and from the root, normalised; None for one that
    leads out of the repository."""
    found: list[str | None] = []
    for base in (folder, ""):
        path = posixpath.normpath(join(base, token)) if base else posixpath.normpath(token)
        found.append(None if path == ".." or path.startswith("../") or path == "." else path)
    return found[0], found[1]


def _found(index: TreeIndex, folder: str, token: str) -> str | None:
    """Where ``token`` names a file or folder, from ``folder`` or from the root."""
    for path in _places(folder, token.rstrip("/")):
        if path is not None and _exists(index, path):
            return path
    return None


def _nearest(index: TreeIndex, token: str) -> str | None:
    """The existing path of the same name that shares most with ``token``: its end
    first (a moved file keeps its folder's name), then its start."""
    same = index.by_name.get(basename(token))
    if not same:
        return None
    want = token.split("/")

    def shared(path: str) -> tuple[int, int, int, str]:
        have = path.split("/")
        tail = next((i for i, (a, b) in enumerate(zip(reversed(want), reversed(have))) if a != b), min(len(want), len(have)))
        head = next((i for i, (a, b) in enumerate(zip(want, have)) if a != b), min(len(want), len(have)))
        return (-tail, -head, len(have), path)

    return min(same[:_NEAREST_MOST], key=shared)


# A missing path is read as a moved file only when its name is this rare in the tree
# (a `page.tsx` of another repository is not one of ours).
_MOVED_MOST = 3
# Paths of one name weighed for the nearest (a tree may hold thousands of index.ts).
_NEAREST_MOST = 500

# Markdown files a memory cites by their kind (`SKILL.md`, "each package has an
# `AGENTS.md`"), not as one of the store's.
_KNOWN_NAMES = frozenset(
    """AGENTS.md CLAUDE.md CLAUDE.local.md GEMINI.md MEMORY.md SKILL.md README.md CHANGELOG.md
    CONTRIBUTING.md LICENSE.md SECURITY.md copilot-instructions.md""".split()
)
# Folders of an agent's own, in the home folder or any project, cited by their kind
# (`.claude/projects/` is only ever in the home folder).
_AGENT_FOLDERS = frozenset(
    """.claude/projects .claude/agents .claude/commands .claude/skills .claude/rules .claude/hooks
    .claude/memory .claude/plans .claude/todos .claude/output-styles .cursor/rules .cursor/commands
    .codex/prompts .gemini/commands .github/instructions .github/prompts .github/chatmodes
    .github/agents .agents/skills .windsurf/rules .clinerules""".split()
)

# Folders a build, a package manager or a run fills: cited for what they will hold,
# and ignored by git where a check would find them.
_BUILT = frozenset("node_modules dist build out .next target coverage tmp .cache __pycache__ .venv venv".split())
# What a code span holds when it is a path and nothing else: no space, no quote.
_PATH_CHARS = lazy_regex.compile(r"[\w.@~+/-]+")
# Written where a path of the reader's choosing goes, or a pattern of many.
_PLACEHOLDER = lazy_regex.compile(
    r"[<>{}$%*?\[\]|…]|\.\.\.|(?:^|/)path/to/|YYYY|MM-DD|(?:^|[/._-])(?:foo|bar|baz|qux|example|xxx+|your[\w-]*|my[-_]\w+)(?:$|[/._-])",
    re.IGNORECASE,
)
# A line number after a path: `src/app.py:42`, `src/app.py:42:7`, `app.py#L42`.
_LINE_SUFFIX = lazy_regex.compile(r"(?::\d+(?:-\d+)?(?::\d+)?|#L\d+(?:-L?\d+)?)$")
_SCHEME = lazy_regex.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")
_EXAMPLE = lazy_regex.compile(r"\b(?:e\.g\.|eg\.|for example|for instance|such as|i\.e\.)", re.IGNORECASE)
_EXT = lazy_regex.compile(r"\.([A-Za-z0-9]{1,10})$")


def _has_extension(token: str) -> bool:
    m = _EXT.search(basename(token))
    return m is not None and m.start() > 0 and m.group(1).lower() in mentions.EXTENSIONS


# Kept between runs (a store's other memories are not tokenised again when one
# changes): paths as written in code spans, never prose, so no secret is copied there.
@of_content()
def _path_token_list(ws: Workspace, doc: Document) -> list[tuple[int, int, str]]:
    return list(_path_tokens(doc))


def _path_tokens(doc: Document) -> Iterator[tuple[int, int, str]]:
    """(line, column, path) of each code span of the body that is plainly a path."""
    start = max(doc.body_line, 1)
    spans: dict[int, list[tuple[int, int]]] = {}
    masked = list(mentions.prose(doc.lines[start - 1 :], spans))
    for index, found in sorted(spans.items()):
        line = doc.lines[start - 1 + index]
        # A span after "e.g." on its line is an example. Where the first one ends, found
        # once per line: searched again before each span, a line of thousands of spans
        # took time quadratic in its length (8,000 spans: 12 s).
        example = _EXAMPLE.search(masked[index])
        after = example.end() if example is not None else len(line) + 1
        for begin, end in found:
            token = _path_token(line[begin:end].strip())
            if token is not None and after > begin:
                yield start + index, begin + 1, token


def _path_token(text: str) -> str | None:
    if not text or len(text) > 300 or not _PATH_CHARS.fullmatch(text) or not text.isprintable():
        return None
    token = _LINE_SUFFIX.sub("", text)
    if token.startswith(("@", "-", "/", "#", "+")) or "//" in token or _SCHEME.match(token) or _PLACEHOLDER.search(token):
        return None
    if token.startswith(("../", "~")) and not token.startswith("~/"):
        return None  # from a folder the reader must guess, or another user's home
    name = token.rstrip("/")
    if "/" in name:
        first, last = name.split("/", 1)[0], basename(name)
        if "." in first.strip(".") and not first.startswith(".") and not _has_extension(first):
            return None  # github.com/owner/repo: a host
        if "." in last.strip(".") and not last.startswith(".") and not _has_extension(last):
            return None  # ops/utils/xmlio.save_xml: a module's function
        if name in _AGENT_FOLDERS or not _BUILT.isdisjoint(name.split("/")):
            return None
        return token
    # A bare name is a path when it ends in a known extension and has a stem
    # (`.py` is the extension itself).
    return token if _has_extension(name) else None
