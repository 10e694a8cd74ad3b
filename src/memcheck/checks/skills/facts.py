"""What several SKL rules read of one skill file, gathered once by the family's pass.

``read`` builds a ``SkillFile`` for a skill whose frontmatter parsed (the rules after
SKL003's gate): its fields, the folder its name must match, and Claude Code's view of
it (the claude-skill kind of the agent data, whether Claude Code loads the skill, and
what that kind's schema finds wrong in its values, judged once for SKL007 and SKL014).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Mapping

from memcheck import agents
from memcheck.agents import kinds as agentkinds
from memcheck.paths import basename, join, parent
from memcheck.records import NamedTuple
from memcheck.workspace.skills import SKILL_NAME, agent_roots_seeing, json_file, other_agents_skills_at, skills_root

if TYPE_CHECKING:
    from memcheck.text.document import Document
    from memcheck.text.frontmatter_reading import Frontmatter
    from memcheck.workspace.discover import Workspace

# Claude Code's own skill keys and the values they take are agent data (the
# claude-skill kind of resources/agents/claude-code.toml): a key near one of them is
# a misspelling.
CLAUDE_SKILL = "claude-skill"
# The keys the Agent Skills specification defines (agentskills.io/specification).
SPEC_KEYS = frozenset({"name", "description", "license", "compatibility", "metadata", "allowed-tools"})

# A skill every rule passes: the *Use instead* of SKL002 and SKL006.
EXAMPLE_OK = """```markdown
---
name: run-tests
description: Run the project's test suite and report failures. Use when asked to test a change.
triggers:
  - "run tests"
  - "/test"
---
```"""


class SkillFile(NamedTuple):
    """A skill file whose frontmatter is a YAML mapping (agents with a YAML parser see
    its fields)."""

    doc: Document
    frontmatter: Frontmatter
    data: Mapping[str, object]
    folder: str  # the name of a SKILL.md's folder, which its name must equal; "" for a flat skill
    claude: agentkinds.Kind  # Claude Code's skill kind
    claude_code: bool  # Claude Code loads the skill
    issues: tuple[agentkinds.Issue, ...]  # the claude kind's findings in the values, for a skill Claude Code loads

    @property
    def path(self) -> str:
        return self.doc.path

    def line_of(self, key: str) -> int:
        """The line of ``key`` in the frontmatter, or its first line."""
        return self.frontmatter.key_lines.get(key, 1)


def read(ws: Workspace, doc: Document, claude: agentkinds.Kind) -> SkillFile | None:
    """The facts of ``doc``, or None when its frontmatter is missing or not YAML
    (agents with a YAML parser see no fields at all: SKL002 or SKL003 says why)."""
    fm = doc.frontmatter
    if fm is None or fm.yaml_error is not None:
        return None
    path = doc.path
    folder = basename(parent(path)) if basename(path) == SKILL_NAME else ""
    claude_code = claude_code_skill(ws, path)
    issues = tuple(agentkinds.validate(claude, fm.data)) if claude_code else ()
    return SkillFile(doc, fm, fm.data, folder, claude, claude_code, issues)


def readers(ws: Workspace, skill: SkillFile) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The agents that load ``skill`` (the agent data's skill folders holding it, by
    its own path or a link or copy beside it, and Claude Code for a plugin's skill),
    and those folders. Asked only of a skill whose keys need it: each folder beside
    its own is a question of the tree."""
    folders = tuple(sorted(agent_roots_seeing(ws, skill.path)))
    found = {a for folder in folders for a in agents.skill_agents(folder)}
    if skill.claude_code:
        found.add(agents.CLAUDE_CODE)
    order = {a.id: i for i, a in enumerate(agents.load())}
    return tuple(sorted(found, key=order.__getitem__)), folders


def named_after_folder(ws: Workspace, skill: SkillFile) -> bool:
    """Whether every agent that loads ``skill`` names it after its folder where it has
    no ``name`` (the agent data's ``name_from_folder``, confirmed): the name is then
    no agent's need. False where no agent's folder holds the skill (whoever reads it
    is not known)."""
    loaders, _ = readers(ws, skill)
    return bool(loaders) and all(
        (k := agents.agent(a).skill_keys) is not None and k.provenance.confirmed and k.name_from_folder for a in loaders
    )


def keys_read(agent_id: str) -> frozenset[str] | None:
    """The frontmatter keys ``agent_id`` reads in a skill, from its ``[skills.keys]``
    (None: not in the data, or not confirmed by a primary source)."""
    known = agents.agent(agent_id).skill_keys
    if known is None or not known.provenance.confirmed:
        return None
    extra = agentkinds.by_id(known.kind).keys if known.kind else ()
    return frozenset(known.names).union(extra, SPEC_KEYS if known.kind else ())


