"""Files memcheck reads or writes by a name it is given (a config, a baseline, a
report, a SARIF file): never through a symlink that leads out of the repository,
and written whole or not at all.

A pull request can commit symlinks, and CI runs memcheck on its checkout: a
``.memcheck.yaml -> ~/.git-credentials`` must not be read, and ``-o reports/x.sarif``
must not write into ``~/.ssh`` because the pull request made ``reports`` a link
there. A path named on the command line outside the repository is the user's own
choice (``--config ~/shared.yaml``, ``-o /tmp/report.sarif``): the rule is about
names that are in the repository as written and lead out of it.

Imports nothing of memcheck's, and ``tempfile`` only when it writes: commands that
write nothing start as fast as before.
"""
from __future__ import annotations

import os


def _under(real: str, top: str) -> bool:
    return real == top or real.startswith(top.rstrip(os.sep) + os.sep)


def within(path: str | os.PathLike[str], top: str | os.PathLike[str]) -> str | None:
    """``path`` relative to the folder ``top``, when, as written, it names something
    in ``top``; None when it does not.

    As written: ``..`` is taken away by the text (``reports/../x`` is ``x``), and
    no symlink is followed, except that a folder on the way that *is* ``top``
    (``/tmp/repo`` where the repository is ``/private/tmp/repo``, or a link to it)
    counts as ``top``."""
    full = os.path.abspath(path)
    real_top = os.path.realpath(top)
    if _under(full, real_top):
        return os.path.relpath(full, real_top)
    folder = full
    while True:
        parent = os.path.dirname(folder)
        if parent == folder:
            return None
        folder = parent
        if os.path.realpath(folder) == real_top:
            return os.path.relpath(full, folder)


def link_out(path: str | os.PathLike[str], top: str | os.PathLike[str]) -> str | None:
    """Where ``path``, a name in ``top`` as written, leads out of it through a
    symlink: the first such link on the way, relative to ``top`` (``reports`` for
    ``reports/x.json``, or ``x.json`` itself); None when it stays inside, or does
    not name something in ``top`` at all. Nothing of where the link points is
    returned: a message may name the link, never its target."""
    rel = within(path, top)
    real_top = os.path.realpath(top)
    if rel is None or _under(os.path.realpath(path), real_top):
        return None
    parts = rel.split(os.sep)
    for i in range(1, len(parts) + 1):
        if not _under(os.path.realpath(os.path.join(real_top, *parts[:i])), real_top):
            return "/".join(parts[:i])
    return "/".join(parts)  # `link/../x`: the text stays inside, the link does not
