"""GDN: guidance files.

A guidance file is any file an agent loads as instructions: ``AGENTS.md`` and its
variants, ``AGENTS.override.md``, ``CLAUDE.md``, ``.claude/CLAUDE.md``,
``CLAUDE.local.md``, ``.claude/rules/**/*.md``, ``GEMINI.md``,
``.github/copilot-instructions.md``, ``.github/instructions/**/*.instructions.md``
and ``.cursor/rules/**/*.mdc``; and the instructions files whose schema is agent data
(``agentkinds``): Kiro steering and Cline rules. Who reads which, in what order, with what limits, is
``memcheck.agents``'s model; every finding that names an agent comes from it, through
the questions ``memcheck.agents.guidance_model`` answers of it (also for `memcheck context`).

One module per rule (``globs`` and ``imports`` hold two and three rules that share
one walk). This package holds the family's one pass: each file once, its rules called
in a fixed order over one record of its facts (``facts.GuidanceFile``), and the
findings about files together, worked out once per run (``tree_findings_once``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterator, Sequence

from memcheck import agents
from memcheck.agents import guidance_model, links, readers
from memcheck.agents import kinds as agentkinds
from memcheck.checks.guidance import (
    broken_link,
    case_collision,
    case_variant_name,
    codex_budget,
    copilot_review_limit,
    cursor_activation,
    duplicate_import,
    frontmatter_type,
    globs,
    guidance_drift,
    guidance_symlink_outside,
    ignored_frontmatter_key,
    import_too_deep,
    imports,
    invalid_frontmatter,
    loads_nothing,
    over_budget,
    secret_import,
    unknown_frontmatter_key,
    unread_guidance,
    unreadable_guidance,
)
from memcheck.checks.guidance.broken_link import GDN013
from memcheck.checks.guidance.case_collision import GDN002
from memcheck.checks.guidance.case_variant_name import GDN024
from memcheck.checks.guidance.codex_budget import GDN016
from memcheck.checks.guidance.copilot_review_limit import GDN017
from memcheck.checks.guidance.cursor_activation import GDN027, GDN028
from memcheck.checks.guidance.duplicate_import import GDN025
from memcheck.checks.guidance.facts import GuidanceFile
from memcheck.checks.guidance.frontmatter_type import GDN005
from memcheck.checks.guidance.globs import GDN007, GDN008
from memcheck.checks.guidance.guidance_drift import GDN015
from memcheck.checks.guidance.guidance_symlink_outside import GDN018
from memcheck.checks.guidance.ignored_frontmatter_key import GDN026
from memcheck.checks.guidance.import_too_deep import GDN012
from memcheck.checks.guidance.imports import GDN009, GDN010, GDN011
from memcheck.checks.guidance.invalid_frontmatter import GDN004
from memcheck.checks.guidance.loads_nothing import GDN019
from memcheck.checks.guidance.over_budget import GDN014
from memcheck.checks.guidance.secret_import import GDN023
from memcheck.checks.guidance.unknown_frontmatter_key import GDN006
from memcheck.checks.guidance.unread_guidance import GDN001
from memcheck.checks.guidance.unreadable_guidance import GDN003
from memcheck.config import selected
from memcheck.paths import basename
from memcheck.problem import contained
from memcheck.workspace.agentfiles import find_agent_files

if TYPE_CHECKING:
    from memcheck.problem import Problem
    from memcheck.text.document import Document
    from memcheck.workspace.discover import Workspace
    from memcheck.workspace.targets import Targets

RULES = (
    GDN001,
    GDN002,
    GDN003,
    GDN004,
    GDN005,
    GDN006,
    GDN007,
    GDN008,
    GDN009,
    GDN010,
    GDN011,
    GDN012,
    GDN013,
    GDN014,
    GDN015,
    GDN016,
    GDN017,
    GDN018,
    GDN019,
    GDN023,
    GDN024,
    GDN025,
    GDN026,
    GDN027,
    GDN028,
)


def check(ws: Workspace, targets: Targets) -> Iterator[Problem]:
    yield from _check_kind_files(ws, targets.kind_files)
    yield from case_variant_name.check(ws, targets.kind_files)
    wanted = set(targets.guidance)
    if not wanted:
        return
    if not ws.user:
        # Worked out once per run (a hook run may ask for some guidance files only).
        for problem in ws.once(tree_findings_once):
            if problem.path in wanted:
                yield problem
    if selected((GDN013.code,), ws.config):
        links.ask_ignored_ahead(ws, [doc for path in sorted(wanted) if (doc := ws.document(path)).error is None])
    for path in sorted(wanted):
        yield from contained(GDN003, path, check_file(ws, ws.document(path)))


def _check_kind_files(ws: Workspace, paths: Sequence[str]) -> Iterator[Problem]:
    kinds = {p: agentkinds.by_id(k) for p, k in find_agent_files(ws).kinds.items()} if paths else {}
    for path in sorted(p for p in paths if p in kinds and kinds[p].role == "guidance"):  # Kiro steering, Cline rules
        yield from contained(GDN003, path, _check_kind_file(ws, kinds[path], ws.document(path)))


def _check_kind_file(ws: Workspace, kind: agentkinds.Kind, doc: Document) -> Iterator[Problem]:
    """An instructions file only the agent data knows: its schema there is all it is judged by."""
    if doc.error is not None:
        yield from unreadable_guidance.check_kind_file(doc)
        return
    yield from invalid_frontmatter.check_kind_file(kind, doc)
    f = GuidanceFile(ws, doc, None, kind, None)
    for rule in (loads_nothing, frontmatter_type, globs):
        yield from f.findings_of(rule.WHAT)
    yield from ignored_frontmatter_key.check_kind_file(ws, doc, kind)
    yield from broken_link.check(ws, doc)


def tree_findings_once(ws: Workspace) -> list[Problem]:
    return list(_tree_findings(ws))


def _tree_findings(ws: Workspace) -> Iterator[Problem]:
    """Findings about files together: who reads what (GDN001, GDN015), Codex's
    budget down each chain (GDN016), names that collide by case (GDN002)."""
    on = selected((GDN001.code, GDN015.code, GDN016.code), ws.config)
    if on:
        model = readers.reading(ws)
        if GDN001.code in on:
            yield from unread_guidance.check(ws, model)
        if GDN015.code in on:
            yield from guidance_drift.check(ws, model)
        if GDN016.code in on and agents.CODEX in model.configured:
            yield from codex_budget.check(ws, model)
    yield from case_collision.check(ws)


def check_file(ws: Workspace, doc: Document) -> Iterator[Problem]:
    """One guidance file's findings. The order is the gates' (a symlink out of the
    repository, then an unreadable file, stop the rest) and then the rules' own."""
    path = doc.path
    kind = guidance_model.file_kind(ws, path)
    if path in ws.outside_links:
        yield from guidance_symlink_outside.check(ws, path)
        return
    if doc.error is not None:
        yield from unreadable_guidance.check(ws, doc, kind)
        return
    f = GuidanceFile(ws, doc, kind, agentkinds.kind_of_path(path, "guidance"), agents.schema_of(kind) if kind is not None else None)
    if f.schema is not None:
        yield from _check_frontmatter(ws, f, f.schema)
    # An empty AGENTS.override.md still hides its folder's AGENTS.md from Codex: not empty for nothing.
    yield from f.findings_of(loads_nothing.WHAT, ("missing",) if kind == agents.K_OVERRIDE else None)
    if f.followed:
        yield from imports.check(ws, doc, f.reached)
        yield from duplicate_import.check(ws, doc)
        yield from import_too_deep.check(ws, doc, f.read_by)
    page = _a_page_named_like_guidance(ws, path, kind)
    if not page:
        yield from broken_link.check(ws, doc)
    yield from secret_import.check(ws, doc, f.followed)
    if not page:
        yield from over_budget.check(ws, doc, f.reached, ws.config.guidance.max_import_depth or guidance_model.BUDGET_DEPTH)
    if kind in (agents.K_COPILOT, agents.K_COPILOT_PATH) and f.read_by.get(agents.COPILOT) == agents.READS:
        yield from copilot_review_limit.check(doc)


