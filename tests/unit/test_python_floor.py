"""memcheck runs on every Python its metadata claims: the claims agree with each other,
every module imports and every regular expression compiles on the interpreter running
the tests (the matrix runs this file on each supported one, the oldest included), and
the patterns rewritten for Python 3.10 (which has no possessive quantifiers) still
read hostile lines in one pass."""

from __future__ import annotations

import ast
import importlib
import inspect
import pkgutil
import re
import subprocess
import sys
import textwrap

import pytest
from conftest import REPO_ROOT, source_tree

import memcheck

if sys.version_info >= (3, 11):
    import tomllib
else:
    import tomli as tomllib

pytestmark = pytest.mark.smoke

PYPROJECT = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text(encoding="utf-8"))
SRC = REPO_ROOT / "src" / "memcheck"
# Modules that need an optional extra; each is imported only where the extra is there.
OPTIONAL = {"memcheck.server": "pygls"}
_REGEX_CALLS = {"compile", "match", "search", "fullmatch", "sub", "subn", "split", "finditer", "findall"}


def _oldest_python() -> tuple[int, int]:
    spec = PYPROJECT["project"]["requires-python"]
    m = re.fullmatch(r">=\s*3\.(\d+)", spec)
    assert m, f"requires-python should be a plain floor, not {spec!r}"
    return 3, int(m.group(1))


def _modules() -> list[str]:
    names = ["memcheck"]
    for info in pkgutil.walk_packages([str(SRC)], prefix="memcheck."):
        names.append(info.name)
    return sorted(names)


def test_the_python_claims_agree() -> None:
    oldest = _oldest_python()
    assert oldest >= (3, 10), "Python 3.9 reached its end of life in October 2025"
    classifiers = PYPROJECT["project"]["classifiers"]
    claimed = sorted(
        tuple(map(int, c.rsplit(" ", 1)[1].split("."))) for c in classifiers if re.fullmatch(r"Programming Language :: Python :: 3\.\d+", c)
    )
    assert claimed[0] == oldest, "the classifiers and requires-python name different oldest versions"
    assert claimed == [(3, minor) for minor in range(oldest[1], claimed[-1][1] + 1)], "a version between the oldest and newest is left out"
    assert PYPROJECT["tool"]["ruff"]["target-version"] == f"py3{oldest[1]}", "ruff must judge the code by the oldest Python"
    assert sys.version_info[:2] >= oldest, "the tests run on a Python the package does not claim"


@pytest.mark.parametrize("name", _modules())
def test_every_module_imports(name: str) -> None:
    extra = next((dep for prefix, dep in OPTIONAL.items() if name == prefix or name.startswith(prefix + ".")), None)
    if extra is not None and importlib.util.find_spec(extra) is None:
        with pytest.raises(ImportError):
            importlib.import_module(name)
        return
    module = importlib.import_module(name)
    # Patterns made when first needed (a cached function of no arguments that returns one).
    for value in vars(module).values():
        if inspect.isfunction(value) and hasattr(value, "cache_info") and value.__module__ == name:
            wrapped = inspect.unwrap(value)
            if not inspect.signature(wrapped).parameters and "Pattern" in str(inspect.signature(wrapped).return_annotation):
                assert isinstance(value(), re.Pattern)


def _literal_patterns() -> list[tuple[str, int, str]]:
    """(file, line, pattern) for every `re.X("...")` call whose pattern is a literal, and
    every `lazy_regex.compile("...")` (whose errors would otherwise show only when the
    pattern is first used)."""
    found = []
    for path in sorted(SRC.rglob("*.py")):
        for node in ast.walk(source_tree(path)):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and isinstance(node.func.value, ast.Name)
                and (
                    node.func.value.id == "re"
                    and node.func.attr in _REGEX_CALLS
                    or node.func.value.id == "lazy_regex"
                    and node.func.attr == "compile"
                )
                and node.args
                and isinstance(node.args[0], ast.Constant)
                and isinstance(node.args[0].value, str)
            ):
                found.append((str(path.relative_to(REPO_ROOT)), node.lineno, node.args[0].value))
    return found


