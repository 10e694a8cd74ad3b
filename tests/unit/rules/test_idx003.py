"""IDX003 unlisted-memory: a memory file no line of the index lists."""

from __future__ import annotations

from conftest import example, findings, lint, memory

from memcheck.problem import several

STORE = ".claude/memory"
INDEX = f"{STORE}/MEMORY.md"


TESTING = {
    f"{STORE}/user_prefs.md": memory("User preferences", "How the user likes to work", "user"),
    f"{STORE}/feedback_testing.md": memory("Testing", "Run pytest before every commit", "feedback"),
}


def test_the_docs_example_a_memory_saved_by_hand_is_reported() -> None:
    (found,) = findings({**TESTING, INDEX: example("IDX003")})
    assert (found.path, found.line, found.code, found.fixable, found.about) == (INDEX, 1, "IDX003", True, f"{STORE}/feedback_testing.md")
    assert (
        found.message
        == "memory file feedback_testing.md is not listed in MEMORY.md; agents that load only the index never see it (run `memcheck fix`)"
    )


def test_the_docs_use_instead_the_index_fix_leaves_is_not_reported() -> None:
    assert lint({**TESTING, INDEX: example("IDX003", "Use instead")}) == []


def test_a_memory_saved_without_an_index_line_is_reported() -> None:
    files = {
        f"{STORE}/user_prefs.md": memory("prefs", "the user's preferences", "user"),
        f"{STORE}/feedback_testing.md": memory("testing", "run pytest first", "feedback"),
        INDEX: "- [prefs](user_prefs.md) — the user's preferences\n",
    }
    (found,) = findings(files)
    assert (found.path, found.line, found.code, found.fixable, found.about) == (INDEX, 1, "IDX003", True, f"{STORE}/feedback_testing.md")
    assert (
        found.message
        == "memory file feedback_testing.md is not listed in MEMORY.md; agents that load only the index never see it (run `memcheck fix`)"
    )


def test_a_line_that_names_the_memory_lists_it() -> None:
    files = {f"{STORE}/api.md": memory("api", "the API", "project"), INDEX: "# Notes\n\n- api: the API\n"}
    assert lint(files, select="IDX003") == []


def test_a_memory_in_a_heuristic_store_beside_ordinary_documents() -> None:
    files = {
        "notes/MEMORY.md": "- [A](a.md) — a\n",
        "notes/a.md": memory("A", "a", "user"),
        "notes/b.md": memory("B", "b", "user"),
        "MEMORY.md": "# My long-term memory\n",
        "README.md": "# Project\n",
        "CHANGELOG.md": "# Changes\n",
    }
    assert lint(files) == [("notes/MEMORY.md", 1, "IDX003")]


def _archived_store(archive_entries: int) -> dict[str, str]:
    """A curator's store: MEMORY.md lists the live memories and links an archive of
    entries moved out of it to stay under the caps, which lists the old ones."""
    files = {f"{STORE}/project_live.md": memory("live", "the sprint now", "project")}
    archive = ["# Archived entries, moved from MEMORY.md", ""]
    for i in range(archive_entries):
        files[f"{STORE}/project_old_{i}.md"] = memory(f"old {i}", f"sprint {i}, done", "project")
        archive.append(f"- [project_old_{i}.md](project_old_{i}.md) — sprint {i}, done")
    files[f"{STORE}/memory_archive.md"] = memory("Archive", "entries moved out of MEMORY.md", "reference", body="\n".join(archive) + "\n")
    files[INDEX] = (
        "- [project_live.md](project_live.md) — the sprint now\n"
        "- [memory_archive.md](memory_archive.md) — entries moved out of MEMORY.md to stay under the cap; search here first\n"
    )
    return files


def test_memories_an_archive_the_index_links_lists_are_listed() -> None:
    # An agent reading the index reaches them through the archive's entry.
    assert lint(_archived_store(3), select="IDX003") == []


def test_a_memory_the_archive_does_not_list_is_still_reported() -> None:
    files = _archived_store(3)
    files[f"{STORE}/feedback_new.md"] = memory("new", "saved by hand", "feedback")
    assert [p.about for p in findings(files) if p.code == "IDX003"] == [f"{STORE}/feedback_new.md"]