def _a_page_named_like_guidance(ws: Workspace, path: str, kind: str | None) -> bool:
    """Whether ``path`` is a guidance name in another case (``agents.md``) in a tree
    whose guidance files take the name in its own case (an ``AGENTS.md`` elsewhere):
    a page about agents among the tree's documents, which only a case-insensitive file
    system opens as guidance. Its links and its size are the page's, not the agents'
    (GDN013, GDN014); a tree that names its guidance only so keeps them."""
    filenames = ws.config.guidance.filenames
    other = agents.case_variant_of(path, filenames) if kind is not None else None
    # (The name in its own case is the kind it names: AGENTS.md is of the kind
    # "AGENTS.md", while Agents.md, the variant case_variant_of gives for it, is not.)
    return other is not None and agents.kind_of(other, filenames) == basename(other) and basename(other) in ws.once(_guidance_names)


def _guidance_names(ws: Workspace) -> frozenset[str]:
    return frozenset(basename(p) for p in ws.guidance)


def _check_frontmatter(ws: Workspace, f: GuidanceFile, schema: agents.Frontmatter) -> Iterator[Problem]:
    doc = f.doc
    trouble = invalid_frontmatter.trouble(doc, schema)
    if trouble is not None:
        yield trouble
        return
    fm = doc.frontmatter
    if fm is None:
        return
    yield from unknown_frontmatter_key.check(ws, doc, fm, schema)
    yield from ignored_frontmatter_key.check(ws, doc, fm, schema, f.kind or "rule")
    yield from frontmatter_type.check(doc, fm, schema)
    yield from cursor_activation.check(doc, fm, schema)
    if schema.globs_key is not None:
        line = fm.key_lines.get(schema.globs_key, 1)
        patterns, wrong = frontmatter_type.glob_patterns(doc, fm, schema, line)
        yield from wrong
        # With the key that applies the file everywhere set (Cursor's `alwaysApply: true`),
        # its globs are ignored (GDN027 says so): whether they match changes nothing.
        if patterns is not None and not (schema.always_key is not None and fm.data.get(schema.always_key) is True):
            yield from globs.check(ws, doc.path, schema.globs_key, f.kind or "", line, patterns)