def test_every_literal_regular_expression_compiles() -> None:
    patterns = _literal_patterns()
    assert len(patterns) > 20  # the walk finds them (there are dozens)
    for where, line, pattern in patterns:
        try:
            re.compile(pattern)
        except re.error as e:  # pragma: no cover - the failure message is the point
            pytest.fail(f"{where}:{line}: {e} on Python {sys.version.split()[0]}")


# Lines that made the heading and phrase patterns backtrack before they were rewritten,
# and a line of code spans whose examples were searched for before each span,
# (each took time quadratic in its length: 8,000 spaces, 1.26 s; 16,000 dots, 9 s).
# At 200,000 characters a quadratic reading of one line takes over ten minutes; the
# linear one, a few milliseconds (all 180 lines here: a few seconds). The 120-second
# limit only stops a hang: it is no speed target.
_HOSTILE_LINES = textwrap.dedent(
    """
    import sys
    from memcheck.index import naming, sync
    from memcheck.text import blocks
    n = 200_000
    for unit in (" ", ".", "'", ",1", ".,", "1, ", "-", ". ", "a.", "...a", " #", "\\t"):
        body = unit * (n // len(unit))
        for line in ("# a" + body + "b", "#" + body + "x", "# " + body, body, "# a" + body + " #"):
            blocks._ATX.match(line)
            sync._HEADING.match(line)
            naming._phrases(line)
    # A line of 40,000 code spans: which are examples was searched for before each one.
    from memcheck.checks.references import stale_reference
    from memcheck.text import document
    spans = "`src/a.py` " * 40_000
    assert len(list(stale_reference._path_tokens(document.parse("m.md", ("---\\nname: m\\n---\\n\\n" + spans + "e.g. `src/b.py`\\n").encode())))) == 40_000
    print("done")
    """
)


@pytest.mark.slow
def test_the_rewritten_patterns_read_hostile_lines_in_one_pass() -> None:
    proc = subprocess.run([sys.executable, "-c", _HOSTILE_LINES], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0 and proc.stdout == "done\n", proc.stderr


def test_version_lives_in_one_place() -> None:
    assert PYPROJECT["project"]["dynamic"] == ["version"]
    assert PYPROJECT["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "memcheck.__version__"}
    assert re.fullmatch(r"\d+\.\d+\.\d+", memcheck.__version__)
    literal = re.compile(re.escape(memcheck.__version__).encode())
    spots = [p for p in SRC.rglob("*") if p.is_file() and p.suffix in {".py", ".json", ".yaml"} and literal.search(p.read_bytes())]
    assert spots == [SRC / "__init__.py"], spots


# ruff judges the code by the oldest Python (target-version, checked above): syntax
# newer than that is an error; mypy reads the standard library as that Python has it.
@pytest.mark.slow
def test_ruff_finds_nothing() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "ruff", "check", "--no-cache", "src", "tests", "action", "bench", ".ci"],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr


# The code is in ruff's format (`ruff format` mends it), so a change's diff holds what it
# changes, not how its author lays out a line.
@pytest.mark.slow
def test_ruff_format_changes_nothing() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "ruff", "format", "--check", "--no-cache", "src", "tests", "action", "bench", ".ci", "tools"],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 0, "run `ruff format` to lay these out:\n" + proc.stdout + proc.stderr


# Judged with the types of the dependencies installed: the floors run leaves it out
# (-m "not typecheck"), since click 8.1 ships its decorators untyped. Incremental, as
# `mypy` run by hand is, and from the same cache (.mypy_cache, keyed by mypy's version
# and options): a clone's first run reads every module (8 s of CPU), later runs only
# what changed (0.3 s when nothing did).
@pytest.mark.slow
@pytest.mark.typecheck
def test_mypy_finds_nothing_for_the_oldest_python() -> None:
    assert PYPROJECT["tool"]["mypy"]["python_version"] == ".".join(map(str, _oldest_python()))
    proc = subprocess.run([sys.executable, "-m", "mypy"], cwd=REPO_ROOT, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr
