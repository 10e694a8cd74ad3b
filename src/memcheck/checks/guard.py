"""GRD: changes to paths an agent must never touch (SPEC §6).

The guarded paths come in the named categories of seed 000 (``env``, ``keys``,
``lockfiles``, …), kept in ``resources/guard-patterns.json``. Patterns are gitignore
lines (pathspec), matched against repository-relative POSIX paths after Unicode NFC
normalisation, case-insensitively unless ``guard.case-sensitive`` is set. An allowed
path (``guard.allow``, with or without a leading ``!``) is never guarded, whichever
pattern matches it.

Guard has no ``check()``: it judges changes, not files, so ``memcheck check`` never
runs it; ``memcheck guard`` does (hooks/guard.py).
"""
from __future__ import annotations

import json
import posixpath
import re
import unicodedata
from typing import Any, Callable, Iterable, Mapping, NamedTuple, Sequence

from memcheck.config import ConfigError, GuardConfig, resource_json
from memcheck.git import SYMLINK_MODE, Change, absent, is_directory_mode
from memcheck.problem import ERROR, Problem, Rule, shown

RULES = (
    Rule("GRD001", "guarded-path", ERROR, False, "A change touches a guarded path", """\
## What it does
Reports a change that adds, modifies, deletes, renames (either side), copies (either
side), or changes the type or mode of a path in a guard category: environment files,
keys and certificates, credential and token files, SSH/AWS/GPG/Kubernetes settings,
editor settings, `.git/`, `node_modules/`, lock files and build outputs.
`memcheck guard --list` shows which tracked files are guarded today.

## Why is this bad?
Agents commit what they touched. A committed secret stays in the history even when a
later commit deletes it, so a range is judged commit by commit. Lock files, installed
dependencies and build outputs are written by tools; a hand edit drifts from them.

## Example
```console
$ git add .env && memcheck guard
.env:1:1: GRD001 added: guarded by category env (pattern .env); to allow it, put in .memcheck.yaml: guard: {allow: ["/.env"]}
```

## Use instead
Keep the file out of the commit (`git restore --staged .env`, add it to `.gitignore`)
and commit a template such as `.env.example` (allowed by default). If the path really
belongs in the repository, allow it in `.memcheck.yaml` with the line the message
gives, or turn a whole category off with `guard: {disable: [lockfiles]}`.
"""),
    Rule("GRD002", "guarded-symlink", ERROR, False, "A symlink points at a guarded path", """\
## What it does
Reports a symlink that a change adds or retargets when its target is a guarded path,
inside the repository or outside it (`../../.ssh/id_rsa`, `/home/me/.aws/credentials`).

## Why is this bad?
A symlink is a second name for its target: an agent, a tool or a build step that
reads or writes through the link touches the guarded file, and a link into the user's
home folder publishes where the secrets live.

## Example
```console
$ ln -s deploy.pem notes.txt && git add notes.txt && memcheck guard
notes.txt:1:1: GRD002 symlink added pointing to deploy.pem: guarded by category keys (pattern *.pem); ...
```

## Use instead
Do not link to secrets; read them from the environment at run time. If the link is
intended, allow the link's path in `.memcheck.yaml` with the line the message gives.
"""),
)

GUARDED, SYMLINK = RULES
CONFIG_CATEGORY = "config"  # findings from guard.patterns in the user's config
_SHOWN_CHANGES = 3  # a long range names the first few commits that touched a path


class Category(NamedTuple):
    name: str
    why: str
    patterns: tuple[str, ...]
    allow: tuple[str, ...]  # templates the category never guards (.env.example)


def _expand(spec: Mapping[str, Any], forms: Sequence[str], extensions: Sequence[str]) -> tuple[str, ...]:
    """A category's patterns: its own, then its secret words in every data-file form."""
    out = list(spec["patterns"])
    for name in spec.get("names", ()):
        for form in forms:
            exts = extensions if "{ext}" in form else ("",)
            out += [form.format(name=name, ext=ext) for ext in exts]
    return tuple(out)


def categories() -> dict[str, Category]:
    data = resource_json("guard-patterns.json")
    return {
        name: Category(name, spec["why"], _expand(spec, data["name-forms"], data["data-extensions"]), tuple(spec.get("allow", ())))
        for name, spec in data["categories"].items()
    }


class Hit(NamedTuple):
    category: str
    pattern: str


