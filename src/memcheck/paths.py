"""Repository-relative POSIX paths ("" for the root): how memcheck names files everywhere.

The one set of path helpers: a folder is `parent(path)`, a file name `basename(path)`,
never a `rpartition("/")` written out again."""

from __future__ import annotations

import posixpath
import re
from typing import Callable, Iterable, Iterator, Mapping, TypeVar

from memcheck import lazy_regex

T = TypeVar("T")


def join(folder: str, name: str) -> str:
    return f"{folder}/{name}" if folder else name


def parent(path: str) -> str:
    return path.rpartition("/")[0]


def basename(path: str) -> str:
    return path.rpartition("/")[2]


def ancestors(folder: str) -> Iterator[str]:
    """``folder`` and every folder above it, up to and including the root ("")."""
    while folder:
        yield folder
        folder = parent(folder)
    yield ""


def folders_of(paths: Iterable[str]) -> frozenset[str]:
    """Every folder that holds one of ``paths``, at any depth, the root ("") included:
    each folder is walked up from once, however many files it holds."""
    found = {""}
    for path in paths:
        folder = parent(path)
        while folder and folder not in found:
            found.add(folder)
            folder = parent(folder)
    return frozenset(found)


def normal(path: str) -> str | None:
    """A path relative to the root, normalised; None for one outside it."""
    norm = posixpath.normpath(path) if path else "."
    if norm == ".":
        return ""
    if norm.startswith(("../", "/")) or norm == "..":
        return None
    return norm


def split(path: str) -> tuple[str, str]:
    """``(parent(path), basename(path))``, in one pass."""
    folder, _, name = path.rpartition("/")
    return folder, name


# Unicode's Default_Ignorable_Code_Point (DerivedCoreProperties.txt, Unicode 15.1):
# characters that draw nothing, the bidi controls and the zero-width ones among them.
# macOS's older file system (HFS+) leaves some out when it compares names, so
# ``.e<U+200C>nv`` opens ``.env`` there, and a terminal shows ``<U+200B>.env`` as
# ``.env``. (unicodedata has no such property: the ranges are copied from the file.)
IGNORABLE = lazy_regex.compile(
    "[\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f\u202a-\u202e\u2060-\u206f"
    "\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff0-\ufff8\U0001bca0-\U0001bca3\U0001d173-\U0001d17a\U000e0000-\U000e0fff]"
)


def has_ignorable(text: str) -> bool:
    """Whether ``text`` holds a character that draws nothing (``IGNORABLE``)."""
    return not text.isascii() and IGNORABLE.search(text) is not None


def without_ignorables(path: str) -> str:
    """``path`` without the characters that draw nothing: the name as a reader sees
    it, and as macOS's older file system opens it."""
    return path if path.isascii() else IGNORABLE.sub("", path)


# What a file name must not hold: whitespace; what Windows refuses (`<>:"|?*\`, control
# characters); what a Markdown link target reads specially (`()[]#%` and backquotes);
# bytes that are not UTF-8 (read as lone surrogates), which macOS refuses.
_NOT_IN_NAME = lazy_regex.compile(r'[\s<>:"|?*\\()\[\]#%`' + "\x00-\x1f\x7f\ud800-\udfff]")
_NOT_ON_WINDOWS = lazy_regex.compile(r'[<>:"|?*\\\x00-\x1f\x7f]')


def name_trouble(name: str) -> str | None:
    """Why a file name breaks links to it or checkouts of it, in a message's words
    ("a space, which breaks unescaped Markdown links to it"); None when it does neither."""
    m = _NOT_IN_NAME.search(name)
    if m is None:
        return None
    ch = m.group()
    if _NOT_ON_WINDOWS.match(ch):
        return f"{ch!r}, which Windows does not allow in a file name"
    if ch.isspace():
        return "a space, which breaks unescaped Markdown links to it"
    if "\ud800" <= ch <= "\udfff":
        return "bytes that are not UTF-8, which macOS does not allow in a file name"
    return f"{ch!r}, which Markdown link targets read specially"


def safe_name(name: str) -> str:
    """``name`` (a ``*.md`` file's) with each run of what ``name_trouble`` objects to
    as one `-`."""
    stem = re.sub("-+", "-", _NOT_IN_NAME.sub("-", name[:-3])).strip("-")
    return f"{stem or 'memory'}.md"


def down_from_root(folders: Iterable[str], own: Callable[[str], T], combine: Callable[[T, T], T]) -> dict[str, T]:
    """For each of ``folders`` (and the folders above them): ``combine`` of what each
    folder from the root down holds (``own``). Each folder is worked out once, from its
    parent's value, so a tree thousands of folders deep costs its number of folders,
    not that number times its depth (building each folder's chain of names would)."""
    known: dict[str, T] = {"": own("")}
    for folder in folders:
        missing = []
        while folder not in known:
            missing.append(folder)
            folder = parent(folder)
        for below in reversed(missing):
            known[below] = combine(known[folder], own(below))
            folder = below
    return known


_MAX_HOPS = 40  # as the kernel's own limit on links followed in one lookup (ELOOP)


def through_links(path: str, read_link: Callable[[str], str | None]) -> str:
    """``path`` (from the root, or absolute) with every symlink of the tree along it
    replaced by what it names, as open() follows them, each target read through the
    tree's other links (``c -> e/shadow`` with ``e -> /etc`` is ``/etc/shadow``).
    ``read_link`` gives what the link at a path from the root names, None where there
    is none. The result is from the root, climbs out of it (``../x``), or is absolute;
    the walk stops where the path leaves the tree."""
    absolute = path.startswith("/")
    parts = [p for p in path.split("/") if p not in ("", ".")]
    hops = at = 0
    while not absolute and at < len(parts) and hops < _MAX_HOPS:
        if parts[at] == "..":
            if at == 0:
                break  # out of the tree: no more of its links to read
            del parts[at - 1 : at + 1]
            at -= 1
            continue
        prefix = "/".join(parts[: at + 1])
        target = read_link(prefix)
        if target is None:
            at += 1
            continue
        hops += 1
        base = "/".join(parts[:at])
        joined = target if target.startswith("/") or not base else f"{base}/{target}"
        absolute = joined.startswith("/")
        parts = [p for p in joined.split("/") if p not in ("", ".")] + parts[at + 1 :]
        at = 0
    shown = posixpath.normpath(("/" if absolute else "") + "/".join(parts)) if parts else ("/" if absolute else ".")
    return shown


def links_to(paths: Iterable[str], links: Mapping[str, str]) -> list[str]:
    """The symlinks of ``links`` (each tracked link, from the root, with what it names)
    that lead to one of ``paths`` (from the root), read through the tree's other links:
    an agent opening the link reads the file it names, so a change to that file is a
    change to what the link holds."""
    wanted = set(paths)
    return sorted(link for link in links if link not in wanted and through_links(link, links.get) in wanted)
