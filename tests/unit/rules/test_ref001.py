"""REF001 stale-reference: a path in a code span that names no file of the repository,
while a file of its name is elsewhere (it moved)."""

from __future__ import annotations

import pytest
from conftest import example, findings, lint, memory
from hypothesis import given
from hypothesis import strategies as st

from memcheck.checks.references import stale_reference

STORE = ".claude/memory"
INDEX = f"{STORE}/MEMORY.md"


def guide(line: str, **more: str) -> dict[str, str]:
    return {"AGENTS.md": f"# Guide\n\n{line}\n", "tests/unit/test_cli.py": "", "src/app.py": "", "docs/a.md": "", **more}


def store(**bodies: str) -> dict[str, str]:
    files = {INDEX: "# Memory\n\n" + "".join(f"- [{n}]({n}.md) - {n}\n" for n in bodies)}
    files.update({f"{STORE}/{n}.md": memory(n, f"About {n}", "feedback", body=b) for n, b in bodies.items()})
    return files


def test_the_docs_example_after_the_tests_moved_names_where_the_file_went() -> None:
    files = {"AGENTS.md": "# Guide\n\n" + example("REF001"), "tests/unit/test_cli.py": ""}  # the tests moved to tests/unit/
    assert lint(files, "REF") == [("AGENTS.md", 3, "REF001")]
    (found,) = findings(files, "REF")
    assert found.message == "`tests/test_cli.py` is not in this repository; it may have moved to tests/unit/test_cli.py: update the path"


def test_the_docs_use_instead_is_not_reported() -> None:
    assert lint({"AGENTS.md": "# Guide\n\n" + example("REF001", "Use instead"), "tests/unit/test_cli.py": ""}, "REF") == []


def test_a_path_whose_file_name_the_repository_lacks_is_left_alone() -> None:
    # It may be a sibling repository's or a server's: nothing tells them apart.
    assert lint(guide("Settings live in `src/settings.py`; the server runs `scripts/deploy.sh`."), "REF") == []


@pytest.mark.parametrize(
    "line",
    [
        "Run `tests/unit/test_cli.py` and `src/app.py:12` and `docs/`.",
        "Edit `src/**/*.py`, `<out>/report.md`, `{name}.md`, `$HOME/x.py`, `path/to/file.py`, `src/….py`.",
        "Branches look like `feat/login`; choose `read/write`; see `github.com/acme/tool` or `https://x.io/a.md`.",
        "For example `src/widget.py` would hold it. Use a name, e.g. `src/other.py`.",
        "Generated into `dist/bundle.js` and `node_modules/x/index.js`; daily notes in `memory/YYYY-MM-DD.md`.",
        "Call `src/app.main` or `src/app.run_all`; it came from `../elsewhere/x.py`.",
        "Home files: `~/.claude/knowledge/routing.md`.",
        "```\n`src/gone.py`\n```",
    ],
)
def test_what_is_not_plainly_a_path_of_this_repository_is_not_judged(line: str) -> None:
    assert lint(guide(line), "REF") == []


def test_only_the_spans_after_an_example_on_their_line_are_examples() -> None:
    (found,) = findings(guide("Run `tests/test_cli.py`, e.g. `tests/test_cli.py` or `src/x.py`."), "REF")
    assert (found.path, found.line, found.code) == (
        "AGENTS.md",
        3,
        "REF001",
    ) and "may have moved to tests/unit/test_cli.py" in found.message


def test_a_path_after_the_label_example_is_an_illustration() -> None:
    # "Put E2E tests by user journey in tests/e2e/ - Example: `tests/e2e/timer.spec.ts`":
    # where such a file goes, not a file to open (the one named moved to tests/e2e/smoke/).
    files = {"tests/e2e/smoke/timer.spec.ts": "", "tests/unit/lib/api/sessions.test.ts": ""}
    text = "- E2E tests: by user journey in `tests/e2e/`\n  - Example: `tests/e2e/timer.spec.ts`\n"
    assert lint(guide(text, **files), "REF") == []
    assert lint(guide("Examples: `tests/e2e/timer.spec.ts`, `tests/e2e/cart.spec.ts`.", **files), "REF") == []
    # The label says so only of what follows it on its line, and "example" without the
    # colon is a word of the sentence (a file named for it, as here, is judged).
    (found,) = findings(guide("Run `tests/e2e/timer.spec.ts`. Example: `tests/unit/lib/api/sessions.test.ts`.", **files), "REF")
    assert found.col == 6 and "may have moved to tests/e2e/smoke/timer.spec.ts" in found.message
    assert [p.code for p in findings(guide("The example test is `tests/e2e/timer.spec.ts`.", **files), "REF")] == ["REF001"]


