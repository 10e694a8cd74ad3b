"""SKL: skills (the Agent Skills specification; Amp's triggers; Claude Code's own keys).

A skill is ``SKILL.md`` in a skill folder below a skills root, or a Markdown file
with skill frontmatter directly inside one: the roots are the folders agents load
skills from (``.claude/skills``, ``.agents/skills``, ``.github/skills`` and
``.gemini/skills`` at any depth, a plugin's ``skills/``, ``skills/`` at the
repository root) and ``skills.roots`` (see ``workspace/skills.py``). Agents list
every skill's ``name`` and
``description`` in the prompt and load the body when the description (or one of
its ``triggers``) matches the task.

One module per rule (``name`` and ``duplicates`` hold two each); this package's
``check`` is the family's one pass: the loose skill folders (SKL016), then each skill
of the run in path order (a symlink out, SKL013, or the file's own rules, which read
one ``facts.SkillFile`` built once), then the tree's skills compared (SKL009, SKL011).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterator

from memcheck.agents import kinds as agentkinds
from memcheck.checks.skills import (
    agent_without_fork,
    arguments_without_hint,
    backslash_path,
    broken_link,
    description_voice,
    duplicates,
    facts,
    fork_without_task,
    invalid_description,
    invalid_field,
    invalid_frontmatter,
    invalid_triggers,
    key_not_read,
    long_skill_body,
    missing_frontmatter,
    name,
    nested_reference,
    never_invoked,
    no_skill_file,
    rejected_on_upload,
    skill_symlink_outside,
    unknown_hook_event,
    unknown_key,
    unknown_tool,
    unreadable_skill,
    vague_skill_name,
)
from memcheck.checks.skills.agent_without_fork import SKL019
from memcheck.checks.skills.arguments_without_hint import SKL026
from memcheck.checks.skills.backslash_path import SKL023
from memcheck.checks.skills.broken_link import SKL012
from memcheck.checks.skills.description_voice import SKL025
from memcheck.checks.skills.duplicates import SKL009, SKL011
from memcheck.checks.skills.fork_without_task import SKL020
from memcheck.checks.skills.invalid_description import SKL006
from memcheck.checks.skills.invalid_field import SKL007
from memcheck.checks.skills.invalid_frontmatter import SKL003
from memcheck.checks.skills.invalid_triggers import SKL008
from memcheck.checks.skills.key_not_read import SKL017
from memcheck.checks.skills.long_skill_body import SKL022
from memcheck.checks.skills.missing_frontmatter import SKL002
from memcheck.checks.skills.name import SKL004, SKL005
from memcheck.checks.skills.nested_reference import SKL027
from memcheck.checks.skills.never_invoked import SKL021
from memcheck.checks.skills.no_skill_file import SKL016
from memcheck.checks.skills.rejected_on_upload import SKL015
from memcheck.checks.skills.skill_symlink_outside import SKL013
from memcheck.checks.skills.unknown_hook_event import SKL018
from memcheck.checks.skills.unknown_key import SKL010
from memcheck.checks.skills.unknown_tool import SKL014
from memcheck.checks.skills.unreadable_skill import SKL001
from memcheck.checks.skills.vague_skill_name import SKL024
from memcheck.problem import contained

if TYPE_CHECKING:
    from memcheck.problem import Problem
    from memcheck.text.document import Document
    from memcheck.workspace.discover import Workspace
    from memcheck.workspace.targets import Targets

RULES = (
    SKL001,
    SKL002,
    SKL003,
    SKL004,
    SKL005,
    SKL006,
    SKL007,
    SKL008,
    SKL009,
    SKL010,
    SKL011,
    SKL012,
    SKL013,
    SKL014,
    SKL015,
    SKL016,
    SKL017,
    SKL018,
    SKL019,
    SKL020,
    SKL021,
    SKL022,
    SKL023,
    SKL024,
    SKL025,
    SKL026,
    SKL027,
)

# The opt-in rules of Anthropic's advice for skill authors (``Rule.opt_in``).
ADVICE = tuple(rule.code for rule in RULES if rule.opt_in)


def check(ws: Workspace, targets: Targets) -> Iterator[Problem]:
    yield from no_skill_file.check(ws, targets)
    wanted = sorted(set(targets.skills))
    if not wanted:
        return
    outside = set(ws.skill_links_out)
    for path in wanted:
        if path in outside:
            yield skill_symlink_outside.check(ws, path)
        else:
            yield from contained(SKL001, path, check_file(ws, ws.document(path)))
            if ws.wants(SKL012.code):
                yield from broken_link.check_shipped(ws, path)
    yield from duplicates.check(ws, set(wanted))


def check_file(ws: Workspace, doc: Document) -> Iterator[Problem]:
    """One skill file's own rules, in order: each gate (unreadable, no frontmatter,
    frontmatter agents cannot parse) stops the rules after it."""
    unreadable = unreadable_skill.check(doc)
    if unreadable is not None:
        yield unreadable
        return
    yield from broken_link.check(ws, doc)
    no_frontmatter = missing_frontmatter.check(doc)
    if no_frontmatter is not None:
        yield no_frontmatter
        return
    claude = agentkinds.by_id(facts.CLAUDE_SKILL)
    yield from invalid_frontmatter.check(ws, doc, claude)
    skill = facts.read(ws, doc, claude)
    if skill is None:
        return  # agents with a YAML parser see no fields at all: SKL003 says why
    yield from name.check(ws, skill)
    yield from invalid_description.check(skill)
    yield from invalid_field.check(skill)
    yield from invalid_triggers.check(skill)
    if skill.claude_code:
        yield from invalid_field.check_claude(skill)
        yield from unknown_tool.check(skill)
        yield from rejected_on_upload.check(skill)
        yield from unknown_hook_event.check(skill)
        yield from agent_without_fork.check(skill)
        yield from fork_without_task.check(skill)
        yield from never_invoked.check(skill)
    yield from unknown_key.check(ws, skill)
    yield from key_not_read.check(ws, skill)
    advice = facts.advice(ws, ADVICE)
    if advice is not None:  # style advice: opt-in rules, each run only where selected
        if ws.wants(SKL022.code):
            yield from long_skill_body.check(skill, advice)
        if ws.wants(SKL023.code):
            yield from backslash_path.check(skill, advice)
        if ws.wants(SKL024.code):
            yield from vague_skill_name.check(skill, advice)
        if ws.wants(SKL025.code):
            yield from description_voice.check(skill, advice)
        if skill.claude_code and ws.wants(SKL026.code):
            yield from arguments_without_hint.check(skill)
        if ws.wants(SKL027.code):
            yield from nested_reference.check(ws, skill, advice)
