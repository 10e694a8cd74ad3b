"""The deterministic index: byte-compatibility oracles and properties (SPEC §5)."""

from __future__ import annotations

import random
import re
import string
import tempfile
from datetime import datetime
from pathlib import Path

import pytest
from conftest import git, memory, write
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from memcheck import config as config_mod
from memcheck.index.links import classify, links, readings
from memcheck.index.memory import Memory, reads_sentence
from memcheck.index.plan import GENERATE, SYNC
from memcheck.index.render import FLAT, FLAT_EMDASH, GROUPED, STYLES, render
from memcheck.index.store import store_plan
from memcheck.index.survey import listed_files
from memcheck.index.sync import sync
from memcheck.text.mentions import mask_line
from memcheck.workspace.discover import Workspace

# --------------------------------------------------------------------------
# Oracle 1: seed 003's MemoryManager, transcribed verbatim (only `self` removed).


class SeedMemoryManager:
    VALID_TYPES = {"user", "feedback", "project", "reference"}

    def __init__(self, memory_dir: Path):
        self.dir = memory_dir
        self.index_path = memory_dir / "MEMORY.md"

    @staticmethod
    def _parse_frontmatter(text: str) -> tuple[dict, str]:  # type: ignore[type-arg]
        match = re.match(r"^---\n(.*?)\n---\n(.*)", text, re.DOTALL)
        if not match:
            return {}, text
        meta = {}
        for line in match.group(1).strip().splitlines():
            if ":" in line:
                key, val = line.split(":", 1)
                meta[key.strip()] = val.strip()
        return meta, match.group(2).strip()

    def write_file(self, filename: str, name: str, description: str, memory_type: str, content: str) -> None:
        path = self.dir / filename
        today = datetime.now().strftime("%Y-%m-%d")
        text = f"---\nname: {name}\ndescription: {description}\ntype: {memory_type}\nupdated: {today}\n---\n\n{content}\n"
        path.write_text(text)

    def _rebuild_index(self) -> None:
        files = sorted(self.dir.glob("*.md"))
        sections: dict[str, list[str]] = {}
        for f in files:
            if f.name == "MEMORY.md":
                continue
            meta, _ = self._parse_frontmatter(f.read_text())
            mtype = meta.get("type", "other")
            desc = meta.get("description", f.stem)
            name = meta.get("name", f.stem)
            if mtype not in sections:
                sections[mtype] = []
            sections[mtype].append(f"- [{name}]({f.name}) - {desc}")

        lines = ["# Memory\n"]
        type_labels = {
            "user": "User",
            "feedback": "Feedback",
            "project": "Project",
            "reference": "Reference",
            "other": "Other",
        }
        for mtype in ["user", "feedback", "project", "reference", "other"]:
            if mtype in sections:
                lines.append(f"## {type_labels.get(mtype, mtype)}")
                lines.extend(sections[mtype])
                lines.append("")

        self.index_path.write_text("\n".join(lines).strip() + "\n")


# Oracle 2: the nano-claude-code renderer as SPEC §5 describes it.
def nano_claude_index(memory_dir: Path) -> str:
    lines = []
    for f in sorted(memory_dir.glob("*.md")):
        if f.name == "MEMORY.md":
            continue
        meta, _ = SeedMemoryManager._parse_frontmatter(f.read_text())
        lines.append(f"- [{meta.get('name', f.stem)}]({f.name}) \u2014 {meta.get('description', '')}")
    return "\n".join(lines) + ("\n" if lines else "")


# --------------------------------------------------------------------------
# Generated stores: what an agent's write_file produces for valid input.

_slug = st.text(alphabet=string.ascii_lowercase + string.digits + "_-", min_size=1, max_size=24).filter(lambda s: s[0] not in "-_")
# One-line values an agent would write. Brackets, backslashes, backticks and `<` are
# left out of names because memcheck escapes them (SPEC §5: an unpaired backtick or a
# `<` opening a tag or an autolink would break the link) where the seed writes them raw, and
# values that open a YAML quoted or block scalar, a flow collection (`{`, `[`: one
# may run on into the next line, `name: {` / `description: }`), an anchor or a tag
# are left out of both, since for those memcheck prints what YAML reads rather than
# the text after the colon.
_value_chars = st.characters(blacklist_categories=("Cs", "Cc", "Zl", "Zp"), blacklist_characters="\n\r\x85")
_text = st.text(alphabet=_value_chars, min_size=1, max_size=60).map(str.strip).filter(lambda s: bool(s) and s[0] not in "\"'|>{[&!")
_name = _text.filter(lambda s: not set(s) & set("[]\\`<"))
_memory = st.tuples(_slug, _name, _text, st.sampled_from(sorted(SeedMemoryManager.VALID_TYPES)))
_stores = st.lists(_memory, min_size=0, max_size=12, unique_by=lambda m: m[0])