def test_a_path_written_from_a_package_of_a_monorepo_is_found() -> None:
    assert lint(guide("In the API package, tests are in `tests/api_test.py`.", **{"packages/api/tests/api_test.py": ""}), "REF") == []


def test_a_path_from_the_guidance_files_folder_is_found() -> None:
    assert lint({"web/AGENTS.md": "# Web\n\nSee `src/page.tsx`.\n", "web/src/page.tsx": ""}, "REF") == []


def test_a_broken_link_is_reported_once_by_the_link_rule() -> None:
    assert [code for _, _, code in lint(guide("See [the notes](docs/gone.md)."), "REF,GDN013")] == ["GDN013"]


def test_a_bare_memory_name_is_resolved_within_the_store() -> None:
    files = store(feedback_a="See `feedback_b.md` and `feedback_c.md`.\n", feedback_b="Kept.\n")
    (found,) = findings(files, "REF")
    assert (found.path, found.code) == (f"{STORE}/feedback_a.md", "REF001")
    assert "`feedback_c.md` is not in this repository: no memory of this store has that name" in found.message


def test_bare_names_in_guidance_are_not_judged() -> None:
    assert lint(guide("Each route has a `page.tsx`; see `CLAUDE.md` and `meta.json`."), "REF") == []


def test_a_memory_citing_a_kind_of_agent_file_by_name_is_not_judged() -> None:
    assert lint(store(a="Every skill has a `SKILL.md`; nested packages get their own `AGENTS.md`.\n"), "REF") == []


def test_a_message_escapes_what_it_quotes() -> None:
    (found,) = findings({"AGENTS.md": "# Guide\n\nRun `tests/test_cli.py`.\n", "tests/odd\x1b[2J/test_cli.py": ""}, "REF")
    assert "\x1b" not in found.message and "may have moved to tests/odd\\u001b[2J/test_cli.py" in found.message


@given(st.text(max_size=60))
def test_a_path_token_is_plain_or_nothing(text: str) -> None:
    token = stale_reference._path_token(text)
    if token is not None:
        assert token and not any(c.isspace() or c in "<>{}$*?[]|`'\"" for c in token)
        assert token.isprintable() and "//" not in token and not token.startswith("/")


# --- Names that are not this repository's (issue 40, shape 1) ---------------------------


def home_copy(body: str, **more: str) -> dict[str, str]:
    """A repository that is a copy of a user's `~/.claude`: `settings.json` beside
    `commands/` and a store at `memory/`, whose memories are about other projects."""
    files = {
        "settings.json": "{}\n",
        "commands/deploy.md": "# Deploy\n",
        "memory/MEMORY.md": "# Memory\n\n- [Web](project_web.md) - the web project\n",
        "memory/project_web.md": memory("web", "The web project", "project", body=body),
    }
    return {**files, **more}


def test_names_in_a_copied_home_are_the_other_projects() -> None:
    body = "Project `/mnt/c/dev/web/`: tokens are kept in `design.md`; handoff = `HANDOFF-web.md`.\nThe menu is `src/ui/Nav.tsx`.\n"
    assert lint(home_copy(body, **{"plugins/kit/src/widgets/Nav.tsx": ""}), "REF") == []


def test_a_copied_home_still_answers_for_its_own_memories_and_folders() -> None:
    body = "See `feedback_gone.md`; the deploy command is `commands/old/deploy.md`.\n"
    found = findings(home_copy(body, **{"commands/ops/deploy.md": ""}), "REF")
    assert [f.message.split(";")[0].split(":")[0] for f in found] == [
        "`feedback_gone.md` is not in this repository",
        "`commands/old/deploy.md` is not in this repository",
    ]


def test_a_store_named_for_a_project_elsewhere_cites_that_projects_files() -> None:
    # Claude Code names a project's memory folder after the project's path.
    store_folder = "memory/C--Users-me-Documents-Trading"
    files = {
        f"{store_folder}/MEMORY.md": "# Memory\n\n- [Plan](project_plan.md) - plan\n",
        f"{store_folder}/project_plan.md": memory("plan", "Plan", "project", body="Run `.claude/commands/analyze.md` first.\n"),
        "project-Trading/commands/analyze.md": "# Analyze\n",
    }
    assert lint(files, "REF") == []


