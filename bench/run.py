"""Time memcheck on synthetic repositories and compare it with floors from the same run.

    python bench/run.py [--sizes S,M,L] [--shapes M,M-globs,...] [--runs 5] [--out bench/out] [--memcheck CMD]
                        [--against REF] [--only M,double,commit,precommit,startup,guard,broken,sizes,shapes,server]

Generates the repositories when needed (bench/generate.py), then measures each
command's CPU (user + system) and wall time (median of --runs, after one warm-up run)
and peak memory (the child's maximum resident set size, from os.wait4). Commands and
their floors are run in turn within each round, so drift on a shared machine hits both
alike. Prints Markdown tables: every figure is a ratio to its floor, because absolute
times drift.

The performance targets' figures (bench/compare.py), each a ratio from one run: M cold
(a new empty content cache each run) and warm against its floor, agnix and REF; M with
every count doubled; the commit path (one memory staged in a store of 600: the three
hooks as .pre-commit-hooks.yaml runs them, warm and cold, and through the real
pre-commit); start-up with no agent files; guard over 10,000 staged paths; broken
frontmatter. `--against REF` builds REF (any commit-ish) in an environment of its own
(bench/against.py, reused for the same commit id) and times it beside this code, in
alternating rounds. `--only` picks groups; the header line names the date, the
machine and the commit compared with.

On M, the language server's latency too (bench/server_latency.py): an edit to one
memory file, to one guidance file, and a 1,000-file store refreshed after a memory is
written on disk, each beside a floor (reading the files it judges).

Besides the sizes (S, M, L: hook, fix and guard too), the shapes: trees of M's size
built unlike M (globs that match nothing, long link-less indexes, deep folders, ...),
each measured beside its twin with every count doubled, for the scaling figure.
"""

from __future__ import annotations

import argparse
import datetime
import json
import math
import os
import platform
import shlex
import shutil
import subprocess
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import against  # noqa: E402  (sibling scripts, not a package)
import compare  # noqa: E402
import generate  # noqa: E402
from timing import Measure, measure_all  # noqa: E402

HERE = Path(__file__).resolve().parent
PY = sys.executable
BIN = Path(PY).parent


@dataclass(frozen=True)
class Row:
    size: str
    key: str  # what other rows name as their floor
    what: str
    cmd: str
    m: Measure
    floor: str = ""  # name of the row this one is a ratio to
    target: float | None = None
    expect: int | None = None  # exit code the command should give


def tool(name: str) -> list[str] | None:
    """The console script beside this Python (the venv's), else on PATH."""
    beside = BIN / name
    if beside.exists():
        return [str(beside)]
    found = shutil.which(name)
    return [found] if found else None


def one_memory_file(root: Path, size: generate.Size) -> str:
    p = size.stores // 2
    folder = f"pkg{p:04d}/{generate.STORE_FOLDERS[p % len(generate.STORE_FOLDERS)]}"
    return f"{folder}/{sorted(n for n in os.listdir(root / folder) if n != 'MEMORY.md')[0]}"


# agnix refuses a tree of more than 10,000 files by default ("Too many files to
# validate", exit 1) before validating any: timed that way on M and larger it only
# walks the tree. Told to take every file, it checks what memcheck checks.
AGNIX_ARGS = ["--max-files", "0", "."]
AGNIX_CMD = "agnix --max-files 0 ."


def has_guard(memcheck: list[str]) -> bool:
    return subprocess.run([*memcheck, "guard", "--help"], capture_output=True).returncode == 0


# Called before every run of the sizes' and shapes' commands: a new empty folder for
# memcheck's content cache (MEMCHECK_CACHE_DIR), so their figures are cold runs, as
# CI's first run is, whatever a default cache folder holds.
Cold = Callable[[], Mapping[str, str]] | None


