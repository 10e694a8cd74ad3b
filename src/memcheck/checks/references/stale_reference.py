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

import bisect
import posixpath
import re
from typing import Iterator, Sequence

from memcheck import lazy_regex
from memcheck.paths import basename, folders_of, join, parent
from memcheck.problem import WARNING, Problem, Rule, escaped
from memcheck.records import NamedTuple
from memcheck.text import mentions
from memcheck.text.document import Document, OfContent
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
monorepo), while a file of the same name that shares a folder with it (not one
every project has, `src/`) is elsewhere in the repository (one to three of them;
more where the cited folders name one alone), or the path names a file once one of its folders is read as a renamed one
(`app/old_name/...` after `app/new_name`): it may have moved, and the message names
where. In a memory, a memory file name (`` `feedback_testing.md` ``, or
`` `memory/feedback_testing.md` `` with the store's folder) that carries the store's
naming (a memory type, `feedback_`, `project_`, `user_`, `reference_`, or a prefix
two of its memories share), or that is one of a numbered series beside it
(`findings_4.md` beside `findings_13.md`), names a file the store or the repository
kept, and one that names none is reported too.

Only what is plainly a path is read: it holds a `/` and ends in a known extension
(or, in a memory, is a Markdown file's name), and is not a glob (`src/**/*.ts`), a
placeholder (`<out>/report.md`, `{name}.md`, `$HOME/x`, `path/to/file.py`, `…`,
`feedback_X.md`), a URL, a path outside the repository, a file git ignores, a
build's output (`dist/`, `node_modules/`), or an example: after "for example" or
"e.g." in its sentence, or after the label "Example:" on its line. A name is not judged where its sentence says it is not this
repository's as it stands: a former name ("was `OLD.md`; renamed", "Supersedes
`old.md`"), a planned or hypothetical one ("no `GUIDE.md` yet", "not yet created"),
or one placed on a disk, in the home folder or in another store ("lives at user-scope
`~/.claude/projects/...`", "That store already has `x.md`"). The sentence is read
whole where it runs over several lines of a paragraph, and a list item is read with
the line that leads its list ("From `~/.claude/projects/x/memory/`:"). Once a sentence
of a file says so of a name, the name is not judged anywhere in that file. A store kept for
projects elsewhere (a repository that is a copy of a home's `.claude`, with
`settings.json` beside `commands/` or `skills/`; a folder named as Claude Code names a
project's, `-Users-me-app`) cites those projects' paths: only its own memories and
the paths into its repository's folders are judged. A memory that only the store's
archive of its index lists (`MEMORY-archive.md`), where MEMORY.md names neither the
archive nor the memory (no link, code span or stem; no topic index it links lists
it), is a record moved out of what agents load, kept as it was written: its paths
are not judged; nor are those of a memory whose name says it records what happened
(`session_history.md`, `session_2026-05-28_research.md`, `project_phase_history.md`),
which cites paths as they were then. A path whose file name the
repository does not hold at all, or holds only in folders it does not share, is not
reported: it cannot be told from a path in another repository or on a server the
file speaks of. Fenced code blocks are not read, and links are left to the
broken-link rules. `~/` paths are checked only with `--user`, against the home
folder.

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
    # A store kept for projects elsewhere (a copy of a home's `.claude`, a project's
    # memory folder named as Claude Code names it): its paths are that project's.
    elsewhere = store is not None and _kept_for_elsewhere(index, store)
    found: list[tuple[Cited, list[str]]] = []
    for line, col, token in tokens:
        if token.startswith("~/"):
            continue  # another machine's home: information at most, in a repository
        judged = _judged(ws, index, folder, token, roots, store, elsewhere)
        if judged is not None:
            tried, message = judged
            found.append((Cited(doc.path, line, col, token, message), tried))
    return found


def _judged(
    ws: Workspace, index: TreeIndex, folder: str, token: str, roots: list[str], store: str | None, elsewhere: bool
) -> tuple[list[str], str] | None:
    """Where ``token`` was looked for and the message, when it names nothing at any
    of those places; None when it names something (or is not judged)."""
    name = token.rstrip("/")
    shown = escaped(token)
    if "/" not in name:
        # A bare name in a memory names a memory of its store when it carries the
        # store's naming (`feedback_x.md`); in guidance, or without that naming, a bare
        # name is too often a kind of file (`page.tsx`, `design.md`) or one of another
        # project to judge. On one store of 800 memories every true finding carried it,
        # and 5 of about 63 untrue ones did.
        if store is None or not name.endswith(".md") or name in index.by_name or name in _KNOWN_NAMES or ws.exists(join(folder, name)):
            return None
        if not _stores_naming(ws, store, name) and not _in_a_series(ws, (store, folder, ""), name):
            return None
        return [join(store, name)], _no_memory(shown)
    if _found(index, folder, token) is not None or any(_exists(index, join(r, name)) for r in roots):
        return None
    here, root = _places(folder, name)
    tried = [p for p in (here, root) if p is not None]
    # `memory/feedback_x.md`: a memory of the store, written with the store's folder.
    if store is not None and name.endswith(".md") and _in_store(store, parent(name)) and basename(name) not in index.by_name:
        if any(ws.exists(p) for p in tried):
            return None
        return [join(store, basename(name)), *tried], _no_memory(shown)
    if elsewhere and not _exists(index, name.split("/", 1)[0]):
        return None  # the project's path, not this repository's
    near = _renamed_folder(ws, index, name) if name.count("/") >= 2 else None
    if near is None:
        if not _has_extension(name):
            return None
        near = _moved(index, name)
        if near is None:
            return None
    if any(ws.exists(p) for p in tried):
        return None  # on disk though git lists it not: ignored, asked for in one batch later
    return tried, f"`{shown}` is not in this repository; it may have moved to {escaped(near)}: update the path"


def _no_memory(shown: str) -> str:
    return f"`{shown}` is not in this repository: no memory of this store has that name; fix the name or remove the reference"


def _moved(index: TreeIndex, name: str) -> str | None:
    if name not in index.moved:
        index.moved[name] = _moved_to(index, name)
    return index.moved[name]


def _moved_to(index: TreeIndex, name: str) -> str | None:
    """Where the file ``name`` (a path that names nothing) may have moved: a file of
    its name that shares a folder with it. A path to a file no one has cannot be told
    from one in another repository or on a server the file speaks of (24 of 104
    findings on real repositories, when these were reported, named a sibling
    repository's files), and a file that only shares a common name (`app/page.tsx`,
    `renv/settings.json`) is another file: every true finding of this kind on real
    repositories shared a folder with where the file went."""
    same = index.by_name.get(basename(name), ())
    if not same:
        return None
    # Written from another root: a package of a monorepo (the path ends one of the
    # tree's), or the folder above the repository (one of the tree's ends the path).
    if any(p.endswith("/" + name) or name.endswith("/" + p) for p in same[:_NEAREST_MOST]):
        return None
    cited = set(_folder_names(name))
    if len(same) <= _MOVED_MOST:
        sharing = [p for p in same if not cited.isdisjoint(_folder_names(p))]
        return _nearest(sharing, name) if sharing else None
    # A name many folders hold (each module's `service.test.ts`): the cited folders
    # say which, when they are all in the path of one of them alone.
    holding = [p for p in same[:_NEAREST_MOST] if cited.issubset(_folder_names(p))]
    return holding[0] if len(holding) == 1 else None


def _folder_names(path: str) -> list[str]:
    """The folders of ``path`` that can tie a file to another: not those every project
    has (`src/utils.ts` and `src/database/utils.ts` are two files)."""
    return [part for part in path.split("/")[:-1] if part not in _EVERY_PROJECTS]


def _renamed_folder(ws: Workspace, index: TreeIndex, name: str) -> str | None:
    """The path ``name`` names once one of its folders is read as another folder of
    the same parent (`app/old_name/x.tsx` after `app/old_name` became `app/new_name`),
    when one such folder alone holds the rest of the path. The top folder is not
    replaced: a path that shares no folder with the tree is another repository's."""
    parts = name.split("/")
    children = ws.once(_folder_children)
    for i in range(1, len(parts) - 1):
        above = "/".join(parts[:i])
        if above not in index.folders:
            return None
        if _exists(index, f"{above}/{parts[i]}"):
            continue
        if parts[i] in index.by_name:
            return None  # the folder is elsewhere: written from another root, not renamed
        rest = "/".join(parts[i + 1 :])
        held = [f"{above}/{child}/{rest}" for child in children.get(above, ()) if _exists(index, f"{above}/{child}/{rest}")]
        return held[0] if len(held) == 1 else None
    return None


def _in_store(store: str, written: str) -> bool:
    """Whether ``written`` (a path's folder) is the store's folder, or its end."""
    return bool(written) and (store == written or store.endswith("/" + written))


def _stores_naming(ws: Workspace, store: str, name: str) -> bool:
    """Whether ``name`` carries the naming of the store's memories: the kind before its
    first `_` or `-` is one of Claude Code's memory types, or begins two of the store's
    names. A placeholder (`feedback_X.md`) was left out when the name was read."""
    m = _NAMING.match(name)
    if m is None:
        return False
    kind = m.group(0).lower()
    if kind[:-1] in _MEMORY_TYPES:
        return True
    held = ws.once(_files_by_folder).get(store, ())
    return sum(1 for other in held if other.lower().startswith(kind)) >= 2


def _in_a_series(ws: Workspace, folders: tuple[str, ...], name: str) -> bool:
    """Whether ``name`` is one of a numbered series another file of ``folders`` is of
    (`findings_10.md` beside `findings_13.md`): a file of the repository's that is gone."""
    m = _NUMBERED.match(name)
    if m is None:
        return False
    held = ws.once(_files_by_folder)
    return any(
        (o := _NUMBERED.match(other)) is not None and o.group(1) == m.group(1) for place in set(folders) for other in held.get(place, ())
    )


def _kept_for_elsewhere(index: TreeIndex, store: str) -> bool:
    """Whether the store keeps memories of projects elsewhere: it is in a folder named
    as Claude Code names a project's (`-Users-me-app`, `C--Users-me-app`), or the
    repository is a copy of a home's `.claude` (a `settings.json` beside `commands/`,
    `skills/`, ... at the root)."""
    if any(_PROJECT_SLUG.match(part) for part in store.split("/")):
        return True
    return (
        "settings.json" in index.files
        and not _HOME_FOLDERS.isdisjoint(index.folders)
        and ("memory" in index.folders or "projects" in index.folders)
    )


def _home_message(token: str) -> str:
    return f"`{escaped(token)}` names no file of your home folder; fix the path or remove it"


class TreeIndex(NamedTuple):
    files: frozenset[str]
    folders: frozenset[str]
    by_name: dict[str, list[str]]  # a file or folder name -> its paths, sorted
    # Where each path judged so far may have moved (see _moved): a store's memories cite
    # the same paths again and again, and each judgment weighs up to _NEAREST_MOST paths
    # (a generated store of 600 memories citing five paths each: 600,000 folder lists
    # on a first run, 5 once the answers are kept).
    moved: dict[str, str | None]


def _tree_index(ws: Workspace) -> TreeIndex:
    """Every file and folder of the tree, and each by its name: built once per run,
    so a citation is a few look-ups, never a walk over the tree."""
    files = frozenset(ws.tree_files)
    folders = folders_of(files) - {""}
    by_name: dict[str, list[str]] = {}
    for path in sorted(files | folders):
        by_name.setdefault(basename(path), []).append(path)
    return TreeIndex(files, folders, by_name, {})


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


def _nearest(same: list[str], token: str) -> str:
    """The path among ``same`` (each of ``token``'s name) that shares most with
    ``token``: its end first (a moved file keeps its folder's name), then its start."""
    want = token.split("/")

    def shared(path: str) -> tuple[int, int, int, str]:
        have = path.split("/")
        tail = next((i for i, (a, b) in enumerate(zip(reversed(want), reversed(have))) if a != b), min(len(want), len(have)))
        head = next((i for i, (a, b) in enumerate(zip(want, have)) if a != b), min(len(want), len(have)))
        return (-tail, -head, len(have), path)

    return min(same, key=shared)


def _folder_children(ws: Workspace) -> dict[str, list[str]]:
    """Each folder's child folders' names, sorted: built once per run, and only when a
    cited path names no file."""
    children: dict[str, list[str]] = {}
    for path in sorted(ws.once(_tree_index).folders):
        children.setdefault(parent(path), []).append(basename(path))
    return children


def _files_by_folder(ws: Workspace) -> dict[str, list[str]]:
    """Each folder's files' names: built once per run, and only when a memory cites a
    name its store does not hold."""
    held: dict[str, list[str]] = {}
    for path in ws.once(_tree_index).files:
        held.setdefault(parent(path), []).append(basename(path))
    return held


# A missing path is read as a moved file of its name that shares a folder with it when
# the name is this rare in the tree; a commoner one, only where the cited folders name
# one file alone (a `page.tsx` of another repository is not one of ours).
_MOVED_MOST = 3
# Paths of one name weighed (a tree may hold thousands of index.ts).
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

# Folders so many projects have that sharing one says nothing of two files ("" and "."
# are no folder's names; `..` leads out).
_EVERY_PROJECTS = frozenset(["", ".", "..", "src", "lib", "source", "sources", "pkg", "packages", "internal"])
# Claude Code's memory types, which its memories' names begin with (`feedback_x.md`).
_MEMORY_TYPES = frozenset("user feedback project reference".split())
# The kind a name begins with, before its first `_` or `-`.
_NAMING = lazy_regex.compile(r"[^\W_]+[_-](?=.)")
# A numbered name (`findings_10.md`): what comes before the number, which holds more
# than digits (`1777490789085.md` is a snapshot's, of no series).
_NUMBERED = lazy_regex.compile(r"(.*\D)\d+\.md$")
# A folder named as Claude Code names a project's memory folder: the project's path
# with its separators as `-` (`-Users-me-app`, `C--Users-me-app`).
_PROJECT_SLUG = lazy_regex.compile(r"(?:-|[A-Za-z]--)[^\W_]")
# What a home's `.claude` holds beside `settings.json`.
_HOME_FOLDERS = frozenset("commands agents skills hooks plugins projects output-styles".split())

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
# A name that stands for any (`feedback_X.md`, `user_X.md`, `notes/NAME.md`): a capital
# letter alone, X's, or a word in capitals that says what goes there.
_PLACEHOLDER_NAME = lazy_regex.compile(r"(?:^|[/_.-])(?:[A-Z]|X+|NAME|TOPIC|SLUG|THING|WHATEVER)(?:$|[/_.-])")
# A sentence that says the file is not this repository's as it stands: a former name
# ("was `OLD.md`; renamed", "Supersedes `old.md`"), a plan or a thought ("Hypothetical:
# a `plan.md`", "no `GUIDE.md` yet", "not yet created"), or a place elsewhere ("lives at
# user-scope", "another store"). "That store already has `x.md`": a name is judged only
# where the store lacks it, so the store that sentence says holds it is another.
_NOT_HERE = lazy_regex.compile(
    r"\b(?:renamed|formerly|previously|used to be|old name|no longer|deleted|removed|retired|replaced|"
    r"deprecated|archived|hypothetical\w*|yet|planned|placeholder|proposed|creat(?:e|es|ed|ing)|supersed\w*|"
    r"does(?:n't| not) exist|user[- ]scope|user[- ]level|home (?:folder|directory|dir)|"
    r"(?:another|other|sibling|separate) (?:repo|repository|project|machine|(?:memory )?store)s?|that (?:memory )?store)\b",
    re.IGNORECASE,
)
# A path on a machine's disk, in the sentence's prose or another of its spans: the
# file it places is there, not in the repository.
_ON_A_DISK = lazy_regex.compile(r"(?:^|[\s`(])(?:~/|/(?:Users|home|mnt|root|opt|srv|var|tmp)/|[A-Za-z]:[\\/])")
# Where a sentence ends, in a line whose code spans are blanked: not after "etc." or
# "e.g.", nor before a word in lower case.
_SENTENCE_END = lazy_regex.compile(r"(?<!etc)(?<!e\.g)(?<!i\.e)(?<!vs)(?<!cf)[.!?](?:\s+(?![a-z])|$)")
# A line number after a path: `src/app.py:42`, `src/app.py:42:7`, `app.py#L42`.
_LINE_SUFFIX = lazy_regex.compile(r"(?::\d+(?:-\d+)?(?::\d+)?|#L\d+(?:-L?\d+)?)$")
_SCHEME = lazy_regex.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")
# "Example:" too: the label of an illustration (`- Example: \`tests/e2e/login.spec.ts\``
# under "put E2E tests by user journey in tests/e2e/"), as "e.g." is in a sentence.
_EXAMPLE = lazy_regex.compile(r"\b(?:e\.g\.|eg\.|for example|for instance|such as|i\.e\.|examples?:)", re.IGNORECASE)
_EXT = lazy_regex.compile(r"\.([A-Za-z0-9]{1,10})$")


# Files a path names beside those that are mentioned in prose (mentions.EXTENSIONS):
# fonts, media and other assets a move leaves behind.
_ASSETS = frozenset("ttf otf woff woff2 eot ico avif bmp tif tiff mp3 mp4 wav ogg webm mov glb gltf wasm".split())


def _has_extension(token: str) -> bool:
    m = _EXT.search(basename(token))
    if m is None or m.start() == 0:
        return False
    extension = m.group(1).lower()
    return extension in mentions.EXTENSIONS or extension in _ASSETS


# Kept between runs (a store's other memories are not tokenised again when one
# changes): paths as written in code spans, never prose, so no secret is copied there.
@OfContent
def _path_token_list(ws: Workspace, doc: Document) -> list[tuple[int, int, str]]:
    return _path_tokens(doc)


def _path_tokens(doc: Document) -> list[tuple[int, int, str]]:
    """(line, column, path) of each code span of the body that is plainly a path. A
    path some sentence of the file says is not this repository's as it stands (see
    _not_here) is not judged anywhere in the file: "Supersedes `a.md`" near the top
    tells the reader what every later mention of `a.md` is."""
    tokens: list[tuple[int, int, str]] = []
    elsewhere: set[str] = set()
    start = max(doc.body_line, 1)
    spans: dict[int, list[tuple[int, int]]] = {}
    lines = doc.lines[start - 1 :]
    masked = list(mentions.prose(lines, spans))
    for index, found in sorted(spans.items()):
        line = doc.lines[start - 1 + index]
        # A span after "e.g." on its line is an example. Where the first one ends, found
        # once per line: searched again before each span, a line of thousands of spans
        # took time quadratic in its length (8,000 spans: 12 s).
        prose = masked[index]
        example = _EXAMPLE.search(prose)
        after = example.end() if example is not None else len(line) + 1
        ends: list[int] | None = None
        said: dict[int, bool] = {}  # by sentence: whether it says its names are not here
        for begin, end in found:
            token = _path_token(line[begin:end].strip())
            if token is None or after <= begin:
                continue
            if not token.startswith("~/"):  # a home's path is judged against the home (--user)
                if ends is None:
                    ends = [m.end() for m in _SENTENCE_END.finditer(prose)]
                # The sentence's bounds, and what it says, found once per sentence: a line
                # of 40,000 spans and no full stop was read 40,000 times otherwise.
                at = bisect.bisect_right(ends, begin)
                if at not in said:
                    first = ends[at - 1] if at else 0
                    last = ends[bisect.bisect_left(ends, end)] if ends and ends[-1] >= end else len(line)
                    # The sentence may run on from the line above: looked at only where that
                    # line is not blank and ends in no full stop, or this one is a list item
                    # (most lines are neither: a commit's 3,000 lines of 600 memories).
                    above = masked[index - 1].rstrip() if at == 0 and index else ""
                    said[at] = _not_here(line[first:last], prose[first:last]) or (
                        bool(above)
                        and (above[-1] not in ".!?" or line.lstrip()[:1] in _ITEM_MARKS)
                        and _not_here_before(lines, masked, index)
                    )
                if said[at]:
                    elsewhere.add(token)
                    continue
            tokens.append((start + index, begin + 1, token))
    return [t for t in tokens if t[2] not in elsewhere] if elsewhere else tokens


# A line that starts a list item, a heading, a table row or a quote: no sentence of the
# line above runs on into it.
_BLOCK_START = lazy_regex.compile(r"\s*(?:[-*+]|\d+[.)])\s|\s*(?:#|\||>)")
_LIST_ITEM = lazy_regex.compile(r"\s*(?:[-*+]|\d+[.)])\s")
_ITEM_MARKS = frozenset("-*+0123456789")
# Lines read back for the start of a sentence a line continues.
_LOOK_BACK = 5


def _not_here_before(lines: Sequence[str], masked: Sequence[str], index: int) -> bool:
    """Whether what the first sentence of line ``index`` continues (see _said_before)
    says its names are not this repository's."""
    raw, prose = _said_before(lines, masked, index)
    return bool(raw) and _not_here(raw, prose)


def _said_before(lines: Sequence[str], masked: Sequence[str], index: int) -> tuple[str, str]:
    """The text (as written, and with its code spans blanked) that the first sentence
    of line ``index`` continues: the unfinished sentence of the lines above it in its
    paragraph ("Supersedes `a.md`, `b.md` and" / "`c.md`, which ..."), or, for a list
    item, the line that leads its list ("From `~/.claude/projects/x/memory/`:")."""
    if index == 0:
        return "", ""
    if lines[index].lstrip()[:1] in _ITEM_MARKS and _LIST_ITEM.match(lines[index]):
        i = index - 1
        while i >= 0 and i > index - 50 and masked[i].strip() and _LIST_ITEM.match(lines[i]):
            i -= 1  # the list's items above it
        if i < 0 or not masked[i].strip() or _BLOCK_START.match(lines[i]) or not masked[i].rstrip().endswith(":"):
            return "", ""
        ends = [m.end() for m in _SENTENCE_END.finditer(masked[i])]
        first = ends[-1] if ends else 0
        return lines[i][first:], masked[i][first:]
    raw: list[str] = []
    prose: list[str] = []
    i = index
    while i > 0 and i > index - _LOOK_BACK:
        above = masked[i - 1].rstrip()
        # A blank line, or one that ends its sentence (most lines): told from its last
        # character before any search of the line.
        if not above or (above[-1] in ".!?" and _SENTENCE_END.search(above, len(above) - 1) is not None):
            break
        if _BLOCK_START.match(lines[i]):
            break  # a list item, a heading, a row: no sentence runs on into it
        i -= 1
        ends = [m.end() for m in _SENTENCE_END.finditer(above)]
        first = ends[-1] if ends else 0
        raw.append(lines[i][first:])
        prose.append(above[first:])
        if ends:
            break  # the sentence starts on this line
    return " ".join(reversed(raw)), " ".join(reversed(prose))


def _not_here(sentence: str, prose: str) -> bool:
    """Whether a sentence says the files it names are not this repository's as they
    stand: a former, planned or hypothetical name, or one placed on a disk
    (`~/.claude/projects/...`, `/mnt/c/dev/x/`) in its prose or one of its spans (a
    span judged here is none of those: it holds no space and starts with no `/`)."""
    return _NOT_HERE.search(prose) is not None or _ON_A_DISK.search(sentence) is not None


def _path_token(text: str) -> str | None:
    if not text or len(text) > 300 or not _PATH_CHARS.fullmatch(text) or not text.isprintable():
        return None
    token = _LINE_SUFFIX.sub("", text)
    if token.startswith(("@", "-", "/", "#", "+")) or "//" in token or _SCHEME.match(token) or _PLACEHOLDER.search(token):
        return None
    if _PLACEHOLDER_NAME.search(_EXT.sub("", token)):
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
