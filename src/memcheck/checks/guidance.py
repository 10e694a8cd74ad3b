"""GDN: guidance files (SPEC §3, §4; seed 000).

A guidance file is ``AGENTS.md`` or one of its variants (``guidance.filenames``, in
the order agents prefer them). Agents read one per folder, from the repository root
down to the folder they work in, expand its ``@path`` imports (up to five hops), and
apply it to the files its optional ``globs`` frontmatter names.
"""
from __future__ import annotations

import re
from functools import lru_cache
from typing import Any, Iterator, NamedTuple, Sequence

from memcheck import mentions
from memcheck.checks.memory import _key_to_quote as key_to_quote
from memcheck.discover import Workspace, basename, parent
from memcheck.document import Document
from memcheck.problem import ERROR, WARNING, Problem, Rule

RULES = (
    Rule("GDN001", "shadowed-variant", ERROR, False, "Several guidance file variants in one folder", """\
## What it does
Reports a guidance file that shares its folder with another variant (`AGENTS.md`
beside `CLAUDE.md`, `agent.md` beside `AGENTS.md`) and names the one agents read:
the first of `guidance.filenames` (seed 000: "only one per directory"). A variant
that is a symlink to the other, or that imports it with `@AGENTS.md`, is the same
text and is not reported.

## Why is this bad?
Agents stop at the first name they find, so the other file is never read by them;
the two drift apart and each tool follows different rules.

## Example
`AGENTS.md` and `CLAUDE.md` in the root, each written by hand.

## Use instead
Keep one file, and make the other a symlink (`ln -s AGENTS.md CLAUDE.md`) or a
one-line `@AGENTS.md` import.
"""),
    Rule("GDN002", "case-collision", ERROR, False, "Guidance file names differ only by case", """\
## What it does
Reports guidance files or skills whose paths are equal when case is ignored
(`AGENTS.md` and `agents.md`, `Docs/AGENTS.md` and `docs/AGENTS.md`).

## Why is this bad?
macOS and Windows check them out into one file: one silently overwrites the other.

## Example
`AGENTS.md` and `Agents.md` in the same folder.

## Use instead
Merge them into one file with one name.
"""),
    Rule("GDN003", "unreadable-guidance", ERROR, False, "Guidance file cannot be read as UTF-8 text", """\
## What it does
Reports a guidance file that cannot be read, is binary, is not UTF-8 or is over 1 MiB.

## Why is this bad?
Agents read guidance as UTF-8 Markdown; anything else is skipped or garbled.

## Example
`AGENTS.md` saved as UTF-16.

## Use instead
Re-save it as UTF-8.
"""),
    Rule("GDN004", "invalid-frontmatter", ERROR, False, "Guidance frontmatter cannot be parsed", """\
## What it does
Reports guidance frontmatter that is never closed, is not valid YAML, is not a
mapping, or repeats a key.

## Why is this bad?
Agents that parse the frontmatter (for `globs` and `alwaysApply`) either fail or
read the file as applying everywhere.

## Example
```markdown
---
description: API rules: routes and handlers
---
```

## Use instead
```markdown
---
description: "API rules: routes and handlers"
---
```
"""),
    Rule("GDN005", "frontmatter-type", ERROR, False, "Guidance frontmatter value has the wrong type", """\
## What it does
Checks the guidance frontmatter schema of seed 000: `description` is a string,
`alwaysApply` a boolean, `globs` a list of strings (`!` excludes).

## Why is this bad?
`alwaysApply: "yes"` is a string, not `true`: a strict reader rejects it and a loose
one treats every non-empty string, even `"false"`, as true. A `globs` string is read
character by character by readers that expect a list.

## Example
```yaml
alwaysApply: "yes"
globs: src/**/*.ts
```

## Use instead
```yaml
alwaysApply: true
globs:
  - "src/**/*.ts"
```
"""),
    Rule("GDN006", "unknown-frontmatter-key", WARNING, False, "Guidance frontmatter key is not in the schema", """\
## What it does
Reports guidance frontmatter keys other than `description`, `alwaysApply`, `globs`
and `guidance.allowed-keys`.

## Why is this bad?
Usually a typo (`alwaysapply`, `glob`) that leaves the real setting at its default.

## Example
```yaml
glob: ["src/**"]
```

## Use instead
```yaml
globs: ["src/**"]
```
"""),
    Rule("GDN007", "invalid-glob", ERROR, False, "A globs pattern is not a valid glob", """\
## What it does
Reports an empty pattern, a lone `!`, unbalanced `[` `]` or `{` `}`, and `***`.

## Why is this bad?
Glob libraries reject such patterns or match nothing, so the guidance never applies.

## Example
```yaml
globs: ["src/[a-z*.ts"]
```

## Use instead
```yaml
globs: ["src/[a-z]*.ts"]
```
"""),
    Rule("GDN008", "glob-matches-nothing", WARNING, False, "A globs pattern matches no file in the repository", """\
## What it does
Reports a `globs` pattern that matches no file of the repository, tried against
repository-relative paths and paths relative to the guidance file's folder. An
exclusion (`!pattern`) that matches nothing excludes nothing and is not reported.

## Why is this bad?
The guidance applies to the files its globs match: a pattern that matches nothing is
a typo or a leftover from a move, and the guidance never loads for those files.

## Example
```yaml
globs: ["scr/**/*.ts"]
```

## Use instead
```yaml
globs: ["src/**/*.ts"]
```
"""),
    Rule("GDN009", "missing-import", ERROR, False, "@-import names a file that does not exist", """\
## What it does
Reports an `@path` import (SPEC §4: a token with a file extension, or starting with
`./`, `../` or `/`) whose file does not exist, resolved from the guidance file's
folder. Mentions in code spans, fenced blocks and HTML comments, e-mail addresses,
package scopes (`@types/node`) and bare words (`@id`) are not imports.

## Why is this bad?
Agents expand imports into the prompt; a missing one is silently left as text, and
the rules it held never reach the agent.

## Example
```markdown
See @docs/missing-guide.md for the release process.
```

## Use instead
Fix the path, or put the text in backticks if it is not meant as an import.
"""),
    Rule("GDN010", "import-escapes-repository", WARNING, False, "@-import points outside the repository", """\
## What it does
Reports an `@` import of an absolute path or one that climbs above the repository
root with `..`. `@~/…` imports are the user's own files and are not reported.

## Why is this bad?
No other clone has the file: the agent gets the import on the author's machine only.

## Example
```markdown
@../../shared/rules.md
```

## Use instead
Copy the rules into the repository, or import them from `@~/…` deliberately.
"""),
    Rule("GDN011", "import-cycle", ERROR, False, "@-imports form a cycle", """\
## What it does
Reports a guidance file whose imports lead back to itself (`AGENTS.md` imports
`docs/rules.md`, which imports `AGENTS.md`).

## Why is this bad?
Agents stop at the repeat (or at the depth limit), so part of the chain is loaded
twice or not at all, depending on the tool.

## Example
`CLAUDE.md` with `@AGENTS.md` and `AGENTS.md` with `@CLAUDE.md`.

## Use instead
Import in one direction only.
"""),
    Rule("GDN012", "import-too-deep", ERROR, False, "@-import chain is deeper than the limit", """\
## What it does
Reports an import chain longer than `guidance.max-import-depth` hops (default 5,
Claude Code's limit) and names the file that is not loaded.

## Why is this bad?
Agents stop expanding at the limit: files further down are never read.

## Example
`AGENTS.md` → `a.md` → `b.md` → `c.md` → `d.md` → `e.md` → `f.md`.

## Use instead
Import the deep files directly from the guidance file.
"""),
    Rule("GDN013", "broken-link", WARNING, False, "Relative Markdown link points at a missing file", """\
## What it does
Reports `[text](path)` links, images and reference definitions with a relative
target that does not exist, resolved from the file's folder (outside code).

## Why is this bad?
Agents follow these links to read more; a dead link sends them looking for a file
that is gone, often after a rename.

## Example
```markdown
See [the API guide](docs/api.md).
```

## Use instead
Point the link at the file's current path, or remove it.
"""),
    Rule("GDN014", "over-budget", WARNING, False, "Guidance file is over its size budget", """\
## What it does
Warns when a guidance file has more lines than `guidance.max-lines` (500) or more
bytes than `guidance.max-bytes` (40,000), or when it and its imports come to more
than `guidance.max-tokens` (10,000) approximate tokens (bytes / 4).

## Why is this bad?
Guidance is loaded into every session: a long file crowds out the task, and
agents follow short, specific rules better than long ones.

## Example
A 900-line AGENTS.md that pastes the whole API reference.

## Use instead
Keep the rules short; move reference material into files the agent reads on demand
(a plain link, not an `@` import).
"""),
)
R = {r.code: r for r in RULES}

