"""What a repository's refs and trees hold beyond the changes git.py reads: its
remotes and their default branches, tags on trees and blobs, a tree's files, the
tracked symlinks and submodules, and the files at given paths of commits (guard's
settings). Every call goes through git.py's process runner."""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path
from typing import Iterable, Sequence

from memcheck.changes import GITLINK_MODE, NO_MODE, Change
from memcheck.git import GitError, attempt, decode_name, fs_names, head_commit_question, output, plain, read_blobs, start
from memcheck.listing import FS_UTF8
from memcheck.records import NamedTuple


def remote_names(root: Path) -> list[str]:
    """The configured remotes' names."""
    return [decode_name(name) for name in output(root, ["remote"]).splitlines() if name]


def remote_default(root: Path, remote: str) -> tuple[str, str] | None:
    """A remote's default branch as last fetched, ``origin/HEAD`` (a clone sets it),
    else ``main`` or ``master``: its name (``origin/main``) and commit. One call."""
    names = [f"refs/remotes/{remote}/{name}" for name in ("HEAD", "main", "master")]
    fmt = "%(refname) %(symref) %(objecttype) %(objectname) %(*objecttype) %(*objectname)"
    found: dict[str, tuple[str, str]] = {}
    for line in decode_name(output(root, ["for-each-ref", f"--format={fmt}", *names])).splitlines():
        ref, symref, kind, sha, peeled_kind, peeled = line.split(" ")  # a ref name holds no space
        if kind == "commit" or peeled_kind == "commit":
            found[ref] = ((symref or ref).removeprefix("refs/remotes/"), sha if kind == "commit" else peeled)
    return next((found[name] for name in names if name in found), None)


def content_tags(root: Path) -> list[tuple[str, str, str]]:
    """The local tags on a tree or a blob, however deeply tagged: (name, "tree" or
    "blob", the object). Tags on commits are not listed: ``git log`` walks them."""
    fmt = "%(objecttype) %(objectname) %(*objecttype) %(*objectname) %(refname)"
    tags: list[tuple[str, str, str]] = []
    nested: list[tuple[str, str, str]] = []
    for line in decode_name(output(root, ["for-each-ref", f"--format={fmt}", "refs/tags/"])).splitlines():
        kind, sha, peeled_kind, peeled, ref = line.split(" ", 4)
        name = ref.removeprefix("refs/tags/")
        kind, sha = (peeled_kind, peeled) if kind == "tag" else (kind, sha)
        (nested if kind == "tag" else tags).append((name, kind, sha))
    if nested:  # a tag of a tag: peeled all the way
        out = output(
            root, ["cat-file", "--batch-check=%(objecttype) %(objectname)"], "".join(f"{sha}^{{}}\n" for _, _, sha in nested).encode()
        )
        for (name, _, _), line in zip(nested, decode_name(out).splitlines()):
            kind, _, sha = line.partition(" ")
            tags.append((name, kind, sha))
    return [t for t in tags if t[1] in ("tree", "blob")]


def tree_files(root: Path, tree: str) -> list[Change]:
    """Every file (blob, symlink, submodule) of a tree, as added."""
    changes = []
    for entry in output(root, ["ls-tree", "-r", "-z", "--full-tree", tree]).split(b"\0"):
        meta, _, name = entry.partition(b"\t")
        if name:
            mode, _, sha = decode_name(meta).split(" ")
            changes.append(Change("A", decode_name(name), old_mode=NO_MODE, new_mode=mode, new_blob=sha))
    return changes


def remote_named(root: Path, remote: str) -> str | None:
    """The configured remote that ``remote`` names: itself when it is a remote's
    name, else the remote whose URL (or push URL) it is, as ``git push URL`` passes
    its hooks the URL where a name would be; None for a URL no remote has."""
    status, out = attempt(root, ["config", "-z", "--get-regexp", r"^remote\..*\.(url|pushurl)$"])
    urls: dict[str, str] = {}
    for entry in decode_name(out).split("\0") if status == 0 else ():
        key, _, url = entry.partition("\n")
        name = key[len("remote.") : key.rfind(".")]
        if name == remote:
            return name
        urls.setdefault(url, name)
    if remote in urls:
        return urls[remote]

    # The same folder named another way (a trailing slash, a relative path, a link).
    def folder(url: str) -> str | None:
        path = url.removeprefix("file://")
        return os.path.realpath(os.path.join(root, path)) if "://" not in path and os.path.isdir(os.path.join(root, path)) else None

    wanted = folder(remote)
    if wanted is not None:
        for url, name in urls.items():
            if folder(url) == wanted:
                return name
    return None


