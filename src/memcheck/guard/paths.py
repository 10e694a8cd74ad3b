"""Which path the guard stops, and by which pattern.

A ``Guard`` holds the enabled categories' patterns, the config's own, and what the
config allows; ``Guard.hit`` names the pattern that guards a path. Patterns are
gitignore lines matched against repository-relative POSIX paths after Unicode NFC
normalisation, case-insensitively unless ``guard.case-sensitive`` is set (the matching
itself is text/first_match.py's ``FirstMatch``). A path the config allows
(``guard.allow``, with or without a leading ``!``) is never guarded, whichever pattern
matches it. A category's templates (``.env.example``) exempt a file from that category
by the file's own name: never a folder's contents, never another category.
"""

from __future__ import annotations

import functools
import os
import posixpath
from typing import Container, Iterable, Mapping, Sequence

from memcheck import lazy_regex
from memcheck.changes import TAGGED_BLOB, TRACKED, Change
from memcheck.config import ConfigError, GuardConfig
from memcheck.guard.categories import CONFIG_CATEGORY, categories, source_extensions, translations
from memcheck.guard.tiers import tiers
from memcheck.paths import ancestors, basename, has_ignorable, parent, without_ignorables
from memcheck.problem import shown
from memcheck.records import NamedTuple
from memcheck.text import first_match


class Hit(NamedTuple):
    category: str
    pattern: str


class PatternSet:
    """Guard patterns, each with its category: which comes first to match a path.

    ``files``: the hits whose pattern names a file, never a folder above it, and never
    a file with one of the ``spared`` extensions (source code and documentation).
    ``lines``: the gitignore lines matched, when they are not the hits' own patterns.
    """

    def __init__(
        self,
        hits: Sequence[Hit],
        case_sensitive: bool = False,
        shipped: Iterable[str] = (),
        files: frozenset[Hit] = frozenset(),
        spared: frozenset[str] = frozenset(),
        lines: Sequence[str] | None = None,
    ) -> None:
        """``shipped``: categories whose patterns come with memcheck and are known to
        compile; any other pattern (the config's) is compiled at once, so a bad one is
        reported before anything is judged."""
        self.hits = tuple(hits)
        shipped = frozenset(shipped)
        try:
            self._lines = first_match.FirstMatch(
                list(lines) if lines is not None else [hit.pattern for hit in self.hits],
                case_sensitive,
                at_once=[i for i, hit in enumerate(self.hits) if hit.category not in shipped],
                files=[i for i, hit in enumerate(self.hits) if hit in files],
                spared=spared,
                translations=translations(),
            )
        except first_match.BadLine as e:  # the config's: a trailing backslash, ...
            bad = self.hits[e.index].pattern
            if e.unreadable:
                raise ConfigError(f"guard pattern {bad!r} is not a gitignore line git can read: {e}") from None
            raise ConfigError(f"guard: invalid pattern {bad!r}: {e}") from None

    def first(self, path: str, is_dir: bool = False) -> Hit | None:
        """The first pattern that matches a repository-relative path, if any."""
        index = self._lines.first(path, is_dir)
        return self.hits[index] if index is not None else None

    def none_match(self, paths: Iterable[str]) -> set[str]:
        """Of these paths (files), some that no pattern matches, found at once (see
        ``FirstMatch.none_match``)."""
        return self._lines.none_match(paths)

    def first_at(self, path: str, is_dir: bool = False, either: bool = False) -> tuple[Hit, bool] | None:
        """The first pattern that matches, and whether it matched the path's own name
        (its last segment) rather than a folder above it or the whole path.
        ``either``: the path may be a folder or a file (what a symlink points at)."""
        found = self._lines.first_at(path, is_dir, either)
        return (self.hits[found[0]], found[1]) if found is not None else None