SCHEMA_KEYS = ("description", "alwaysApply", "globs")


def approx_tokens(size: int) -> int:
    """Roughly four bytes per token for English Markdown (the usual rule of thumb)."""
    return (size + 3) // 4


# ---------------------------------------------------------------- imports


class Import(NamedTuple):
    line: int
    col: int
    token: str  # as written, without the @
    kind: str  # mentions.PATH / HOME / ABSOLUTE / OUTSIDE
    target: str  # repository-relative path for PATH and OUTSIDE


def imports(ws: Workspace, doc: Document) -> list[Import]:
    """The @-imports of a document, in order (frontmatter excluded)."""
    return ws.derived(doc, "imports", lambda doc: _imports(ws, doc))


def _prose(ws: Workspace, doc: Document) -> list[tuple[int, str]]:
    """(line number, prose) of the body: read once for mentions and links alike."""
    return ws.derived(doc, "prose", lambda doc: list(mentions.body_lines(doc.lines, doc.body_line)))


def _imports(ws: Workspace, doc: Document) -> list[Import]:
    if doc.error is not None or "@" not in doc.body:
        return []
    folder = parent(doc.path)
    found = []
    for token in mentions.mentions(_prose(ws, doc)):
        kind = mentions.classify(token.text, folder, ws.exists)
        if kind is not None:
            found.append(Import(token.line, token.col, token.text, kind[0], kind[1]))
    return found