class Advice(NamedTuple):
    """Anthropic's guidance for skill authors, as the agent data holds it."""

    max_body_lines: int
    vague_names: frozenset[str]
    first_person: tuple[str, ...]
    second_person: tuple[str, ...]
    triggers: tuple[str, ...]
    trigger_openings: tuple[str, ...]  # a sentence opening with one of them is a trigger
    source: str


def advice(ws: Workspace, codes: tuple[str, ...]) -> Advice | None:
    """The authoring guidance, where one of the rules that apply it (``codes``,
    opt-in: style advice) is on and the agent data holds it."""
    if not ws.wants(*codes):
        return None
    found = agents.authoring(agents.CLAUDE_CODE)
    if found is None:
        return None
    table, where = found

    def words(key: str) -> tuple[str, ...]:
        value = table.get(key)
        return tuple(str(v) for v in value) if isinstance(value, list) else ()

    limit = table.get("max_body_lines")
    return Advice(
        limit if isinstance(limit, int) else 0,
        frozenset(words("vague_names")),
        words("first_person"),
        words("second_person"),
        words("triggers"),
        words("trigger_openings"),
        where.source,
    )


def claude_code_skill(ws: Workspace, path: str) -> bool:
    """A skill Claude Code loads: in a .claude/skills folder, a Claude Code plugin's
    skills/, or the skills/ of a copy of the home folder's .claude (not in
    .agents/skills, which Claude Code does not read)."""
    root = skills_root(path)
    if agents.CLAUDE_CODE in agents.skill_agents(join(basename(parent(root)), basename(root))):
        return True
    if any(ws.is_file(join(parent(root), manifest)) for manifest in agents.plugin_manifests()):
        return True
    return basename(path) == SKILL_NAME and home_copy_of(ws, root) == agents.CLAUDE_CODE


def home_copy_of(ws: Workspace, root: str) -> str | None:
    """The agent whose home folder holds the skills folder ``root`` in a copy of it,
    as dotfiles repositories keep one (at their root, or in a folder the settings name
    a skills root): the files the agent keeps beside its skills folder there (Claude
    Code's CLAUDE.md and settings.json) are in the repository, regular files, and the
    settings file is the agent's (it holds one of the agent's own settings: an
    application's settings.json beside a skill collection holds none), and the
    repository holds no skills folder of another agent, at any depth, nor a link
    named like one (another agent may load the copy's skills through it: told from
    the listing, which a commit's staged tree and a link's target on disk cannot
    change). None for any other folder. Asked once per skills folder a run (a skill
    collection of thousands beside one settings file reads and parses it once)."""
    known = ws.once(_home_copy_answers)
    if root not in known:
        known[root] = _home_copy_of(ws, root)
    return known[root]


def _home_copy_answers(ws: Workspace) -> dict[str, str | None]:
    return {}  # filled by home_copy_of, one skills folder at a time


def _home_copy_of(ws: Workspace, root: str) -> str | None:
    for copy in agents.home_copies():
        if basename(root) != copy.skills:
            continue
        folder = parent(root)
        beside = [join(folder, name) for name in copy.files]
        # Listed (a file git ignores is no part of the repository) and no link out of it.
        if not all(path in ws.file_set and ws.is_file(path) for path in beside):
            continue
        if not all(_agents_settings(json_file(ws, path), copy) for path in beside if path.endswith(".json")):
            continue
        # (Last: the one look through the whole tree, for a folder that is a copy otherwise.)
        return None if ws.once(_holds_other_agents_skills) else copy.agent
    return None


def _holds_other_agents_skills(ws: Workspace) -> bool:
    """Whether a path of the tree lies in, or is named like, a skills folder of an
    agent other than the one whose home a copy copies (`.agents/skills`,
    `.github/skills`, `sub/.agents/skills/x`, a link `.agents` or `.agents/skills`), in
    any case (a file system that ignores case opens `.Agents/skills` as one), the files
    the settings exclude from checking included (an agent loads them all the same)."""
    return any(other_agents_skills_at(path) for path in ws.tree_files)


def _agents_settings(held: object, copy: agents.HomeCopy) -> bool:
    if not isinstance(held, dict):
        return False
    schema = held.get("$schema")
    return not copy.settings_keys.isdisjoint(held) or (isinstance(schema, str) and copy.schema in schema)