@functools.lru_cache(maxsize=8)
def guard_for(config: GuardConfig, only: tuple[str, ...] | None = None) -> Guard:
    """``Guard(config, only)``, built once for the same settings in a process. A Guard
    depends on its settings alone and keeps nothing but what it has worked out from
    them (its patterns compiled, paths judged), so a process that judges again and
    again (the language server at each edit, the test suite) need not compile the
    shipped patterns again each time: 3 ms a Guard, one to three a run. Settings a
    Guard cannot take raise ``ConfigError`` each time (nothing is kept of a failure)."""
    return Guard(config, only)


class Guard:
    """The enabled categories, the config's own patterns, and what is allowed.
    ``only``: the tiers whose categories it guards (guard/tiers.py); None for all."""

    def __init__(self, config: GuardConfig, only: Container[str] | None = None) -> None:
        known = categories()
        unknown = [name for name in config.disable if name not in known]
        if unknown:
            raise ConfigError(
                f"guard.disable: unknown categor{'y' if len(unknown) == 1 else 'ies'} {', '.join(unknown)} (known: {', '.join(known)})"
            )
        tier = tiers(config)
        enabled = [c for c in known.values() if c.name not in config.disable and (only is None or tier[c.name] in only)]
        hits = [Hit(c.name, p) for c in enabled for p in (*c.patterns, *c.files)]
        allow = [Hit("allow", p.removeprefix("!")) for p in config.allow]
        for pattern in config.patterns:
            if pattern.startswith("!"):  # a negated guard pattern allows, as in .gitignore
                allow.append(Hit("allow", pattern[1:]))
            elif only is None or tier[CONFIG_CATEGORY] in only:
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
        self._templates = {
            c.name: PatternSet([Hit(c.name, p) for p in c.allow if "/" not in p], config.case_sensitive, shipped=known)
            for c in enabled
            if c.allow
        }
        self._path_templates = {
            c.name: PatternSet([Hit(c.name, p) for p in c.allow if "/" in p], config.case_sensitive, shipped=known)
            for c in enabled
            if any("/" in p for p in c.allow)
        }
        self._without: dict[frozenset[str], PatternSet] = {}
        self._hits: dict[tuple[str, bool, bool], Hit | None] = {}
        self._folder_lines = [(hit, folder) for hit in hits if (folder := _holding_folder(hit.pattern)) is not None]
        self._folders: PatternSet | None = None
        self._one_folder: dict[str, PatternSet] = {}

    def folder_hit(self, path: str) -> Hit | None:
        """The pattern that guards a file directly inside ``path`` taken as a folder
        (``.vscode`` for ``**/.vscode/settings.json``): what a symlink or a submodule
        named ``path`` puts at guarded paths in every checkout, whatever it holds.
        Judged with ``hit(path, is_dir=True)`` for the patterns that guard the folder
        itself (``.ssh/``)."""
        if not self._folder_lines:
            return None
        if self._folders is None:
            found = self._folder_lines
            self._folders = PatternSet([h for h, _ in found], self._case_sensitive, shipped=self._shipped, lines=[f for _, f in found])
        hit = self._folders.first(path, is_dir=True)
        if hit is None and has_ignorable(path):
            hit = self._folders.first(without_ignorables(path), is_dir=True)
        if hit is not None and self.allowed.first(path, True) is not None:
            return None
        return hit

    def holding_folder_hit(self, path: str) -> Hit | None:
        """The pattern that guards a file directly inside ``path``, where ``path`` is
        the very folder its line names (``home/a/.config/gh`` for
        ``**/.config/gh/hosts.yml``), not a folder below it (``home/a/projects`` is
        below ``/home/*/``, the folder of ``/home/*/.npmrc``): what a symlink to a
        folder outside the repository opens. Each line is asked alone, with the folder
        above ``path``: a symlink's target is asked a few times a run at most."""
        above = parent(path)
        for hit, folder in self._folder_lines:
            one = self._one_folder.get(folder)
            if one is None:
                one = self._one_folder[folder] = PatternSet([hit], self._case_sensitive, shipped=self._shipped, lines=[folder])
            if one.first(path, is_dir=True) is not None and not (above and one.first(above, is_dir=True) is not None):
                return None if self.allowed.first(path, True) is not None else hit
        return None

    def judge(self, change: Change) -> None:
        """Judge a change's paths ahead of ``findings``, which then only looks them up:
        called while git is still writing the rest of a range."""
        for path, _ in describe(change):
            self.hit(path, change.is_directory)

    def unguarded(self, paths: Sequence[str]) -> set[str]:
        """Of these paths, taken as files a change touches, some that ``hit`` finds no
        pattern for, found at once: most paths a change touches are guarded by
        nothing, and asked one by one they were most of a run's time. A name Windows
        reads another way (see ``hit``) is left out, to be asked one by one, and so is
        what ``PatternSet.none_match`` cannot tell about; so is a name with a
        character that draws nothing."""
        joined = "/".join(paths) + "/"
        if "./" in joined or " /" in joined or has_ignorable(joined) or _may_be_copy(joined):
            paths = [
                p for p in paths if not (p.endswith(_WINDOWS_DROPS) or "./" in p or " /" in p or has_ignorable(p) or _copied(p) is not None)
            ]
        return self.guarded.none_match(paths)

    def _pattern_set(self, hits: Sequence[Hit]) -> PatternSet:
        return PatternSet(hits, self._case_sensitive, shipped=self._shipped, files=self._files, spared=self._spared)

    def hit(self, path: str, is_dir: bool = False, link_target: bool = False) -> Hit | None:
        """The pattern that guards ``path``, if any. ``link_target``: the path is what a
        symlink points at, judged as a folder (a link to ``~/.ssh``) and as a file (a
        link to ``kubeconfig``; for the templates, a link to ``.env.example``).

        A name is judged as it is, as Windows reads it, without the dots and
        spaces that end a segment (``.env `` and ``x.pem.`` are ``.env`` and ``x.pem``
        there), and without the characters that draw nothing (``.e<U+200C>nv`` is
        what a reader sees as ``.env``, and what macOS's older file system opens as
        it); only the config's allowance of the name as it is lets it through."""
        key = (path, is_dir, link_target)
        if key in self._hits:  # a range names a path in several commits, and a path is asked twice
            return self._hits[key]
        hit = self._guarded(path, is_dir, link_target)
        if hit is None:
            for read_as in other_readings(path):
                hit = self._guarded(read_as, is_dir, link_target)
                if hit is not None:
                    break
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
        return (templates is not None and templates.first(basename(path)) is not None) or (
            by_place is not None and by_place.first(path) is not None
        )