def test_a_memory_that_links_one_or_two_others_is_no_index() -> None:
    # `related: [a](a.md), [b](b.md)` in a memory's body does not list them: an index
    # holds three entries or more.
    files = _archived_store(2)
    assert sorted(p.about for p in findings(files) if p.code == "IDX003") == [f"{STORE}/project_old_0.md", f"{STORE}/project_old_1.md"]


def test_an_archive_the_index_does_not_link_lists_nothing() -> None:
    files = _archived_store(3)
    files[INDEX] = "- [project_live.md](project_live.md) — the sprint now\n- [memory_archive.md](memory_archive.md) — the archive\n"
    files[INDEX] = files[INDEX].replace("- [memory_archive.md](memory_archive.md) — the archive\n", "")
    assert len([p for p in findings(files) if p.code == "IDX003"]) == 4  # the archive and its three


def _store_with_an_index_archive(linked: bool) -> dict[str, str]:
    """Judged on a public repository: a kit's hook moves old entries out of MEMORY.md
    into MEMORY-archive.md, no frontmatter, to stay under the load budget."""
    files = {f"{STORE}/project_live.md": memory("live", "the sprint now", "project")}
    archive = ["", "<!-- archived 2026-06-06 (moved from MEMORY.md to stay under load budget) -->"]
    for i in range(4):
        files[f"{STORE}/session_old_{i}.md"] = memory(f"old {i}", f"session {i}, done", "project")
        archive.append(f"- [Session {i}](session_old_{i}.md) - session {i}, done")
    files[f"{STORE}/MEMORY-archive.md"] = "\n".join(archive) + "\n"
    files[INDEX] = "- [live](project_live.md) - the sprint now\n" + (
        "- [Archive](MEMORY-archive.md) - entries moved out\n" if linked else ""
    )
    return files


def test_memories_the_store_s_archive_of_its_index_lists_are_listed_linked_or_not() -> None:
    # Judged on a public repository: a kit's hook moves old entries into an unlinked
    # archive on purpose (a link would load it into every session); two judges found
    # each such memory's finding unwanted. The archive itself is no memory (no IDX003,
    # MEM002 on it; fix never lists it).
    assert findings(_store_with_an_index_archive(linked=False)) == []
    assert findings(_store_with_an_index_archive(linked=True)) == []


def test_an_index_archive_s_dead_entries_and_a_memory_it_does_not_list_are_still_reported() -> None:
    files = _store_with_an_index_archive(linked=True)
    files[f"{STORE}/MEMORY-archive.md"] += "- [Gone](session_gone.md) - deleted since\n"
    files[f"{STORE}/feedback_new.md"] = memory("new", "saved by hand", "feedback")
    assert sorted((p.code, p.path, p.about) for p in findings(files)) == [
        ("IDX003", INDEX, f"{STORE}/feedback_new.md"),
        ("MEM021", f"{STORE}/MEMORY-archive.md", ""),
    ]


def test_a_file_named_as_the_index_with_another_word_is_a_memory() -> None:
    # An outside attack's recipes: `MEMORY-draft.md` listing new memories hid them all,
    # and a topic file `MEMORY_deploy.md` of prose was read as an archive.
    files = _store_with_an_index_archive(linked=False)
    files[f"{STORE}/MEMORY-draft.md"] = files.pop(f"{STORE}/MEMORY-archive.md")
    files[f"{STORE}/MEMORY_deploy.md"] = "Deploy with `make release`. Never deploy on Fridays.\n"
    found = sorted((p.code, p.about or p.path) for p in findings(files) if p.code in ("IDX003", "MEM002"))
    assert found == sorted(
        [("IDX003", f"{STORE}/session_old_{i}.md") for i in range(4)]
        + [(code, f"{STORE}/{name}") for code in ("IDX003", "MEM002") for name in ("MEMORY-draft.md", "MEMORY_deploy.md")]
    )
    for name in ("MEMORY_2025.md", "MEMORY.old.md", "MEMORY-history.md", "MEMORY_Archive_1.md"):
        files = _store_with_an_index_archive(linked=False)
        files[f"{STORE}/{name}"] = files.pop(f"{STORE}/MEMORY-archive.md")
        assert findings(files) == [], name


