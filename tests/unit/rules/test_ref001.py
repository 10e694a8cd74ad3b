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
    assert (
        found.message
        == "`tests/test_cli.py` names no file of the repository; tests/unit/test_cli.py has its name, so it probably moved there: update the path"
    )


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
    assert (found.path, found.line, found.code) == ("AGENTS.md", 3, "REF001") and "tests/unit/test_cli.py has its name" in found.message


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
    assert "`feedback_c.md` is no memory of this store" in found.message


def test_bare_names_in_guidance_are_not_judged() -> None:
    assert lint(guide("Each route has a `page.tsx`; see `CLAUDE.md` and `meta.json`."), "REF") == []


def test_a_memory_citing_a_kind_of_agent_file_by_name_is_not_judged() -> None:
    assert lint(store(a="Every skill has a `SKILL.md`; nested packages get their own `AGENTS.md`.\n"), "REF") == []


def test_a_message_escapes_what_it_quotes() -> None:
    (found,) = findings({"AGENTS.md": "# Guide\n\nRun `tests/test_cli.py`.\n", "odd\x1b[2J/test_cli.py": ""}, "REF")
    assert "\x1b" not in found.message and "odd\\u001b[2J/test_cli.py has its name" in found.message


@given(st.text(max_size=60))
def test_a_path_token_is_plain_or_nothing(text: str) -> None:
    token = stale_reference._path_token(text)
    if token is not None:
        assert token and not any(c.isspace() or c in "<>{}$*?[]|`'\"" for c in token)
        assert token.isprintable() and "//" not in token and not token.startswith("/")
