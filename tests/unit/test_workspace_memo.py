"""``Workspace.once``: one value per module-level function, and what a workspace made
again on the same listing takes over (the language server makes one per edit)."""

from __future__ import annotations

from pathlib import Path

import pytest

from memcheck import config as settings_of
from memcheck.text.document import Document, OfContent
from memcheck.workspace.discover import Workspace
from memcheck.workspace.memo import LISTING, MODEL, SKILLS, basis_of, kept_with
from memcheck.workspace.memory import MemorySource

FILES = {"AGENTS.md": b"# Team\n", "src/AGENTS.md": b"# Source\n"}
CALLS: list[str] = []


@kept_with(LISTING)
def _guidance_count(ws: Workspace) -> int:
    CALLS.append("listing")
    return len(ws.guidance)


def _guidance_text(ws: Workspace) -> str:  # worked out from the files' text: declares no basis
    CALLS.append("text")
    return "".join(ws.document(p).text for p in ws.guidance)


def _workspace(settings: settings_of.Config, files: dict[str, bytes] = FILES) -> Workspace:
    return Workspace(settings, MemorySource(dict(files)))


@pytest.fixture
def settings() -> settings_of.Config:
    return settings_of.from_mapping(Path("/nonexistent/memcheck-memo"), settings_of.defaults())


def test_once_works_a_value_out_once_per_workspace(settings: settings_of.Config) -> None:
    CALLS.clear()
    ws = _workspace(settings)
    assert ws.once(_guidance_count) == ws.once(_guidance_count) == 2
    assert CALLS == ["listing"]


def test_a_value_of_the_listing_alone_is_taken_over_and_any_other_is_worked_out_again(settings: settings_of.Config) -> None:
    before = _workspace(settings)
    before.once(_guidance_count)
    before.once(_guidance_text)
    CALLS.clear()
    after = _workspace(settings, {**FILES, "AGENTS.md": b"# Team, edited\n"})  # same listing, other text
    after.reuse_listing(before)
    assert after.once(_guidance_count) == 2
    assert after.once(_guidance_text) == "# Team, edited\n# Source\n"
    assert CALLS == ["text"]


def test_a_listing_that_changed_takes_nothing_over(settings: settings_of.Config) -> None:
    before = _workspace(settings)
    before.once(_guidance_count)
    CALLS.clear()
    after = _workspace(settings, {**FILES, "docs/AGENTS.md": b"# Docs\n"})
    after.reuse_listing(before)
    assert after.once(_guidance_count) == 3
    assert CALLS == ["listing"]


def test_a_lambda_is_refused_as_a_key(settings: settings_of.Config) -> None:
    with pytest.raises(TypeError, match="module level"):
        _workspace(settings).once(lambda ws: 1)


def test_each_basis_is_read_off_the_function_that_declares_it() -> None:
    from memcheck.checks.agent_reading import local_file_hides_agents_md, skill_out_of_sight
    from memcheck.engine import targets
    from memcheck.workspace import agentfiles

    assert basis_of(agentfiles._find) == basis_of(targets._configs_below_root) == LISTING
    assert basis_of(skill_out_of_sight._skill_roots) == SKILLS
    assert basis_of(local_file_hides_agents_md.check_once) == MODEL
    assert basis_of(_guidance_text) is None


def test_a_basis_is_a_basis_not_a_string() -> None:
    # A misspelt basis is a name that does not exist (an import error); a string, which
    # would never match one, is refused where the key is declared.
    with pytest.raises(TypeError, match="takes a Basis"):
        kept_with("listing")  # type: ignore[arg-type]


def test_a_kept_key_is_called_and_named_as_its_function(settings: settings_of.Config) -> None:
    assert _guidance_count.__qualname__ == "_guidance_count" and _guidance_count.__module__ == __name__
    ws = _workspace(settings)
    assert _guidance_count(ws) == 2
    assert ws.known(_guidance_count) is None
    ws.preset(_guidance_count, 5)
    assert ws.once(_guidance_count) == ws.known(_guidance_count) == 5


def test_a_kept_nested_function_is_refused_as_a_key(settings: settings_of.Config) -> None:
    @kept_with(LISTING)
    def nested(ws: Workspace) -> int:
        return 1

    with pytest.raises(TypeError, match="module level"):
        _workspace(settings).once(nested)


@OfContent
def _heading_of(ws: Workspace, doc: Document) -> str:
    CALLS.append(doc.path)
    return doc.text.partition("\n")[0]


def test_a_value_of_a_files_content_is_a_typed_key_worked_out_once_per_document(settings: settings_of.Config) -> None:
    CALLS.clear()
    ws = _workspace(settings)
    team = ws.document("AGENTS.md")
    heading: str = ws.derived(team, _heading_of)  # the type is the function's
    assert heading == ws.derived(team, _heading_of) == "# Team"
    assert ws.derived(ws.document("src/AGENTS.md"), _heading_of) == "# Source"
    assert CALLS == ["AGENTS.md", "src/AGENTS.md"]
    assert _heading_of.name == f"{__name__}._heading_of"  # what a store's kept values know it by


def test_a_value_of_content_made_from_a_lambda_is_refused_as_a_key(settings: settings_of.Config) -> None:
    ws = _workspace(settings)
    with pytest.raises(TypeError, match="define it at module level"):
        ws.derived(ws.document("AGENTS.md"), OfContent(lambda ws, doc: doc.text))
