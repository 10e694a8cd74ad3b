"""GDN007, GDN008: a globs pattern that is not a valid glob, or that matches no file here."""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterator

from memcheck import agents
from memcheck.agents import guidance_kinds, guidance_model
from memcheck.paths import parent
from memcheck.problem import ERROR, WARNING, Rule

if TYPE_CHECKING:
    from memcheck.problem import Problem
    from memcheck.workspace.discover import Workspace

GDN007 = Rule(
    "GDN007",
    "invalid-glob",
    ERROR,
    False,
    "A globs pattern is not a valid glob",
    """\
## What it does
Reports a `globs`, `paths` or `applyTo` pattern that is empty or a lone `!`, has
unbalanced `[` `]` or `{` `}`, `***`, an empty range (`[z-a]`), or stands for more
than 1,000 patterns once its `{...}` are spelled out (Claude Code expands at most
1,000).

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
""",
)

GDN008 = Rule(
    "GDN008",
    "glob-matches-nothing",
    WARNING,
    False,
    "A globs pattern matches no file here",
    """\
## What it does
Reports a `globs` (AGENTS.md, Cursor rules), `paths` (Claude Code rules) or
`applyTo` (Copilot instructions) pattern that names no file or folder of the
checkout, tried from the repository root, from the file's own folder, and, for a
pattern without `/`, as a file name at any depth. Every file counts, ignored and
untracked ones too: a workspace that clones its child repositories into a
git-ignored folder has rules for their files. Where that folder is not filled yet
(a fresh clone, CI), a pattern that may lead into it is not reported: a folder the
root `.gitignore` names that a tracked setup file (a Makefile, a script, a
manifest, at the root or one folder down) names beside the word "clone". An
exclusion (`!pattern`) that matches nothing excludes nothing and is not reported,
nor is a pattern beside its twin that matches, the same but for a letter or two
added to the extension (`**/*.tsx` beside `**/*.ts`, `docs/**/*.md` beside
`docs/**/*.mdx`): the same files in their other syntax, named for the day the tree
has some, while the file applies by its twin. Nor is a rule the tree installs into
other projects: a template inside an agent's own settings folder
(`.github/plugins/kit/templates/.github/instructions/specs.instructions.md`, which
no agent reads as this tree's), and the rule at the root that it copies: their
patterns name the files of the projects it is installed into. Nor is any pattern of
a tree that holds no source code of its own (no file with a programming language's
ending, `.py`, `.ts`, `.rs`, `.sh` and the like, that git lists outside the agents'
folders and skill folders; Markdown, HTML, JSON and images are not code): a kit of
rules, skills and subagents copied into other projects, where no paths rule can
apply by design; nor of a rules folder below the root (`project/.claude/rules/`)
whose folder holds nothing but agents' settings (beside the agents' own folders,
only its guidance, README or changelog, dotfiles, templates, examples and links into
those folders at its top, among the files git lists): a template of a project's
settings that a kit copies into other projects. Nor is a kind of file named by its
ending alone (`**/*.js`, `*.scss`) beside a pattern of the same file that matches,
where no file git lists has that ending, in any letter case, nor a near one that no
pattern of the file names: a rule for a stack names its every ending (`**/*.jsx,
**/*.tsx, **/*.js, **/*.ts`), and a tree written in one of them has none of the
others (one of JavaScript's or TypeScript's endings is near another of them only
where no pattern of the file for them matches). Reported all the same: an ending no
language has (a typo), one the tree holds in another case, and one beside files no
pattern names of the same kind's other spelling (`**/*.yml` beside `.yaml` files,
`**/*.h` beside `.hpp`) or one letter apart (`**/*.cs` beside `.css` files): the
rule misses the files its author meant.
Nor is a pattern of a Cursor rule with `alwaysApply: true`, which ignores its globs
(GDN027 says so). Nor is a missing folder (`tests/**`) beside a pattern of the same
file that matches a kind of file at any depth (`**/*.py`): the file applies to those
files wherever they are, the folder's among them once it exists, and the folder
pattern loses the agent nothing meanwhile; beside patterns for other folders only,
or alone, it is reported.

## Why is this bad?
The file applies to the files its patterns match: a pattern that matches nothing is
a typo or a leftover from a move, and the file never loads for those files.

## Example
```yaml
globs: ["scr/**/*.ts"]
```

## Use instead
```yaml
globs: ["src/**/*.ts"]
```
""",
)

# The issues of guidance_kinds.file_issues that are these rules'.
WHAT = {"glob-invalid": GDN007, "glob-dead": GDN008}


def check(ws: Workspace, path: str, key: str, kind: str, line: int, patterns: list[str]) -> Iterator[Problem]:
    """The ``key`` patterns of a guidance file of ``kind``, tried from its folder (a
    rules folder's file: from the folder the rules apply to)."""
    owner = agents.owner_of(path, kind)
    folder = parent(path) if kind in agents.folder_kinds() else owner
    installed: bool | None = None  # worked out at the first pattern that matches nothing
    # A rules folder below the root (`app/.claude/rules`) speaks for the folder above it.
    project = owner if kind not in agents.folder_kinds() else ""
    for broken in guidance_kinds.broken_patterns(ws, patterns, folder, not ws.user and ws.wants(GDN008.code), project):
        if broken.bad is not None:
            yield GDN007.at(path, line, 1, f"glob {broken.pattern!r} {broken.bad}")
            continue
        if installed is None:
            installed = _installed_elsewhere(ws, path, owner)
        if not installed:
            yield GDN008.at(
                path,
                line,
                1,
                f"{key} pattern {broken.pattern!r}: no file here matches it (ignored files included), so this file never applies by it; fix the pattern or remove it",
            )


def _installed_elsewhere(ws: Workspace, path: str, owner: str) -> bool:
    """Whether a rule file is a template the tree installs into other projects, or the
    rule such a template copies: one that speaks for a folder inside an agent's own
    settings folder (``.github/plugins/x/templates/.github/instructions/a.md``, which
    no agent reads as this tree's), or one whose path from its owner a template has
    too. Its patterns name the files of the projects it is installed into."""
    if _in_settings_folder(owner):
        return True
    own = path[len(owner) + 1 :] if owner else path
    return any(p.endswith("/" + own) and _in_settings_folder(p[: -len(own) - 1]) for p in ws.guidance if p != path)


def _in_settings_folder(owner: str) -> bool:
    return bool(owner) and not guidance_model.settings_folders().isdisjoint(owner.split("/"))