class Loaded(NamedTuple):
    path: str
    depth: int  # 0 for the guidance file itself
    size: int  # bytes
    via: tuple[str, ...]  # the chain of files that led here, the guidance file first


class Expansion(NamedTuple):
    loaded: list[Loaded]  # every file read, in reading order, each once
    cycles: list[tuple[Import, tuple[str, ...]]]  # (first-hop import of the root, cycle path)
    too_deep: list[tuple[Import, tuple[str, ...]]]  # (first-hop import, chain to the unloaded file)
    missing: list[tuple[str, Import]]  # (file holding the import, import)


def expand(ws: Workspace, path: str, max_depth: int) -> Expansion:
    """Follow @-imports depth first, as agents expand them: each file once, at most
    ``max_depth`` hops from ``path``, stopping at cycles."""
    result = Expansion([], [], [], [])
    _visit(ws, path, (path,), None, max_depth, result, set())
    return result


# A function of the module rather than a closure inside expand(): a closure that calls
# itself is a reference cycle, and checks run with the cycle collector off.
def _visit(ws: Workspace, current: str, chain: tuple[str, ...], first: Import | None, max_depth: int, result: Expansion, seen: set[str]) -> None:
    doc = ws.document(current)
    seen.add(current)
    result.loaded.append(Loaded(current, len(chain) - 1, doc.size, chain))
    for imp in imports(ws, doc):
        hop = first or imp
        if imp.kind != mentions.PATH:
            continue
        if not ws.is_file(imp.target):
            if not ws.exists(imp.target):
                result.missing.append((current, imp))
            continue
        if imp.target in chain:
            result.cycles.append((hop, (*chain[chain.index(imp.target) :], imp.target)))
            continue
        if imp.target in seen:
            continue
        if len(chain) > max_depth:
            result.too_deep.append((hop, (*chain, imp.target)))
            continue
        _visit(ws, imp.target, (*chain, imp.target), hop, max_depth, result, seen)


# ---------------------------------------------------------------- globs


_BRACE = re.compile(r"\{([^{}]*)\}")


def _expand_braces(pattern: str) -> list[str]:
    m = _BRACE.search(pattern)
    if m is None:
        return [pattern]
    out: list[str] = []
    for alt in m.group(1).split(","):
        out.extend(_expand_braces(pattern[: m.start()] + alt + pattern[m.end() :]))
    return out


