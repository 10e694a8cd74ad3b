"""Where the cache of findings lives (see engine/cache.py), and how its files are
read and written: every one a regular file in a real folder, never through a
symlink, never a FIFO or a device (a cache folder committed to the repository can
hold anything), never larger than a bound; and `memcheck clean`, which removes
only what memcheck wrote there."""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from memcheck.config import Config

ENV = "MEMCHECK_CACHE_DIR"


# The `.gitignore` memcheck writes in its cache folder (see engine/cache.py): a cache in
# the work tree is never listed or committed, and the folder is known as memcheck's own.
MARKER = b"# Written by memcheck: its cache, never committed.\n*\n"


def folder_for(config: Config) -> Path | None:
    """Where the cache of ``config.root`` lives; None when it is off or has no place,
    or the folder named holds other files than memcheck's (see ``_ours``)."""
    if config.no_cache:
        return None
    found = _folder_for(config)
    return found if found is not None and _ours(found) else None


# Folders found to be memcheck's to use, this process (a run asks several times).
_OURS: set[Path] = set()


def _ours(folder: Path) -> bool:
    """Whether memcheck may keep its cache in ``folder`` and empty it: a folder that is
    not there yet, is empty, or holds memcheck's own `.gitignore` (or, outside git, its
    key alone); never a folder of other files. A `cache-dir` that names `src` would
    otherwise have memcheck write `src/.gitignore` (hiding every new file there from
    `git add`) and `memcheck clean` remove the `parts` or `values` it holds."""
    if folder in _OURS:
        return True
    try:
        names = os.listdir(folder)
    except FileNotFoundError:
        return True  # (made when first written, and marked then)
    except (OSError, ValueError):
        return False
    if names and names != ["key"] and read_file(folder / ".gitignore", 4096) != MARKER:
        return False
    _OURS.add(folder)
    return True


def _folder_for(config: Config) -> Path | None:
    given = os.environ.get(ENV, "").strip()
    if given:
        return Path(os.path.realpath(os.path.expanduser(given)))  # the caller's own: any folder of its
    if config.cache_dir:
        # Inside the repository, as the settings must name it, not through a symlink out
        # of it nor into its git folder (which `memcheck clean` would empty): a change's
        # own settings never make memcheck write or remove anything elsewhere.
        real_root = os.path.realpath(config.root)
        folder = os.path.realpath(config.root / config.cache_dir)
        found_git = git_dir(config.root)
        in_git = found_git is not None and within(folder, os.path.realpath(found_git))
        return Path(folder) if within(folder, real_root) and not in_git else None
    found_git = git_dir(config.root)
    return found_git / "memcheck" / "cache" if found_git is not None else None


def within(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder.rstrip(os.sep) + os.sep)


# Never larger than this: a cache file is a few megabytes at most.
_MOST = 256 << 20
_OPEN = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)


def read_file(path: Path, most: int = _MOST) -> bytes | None:
    try:
        fd = os.open(path, _OPEN)
    except (OSError, ValueError):
        return None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or info.st_size > most:
            return None
        chunks = []
        left = info.st_size + 1
        while left > 0 and (chunk := os.read(fd, min(left, 1 << 20))):
            chunks.append(chunk)
            left -= len(chunk)
        data = b"".join(chunks)
        return data if len(data) <= most else None
    except OSError:
        return None
    finally:
        os.close(fd)


def real_folder(path: Path) -> bool:
    """``path`` is a folder itself, not a symlink to one."""
    try:
        return stat.S_ISDIR(os.lstat(path).st_mode)
    except (OSError, ValueError):
        return False


def make_folders(top: Path, *names: str) -> Path | None:
    """``top/names...``, made where missing, each a real folder; None where one is not."""
    path = top
    for name in ("", *names):
        path = path / name if name else path
        if not real_folder(path):
            try:
                path.mkdir(parents=not name)
            except FileExistsError:
                pass
            except OSError:
                return None
            if not real_folder(path):
                return None
    return path


def git_dir(root: Path) -> Path | None:
    """The repository's git folder: ``.git``, or where a worktree's ``.git`` file points."""
    dot_git = root / ".git"
    if dot_git.is_dir():
        return dot_git
    try:
        text = dot_git.read_text("utf-8")
    except (OSError, UnicodeDecodeError):
        return None
    if not text.startswith("gitdir: "):
        return None
    found = Path(text[len("gitdir: ") :].strip())
    found = found if found.is_absolute() else root / found
    return found if found.is_dir() else None


CACHE_FILES = ("parts", "contexts", "values", "pruned", ".gitignore", "key")


def clean(config: Config) -> tuple[Path, list[str]] | None:
    """Remove what memcheck keeps in the cache folder of ``config.root`` (its own
    folders and files, nothing else: the folder named may hold other things), and the
    folder when that leaves it empty; the folder and the names of its entries that
    could not be removed (a folder the user may not write to), or None when it held no
    cache."""
    import shutil

    folder = folder_for(config._replace(no_cache=False))
    if folder is None or not real_folder(folder):
        return None
    try:
        names = set(os.listdir(folder))
    except OSError:
        return None
    mine = names.intersection(CACHE_FILES)
    if not mine.intersection(("parts", "contexts", "values")):
        return None
    for name in sorted(mine):
        path = folder / name
        if real_folder(path):
            shutil.rmtree(path, ignore_errors=True)
        else:
            try:
                os.unlink(path)
            except OSError:
                pass
    left = sorted(name for name in mine if os.path.lexists(folder / name))
    try:
        os.rmdir(folder)  # only if nothing else is left
    except OSError:
        pass
    return folder, left