def test_a_file_named_as_the_index_s_archive_with_memory_fields_is_a_memory() -> None:
    files = _store_with_an_index_archive(linked=False)
    files[f"{STORE}/MEMORY-archive.md"] = memory("Archive", "entries moved out", "reference", body=files[f"{STORE}/MEMORY-archive.md"])
    assert sorted(p.about for p in findings(files) if p.code == "IDX003") == [f"{STORE}/MEMORY-archive.md"] + [
        f"{STORE}/session_old_{i}.md" for i in range(4)
    ]


def _superseded(successor: str) -> dict[str, str]:
    """Judged on a public repository: a kit whose rules say a superseded memory is
    history marks it `superseded_by: <the memory that carries it forward>` and keeps
    it out of MEMORY.md."""
    old = memory("tilt review", "first review", "project").replace("---\n\n", f"superseded_by: {successor}\n---\n\n", 1)
    return {
        f"{STORE}/session_consolidated.md": memory("tilt", "consolidated", "project"),
        f"{STORE}/session_review.md": old,
        INDEX: "- [tilt](session_consolidated.md) - consolidated\n",
    }


def test_a_memory_superseded_by_another_memory_of_the_store_need_not_be_listed() -> None:
    for successor in (
        "session_consolidated.md",
        "session_consolidated",
        '"session_consolidated.md"',
        ".claude/memory/session_consolidated.md",
    ):
        assert lint(_superseded(successor), select="IDX") == [], successor
    # Superseded by nothing the store holds (gone, a placeholder, empty, itself, a file of
    # another folder): still unlisted.
    for successor in ("session_gone.md", "session_YYYY-MM-DD_<topic>.md", "[]", "''", "session_review.md", "sub/session_consolidated.md"):
        assert [p.about for p in findings(_superseded(successor)) if p.code == "IDX003"] == [f"{STORE}/session_review.md"], successor


def test_memories_superseded_in_a_cycle_are_each_unlisted() -> None:
    # An outside attack's recipe: a superseded by b, b by a, neither listed: no memory of
    # the cycle is current, and none is reachable.
    files = _superseded("session_consolidated.md")
    files[f"{STORE}/session_consolidated.md"] = files[f"{STORE}/session_review.md"].replace(
        "superseded_by: session_consolidated.md", "superseded_by: session_review.md"
    )
    files[INDEX] = "# Memory\n"
    assert sorted(p.about for p in findings(files) if p.code == "IDX003") == [
        f"{STORE}/session_consolidated.md",
        f"{STORE}/session_review.md",
    ]


def test_a_superseded_memory_the_index_lists_keeps_its_entry() -> None:
    # An outside attack's recipe: in the grouped form fix writes, the superseded memory's
    # entry made the index "out of date", and fix took it out.
    files = _superseded("session_consolidated.md")
    files[INDEX] = (
        "# Memory\n\n## Project\n- [tilt](session_consolidated.md) - consolidated\n- [tilt review](session_review.md) - first review\n"
    )
    assert lint(files, select="IDX") == []


def test_stems_a_curated_index_names_in_code_spans_list_their_memories() -> None:
    """Issue 40's shape: "Topic files here carry the detail: `stem-a`, `stem-b`"
    (stems in backticks, no .md, no links) names the files, which exist."""
    files = {
        f"{STORE}/deploy-notes.md": memory("Deploy notes", "How the app ships", "project"),
        f"{STORE}/api-keys.md": memory("API keys", "Where the keys live", "reference"),
        f"{STORE}/user_prefs.md": memory("User preferences", "How the user likes to work", "user"),
        INDEX: "# Memory\n\n- [User preferences](user_prefs.md) — How the user likes to work\n\n"
        "Topic files here carry the detail: `deploy-notes`, `api-keys`.\n",
    }
    assert lint(files, select="IDX003") == []