def _nfc(text: str) -> str:
    return text if text.isascii() else unicodedata.normalize("NFC", text)


# pathspec writes a pattern without a slash (but for a trailing one) as this prefix,
# its match of one path segment, and one of these suffixes (any entry / folders only).
_ANY_DEPTH = "^(?:.+/)?"
_SUFFIXES = (("(?:(?P<ps_d>/)|$)", False), ("(?P<ps_d>/)", True))
_NAMED_GROUP = re.compile(r"\(\?P<\w+>")
_LITERAL_TAIL = re.compile(r"[^*?\]\\]*$")


def _pattern_to_regex() -> Callable[[str], tuple[str | None, bool | None]]:
    """pathspec's translation of one gitignore line into a regex (source, include).

    Only the translation: compiling hundreds of single-pattern regexes, as
    ``GitIgnoreSpec.from_lines`` does, costs more than matching a whole range.
    """
    try:
        from pathspec.patterns.gitignore.spec import GitIgnoreSpecPattern as Pattern
    except ImportError:  # pathspec < 1.0, where GitIgnoreSpec uses GitWildMatchPattern
        from pathspec.patterns.gitwildmatch import GitWildMatchPattern as Pattern
    return Pattern.pattern_to_regex  # type: ignore[no-any-return]


def _extension(name: str) -> str:
    return name.rpartition(".")[2] if "." in name else ""


class PatternSet:
    """Gitignore patterns compiled into a handful of regexes.

    Trying hundreds of patterns on every path one by one is far too slow for a range
    of 10,000 paths, so a pattern without a slash, which matches one path segment, is
    filed under the extension its literal tail demands (``*[._-]secret.json`` can only
    match a segment ending in ``.json``) and a segment tries just its own extension's
    regex and the one for patterns without a fixed extension. Segments repeat from path
    to path, so each is matched once. Patterns with a slash are one regex over the path.
    """

    def __init__(self, hits: Sequence[Hit], case_sensitive: bool = False, shipped: Iterable[str] = ()) -> None:
        """``shipped``: categories whose patterns come with memcheck and are known to
        compile; any other pattern (the config's) is compiled at once, so a bad one is
        reported before anything is judged."""
        self.hits = tuple(hits)
        self._fold = (lambda s: s) if case_sensitive else str.lower
        self._flags = flags = re.DOTALL if case_sensitive else re.DOTALL | re.IGNORECASE
        to_regex = _pattern_to_regex()
        segment: dict[tuple[str, bool], list[str]] = {}
        whole: list[str] = []
        shipped = frozenset(shipped)
        for i, hit in enumerate(self.hits):
            source, include = to_regex(_nfc(hit.pattern))
            if include is None or source is None:  # blank line or comment
                continue
            key = self._segment_key(_nfc(hit.pattern), source)
            if key is None:
                alternative = f"(?P<p{i}>{_NAMED_GROUP.sub('(?:', source)})"
                whole.append(alternative)
            else:
                core = source[len(_ANY_DEPTH) : -len(_SUFFIXES[key[1]][0])]
                alternative = f"(?P<p{i}>{core})"
                segment.setdefault(key, []).append(alternative)
            if hit.category not in shipped:
                self._compile([alternative], flags)
        # Each extension's regex is compiled the first time a segment with that
        # extension is judged: a range of Markdown and Python files needs two or three
        # of some fifty, and compiling them all costs more than judging the range.
        self._pending = segment
        self._segment: dict[tuple[str, bool], re.Pattern[str] | None] = {}
        self._whole = self._compile(whole, flags) if whole else None
        self._seen: dict[tuple[str, bool], int | None] = {}

    def _segment_regex(self, key: tuple[str, bool]) -> re.Pattern[str] | None:
        if key not in self._segment:
            alternatives = self._pending.get(key)
            self._segment[key] = self._compile(alternatives, self._flags) if alternatives else None
        return self._segment[key]

    def _compile(self, alternatives: Sequence[str], flags: int) -> re.Pattern[str]:
        try:
            return re.compile("|".join(alternatives), flags)
        except re.error:
            for alternative in alternatives:
                try:
                    re.compile(alternative)
                except re.error as e:
                    bad = self.hits[int(alternative[len("(?P<p") : alternative.index(">")])].pattern
                    raise ConfigError(f"guard: invalid pattern {bad!r}: {e}") from None
            raise

    def _segment_key(self, pattern: str, source: str) -> tuple[str, bool] | None:
        """(extension, folders only) for a one-segment pattern, None for the others."""
        body = pattern.removeprefix("!")
        if "/" in body.rstrip("/") or not source.startswith(_ANY_DEPTH):
            return None
        for suffix, folders_only in _SUFFIXES:
            if source.endswith(suffix):
                tail = _LITERAL_TAIL.search(body.rstrip("/"))
                ext = _extension(tail.group() if tail else "")
                # A non-ASCII extension may fold differently in str.lower and re.I.
                return (self._fold(ext) if ext.isascii() else "", folders_only)
        return None

    def _match_segment(self, name: str, folder: bool) -> int | None:
        ext = _extension(name)
        if ext.isascii():
            keys: Iterable[tuple[str, bool]] = [(self._fold(ext), False), ("", False)]
            if folder:
                keys = [*keys, (self._fold(ext), True), ("", True)]
        else:
            keys = [k for k in self._pending if folder or not k[1]]
        for key in keys:
            regex = self._segment_regex(key)
            found = regex.fullmatch(name) if regex is not None else None
            if found and found.lastgroup:
                return int(found.lastgroup[1:])
        return None

    def first(self, path: str, is_dir: bool = False) -> Hit | None:
        """The first pattern that matches a repository-relative path, if any."""
        path = _nfc(path)
        parts = path.split("/")
        for i, name in enumerate(parts):
            key = (name, is_dir or i < len(parts) - 1)
            if key not in self._seen:
                self._seen[key] = self._match_segment(*key)
            index = self._seen[key]
            if index is not None:
                return self.hits[index]
        if self._whole is not None:
            found = self._whole.match(path + "/" if is_dir else path)
            if found and found.lastgroup:
                return self.hits[int(found.lastgroup[1:])]
        return None


