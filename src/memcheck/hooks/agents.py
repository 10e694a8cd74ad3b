"""`memcheck agents [--explain PATH]`: the agents memcheck knows, from their data.

Without a path: each agent, the release its facts describe, the date they were
checked, and the files and folders it reads, each with its source. With
``--explain PATH``: for one file of the repository, which agents read it, when, and
from which source that is known, from the same model the checks use. The agents and
the files each reads in docs/agent-table.md are this command's ``table_markdown``.
"""

from __future__ import annotations

import json
import os

import click

from memcheck import agents
from memcheck.config import ConfigError
from memcheck.hooks.options import config_for
from memcheck.paths import basename, parent
from memcheck.problem import escaped, json_text

_SURE = {agents.READS: "reads it", agents.MAYBE: "may read it", agents.NO: "does not read it"}


def _source(p: agents.Provenance) -> str:
    version = "" if p.version == "docs" else f", release {p.version}"
    return f"{p.source}{version}, checked {p.checked}" + ("" if p.confirmed else ", unconfirmed")


def listing() -> list[dict[str, object]]:
    """Every agent and what it reads, as `--format json` prints it."""
    return [
        {
            "id": a.id,
            "title": a.title,
            "version": a.provenance.version,
            "checked": a.provenance.checked,
            "source": a.provenance.source,
            "confirmed": a.provenance.confirmed,
            "reads": [
                {
                    "files": r.files,
                    "when": r.when,
                    "source": r.provenance.source,
                    "version": r.provenance.version,
                    "checked": r.provenance.checked,
                    "confirmed": r.provenance.confirmed,
                }
                for r in agents.reads_of(a.id)
            ],
        }
        for a in agents.load()
    ]


def table_markdown() -> str:
    """docs/agent-table.md: the agents and the files each reads, generated from the data."""
    lines = [
        "# The agents memcheck knows, and the files each reads",
        "",
        "Generated from memcheck's agent data (`src/memcheck/resources/agents/*.toml`) by",
        "`python docs/generate.py`; `memcheck agents` prints the same. A fact marked",
        "*unconfirmed* has no primary source yet: memcheck claims nothing on it.",
        "",
    ]
    for a in agents.load():
        version = "its documentation" if a.provenance.version == "docs" else f"release {a.provenance.version}"
        lines += [f"## {a.title} (`{a.id}`)", "", f"Facts describe {version}, checked {a.provenance.checked}.", ""]
        lines += ["| files | when | source |", "|---|---|---|"]
        for r in agents.reads_of(a.id):
            when = r.when.replace("|", "\\|") or "read"
            lines.append(f"| `{r.files}` | {when} | {_source(r.provenance)} |")
        lines.append("")
    return "\n".join(lines)