def test_stems_of_a_code_span_list_wrapped_over_lines_list_their_memories() -> None:
    """A sixth unseen set's shape: the paragraph names its topic files by stem and wraps,
    so the last line holds one stem alone; the paragraph names it, as the others."""
    files = {
        f"{STORE}/deploy-notes.md": memory("Deploy notes", "How the app ships", "project"),
        f"{STORE}/api-keys.md": memory("API keys", "Where the keys live", "reference"),
        f"{STORE}/gap-remediation.md": memory("Gap remediation", "What the migration missed", "project"),
        f"{STORE}/user_prefs.md": memory("User preferences", "How the user likes to work", "user"),
        INDEX: "# Memory\n\n- [User preferences](user_prefs.md) — How the user likes to work\n\n"
        "Topic files here carry the detail: `deploy-notes`, `api-keys`,\n"
        "`gap-remediation`, and the older plans.\n",
    }
    assert lint(files, select="IDX003") == []
    # In a list item the lines that continue it are its paragraph.
    files[INDEX] = (
        "# Memory\n\n- [User preferences](user_prefs.md) — How the user likes to work\n"
        "- Topic files: `deploy-notes`, `api-keys`,\n  `gap-remediation`.\n"
    )
    assert lint(files, select="IDX003") == []
    # A stem alone in its own paragraph, after a blank line, is still one stem alone.
    files[INDEX] = (
        "# Memory\n\n- [User preferences](user_prefs.md) — How the user likes to work\n\n"
        "Topic files: `deploy-notes`, `api-keys`.\n\nRun `gap-remediation` first.\n"
    )
    assert [p.about for p in findings(files) if p.code == "IDX003"] == [f"{STORE}/gap-remediation.md"]


def test_one_stem_in_a_code_span_or_stems_on_a_line_that_links_elsewhere_list_nothing() -> None:
    """One stem alone is as often a command or a package of that name; a line with a
    link says which file it means."""
    memories = {
        f"{STORE}/deploy-notes.md": memory("Deploy notes", "How the app ships", "project"),
        f"{STORE}/api-keys.md": memory("API keys", "Where the keys live", "reference"),
        f"{STORE}/user_prefs.md": memory("User preferences", "How the user likes to work", "user"),
    }
    linked = "- [User preferences](user_prefs.md) — set `deploy-notes`, `api-keys` aside\n"
    assert lint({**memories, INDEX: linked}, select="IDX003") == [(INDEX, 1, "IDX003"), (INDEX, 1, "IDX003")]
    alone = "- [User preferences](user_prefs.md) — How the user likes to work\n- run `deploy-notes` first\n- `api-keys.md` too\n"
    assert lint({**memories, INDEX: alone}, select="IDX003") == [(INDEX, 3, "IDX003")]


def test_a_code_span_naming_the_memory_with_its_folder_lists_it() -> None:
    # `memory/active_session_resume.md`, as the store's owner writes it from the project's
    # folder (found on an unseen repository): an agent reading the index learns the file.
    files = {
        f"{STORE}/user_role.md": memory("role", "backend engineer", "user"),
        f"{STORE}/project_resume.md": memory("resume", "where the sprint stopped", "project"),
        f"{STORE}/project_other.md": memory("other", "a third", "project"),
        INDEX: ("- [role](user_role.md) — backend engineer\nContext: `memory/project_resume.md` and `.claude/memory/project_other.md`\n"),
    }
    assert lint(files, select="IDX003") == []
    files[INDEX] = "- [role](user_role.md) — backend engineer\nContext: `docs/project_resume.md`\n"
    assert [p.about for p in findings(files) if p.code == "IDX003"] == [f"{STORE}/project_other.md", f"{STORE}/project_resume.md"]


DIGEST = (
    "# Auto Memory\n\n*Generated from 24 notes*\n\n## Critical\n\n"
    "- **Umlauts** (I=2.0)\n  Always real UTF-8 umlauts.\n"
    "- **Training data** (I=2.0)\n  Trust the user on recent products.\n"
    "- **Web search** (I=1.9)\n  Prefer httpx and trafilatura.\n"
)


