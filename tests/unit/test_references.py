"""REF rules and MEM023 on files held in memory: paths that name nothing, paths into
someone's home folder, and memories saved twice."""
from __future__ import annotations

from pathlib import Path

import pytest
from conftest import lint, memory
from hypothesis import given
from hypothesis import strategies as st

from memcheck.checks import references

STORE = ".claude/memory"
INDEX = f"{STORE}/MEMORY.md"


def findings(files: dict[str, str], select: str = "REF,MEM023") -> list[tuple[str, int, str, str]]:
    """(path, line, code, message) of every finding, as a user reads them."""
    from memcheck import config
    from memcheck.engine.collect import collect
    from memcheck.engine.targets import targets_for
    from memcheck.workspace.discover import Workspace
    from memcheck.workspace.memory import MemorySource

    data = config.defaults()
    data["select"] = select.split(",")
    settings = config.from_mapping(Path("/nonexistent/memcheck-in-memory"), data)
    ws = Workspace(settings, MemorySource({path: text.encode() for path, text in files.items()}))
    return sorted((p.path, p.line, p.code, p.message) for p in collect(ws, targets_for(ws, None)))


def guide(line: str, **more: str) -> dict[str, str]:
    return {"AGENTS.md": f"# Guide\n\n{line}\n", "tests/unit/test_cli.py": "", "src/app.py": "", "docs/a.md": "", **more}


def store(**bodies: str) -> dict[str, str]:
    files = {INDEX: "# Memory\n\n" + "".join(f"- [{n}]({n}.md) - {n}\n" for n in bodies)}
    files.update({f"{STORE}/{n}.md": memory(n, f"About {n}", "feedback", body=b) for n, b in bodies.items()})
    return files


def test_a_path_to_a_moved_file_names_where_it_went() -> None:
    [(path, line, code, message)] = findings(guide("Run `tests/test_cli.py` after a parser change."))
    assert (path, line, code) == ("AGENTS.md", 3, "REF001")
    assert "`tests/test_cli.py`" in message and "tests/unit/test_cli.py has its name" in message


def test_a_path_whose_file_name_the_repository_lacks_is_left_alone() -> None:
    # It may be a sibling repository's or a server's: nothing tells them apart.
    assert findings(guide("Settings live in `src/settings.py`; the server runs `scripts/deploy.sh`.")) == []


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
    assert findings(guide(line)) == []


def test_only_the_spans_after_an_example_on_their_line_are_examples() -> None:
    [(path, line, code, message)] = findings(guide("Run `tests/test_cli.py`, e.g. `tests/test_cli.py` or `src/x.py`."))
    assert (path, line, code) == ("AGENTS.md", 3, "REF001") and "tests/unit/test_cli.py has its name" in message


def test_a_path_written_from_a_package_of_a_monorepo_is_found() -> None:
    files = guide("In the API package, tests are in `tests/api_test.py`.", **{"packages/api/tests/api_test.py": ""})
    assert findings(files) == []


def test_a_path_from_the_guidance_files_folder_is_found() -> None:
    assert findings({"web/AGENTS.md": "# Web\n\nSee `src/page.tsx`.\n", "web/src/page.tsx": ""}) == []


def test_a_broken_link_is_reported_once_by_the_link_rule() -> None:
    assert [code for _, _, code, _ in findings(guide("See [the notes](docs/gone.md)."), "REF,GDN013")] == ["GDN013"]


def test_a_bare_memory_name_is_resolved_within_the_store() -> None:
    files = store(feedback_a="See `feedback_b.md` and `feedback_c.md`.\n", feedback_b="Kept.\n")
    [(path, _, code, message)] = findings(files)
    assert (path, code) == (f"{STORE}/feedback_a.md", "REF001")
    assert "`feedback_c.md` is no memory of this store" in message


def test_bare_names_in_guidance_are_not_judged() -> None:
    assert findings(guide("Each route has a `page.tsx`; see `CLAUDE.md` and `meta.json`.")) == []


@pytest.mark.parametrize(
    ("line", "shown"),
    [
        ("Logs are in `/Users/jsmith/work/shop/logs/`.", "/Users/j***/…"),
        ("Open C:\\Users\\Olivia\\work\\app\\notes.txt first.", "C:\\Users\\O***\\…"),
        ("Data: /home/wei/data/cc_all", "/home/w***/…"),
    ],
)
def test_a_home_path_is_reported_with_the_user_name_redacted(line: str, shown: str) -> None:
    [(_, _, code, message)] = findings({"CLAUDE.md": f"# Guide\n\n{line}\n"})
    assert code == "REF002" and shown in message
    assert "jsmith" not in message and "Olivia" not in message and "/wei/" not in message
    # A path outside the repository (an SDK, the agent's own folder) has a remedy too.
    assert message.endswith("write the path relative to the repository root, or from the home folder (~/…) if it is outside the repository")


@pytest.mark.parametrize(
    "line",
    [
        "Set up /home/user/app and /Users/<name>/work, /home/$USER/x, C:\\Users\\%USERNAME%\\x",
        "CI runs in /home/runner/work/app; shared files in /Users/Shared/x and C:\\Users\\Public\\x",
        "See https://example.com/home/alice/ and ~/home/bob/.",
    ],
)
def test_placeholder_and_no_ones_home_paths_are_not_reported(line: str) -> None:
    assert findings({"CLAUDE.md": f"# Guide\n\n{line}\n"}, "REF002") == []


def test_the_same_memory_under_two_names_is_reported_on_the_later_one() -> None:
    body = "Run the integration tests against a real database,\nnever mocks.\n"
    files = store(feedback_testing=body, feedback_tests="run the integration tests  against a REAL database, never mocks.\n", other="Deploy on Fridays never.\n")
    [(path, line, code, message)] = findings(files)
    assert (path, line, code) == (f"{STORE}/feedback_tests.md", 1, "MEM023")
    assert "same body as feedback_testing.md" in message


