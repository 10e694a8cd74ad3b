"""Which staged paths the guard stops, judged in memory (``judge_paths``, the guard's
engine on changes held as data): the files that make an agent, git or CI run
commands (agents tier); secret files by name; names with characters that draw
nothing; the places where secrets are kept that a symlink must not point at (GRD002),
absolute, climbing out of the repository, or through a process's view of the file
system; and settings that guard a person's change too. How git's diff becomes these
changes, and that it gives the same findings, is tested on real repositories in
tests/cli/test_guard_files.py and tests/cli/test_guard_secret_locations.py."""

from __future__ import annotations

from pathlib import Path
from typing import Callable

import pytest
from conftest import judge_paths, link_added

AGENT_SHELL = {"CLAUDECODE": "1"}

# --- files that run commands are the agents tier ---------------------------------------

RUNS_COMMANDS = [
    ".mcp.json", ".cursor/mcp.json", ".vscode/mcp.json", ".gemini/settings.json", ".claude/hooks/check.sh",
    ".claude/commands/deploy.md", ".codex/config.toml", ".husky/pre-commit", ".githooks/pre-push",
    ".pre-commit-config.yaml", ".github/workflows/ci.yml", ".devcontainer/devcontainer.json",
]  # fmt: skip


@pytest.mark.parametrize("path", RUNS_COMMANDS)
def test_an_agents_change_to_a_file_that_runs_commands_is_blocked(path: str) -> None:
    judged = judge_paths(path, env=AGENT_SHELL)
    assert judged.exit_code == 1 and judged.found == [(path, "GRD004")]
    assert "guarded by category runs-commands" in judged.message(path)


@pytest.mark.parametrize("path", RUNS_COMMANDS)
def test_a_persons_change_to_a_file_that_runs_commands_passes(path: str) -> None:
    assert judge_paths(path) == (0, [])


# --- secret files by name, for everyone ------------------------------------------------

SECRET_FILES = [
    ".envrc", "service-account.json", "gcp-key.json", "app-firebase-adminsdk-x1y2z-0123456789.json", "prod.tfvars",
    "vault.kdbx", "client.ovpn", "private.asc", "secring.gpg", ".s3cfg", ".boto", ".dockercfg", ".my.cnf",
    ".mylogin.cnf", ".databrickscfg", ".kaggle/kaggle.json", "rclone.conf", "home/.config/hub", "auth.json",
    # (a second outside attack's)
    ".env~", "etc/ssh/ssh_host_ed25519_key", "home/.gem/credentials", ".terraformrc", "terraform.rc", ".vault_pass",
    "passwords.kdb", "config/prod.secret.exs",
]  # fmt: skip


@pytest.mark.parametrize("path", SECRET_FILES)
def test_a_secret_file_by_name_is_blocked_whoever_commits_it(path: str) -> None:
    judged = judge_paths(path)
    assert judged.exit_code == 1 and judged.found == [(path, "GRD001")]


def test_a_link_to_a_home_s3cfg_is_blocked() -> None:
    judged = judge_paths(link_added("s3", "/home/me/.s3cfg"))
    assert judged.exit_code == 1 and judged.found == [("s3", "GRD002")]


def test_a_translation_named_auth_json_passes() -> None:
    assert judge_paths("locales/en/auth.json") == (0, [])


# --- names with characters that draw nothing -------------------------------------------

INVISIBLE = [
    (".e\u200cnv", "GRD001"),  # HFS+ opens it as .env
    (".s\u200csh/config", "GRD001"),
    ("\u202e.env", "GRD001"),
    ("deploy/id_\u2060rsa", "GRD001"),
    ("package\u200d-lock.json", None),  # agents tier: a person's change passes
]


@pytest.mark.parametrize(("path", "code"), INVISIBLE)
def test_a_name_is_matched_without_its_invisible_characters(path: str, code: str | None) -> None:
    judged = judge_paths(path)
    assert judged.found == ([(path, code)] if code else []) and judged.exit_code == (1 if code else 0)


def test_an_agents_lockfile_with_a_zero_width_joiner_is_blocked() -> None:
    judged = judge_paths("package\u200d-lock.json", env=AGENT_SHELL)
    assert judged.exit_code == 1 and judged.found == [("package\u200d-lock.json", "GRD004")]


# --- settings that guard a person's change too ------------------------------------------