_WINDOWS_DROPS = (".", " ")


def _holding_folder(pattern: str) -> str | None:
    """The folder line of a path-shaped pattern: the folder that holds what it names
    (``**/.vscode/`` for ``**/.vscode/settings.json``, ``/run/secrets/`` for
    ``/run/secrets/**``). None for a one-segment pattern, for a folder pattern
    (``/run/secrets/``: a link of that name is judged as the folder itself, and one
    named ``run`` holds a ``secrets`` folder only if its target does), and where the
    folder is only wildcards (``**/x``: any folder at all)."""
    if pattern.startswith("!") or pattern.endswith("/") or "/" not in pattern.lstrip("/"):
        return None
    folder = pattern[:-3] if pattern.endswith("/**") else pattern.rsplit("/", 1)[0]
    if not folder.strip("/*"):
        return None
    if "/" not in folder.lstrip("/") and not folder.startswith(("/", "**/")):
        folder = "/" + folder  # a line with a slash is anchored at the root, as its pattern was
    return folder + "/"


# What editors, tools and people make of a file's name when they keep a copy of it, in
# any case (`key.pem.bak`, `.netrc.OLD`, `id_rsa.orig`, Emacs's and Vim's `NAME~`, GNU
# numbered backups `NAME.~1~`, `NAME.1`, `NAME-old`, `NAME (1)`, the copies dpkg, rpm
# and patch leave): the copy holds what the file holds. Suffixes stack (`.netrc.bak~`).
_COPY_SUFFIX = lazy_regex.compile(
    r"(?i)(?:~|\.~\d+~|\.(?:bak|old|orig|backup|save|bkp|tmp|prev|copy|rej|dpkg-old|dpkg-dist|rpmsave|rpmnew|kate-swp|\d{1,3})"
    r"|[-_](?:old|backup|bak)| \(\d{1,3}\))$"
)
# The names editors give the copy itself: Vim's swap files (`.NAME.swp`, `.swo`, …),
# Emacs's auto-save files (`#NAME#`), and a file manager's `Copy of NAME`.
_COPY_NAME = lazy_regex.compile(r"(?i)^(?:\.(?P<swap>.+)\.sw[a-p]|#(?P<auto>.+)#|copy of (?P<copy>.+))$")
# Whether a list of paths joined with "/" (and ending in one), lower-cased, may hold
# such a name: plain string tests, which a commit's few paths answer in microseconds,
# where compiling a pattern for them cost a guard run more than the rest of its test.
_COPY_HINTS = (
    *(f"{suffix}/" for suffix in ("~", ")", "#", ".bak", ".old", ".orig", ".backup", ".save", ".bkp", ".tmp", ".prev", ".copy")),
    *(f"{suffix}/" for suffix in (".rej", ".dpkg-old", ".dpkg-dist", ".rpmsave", ".rpmnew", ".kate-swp", "-old", "_old", "-backup")),
    *(f"{suffix}/" for suffix in ("_backup", "-bak", "_bak")),
    *(f".{digit}/" for digit in "0123456789"),
    ".sw",
    "/copy of ",
)


