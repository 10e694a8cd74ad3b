"""GRD001 guarded-path: a change touches a path the guard stops for everyone's changes
(secrets' places), or, from an agent, for an agent's too. Through the guard's engine
on staged changes held in memory (tests/unit/rules/guarding.py); how git's diff
becomes those changes (renames, deletions, modes) is tested in tests/cli/test_guard.py."""

from __future__ import annotations

import pytest
from conftest import example
from guarding import added, guard_staged, line, modified, printed, shows

from memcheck.changes import SYMLINK_MODE


def test_the_docs_example_is_what_the_guard_prints() -> None:
    (expected,) = printed(example("GRD001"))  # `git add .env && memcheck guard`
    assert [line(p) for p in guard_staged(added(".env"))] == [expected]


def test_the_docs_use_instead_a_template_passes_and_the_allow_line_lets_the_path_through() -> None:
    # The doc's *Use instead* is prose: a template such as .env.example passes, and
    # the line the message gives, put in the settings, allows exactly that path.
    assert guard_staged(added(".env.example")) == []
    (found,) = guard_staged(added("my app/.env"))
    allow = found.message.split("put in .memcheck.yaml: ")[1]
    assert guard_staged(added("my app/.env"), head=allow + "\n") == []
    assert [p.path for p in guard_staged(added("other/.env"), head=allow + "\n")] == ["other/.env"]


def test_the_docs_use_instead_disabling_a_category_lets_its_paths_through() -> None:
    assert [p.code for p in guard_staged(added("package-lock.json"), env={"CLAUDECODE": "1"})] == ["GRD004"]
    assert guard_staged(added("package-lock.json"), head="guard: {disable: [lockfiles]}\n", env={"CLAUDECODE": "1"}) == []


@pytest.mark.parametrize(
    ("path", "what"),
    [
        ("config/SERVER.PEM", "added: guarded by category keys (pattern *.pem)"),
        ("apps/web/.env.local", "added: guarded by category env (pattern .env.*)"),
        ("my app/.env", "added: guarded by category env"),
        (".ssh/id_rsa", "added: guarded by category ssh (pattern .ssh/)"),
    ],
)
def test_a_secrets_place_is_guarded_from_an_agent_and_a_person(path: str, what: str) -> None:
    for env in ({"CLAUDECODE": "1"}, {}):
        (found,) = guard_staged(added(path), env=env)
        assert (found.path, found.code) == (path, "GRD001")
        assert shows(f"{path}:1:1: GRD001 unstage it ...{what}...", line(found))


@pytest.mark.parametrize(
    "path",
    [
        "src/tokenizer.py",
        "auth/oauth_client.go",
        "password_reset.ts",
        ".env.example",
        "reset-password-form.tsx",
        "docker-secrets.md",
        "README.md",
    ],
)
def test_a_name_that_only_sounds_secret_passes(path: str) -> None:
    assert guard_staged(added(path)) == []


def test_an_allowance_with_or_without_a_bang_keeps_the_templates() -> None:
    head = "guard:\n  allow: ['/fixtures/', '!*.test.pem']\n"
    allowed = [added(name) for name in ("fixtures/.env", "keys/a.test.pem", ".env.example", "deploy/.env.production.example")]
    assert guard_staged(*allowed, head=head) == []
    assert [p.path for p in guard_staged(*allowed, added("keys/a.pem"), head=head)] == ["keys/a.pem"]


def test_patterns_the_settings_add_and_negate() -> None:
    head = "guard:\n  patterns: ['*.sqlite', '/local.db', '!demo.sqlite']\n"
    found = guard_staged(*(added(name) for name in ("data/app.sqlite", "demo.sqlite", "local.db", "mod/local.db")), head=head)
    assert [p.path for p in found] == ["data/app.sqlite", "local.db"]
    assert "guarded by category config (pattern *.sqlite)" in found[0].message


def test_case_sensitive_matching_is_opt_in() -> None:
    assert [p.code for p in guard_staged(added(".ENV"))] == ["GRD001"]
    assert guard_staged(added(".ENV"), head="guard: {case-sensitive: true}\n") == []


def test_a_lint_only_select_does_not_switch_the_gate_off_but_a_guard_select_does() -> None:
    assert [p.code for p in guard_staged(added(".env"), head="select: [MEM, IDX]\n")] == ["GRD001"]
    assert guard_staged(added(".env"), head="select: [GRD002]\n") == []


def test_a_per_path_ignore_lets_one_path_through() -> None:
    head = "per-path-ignores: {'/.env': [GRD]}\n"
    assert guard_staged(added(".env"), head=head) == []
    assert [p.path for p in guard_staged(added(".env"), added("app/.env"), head=head)] == ["app/.env"]


@pytest.mark.parametrize("path", [".env.example/.env", "config/example.env/prod.pem", ".aws/.env.example", "deploy/sample.env/id_rsa"])
def test_a_template_name_never_exempts_a_folder_or_another_category(path: str) -> None:
    assert [p.path for p in guard_staged(added(path))] == [path]


def test_real_templates_pass() -> None:
    names = (".env.example", "deploy/.env.production.sample", "example.env", "keys/id_rsa.pub", "keys/id_ed25519_deploy.pub")
    # a link to a template is a template
    assert guard_staged(*(added(name) for name in names), added("env.template.link", SYMLINK_MODE, ".env.example")) == []


@pytest.mark.parametrize(
    ("path", "category"),
    [
        ("keys/putty.ppk", "keys"),
        ("deploy/id_rsa_work", "ssh"),
        ("id_ed25519_github", "ssh"),
        (".pypirc", "credentials"),
        ("infra/terraform.tfstate", "credentials"),
        ("infra/terraform.tfstate.backup", "credentials"),
        ("CLAUDE.local.md", "agent-local"),
        (".claude/settings.local.json", "agent-local"),
    ],
)
def test_names_the_first_list_missed(path: str, category: str) -> None:
    # agents' personal files: guarded from an agent's commit
    (found,) = guard_staged(added(path), env={"CLAUDECODE": "1"})
    assert found.path == path and f"guarded by category {category}" in found.message


def test_code_and_documentation_about_secrets_pass_and_the_secrets_do_not() -> None:
    passing = [
        "pkg/minikube/kubeconfig/settings.go", "pkg/kubeconfig.go", "docs/kubeconfig.md", "pkg/ssh/id_rsa_parser.go",
        "docs/id_rsa.md", "docs/.env.md", "web/.env.ts", "secrets.example.yaml", "config/secrets.template.yml",
        "pkg/ssh/id_rsa_test.go", ".env.sample", ".env.template", "secrets.sample.yaml", "docs/secrets.md",
        "app/.env.d/README.md", ".env.vault", ".env.defaults",
    ]  # fmt: skip
    assert guard_staged(*map(added, passing)) == []
    secrets = ["kubeconfig.yaml", "deploy/id_rsa_work", "config/.env.production", ".env.keys"]
    assert [p.path for p in guard_staged(*map(added, passing + secrets))] == [
        ".env.keys",
        "config/.env.production",
        "deploy/id_rsa_work",
        "kubeconfig.yaml",
    ]


@pytest.mark.parametrize("path", [".env ", "keys/x.pem.", "deploy/prod.key ", ".aws./credentials"])
def test_a_name_windows_reads_as_a_guarded_one_is_guarded_and_its_allow_line_allows_it(path: str) -> None:
    (found,) = guard_staged(added(path))
    assert found.path == path
    allow = found.message.split("put in .memcheck.yaml: ", 1)[1]
    assert guard_staged(modified(path), head=allow + "\n") == []