def bench_size(
    size: generate.Size, root: Path, runs: int, memcheck: list[str], agnix: list[str] | None, notes: list[str], cold: Cold = None
) -> list[Row]:
    target = one_memory_file(root, size)
    cmds = {
        "floor": [PY, str(HERE / "floor_check.py")],
        "check": [*memcheck, "check"],
        "hook": [*memcheck, "check", target],
        "fix": [*memcheck, "fix"],
    }
    guard = has_guard(memcheck)
    if guard:
        cmds["guard-floor"] = ["git", "diff", "--name-status", "-z", "bench-base", "bench-head"]
        cmds["guard"] = [*memcheck, "guard", "--base", "bench-base", "--head", "bench-head"]
    elif not any("guard" in n for n in notes):
        notes.append("`memcheck guard` is not available in this build: its rows are skipped.")
    if agnix:
        cmds["agnix"] = [*agnix, *AGNIX_ARGS]
    m = measure_all(cmds, root, runs, cold)
    status = subprocess.run(["git", "status", "--porcelain"], cwd=root, capture_output=True, text=True).stdout
    if status:
        notes.append(f"{size.name}: the tree changed during the run (`memcheck fix` wrote files?):\n{status[:500]}")
    rows = [
        Row(size.name, "floor", "floor: git ls-files + read + parse frontmatter", "python bench/floor_check.py", m["floor"]),
        Row(size.name, "check", "full check, cold", "memcheck check", m["check"], "floor", 1.3 if size.name == "M" else None, 0),
        Row(
            size.name,
            "hook",
            "hook on one memory file",
            f"memcheck check {target}",
            m["hook"],
            "check",
            0.2 if size.name == "M" else None,
            0,
        ),
        Row(size.name, "fix", "fix on a clean tree", "memcheck fix", m["fix"], "floor", None, 0),
    ]
    if guard:
        n = size.range_paths
        rows += [
            Row(
                size.name,
                "guard-floor",
                f"guard floor: git diff of {n:,} paths",
                "git diff --name-status -z bench-base bench-head",
                m["guard-floor"],
            ),
            Row(
                size.name,
                "guard",
                f"guard over {n:,} paths",
                "memcheck guard --base bench-base --head bench-head",
                m["guard"],
                "guard-floor",
                1.5 if size.name == "M" else None,
                0,
            ),
        ]
    if agnix:
        rows.append(Row(size.name, "agnix", "agnix (reference)", AGNIX_CMD, m["agnix"], "floor"))
    return rows


def bench_shape(
    size: generate.Size, root: Path, runs: int, memcheck: list[str], agnix: list[str] | None, one_process: bool, cold: Cold = None
) -> list[Row]:
    """A tree of M's size shaped unlike M (or one with every count doubled): the full
    check against the floor, in one process too, and agnix on the same tree."""
    cmds = {"floor": [PY, str(HERE / "floor_check.py")], "check": [*memcheck, "check"]}
    if one_process:
        cmds["check-1"] = ["env", "MEMCHECK_JOBS=1", *memcheck, "check"]
    if agnix:
        cmds["agnix"] = [*agnix, *AGNIX_ARGS]
    m = measure_all(cmds, root, runs, cold)
    rows = [
        Row(size.name, "floor", "floor: git ls-files + read + parse frontmatter", "python bench/floor_check.py", m["floor"]),
        Row(size.name, "check", "full check, cold", "memcheck check", m["check"], "floor", 1.3),
    ]
    if one_process:
        rows.append(
            Row(size.name, "check-1", "full check in one process, cold", "MEMCHECK_JOBS=1 memcheck check", m["check-1"], "floor", 2.0)
        )
    if agnix:
        rows.append(Row(size.name, "agnix", "agnix (reference)", AGNIX_CMD, m["agnix"], "floor"))
    return rows


def doubling(rows: list[Row], shapes: list[str]) -> str:
    """Each shape against the same shape with every count doubled: a check whose
    cost is linear in the tree takes about twice as long (target: at most 2.3x)."""
    by = {(r.size, r.key): r.m.wall for r in rows}
    out = [
        "| shape | floor ×2 | memcheck check ×2 | target | agnix ×2 |",
        "| --- | ---: | ---: | --- | ---: |",
    ]
    for name in shapes:
        twice = f"{name}x2"
        if (twice, "check") not in by or (name, "check") not in by:
            continue
        ratio = by[(twice, "check")] / by[(name, "check")]
        floor = by[(twice, "floor")] / by[(name, "floor")]
        agnix = f"{by[(twice, 'agnix')] / by[(name, 'agnix')]:.2f}×" if (twice, "agnix") in by and (name, "agnix") in by else ""
        out.append(f"| {name} | {floor:.2f}× | {ratio:.2f}× | ≤ 2.3×: {'met' if ratio <= 2.3 else '**not met**'} | {agnix} |")
    return "\n".join(out)