def _may_be_copy(joined: str) -> bool:
    lowered = "/" + joined.lower()
    return any(hint in lowered for hint in _COPY_HINTS)


def other_readings(path: str) -> list[str]:
    """The other names ``path`` is read as: without the characters that draw nothing,
    as Windows reads it (see ``windows_name``), and, for a backup copy's name, the
    file it copies; most paths have none."""
    found = []
    bare = without_ignorables(path)
    if bare != path:
        found.append(bare)
    for name in (path, bare):
        if name.endswith(_WINDOWS_DROPS) or "./" in name or " /" in name:
            read_as = windows_name(name)
            if read_as != name and read_as not in found:
                found.append(read_as)
    for name in list(found) or [path]:
        copied = _copied(name)
        if copied is not None and copied not in found:
            found.append(copied)
    return found


def _copied(name: str) -> str | None:
    """The name a backup copy's name copies (``key.pem`` for ``key.pem.bak``,
    ``.netrc`` for ``..netrc.swp``); None for another name, or one that is only the
    suffix (``.bak``, ``~``)."""
    folder, slash, base = name.rpartition("/")
    start = base
    for _ in range(4):  # suffixes stack: `.netrc.bak~`, `key.pem.orig.1`
        whole = _COPY_NAME.match(base)
        if whole is not None:
            base = whole.group("swap") or whole.group("auto") or whole.group("copy")
            continue
        suffix = _COPY_SUFFIX.search(base)
        if suffix is None or suffix.start() == 0:
            break
        base = base[: suffix.start()]
    return folder + slash + base if base != start else None


def windows_name(path: str) -> str:
    """``path`` as Windows opens it: each segment without the dots and spaces that end
    it (a segment of nothing else is kept: ``..`` stays)."""
    return "/".join(part.rstrip(". ") or part for part in path.split("/"))


def _mode_name(mode: str) -> str:
    return {"120000": "symlink", "160000": "submodule", "100755": "executable file"}.get(mode, "file")