class Guard:
    """The enabled categories, the config's own patterns, and what is allowed."""

    def __init__(self, config: GuardConfig) -> None:
        known = categories()
        unknown = [name for name in config.disable if name not in known]
        if unknown:
            raise ConfigError(f"guard.disable: unknown categor{'y' if len(unknown) == 1 else 'ies'} {', '.join(unknown)} (known: {', '.join(known)})")
        enabled = [c for c in known.values() if c.name not in config.disable]
        hits = [Hit(c.name, p) for c in enabled for p in c.patterns]
        allow = [Hit(c.name, p) for c in enabled for p in c.allow] + [Hit("allow", p.removeprefix("!")) for p in config.allow]
        for pattern in config.patterns:
            if pattern.startswith("!"):  # a negated guard pattern allows, as in .gitignore
                allow.append(Hit("allow", pattern[1:]))
            else:
                hits.append(Hit(CONFIG_CATEGORY, pattern))
        self.guarded = PatternSet(hits, config.case_sensitive, shipped=known)
        self._hits: dict[tuple[str, bool], Hit | None] = {}
        self.allowed = PatternSet(allow, config.case_sensitive, shipped=known)

    def judge(self, change: Change) -> None:
        """Judge a change's paths ahead of ``findings``, which then only looks them up:
        called while git is still writing the rest of a range."""
        folder = is_directory_mode(change.new_mode)
        for path, _ in describe(change):
            self.hit(path, folder)

    def hit(self, path: str, is_dir: bool = False) -> Hit | None:
        key = (path, is_dir)
        if key in self._hits:  # a range names a path in several commits, and a path is asked twice
            return self._hits[key]
        found = self.guarded.first(path, is_dir)
        if found is not None and self.allowed.first(path, is_dir) is not None:
            found = None
        self._hits[key] = found
        return found


def allow_line(path: str) -> str:
    """The .memcheck.yaml line that allows exactly this path."""
    literal = re.sub(r"([\\*?\[])", r"\\\1", path)
    if literal.endswith(" "):
        literal = literal[:-1] + "\\ "  # gitignore drops unescaped trailing spaces
    return "guard: {allow: " + json.dumps(["/" + literal], ensure_ascii=False) + "}"


def _mode_name(mode: str) -> str:
    return {"120000": "symlink", "160000": "submodule", "100755": "executable file"}.get(mode, "file")