def _workspace(root: Path) -> Workspace:
    return Workspace(config_mod.default_config(root))


def _render_via_memcheck(root: Path, folder: str, style: str) -> str:
    cfg = config_mod.default_config(root)
    cfg = config_mod.from_mapping(
        root, {**config_mod.defaults(), "index": {**config_mod.defaults()["index"], "style": style, "mode": "generate"}}
    )
    ws = Workspace(cfg)
    store = next(s for s in ws.stores if s.folder == folder)
    return store_plan(ws, store, None).text


SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(_stores)
@pytest.mark.slow  # a property test: seconds of examples
def test_grouped_equals_seed_003_rebuild_index(store: list[tuple[str, str, str, str]]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        mem = root / ".memory"
        mem.mkdir()
        seed = SeedMemoryManager(mem)
        for stem, name, desc, kind in store:
            seed.write_file(f"{stem}.md", name, desc, kind, "content")
        if not store:
            (mem / "note.md").write_text("no frontmatter\n")  # a store needs a file to exist
        seed._rebuild_index()
        expected = seed.index_path.read_text()
        assert _render_via_memcheck(root, ".memory", GROUPED) == expected


@SETTINGS
@given(_stores, st.booleans())
@pytest.mark.slow  # a property test: seconds of examples
def test_flat_emdash_equals_nano_claude_renderer(store: list[tuple[str, str, str, str]], undescribed: bool) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        mem = root / ".nano_claude" / "memory"
        mem.mkdir(parents=True)
        seed = SeedMemoryManager(mem)
        for stem, name, desc, kind in store:
            seed.write_file(f"{stem}.md", name, desc, kind, "content")
        seed.write_file("zz-last.md", "Last", "always one", "user", "content")  # a store needs a file to exist
        expected = nano_claude_index(mem)
        if undescribed:
            # A file without a description: the agent writes "- [stem](file.md) — ",
            # ending in a space; memcheck drops the separator, so that the common
            # trailing-whitespace hook and `fix` never undo each other. Every other
            # line is the agent's, byte for byte.
            (mem / "zz-no-frontmatter.md").write_text("plain\n")
            expected = nano_claude_index(mem)
            assert expected.count(" \u2014 \n") == 1  # descriptions are never empty otherwise
            expected = expected.replace(" \u2014 \n", "\n")
        assert _render_via_memcheck(root, ".nano_claude/memory", FLAT_EMDASH) == expected


def test_empty_store_renders_an_empty_flat_emdash_index_and_a_bare_grouped_one() -> None:
    assert render(FLAT_EMDASH, [], ("user",)) == ""
    assert render(GROUPED, [], ("user",)) == "# Memory\n"


@pytest.mark.parametrize(
    ("name", "filename", "expected"),
    [
        pytest.param("a [b] c", "x.md", "- [a \\[b\\] c](x.md) \u2014 d", id="brackets-in-name"),
        pytest.param("n", "my file (1).md", "- [n](my%20file%20%281%29.md) \u2014 d", id="space-and-parens-in-target"),
    ],
)
def test_markdown_breaking_names_and_targets_are_escaped(name: str, filename: str, expected: str) -> None:
    m = Memory(filename, name, "d", "user")
    assert render(FLAT_EMDASH, [m], ("user",)) == expected + "\n"
    (link,) = links(expected, 1)
    assert classify(link.target, "")[1] == filename


@settings(max_examples=500, deadline=None)
@given(st.text(st.characters(blacklist_categories=("Cs",)), min_size=1, max_size=20), st.text(max_size=12), st.text(max_size=12))
@example("~home.md", "n", "d")
@example("c:notes.md", "n", "d")
@example("#top.md", "n", "d")
@example("line\nbreak.md", "two\nlines", "ends in space ")
@pytest.mark.slow  # a property test: seconds of examples
def test_an_entry_fix_writes_reads_back_as_its_file_on_one_line(filename: str, name: str, description: str) -> None:
    # Whatever the file is called (`#`, `?`, `%`, spaces, brackets, line breaks), the
    # entry is one line, links to that file as read whole, and ends in no whitespace.
    line = render(FLAT_EMDASH, [Memory(filename, name, description, "user")], ("user",)).rstrip("\n")
    assert "\n" not in line and line == line.rstrip()
    (link, *_more) = links(line, 1)
    assert readings(link.target)[0][0] == filename
    # and the link is one to a reader that blanks code spans and comments (a backtick
    # or `<!--` in the name opens nothing that would swallow it)
    assert [x.col for x in links(mask_line(line, False)[0], 1)][:1] == [link.col]
    assert classify(link.target, "", {filename}.__contains__) == ("local", filename) or filename in (".", "..") or "/" in filename


@SETTINGS
@given(_stores, st.randoms(use_true_random=False))
@pytest.mark.slow  # a property test: seconds of examples
def test_render_does_not_depend_on_file_creation_order(store: list[tuple[str, str, str, str]], rnd: random.Random) -> None:
    outputs = []
    for _attempt in range(2):
        with tempfile.TemporaryDirectory() as tmp:
            root = Path(tmp)
            order = list(store)
            rnd.shuffle(order)
            for stem, name, desc, kind in order:
                write(root, f".memory/{stem}.md", memory(name, desc, kind))
            write(root, ".memory/index-less.md", "x\n")
            outputs.append(tuple(_render_via_memcheck(root, ".memory", s) for s in STYLES))
    assert outputs[0] == outputs[1]


# --------------------------------------------------------------------------
# sync mode


_curated_line = st.one_of(
    st.sampled_from(["# Project memory", "## Topics", "Some notes about the project.", "", "| a | b |"]),
    _slug.map(lambda s: f"- [{s}]({s}.md) \u2014 hand-written hook"),
    _slug.map(lambda s: f"- see [{s}]({s}.md) and [other](other.md)"),
    _slug.map(lambda s: f"- read `{s}.md` first"),  # a code span that holds the file name lists it
)


@SETTINGS
@given(st.lists(_curated_line, max_size=15), st.lists(_slug, max_size=8, unique=True))
def test_sync_never_drops_a_line_whose_link_target_exists(lines: list[str], present: list[str]) -> None:
    existing = {f"{s}.md" for s in present} | {"MEMORY.md"}
    memories = [Memory(f"{s}.md", s, "d", "user") for s in present]
    text = "\n".join(lines) + "\n"
    out, _ = sync(text, memories, existing.__contains__, FLAT_EMDASH)
    out_lines = out.split("\n")
    for line in lines:
        targets = [ln.target for ln in links(line, 1)]
        if any(t in existing for t in targets) or not targets:
            assert line in out_lines
    # and every memory is listed afterwards, the ones a code span lists with no second entry
    assert {m.filename for m in memories} <= listed_files(out, memories)
    for name in {f"{s}.md" for s in present if f"`{s}.md`" in text}:
        assert out.count(f"({name})") == text.count(f"({name})")
    # sync is idempotent
    assert sync(out, memories, existing.__contains__, FLAT_EMDASH)[0] == out


def test_sync_removes_dead_entries_and_appends_missing_ones_under_a_final_heading() -> None:
    # The entries are spread over the sections (no section lists most of them): the
    # new one goes under a final heading of its own.
    text = "# Notes\n\n## Topics\n- [Old](gone.md) \u2014 removed\n- [Kept](kept.md) \u2014 hook\n\n## Tools\n- [Vim](vim.md) \u2014 editor\n\nfree text\n"
    memories = [
        Memory("kept.md", "Kept", "k", "feedback"),
        Memory("vim.md", "Vim", "v", "feedback"),
        Memory("new.md", "New one", "fresh", "user"),
    ]
    out, _ = sync(text, memories, {"kept.md", "vim.md", "new.md", "MEMORY.md"}.__contains__, FLAT_EMDASH)
    assert out == (
        "# Notes\n\n## Topics\n- [Kept](kept.md) \u2014 hook\n\n## Tools\n- [Vim](vim.md) \u2014 editor\n\nfree text\n\n## Other\n- [New one](new.md) \u2014 fresh\n"
    )
    # One section lists most of them: the new one joins it.
    text = "# Notes\n\n## Topics\n- [Kept](kept.md) \u2014 hook\n- [Vim](vim.md) \u2014 editor\n\nfree text\n"
    out, _ = sync(text, memories, {"kept.md", "vim.md", "new.md", "MEMORY.md"}.__contains__, FLAT_EMDASH)
    assert (
        out
        == "# Notes\n\n## Topics\n- [Kept](kept.md) \u2014 hook\n- [Vim](vim.md) \u2014 editor\n- [New one](new.md) \u2014 fresh\n\nfree text\n"
    )


def test_marker_block_is_the_only_part_regenerated(repo: Path) -> None:
    before = "# Team notes\nKeep this.\n<!-- memcheck:start -->\nstale\n<!-- memcheck:end -->\nTrailer  \n"
    write(repo, ".memory/MEMORY.md", before)
    write(repo, ".memory/a.md", memory("A", "first", "user"))
    ws = _workspace(repo)
    (store,) = ws.stores
    plan = store_plan(ws, store, before)
    assert plan.mode == GENERATE
    assert (
        plan.text
        == "# Team notes\nKeep this.\n<!-- memcheck:start -->\n# Memory\n\n## User\n- [A](a.md) - first\n<!-- memcheck:end -->\nTrailer  \n"
    )


@pytest.mark.parametrize(
    ("existing", "mode", "style"),
    [
        pytest.param(None, GENERATE, GROUPED, id="no-index"),
        pytest.param("# Memory\n\n## User\n- [A](a.md) - first\n", GENERATE, GROUPED, id="pure-grouped"),
        pytest.param("- [A](a.md) \u2014 first\n", GENERATE, FLAT_EMDASH, id="pure-emdash"),
        pytest.param("- [A](a.md) - first\n", GENERATE, FLAT, id="pure-flat"),
        pytest.param("# My memory\n\nNotes first.\n- [A](a.md) \u2014 first\n", SYNC, FLAT_EMDASH, id="curated"),
    ],
)
def test_automatic_mode_and_style(repo: Path, existing: str | None, mode: str, style: str) -> None:
    write(repo, ".memory/a.md", memory("A", "first", "user"))
    if existing is not None:
        write(repo, ".memory/MEMORY.md", existing)
    git(repo, "add", "-A")
    ws = _workspace(repo)
    (store,) = ws.stores
    plan = store_plan(ws, store, existing)
    assert (plan.mode, plan.style) == (mode, style)
    assert mode in plan.reason and style in plan.reason


_PIECES = st.sampled_from(
    [
        "# Memory",
        "## User",
        "## Project",
        "## Other",
        "",
        "  ",
        "- [A](a.md)",
        "- [A](a.md) - one",
        "- [B \\] c](b.md) \u2014 two",
        "- [C](c.md) -",
        "- [D](d.md) \u2014",
        "text",
        "- [E](e.md) - x \u2014 y",
    ]
)


@settings(max_examples=400)
@given(st.lists(_PIECES, max_size=8))
def test_an_index_of_one_style_alone_is_detected_as_that_style(lines: list[str]) -> None:
    # plan() takes a pure style as the detected one without detecting it line by line.
    from memcheck.index.render import detect_style, pure_style

    types = ("user", "project")
    pure = pure_style(lines, types)
    if pure is not None:
        assert detect_style(lines) in (pure, None)


_entry_texts = st.one_of(
    st.none(),
    st.lists(st.sampled_from(list("ab [](x)`*_ ") + ["ghp_" + "A" * 36, "\n", "  "]), max_size=12).map("".join),
)


@given(_entry_texts, st.text(max_size=30), st.text(max_size=12))
@settings(max_examples=400)
def test_a_memory_whose_entry_never_shows_its_sentence_says_so(description: str | None, sentence: str, label: str) -> None:
    # A kept judgment of an index leaves the body's first sentence out of what it is
    # keyed by where reads_sentence says no entry can show it: then neither way an entry
    # is written may differ with the sentence.
    from memcheck.index import render as render_mod

    body = f"{sentence}.\n" if sentence.strip() else ""
    with_sentence = Memory("a.md", "a", description, "user", body)
    if reads_sentence(with_sentence):
        return
    without = with_sentence._replace(body="")
    assert render_mod.described(with_sentence, label) == render_mod.described(without, label)
    for fallback in ("", "(no description)"):
        assert render_mod.shown_description(with_sentence, fallback) == render_mod.shown_description(without, fallback)


def test_a_memory_s_dates_are_read_under_metadata_too() -> None:
    # Judged on a public repository: Claude Code's `modified`, nested under `metadata`
    # with its `type`, went unread, and `fix` ranked the newest memory by its file name.
    from memcheck.index.memory import memory_of
    from memcheck.text.document import parse

    def dates(frontmatter: str) -> tuple[str | None, str | None, str | None]:
        return memory_of("x.md", parse(".claude/memory/x.md", f"---\n{frontmatter}---\n\nBody.\n".encode())).dates

    assert dates("name: x\nmetadata:\n  type: project\n  modified: 2026-08-14T10:00:00\n") == ("2026-08-14T10:00:00", None, None)
    assert dates("name: x\nmetadata:\n  modified: 2026-08-14\n  created: '2026-01-02'\n") == ("2026-08-14", "2026-01-02", None)
    # The top level wins; a value that is no date reads as none.
    assert dates("updated: 2026-09-01\nmetadata:\n  modified: 2026-08-14\n") == ("2026-09-01", None, None)
    assert dates("metadata:\n  modified: [2026]\n") == (None, None, None)
    # An outside attack's recipe: a top-level key that gives no date hid the nested one.
    assert dates("updated: null\nmetadata:\n  updated: 2028-03-03\n") == ("2028-03-03", None, None)
    assert dates("updated: ''\nmodified: 2027-01-01\n") == ("2027-01-01", None, None)