def describe(change: Change) -> list[tuple[str, str]]:
    """(path, what happened to it) for each side of a change."""
    if change.via:
        return [(path, f"{what} (through the symlink {shown(change.via)})") for path, what in describe(change._replace(via=""))]
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
    if status == TAGGED_BLOB:
        return [(path, f"a tag on a file's content (tag {shown(path)})")]
    return [(path, "listed" if status in ("", TRACKED) else "changed")]


def link_target(link: str, target: str) -> str:
    """A symlink's target as a repository-relative path; what leaves the repository
    keeps its own segments (``../../.ssh/id_rsa`` is judged as ``.ssh/id_rsa``)."""
    if target.startswith("/"):
        resolved = posixpath.normpath(target)
    else:
        resolved = posixpath.normpath(posixpath.join(posixpath.dirname(link), target))
    parts = [p for p in resolved.split("/") if p not in ("", ".", "..")]
    return "/".join(parts)


_DRIVE = lazy_regex.compile(r"[A-Za-z]:")


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
    return list(dict.fromkeys(p for p in _through_proc(found) if p))


# Whole places where secrets are kept, which a link names as a folder: the file
# system's root, a home folder or the folder of every home folder, the system's
# settings (/etc: shadow, SSH host keys, cluster credentials), a folder above the
# repository (each holds every secret the guard knows by name), a process's folder
# (its environ, its root).
WHOLE_PLACES = "secret-folders"
# In any case: macOS opens /USERS/alice as /Users/alice, as the guard matches names
# ("a .ENV is a .env on macOS"). WSL reaches the Windows home folders at /mnt/c/Users.
_HOMES = r"/(?:home|Users|mnt/[a-z]/Users)"
_HOME_FOLDER = lazy_regex.compile(rf"(?i){_HOMES}(?:/[^/]+)?|/root|/var/root|/private/var/root")
_SETTINGS_FOLDER = lazy_regex.compile(r"(?i)/(?:private/)?etc")
_PROCESS_FOLDER = lazy_regex.compile(r"/proc/[^/]+(?:/task/[^/]+)?(?:/(?:root|cwd))?")
# A home folder's stores of logins that no file pattern names, each a folder of many
# files: ~/.config (gh, gcloud, hub, Copilot's logins, …), ~/.claude (Claude Code's
# .credentials.json on Linux), pass's password store, the GNOME keyrings, the macOS
# keychains, and the browsers' profiles (saved passwords, cookies).
_HOME_STORE = lazy_regex.compile(
    rf"(?i)(?:{_HOMES}/[^/]+|/root|/var/root)/(?:\.config|\.claude|\.password-store|\.local/share/keyrings|Library/Keychains|\.mozilla"
    r"|\.config/(?:google-chrome|chromium)|Library/Application Support/(?:Google/Chrome|Firefox))"
)


def whole_place(path: str, root: str = "") -> Hit | None:
    """The whole place a symlink to ``path`` (absolute, or from the root) opens, if it
    is one where secrets are kept: what GRD002 reports by the target's kind, since no
    pattern names the folder itself. ``root``: the repository's own path, so that a
    folder above it spelt as an absolute path (``/work``, the parent of a checkout on a
    runner) is one too, as ``..`` is."""
    if path == "/":
        return Hit(WHOLE_PLACES, "/ (the whole file system)")
    if path == ".." or (path.startswith("../") and all(p == ".." for p in path.split("/"))):
        return Hit(WHOLE_PLACES, "a folder above the repository")
    bare = path.rstrip("/")
    if root and bare.startswith("/") and any(top.startswith(bare + "/") and top != bare + "/" for top in _spellings(root)):
        return Hit(WHOLE_PLACES, "a folder above the repository")
    if _HOME_FOLDER.fullmatch(bare):
        return Hit(WHOLE_PLACES, "a home folder")
    if _HOME_STORE.fullmatch(bare):
        return Hit(WHOLE_PLACES, "a home folder's store of logins")
    if _SETTINGS_FOLDER.fullmatch(bare):
        return Hit(WHOLE_PLACES, "/etc (the system's settings and keys)")
    if _PROCESS_FOLDER.fullmatch(bare):
        return Hit(WHOLE_PLACES, "/proc/* (a process's environment and files)")
    return None


