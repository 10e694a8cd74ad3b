"""action/requirements.txt, the hash-pinned dependencies the GitHub Action installs,
matches pyproject.toml: every runtime dependency (and the build backend, which builds
memcheck without a build environment) pinned inside its specifier and under its
marker, nothing pinned that nothing needs, a hash on every pin, and the command that
regenerates it at the top. tests/e2e/test_action_install.py installs it for real.
"""

from __future__ import annotations

import importlib.metadata
import re
import shlex
import sys
from pathlib import Path
from typing import Iterable, NamedTuple

import pytest
import yaml
from conftest import REPO_ROOT

# packaging is a dependency of pytest: requirements, markers and specifiers are read
# as pip reads them.
from packaging.markers import Marker
from packaging.requirements import Requirement
from packaging.specifiers import SpecifierSet
from packaging.utils import canonicalize_name
from packaging.version import Version

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - the floor's own test run
    import tomli as tomllib

REQUIREMENTS = REPO_ROOT / "action" / "requirements.txt"
ACTION = REPO_ROOT / "action" / "action.yml"
PYPROJECT = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text(encoding="utf-8"))
# The command in the file's header (pip-compile writes it there; docs/github-action.md
# gives it too). pip-compile resolves for the Python it runs on, so it runs
# under the oldest Python memcheck supports, which its header records.
COMPILE_COMMAND = (
    "pip-compile --all-build-deps --allow-unsafe --generate-hashes --output-file=action/requirements.txt --strip-extras pyproject.toml"
)
# Where the action runs: GitHub's Linux and macOS runners (Windows is not supported).
PLATFORMS = ({"sys_platform": "linux", "platform_system": "Linux"}, {"sys_platform": "darwin", "platform_system": "Darwin"})
NEWEST_MINOR = 14  # the newest Python 3 the markers are evaluated for


class Pin(NamedTuple):
    requirement: Requirement
    version: Version
    hashes: tuple[str, ...]


def _logical_lines(text: str) -> Iterable[str]:
    """pip's requirements-file lines: comments removed (a # at the start or after
    whitespace), backslash continuations joined, blank lines left out."""
    joined = ""
    for raw in text.splitlines():
        line = re.sub(r"(^|\s)#.*$", "", raw).rstrip()
        if line.endswith("\\"):
            joined += line[:-1].strip() + " "
            continue
        joined += line.strip()
        if joined.strip():
            yield joined.strip()
        joined = ""
    assert not joined.strip(), "the file ends inside a continued line"


def _pins() -> dict[str, Pin]:
    pins: dict[str, Pin] = {}
    for line in _logical_lines(REQUIREMENTS.read_text(encoding="utf-8")):
        assert not line.startswith("-"), f"an option line in the requirements file (pass options in action.yml): {line!r}"
        # The requirement is everything before its first option; only --hash may follow.
        requirement_text, _, options = line.partition(" --")
        tokens = shlex.split("--" + options) if options else []
        hashes = tuple(t.split("=", 1)[1] for t in tokens if t.startswith("--hash="))
        assert len(hashes) == len(tokens), f"an option other than --hash on {requirement_text!r}: {tokens}"
        req = Requirement(requirement_text)
        assert req.url is None and not req.extras, f"pin by version, without URL or extras: {line!r}"
        (spec,) = req.specifier  # exactly one
        assert spec.operator == "==" and "*" not in spec.version, f"not an exact pin: {requirement_text!r}"
        name = canonicalize_name(req.name)
        assert name not in pins, f"{name} is pinned twice"
        pins[name] = Pin(req, Version(spec.version), hashes)
    return pins


def _supported_pythons() -> list[str]:
    """The minor versions requires-python allows, up to NEWEST_MINOR."""
    allowed = SpecifierSet(PYPROJECT["project"]["requires-python"])
    return [f"3.{minor}" for minor in range(0, NEWEST_MINOR + 1) if allowed.contains(f"3.{minor}.0")]


def _environments() -> list[dict[str, str]]:
    return [
        {
            "python_version": v,
            "python_full_version": f"{v}.0",
            "implementation_name": "cpython",
            "platform_python_implementation": "CPython",
            "os_name": "posix",
            **p,
        }
        for v in _supported_pythons()
        for p in PLATFORMS
    ]


def _applies(marker: Marker | None, env: dict[str, str], extra: str = "") -> bool:
    return marker is None or marker.evaluate({**env, "extra": extra})


def _declared() -> dict[str, list[Requirement]]:
    """What pyproject.toml asks for: [project].dependencies and [build-system].requires."""
    return {
        "dependencies": [Requirement(r) for r in PYPROJECT["project"]["dependencies"]],
        "build-system.requires": [Requirement(r) for r in PYPROJECT["build-system"]["requires"]],
    }


def test_requirements_file_parses_and_every_pin_carries_a_hash() -> None:
    pins = _pins()
    assert pins, "no requirement in action/requirements.txt"
    for name, pin in pins.items():
        assert pin.hashes, f"{name} has no --hash"
        for h in pin.hashes:
            assert re.fullmatch(r"sha256:[0-9a-f]{64}", h), f"{name}: {h!r} is not a sha256 hash"
    # Every requirement line of the raw file is followed by hashes: no pin slipped in
    # without a continuation.
    for raw in REQUIREMENTS.read_text(encoding="utf-8").splitlines():
        if raw and not raw[0].isspace() and not raw.startswith("#"):
            assert raw.rstrip().endswith("\\"), f"a pin without --hash lines: {raw!r}"


