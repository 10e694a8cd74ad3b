"""The agent facts are data (resources/agents/*.toml): each fact with its source,
version, date and confirmation; the CLI's cheap list of agents, the schema and the
generated docs/agent-table.md agree with it."""

from __future__ import annotations

import datetime
import importlib.util
import json
from pathlib import Path

import pytest
from conftest import REPO_ROOT
from hypothesis import given, settings
from hypothesis import strategies as st

from memcheck import agents, choices
from memcheck.agents import facts
from memcheck.hooks.agents import listing, table_markdown

_spec = importlib.util.spec_from_file_location("docs_generate", REPO_ROOT / "docs" / "generate.py")
assert _spec and _spec.loader
generate = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(generate)


def test_the_cli_list_of_agents_is_the_data_s() -> None:
    assert tuple(a.id for a in agents.load()) == choices.AGENTS


def test_the_schema_offers_every_agent_of_the_data() -> None:
    schema = json.loads((REPO_ROOT / "src" / "memcheck" / "resources" / "config.schema.json").read_text())
    assert tuple(schema["properties"]["agents"]["items"]["enum"]) == tuple(a.id for a in agents.load())


def _every_provenance() -> list[tuple[str, agents.Provenance]]:
    found: list[tuple[str, agents.Provenance]] = []
    for a in agents.load():
        found.append((a.id, a.provenance))
        found.append((f"{a.id} imports", a.imports_provenance))
        found += [(f"{a.id} reads {sorted(r.kinds)}", r.provenance) for r in a.reads]
        found += [(f"{a.id} setting {s.key}", s.provenance) for s in a.settings]
        found += [(f"{a.id} loads {lo.globs}", lo.provenance) for lo in a.loads]
        found += [(f"{a.id} file {k.kind}", k.provenance) for k in a.files]
        if a.skills_provenance is not None:
            found.append((f"{a.id} skills", a.skills_provenance))
    return found


@pytest.mark.parametrize(("where", "fact"), _every_provenance(), ids=lambda v: v if isinstance(v, str) else "")
def test_every_fact_names_its_source_and_when_it_was_checked(where: str, fact: agents.Provenance) -> None:
    assert fact.source.startswith(("https://", "release ")), where
    # A real date, and not one still to come: a fact cannot have been checked tomorrow.
    assert datetime.date(2024, 1, 1) <= datetime.date.fromisoformat(fact.checked) <= datetime.date.today(), where
    assert fact.version == "docs" or fact.version[0].isdigit(), where


def test_every_kind_a_rule_names_is_defined_once() -> None:
    defined = {k.kind for k in facts.file_kinds()}
    named = {k for a in agents.load() for r in a.reads for k in r.kinds}
    assert named <= defined


def test_other_top_level_tables_pass_through_untouched() -> None:
    kinds = [{"id": "claude-subagent", "globs": [".claude/agents/**/*.md"], "keys": {"name": {"type": "string", "required": True}}}]
    data = {"agent": {"id": "x", "title": "X", "source": "https://x.invalid", "checked": "2026-11-27"}, "kinds": kinds}
    assert facts.parse(data, "x.toml").extra == {"kinds": kinds}


@pytest.mark.parametrize(
    "bad",
    [
        pytest.param({"title": "X", "checked": "2026-11-27"}, id="no-source"),
        pytest.param(
            {"title": "X", "source": "https://x.invalid", "checked": "2026-11-27", "confirmed": "yes"}, id="confirmed-not-a-boolean"
        ),
    ],
)
def test_a_fact_without_its_provenance_is_refused(bad: dict[str, object]) -> None:
    with pytest.raises(facts.FactsError):
        facts.parse({"agent": {"id": "x", **bad}}, "x.toml")


def test_a_read_rule_with_an_unknown_certainty_is_refused() -> None:
    head = {"id": "x", "title": "X", "source": "https://x.invalid", "checked": "2026-11-27"}
    with pytest.raises(facts.FactsError, match="sure must be one of"):
        facts.parse({"agent": head, "reads": [{"kinds": ["AGENTS.md"], "sure": "always"}]}, "x.toml")


def test_docs_agents_md_is_generated_from_the_data() -> None:
    page = REPO_ROOT / "docs" / "agent-table.md"
    assert page.read_text(encoding="utf-8") == table_markdown(), f"docs/agent-table.md is out of date; regenerate it: {generate.REGENERATE}"
    assert not generate.agents_page_stale(page)


def test_the_table_and_the_listing_name_every_agent_and_what_it_reads() -> None:
    page = table_markdown()
    for entry in listing():
        assert f"## {entry['title']} (`{entry['id']}`)" in page
        reads = entry["reads"]
        assert isinstance(reads, list) and reads
        assert all(f"`{r['files']}`" in page for r in reads)
    claude = next(e for e in listing() if e["id"] == "claude-code")
    assert isinstance(claude["reads"], list)
    agents_md = next(r for r in claude["reads"] if r["files"] == "AGENTS.md")
    assert "2.1.277+" in agents_md["when"] and agents_md["version"] == "2.1.277"


def test_the_default_index_caps_are_claude_code_s_memory_caps() -> None:
    from memcheck import config

    memory = agents.agent(agents.CLAUDE_CODE).memory
    caps = config.defaults()["index"]
    assert (caps["max-lines"], caps["max-bytes"]) == (memory["max_lines"], memory["max_bytes"])


_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.text(max_size=8)
    | st.sampled_from(["reads", "maybe", "no", "AGENTS.md", "2026-11-27", "https://x.invalid"]),
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.dictionaries(
            st.sampled_from(["id", "title", "source", "checked", "sure", "kinds", "why", "version", "confirmed", "roots"]),
            inner,
            max_size=5,
        )
    ),
    max_leaves=12,
)


@settings(max_examples=200, deadline=None)
@given(
    data=st.dictionaries(
        st.sampled_from(["agent", "imports", "skills", "reads", "settings", "loads", "files", "kinds"]), _VALUES, max_size=5
    )
)
def test_any_data_file_is_loaded_or_refused_with_a_facts_error(data: dict[str, object]) -> None:
    # A hand-edited data file never crashes the loader: it loads, or says what is wrong.
    try:
        facts.parse(data, "x.toml")
    except facts.FactsError:
        pass


def test_the_compiled_agent_data_is_the_toml_files() -> None:
    """memcheck reads resources/agents.json, written from the TOML files by
    `python docs/generate.py`: a TOML edit without it fails here."""
    compiled = Path(facts.COMPILED)
    assert compiled.read_text(encoding="utf-8") == facts.compiled_text(), "resources/agents.json is out of date: python docs/generate.py"


def test_the_facts_are_the_same_read_from_either(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from_json = facts.load()
    monkeypatch.setattr(facts, "COMPILED", str(tmp_path / "missing.json"))
    facts.load.cache_clear()
    try:
        assert facts.load() == from_json
    finally:
        facts.load.cache_clear()