@pytest.mark.parametrize(
    ("settings", "code"),
    [
        ("guard: {everyone: true}\n", "GRD004"),
        ("guard: {tiers: {lockfiles: secrets}}\n", "GRD001"),
        ("guard:\n  agents:\n    add: [{id: ours, agent: our bot, kind: author, email: test@example.com}]\n", "GRD004"),
    ],
)
def test_config_makes_a_persons_lockfile_change_guarded(settings: str, code: str) -> None:
    # (the third: the test's shell commits as test@example.com, the config's own agent)
    env = {"GIT_AUTHOR_EMAIL": "test@example.com"} if "email:" in settings else None
    assert judge_paths("package-lock.json", settings=settings, env=env).found == [("package-lock.json", code)]


# --- a staged symlink to a place where secrets are kept ----------------------------------

SECRET_LOCATIONS = [
    "/proc/self/environ",
    "/proc/1/environ",
    "/proc/4242/environ",
    "/run/secrets/db_password",
    "/run/secrets/api",
    "/var/run/secrets/kubernetes.io/serviceaccount/token",
    "/home/me/.config/gh/hosts.yml",
    "/home/me/.docker/config.json",
    "/home/me/.npmrc",
    "/root/.npmrc",
    "/Users/me/.npmrc",
    "/home/me/.yarnrc.yml",
    "/home/me/.codex/auth.json",
    "/home/me/.gemini/oauth_creds.json",
    "/home/me/.config/github-copilot/apps.json",
    "/home/me/.config/github-copilot/hosts.json",
    "/home/me/.claude/.credentials.json",
    "/home/me/.claude.json",
    "/home/me/.vault-token",
    "/home/me/.bash_history",
    "/home/me/.zsh_history",
    "/home/me/.sh_history",
    "/home/me/.histfile",
    "/home/me/.local/share/fish/fish_history",
    "/home/me/.python_history",
    "/home/me/.psql_history",
    "/home/me/.mysql_history",
    "/home/me/.node_repl_history",
    "/etc/shadow",
    "/etc/gshadow",
    "/home/me/.m2/settings.xml",
    "/home/me/.gradle/gradle.properties",
    "/home/me/.netrc",
    "/home/me/.git-credentials",
    "/home/me/.pypirc",
    "/home/me/.cargo/credentials",
    "/home/me/.cargo/credentials.toml",
    "/home/me/.config/gcloud/application_default_credentials.json",
    "/home/me/.config/gcloud/credentials.db",
    "/home/me/.config/gcloud/access_tokens.db",
    "/home/me/.azure/accessTokens.json",
    "/home/me/.azure/msal_token_cache.json",
    # the same places reached by climbing out of the repository
    "../../../../../../../proc/self/environ",
    "../../../../.config/gh/hosts.yml",
    "../../../../.codex/auth.json",
]


def test_two_links_in_a_row_reach_the_secret_location_they_name_together() -> None:
    # `c -> e/shadow` names nothing guarded as written; through `e -> /etc` it is /etc/shadow.
    judged = judge_paths(link_added("e", "/etc"), link_added("c", "e/shadow"))
    assert ("c", "GRD002") in judged.found and "/etc/shadow" in judged.message("c")


WHOLE_PLACES = [
    pytest.param("/", "/ (the whole file system)", id="root"),
    pytest.param("/home/me", "a home folder", id="home-folder"),
    pytest.param("/Users/me/", "a home folder", id="mac-home-folder"),
    pytest.param("/root", "a home folder", id="root-home"),
    pytest.param("/home", "a home folder", id="every-home-folder"),
    pytest.param("/Users", "a home folder", id="every-mac-home-folder"),
    pytest.param("/etc", "/etc (the system's settings and keys)", id="etc"),
    pytest.param("/private/etc/", "/etc (the system's settings and keys)", id="mac-etc"),
    pytest.param("..", "a folder above the repository", id="parent"),
    pytest.param("../..", "a folder above the repository", id="grandparent"),
    pytest.param("/proc/self", "/proc/* (a process's environment and files)", id="proc-self"),
    pytest.param("/proc/self/root", "/proc/* (a process's environment and files)", id="proc-root"),
    # K1: the folder a secret pattern names a file inside, which an agent lists
    # through the link (d/hosts.yml) as any other file of the repository
    pytest.param("/home/me/.config/gh", "**/.config/gh/hosts.yml", id="gh"),
    pytest.param("/home/me/.docker", "**/.docker/config.json", id="docker"),
    pytest.param("/home/me/.codex", "**/.codex/auth.json", id="codex"),
    pytest.param("/home/me/.gemini/", "**/.gemini/oauth_creds.json", id="gemini"),
    pytest.param("/home/me/.azure", "**/.azure/accessTokens.json", id="azure"),
    pytest.param("/home/me/.cargo", "**/.cargo/credentials", id="cargo"),
    pytest.param("/home/me/.m2", "**/.m2/settings.xml", id="maven"),
    pytest.param("/home/me/.config", "a home folder's store of logins", id="config"),
    pytest.param("/home/me/.claude", "a home folder's store of logins", id="claude"),
    pytest.param("/home/me/.password-store", "a home folder's store of logins", id="pass"),
    pytest.param("/home/me/.local/share/keyrings", "a home folder's store of logins", id="keyrings"),
    pytest.param("/Users/me/Library/Keychains", "a home folder's store of logins", id="keychains"),
    pytest.param("/home/me/.mozilla", "a home folder's store of logins", id="firefox"),
    # K2: in another case, as macOS opens it; WSL's way to the Windows home folders
    pytest.param("/USERS/me", "a home folder", id="users-in-capitals"),
    pytest.param("/ETC", "/etc (the system's settings and keys)", id="etc-in-capitals"),
    pytest.param("/mnt/c/Users/me", "a home folder", id="wsl-windows-home"),
]


