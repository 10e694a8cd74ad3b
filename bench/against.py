"""Build a commit of memcheck in an environment of its own, to time it beside the code at hand.

    python bench/against.py REF [--out bench/out]

REF is any commit-ish (9155b20, main, HEAD~3). Its tree is exported with `git archive`
into bench/out/against/<full commit id>/src, and installed (not editable: its bytecode
is compiled as an installed copy's is) into a virtualenv beside it. A build that
exists for the same commit id is reused. Prints the folder of its console scripts.
"""

from __future__ import annotations

import argparse
import io
import shutil
import subprocess
import sys
import tarfile
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
DEFAULT_OUT = HERE / "out"


@dataclass(frozen=True)
class Build:
    commit: str  # full commit id
    folder: Path

    @property
    def bin(self) -> Path:
        return self.folder / "venv" / "bin"

    @property
    def memcheck(self) -> list[str]:
        return [str(self.bin / "memcheck")]

    @property
    def python(self) -> str:
        return str(self.bin / "python")

    @property
    def short(self) -> str:
        return self.commit[:7]


def resolve(ref: str, repo: Path = REPO) -> str:
    done = subprocess.run(["git", "rev-parse", "--verify", "--quiet", f"{ref}^{{commit}}"], cwd=repo, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"--against {ref}: not a commit of {repo}")
    return done.stdout.strip()


def build(ref: str, out: Path = DEFAULT_OUT, repo: Path = REPO, python: str = sys.executable, log: bool = True) -> Build:
    """The installed build of ``ref``, made once per commit id."""
    commit = resolve(ref, repo)
    made = Build(commit, out / "against" / commit)
    stamp = made.folder / "built"
    if stamp.exists() and (made.bin / "memcheck").exists():
        return made
    if made.folder.exists():  # a build that stopped half-way
        shutil.rmtree(made.folder)
    if log:
        print(f"building {ref} ({made.short}) in {made.folder} ...", file=sys.stderr, flush=True)
    src = made.folder / "src"
    src.mkdir(parents=True)
    archive = subprocess.run(["git", "archive", "--format=tar", commit], cwd=repo, capture_output=True, check=True).stdout
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        # The "data" filter where this Python has it (3.10.12+, 3.11.4+): our own
        # archive, but no reason to trust the paths in it.
        if hasattr(tarfile, "data_filter"):
            tar.extractall(src, filter="data")
        else:
            tar.extractall(src)  # noqa: S202
    # The venv from the interpreter behind this one (a venv's python makes a venv of
    # its base), so both builds run on the same Python.
    subprocess.run([python, "-m", "venv", str(made.folder / "venv")], check=True)
    quiet = ["-q"] if log else ["-qq"]
    done = subprocess.run(
        [made.python, "-m", "pip", "install", *quiet, "--disable-pip-version-check", str(src)], capture_output=not log, text=True
    )
    if done.returncode != 0:
        raise SystemExit(f"--against {ref}: pip install failed{':' + chr(10) + done.stderr if done.stderr else ''}")
    stamp.write_text(commit + "\n")
    return made


def build_in_child(ref: str, out: Path = DEFAULT_OUT) -> Build:
    """``build``, in a process of its own: the archive it reads would stay in this
    process's memory, and a child started by a larger process reports that size as
    its peak RSS (Linux counts the memory it had before exec): every small command
    timed after it (the start-up floor) would read a few MiB high."""
    done = subprocess.run([sys.executable, str(Path(__file__).resolve()), ref, "--out", str(out)], stdout=subprocess.PIPE, text=True)
    if done.returncode != 0:
        raise SystemExit(done.returncode)
    return Build(resolve(ref), Path(done.stdout.strip()).parent.parent)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("ref", help="a commit-ish of this repository")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="cache folder (default bench/out)")
    args = parser.parse_args(argv)
    print(build(args.ref, args.out).bin)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