def _spellings(root: str) -> set[str]:
    """The repository's path as given and as the file system resolves it (``/tmp`` is
    ``/private/tmp`` on macOS), each ending in a slash."""
    return {posixpath.normpath(top) + "/" for top in (root, os.path.realpath(root))}


def leaves_repository(link: str, target: str) -> bool:
    """Whether a symlink's target is outside the repository: absolute (as POSIX or
    Windows reads it), or climbing above the root."""
    if target.startswith(("/", "\\")) or _DRIVE.match(target):
        return True
    return posixpath.normpath(posixpath.join(posixpath.dirname(link), target.replace("\\", "/"))).startswith("../")


# A process's view of the whole file system (/proc/self/root/etc/shadow is /etc/shadow)
# and of its threads (/proc/1/task/1/environ is /proc/1/environ).
_PROC_ROOT = lazy_regex.compile(r"proc/[^/]+/root/(.*)")
_PROC_TASK = lazy_regex.compile(r"(proc/[^/]+/)task/[^/]+/(.*)")


def _through_proc(paths: Sequence[str]) -> list[str]:
    found = list(paths)
    for path in found:  # grows while a path names another (a root in a root)
        for pattern, shorter in ((_PROC_ROOT, r"\1"), (_PROC_TASK, r"\1\2")):
            if pattern.fullmatch(path) and len(found) < 64:
                found.append(pattern.sub(shorter, path))
    return found


def through_links(changes: Sequence[Change], links: Mapping[str, str]) -> list[Change]:
    """The changes again, as seen through the tracked symlinks to folders and files of
    the repository (``links``: path -> target as the link holds it): with ``.vscode ->
    tools/vscode`` tracked, a change to ``tools/vscode/tasks.json`` is one to
    ``.vscode/tasks.json`` in every checkout, and with ``.mcp.json -> tools/mcp.json``
    a change to ``tools/mcp.json`` is one to ``.mcp.json``. A link out of the repository is
    judged by its target (GRD002), its content unknown here.

    The links are filed by the folder they point at, and each changed path looks
    up its own folders: linear in the changes times their depth, however many
    links the tree holds."""
    by_folder: dict[str, list[str]] = {}  # folder ("" for the root) -> the links to it
    for link, target in links.items():
        if target.startswith("/") or "\\" in target:
            continue
        folder = posixpath.normpath(posixpath.join(posixpath.dirname(link), target))
        if folder != ".." and not folder.startswith("../"):
            by_folder.setdefault("" if folder == "." else folder, []).append(link)
    if not by_folder:
        return []
    seen = []
    for change in changes:
        # A link to the file itself (``.pre-commit-config.yaml -> tools/t``): an edit of
        # tools/t is one of the file every checkout reads at the link's path.
        for link in by_folder.get(change.path, ()):
            if link != change.path:
                seen.append(
                    change._replace(path=link, source=link if change.source == change.path else change.source, via=link, real=change.path)
                )
        for folder in sorted({f for path in (change.path, change.source) if path for f in ancestors(parent(path))}):
            for link in by_folder.get(folder, ()):
                if change.path == link or change.path.startswith(link + "/"):
                    continue  # the link itself (``.vscode -> .``), not a file through it
                seen.append(
                    change._replace(
                        path=_through(change.path, folder, link), source=_through(change.source, folder, link), via=link, real=change.path
                    )
                )
    return seen


def _through(path: str, folder: str, link: str) -> str:
    """``path`` as seen through ``link`` to ``folder``, when it is inside it."""
    if not path or (folder and not path.startswith(folder + "/")):
        return path
    return f"{link}/{path[len(folder) + 1 :] if folder else path}"