def test_a_duplicate_memory_the_index_lists_once_is_not_said_to_be_listed_twice() -> None:
    body = "Run the integration tests against a real database, never mocks.\n"
    files = store(feedback_testing=body, feedback_tests=body)
    files[INDEX] = "# Memory\n\n- [feedback_testing](feedback_testing.md) - feedback_testing\n"
    [(_, _, _, message)] = findings(files, "MEM023")
    assert message == "feedback_tests.md has the same body as feedback_testing.md: the store holds one memory under two names; merge them into feedback_testing.md and delete this one"


def test_a_near_copy_under_the_same_description_is_reported() -> None:
    words = " ".join(f"word{i}" for i in range(40))
    files = store(a=words + " one.\n", b=words + " two and a few more words here.\n")
    files[f"{STORE}/b.md"] = files[f"{STORE}/b.md"].replace("About b", "About a")
    [(path, _, code, message)] = findings(files)
    assert (path, code) == (f"{STORE}/b.md", "MEM023")
    assert "description of a.md and nearly its body" in message


def test_a_near_copy_under_another_description_is_not_reported() -> None:
    words = " ".join(f"word{i}" for i in range(40))
    assert findings(store(a=words + " one.\n", b=words + " two.\n")) == []


def test_a_message_escapes_what_it_quotes() -> None:
    [(_, _, _, message)] = findings({"AGENTS.md": "# Guide\n\nRun `tests/test_cli.py`.\n", "odd\x1b[2J/test_cli.py": ""})
    assert "\x1b" not in message and "odd\\u001b[2J/test_cli.py has its name" in message


@given(st.text(max_size=60))
def test_a_path_token_is_plain_or_nothing(text: str) -> None:
    token = references._path_token(text)
    if token is not None:
        assert token and not any(c.isspace() or c in "<>{}$*?[]|`'\"" for c in token)
        assert token.isprintable() and "//" not in token and not token.startswith("/")


def test_lint_sees_the_rules_with_their_codes() -> None:
    assert lint(guide("Run `tests/test_cli.py`."), "REF") == [("AGENTS.md", 3, "REF001")]


@given(st.lists(st.sampled_from(["Run", "the", "TESTS", "on", "a", "real", "database", "never", "mocks."]), min_size=4, max_size=30), st.lists(st.sampled_from([" ", "\n", "  ", "\t", "\n\n"]), min_size=30, max_size=30))
def test_a_body_saved_again_with_other_case_and_spacing_is_the_same_body(words: list[str], gaps: list[str]) -> None:
    from memcheck.text.duplicates import duplicates

    first = " ".join(words)
    again = "".join(w.swapcase() + gap for w, gap in zip(words, gaps))
    found = list(duplicates([("s/a.md", "another", first), ("s/b.md", "one", again)]))  # in file-name order, as a store lists them
    assert [(d.path, d.earlier, d.ratio) for d in found] == [("s/b.md", "s/a.md", 1.0)]


def test_a_duplicate_memory_s_message_escapes_its_file_names() -> None:
    body = "Run the integration tests against a real database, never mocks.\n"
    files = store(a=body, **{"b\x1b[2J": body})
    [(_, _, code, message)] = findings(files, "MEM023")
    assert code == "MEM023" and "\x1b" not in message and "b\\u001b[2J.md has the same body as a.md" in message


def test_a_memory_citing_a_kind_of_agent_file_by_name_is_not_judged() -> None:
    assert findings(store(a="Every skill has a `SKILL.md`; nested packages get their own `AGENTS.md`.\n")) == []


def test_one_memory_saved_twice_under_one_name_is_one_finding_that_says_merge() -> None:
    body = "Run the integration tests against a real database, never mocks.\n"
    files = store(feedback_testing=body, feedback_tests=body)
    files[f"{STORE}/feedback_tests.md"] = memory("feedback_testing", "About feedback_testing", "feedback", body=body)
    [(path, _, code, message)] = findings(files, "MEM011,MEM023")
    assert (path, code) == (f"{STORE}/feedback_tests.md", "MEM011")
    assert message.endswith("is already used by feedback_testing.md; it says what feedback_testing.md says: merge them into it and delete this one")


def test_two_memories_of_one_name_that_say_different_things_keep_the_rename_advice() -> None:
    files = store(a="Deploy on Fridays never.\n", b="Run the linter before each push.\n")
    files[f"{STORE}/b.md"] = memory("a", "About b", "feedback", body="Run the linter before each push.\n")
    [(_, _, code, message)] = findings(files, "MEM011,MEM023")
    assert code == "MEM011" and message.endswith("give each memory its own name")


def test_near_copies_are_weighed_within_a_budget_of_word_pairs_per_store(monkeypatch: pytest.MonkeyPatch) -> None:
    # Bodies of the same few words pass difflib's cheap bounds and cost the product of
    # their lengths each: the full ratio is weighed only while the store's budget lasts.
    import difflib

    from memcheck.text import duplicates as dup

    weighed: list[int] = []

    class Counting(difflib.SequenceMatcher):  # type: ignore[type-arg]
        def ratio(self) -> float:
            weighed.append(len(self.a) * len(self.b))
            return 0.0  # nothing alike: every pair is tried

    monkeypatch.setattr(difflib, "SequenceMatcher", Counting)  # (imported from difflib when weighed)
    words = " ".join(["alpha", "beta", "gamma"] * 100)
    items = [(f"m{i:03}.md", "note", f"{i} {words}") for i in range(200)]
    assert list(dup.duplicates(items)) == []
    assert 0 < sum(weighed) <= dup._RATIO_WORD_PAIRS