# An entry of ``ls-tree -r -z`` (mode type object TAB path) or ``ls-files -s -z`` (mode
# object stage TAB path) that is a symlink or a submodule: found by one scan of the
# output, not by splitting the tree's every entry.
_LINK_ENTRY = {
    True: re.compile(rb"(?:^|\0)(120000|160000) [a-z]+ ([0-9a-f]+)\t([^\0]*)"),
    False: re.compile(rb"(?:^|\0)(120000|160000) ([0-9a-f]+) \d+\t([^\0]*)"),
}


def tracked_links(root: Path, tree: str | None = None) -> tuple[dict[str, str], list[str]]:
    """Every tracked symlink with its target, and every tracked submodule, relative
    to the top of the work tree: in the index, or in ``tree`` (a commit, a tree)."""
    return TreeLinks(root, tree).read()


class TreeLinks:
    """``tracked_links`` of a tree (None: of the index), with git started when this is
    made (as ``git.TreeDiff`` is): its output is read while a range's log is read, or
    while the guard's patterns are compiled."""

    def __init__(self, root: Path, tree: str | None) -> None:
        self._root = root
        self._tree = tree
        self._output = start(
            root, ["ls-tree", "-r", "-z", "--full-tree", tree] if tree else ["ls-files", "-z", "-s", "--full-name", "--", ":/"]
        )
        self.blobs: dict[str, bytes] = {}  # what ``read`` read: the links' blobs, and those asked for

    def read(self, also: Iterable[str] = ()) -> tuple[dict[str, str], list[str]]:
        """The links and submodules; ``also``: more blobs to read at the same ``git
        cat-file`` (the targets of the symlinks a change brings), kept in ``blobs``."""
        links, submodules = {}, []
        listing = self._output.read()
        # Most trees hold no link at all: a byte search says so at memchr's speed,
        # where the pattern would try every entry (13 ms on 10,000).
        entries = _LINK_ENTRY[self._tree is not None].finditer(listing) if b"120000 " in listing or b"160000 " in listing else ()
        for match in entries:
            mode, blob, name = match.groups()
            if mode == GITLINK_MODE.encode():
                submodules.append(decode_name(name))
            else:
                links[decode_name(name)] = blob.decode()
        self.blobs = read_blobs(self._root, {*links.values(), *also})
        return {path: decode_name(self.blobs[blob]) for path, blob in links.items() if blob in self.blobs}, submodules

    def close(self) -> None:
        self._output.close()


# --- the files a commit or tree holds at given paths (guard's settings) -------------


class Stored(NamedTuple):
    """What a commit or tree holds at a path."""

    blob: str | None  # the file's blob; None: there is no such file
    problem: str = ""  # why it cannot be read, when something is there but no file
    data: bytes | None = None  # the file's content, when asked for


_LINK_TROUBLE = {b"dangling": "a symlink to nothing", b"loop": "a symlink loop", b"notdir": "a symlink through a file"}


def stored_at(root: Path, wanted: Iterable[tuple[str, str]], contents: bool = False) -> dict[tuple[str, str], Stored]:
    """The blob at each (commit or tree, path), in one ``git cat-file --batch-check``;
    with ``contents``, what each holds too, in one ``git cat-file --batch``.

    Symlinks are followed inside the tree, as reading the file in a checkout follows
    them: a file reached through a link is the file. A link out of the tree or one
    that leads nowhere is a problem; a folder or a submodule is no file.
    """
    requests = sorted(set(wanted))
    if not requests:
        return {}
    lines = []
    for rev, path in requests:
        if "\n" in path or "\n" in rev:
            raise GitError(f"cannot look up {path!r}: git cannot be asked for a name with a newline")
        lines.append(f"{rev}:{path}")
    out = output(root, ["cat-file", "--batch" if contents else "--batch-check", "--follow-symlinks"], ("\n".join(lines) + "\n").encode())
    found: dict[tuple[str, str], Stored] = {}
    pos = 0
    for request in requests:
        end = out.index(b"\n", pos)
        header = out[pos:end].split(b" ")
        pos = end + 1
        if header[-1] in (b"missing", b"ambiguous"):  # ``REV:PATH missing``; the path may hold spaces
            found[request] = Stored(None)
        elif header[0] in _LINK_TROUBLE or header[0] == b"symlink":
            # ``dangling SIZE`` and the like are followed by a line of SIZE bytes
            size = int(header[1])
            detail = decode_name(out[pos : pos + size])
            pos += size + 1
            why = f"a symlink out of the repository, to {detail}" if header[0] == b"symlink" else _LINK_TROUBLE[header[0]]
            found[request] = Stored(None, why)
        else:
            size = int(header[2]) if contents and len(header) == 3 else -1
            data = out[pos : pos + size] if size >= 0 else None
            pos += size + 1
            if len(header) == 3 and header[1] == b"blob":
                found[request] = Stored(decode_name(header[0]), data=data)
            else:  # a tree or a submodule's commit: no file to read
                found[request] = Stored(None)
    return found