def test_an_index_of_its_own_entries_that_lists_no_file_is_no_file_index() -> None:
    """Issue 40 (a third unseen set): MEMORY.md is a digest a tool writes from a
    database; it names no memory file, and the agent reaches them another way."""
    assert [f for f in lint({**TESTING, INDEX: DIGEST}) if f[2] == "IDX003"] == []


def test_a_new_store_whose_index_is_a_heading_or_lists_one_memory_still_gets_idx003() -> None:
    assert lint({**TESTING, INDEX: "# Memory\n"}) == [(INDEX, 1, "IDX003"), (INDEX, 1, "IDX003")]
    # Two entries of its own are not yet a digest; and an index that lists one memory is a file index.
    two = "# Memory\n\n- remember the umlauts\n- trust the user\n"
    assert [f[2] for f in lint({**TESTING, INDEX: two})].count("IDX003") == 2
    listing = DIGEST + "- [User preferences](user_prefs.md) — How the user likes to work\n"
    assert [f for f in lint({**TESTING, INDEX: listing}) if f[2] == "IDX003"] == [(INDEX, 13, "IDX003")]


def _full_index(unlisted: dict[str, str], listed: int) -> dict[str, str]:
    """An index of ``listed`` entries under a heading (two lines more), beside the
    memories it lists and the unlisted ones."""
    files = {f"{STORE}/note{i:03d}.md": memory(f"Note {i}", f"note {i}", "project") for i in range(listed)}
    lines = ["# Memory", "", *(f"- [Note {i}](note{i:03d}.md) — note {i}" for i in range(listed))]
    return {**files, **{f"{STORE}/{name}": text for name, text in unlisted.items()}, INDEX: "\n".join(lines) + "\n"}


SEVEN = {
    "a_plan.md": memory("Plan A", "an undated plan", "project"),
    "b_plan.md": memory("Plan B", "another undated plan", "project"),
    "c_old.md": memory("Old", "from January", "project", extra="created: 2026-01-05\n"),
    "d_mid.md": memory("Mid", "from March", "project", extra="created: 2026-03-05\n"),
    "e_new.md": memory("New", "from May", "project", extra="created: 2026-05-05\n"),
    "y_lesson.md": memory("Lesson Y", "a correction", "feedback"),
    "z_lesson.md": memory("Lesson Z", "another correction", "feedback"),
}


ORDER = (
    "feedback memories first, then the others, each newest first by its updated (or modified), created (or date) or file name's date, "
    "those with none by file name, and those that call themselves superseded last"
)
CAPS = "the 200-line cap or the 25,000-byte cap, where agents stop reading"


def test_memories_fix_leaves_out_for_want_of_room_are_one_finding_in_the_order_fix_adds_them() -> None:
    """A sixth unseen set's shape: a 195-line index (five lines of room) and seven
    unlisted memories. Any one of them would fit alone: the two left out are those
    `fix` ranks last, after the feedback memories and the dated ones, newest first,
    took the room; the message says that, not that the index has no room for it. They
    are one finding: a kit's store of 145 unlisted memories gave 142 findings of the
    same cause and remedy, where its maintainer wanted one."""
    found = [p for p in findings(_full_index(SEVEN, 193)) if p.code == "IDX003"]
    assert [(p.about.rsplit("/", 1)[1], p.fixable) for p in found[:5]] == [
        ("c_old.md", True),
        ("d_mid.md", True),
        ("e_new.md", True),
        ("y_lesson.md", True),
        ("z_lesson.md", True),
    ]
    left = found[5]
    assert len(found) == 6 and not left.fixable and (left.path, left.line) == (INDEX, 195)
    assert several(left) == {f"{STORE}/a_plan.md", f"{STORE}/b_plan.md"}
    assert left.message == (
        f"unlisted memory files that MEMORY.md has no room for: `memcheck fix` adds 5 of its 7 unlisted memories, those it ranks first ({ORDER}), "
        f"as many as fit under {CAPS}; make room (merge or shorten entries), then run `memcheck fix`; left out: a_plan.md, b_plan.md"
    )