def test_a_name_the_sentence_places_in_the_home_folder_is_not_judged() -> None:
    body = "The rule `feedback_tone.md` lives at user-scope `~/.claude/projects/web/memory/`.\n"
    assert lint(store(a=body), "REF") == []


@pytest.mark.parametrize(
    "line",
    [
        "Was `feedback_old_name.md`; renamed to this file.",
        "Hypothetical: a `feedback_plan.md` would hold the plan.",
        "There is no `feedback_guide.md` yet.",
        "Later: `feedback_history.md`, etc. — not yet created.",
        "Name new ones `feedback_X.md` or `user_X.md`.",
    ],
)
def test_a_former_planned_or_placeholder_name_is_not_judged(line: str) -> None:
    assert lint(store(a=line + "\n"), "REF") == []


def test_a_generic_path_is_not_guessed_to_be_an_unrelated_file_of_its_name() -> None:
    files = {**store(a="The home page is `app/page.tsx`.\n"), "notes/dashboard-01/page.tsx": ""}
    assert lint(files, "REF") == []


def test_a_bare_name_without_the_stores_naming_is_not_judged() -> None:
    # `design.md` may be any project's; `feedback_` and a prefix two memories share are the store's.
    files = {**store(a="Tokens are in `design.md`; see `feedback_gone.md` and `deploy-gone.md`.\n"), **kebab_pair()}
    assert [f.message.split(" ")[0] for f in findings(files, "REF")] == ["`feedback_gone.md`", "`deploy-gone.md`"]


def kebab_pair() -> dict[str, str]:
    return {f"{STORE}/deploy-{n}.md": memory(f"deploy-{n}", n, "project") for n in ("web", "api")}


@pytest.mark.parametrize("written", [f"{STORE}/feedback_gone.md", "memory/feedback_gone.md"])
def test_a_memory_written_with_its_stores_folder_is_judged(written: str) -> None:
    (found,) = findings(store(a=f"See `{written}`.\n"), "REF")
    assert (
        found.message
        == f"`{written}` is not in this repository: no memory of this store has that name; fix the name or remove the reference"
    )


def test_a_renamed_folder_is_followed_to_its_new_name() -> None:
    files = guide(
        "Settings are `app/old_name/settings/page.tsx`; the parts are in `app/old_name/components/`.",
        **{"app/new_name/settings/page.tsx": "", "app/new_name/components/Form.tsx": ""},
        **{f"app/{n}/page.tsx": "" for n in ("a", "b", "c", "d")},
    )
    assert [f.message for f in findings(files, "REF")] == [
        "`app/old_name/settings/page.tsx` is not in this repository; it may have moved to app/new_name/settings/page.tsx: update the path",
        "`app/old_name/components/` is not in this repository; it may have moved to app/new_name/components: update the path",
    ]


def test_a_moved_font_is_reported() -> None:
    (found,) = findings(guide("The font is `assets/fonts/Inter.ttf`.", **{"src/assets/font/Inter.ttf": ""}), "REF")
    assert "may have moved to src/assets/font/Inter.ttf" in found.message


def test_a_common_name_is_followed_where_the_cited_folder_says_which() -> None:
    modules = {f"src/modules/{m}/service.test.ts": "" for m in ("billing", "users", "orders", "auth")}
    (found,) = findings(guide("Billing's tests: `src/billing/service.test.ts`.", **modules), "REF")
    assert "may have moved to src/modules/billing/service.test.ts" in found.message
    assert lint(guide("Tests: `lib/service.test.ts`.", **modules), "REF") == []


def test_a_folder_every_project_has_does_not_tie_two_files_of_one_name() -> None:
    # The helpers moved elsewhere; `src/database/utils.ts` is another file.
    assert lint(guide("Helpers are in `src/utils.ts`.", **{"src/database/utils.ts": ""}), "REF") == []


def test_a_gone_member_of_a_numbered_series_is_judged() -> None:
    # `findings_4.md` was one of the reviews at the root, as `findings_13.md` still is.
    files = {**store(a="Evidence in `findings_4.md`; the snapshot `1777490789085.md` was dropped.\n"), "findings_13.md": "# Review\n"}
    assert [f.message.split(" ")[0] for f in findings(files, "REF")] == ["`findings_4.md`"]


