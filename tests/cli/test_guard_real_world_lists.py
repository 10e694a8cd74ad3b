"""Guard over hand-written file lists with real repositories' shapes (tests/fixtures/filelists):
the name-substring categories flag no source or documentation file, every .env file, key,
certificate, kubeconfig and .aws/credentials is flagged, and `memcheck guard` says so
in a real repository. tests/shared/test_guard_filelists.py runs the same checks over
102 real repositories' lists where ../shared is beside the checkout."""

from __future__ import annotations

import json
from pathlib import Path
from types import ModuleType

import pytest
from conftest import FIXTURES, REPO_ROOT, load_script, run_cli, write

from memcheck.config import default_config
from memcheck.guard.paths import Guard

LISTS = FIXTURES / "filelists"


def bench() -> ModuleType:
    return load_script(REPO_ROOT / "bench" / "guard_filelists.py")


def test_name_substring_categories_flag_no_source_or_documentation() -> None:
    module = bench()
    figures = module.measure(LISTS)
    assert figures.lists == 5 and figures.paths > 100
    for category in module.NAME_SUBSTRING:
        assert figures.source_or_doc.get(category, []) == [], category
    # The lists are full of code and docs named for secrets, none of them flagged...
    lists = module.read_lists(LISTS)
    named = [
        p
        for paths in lists.values()
        for p in paths
        if module.is_source_or_doc(p) and any(w in p.lower() for w in ("secret", "credential", "token", "auth"))
    ]
    assert len(named) >= 25
    # ...and what they do flag are data files: manifests, configs, fixtures.
    flagged = sorted(p.split(": ", 1)[1] for c in module.NAME_SUBSTRING for p in figures.flagged.get(c, []))
    assert {"deploy/k8s/base/secret.yaml", "testing/aws_config_with_secret.ini", "tests/fixtures/credentials.json"} <= set(flagged)
    assert "tests/fixtures/response_error_wrong_password.json" in flagged
    assert all(not module.is_source_or_doc(p) for p in flagged)
    # A Helm template of a Secret and a template .env are not secrets.
    assert "charts/app/templates/secret.yaml" not in flagged and ".env.local.example" not in flagged


def test_every_secret_shaped_path_is_flagged() -> None:
    module = bench()
    figures = module.measure(LISTS)
    assert figures.missed == []
    flagged = {p.split(": ", 1)[1] for c in ("env", "keys") for p in figures.flagged.get(c, [])}
    assert {".env", "testdata/certificate/key.pem", "testdata/certificate/cert.pem", "tests/test_apps/.env", "keys/deploy.key"} <= flagged
    every = {p.split(": ", 1)[1] for paths in figures.flagged.values() for p in paths}
    assert {".aws/credentials", ".kube/config", "kubeconfig", "infra/terraform.tfstate", ".pypirc", "CLAUDE.local.md"} <= every
    # Public keys and templates stay allowed; code about a secret is code.
    assert not {"keys/deploy.pub", ".env.example", "apps/web/.env.production.sample", "kubeconfig.go", "credentials.go"} & every


def test_source_and_docs_in_the_lists_are_only_flagged_by_where_they_are() -> None:
    module = bench()
    guard = Guard(default_config(Path.cwd()).guard)
    by_place = set()
    for paths in module.read_lists(LISTS).values():
        for path in paths:
            hit = guard.hit(path)
            if hit is not None and module.is_source_or_doc(path):
                # code under node_modules/ or a root build/ folder is guarded by where it
                # is; CLAUDE.local.md is a secret by its own name
                assert hit.category in ("node-modules", "build-outputs") or module.MUST_FLAG.search(path), (path, hit)
                by_place.add(hit.category)
    assert by_place == {"node-modules", "build-outputs", "agent-local"}


def test_guard_reports_a_real_list_in_a_real_repository(repo: Path) -> None:
    module = bench()
    paths = module.read_lists(LISTS)["example/python-service"]
    write(repo, "paths.txt", "\n".join(paths) + "\n")
    proc = run_cli(repo, "guard", "--paths-from", "paths.txt", "--format", "json")
    assert proc.returncode == 1 and proc.stderr == "", proc.stderr
    problems = json.loads(proc.stdout)["problems"]
    assert {p["code"] for p in problems} == {"GRD001"}
    assert sorted(p["path"] for p in problems) == [".env", ".pypirc", "tests/fixtures/credentials.json", "tests/test_apps/.env"]
    # From an agent's shell, its personal files are guarded too, and so are the files
    # that run commands (CI, the pre-commit hooks) and the lock file uv writes.
    proc = run_cli(repo, "guard", "--paths-from", "paths.txt", "--format", "json", env={"CLAUDECODE": "1"})
    agents = [(p["path"], p["code"]) for p in json.loads(proc.stdout)["problems"] if p["code"] != "GRD001"]
    assert agents == [
        (".github/workflows/ci.yml", "GRD004"),
        (".pre-commit-config.yaml", "GRD004"),
        ("CLAUDE.local.md", "GRD004"),
        ("uv.lock", "GRD004"),
    ]
    clean = [p for p in paths if p not in {q["path"] for q in problems} | {"CLAUDE.local.md"}]
    write(repo, "clean.txt", "\n".join(clean) + "\n")
    assert run_cli(repo, "guard", "--paths-from", "clean.txt", "--format", "json").returncode == 0


@pytest.mark.parametrize(
    "must",
    [
        ".env", "prod/.env.local", "certs/tls.crt", "keys/deploy.key", "kubeconfig", ".aws/credentials", ".kube/config",
        "keys/win.ppk", "deploy/id_rsa_work", "id_ed25519", ".pypirc", "infra/terraform.tfstate", "terraform.tfstate.backup",
        "CLAUDE.local.md", "app/.claude/settings.local.json",
    ],
)  # fmt: skip
def test_must_flag_shapes_are_guarded(must: str) -> None:
    assert bench().MUST_FLAG.search(must)
    assert Guard(default_config(Path.cwd()).guard).hit(must) is not None