def test_an_index_with_no_room_left_says_fix_adds_0_and_names_five_of_them() -> None:
    (found,) = [p for p in findings(_full_index(SEVEN, 198)) if p.code == "IDX003"]
    assert not found.fixable and len(several(found)) == 7
    assert found.message == (
        f"unlisted memory files that MEMORY.md has no room for: `memcheck fix` adds 0 of its 7 unlisted memories, those it ranks first ({ORDER}), "
        f"as many as fit under {CAPS}; make room (merge or shorten entries), then run `memcheck fix`; "
        "left out: a_plan.md, b_plan.md, c_old.md, d_mid.md, e_new.md and 2 more"
    )
    # One memory alone, or room for some, is told in the same words (the numbers aside),
    # so a baseline holds the finding as memories come and go and room is made.
    (alone,) = [p for p in findings(_full_index({"a_plan.md": SEVEN["a_plan.md"]}, 198)) if p.code == "IDX003"]
    assert alone.message == found.message.replace("0 of its 7", "0 of its 1").split("; left out")[0] + "; left out: a_plan.md"


def test_a_memory_whose_own_comment_turns_the_rule_off_stays_out_of_the_finding() -> None:
    # A suppression comment in a memory keeps it out of the index on purpose: it is left
    # out of the finding about the others (and the comment is used, not reported unused).
    quiet = SEVEN["a_plan.md"].replace("---\n\n", "---\n\n<!-- memcheck-disable-file IDX003 -->\n", 1)
    assert "memcheck-disable-file" in quiet
    found = [p for p in findings(_full_index({**SEVEN, "a_plan.md": quiet}, 198)) if p.code in ("IDX003", "MCK001", "MCK002")]
    (left,) = found
    assert f"{STORE}/a_plan.md" not in several(left) and len(several(left)) == 6
    assert "left out: b_plan.md" in left.message
    # The comment in a memory turns off no finding about the others.
    assert [p.code for p in findings(_full_index({"a_plan.md": quiet}, 198)) if p.code.startswith(("IDX003", "MCK"))] == []


def test_in_an_index_kept_newest_first_fix_gives_the_room_to_the_undated_first_and_says_so() -> None:
    # A last review's shape: a list kept newest first takes a memory without a date as
    # just saved, so the dated newest one is what is left out, and the message says why.
    listed = 196
    days = [f"2026-05-{d:02d}" for d in range(28, 0, -1)]
    dated = [(f"note{i:03d}.md", f"{days[i % 28][:8]}{28 - i // 7 % 28:02d}") for i in range(listed)]
    dated.sort(key=lambda nd: nd[1], reverse=True)
    files = {name: memory(f"Note {name}", f"note {name}", "project", extra=f"created: {day}\n") for name, day in dated}
    files = {f"{STORE}/{name}": text for name, text in files.items()}
    lines = ["# Memory", "", *(f"- [Note {name}]({name}) — note {name}" for name, _ in dated)]
    files[INDEX] = "\n".join(lines) + "\n"
    files[f"{STORE}/zz_new.md"] = memory("Newest", "the newest", "project", extra="created: 2026-06-01\n")
    files[f"{STORE}/u1.md"] = memory("Undated 1", "no date", "project")
    files[f"{STORE}/u2.md"] = memory("Undated 2", "no date", "project")
    left = [p for p in findings(files) if p.code == "IDX003" and not p.fixable]
    assert [several(p) for p in left] == [{f"{STORE}/zz_new.md"}]
    assert "those without a date first, as if just saved, then the newest first, as the list runs" in left[0].message


def test_a_name_left_out_that_holds_a_comma_is_one_name() -> None:
    # "left out: a, b.md, c.md" would read as three memories: a name that holds ", " is quoted.
    found = [p for p in findings(_full_index({"a, b.md": SEVEN["a_plan.md"], "c.md": SEVEN["b_plan.md"]}, 198)) if p.code == "IDX003"]
    assert [p.message.split("; left out: ")[1] for p in found] == ['"a, b.md", c.md']
