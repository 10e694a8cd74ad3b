"""What the guidance rules read of one file, worked out once for all of them."""

from __future__ import annotations

from functools import cached_property
from typing import TYPE_CHECKING, Collection, Iterator, Mapping

from memcheck.agents import guidance_kinds, guidance_model
from memcheck.checks.guidance.globs import GDN008

if TYPE_CHECKING:
    from memcheck import agents
    from memcheck.agents import kinds as agentkinds
    from memcheck.agents.expansion import Reach
    from memcheck.problem import Problem, Rule
    from memcheck.text.document import Document
    from memcheck.workspace.discover import Workspace


class GuidanceFile:
    """One guidance file (or an instructions file only the agent data knows, with no
    ``kind`` or ``schema``), and the facts several of the family's rules read.

    Each fact is worked out when a rule first asks for it, in the order the family's
    pass asks, as the pass did before there was a record: ``problem.contained`` keeps
    the findings made before a file exhausts the stack, so a fact worked out earlier
    (the @-import chains, which recurse) would lose them."""

    def __init__(
        self, ws: Workspace, doc: Document, kind: str | None, agent_kind: agentkinds.Kind | None, schema: agents.Frontmatter | None
    ) -> None:
        self.ws = ws
        self.doc = doc
        self.kind = kind  # memcheck.agents' kind of the file (None: not a guidance file of theirs)
        self.agent_kind = agent_kind  # the agent data's kind, whose schema file_issues judges
        self.schema = schema  # the frontmatter schema of ``kind``

    @cached_property
    def issues(self) -> tuple[guidance_kinds.KindIssue, ...]:
        """``guidance_kinds.file_issues``, once: each rule takes the issues its ``WHAT`` names."""
        ws = self.ws
        return tuple(guidance_kinds.file_issues(ws, self.agent_kind, self.doc, not ws.user and ws.wants(GDN008.code)))

    def findings_of(self, by_what: Mapping[str, Rule], only: Collection[str] | None = None) -> Iterator[Problem]:
        """The findings of the issues ``by_what`` names (and ``only`` keeps), in their order."""
        for issue in self.issues:
            if issue.what in by_what and (only is None or issue.what in only):
                yield by_what[issue.what].at(self.doc.path, issue.line, 1, issue.message)

    @cached_property
    def read_by(self) -> dict[str, int]:
        """How sure it is that each configured agent reads the file."""
        return guidance_model.readers(self.ws, self.doc.path)

    @cached_property
    def _reach(self) -> tuple[Reach, bool]:
        return guidance_model.followed_imports(self.ws, self.doc.path, self.read_by)

    @property
    def reached(self) -> Reach:
        """What the file's @-imports bring in (``guidance_model.followed_imports``)."""
        return self._reach[0]

    @property
    def followed(self) -> bool:
        """Whether anything follows the file's @-imports: an agent that reads it, or the house limit."""
        return self._reach[1]
