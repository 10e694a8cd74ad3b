"""The floor for `memcheck check`: the least work any such linter must do.

List the files through git, read each Markdown file once and parse its frontmatter
with PyYAML's C loader. Nothing is checked or reported; memcheck's full check is
measured as a multiple of this.

    python bench/floor_check.py [ROOT]
"""

from __future__ import annotations

import subprocess
import sys

import yaml

Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def main(argv: list[str]) -> int:
    root = argv[0] if argv else "."
    out = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=root, capture_output=True, check=True
    ).stdout
    parsed = 0
    for path in out.decode("utf-8", "surrogateescape").split("\0"):
        if not path.endswith(".md"):
            continue
        with open(f"{root}/{path}", "rb") as f:
            text = f.read().decode("utf-8", "replace")
        if not text.startswith("---\n"):
            continue
        end = text.find("\n---", 3)
        if end < 0:
            continue
        try:
            yaml.load(text[4:end], Loader=Loader)
        except yaml.YAMLError:
            pass
        parsed += 1
    print(parsed)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