@lru_cache(maxsize=1024)
def _glob_regexes(pattern: str) -> tuple[re.Pattern[str], ...]:
    regexes = []
    for alt in _expand_braces(pattern):
        out, i = [], 0
        while i < len(alt):
            c = alt[i]
            if alt.startswith("**/", i):
                out.append("(?:.*/)?")
                i += 3
            elif alt.startswith("**", i):
                out.append(".*")
                i += 2
            elif c == "*":
                out.append("[^/]*")
                i += 1
            elif c == "?":
                out.append("[^/]")
                i += 1
            elif c == "[" and (end := alt.find("]", i + 2 if alt[i + 1 : i + 2] in ("!", "]") else i + 1)) > 0:
                body = alt[i + 1 : end]
                negate = body.startswith("!")
                out.append("[" + ("^" if negate else "") + _char_class(body[1:] if negate else body) + "]")
                i = end + 1
            else:
                out.append(re.escape(c))
                i += 1
        regexes.append(re.compile("".join(out) + r"\Z"))
    return tuple(regexes)


def _char_class(body: str) -> str:
    """A glob bracket body as a regex class: `a-z` ranges kept, every other character
    escaped, so `[`, `--`, `&&` or `\\` stay literal (and never warn)."""
    out, i = [], 0
    while i < len(body):
        if i + 2 < len(body) and body[i + 1] == "-":
            out.append(f"{re.escape(body[i])}-{re.escape(body[i + 2])}")
            i += 3
        else:
            out.append(re.escape(body[i]))
            i += 1
    return "".join(out)


def glob_match(pattern: str, path: str, folder: str = "") -> bool:
    """Does ``pattern`` (without its ``!``) name ``path``?

    Readers disagree on the base (repository root or the guidance file's folder) and
    on whether a slash-less pattern matches at any depth, so any of those readings
    counts; ``**`` spans folders, ``*`` stays within one.
    """
    candidates = [path]
    if folder and path.startswith(folder + "/"):
        candidates.append(path[len(folder) + 1 :])
    if "/" not in pattern.strip("/"):
        candidates.append(basename(path))
    pattern = (pattern[2:] if pattern.startswith("./") else pattern).lstrip("/")
    try:
        regexes = _glob_regexes(pattern)
    except re.error:  # GDN007 reports it; an invalid pattern matches nothing
        return False
    return any(r.match(c) for r in regexes for c in candidates)


def glob_problem(pattern: str) -> str | None:
    body = pattern[1:] if pattern.startswith("!") else pattern
    if not body.strip():
        return "is empty"
    if "***" in body:
        return "has '***'; use '**' for any depth"
    depth = 0
    for c in body:
        depth += {"{": 1, "}": -1}.get(c, 0)
        if depth < 0:
            return "has a '}' without a '{'"
    if depth:
        return "has a '{' without a '}'"
    if body.count("[") != body.count("]"):
        return "has unbalanced '[' and ']'"
    try:
        _glob_regexes(body)
    except re.error as e:
        return f"is not a valid pattern ({e})"
    return None


def applies(globs: Sequence[str], path: str, folder: str) -> tuple[bool, str | None]:
    """Seed 000's should_apply_guidance for a list of globs: the first exclusion that
    matches wins, then any inclusion; (applies, the deciding pattern)."""
    for pattern in globs:
        if pattern.startswith("!") and glob_match(pattern[1:], path, folder):
            return False, pattern
    for pattern in globs:
        if not pattern.startswith("!") and glob_match(pattern, path, folder):
            return True, pattern
    return False, None


# ---------------------------------------------------------------- checks


def check(ws: Workspace, targets: Any) -> Iterator[Problem]:
    wanted = set(targets.guidance)
    if not wanted:
        return
    yield from _check_folders(ws, wanted)
    for path in sorted(wanted):
        yield from check_file(ws, ws.document(path))


def _check_folders(ws: Workspace, wanted: set[str]) -> Iterator[Problem]:
    # Worked out once per run, not once per slice of guidance files checked.
    for read, others in ws.once("guidance-shared-folders", lambda: _shared_folders(ws)):
        for other in others:
            if other in wanted and not _imports_target(ws, other, read):
                yield R["GDN001"].at(other, 1, 1, f"{basename(other)} shares its folder with {basename(read)}, which agents read instead (only one guidance file per folder); merge them and make {basename(other)} a symlink to {basename(read)} or a one-line @{basename(read)} import")
    for path, first in ws.once("case-collisions", lambda: _case_collisions(ws)):
        if path in wanted:
            yield R["GDN002"].at(path, 1, 1, f"{path} and {first} differ only by case and collide on macOS and Windows checkouts; merge them into one file")