def test_a_path_many_memories_cite_is_weighed_once_per_run(monkeypatch: pytest.MonkeyPatch) -> None:
    # Where a missing path may have moved is weighed against every file of its name (up
    # to 500): cited by each memory of a large store, that weighing was the cost of a
    # whole first run. Its answer is the same each time, so it is worked out once.
    weighed: list[str] = []
    moved_to = stale_reference._moved_to

    def counting(index: stale_reference.TreeIndex, name: str) -> str | None:
        weighed.append(name)
        return moved_to(index, name)

    monkeypatch.setattr(stale_reference, "_moved_to", counting)
    bodies = {f"note_{i}": "Start at `app/cli/main.py`, then `app/cli/main.py` again." for i in range(30)}
    files = {**store(**bodies), **{f"app/mod{i}/main.py": "" for i in range(20)}, "app/tools/cli/main.py": ""}
    found = lint(files, "REF")
    assert len(found) == 60 and {code for _, _, code in found} == {"REF001"}
    assert weighed == ["app/cli/main.py"]


def test_a_name_a_wrapped_sentence_says_is_superseded_is_not_judged_anywhere_in_the_file() -> None:
    # A memory that supersedes three others names them over two lines of one sentence,
    # and one of them again far below: each is the former memory, none a stale path.
    body = (
        "Supersedes `feedback_tool.md`, `feedback_repin.md` and\n"
        "`feedback_brains.md`, which carried contradictory versions.\n\n"
        "## Later\n\n"
        "**The salt holds the base URI** - which is what\n"
        "`feedback_brains.md` speculated and could not confirm.\n"
    )
    assert lint(store(a=body), "REF") == []


def test_a_list_item_is_read_with_the_line_that_leads_its_list() -> None:
    body = (
        "From `/home/me/.claude/projects/-home-me-web/memory/`:\n"
        "- `project_revival.md`\n"
        "- `project_calldata.md`\n\n"
        "That store already has: `project_brains.md`, `project_repin.md`.\n"
    )
    assert lint(store(a=body), "REF") == []


def test_a_gone_memory_in_a_list_or_a_wrapped_sentence_is_still_reported() -> None:
    # The same shapes without a word that places the names elsewhere: the store's own
    # memories, gone, and told.
    body = (
        "Read these first:\n"
        "- `feedback_gone.md`\n\n"
        "The rules are in `feedback_rules.md` and\n"
        "`feedback_lost.md`, which the team keeps current.\n"
    )
    assert [f.message.split(" ")[0] for f in findings(store(a=body), "REF")] == [
        "`feedback_gone.md`",
        "`feedback_rules.md`",
        "`feedback_lost.md`",
    ]


def archived_session(index_links_it: bool = False, home_path: bool = False) -> dict[str, str]:
    """Judged on a public repository: a kit moves old session logs' entries out of
    MEMORY.md into MEMORY-archive.md; a log cites a folder renamed since."""
    body = "Fixed the port in `improv/server/ws.ts`.\n" + ("Ran from `/home/jonah/dev/kit`.\n" if home_path else "")
    files = {
        f"{STORE}/session_old.md": memory("old session", "the port fix", "project", body=body),
        f"{STORE}/project_live.md": memory("live", "the sprint now", "project", body="See `improv/server/ws.ts`.\n"),
        f"{STORE}/MEMORY-archive.md": "- [Old session](session_old.md) - the port fix\n- [a](a.md) - a\n- [b](b.md) - b\n",
        INDEX: "- [live](project_live.md) - the sprint now\n"
        + ("- [Old session](session_old.md) - the port fix\n" if index_links_it else ""),
        "justify/server/ws.ts": "",  # the folder improv/ became justify/
    }
    return files


def test_a_memory_only_the_stores_archive_lists_is_a_record_whose_paths_are_not_judged() -> None:
    assert lint(archived_session(), "REF001") == [(f"{STORE}/project_live.md", 7, "REF001")]


def test_a_memory_the_index_still_links_is_judged_though_the_archive_lists_it_too() -> None:
    assert lint(archived_session(index_links_it=True), "REF001") == [
        (f"{STORE}/project_live.md", 7, "REF001"),
        (f"{STORE}/session_old.md", 7, "REF001"),
    ]