def bench_server(size: generate.Size, root: Path, runs: int) -> list[Row]:
    """The language server's latency (bench/server_latency.py, in one process on its
    session): an edit to one memory file, to one guidance file, and a 1,000-file
    store refreshed after a memory is written on disk, each beside its floor."""
    target = one_memory_file(root, size)
    done = subprocess.run([PY, str(HERE / "server_latency.py"), str(root), target, "--runs", str(runs)], capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"bench/server_latency.py failed:\n{done.stderr}")
    found = json.loads(done.stdout)
    rss = float(found["rss"])

    def measured(key: str) -> Measure:
        return Measure.single(float(found[key]), rss)

    rows = [
        Row(
            size.name,
            "server-edit-floor",
            "server floor: read + parse the edited file's store",
            "(in bench/server_latency.py)",
            measured("edit_floor"),
        ),
        Row(
            size.name,
            "server-edit",
            "server: diagnostics after an edit to one memory file",
            "(in bench/server_latency.py)",
            measured("edit"),
            "server-edit-floor",
            None,
        ),
    ]
    if "guidance_edit" in found:
        n = int(found["guidance_files"])
        rows += [
            Row(
                size.name,
                "server-guidance-floor",
                f"server floor: read + parse the {n:,} guidance files",
                "(in bench/server_latency.py)",
                measured("guidance_floor"),
            ),
            Row(
                size.name,
                "server-guidance",
                "server: diagnostics after an edit to one guidance file",
                "(in bench/server_latency.py)",
                measured("guidance_edit"),
                "server-guidance-floor",
                None,
            ),
        ]
    if "guidance_import_edit" in found:
        rows.append(
            Row(
                size.name,
                "server-guidance-imports",
                "server: diagnostics after an @-import is added to or removed from one guidance file",
                "(in bench/server_latency.py)",
                measured("guidance_import_edit"),
                "server-guidance-floor",
                None,
            )
        )
    files = int(found["store_files"])
    rows += [
        Row(
            "-",
            "server-store-floor",
            f"server floor: read + parse a {files:,}-file store",
            "(in bench/server_latency.py)",
            measured("store_floor"),
        ),
        Row(
            "-",
            "server-store",
            f"server: a {files:,}-file store refreshed after a memory is written on disk",
            "(in bench/server_latency.py)",
            measured("store"),
            "server-store-floor",
            None,
        ),
    ]
    return rows


def latency_targets(rows: list[Row]) -> str | None:
    """The language server's absolute targets: 100 ms for an edit on M, 1 s for a
    1,000-file store's refresh (the only absolute figures here: they are what a user
    waits for)."""
    by = {(r.size, r.key): r.m.wall for r in rows}
    parts = []
    if ("M", "server-edit") in by:
        edit = by[("M", "server-edit")]
        parts.append(f"an edit to one memory file on M: {edit * 1000:,.0f} ms (target ≤ 100 ms: {'met' if edit <= 0.1 else '**not met**'})")
    if ("M", "server-guidance") in by:
        edit = by[("M", "server-guidance")]
        parts.append(
            f"an edit to one guidance file on M: {edit * 1000:,.0f} ms (target ≤ 100 ms: {'met' if edit <= 0.1 else '**not met**'})"
        )
    if ("-", "server-store") in by:
        store = by[("-", "server-store")]
        parts.append(f"a 1,000-file store refreshed: {store * 1000:,.0f} ms (target ≤ 1 s: {'met' if store <= 1 else '**not met**'})")
    return "Language server: " + "; ".join(parts) + "." if parts else None


def bench_startup(cwd: Path, runs: int, memcheck: list[str]) -> list[Row]:
    m = measure_all({"click": [PY, "-c", "import click"], "version": [*memcheck, "--version"]}, cwd, runs)
    return [
        Row("-", "click", "start-up floor", 'python -c "import click"', m["click"]),
        Row("-", "version", "start-up", "memcheck --version", m["version"], "click", 1.3, 0),
    ]


