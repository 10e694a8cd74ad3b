"""The shared glob mechanism: one compiled form per pattern, and an index that answers
"does this glob name any file or folder?" exactly as trying it on every entry would."""

from __future__ import annotations

import pytest
from conftest import cpu_limit
from hypothesis import given, settings
from hypothesis import strategies as st

from memcheck.text import patterns

_SEGMENT = st.sampled_from(["src", "lib", "a", "b", "x.py", "y.ts", "z.test.ts", "README.md", "docs", "api"])
_PATHS = st.lists(st.lists(_SEGMENT, min_size=1, max_size=4).map("/".join), max_size=25)
_PIECE = st.sampled_from(
    [
        "src",
        "lib",
        "a",
        "*",
        "**",
        "*.py",
        "*.ts",
        "?.py",
        "[ab]",
        "[!a]",
        "{a,b}",
        "{src,lib}",
        "*.{py,ts}",
        "README.md",
        "x*",
        "*test*",
        "z.t*",
        "RE?D*",
        "y.[tp]*",
    ]
)
_PATTERNS = st.tuples(
    st.sampled_from(["", "./", "/"]), st.lists(_PIECE, min_size=1, max_size=4).map("/".join), st.sampled_from(["", "/"])
).map("".join)


def _entries(files: list[str]) -> set[str]:
    found = set(files)
    for path in files:
        parts = path.split("/")
        found.update("/".join(parts[:i]) for i in range(1, len(parts)))
    return found


@settings(max_examples=400, deadline=None)
@given(files=_PATHS, pattern=_PATTERNS, folders=st.lists(st.sampled_from(["", "src", "a/b", "lib", "src/a"]), min_size=1, max_size=4))
@pytest.mark.slow  # a property test: seconds of examples
def test_index_answers_as_every_entry_tried_one_by_one(files: list[str], pattern: str, folders: list[str]) -> None:
    index = patterns.FileIndex(files)
    for folder in folders:  # one index asked from several folders, as a check does
        brute = any(patterns.match(pattern, entry, folder) for entry in _entries(files))
        assert index.any_match(pattern, folder) is brute
        assert index.any_match(pattern, folder) is brute  # remembered answers agree


@settings(max_examples=300, deadline=None)
@given(pattern=st.text(alphabet="ab{},*?[]!/.-", max_size=40))
def test_any_pattern_is_judged_without_error(pattern: str) -> None:
    problem = patterns.problem(pattern)
    assert problem is None or isinstance(problem, str)
    patterns.match(pattern, "a/b.c")
    patterns.FileIndex(["a/b.c", "ab/c"]).any_match(pattern)


@pytest.mark.parametrize(
    ("pattern", "path", "folder", "expected"),
    [
        ("src/**/*.ts", "src/a/b/c.ts", "", True),
        ("src/**/*.ts", "src/c.ts", "", True),
        ("src/*.ts", "src/a/c.ts", "", False),
        ("*.ts", "deep/down/c.ts", "", True),
        ("c.ts", "pkg/c.ts", "pkg", True),
        ("lib/*.ts", "pkg/lib/c.ts", "pkg", True),
        ("{a,b}/*.md", "b/x.md", "", True),
        ("src/*.{py,pyi}", "src/x.pyi", "", True),
        ("{src,lib/{a,b}}/x.py", "lib/b/x.py", "", True),
        ("[!x]*.md", "y.md", "", True),
        ("[!x]*.md", "x.md", "", False),
        ("/src/*.ts", "src/c.ts", "", True),
        ("./src/*.ts", "src/c.ts", "", True),
        ("src/", "src/deep/c.ts", "", True),
        ("src/**", "src", "", True),
        ("a**b", "axb", "", True),
        ("a**b", "a/b", "", False),
    ],
)
def test_match(pattern: str, path: str, folder: str, expected: bool) -> None:
    assert patterns.match(pattern, path, folder) is expected


def test_comma_lists_keep_braces_whole() -> None:
    assert patterns.split_list("**/*.ts, src/*.{js,jsx} ,,") == ["**/*.ts", "src/*.{js,jsx}"]


def test_brace_count_without_spelling_out() -> None:
    assert patterns.brace_count("{a,b}{c,d,e}") == 6
    assert patterns.brace_count("{a,{b,c}}x") == 3
    assert patterns.brace_count("{a,b}" * 40) == patterns.MAX_ALTERNATIVES + 1  # 2**40, never built
    assert "more than 1,000 patterns" in str(patterns.problem("{a,b}" * 10))
    assert patterns.compile_glob("{a,b}" * 40) == ()


def test_hostile_patterns_stay_fast() -> None:
    # These take about a tenth of a second of CPU; backtracking or spelling out these
    # patterns took minutes (exponential in the stars and braces).
    with cpu_limit(10, "the hostile patterns"):
        _hostile_patterns()


def _hostile_patterns() -> None:
    assert not patterns.match("*a" * 30 + "*b", "a" * 200)
    assert not patterns.match("**/" * 200 + "x", "/".join("a" * 300))
    index = patterns.FileIndex(f"d{i}/f{i}.py" for i in range(20_000))
    assert not index.any_match("**/*q*/**")
    # too long or too deep to spell out: reported, never expanded or recursed into
    assert "does not expand patterns over 1,000" in str(patterns.problem("{a,b}x" * 200))
    # (memcheck's own bound, so every Python gives the same finding)
    assert patterns.problem("{" * 400 + "a" + "}" * 400) == "nests {...} more than 32 levels deep; memcheck does not spell it out"
    assert patterns.problem("{" * 32 + "a" + "}" * 32) is None and patterns.match("{" * 32 + "a" + "}" * 32, "a")
    assert not patterns.match("{" * 400 + "a" + "}" * 400, "a") and not index.any_match("x" * 5000)


@pytest.mark.parametrize("pattern", ["/", "./", " ", "{,}", "{/,/}"])
def test_patterns_that_name_nothing(pattern: str) -> None:
    assert patterns.problem(pattern) is not None


def _tree(files: list[str]) -> patterns.Entries:
    """A tree of ``files`` read one folder at a time, as the disk is: (folders, other entries)."""
    folders = {f for f in _entries(files) if any(p.startswith(f + "/") for p in files)}

    def entries(at: str) -> tuple[list[str], list[str]]:
        below = at + "/" if at else ""
        names = {e[len(below) :] for e in _entries(files) if e.startswith(below) and "/" not in e[len(below) :]}
        return sorted(n for n in names if below + n in folders), sorted(n for n in names if below + n not in folders)

    return entries


@settings(max_examples=400, deadline=None)
@given(files=_PATHS, pattern=_PATTERNS, folder=st.sampled_from(["", "src", "a/b", "lib", "src/a"]))
@pytest.mark.slow  # a property test: seconds of examples
def test_the_tree_walk_answers_as_the_index(files: list[str], pattern: str, folder: str) -> None:
    # The disk is read as the listed files are: one answer, whichever is asked.
    assert patterns.any_in_tree(pattern, folder, _tree(files)) is patterns.FileIndex(files).any_match(pattern, folder)