def _shared_folders(ws: Workspace) -> list[tuple[str, list[str]]]:
    """(the guidance file agents read, the others in its folder) for folders with several."""
    order = {n: i for i, n in enumerate(ws.config.guidance.filenames)}
    by_folder: dict[str, list[str]] = {}
    for path in ws.guidance:
        by_folder.setdefault(parent(path), []).append(path)
    shared = []
    for paths in by_folder.values():
        if len(paths) >= 2:
            paths.sort(key=lambda p: (order[basename(p)], p))
            shared.append((paths[0], paths[1:]))
    return shared


def _case_collisions(ws: Workspace) -> list[tuple[str, str]]:
    """(path, the path it collides with) for guidance files and skills that differ only by case."""
    lowered: dict[str, str] = {}
    collisions = []
    for path in sorted({*ws.guidance, *ws.twins, *ws.skills}):
        key = path.casefold()
        if key in lowered:
            collisions.append((path, lowered[key]))
        lowered.setdefault(key, path)
    return collisions


def _imports_target(ws: Workspace, path: str, target: str) -> bool:
    return any(i.kind == mentions.PATH and i.target == target for i in imports(ws, ws.document(path)))


def frontmatter_problem(doc: Document) -> tuple[int, str] | None:
    """(line, message) when frontmatter is present but unusable; shared with SKL."""
    fm = doc.frontmatter
    if doc.unterminated or (doc.has_frontmatter and fm is None):
        return 1, "frontmatter opened on line 1 is never closed by a '---' line"
    if fm is None:
        return None
    if fm.yaml_error is not None:
        key = key_to_quote(fm.raw_values, fm.key_lines, fm.yaml_error_line) if fm.fallback else None
        line = fm.key_lines.get(key, fm.yaml_error_line) if key else fm.yaml_error_line
        hint = f"; quote the value of {key!r}" if key else "; fix the YAML"
        return line, f"frontmatter is not valid YAML ({fm.yaml_error}){hint}"
    if fm.duplicates:
        key, line = fm.duplicates[0]
        return line, f"key {key!r} appears more than once; YAML keeps only the last value"
    return None


def check_file(ws: Workspace, doc: Document) -> Iterator[Problem]:
    path = doc.path
    if doc.error is not None:
        yield R["GDN003"].at(path, doc.error_line, 1, f"{basename(path)} {doc.error}")
        return
    trouble = frontmatter_problem(doc)
    if trouble is not None:
        yield R["GDN004"].at(path, trouble[0], 1, trouble[1])
    elif doc.frontmatter is not None:
        yield from _check_frontmatter(ws, doc)
    expansion = expand(ws, path, ws.config.guidance.max_import_depth)
    yield from _check_imports(ws, doc, expansion)
    yield from _check_links(ws, doc)
    yield from _check_size(ws, doc, expansion)


def _check_frontmatter(ws: Workspace, doc: Document) -> Iterator[Problem]:
    fm = doc.frontmatter
    assert fm is not None
    path, data = doc.path, fm.data

    def line_of(key: str) -> int:
        return fm.key_lines.get(key, 1)

    allowed = set(SCHEMA_KEYS) | set(ws.config.guidance.allowed_keys)
    for key in sorted(k for k in data if k not in allowed):
        yield R["GDN006"].at(path, line_of(key), 1, f"frontmatter key {key!r} is not a guidance key (description, alwaysApply, globs); fix the spelling or add it to guidance.allowed-keys")
    if "description" in data and not isinstance(data["description"], str):
        yield R["GDN005"].at(path, line_of("description"), 1, f"description is a {_kind(data['description'])}; write it as one line of text")
    if "alwaysApply" in data and not isinstance(data["alwaysApply"], bool):
        value = data["alwaysApply"]
        hint = f"write alwaysApply: {str(value).strip().lower() in ('yes', 'true', 'on', '1')} (a YAML boolean, unquoted)".replace("True", "true").replace("False", "false")
        yield R["GDN005"].at(path, line_of("alwaysApply"), 1, f"alwaysApply is the {_kind(value)} {value!r}, not a boolean; {hint}")
    if "globs" not in data or data["globs"] is None:
        return
    globs = data["globs"]
    if not isinstance(globs, list):
        yield R["GDN005"].at(path, line_of("globs"), 1, f"globs is a {_kind(globs)}; write it as a list of patterns (globs: [\"src/**/*.ts\"])")
        return
    folder = parent(path)
    for pattern in globs:
        if not isinstance(pattern, str):
            yield R["GDN005"].at(path, line_of("globs"), 1, f"globs holds the {_kind(pattern)} {pattern!r}; every pattern must be a string")
            continue
        bad = glob_problem(pattern)
        if bad is not None:
            yield R["GDN007"].at(path, line_of("globs"), 1, f"glob {pattern!r} {bad}")
            continue
        # An exclusion that matches nothing excludes nothing: harmless, not reported.
        if not ws.user and not pattern.startswith("!") and not any(glob_match(pattern, f, folder) for f in ws.files):
            yield R["GDN008"].at(path, line_of("globs"), 1, f"glob {pattern!r} matches no file in the repository, so this guidance never applies by it; fix the pattern or remove it")