def explain(config_file: str | None, path: str) -> list[dict[str, object]]:
    """For one file: each agent, how sure memcheck is that it reads it, why, and the source."""
    from memcheck.agents import kinds as agentkinds
    from memcheck.agents import readers
    from memcheck.workspace.discover import relative_path
    from memcheck.workspace.skills import agent_root_of

    config = config_for(config_file, (path,))
    rel = relative_path(config.root, path)
    if rel is None:
        raise ConfigError(f"{path} is outside the repository at {config.root}")
    if not os.path.lexists(config.root / rel):
        # What agents make of a file depends on its folder's other files: a file not
        # there is one memcheck cannot speak for, rather than one no agent reads.
        raise ConfigError(f"{path}: no such file or folder in the repository")
    ws = readers.checkout(config, parent(rel), (rel,))
    model = readers.reading(ws)
    found: list[dict[str, object]] = []
    if rel in model.kind:
        for a in agents.load():
            sure, why = model.direct[rel][a.id]
            verdict = model.verdicts[rel][a.id]
            if verdict.since and sure == agents.MAYBE:
                said = f"reads it from release {verdict.since} on, by default"
            else:
                said = _SURE[sure]
            real = model.real.get(rel, rel)
            reached = model.via.get(a.id, {}).get(real, agents.NO)
            # A symlink is the same text under another name (CLAUDE.md -> AGENTS.md):
            # the agent reading that name reads this file.
            twin = next((p for p in model.names_of(real) if p != rel and p in model.direct and model.direct[p][a.id][0] != agents.NO), None)
            if sure == agents.NO and twin is not None:
                said, why = _SURE[model.direct[twin][a.id][0]], f"as {twin}: the same file, by a symlink"
                verdict = model.verdicts[twin][a.id]
            elif sure == agents.NO and reached != agents.NO:
                said, why = _SURE[reached], "through an @-import of a file it reads"
            provenance = verdict.source if verdict.source is not None else a.provenance
            if said == _SURE[agents.NO] and not provenance.confirmed:
                # An unconfirmed source settles nothing, a "no" included.
                said = "is not known to read it"
            source = _source(provenance)
            found.append({"agent": a.id, "title": a.title, "reads": said, "why": why or verdict.loaded, "source": source})
        return found
    if rel in ws.skills and (root := agent_root_of(rel)):
        for a in agents.load():
            sees = root in a.skill_roots and a.skills_provenance is not None
            source = _source(a.skills_provenance) if a.skills_provenance is not None else _source(a.provenance)
            found.append(
                {
                    "agent": a.id,
                    "title": a.title,
                    "reads": "loads it as a skill" if sees else "does not load it",
                    "why": f"skills from {', '.join(a.skill_roots) or 'no folder it is known to read'}",
                    "source": source,
                }
            )
        return found
    from memcheck.text import patterns

    for a in agents.load():
        for loads in a.loads:
            if any(patterns.match(g, rel, "") for g in loads.globs):
                found.append(
                    {
                        "agent": a.id,
                        "title": a.title,
                        "reads": "reads it" if loads.provenance.confirmed else "may read it",
                        "why": loads.what,
                        "source": _source(loads.provenance),
                    }
                )
    # Any other file (a store's MEMORY.md, a doc) that a file an agent reads @-imports:
    # the agent loads it with that file, as `memcheck context` shows.
    real = model.real.get(rel, rel)
    for a in agents.load():
        reached = model.via.get(a.id, {}).get(real, agents.NO)
        if reached != agents.NO and not any(f["agent"] == a.id for f in found):
            found.append(
                {
                    "agent": a.id,
                    "title": a.title,
                    "reads": _SURE[reached],
                    "why": "through an @-import of a file it reads",
                    "source": _source(a.provenance),
                }
            )
    # A subagent, custom agent or prompt file: known by its kind's schema data.
    kind = agentkinds.kind_of_path(rel)
    if kind is not None and not any(f["agent"] == kind.agent for f in found):
        provenance = agents.Provenance(kind.source, kind.version, kind.checked, kind.confirmed)
        said = "loads it" if kind.confirmed else "may load it"
        found.append(
            {"agent": kind.agent, "title": kind.agent_title, "reads": said, "why": f"as a {kind.title}", "source": _source(provenance)}
        )
    return found


def meant_name(config_file: str | None, path: str) -> str | None:
    """The guidance file name ``path``'s name spells in other letter case (Claude.md:
    CLAUDE.md), which an agent on a case-insensitive file system opens by that name."""
    filenames = config_for(config_file, (path,)).guidance.filenames
    name = basename(path)
    return next((n for n in sorted(filenames) if n != name and n.casefold() == name.casefold()), None)


def run(fmt: str, explain_path: str | None, config_file: str | None) -> int:
    if explain_path is not None:
        rows = explain(config_file, explain_path)
        if fmt == "json":
            click.echo(json_text(json.dumps({"path": explain_path, "agents": rows}, indent=2, ensure_ascii=False, sort_keys=True)))
            return 0
        meant = meant_name(config_file, explain_path) if not rows else None
        if meant is not None:
            # Not "no agent reads it": on macOS and Windows, an agent opening CLAUDE.md gets Claude.md.
            click.echo(escaped(
                f"{explain_path}: agents look for {meant} by that exact name: a case-insensitive file system (macOS, Windows) finds {explain_path} by it, "
                f"others do not; rename it to {meant}"
            ))  # fmt: skip
        elif not rows:
            click.echo(escaped(f"{explain_path}: no agent memcheck knows reads it as instructions, a rule or a skill"))
        for row in rows:
            click.echo(escaped(f"{row['title']}: {row['reads']}" + (f" ({row['why']})" if row["why"] else "") + f" [{row['source']}]"))
        return 0
    data = listing()
    if fmt == "json":
        click.echo(json_text(json.dumps(data, indent=2, ensure_ascii=False, sort_keys=True)))
        return 0
    for i, a in enumerate(data):
        if i:
            click.echo("")
        version = "its documentation" if a["version"] == "docs" else f"release {a['version']}"
        click.echo(f"{a['title']} ({a['id']}): facts of {version}, checked {a['checked']}")
        for r in agents.reads_of(str(a["id"])):
            click.echo(escaped(f"  {r.files}  {r.when or 'read'}  [{_source(r.provenance)}]"))
    return 0
