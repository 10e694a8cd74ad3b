"""`memcheck context PATH`: what an agent working on PATH loads (seed 000, 001, 004).

It answers "why does the agent ignore my rule?": the guidance chain from the user
level and the repository root down to PATH (one file per folder, the shadowed
variants), whether each file's ``globs`` take PATH in or out, the @-imports it pulls
in, the MEMORY.md indexes loaded at start-up cut at their caps (naming the entries
past them), the skills catalogue, and the approximate tokens of it all against
``context.max-tokens``. Exit 1 when over that budget.
"""
from __future__ import annotations

import json
import os
from typing import Any, Iterable

import click

from memcheck.checks import guidance as gdn
from memcheck.checks.index import cap_lines, entry_names, loaded_lines
from memcheck.checks.skills import scope_of
from memcheck.config import Config, ConfigError
from memcheck.discover import (
    USER_GUIDANCE_FOLDERS,
    USER_PREFIX,
    Store,
    Workspace,
    basename,
    join,
    parent,
    relative_path,
    user_workspace,
)


def _folders_down_to(folder: str) -> list[str]:
    """The root, then each folder down to ``folder``."""
    parts = folder.split("/") if folder else []
    return ["/".join(parts[:i]) for i in range(len(parts) + 1)]


def _covers(owner: str, folder: str) -> bool:
    return owner == "" or folder == owner or folder.startswith(owner + "/")


def _shown(ws: Workspace, path: str) -> str:
    return USER_PREFIX + path if ws.user else path


def _guidance_entry(ws: Workspace, path: str, scope: str, target: str, is_folder: bool, shadowed: list[dict[str, str]]) -> dict[str, Any]:
    cfg = ws.config.guidance
    doc = ws.document(path)
    fm = doc.frontmatter if gdn.frontmatter_problem(doc) is None else None
    data = fm.data if fm is not None else {}
    globs = [g for g in data.get("globs") or [] if isinstance(g, str)] if isinstance(data.get("globs"), list) else []
    if data.get("alwaysApply") is True:
        applies, reason = True, "alwaysApply: true"
    elif not globs:
        applies, reason = True, "no globs: applies everywhere"
    elif is_folder:
        applies, reason = False, f"scoped by globs {globs}: loaded only for files they match"
    else:
        applies, deciding = gdn.applies(globs, target, parent(path))
        if deciding is None:
            reason = f"no glob matches {target} (globs: {globs})"
        elif applies:
            reason = f"glob {deciding!r} includes {target}"
        else:
            reason = f"glob {deciding!r} excludes {target}"
    expansion = gdn.expand(ws, path, cfg.max_import_depth)
    imports = [
        {"file": _shown(ws, x.path), "depth": x.depth, "bytes": x.size, "tokens": gdn.approx_tokens(x.size), "via": _shown(ws, x.via[-2])}
        for x in expansion.loaded[1:]
    ]
    notes = [f"line {imp.line}: @{imp.token} does not exist (in {_shown(ws, where)})" for where, imp in expansion.missing]
    notes += [f"import cycle {' -> '.join(cycle)}: agents stop at the repeat" for _, cycle in expansion.cycles]
    notes += [f"{chain[-1]} is {len(chain) - 1} hops deep, over {cfg.max_import_depth}: not loaded" for _, chain in expansion.too_deep]
    if "alwaysApply" in data and not isinstance(data["alwaysApply"], bool):
        notes.append(f"alwaysApply is {data['alwaysApply']!r}, not a boolean: read as false here, but loose readers treat any non-empty string as true (GDN005)")
    loaded_bytes = sum(x.size for x in expansion.loaded) if applies else 0
    return {
        "file": _shown(ws, path),
        "scope": scope,
        "loaded": applies,
        "reason": reason,
        "bytes": doc.size,
        "tokens": gdn.approx_tokens(doc.size),
        "shadowed": shadowed,
        "imports": imports,
        "notes": notes,
        "total_bytes": loaded_bytes,
        "total_tokens": sum(gdn.approx_tokens(x.size) for x in expansion.loaded) if applies else 0,
    }


def _first_variant(ws: Workspace, folder: str) -> tuple[str | None, list[dict[str, str]]]:
    """The guidance file agents read in ``folder``, and the variants they skip."""
    names = ws.names_in(folder)
    present = [join(folder, n) for n in ws.config.guidance.filenames if n in names and ws.is_file(join(folder, n))]
    if not present:
        return None, []
    read = present[0]
    real = os.path.realpath(ws.root / read)
    shadowed = []
    for other in present[1:]:
        if os.path.realpath(ws.root / other) == real:
            why = f"the same file as {basename(read)} (symlink): nothing is lost"
        else:
            why = f"only one guidance file per folder: agents read {basename(read)} instead"
        shadowed.append({"file": _shown(ws, other), "reason": why})
    return read, shadowed


def _index_entry(ws: Workspace, store: Store) -> dict[str, Any]:
    cfg = ws.config.index
    if not store.has_index:
        return {"file": _shown(ws, store.index), "exists": False, "lines": 0, "bytes": 0, "loaded_lines": 0, "loaded_bytes": 0, "tokens": 0, "past_cap": []}
    doc = ws.document(store.index)
    lines = cap_lines(doc.text)
    n = loaded_lines(lines, cfg.max_lines, cfg.max_bytes)
    loaded_bytes = sum(len(line.encode("utf-8")) + 1 for line in lines[:n])
    return {
        "file": _shown(ws, store.index),
        "exists": True,
        "lines": len(lines),
        "bytes": doc.size,
        "loaded_lines": n,
        "loaded_bytes": loaded_bytes,
        "tokens": gdn.approx_tokens(loaded_bytes),
        "past_cap": entry_names(lines[n:]),
    }