def describe(change: Change) -> list[tuple[str, str]]:
    """(path, what happened to it) for each side of a change."""
    status, path, source = change.status, change.path, change.source
    if status == "A":
        return [(path, "added")]
    if status == "D":
        return [(path, "deleted")]
    if status == "M":
        if change.old_mode == change.new_mode:
            return [(path, "modified")]
        return [(path, f"mode changed {change.old_mode} -> {change.new_mode}")]
    if status == "T":
        return [(path, f"type changed {_mode_name(change.old_mode)} -> {_mode_name(change.new_mode)}")]
    if status in ("R", "C"):
        verb = "renamed" if status == "R" else "copied"
        return [(path, f"{verb} from {shown(source)}"), (source, f"{verb} to {shown(path)}")]
    if status == "U":
        return [(path, "unmerged")]
    return [(path, "listed" if not status else "changed")]


def link_target(link: str, target: str) -> str:
    """A symlink's target as a repository-relative path; what leaves the repository
    keeps its own segments (``../../.ssh/id_rsa`` is judged as ``.ssh/id_rsa``)."""
    if target.startswith("/"):
        resolved = posixpath.normpath(target)
    else:
        resolved = posixpath.normpath(posixpath.join(posixpath.dirname(link), target))
    parts = [p for p in resolved.split("/") if p not in ("", ".", "..")]
    return "/".join(parts)


class _Touch(NamedTuple):
    rule: Rule
    path: str
    hit: Hit
    what: str  # "added", "symlink added pointing to X", …
    commit: str


def _touches(change: Change, guard: Guard, targets: Mapping[str, str]) -> Iterable[_Touch]:
    folder = is_directory_mode(change.new_mode)
    for path, what in describe(change):
        hit = guard.hit(path, folder)
        if hit is not None:
            yield _Touch(GUARDED, path, hit, what, change.commit)
    if change.new_mode == SYMLINK_MODE and change.new_blob in targets and guard.allowed.first(change.path) is None:
        target = targets[change.new_blob]
        resolved = link_target(change.path, target)
        hit = guard.hit(resolved, is_dir=True) if resolved else None
        if hit is not None:
            where = shown(target) if resolved == target else f"{shown(target)} ({shown(resolved)})"
            verb = "added" if change.status == "A" or absent(change.old_mode) else "changed"
            yield _Touch(SYMLINK, change.path, hit, f"symlink {verb} pointing to {where}", change.commit)


def touches_guarded(change: Change, guard: Guard, targets: Mapping[str, str]) -> bool:
    return any(True for _ in _touches(change, guard, targets))


def symlink_blobs(changes: Iterable[Change]) -> set[str]:
    """The blobs holding the targets of the symlinks the changes leave behind."""
    return {c.new_blob for c in changes if c.new_mode == SYMLINK_MODE and c.status != "D"}


def _what(touches: Sequence[_Touch]) -> str:
    parts = [f"{t.what} in {t.commit[:7]}" if t.commit else t.what for t in touches[:_SHOWN_CHANGES]]
    if len(touches) > _SHOWN_CHANGES:
        parts.append(f"and in {len(touches) - _SHOWN_CHANGES} more commits")
    return ", ".join(dict.fromkeys(parts))


def findings(changes: Iterable[Change], guard: Guard, targets: Mapping[str, str]) -> list[Problem]:
    """One finding per rule and path, naming every way the changes touched it.

    ``targets`` maps a symlink's ``new_blob`` to the path the link holds.
    """
    grouped: dict[tuple[Rule, str], list[_Touch]] = {}
    for change in changes:
        for touch in _touches(change, guard, targets):
            grouped.setdefault((touch.rule, touch.path), []).append(touch)
    problems = []
    for (rule, path), touches in grouped.items():
        hit = touches[0].hit
        message = (
            f"{_what(touches)}: guarded by category {hit.category} (pattern {hit.pattern}); "
            f"to allow it, put in .memcheck.yaml: {allow_line(path)}"
        )
        problems.append(rule.at(path, 1, 1, message))
    return sorted(problems)


def guarded_tree(paths: Iterable[str], guard: Guard) -> dict[str, list[tuple[str, str]]]:
    """Category -> (path, pattern) for every guarded path, in category order."""
    found: dict[str, list[tuple[str, str]]] = {}
    for path in paths:
        hit = guard.hit(path)
        if hit is not None:
            found.setdefault(hit.category, []).append((path, hit.pattern))
    order = [*categories(), CONFIG_CATEGORY]
    return {name: sorted(found[name]) for name in order if name in found}
