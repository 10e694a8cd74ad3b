"""MCK003: a memcheck config below the repository root, which is not read.

memcheck takes its settings from the root's config alone; a `.memcheck.yaml` (or a
pyproject.toml with a `[tool.memcheck]` table) in a folder below is named, so that
nobody believes it applies there.
"""

from __future__ import annotations

import os
import re
from typing import TYPE_CHECKING, Iterator

from memcheck import lazy_regex
from memcheck.config import CONFIG_FILENAME, ConfigError, pyproject_table
from memcheck.paths import basename, parent
from memcheck.problem import TREE, WARNING, Rule, shown

if TYPE_CHECKING:
    from memcheck.problem import Problem
    from memcheck.workspace.discover import Workspace
    from memcheck.workspace.targets import Targets

MCK003 = Rule(
    "MCK003",
    "nested-config",
    WARNING,
    False,
    "A memcheck config below the repository root is not read",
    """\
## What it does
Reports a `.memcheck.yaml`, or a `pyproject.toml` with a `[tool.memcheck]` table, in
a folder below the repository root. memcheck reads its settings from the root
alone (or from the file `--config` names), so this file changes nothing.

## Why is this bad?
Its author expects it to apply to its folder, as ruff's and markdownlint's nested
configs do, and it silently does not: the rules it turns off still fail, the ones it
turns on never run. memcheck keeps one config on purpose: an index and its memory
files, a guidance file and the files it imports, and the guard's judgement of a
change all span folders, and a change must never bring the settings it is judged
by (an agent could drop a config beside the memory it writes and switch its checks
off).

## Example
```yaml
# firmware/.memcheck.yaml
ignore: [MEM010]
```

## Use instead
Say it once, in the root's config, scoped to the folder:
```yaml
# .memcheck.yaml
per-path-ignores:
  "firmware/**": [MEM010]
```
and remove `firmware/.memcheck.yaml`. A folder memcheck should not look at at all
goes in `exclude`.
""",
    scope=TREE,
)


# A table header `[tool.memcheck]` or `[tool.memcheck.index]`, for the line to report.
_TABLE = lazy_regex.compile(r"^[ \t]*\[[ \t]*tool[ \t]*\.[ \t]*memcheck[ \t]*[\].]", re.M)


# Why a nested config is reported rather than honoured for its subtree, as ruff and
# markdownlint-cli2 honour theirs:
# - memcheck's findings span folders: an index and its memory files may sit apart
#   (IDX001), a guidance file imports files anywhere (GDN009), skills are compared
#   with one another (SKL009), secrets are judged by the settings of the commit the
#   change builds on. Per-folder settings would make one finding depend on which of
#   two configs applies to which side of it.
# - A change never decides its own policy: guard and `--changed` judge a commit by
#   settings the change cannot bring (the root config of the base). A config an agent
#   drops beside the memory it writes, honoured, would switch its own checks off;
#   honouring it only where no guard or baseline is involved would make `check` and
#   the hooks disagree on the same file.
# - The root config already says per folder what ruff's nested files say:
#   per-path-ignores and exclude take folder globs.
# So the root's config (or --config's file) is the only one read, and each other file
# memcheck would read as one is named, once per run, each read at most once.
def check(ws: Workspace, targets: Targets) -> Iterator[Problem]:
    """MCK003 for each config below the root that a run covers (``Targets.configs``):
    each file is read once, and a pyproject.toml counts only with a ``[tool.memcheck]``."""
    read = ws.config.settings_file
    in_use = os.path.realpath(read) if read is not None else None  # `--config firmware/.memcheck.yaml` is read
    for path in targets.configs:
        if in_use is not None and ws.real_path(path) == in_use:
            continue
        folder = parent(path)
        if basename(path) == CONFIG_FILENAME:
            yield MCK003.at(path, 1, 1, _message(shown(path), shown(folder)))
            continue
        doc = ws.document(path)
        if doc.error is not None or "memcheck" not in doc.text:
            continue
        try:
            table = pyproject_table(doc.text, path)
        except ConfigError:  # a nested project's own pyproject.toml, not TOML memcheck reads: none of its business
            continue
        if table is not None:
            header = _TABLE.search(doc.text)
            line = doc.text.count("\n", 0, header.start()) + 1 if header else 1
            yield MCK003.at(path, line, 1, _message(f"[tool.memcheck] in {shown(path)}", shown(folder)))


def _message(what: str, folder: str) -> str:
    return (
        f"{what} is not read: memcheck takes its settings from the repository root alone; "
        f'move them into the root\'s config, scoped with per-path-ignores ("{folder}/**"), and remove them here'
    )