def table(rows: list[Row]) -> str:
    by_key = {(r.size, r.key): r for r in rows}
    out = [
        "| size | what | command | median cpu | median time | peak RSS | ratio | target |",
        "| --- | --- | --- | ---: | ---: | ---: | ---: | --- |",
    ]
    for r in rows:
        ratio, verdict = "", ""
        base = by_key.get((r.size, r.floor))
        if base is not None:
            value = r.m.wall / base.m.wall
            ratio = f"{value:.2f}× {base.key}"
            if r.target is not None:
                verdict = f"≤ {r.target}×: {'met' if value <= r.target else '**not met**'}"
        if r.expect is not None and r.m.code != r.expect:
            verdict += f" (exit {r.m.code}, expected {r.expect})"
        cpu = "" if math.isnan(r.m.cpu) else f"{r.m.cpu * 1000:,.0f} ms"  # the server's figures have none of their own
        out.append(f"| {r.size} | {r.what} | `{r.cmd}` | {cpu} | {r.m.wall * 1000:,.0f} ms | {r.m.rss:,.0f} MiB | {ratio} | {verdict} |")
    return "\n".join(out)


def scaling(rows: list[Row]) -> str | None:
    checks = {r.size: r for r in rows if r.key == "check"}
    if "M" not in checks or "L" not in checks:
        return None
    m, big = checks["M"].m, checks["L"].m
    ratio = big.wall / m.wall
    return (
        f"L / M full check: {ratio:.1f}× the time (target ≤ 11×: {'met' if ratio <= 11 else 'not met'}), "
        f"peak RSS on L {big.rss:,.0f} MiB (target ≤ 250 MB: {'met' if big.rss * 1.048576 <= 250 else 'not met'})."
    )


def _generated(name: str, out: Path) -> Path:
    print(f"generating {name} ...", file=sys.stderr, flush=True)
    # In a process of its own: generating L holds the whole tree in memory, and a
    # child started by a large process reports that process's size as its peak
    # RSS (Linux counts the memory it had before exec), which would swamp every
    # figure measured after it.
    subprocess.run([PY, str(HERE / "generate.py"), str(out), "--sizes", name], check=True)
    return out / name


LEGACY = ("sizes", "shapes", "server")
# What a run measures unless --only says otherwise.
DEFAULT_ONLY = ",".join([*LEGACY, *compare.GROUPS])


