"""The guard's categories and its matcher: what is guarded, what is not, and that the
bucketed matcher agrees with pathspec's GitIgnoreSpec on every pattern."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pathspec
import pytest
from conftest import REPO_ROOT, cpu_limit
from hypothesis import given, settings
from hypothesis import strategies as st

from memcheck.config import ConfigError, default_config
from memcheck.guard.categories import categories
from memcheck.guard.findings import allow_line
from memcheck.guard.paths import Guard, Hit, PatternSet, guard_for, link_target, link_targets
from memcheck.text.first_match import FirstMatch

CATEGORIES = [
    "env", "credentials", "keys", "auth-tokens", "config-secrets", "ssh", "aws", "gpg",
    "kubernetes", "docker", "ide", "git", "node-modules", "lockfiles", "build-outputs", "agent-local", "runs-commands",
]  # fmt: skip


def default_guard(**changes: object) -> Guard:
    config = default_config(Path.cwd()).guard
    return Guard(config._replace(**changes))


def test_the_categories() -> None:
    assert list(categories()) == CATEGORIES


def test_templates_are_one_segment_each() -> None:
    # A template exempts a file by its own name (its last path segment) only; the
    # secret words' templates by place too (a templates/ folder, a workflow), which
    # no other category has.
    for category in categories().values():
        for template in category.allow:
            assert not template.startswith("!"), (category.name, template)
            assert "/" not in template or category.name in ("credentials", "auth-tokens", "config-secrets"), (category.name, template)


@pytest.mark.parametrize(
    ("path", "expected"),
    [
        ("deploy/helm/app/templates/secrets.yaml", None),
        (".github/workflows/setup-secrets.yml", "runs-commands"),  # no secret: a workflow, guarded from agents
        ("templates/.env", "env"),
        ("templates/id_rsa", "ssh"),
        ("templates.d/secrets.yaml", "credentials"),
        ("tools/.github/workflows/secrets.yml", "credentials"),
        ("deploy/k8s/base/secret.yaml", "credentials"),
    ],
)
def test_secret_word_templates_by_place(path: str, expected: str | None) -> None:
    hit = Guard(default_config(Path(".")).guard).hit(path)
    assert (hit.category if hit else None) == expected


@pytest.mark.parametrize(
    ("path", "category"),
    [
        (".env", "env"),
        (".ENV", "env"),
        ("apps/web/.env.local", "env"),
        ("deploy/.env.production", "env"),
        ("docker/prod.env", "env"),
        ("config/SERVER.PEM", "keys"),
        ("certs/site.crt", "keys"),
        ("android/release.keystore", "keys"),
        ("secrets.yaml", "credentials"),
        ("deploy/k8s/db-secret.yaml", "credentials"),
        ("config/credentials.json", "credentials"),
        ("secrets.prod.json", "credentials"),
        ("client_secret_1234.apps.googleusercontent.com.json", "credentials"),
        (".git-credentials", "credentials"),
        ("token.json", "auth-tokens"),
        ("github_token.txt", "auth-tokens"),
        ("oauth.json", "auth-tokens"),
        ("passwords.txt", "config-secrets"),
        ("db_password.txt", "config-secrets"),
        ("api_key.txt", "config-secrets"),
        ("openai-apikey.env", "env"),
        ("ApiKey.json", "config-secrets"),
        (".htpasswd", "config-secrets"),
        (".ssh/id_rsa", "ssh"),
        ("home/.ssh/config", "ssh"),
        ("backup/id_ed25519", "ssh"),
        (".aws/credentials", "aws"),
        (".gnupg/pubring.kbx", "gpg"),
        ("kubeconfig", "kubernetes"),
        ("clusters/prod.kubeconfig", "kubernetes"),
        (".kube/config", "kubernetes"),
        ("docker-compose.override.yml", "docker"),
        (".idea/workspace.xml", "ide"),
        ("apps/web/.vscode/settings.json", "ide"),
        (".git/config", "git"),
        ("node_modules/x/i.js", "node-modules"),
        ("packages/a/node_modules/b/index.js", "node-modules"),
        ("package-lock.json", "lockfiles"),
        ("web/pnpm-lock.yaml", "lockfiles"),
        ("yarn.lock", "lockfiles"),
        ("dist/index.js", "build-outputs"),
        ("build/app.js", "build-outputs"),
        # what the list of seed 000 missed
        ("keys/server.ppk", "keys"),
        ("deploy/id_rsa_work", "ssh"),
        ("id_ed25519_sk", "ssh"),
        ("backup/id_ecdsa-old", "ssh"),
        ("id_rsa.bak", "ssh"),
        (".pypirc", "credentials"),
        ("infra/terraform.tfstate", "credentials"),
        ("infra/terraform.tfstate.backup", "credentials"),
        ("CLAUDE.local.md", "agent-local"),
        ("packages/api/CLAUDE.local.md", "agent-local"),
        (".claude/settings.local.json", "agent-local"),
        ("client/app/.claude/settings.local.json", "agent-local"),
        # settings that make an agent or an editor run commands
        (".claude/settings.json", "runs-commands"),
        ("web/.claude/settings.json", "runs-commands"),
        (".vscode/tasks.json", "runs-commands"),
        # files that make an agent, git or CI run commands
        (".mcp.json", "runs-commands"),
        ("tools/.mcp.json", "runs-commands"),
        (".cursor/mcp.json", "runs-commands"),
        (".vscode/mcp.json", "runs-commands"),
        (".gemini/settings.json", "runs-commands"),
        (".claude/hooks/check.sh", "runs-commands"),
        (".claude/commands/deploy.md", "runs-commands"),  # guarded by where it is, Markdown or not
        (".codex/config.toml", "runs-commands"),
        (".husky/pre-commit", "runs-commands"),
        (".githooks/pre-push", "runs-commands"),
        (".pre-commit-config.yaml", "runs-commands"),
        (".github/workflows/ci.yml", "runs-commands"),
        (".github/workflows/memcheck.yaml", "runs-commands"),
        (".devcontainer/devcontainer.json", "runs-commands"),
        (".devcontainer/python/devcontainer.json", "runs-commands"),
        (".devcontainer.json", "runs-commands"),
        # other tools' files that run commands
        (".cursor/hooks.json", "runs-commands"),
        (".cursor/hooks/audit.sh", "runs-commands"),
        (".kiro/hooks/lint.kiro.hook", "runs-commands"),
        ("lefthook.yml", "runs-commands"),
        (".lefthook.toml", "runs-commands"),
        (".config/lefthook.yaml", "runs-commands"),
        (".lefthook/pre-commit/check.sh", "runs-commands"),
        (".gitlab-ci.yml", "runs-commands"),
        (".github/actions/setup/action.yml", "runs-commands"),
        (".circleci/config.yml", "runs-commands"),
        ("azure-pipelines.yml", "runs-commands"),
        ("bitbucket-pipelines.yml", "runs-commands"),
        ("Jenkinsfile", "runs-commands"),
        ("android/gradlew", "runs-commands"),
        ("gradle/wrapper/gradle-wrapper.properties", "runs-commands"),
        ("mvnw.cmd", "runs-commands"),
        (".mvn/wrapper/maven-wrapper.properties", "runs-commands"),
        (".yarnrc.yml", "runs-commands"),
        (".yarn/releases/yarn-4.1.0.cjs", "runs-commands"),
        (".cargo/config.toml", "runs-commands"),
        (".github/hooks/session.json", "runs-commands"),
        ("project.code-workspace", "runs-commands"),
        (".zed/settings.json", "runs-commands"),
        (".zed/tasks.json", "runs-commands"),
        # secret files by name
        (".envrc", "env"),
        ("service/.envrc", "env"),
        ("service-account.json", "credentials"),
        ("deploy/gcp-key.json", "credentials"),
        ("myapp-firebase-adminsdk-a1b2c-0123456789.json", "credentials"),
        ("infra/prod.tfvars", "credentials"),
        ("infra/terraform.auto.tfvars.json", "credentials"),
        ("vault.kdbx", "credentials"),
        ("vpn/client.ovpn", "keys"),
        ("private.asc", "gpg"),
        ("backup/secring.gpg", "gpg"),
        (".s3cfg", "credentials"),
        (".boto", "credentials"),
        (".dockercfg", "credentials"),
        (".my.cnf", "config-secrets"),
        (".mylogin.cnf", "config-secrets"),
        (".databrickscfg", "credentials"),
        (".kaggle/kaggle.json", "auth-tokens"),
        ("rclone.conf", "credentials"),
        ("home/.config/hub", "auth-tokens"),
        ("auth.json", "credentials"),
        ("home/me/.composer/auth.json", "credentials"),
        # the lock files of other ecosystems
        ("Cargo.lock", "lockfiles"),
        ("poetry.lock", "lockfiles"),
        ("uv.lock", "lockfiles"),
        ("Pipfile.lock", "lockfiles"),
        ("pdm.lock", "lockfiles"),
        ("Gemfile.lock", "lockfiles"),
        ("composer.lock", "lockfiles"),
        ("go.sum", "lockfiles"),
        ("flake.lock", "lockfiles"),
        ("app/pubspec.lock", "lockfiles"),
        ("mix.lock", "lockfiles"),
        ("src/App/packages.lock.json", "lockfiles"),
        ("gradle.lockfile", "lockfiles"),
        ("Package.resolved", "lockfiles"),
        # a template never exempts a folder's contents, nor a file of another category
        (".env.example/.env", "env"),
        ("config/example.env/prod.pem", "keys"),  # the folder is no template, and *.env names a file
        (".aws/.env.example", "aws"),
        (".ssh/id_rsa.pub", "ssh"),
        ("node_modules/pkg/.env.example", "node-modules"),
        # names that only name a file still do, whatever the rest of the name
        ("kubeconfig.yaml", "kubernetes"),
        ("deploy/kubeconfig.prod", "kubernetes"),
        (".env.sh", "env"),  # shell files export secrets: not spared as code
        ("deploy/id_rsa.bak", "ssh"),
        # as Windows reads a name: without the dots and spaces that end a segment
        (".env ", "env"),
        ("keys/x.pem.", "keys"),
        ("deploy/.env. . ", "env"),
        (".aws./credentials", "aws"),
        ("kubeconfig ", "kubernetes"),
    ],
)
def test_guarded(path: str, category: str) -> None:
    hit = default_guard().hit(path)
    assert hit is not None and hit.category == category


@pytest.mark.parametrize(
    "path",
    [
        # code and documentation that talk about secrets (SPEC §6)
        "src/tokenizer.py",
        "auth/oauth_client.go",
        "password_reset.ts",
        "web/reset-password-form.tsx",
        "docs/docker-secrets.md",
        "src/secrets/manager.py",  # a folder named secrets holds code
        "tokenizers/src/tokenizer/mod.rs",
        "lib/credentials_provider.rb",
        "docs/api/reset-user-password.StatusCodes.json",  # API reference, not a password
        "contracts/abis/ISuperToken.json",
        "design/tokens.json",  # design tokens
        "docs/how-tokens-work.txt",
        # templates and ordinary files
        ".env.example",
        "deploy/.env.production.example",
        "pkg/example.env",
        ".vscode/extensions.json",
        "README.md",
        "packages/web/dist/index.js",  # only the root dist/ and build/, as in seed 000
        "tools/build/script.py",
        "environment.py",
        "keyboard.key.md",
        # public keys are not secrets (outside .ssh/, as before)
        "id_rsa.pub",
        "deploy/id_rsa_work.pub",
        "keys/id_ed25519_sk.pub",
        # what Terraform and Claude Code share on purpose
        ".terraform.lock.hcl",
        "infra/main.tf",
        "CLAUDE.md",
        "docs/claude.local.md.txt",
        # code and documentation about a kubeconfig, an SSH key or an .env file: a name
        # pattern names a file, never a folder's contents, nor a source or documentation file
        "pkg/minikube/kubeconfig/settings.go",
        "pkg/cluster/internal/kubeconfig/internal/kubeconfig/merge.go",
        "pkg/kubeconfig.go",
        "docs/kubeconfig.md",
        "pkg/ssh/id_rsa_parser.go",
        "src/sshd/id_rsa.go",
        "docs/id_rsa.md",
        "docs/.env.md",
        "web/.env.ts",
        ".env.d/README.md",
        "terraform.tfstate.d/README.md",
        # templates of the secret words, as .env.example is for env
        "secrets.example.yaml",
        "secrets.sample.yaml",
        "config/secrets.template.yml",
        "example_credentials.json",
        "deploy/api-key.dist.ini",
        # names near the ones guarded that are not secrets
        "locales/en/auth.json",  # a translation: only the root's auth.json is Composer's
        "infra/prod.tfvars.example",
        "docs/workflows/ci.yml",
        "tools/.github/workflows/ci.yml",  # GitHub runs only the root's workflows
        ".envrc.example",
        "docs/lefthook.yml",  # lefthook reads only the root's config
        "ci/.gitlab-ci.yml",  # and GitLab the root's
        "src/gradlew_test.go",
    ],
)
def test_not_guarded(path: str) -> None:
    assert default_guard().hit(path) is None


@pytest.mark.parametrize("category", ["runs-commands", "lockfiles"])
def test_each_pattern_says_who_runs_or_writes_it(category: str) -> None:
    # Each file that runs commands names the agent or tool that runs it, each lock
    # file the tool that writes it: a vendor's page, beside the pattern in the data file.
    import json
    from importlib import resources

    data = json.loads(resources.files("memcheck").joinpath("resources/guard-patterns.json").read_text(encoding="utf-8"))
    spec = data["categories"][category]
    sources = spec["sources"]
    added = [
        p
        for p in spec["patterns"]
        if p not in ("package-lock.json", "npm-shrinkwrap.json", "yarn.lock", "pnpm-lock.yaml", "bun.lock", "bun.lockb")
    ]
    assert sorted(sources) == sorted(added)
    assert all(source.startswith("https://") for source in sources.values())


def test_every_source_names_a_pattern_of_its_category() -> None:
    import json
    from importlib import resources

    data = json.loads(resources.files("memcheck").joinpath("resources/guard-patterns.json").read_text(encoding="utf-8"))
    for name, spec in data["categories"].items():
        lines = {*spec["patterns"], *spec.get("files", ())}
        assert set(spec.get("sources", {})) <= lines, name


def test_unicode_is_matched_after_nfc() -> None:
    guard = default_guard(patterns=("caf\u00e9/",))
    assert guard.hit("cafe\u0301/menu.txt") == Hit("config", "caf\u00e9/")
    guard = default_guard(patterns=("cafe\u0301.txt",))
    assert guard.hit("caf\u00e9.txt") == Hit("config", "cafe\u0301.txt")


def test_case_sensitive() -> None:
    assert default_guard(case_sensitive=True).hit("config/SERVER.PEM") is None
    assert default_guard(case_sensitive=True).hit("config/server.pem") == Hit("keys", "*.pem")


def test_disable_allow_and_extra_patterns() -> None:
    guard = default_guard(disable=("lockfiles", "keys"), allow=("/vendor/",), patterns=("*.sqlite", "!keep.sqlite"))
    assert guard.hit("yarn.lock") is None
    assert guard.hit("a.pem") is None
    assert guard.hit("vendor/.env") is None
    assert guard.hit("x/vendor/.env") == Hit("env", ".env")
    assert guard.hit("db/app.sqlite") == Hit("config", "*.sqlite")
    assert guard.hit("keep.sqlite") is None


def test_disabling_env_keeps_no_template_exception_around() -> None:
    guard = default_guard(disable=("env",), patterns=(".env.*",))
    assert guard.hit(".env.local") == Hit("config", ".env.*")


@pytest.mark.parametrize("path", ["my app/.env", "a*b/.env", "[x]/.env", "q?/.env", "back\\slash/.env", "trailing /.env", "x/.env "])
def test_allow_line_allows_exactly_that_path(path: str) -> None:
    line = allow_line(path)
    import yaml

    allowed = yaml.safe_load(line)["guard"]["allow"]
    guard = default_guard(allow=tuple(allowed))
    assert guard.hit(path) is None
    assert guard.hit("other/.env") is not None


@pytest.mark.parametrize(
    ("link", "target", "resolved"),
    [
        ("notes.txt", "deploy.pem", "deploy.pem"),
        ("a/b/link", "../c/.env", "a/c/.env"),
        ("link", "../../home/me/.ssh/id_rsa", "home/me/.ssh/id_rsa"),
        ("link", "/home/me/.aws/credentials", "home/me/.aws/credentials"),
        ("link", ".", ""),
    ],
)
def test_link_target(link: str, target: str, resolved: str) -> None:
    assert link_target(link, target) == resolved


@pytest.mark.parametrize(
    ("link", "target", "names"),
    [
        ("l", "C:\\Users\\me\\.aws\\credentials", ["C:\\Users\\me\\.aws\\credentials", "Users/me/.aws/credentials"]),
        ("a/l", ".aws\\credentials", ["a/.aws\\credentials", "a/.aws/credentials"]),
        ("l", "\\\\server\\share\\.env", ["\\\\server\\share\\.env", "server/share/.env"]),
        ("l", "d:..\\.env", ["d:..\\.env", ".env"]),
        ("l", "notes/plain.txt", ["notes/plain.txt"]),
    ],
)
def test_link_targets_as_windows_reads_them(link: str, target: str, names: list[str]) -> None:
    assert link_targets(link, target) == names


ALL_PATTERNS = [p for c in categories().values() for p in c.patterns] + ["a/**/b", "/top.txt", "**/deep/*.txt", "x?.cfg", "[ab].ini"]
SEGMENTS = [
    "a", "b", "x1.cfg", "a.ini", "deep", "top.txt", ".env", ".env.local", "prod.env", "secret.json", "my-secrets.yaml",
    "secrets.prod.toml", "token", "tokenizer.py", "x.pem", "node_modules", "dist", "build", ".ssh", "id_rsa", ".aws",
    "kubeconfig", "kubeconfig.yaml", ".vscode", "settings.json", ".idea", "yarn.lock", "Token.TXT", "caf\u00e9.env",
    "api-key.conf", "a b", ".git", "oauth.xml", "deploy.PEM",
]  # fmt: skip


@cache
def both_matchers() -> tuple[PatternSet, pathspec.GitIgnoreSpec]:
    return PatternSet([Hit("x", p) for p in ALL_PATTERNS], case_sensitive=True), pathspec.GitIgnoreSpec.from_lines(ALL_PATTERNS)


@settings(max_examples=500, deadline=None)
@given(st.lists(st.sampled_from(SEGMENTS), min_size=1, max_size=5), st.booleans())
@pytest.mark.slow  # a property test: seconds of examples
def test_the_matcher_agrees_with_gitignorespec(parts: list[str], is_dir: bool) -> None:
    path = "/".join(parts)
    ours, spec = both_matchers()
    assert (ours.first(path, is_dir) is not None) == spec.match_file(path + "/" if is_dir else path)


def test_a_newline_in_a_folder_name_does_not_hide_what_is_below() -> None:
    # pathspec's regexes stop at a newline; ours do not, or "my\napp/.env" would pass.
    assert not pathspec.GitIgnoreSpec.from_lines([".env"]).match_file("my\napp/.env")
    assert default_guard().hit("my\napp/.env") == Hit("env", ".env")
    assert default_guard().hit("a\n/node_modules/\nb/x.js") == Hit("node-modules", "node_modules/")


def test_every_pattern_alone_agrees_with_gitignorespec() -> None:
    paths = (
        ["/".join(p) for p in zip(SEGMENTS, reversed(SEGMENTS))]
        + SEGMENTS
        + [f"{a}/{b}/{c}" for a, b, c in zip(SEGMENTS, SEGMENTS[3:], SEGMENTS[7:])]
    )
    for pattern in ALL_PATTERNS:
        ours = PatternSet([Hit("x", pattern)], case_sensitive=True)
        spec = pathspec.GitIgnoreSpec.from_lines([pattern])
        for path in paths:
            assert (ours.first(path) is not None) == spec.match_file(path), (pattern, path)


def test_shipped_lines_read_when_first_needed_match_as_read_at_once() -> None:
    # A shipped line with a fixed extension is filed by its text and read by pathspec
    # only when a name with that extension comes: it must land where reading it at
    # once would have put it. A non-ASCII extension reads every line.
    guard = default_guard()
    lines = [hit.pattern for hit in guard.guarded.hits]
    later, at_once = FirstMatch(lines), FirstMatch(lines, at_once=range(len(lines)))
    paths = [*SEGMENTS, *("/".join(p) for p in zip(SEGMENTS, reversed(SEGMENTS))), "x.\u00e9", "a/b.\u00e9/c.json"]
    for path in paths:
        for is_dir in (False, True):
            assert later.first_at(path, is_dir) == at_once.first_at(path, is_dir), path


def test_a_hostile_config_pattern_is_matched_in_linear_time() -> None:
    # pathspec's regex for it took Python's re 40 s against 40 characters.
    hostile = "*a*a*a*a*a*a*a*a*a*a*b"
    with cpu_limit(10, "a guard pattern re would backtrack on"):
        guard = default_guard(patterns=(hostile, "x/" + hostile), allow=(hostile + "/",))
        assert guard.hit("a" * 5_000) is None
        assert guard.hit("x/" + "a" * 5_000) is None
        assert guard.hit("a" * 5_000 + "b") == Hit("config", hostile)


def test_the_docs_document_every_category_and_guard_rule() -> None:
    from memcheck.checks import all_rules
    from memcheck.hooks.rules import rule_table

    rules_page = (REPO_ROOT / "docs" / "rules" / "README.md").read_text("utf-8")
    assert rules_page.endswith(rule_table(linked=True))
    for code in (c for c in all_rules() if c.startswith("GRD")):
        assert f"| [{code}]({code}.md) |" in rules_page, code
        assert (REPO_ROOT / "docs" / "rules" / f"{code}.md").is_file(), code
    guard_page = (REPO_ROOT / "docs" / "guard.md").read_text("utf-8")
    categories_section = guard_page.split("\n## The categories\n")[1].split("\n## ")[0]
    for name in CATEGORIES:
        assert f"| `{name}` |" in categories_section


@pytest.mark.parametrize(
    ("folder", "category"),
    [
        (".vscode", "ide"),  # **/.vscode/settings.json
        ("web/.vscode", "ide"),
        ("sub/.claude", "agent-local"),  # **/.claude/settings.local.json
        ("run", None),  # /run/secrets/ is a folder pattern: a link named run holds it only if its target does
        ("docs", None),
        ("src/.github", None),
    ],
)
def test_what_a_link_named_like_a_folder_holds(folder: str, category: str | None) -> None:
    hit = default_guard().folder_hit(folder)
    assert (hit.category if hit else None) == category


def test_the_same_settings_give_the_same_guard_and_bad_ones_fail_each_time() -> None:
    settings = default_config(Path(".")).guard
    assert guard_for(settings) is guard_for(settings._replace())
    assert guard_for(settings, ("secrets",)) is not guard_for(settings)
    assert guard_for(settings._replace(patterns=("private/",))).hit("private/a.txt") == Hit("config", "private/")
    assert guard_for(settings).hit("private/a.txt") is None
    for _ in range(2):
        with pytest.raises(ConfigError, match="unknown category nothing"):
            guard_for(settings._replace(disable=("nothing",)))