def test_an_archived_memorys_home_path_is_still_reported() -> None:
    assert lint(archived_session(home_path=True), "REF001,REF002") == [
        (f"{STORE}/project_live.md", 7, "REF001"),
        (f"{STORE}/session_old.md", 8, "REF002"),
    ]


@pytest.mark.parametrize(
    "index_line",
    [
        "- [Old session](session_old.md#fix) - the port fix",  # a link with a fragment
        "- [Old session][1] - the port fix\n\n[1]: session_old.md",  # a reference link
        "- `session_old.md` - the port fix",  # a code span
        "- session_old: the port fix",  # a link-less line naming its stem
        "- [More memories, read these too](MEMORY-archive.md)",  # the archive, linked: read on
        # A third attack's: a query, percent escapes, a wiki link to the archive.
        "- [Old session](session_old.md?plain=1) - the port fix",
        "- [Old session](session%5Fold%2Emd) - the port fix",
        "- [[MEMORY-archive]]",
    ],
)
def test_a_memory_the_index_names_in_any_way_is_live(index_line: str) -> None:
    """An outside attack's shapes: MEMORY.md names the memory (or links the archive that
    lists it), so agents reach it and its paths are judged."""
    files = archived_session()
    files[INDEX] += index_line + "\n"
    assert (f"{STORE}/session_old.md", 7, "REF001") in lint(files, "REF001")


def test_a_memory_a_linked_topic_index_lists_is_live() -> None:
    files = archived_session()
    files[f"{STORE}/topics.md"] = memory("topics", "the topic index", "reference", body="- [a](session_old.md)\n- [b](b.md)\n- [c](c.md)\n")
    files[INDEX] += "- [Topics](topics.md) - the topic index\n"
    assert (f"{STORE}/session_old.md", 7, "REF001") in lint(files, "REF001")


def test_the_archive_is_read_once_per_store(monkeypatch: pytest.MonkeyPatch) -> None:
    """An outside attack found REF001 quadratic in a store with an archive (the archive's
    memories worked out once per memory): 4,000 memories took 27 s."""
    from memcheck.index import store as index_store

    calls = []
    real = index_store.archived
    monkeypatch.setattr(index_store, "archived", lambda *a: calls.append(1) or real(*a))
    files = archived_session()
    for i in range(40):
        files[f"{STORE}/project_{i}.md"] = memory(f"p{i}", f"project {i}", "project")
    assert lint(files, "REF001") == [(f"{STORE}/project_live.md", 7, "REF001")]
    assert len(calls) == 1


@pytest.mark.parametrize("name", ["session_history.md", "session_2026-05-28_research.md", "project_phase_history.md", "session-log.md"])
def test_a_memory_named_as_a_record_of_what_happened_is_not_judged(name: str) -> None:
    # Session logs and histories cite paths as they were then (seven such findings on
    # unseen repositories, each judged unwanted): updating them would falsify the record.
    files = {
        f"{STORE}/{name}": memory("record", "what was done", "project", body="Wrote `docs/guide/menu.md`.\n"),
        f"{STORE}/project_live.md": memory("live", "the sprint now", "project", body="See `docs/guide/menu.md`.\n"),
        INDEX: f"- [record]({name}) - what was done\n- [live](project_live.md) - the sprint now\n",
        "docs/manual/menu.md": "",  # the folder docs/guide became docs/manual
    }
    assert lint(files, "REF001") == [(f"{STORE}/project_live.md", 7, "REF001")]


@pytest.mark.parametrize(
    "name",
    [
        "audit-log.md",
        "project_access-log.md",
        "sessions.md",
        "git_history.md",
        "history.md",
        "changelog.md",
        "reference_session_history.md",
        "project_session_history.md",
        "session_history_api.md",
    ],
)
def test_a_memory_about_a_feature_named_log_or_history_is_judged(name: str) -> None:
    # An outside attack: names with "log" or "history" in them are about a feature.
    files = {
        f"{STORE}/{name}": memory("feature", "how it works", "project", body="See `docs/guide/menu.md`.\n"),
        INDEX: f"- [feature]({name}) - how it works\n",
        "docs/manual/menu.md": "",
    }
    assert lint(files, "REF001") == [(f"{STORE}/{name}", 7, "REF001")]