def _kind(value: Any) -> str:
    return {str: "string", bool: "boolean", int: "number", float: "number", list: "list", dict: "mapping"}.get(type(value), type(value).__name__)


def _check_imports(ws: Workspace, doc: Document, expansion: Expansion) -> Iterator[Problem]:
    path = doc.path
    for imp in imports(ws, doc):
        if imp.kind in (mentions.ABSOLUTE, mentions.OUTSIDE):
            yield R["GDN010"].at(path, imp.line, imp.col, f"@{imp.token} points outside the repository, so other clones do not have it; move the file into the repository or import it from @~/ deliberately")
        elif imp.kind == mentions.PATH and not ws.exists(imp.target):
            yield R["GDN009"].at(path, imp.line, imp.col, f"@{imp.token} imports {imp.target}, which does not exist; fix the path, or put it in backticks if it is not an import")
    limit = ws.config.guidance.max_import_depth
    guidance = set(ws.guidance)
    reported: set[frozenset[str]] = set()
    for hop, cycle in expansion.cycles:
        members = frozenset(cycle)
        # A cycle through other guidance files is reported on them; this file only
        # reports cycles it is part of, or ones no guidance file owns.
        if members in reported or (path not in members and members & guidance):
            continue
        reported.add(members)
        yield R["GDN011"].at(path, hop.line, hop.col, f"import cycle {' -> '.join(cycle)}; import in one direction only")
    for hop, chain in expansion.too_deep[:1]:
        yield R["GDN012"].at(path, hop.line, hop.col, f"import chain {' -> '.join(chain)} is {len(chain) - 1} hops deep, over guidance.max-import-depth {limit}, so agents never load {chain[-1]}; import it from a shallower file")


def _check_links(ws: Workspace, doc: Document) -> Iterator[Problem]:
    folder = parent(doc.path)
    if "[" not in doc.body:
        return
    for link in mentions.links(_prose(ws, doc)):
        target = mentions.link_path(link.text, folder)
        if target is None:
            continue
        if target == ".." or target.startswith("../"):
            yield R["GDN013"].at(doc.path, link.line, link.col, f"link {link.text!r} climbs above the repository root; link to a file inside the repository or use a URL")
        elif not ws.exists(target):
            hint = "use '/' between folders, not '\\'" if "\\" in target else "fix the path or remove the link"
            yield R["GDN013"].at(doc.path, link.line, link.col, f"link {link.text!r} points at {target}, which does not exist; {hint}")


def _check_size(ws: Workspace, doc: Document, expansion: Expansion) -> Iterator[Problem]:
    cfg = ws.config.guidance
    path = doc.path
    lines = len(doc.lines) - (1 if doc.text.endswith("\n") else 0)
    if lines > cfg.max_lines:
        yield R["GDN014"].at(path, cfg.max_lines + 1, 1, f"{basename(path)} has {lines} lines, over guidance.max-lines {cfg.max_lines}; move reference material into files read on demand")
    if doc.size > cfg.max_bytes:
        yield R["GDN014"].at(path, 1, 1, f"{basename(path)} is {doc.size} bytes, over guidance.max-bytes {cfg.max_bytes}; move reference material into files read on demand")
    loaded = expansion.loaded
    tokens = sum(approx_tokens(x.size) for x in loaded)
    if tokens > cfg.max_tokens:
        with_imports = f" with its {len(loaded) - 1} import(s)" if len(loaded) > 1 else ""
        yield R["GDN014"].at(path, 1, 1, f"{basename(path)}{with_imports} loads about {tokens} tokens, over guidance.max-tokens {cfg.max_tokens}; shorten it or turn @-imports into plain links")