# --- a commit's tree, for `check --new-since` (plain git: see git.FileListing) ----------


class TreeEntry(NamedTuple):
    mode: str  # 100644, 100755, 120000 (a symlink), 160000 (a submodule)
    blob: str


def tree_entries(root: Path, commit: str, folders: Sequence[str] | None = None) -> dict[str, TreeEntry] | None:
    """Every file, symlink and submodule of ``commit``'s tree (with ``folders``, of
    those folders only), by path, named as ``git ls-files`` names them in a work tree;
    None when git cannot read the tree."""
    return TreeListing(root, commit, folders).entries()


class TreeListing:
    """``tree_entries``, with git started when this is made and read when first asked
    (as git.FileListing): a commit hook lists HEAD's tree while it finds what the
    staged tree holds, rather than after.

    Without the blobs' sizes (``-l``): git reads every blob's header for them, which
    tripled the listing's time (13 of 18 ms on a tree of a thousand files), and
    nothing memcheck asks of a commit's tree needs them (see TreeSource.entry)."""

    def __init__(self, root: Path, commit: str, folders: Sequence[str] | None = None) -> None:
        scope = ["--", *folders] if folders is not None and "" not in folders else []
        self._found: dict[str, TreeEntry] | None = None
        try:
            self._proc: subprocess.Popen[bytes] | None = subprocess.Popen(
                ["git", "--literal-pathspecs", "ls-tree", "-r", "-z", "--full-tree", commit, *scope],
                cwd=root,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
            )
        except OSError:  # no git
            self._proc = None

    def entries(self) -> dict[str, TreeEntry] | None:
        """The entries by path; None when git cannot read the tree. (Asked again, the same.)"""
        if self._found is not None or self._proc is None:
            return self._found
        out, _ = self._proc.communicate()
        if self._proc.returncode != 0:
            self._proc = None
            return None
        entries: dict[str, TreeEntry] = {}
        if FS_UTF8:
            # Decoded once, as fs_names decodes each name (a commit hook lists a tree of
            # a thousand files or more: a third of this loop's time went to decoding
            # each record's fields and name apart).
            for line in out.decode("utf-8", "surrogateescape").split("\0"):
                head, _, path = line.partition("\t")
                parts = head.split()
                if len(parts) == 3 and path and parts[0].isascii() and parts[2].isascii():
                    entries[path] = TreeEntry(parts[0], parts[2])
            self._found = entries
            return entries
        for item in out.split(b"\0"):
            meta, _, name = item.partition(b"\t")
            fields = meta.split()
            if len(fields) == 3:
                mode, _kind, blob = (f.decode("ascii") for f in fields)
                for path in fs_names(name):
                    entries[path] = TreeEntry(mode, blob)
        self._found = entries
        return entries

    def close(self) -> None:
        """Stops git when its listing was never asked for."""
        proc = self._proc
        if proc is not None and self._found is None and proc.poll() is None:
            proc.kill()
            proc.communicate()


def commit_named(root: Path, ref: str) -> str | None:
    """The commit ``ref`` names; None for anything else (an unborn HEAD, a typo)."""
    if not ref or ref.startswith("-"):
        return None
    out = plain(root, head_commit_question(ref))
    return out.decode("ascii", "replace").strip() if out else None


def fork_point(root: Path, commit: str, head: str = "HEAD") -> str:
    """Where ``head``'s history left ``commit``'s: their merge base, as a pull
    request's diff shows it; ``commit`` itself when they have none (unrelated
    histories, or a shallow clone that lacks it)."""
    out = plain(root, ["merge-base", commit, head])
    return out.decode("ascii", "replace").strip() if out else commit