@pytest.mark.parametrize("section", ["dependencies", "build-system.requires"])
def test_every_declared_requirement_is_pinned_inside_its_specifier_and_marker(section: str) -> None:
    pins = _pins()
    envs = _environments()
    for req in _declared()[section]:
        name = canonicalize_name(req.name)
        assert name in pins, f"{req} ({section}) is not pinned in action/requirements.txt"
        pin = pins[name]
        assert req.specifier.contains(pin.version, prereleases=True), f"{name}=={pin.version} is outside pyproject's {req.specifier}"
        for env in envs:
            # The pin is installed exactly where pyproject asks for the requirement
            # (tomli below 3.11 only); a pin that never applies would leave it out.
            assert _applies(pin.requirement.marker, env) == _applies(req.marker, env), (
                f"{name}: pinned under {pin.requirement.marker}, declared under {req.marker}; they differ on Python {env['python_version']} ({env['sys_platform']})"
            )


def _requires(name: str) -> list[Requirement] | None:
    """The requirements of an installed distribution (this test run's environment),
    None when it is not installed here."""
    try:
        dist = importlib.metadata.distribution(name)
    except importlib.metadata.PackageNotFoundError:
        return None
    return [Requirement(r) for r in dist.requires or []]


def test_nothing_is_pinned_but_the_declared_requirements_and_what_they_need() -> None:
    pins = _pins()
    envs = _environments()
    declared = [r for reqs in _declared().values() for r in reqs if any(_applies(r.marker, e) for e in envs)]
    needed = {canonicalize_name(r.name) for r in declared}
    # A requirement's extras (pathspec[re2]) bring what its metadata declares under them.
    todo = [(canonicalize_name(r.name), ("", *sorted(r.extras))) for r in declared]
    while todo:  # what the declared requirements need, as this environment's metadata says
        name, extras = todo.pop()
        requires = _requires(name)
        if requires is None:
            continue
        for r in requires:
            name = canonicalize_name(r.name)
            if any(_applies(r.marker, e, extra) for e in envs for extra in extras) and name not in needed:
                needed.add(name)
                todo.append((name, ("", *sorted(r.extras))))
    unexpanded = {n for n in needed if _requires(n) is None}
    extra = sorted(set(pins) - needed)
    assert not extra, f"pinned but nothing declared needs them: {extra} (their dependents not installed here to ask: {sorted(unexpanded)})"
    missing = sorted(n for n in needed - set(pins) if n not in unexpanded)
    assert not missing, f"needed on some supported Python but not pinned: {missing}"


def test_header_holds_the_command_that_regenerates_the_file() -> None:
    text = REQUIREMENTS.read_text(encoding="utf-8")
    header = "".join(
        line + "\n" for line in text.splitlines()[: next(i for i, line in enumerate(text.splitlines()) if not line.startswith("#"))]
    )
    floor = _supported_pythons()[0]
    assert f"autogenerated by pip-compile with Python {floor}\n" in header, (
        "regenerate under the oldest supported Python (requires-python's floor)"
    )
    assert f"#    {COMPILE_COMMAND}\n" in header
    page = (REPO_ROOT / "docs" / "github-action.md").read_text(encoding="utf-8")
    section = page.split("\n## Pinned dependencies\n", 1)[1].split("\n## ", 1)[0]
    assert COMPILE_COMMAND.replace("pip-compile ", "pip-compile --upgrade ", 1) in section
    assert f"python{floor} -m venv" in section


def test_the_install_step_installs_from_the_file_with_hashes_and_builds_memcheck_offline() -> None:
    action = yaml.safe_load(ACTION.read_text(encoding="utf-8"))
    (step,) = [s for s in action["runs"]["steps"] if s["name"] == "Install memcheck"]
    installs = [shlex.split(line) for line in step["run"].splitlines() if " -m pip install " in line]
    deps, project = installs
    assert {"--require-hashes", "--only-binary", ":all:"} <= set(deps)
    assert deps[deps.index("-r") + 1] == "$GITHUB_ACTION_PATH/requirements.txt"
    # memcheck itself: no dependency resolution, no isolated build environment
    # (setuptools comes hashed from the file), no index: nothing downloaded unchecked.
    assert {"--no-deps", "--no-build-isolation", "--no-index"} <= set(project)
    assert project[-1] == "$GITHUB_ACTION_PATH/.."


def test_the_parser_reads_what_pip_reads(tmp_path: Path) -> None:
    # The checks above are only as good as the parsing: a continued pin with hashes
    # and an inline comment, read as pip reads it.
    text = (
        '# header\nfoo==1.0 ; python_version < "3.11" \\\n    --hash=sha256:'
        + "a" * 64
        + " \\\n    --hash=sha256:"
        + "b" * 64
        + "\n    # via bar\n\nbaz==2 \\\n    --hash=sha256:"
        + "c" * 64
        + "  # note\n"
    )
    lines = list(_logical_lines(text))
    assert len(lines) == 2
    req_text, _, options = lines[0].partition(" --")
    assert str(Requirement(req_text).marker) == 'python_version < "3.11"'
    assert shlex.split("--" + options) == [f"--hash=sha256:{'a' * 64}", f"--hash=sha256:{'b' * 64}"]
    assert lines[1].startswith("baz==2 --hash=sha256:c")