def store_owner(folder: str) -> str:
    """The folder an agent must work in to load this store at start-up: the part of
    the path before its first dot-folder (``pkg/.claude/memory`` -> ``pkg``)."""
    parts = folder.split("/")
    for i, part in enumerate(parts):
        if part.startswith("."):
            return "/".join(parts[:i])
    return parent(folder)


def _skills(ws: Workspace, folder: str) -> list[dict[str, Any]]:
    found = []
    for path in ws.skills:
        if not (ws.user or _covers(scope_of(ws, path), folder)):
            continue
        fm = ws.document(path).frontmatter
        data = fm.data if fm is not None else {}
        line = f"{data.get('name', '')}: {data.get('description', '')}"
        found.append({"file": _shown(ws, path), "tokens": gdn.approx_tokens(len(line.encode("utf-8")))})
    return found


def build(config: Config, target_path: str) -> dict[str, Any]:
    ws = Workspace(config)
    rel = relative_path(ws.root, target_path)
    if rel is None:
        raise ConfigError(f"{target_path} is outside the repository at {ws.root}")
    is_folder = rel == "" or (ws.root / rel).is_dir()
    folder = rel if is_folder else parent(rel)
    home = user_workspace(config)

    chain: list[dict[str, Any]] = []
    for user_folder in USER_GUIDANCE_FOLDERS:
        read, shadowed = _first_variant(home, user_folder)
        if read is not None:
            chain.append(_guidance_entry(home, read, "user", rel, is_folder, shadowed))
    for step in _folders_down_to(folder):
        read, shadowed = _first_variant(ws, step)
        if read is None:
            continue
        scope = "project" if step == "" else ("subtree" if step == folder else "parent")
        chain.append(_guidance_entry(ws, read, scope, rel, is_folder, shadowed))

    indexes = [_index_entry(home, s) for s in home.stores]
    indexes += [_index_entry(ws, s) for s in ws.stores if _covers(store_owner(s.folder), folder)]
    skills = _skills(home, folder) + _skills(ws, folder)

    tokens = sum(g["total_tokens"] for g in chain) + sum(i["tokens"] for i in indexes) + sum(s["tokens"] for s in skills)
    budget = config.context.max_tokens
    return {
        "path": rel or ".",
        "guidance": chain,
        "indexes": indexes,
        "skills": {"count": len(skills), "tokens": sum(s["tokens"] for s in skills)},
        "total": {"tokens": tokens, "budget": budget, "over": tokens > budget},
    }


def _n(value: int) -> str:
    return f"{value:,}"


def render_text(report: dict[str, Any]) -> Iterable[str]:
    yield f"Context an agent loads when working on {report['path']}"
    yield ""
    yield "Guidance (user, then the repository root down to the working folder):"
    if not report["guidance"]:
        yield "  none found"
    for g in report["guidance"]:
        state = "loaded" if g["loaded"] else "NOT loaded"
        yield f"  {g['scope']:<8} {g['file']}  {_n(g['bytes'])} bytes, ~{_n(g['tokens'])} tokens  [{state}: {g['reason']}]"
        for s in g["shadowed"]:
            yield f"           shadowed: {s['file']} ({s['reason']})"
        for imp in g["imports"]:
            indent = "  " * imp["depth"]
            yield f"         {indent}@{imp['file']}  {_n(imp['bytes'])} bytes, ~{_n(imp['tokens'])} tokens"
        for note in g["notes"]:
            yield f"           ! {note}"
    yield ""
    yield "Memory indexes loaded at start-up:"
    if not report["indexes"]:
        yield "  none"
    for i in report["indexes"]:
        if not i["exists"]:
            yield f"  {i['file']}  missing: agents load nothing from this store"
            continue
        cut = "" if i["loaded_lines"] == i["lines"] else f"; cut at {_n(i['loaded_lines'])} of {_n(i['lines'])} lines by the caps"
        yield f"  {i['file']}  {_n(i['lines'])} lines, {_n(i['bytes'])} bytes; loads {_n(i['loaded_bytes'])} bytes, ~{_n(i['tokens'])} tokens{cut}"
        if i["past_cap"]:
            shown = ", ".join(i["past_cap"][:10]) + (f" and {len(i['past_cap']) - 10} more" if len(i["past_cap"]) > 10 else "")
            yield f"           past the cap (never seen): {shown}"
    yield ""
    sk = report["skills"]
    yield f"Skills catalogue: {sk['count']} skill(s), ~{_n(sk['tokens'])} tokens of names and descriptions"
    total = report["total"]
    verdict = "OVER the budget" if total["over"] else "within the budget"
    yield f"Total: ~{_n(total['tokens'])} tokens of context.max-tokens {_n(total['budget'])} ({verdict}; tokens are bytes / 4)"


def run(config: Config, path: str, fmt: str) -> int:
    report = build(config, path)
    if fmt == "json":
        click.echo(json.dumps(report, indent=2, ensure_ascii=False, sort_keys=True))
    else:
        for line in render_text(report):
            click.echo(line)
    return 1 if report["total"]["over"] else 0