def header(memcheck: list[str], ref: against.Build | None, runs: int) -> str:
    """The line above the tables: when, on what, which code against which."""
    version = subprocess.run([*memcheck, "--version"], capture_output=True, text=True).stdout.strip()
    head = subprocess.run(
        ["git", "describe", "--always", "--dirty", "--abbrev=7"], cwd=HERE.parent, capture_output=True, text=True
    ).stdout.strip()
    when = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    against_text = f", against {ref.commit[:10]} (built by `--against`)" if ref else ""
    return (
        f"Measured {when}: Python {platform.python_version()}, {platform.system()} {platform.release()} {platform.machine()}, "
        f"{os.cpu_count()} CPUs; {version} at {head or 'an unknown commit'}{against_text}; median of {runs} alternating rounds."
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="S,M", help="comma-separated sizes among S, M, L (default S,M); empty for none")
    parser.add_argument(
        "--shapes",
        default=",".join(["M", *generate.SHAPES]),
        help="comma-separated tree shapes, each measured with its doubled twin (default: M and every shape of M's size); empty for none",
    )
    parser.add_argument("--runs", type=int, default=5, help="timed runs per command; the median is reported (default 5)")
    parser.add_argument(
        "--memcheck",
        help="command that runs memcheck, e.g. 'python -m memcheck' to time another build (default: the memcheck beside this Python)",
    )
    parser.add_argument(
        "--against",
        metavar="REF",
        help="also build REF (any commit-ish) in an environment of its own and time it beside this code, in alternating rounds",
    )
    parser.add_argument("--only", default=DEFAULT_ONLY, help=f"comma-separated groups to measure (default all: {DEFAULT_ONLY})")
    parser.add_argument("--out", type=Path, default=generate.DEFAULT_OUT, help="where the repositories are generated (default bench/out)")
    args = parser.parse_args(argv)
    sizes = [s.strip() for s in args.sizes.split(",") if s.strip()]
    shapes = [s.strip() for s in args.shapes.split(",") if s.strip()]
    only = {s.strip() for s in args.only.split(",") if s.strip()}
    for name in only - {*LEGACY, *compare.GROUPS}:
        parser.error(f"unknown group {name!r}; choose among {DEFAULT_ONLY}")
    for name in sizes:
        if name not in ("S", "M", "L"):
            parser.error(f"unknown size {name!r}; choose among S, M, L")
    for name in shapes:
        if name not in generate.SIZES or name.endswith("x2") or name in ("S", "L"):
            parser.error(f"unknown shape {name!r}; choose among {', '.join(['M', *generate.SHAPES])}")
    if "sizes" not in only:
        sizes = [s for s in sizes if s == "M" and "server" in only]  # the server is measured on M
    if "shapes" not in only:
        shapes = []
    memcheck = shlex.split(args.memcheck) if args.memcheck else tool("memcheck") or [PY, "-m", "memcheck"]
    agnix = tool("agnix")
    ref = against.build_in_child(args.against, args.out) if args.against else None
    notes: list[str] = []
    if agnix is None:
        notes.append("agnix is not installed (`pip install agnix`): its rows are skipped.")
    # Named before measuring: the commit and the time the figures start from.
    first_line = header(memcheck, ref, args.runs)
    rows: list[Row] = []
    caches = compare.Caches(args.out, "sizes")
    cold = caches.cold()
    for name in sizes:
        root = _generated(name, args.out)
        if "sizes" in only:
            print(f"measuring {name} ({args.runs} runs) ...", file=sys.stderr, flush=True)
            rows += bench_size(generate.SIZES[name], root, args.runs, memcheck, agnix, notes, cold)
        if name == "M" and "server" in only:
            rows += bench_server(generate.SIZES[name], root, args.runs)
    shape_rows: list[Row] = []
    for name in shapes:
        for variant in (name, f"{name}x2"):
            root = _generated(variant, args.out)
            print(f"measuring shape {variant} ({args.runs} runs) ...", file=sys.stderr, flush=True)
            shape_rows += bench_shape(generate.SIZES[variant], root, args.runs, memcheck, agnix, one_process=variant == name, cold=cold)
    caches.clear()
    if "startup" in only:
        # Start-up is a few tens of milliseconds: more runs for a steady median.
        rows += bench_startup(args.out, max(args.runs * 4, 20), memcheck)
    res = compare_groups(only, args, memcheck, agnix, ref)
    print(first_line + "\n")
    if res.goals:
        print(compare.goals_table(res))
        print("\nEvery command those figures come from:\n")
        print(compare.measures_table(res) + "\n")
    if rows:
        print(table(rows))
    for line in (scaling(rows), latency_targets(rows)):
        if line:
            print(f"\n{line}")
    if shape_rows:
        print("\nTrees of M's size in other shapes, and each with every count doubled:\n")
        print(table(shape_rows))
        print("\nEvery count doubled (time of the doubled tree over the tree's):\n")
        print(doubling(shape_rows, shapes))
    for note in [*notes, *res.notes]:
        print(f"\nNote: {note}")
    return 0


def _announce(group: str, runs: int, ref: against.Build | None) -> None:
    print(f"measuring {group} ({runs} rounds{', against ' + ref.short if ref else ''}) ...", file=sys.stderr, flush=True)


def compare_groups(
    only: set[str], args: argparse.Namespace, memcheck: list[str], agnix: list[str] | None, ref: against.Build | None
) -> compare.Results:
    """The groups of bench/compare.py that --only names, in a fixed order."""
    ctx = compare.Context(
        args.out, args.runs, PY, compare.Side("new", memcheck), compare.Side(ref.short, ref.memcheck) if ref else None, agnix
    )
    res = compare.Results()
    if "M" in only or "double" in only:
        _announce("M", args.runs, ref)
        compare.group_m(ctx, res, doubled="double" in only, only_double="M" not in only)
    if "commit" in only:
        _announce("commit", args.runs, ref)
        compare.group_commit(ctx, res)
    if "precommit" in only:
        _announce("precommit", args.runs, ref)
        compare.group_precommit(ctx, res, tool("pre-commit"))
    if "startup" in only:
        _announce("startup", args.runs, ref)
        compare.group_startup(ctx, res)
    if "guard" in only:
        _announce("guard", args.runs, ref)
        compare.group_guard(ctx, res)
    if "broken" in only:
        _announce("broken", args.runs, ref)
        compare.group_broken(ctx, res)
    return res


if __name__ == "__main__":
    raise SystemExit(main())
