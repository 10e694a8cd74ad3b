"""MEM023 duplicate-memory: one memory saved twice under two names (with MEM011 in
duplicates.py). The doc's *Example* is two files, its *Use instead* the one kept."""

from __future__ import annotations

from conftest import example, memory
from memory_rules import STORE, findings, lint

BODY = "Run the integration tests against a real database, never mocks.\n"


def test_the_docs_example_the_later_file_is_reported_and_names_the_earlier() -> None:
    files = {f"{STORE}/feedback_testing.md": example("MEM023"), f"{STORE}/feedback_tests.md": example("MEM023", nth=2)}
    (found,) = findings(files)
    assert (found.path, found.line, found.code) == (f"{STORE}/feedback_tests.md", 1, "MEM023")
    assert (
        found.message
        == "feedback_tests.md has the same body as feedback_testing.md: the store holds one memory under two names; merge them into feedback_testing.md and delete this one"
    )


def test_the_docs_use_instead_one_memory_kept_is_not_reported() -> None:
    assert lint({f"{STORE}/feedback_testing.md": example("MEM023", "Use instead")}) == []


def test_the_same_body_in_two_files_is_reported() -> None:
    files = {
        f"{STORE}/feedback_testing.md": memory("Testing", "Integration tests", "feedback", body=BODY),
        f"{STORE}/feedback_tests.md": memory("Tests", "How to test", "feedback", body=BODY),
    }
    (found,) = [p for p in findings(files) if p.code == "MEM023"]
    assert (found.path, found.line) == (f"{STORE}/feedback_tests.md", 1)
    assert (
        found.message
        == "feedback_tests.md has the same body as feedback_testing.md: the store holds one memory under two names; merge them into feedback_testing.md and delete this one"
    )


def test_one_memory_beside_another_is_not_reported() -> None:
    files = {
        f"{STORE}/feedback_testing.md": memory("Testing", "Integration tests", "feedback", body=BODY),
        f"{STORE}/other.md": memory("Other", "Other", "user"),
    }
    assert [f for f in lint(files) if f[2] == "MEM023"] == []


def test_two_records_of_a_dated_series_are_not_one_memory() -> None:
    # Judged on a public repository: a tool writes a session log per run,
    # `session_2026-05-28_sidecoach.md` and `..._2026-05-29_...`, the same description
    # and 83% of the words alike, recording different runs ("36 flows" and "18 flows").
    run = "Flows executed: {n}. Rules applied: naming, layout, spacing, colour, type. Metrics validated.\n" * 3
    description = "Sidecoach flow execution session - design decisions, rules applied, metrics validated"
    files = {
        f"{STORE}/session_2026-05-28_sidecoach.md": memory("Run 28", description, "project", body="# 2026-05-28\n" + run.format(n=36)),
        f"{STORE}/session_2026-05-29_sidecoach.md": memory("Run 29", description, "project", body="# 2026-05-29\n" + run.format(n=18)),
    }
    assert [p for p in findings(files) if p.code == "MEM023"] == []
    # A copy of the whole body is a copy, dated or not; names that differ besides their
    # dates are no series.
    same = {path: memory(path[-20:], description, "project", body=run.format(n=36)) for path in files}
    assert [p.path for p in findings(same) if p.code == "MEM023"] == [f"{STORE}/session_2026-05-29_sidecoach.md"]
    other = {path.replace("29_sidecoach", "29_sidecoach-rerun"): text for path, text in files.items()}
    assert [p.code for p in findings(other) if p.code == "MEM023"] == ["MEM023"]


def test_one_day_written_two_ways_is_no_series() -> None:
    # An outside attack's recipe: `deploy_2026-05-28.md` and `deploy_20260528.md` name
    # one day: one record saved twice.
    body = "Deploy with the blue-green script, then watch the error rate for ten minutes.\n" * 3
    for other in ("deploy_20260528.md", "deploy_2026_05_28.md"):
        files = {
            f"{STORE}/deploy_2026-05-28.md": memory("Deploy 1", "How we deploy", "project", body=body),
            f"{STORE}/{other}": memory("Deploy 2", "How we deploy", "project", body=body.replace("ten", "fifteen", 1)),
        }
        assert [p.code for p in findings(files) if p.code == "MEM023"] == ["MEM023"], other