@pytest.mark.parametrize(("target", "place"), WHOLE_PLACES)
def test_a_link_to_a_whole_place_of_secrets_is_guarded(target: str, place: str) -> None:
    ((path, code, message),) = judge_paths(link_added("h", target)).problems
    assert (path, code) == ("h", "GRD002")
    # (a whole place is the category secret-folders; a folder a pattern names a file
    # inside, that pattern's category)
    assert f"(pattern {place})" in message


@pytest.mark.parametrize("target", ["docs", "../repo/docs", "/usr/share/doc", "/etc-notes", "/homework", "shared/.."])
def test_a_link_to_an_ordinary_folder_is_not_guarded(target: str) -> None:
    assert judge_paths(link_added("h", target)) == (0, [])


# K3: an agent knows the absolute path of the clone it works in.
CLONE = Path("/home/runner/work/project/project")
ABOVE = [
    pytest.param(lambda root: str(root.parent), id="parent"),
    pytest.param(lambda root: str(root.parent.parent), id="grandparent"),
    pytest.param(lambda root: f"{root}/sub/../..", id="parent-through-the-repository"),
    pytest.param(lambda root: f"../../{root.parent.name}", id="climbing-to-a-named-parent"),
]


@pytest.mark.parametrize("target", ABOVE)
def test_a_folder_above_the_repository_spelt_as_a_path_is_guarded(target: Callable[..., str]) -> None:
    ((path, code, message),) = judge_paths(link_added("par", target(CLONE)), root=CLONE).problems
    assert (path, code) == ("par", "GRD002")
    assert "(pattern a folder above the repository)" in message


@pytest.mark.parametrize(
    "target",
    [
        pytest.param(lambda root: "/home/me/projects/data", id="a-folder-in-a-home"),
        pytest.param(lambda root: "/home/me/.config/nvim", id="a-folder-of-config"),
        pytest.param(lambda root: str(root), id="the-repository-itself"),
        pytest.param(lambda root: f"{root}/docs", id="a-folder-of-the-repository"),
    ],
)
def test_a_link_to_another_folder_outside_is_not_guarded(target: Callable[..., str]) -> None:
    assert judge_paths(link_added("d", target(CLONE)), root=CLONE) == (0, [])


# (found by an outside attack on the tiers)
PROCESS_VIEWS = [
    "/proc/self/task/1/environ",
    "/proc/self/root/proc/self/environ",
    "/proc/self/root/etc/shadow",
    "/proc/1/root/run/secrets/db_password",
    "/proc/self/root/var/run/secrets/kubernetes.io/serviceaccount/token",
]


@pytest.mark.parametrize(
    ("link", "target"),
    [
        *(pytest.param(".claude/memory/runtime.md", target, id=target) for target in SECRET_LOCATIONS),
        # through a process's view of the file system
        *(pytest.param("notes.txt", target, id=target) for target in PROCESS_VIEWS),
    ],
)
def test_a_staged_symlink_to_a_secret_location_is_guarded(link: str, target: str) -> None:
    judged = judge_paths(link_added(link, target))
    assert judged.exit_code == 1 and judged.found == [(link, "GRD002")]
