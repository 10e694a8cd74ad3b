"""GRD: changes to paths an agent must never touch (SPEC §6).

The guarded paths come in named categories (``env``, ``keys``, ``lockfiles``, …),
kept in ``resources/guard-patterns.json``. Patterns are gitignore lines (pathspec),
matched against repository-relative POSIX paths after Unicode NFC normalisation,
case-insensitively unless ``guard.case-sensitive`` is set. A path the config allows
(``guard.allow``, with or without a leading ``!``) is never guarded, whichever
pattern matches it. A category's templates (``.env.example``) exempt a file from that
category by the file's own name: never a folder's contents, never another category.

Guard has no ``check()``: it judges changes, not files, so ``memcheck check`` never
runs it; ``memcheck guard`` does (hooks/guard.py), and hands it ``Change`` values and
the settings to judge them by; nothing here asks git.
"""
from __future__ import annotations

import dataclasses
import json
import posixpath
import re
import unicodedata
from typing import Any, Callable, Iterable, Mapping, NamedTuple, Sequence

from memcheck.changes import SYMLINK_MODE, Change, absent
from memcheck.config import Config, ConfigError, GuardConfig, resource_json, selected
from memcheck.problem import ERROR, Problem, Rule, shown

GRD001 = Rule("GRD001", "guarded-path", ERROR, False, "A change touches a guarded path", """\
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
""")

GRD002 = Rule("GRD002", "guarded-symlink", ERROR, False, "A symlink points at a guarded path", """\
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
A link is judged by what it points at whatever its own name: `.env.example -> .env`
is reported, although `.env.example` itself is a template that guard allows.
""")

GRD003 = Rule("GRD003", "guard-loosened", ERROR, False, "A change loosens the guard's own settings", """\
## What it does
Reports a change to `.memcheck.yaml` or `[tool.memcheck]` in `pyproject.toml` that
lets more through the guard than the settings before it: a path allowed
(`guard.allow`, a `!pattern`), a guard pattern removed, a category disabled, matching
made case-sensitive, or a `GRD` rule switched off (`ignore`, `select`,
`per-path-ignores`). Lint settings change freely.

## Why is this bad?
The change under review never decides its own policy: staged changes are judged by
the settings of HEAD, and a range by those of its base, so a commit that allows
`/.env` does not let its own `.env` through. Its loosening applies to what comes
after it, and so needs a reviewer's eye of its own.

## Example
```console
$ git add .memcheck.yaml .env && memcheck guard
.env:1:1: GRD001 added: guarded by category env (pattern .env); to allow it, put in .memcheck.yaml: guard: {allow: ["/.env"]}
.memcheck.yaml:1:1: GRD003 loosens the guard: allows /.env; a change is judged by the settings before it, so land this on its own and have it reviewed
```

## Use instead
Commit the loosening on its own and have it reviewed; in a pull request, a
maintainer accepts it (the Action's override label). At commit time, skip the hook
for that one commit: `SKIP=memcheck-guard git commit`.
""")

RULES = (GRD001, GRD002, GRD003)

GUARD_CODES = tuple(rule.code for rule in RULES)
CONFIG_CATEGORY = "config"  # findings from guard.patterns in the user's config
_SHOWN_CHANGES = 3  # a long range names the first few commits that touched a path


class Category(NamedTuple):
    name: str
    why: str
    patterns: tuple[str, ...]  # match a path anywhere: a folder's contents too
    allow: tuple[str, ...]  # templates the category never guards (.env.example)
    files: tuple[str, ...] = ()  # match a file by its own name, never code or documentation (kubeconfig.*)


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
        name: Category(
            name,
            spec["why"],
            _expand(spec, data["name-forms"], data["data-extensions"]),
            # a category of secret words allows their templates (secrets.example.yaml)
            tuple(spec.get("allow", ())) + (tuple(data["name-templates"]) + tuple(data["path-templates"]) if spec.get("names") else ()),
            tuple(spec.get("files", ())),
        )
        for name, spec in data["categories"].items()
    }


def source_extensions() -> frozenset[str]:
    """Extensions of source code and documentation, which a category's ``files``
    patterns never flag: ``kubeconfig.go`` is code about a kubeconfig."""
    return frozenset(resource_json("guard-patterns.json")["source-extensions"])


class Hit(NamedTuple):
    category: str
    pattern: str


def _nfc(text: str) -> str:
    return text if text.isascii() else unicodedata.normalize("NFC", text)


# pathspec writes a pattern without a slash (but for a trailing one) as this prefix,
# its match of one path segment, and one of these suffixes (any entry / folders only).
_ANY_DEPTH = "^(?:.+/)?"
_ANY, _FOLDERS, _FILES = 0, 1, 2  # what a one-segment pattern may match: any entry, folders, files
_SUFFIXES = (("(?:(?P<ps_d>/)|$)", _ANY), ("(?P<ps_d>/)", _FOLDERS))
# What a path segment is, and so which patterns may match it: a folder above the
# path, the path's own name as a file or as a folder, or (a symlink's target, which
# may be either) both.
_AS_FOLDER, _AS_FILE, _AS_EITHER = (_ANY, _FOLDERS), (_ANY, _FILES), (_ANY, _FOLDERS, _FILES)
_NAMED_GROUP = re.compile(r"\(\?P<\w+>")
_LITERAL_TAIL = re.compile(r"[^*?\]\\]*$")


def _pattern_to_regex() -> Callable[[str], tuple[str | None, bool | None]]:
    """pathspec's translation of one gitignore line into a regex (source, include).

    Only the translation: compiling hundreds of single-pattern regexes, as
    ``GitIgnoreSpec.from_lines`` does, costs more than matching a whole range.
    """
    from pathspec.patterns.gitignore.spec import GitIgnoreSpecPattern

    # (Typed where pathspec ships its types, Any where mypy cannot read them.)
    to_regex: Callable[[str], tuple[str | None, bool | None]] = GitIgnoreSpecPattern.pattern_to_regex
    return to_regex


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

    ``files``: the hits whose pattern names a file, never a folder above it, and never
    a file with one of the ``spared`` extensions (source code and documentation).
    """

    def __init__(
        self,
        hits: Sequence[Hit],
        case_sensitive: bool = False,
        shipped: Iterable[str] = (),
        files: frozenset[Hit] = frozenset(),
        spared: frozenset[str] = frozenset(),
    ) -> None:
        """``shipped``: categories whose patterns come with memcheck and are known to
        compile; any other pattern (the config's) is compiled at once, so a bad one is
        reported before anything is judged."""
        self.hits = tuple(hits)
        self._spared = spared
        self._fold = (lambda s: s) if case_sensitive else str.lower
        self._flags = flags = re.DOTALL if case_sensitive else re.DOTALL | re.IGNORECASE
        to_regex = _pattern_to_regex()
        segment: dict[tuple[str, int], list[tuple[int, str]]] = {}
        whole: list[str] = []
        shipped = frozenset(shipped)
        for i, hit in enumerate(self.hits):
            try:
                source, include = to_regex(_nfc(hit.pattern))
            except ValueError as e:  # the config's: a trailing backslash, ...
                raise ConfigError(f"guard pattern {hit.pattern!r} is not a gitignore line git can read: {e}") from None
            if include is None or source is None:  # blank line or comment
                continue
            key = self._segment_key(_nfc(hit.pattern), source)
            if hit in files:
                if key is None or key[1] != _ANY:
                    raise ValueError(f"{hit.pattern!r} cannot name a file: it has a slash")  # shipped patterns only: tested
                key = (key[0], _FILES)
            if key is None:
                alternative = f"(?P<p{i}>{_NAMED_GROUP.sub('(?:', source)})"
                whole.append(alternative)
            else:
                core = source[len(_ANY_DEPTH) : -len(_SUFFIXES[0 if key[1] == _FILES else key[1]][0])]
                alternative = f"(?P<p{i}>{core})"
                segment.setdefault(key, []).append((i, alternative))
            if hit.category not in shipped:
                self._compile([alternative], flags)
        # Each extension's regex is compiled the first time a segment with that
        # extension is judged: a range of Markdown and Python files needs two or three
        # of some fifty, and compiling them all costs more than judging the range.
        self._pending = segment
        self._segment: dict[tuple[str | None, tuple[int, ...]], re.Pattern[str] | None] = {}
        self._whole = self._compile(whole, flags) if whole else None
        self._seen: dict[tuple[str, tuple[int, ...]], int | None] = {}

    def _segment_regex(self, ext: str | None, kinds: tuple[int, ...]) -> re.Pattern[str] | None:
        """One regex for the patterns of an extension (None: of every extension) that
        may match a segment of these kinds, in the patterns' order: the first that
        matches is the first in the list."""
        key = (ext, kinds)
        if key not in self._segment:
            buckets = [b for b in self._pending if b[1] in kinds] if ext is None else [(ext, k) for k in kinds]
            alternatives = sorted(a for b in buckets for a in self._pending.get(b, ()))
            self._segment[key] = self._compile([a for _, a in alternatives], self._flags) if alternatives else None
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

    def _segment_key(self, pattern: str, source: str) -> tuple[str, int] | None:
        """(extension, what it matches) for a one-segment pattern, None for the others."""
        body = pattern.removeprefix("!")
        if "/" in body.rstrip("/") or not source.startswith(_ANY_DEPTH):
            return None
        for suffix, kind in _SUFFIXES:
            if source.endswith(suffix):
                tail = _LITERAL_TAIL.search(body.rstrip("/"))
                ext = _extension(tail.group() if tail else "")
                # A non-ASCII extension may fold differently in str.lower and re.I.
                return (self._fold(ext) if ext.isascii() else "", kind)
        return None

    def _match_segment(self, name: str, kinds: tuple[int, ...]) -> int | None:
        ext = _extension(name)
        if _FILES in kinds and ext.lower() in self._spared:
            kinds = _AS_FOLDER[:1] if kinds == _AS_FILE else _AS_FOLDER
        exts: tuple[str | None, ...] = ((self._fold(ext), "") if ext else ("",)) if ext.isascii() else (None,)
        first = None  # the earliest pattern in the list, of this extension's or of no fixed one
        for each in exts:
            regex = self._segment_regex(each, kinds)
            found = regex.fullmatch(name) if regex is not None else None
            if found and found.lastgroup:
                index = int(found.lastgroup[1:])
                first = index if first is None else min(first, index)
        return first

    def first(self, path: str, is_dir: bool = False) -> Hit | None:
        """The first pattern that matches a repository-relative path, if any."""
        found = self.first_at(path, is_dir)
        return found[0] if found is not None else None

    def first_at(self, path: str, is_dir: bool = False, either: bool = False) -> tuple[Hit, bool] | None:
        """The first pattern that matches, and whether it matched the path's own name
        (its last segment) rather than a folder above it or the whole path.
        ``either``: the path may be a folder or a file (what a symlink points at)."""
        path = _nfc(path)
        parts = path.split("/")
        last = len(parts) - 1
        own = _AS_EITHER if either else _AS_FOLDER if is_dir else _AS_FILE
        for i, name in enumerate(parts):
            key = (name, own if i == last else _AS_FOLDER)
            if key not in self._seen:
                self._seen[key] = self._match_segment(*key)
            index = self._seen[key]
            if index is not None:
                return self.hits[index], i == last
        if self._whole is not None:
            found = self._whole.match(path + "/" if is_dir else path)
            if found and found.lastgroup:
                return self.hits[int(found.lastgroup[1:])], False
        return None


class Guard:
    """The enabled categories, the config's own patterns, and what is allowed."""

    def __init__(self, config: GuardConfig) -> None:
        known = categories()
        unknown = [name for name in config.disable if name not in known]
        if unknown:
            raise ConfigError(f"guard.disable: unknown categor{'y' if len(unknown) == 1 else 'ies'} {', '.join(unknown)} (known: {', '.join(known)})")
        enabled = [c for c in known.values() if c.name not in config.disable]
        hits = [Hit(c.name, p) for c in enabled for p in (*c.patterns, *c.files)]
        allow = [Hit("allow", p.removeprefix("!")) for p in config.allow]
        for pattern in config.patterns:
            if pattern.startswith("!"):  # a negated guard pattern allows, as in .gitignore
                allow.append(Hit("allow", pattern[1:]))
            else:
                hits.append(Hit(CONFIG_CATEGORY, pattern))
        self._case_sensitive = config.case_sensitive
        self._shipped = frozenset(known)
        self._patterns = tuple(hits)
        self._files = frozenset(Hit(c.name, p) for c in enabled for p in c.files)
        self._spared = source_extensions()
        self.guarded = self._pattern_set(hits)
        self.allowed = PatternSet(allow, config.case_sensitive, shipped=known)
        # A template names a file by its own name (.env.example), or, with a slash, by
        # where it is (a chart's templates/ folder): matched on the whole path.
        self._templates = {c.name: PatternSet([Hit(c.name, p) for p in c.allow if "/" not in p], config.case_sensitive, shipped=known) for c in enabled if c.allow}
        self._path_templates = {
            c.name: PatternSet([Hit(c.name, p) for p in c.allow if "/" in p], config.case_sensitive, shipped=known)
            for c in enabled
            if any("/" in p for p in c.allow)
        }
        self._without: dict[frozenset[str], PatternSet] = {}
        self._hits: dict[tuple[str, bool, bool], Hit | None] = {}

    def judge(self, change: Change) -> None:
        """Judge a change's paths ahead of ``findings``, which then only looks them up:
        called while git is still writing the rest of a range."""
        for path, _ in describe(change):
            self.hit(path, change.is_directory)

    def _pattern_set(self, hits: Sequence[Hit]) -> PatternSet:
        return PatternSet(hits, self._case_sensitive, shipped=self._shipped, files=self._files, spared=self._spared)

    def hit(self, path: str, is_dir: bool = False, link_target: bool = False) -> Hit | None:
        """The pattern that guards ``path``, if any. ``link_target``: the path is what a
        symlink points at, judged as a folder (a link to ``~/.ssh``) and as a file (a
        link to ``kubeconfig``; for the templates, a link to ``.env.example``).

        A name is judged as it is and as Windows reads it, without the dots and
        spaces that end a segment (``.env `` and ``x.pem.`` are ``.env`` and ``x.pem``
        there); only the config's allowance of the name as it is lets it through."""
        key = (path, is_dir, link_target)
        if key in self._hits:  # a range names a path in several commits, and a path is asked twice
            return self._hits[key]
        hit = self._guarded(path, is_dir, link_target)
        if hit is None and (path.endswith(_WINDOWS_DROPS) or "./" in path or " /" in path):
            read_as = windows_name(path)
            if read_as != path:
                hit = self._guarded(read_as, is_dir, link_target)
        if hit is not None and self.allowed.first(path, is_dir) is not None:
            hit = None
        self._hits[key] = hit
        return hit

    def _guarded(self, path: str, is_dir: bool, link_target: bool) -> Hit | None:
        found = self.guarded.first_at(path, is_dir, either=link_target)
        if found is None:  # most paths are guarded by nothing: they stop here
            return None
        return self._after_templates(path, is_dir, link_target or not is_dir, link_target, *found)

    def _after_templates(self, path: str, is_dir: bool, as_file: bool, either: bool, hit: Hit, own_name: bool) -> Hit | None:
        """``hit``, unless a template exempts the file from its category; then the
        next category's pattern, if any. A template exempts a file from its own
        category by the file's own name, so ``.env.example/.env``,
        ``.aws/.env.example`` and a folder named ``example.env`` stay guarded. (Each
        round takes a category out; only the few categories with templates can, so
        this loops a handful of times at most.)"""
        excluded = frozenset[str]()
        while True:
            if not (own_name and as_file and self._is_template(hit.category, path)):
                return hit
            excluded |= {hit.category}
            if excluded not in self._without:
                self._without[excluded] = self._pattern_set([h for h in self._patterns if h.category not in excluded])
            found = self._without[excluded].first_at(path, is_dir, either)
            if found is None:
                return None
            hit, own_name = found


    def _is_template(self, category: str, path: str) -> bool:
        templates, by_place = self._templates.get(category), self._path_templates.get(category)
        return (templates is not None and templates.first(path.rpartition("/")[2]) is not None) or (by_place is not None and by_place.first(path) is not None)


_WINDOWS_DROPS = (".", " ")


def windows_name(path: str) -> str:
    """``path`` as Windows opens it: each segment without the dots and spaces that end
    it (a segment of nothing else is kept: ``..`` stays)."""
    return "/".join(part.rstrip(". ") or part for part in path.split("/"))


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


_DRIVE = re.compile(r"[A-Za-z]:")


def link_targets(link: str, target: str) -> list[str]:
    """What a symlink's target may name: as a POSIX path, and, when it holds a
    backslash or starts with a drive letter, as Windows reads it
    (``C:\\Users\\me\\.aws\\credentials`` is ``/Users/me/.aws/credentials``)."""
    found = [link_target(link, target)]
    if "\\" in target or _DRIVE.match(target):
        windows = target.replace("\\", "/")
        if _DRIVE.match(windows):
            windows = windows[2:]  # C:/x is /x; a drive-relative C:x is x
        found.append(link_target(link, windows))
    return list(dict.fromkeys(p for p in found if p))


class _Touch(NamedTuple):
    rule: Rule
    path: str
    hit: Hit
    what: str  # "added", "symlink added pointing to X", …
    where: str  # "1f3a9c2", "merge 1f3a9c2 (on feature)"; "" for staged changes


def commit_label(commit: str, merge: bool = False, ref: str = "") -> str:
    """A commit as findings name it: ``1f3a9c2``, ``merge 1f3a9c2 (on feature)``; ""
    for the staged changes, which have no commit yet."""
    if not commit:
        return ""
    label = f"merge {commit[:7]}" if merge else commit[:7]
    return f"{label} (on {ref})" if ref else label


def where(change: Change) -> str:
    if change.net:
        return net_label(change.commit)
    return commit_label(change.commit, change.merge, change.ref)


def net_label(head: str) -> str:
    """How findings name a range's net change that no commit of it shows: a merge
    took the path from history outside the range (a parent the range does not hold)."""
    return f"the range's result {head[:7]} (a merge brought it from history outside the range)"


def _touches(change: Change, guard: Guard) -> Iterable[_Touch]:
    for path, what in describe(change):
        hit = guard.hit(path, change.is_directory)
        if hit is not None:
            yield _Touch(GRD001, path, hit, what, where(change))
    # A link is judged by its target whatever its own name; only the config's own
    # allowance of the link's path (not a template) lets it through.
    if change.is_symlink and change.target is not None and guard.allowed.first(change.path) is None:
        for resolved in link_targets(change.path, change.target):
            hit = guard.hit(resolved, is_dir=True, link_target=True)
            if hit is not None:
                shown_target = shown(change.target)
                at = shown_target if resolved == change.target else f"{shown_target} ({shown(resolved)})"
                verb = "added" if change.status == "A" or absent(change.old_mode) else "changed"
                yield _Touch(GRD002, change.path, hit, f"symlink {verb} pointing to {at}", where(change))
                break


def touches_guarded(change: Change, guard: Guard) -> bool:
    return any(True for _ in _touches(change, guard))


def symlink_blobs(changes: Iterable[Change]) -> set[str]:
    """The blobs holding the targets of the symlinks the changes leave behind."""
    return {c.new_blob for c in changes if c.is_symlink and c.status != "D"}


def _what(touches: Sequence[_Touch]) -> str:
    parts = [f"{t.what} in {t.where}" if t.where else t.what for t in touches[:_SHOWN_CHANGES]]
    if len(touches) > _SHOWN_CHANGES:
        parts.append(f"and in {len(touches) - _SHOWN_CHANGES} more commits")
    return ", ".join(dict.fromkeys(parts))


def findings(changes: Iterable[Change], guard: Guard) -> list[Problem]:
    """One finding per rule and path, naming every way the changes touched it.

    A symlink is judged by its ``target``, where the change carries one.
    """
    grouped: dict[tuple[Rule, str], list[_Touch]] = {}
    for change in changes:
        for touch in _touches(change, guard):
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


def enabled_codes(config: Config) -> set[str]:
    """GRD rules left on. A ``select`` naming no GRD rule is a lint selection: it must
    not silently switch the gate off, so only ``ignore`` applies then."""
    if not any(code.startswith(s) or s == "ALL" for s in config.select for code in GUARD_CODES):
        config = dataclasses.replace(config, select=())
    return selected(GUARD_CODES, config)


class Policy(NamedTuple):
    """What of a config decides what gets through the guard."""

    disabled: frozenset[str]  # categories turned off
    patterns: frozenset[str]  # guarded patterns the config adds
    allowed: frozenset[str]  # allowances, and negated patterns, without their "!"
    case_sensitive: bool
    enabled: frozenset[str]  # GRD rules left on
    path_ignores: frozenset[tuple[str, str]]  # (path pattern, GRD code) pairs ignored


def policy(config: Config) -> Policy:
    guard = config.guard
    path_ignores = {
        (pattern, code)
        for pattern, selectors in config.per_path_ignores
        for code in GUARD_CODES
        if any(s == "ALL" or code.startswith(s) for s in selectors)
    }
    return Policy(
        disabled=frozenset(guard.disable),
        patterns=frozenset(p for p in guard.patterns if not p.startswith("!")),
        allowed=frozenset([*(p.removeprefix("!") for p in guard.allow), *(p[1:] for p in guard.patterns if p.startswith("!"))]),
        case_sensitive=guard.case_sensitive,
        enabled=frozenset(enabled_codes(config)),
        path_ignores=frozenset(path_ignores),
    )


def strictest(configs: Sequence[Config]) -> Config:
    """Settings that let through only what every one of ``configs`` lets through:
    a category is on if any has it on, patterns are all of theirs, a path is allowed
    only if every one allows it (by the same line), a ``GRD`` rule is on if any has
    it on, a per-path ignore holds only if every one has it, and matching is
    case-sensitive only if every one says so. Used where several commits have an
    equal claim to judge a change (a push: the remote's copy of the branch and its
    default branch), so that none of them can be the lax one a change picks.
    Everything else is the first config's."""
    first = configs[0]
    if len(configs) == 1:
        return first
    policies = [policy(c) for c in configs]
    disabled = frozenset.intersection(*(p.disabled for p in policies))
    allowed = frozenset.intersection(*(p.allowed for p in policies))
    enabled = frozenset.union(*(p.enabled for p in policies))
    path_ignores = frozenset.intersection(*(p.path_ignores for p in policies))
    # Patterns in the order the configs give them, so the first config's name a hit first.
    patterns = dict.fromkeys(p for c in configs for p in c.guard.patterns if not p.startswith("!"))
    guard = GuardConfig(
        disable=tuple(c for c in dict.fromkeys(n for cfg in configs for n in cfg.guard.disable) if c in disabled),
        patterns=tuple(patterns),
        allow=tuple(sorted(allowed)),
        case_sensitive=all(p.case_sensitive for p in policies),
    )
    # GRD rules on by name (select), or none of them (ignore); path ignores as pairs.
    select = tuple(sorted(enabled)) if enabled else ()
    ignore = () if enabled else GUARD_CODES
    return dataclasses.replace(
        first,
        guard=guard,
        select=select,
        ignore=ignore,
        per_path_ignores=tuple((pattern, (code,)) for pattern, code in sorted(path_ignores)),
    )


def loosenings(before: Policy, after: Policy) -> list[str]:
    """What ``after`` lets through that ``before`` did not, one phrase each (set
    differences: linear in the sizes of the two configs)."""
    found = [f"allows {p}" for p in sorted(after.allowed - before.allowed)]
    found += [f"drops pattern {p}" for p in sorted(before.patterns - after.patterns)]
    found += [f"disables category {c}" for c in sorted(after.disabled - before.disabled)]
    if after.case_sensitive and not before.case_sensitive:
        found.append("matches case-sensitively")
    off = sorted(before.enabled - after.enabled)
    if off:
        found.append(f"turns {', '.join(off)} off")
    ignored: dict[str, list[str]] = {}
    for pattern, code in sorted(after.path_ignores - before.path_ignores):
        ignored.setdefault(pattern, []).append(code)
    found += [f"ignores {', '.join(codes)} under {pattern}" for pattern, codes in ignored.items()]
    return found


def loosened(path: str, changes: Sequence[tuple[str, Sequence[str]]]) -> Problem:
    """The finding for a config file whose changes loosen the guard: ``changes`` are
    (where, what each loosens) in commit order, ``where`` as ``commit_label`` gives it."""
    commits = [w for w, _ in changes if w]
    what = list(dict.fromkeys(item for _, items in changes for item in items))
    at = ""
    if commits:
        shown_commits = ", ".join(commits[:_SHOWN_CHANGES])
        more = f" and {len(commits) - _SHOWN_CHANGES} more" if len(commits) > _SHOWN_CHANGES else ""
        at = f" in {shown_commits}{more}"
    return GRD003.at(
        path, 1, 1,
        f"loosens the guard{at}: {', '.join(what)}; a change is judged by the settings before it, "
        "so land this on its own and have it reviewed",
    )


class Listed(NamedTuple):
    """A guarded path of the tree, for ``--list``."""

    path: str
    pattern: str
    target: str | None = None  # a symlink guarded for what it points at: its target


def guarded_tree(paths: Iterable[str], guard: Guard, links: Mapping[str, str] | None = None) -> dict[str, list[Listed]]:
    """Category -> every guarded path, in category order. ``links``: the tracked
    symlinks' targets; a link is guarded by its own name or by what it points at."""
    links = links or {}
    found: dict[str, list[Listed]] = {}
    for path in paths:
        change = Change("", path, new_mode=SYMLINK_MODE, target=links[path]) if path in links else Change("", path)
        touch = next(iter(_touches(change, guard)), None)
        if touch is not None:
            target = change.target if touch.rule is GRD002 else None
            found.setdefault(touch.hit.category, []).append(Listed(path, touch.hit.pattern, target))
    order = [*categories(), CONFIG_CATEGORY]
    return {name: sorted(found[name]) for name in order if name in found}
