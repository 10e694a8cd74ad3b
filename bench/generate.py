"""Generate deterministic synthetic repositories for the benchmark.

Each size is a real git repository (``git init`` plus commits) shaped like a large
monorepo that uses coding agents: packages with guidance files in their folders,
memory stores with correct MEMORY.md indexes, skills, and ordinary source files.
The last commits form a range that touches ``range_paths`` paths, for ``memcheck
guard --base bench-base --head bench-head``.

    python bench/generate.py [--out bench/out] [--sizes S,M,L] [--force]

The same size always gives the same bytes and the same commit ids: file contents
come from a seeded ``random.Random`` and commits use fixed dates and identities.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import subprocess
import sys
from dataclasses import dataclass, replace
from pathlib import Path

# Bump when the generated shape changes, so stale trees are regenerated.
GENERATOR_VERSION = "1"
HERE = Path(__file__).resolve().parent
DEFAULT_OUT = HERE / "out"
TYPES = ("user", "feedback", "project", "reference")
STORE_FOLDERS = (
    ".claude/memory",
    ".claude/agent-memory/reviewer",
    ".memory",
    ".agents/memory",
    "notes/memory",  # not a configured store folder: found by its MEMORY.md and frontmatter
)
GUIDANCE_FOLDERS = ("", "src", "tests", "docs")
GUIDANCE_NAMES = ("AGENTS.md", "CLAUDE.md")
WORDS = (
    "auth api build cache client config deploy docs error events feature flags graph "
    "index job logs metrics migration model queue release review schema search server "
    "session storage sync test token ui upload user worker backend frontend database "
    "pipeline retry timeout lint format style branch commit merge rollout staging"
).split()


@dataclass(frozen=True)
class Size:
    name: str
    packages: int  # each package: 4 guidance files, 10 source files, a README
    stores: int  # memory stores, one in each of the first packages
    skills: int  # 4 per package, in the first packages
    range_paths: int  # paths the guard range touches
    memories: int = 100  # memory files per store
    # The shape, beyond the counts: trees unlike the default one, for costs that
    # grow with a product of two sizes (globs x files, memories x index lines, depth).
    index: str = "linked"  # "linked": entries link their files; "linkless": `- stem: description`
    globs: str = (
        "none"  # guidance frontmatter and rule files: "none", "match" (globs that match files), "nothing" (globs that match no file)
    )
    depth: int = 0  # folders each package sits below (area00/level01/...)
    # Every other memory's frontmatter: "none" as the rest; "broken" with one of the
    # slips people make that YAML rejects (see ``SLIPS``); "mended" the same memories
    # with each slip put right, every frontmatter valid: the control for "broken".
    slips: str = "none"
    seed: str = ""  # the random generator's seed, when not the name: twins that differ only in slips

    @property
    def memory_files(self) -> int:
        return self.stores * self.memories

    def doubled(self) -> Size:
        """The same shape with every count doubled: packages (and so guidance and
        source files), stores and skills. A linear check takes about twice as long."""
        return replace(
            self,
            name=f"{self.name}x2",
            packages=2 * self.packages,
            stores=2 * self.stores,
            skills=2 * self.skills,
            seed=self.seed and f"{self.seed}x2",
        )


SIZES = {
    "S": Size("S", packages=25, stores=10, skills=20, range_paths=1_000),
    # M: 10,100 store files + 1,000 guidance + 200 skills = 11,300 agent Markdown files.
    "M": Size("M", packages=250, stores=100, skills=200, range_paths=10_000),
    # L: the same shape 9 times over (about 100,000 agent Markdown files).
    "L": Size("L", packages=2_250, stores=900, skills=1_800, range_paths=10_000),
}
# Trees of M's size shaped unlike M, each for a cost M does not show.
SHAPES = {
    # Every guidance file has frontmatter globs, and every package has a Claude Code
    # rule (`paths`), a Copilot instruction file (`applyTo`) and a Cursor rule
    # (`globs`), all matching no file: a "does this glob match anything" check runs
    # each to the end of the file list.
    "M-globs": replace(SIZES["M"], name="M-globs", globs="nothing"),
    # The same files, with globs that match (description, alwaysApply, globs).
    "M-frontmatter": replace(SIZES["M"], name="M-frontmatter", globs="match"),
    # 20 stores of 500 memories whose indexes name them without links
    # (`- stem: description`): listing is found by words, line by line.
    "M-linkless": replace(SIZES["M"], name="M-linkless", stores=20, memories=500, index="linkless"),
    # Packages 12 folders deep, with a guidance file at every level on the way.
    "M-deep": replace(SIZES["M"], name="M-deep", depth=12),
    # One store of 800 memories, 400 of whose frontmatters YAML rejects (a colon in a
    # value, a tab, an unclosed quote or bracket, a stray list item, text after a
    # quoted string), as in a real repository whose agent wrote its frontmatter by
    # hand; and the same store with those 400 mended. The two are built from the
    # same seed, so they differ only in the slips: "no slower per file with broken
    # frontmatter" is the ratio of the two. (Not M's size: a small package around
    # one large store, so the frontmatter is what is measured.)
    "M-broken": Size("M-broken", packages=1, stores=1, skills=0, range_paths=40, memories=800, slips="broken", seed="broken-store"),
    "M-mended": Size("M-mended", packages=1, stores=1, skills=0, range_paths=40, memories=800, slips="mended", seed="broken-store"),
}
SIZES.update(SHAPES)
SIZES.update({f"{name}x2": size.doubled() for name, size in [("M", SIZES["M"]), *SHAPES.items()]})

GIT_ENV = {
    "GIT_CONFIG_NOSYSTEM": "1",
    "GIT_CONFIG_GLOBAL": os.devnull,
    "GIT_AUTHOR_NAME": "bench",
    "GIT_AUTHOR_EMAIL": "bench@example.com",
    "GIT_COMMITTER_NAME": "bench",
    "GIT_COMMITTER_EMAIL": "bench@example.com",
}


def git(root: Path, *args: str, date: int = 0) -> None:
    stamp = f"@{1_700_000_000 + date * 60} +0000"
    env = {**os.environ, **GIT_ENV, "GIT_AUTHOR_DATE": stamp, "GIT_COMMITTER_DATE": stamp}
    subprocess.run(["git", *args], cwd=root, env=env, check=True, stdout=subprocess.DEVNULL)


def phrase(rng: random.Random, n: int) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(n))


def paragraph(rng: random.Random) -> str:
    return " ".join(phrase(rng, rng.randint(6, 14)).capitalize() + "." for _ in range(rng.randint(2, 5)))


class Tree:
    """Collects file contents first, so the range commits can derive from them."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.files: dict[str, str] = {}
        self.memories: list[str] = []  # memory files (not indexes), in creation order

    def add(self, path: str, text: str) -> None:
        self.files[path] = text

    def write(self, paths: list[str] | None = None) -> None:
        made: set[Path] = set()
        for path in paths if paths is not None else sorted(self.files):
            full = self.root / path
            if full.parent not in made:
                full.parent.mkdir(parents=True, exist_ok=True)
                made.add(full.parent)
            full.write_bytes(self.files[path].encode("utf-8"))


def memory_file(rng: random.Random, kind: str, title: str, desc: str, slip: tuple[int, bool] | None = None) -> tuple[str, str]:
    """(the file, its description as the index shows it); ``slip``: (which of
    ``SLIPS``, mended or not) for a memory whose frontmatter has one."""
    # Mostly seed 003's shape; some files nest the type under metadata and carry
    # dates, as real Claude Code stores do.
    style = rng.random()
    if slip is not None:
        head, desc = SLIPS[slip[0]](rng, kind, title, desc, slip[1])
    elif style < 0.15:
        head = f"name: {title}\ndescription: {desc}\nmetadata:\n  type: {kind}\n  node_type: memory\n"
    elif style < 0.35:
        head = f'name: {title}\ndescription: "{desc}"\ntype: {kind}\ncreated: 2025-0{rng.randint(1, 9)}-1{rng.randint(0, 9)}\n'
    else:
        head = f"name: {title}\ndescription: {desc}\ntype: {kind}\n"
    body = "\n\n".join(paragraph(rng) for _ in range(rng.randint(2, 6)))
    return f"---\n{head}---\n\n{body}\n\n**Why:** {paragraph(rng)}\n\n**How to apply:** {paragraph(rng)}\n", desc


# Slips that make a frontmatter one YAML rejects, each with its mended form: each
# takes (rng, type, title, description, mended) and gives (the frontmatter's lines,
# the description as the index shows it). Each draws the same numbers mended or not,
# so the broken and mended stores stay alike byte for byte elsewhere.
def _colon_in_description(rng: random.Random, kind: str, title: str, desc: str, mended: bool) -> tuple[str, str]:
    desc = f"{desc}: see {phrase(rng, 3)}"  # "mapping values are not allowed here"
    shown = f'"{desc}"' if mended else desc
    return f"name: {title}\ndescription: {shown}\ntype: {kind}\n", desc


def _colon_in_name(rng: random.Random, kind: str, title: str, desc: str, mended: bool) -> tuple[str, str]:
    name = f"{kind.capitalize()}: {title}"
    shown = f"'{name}'" if mended else name
    return f"name: {shown}\ndescription: {desc}\ntype: {kind}\n", desc


def _tab_indent(rng: random.Random, kind: str, title: str, desc: str, mended: bool) -> tuple[str, str]:
    indent = "  " if mended else "\t"  # a tab cannot indent YAML
    return f"name: {title}\ndescription: {desc}\nmetadata:\n{indent}type: {kind}\n{indent}node_type: memory\n", desc


def _unclosed_quote(rng: random.Random, kind: str, title: str, desc: str, mended: bool) -> tuple[str, str]:
    shown = f'"{desc}"' if mended else f'"{desc}'
    return f"name: {title}\ndescription: {shown}\ntype: {kind}\ncreated: 2025-0{rng.randint(1, 9)}-1{rng.randint(0, 9)}\n", desc


def _unclosed_bracket(rng: random.Random, kind: str, title: str, desc: str, mended: bool) -> tuple[str, str]:
    tags = ", ".join(rng.sample(WORDS, 3))
    shown = f"[{tags}]" if mended else f"[{tags}"
    return f"name: {title}\ndescription: {desc}\ntype: {kind}\ntags: {shown}\n", desc


def _stray_list_item(rng: random.Random, kind: str, title: str, desc: str, mended: bool) -> tuple[str, str]:
    note = f"- {phrase(rng, 4)}\n"  # a list item under a key with a value of its own
    return f"name: {title}\ndescription: {desc}\ntype: {kind}\n" + (f"notes:\n{note}" if mended else note), desc


def _text_after_quotes(rng: random.Random, kind: str, title: str, desc: str, mended: bool) -> tuple[str, str]:
    first, _, rest = desc.partition(" ")
    desc = f'"{first}" {rest}'
    shown = f"'{desc}'" if mended else desc
    return f"name: {title}\ndescription: {shown}\ntype: {kind}\n", desc


SLIPS = (_colon_in_description, _colon_in_name, _tab_indent, _unclosed_quote, _unclosed_bracket, _stray_list_item, _text_after_quotes)


def index_grouped(entries: list[tuple[str, str, str, str]]) -> str:
    # Seed 003's _rebuild_index, byte for byte.
    sections: dict[str, list[str]] = {}
    for filename, kind, title, desc in sorted(entries):
        sections.setdefault(kind, []).append(f"- [{title}]({filename}) - {desc}")
    lines = ["# Memory\n"]
    for kind in TYPES:
        if kind in sections:
            lines += [f"## {kind.capitalize()}", *sections[kind], ""]
    return "\n".join(lines).strip() + "\n"


def index_emdash(entries: list[tuple[str, str, str, str]]) -> str:
    # The nano-claude-code / Claude Code form.
    return "".join(f"- [{title}]({filename}) \u2014 {desc}\n" for filename, _, title, desc in sorted(entries))


def index_linkless(entries: list[tuple[str, str, str, str]]) -> str:
    # A hand-kept index that names each memory by its file stem, without links.
    return "# Memory\n\n" + "".join(f"- {filename[:-3]}: {desc}\n" for filename, _, _, desc in sorted(entries))


def add_store(tree: Tree, rng: random.Random, folder: str, number: int, size: Size) -> None:
    entries = []
    for i in range(size.memories):
        kind = TYPES[(i + number) % 4]
        topic = phrase(rng, 2)
        filename = f"{kind}_{topic.replace(' ', '_')}_{i:03d}.md"
        title = topic.title() + f" {i}"
        desc = phrase(rng, rng.randint(5, 9)).capitalize()
        slip = ((i // 2) % len(SLIPS), size.slips == "mended") if size.slips != "none" and i % 2 else None
        text, desc = memory_file(rng, kind, title, desc, slip)
        tree.add(f"{folder}/{filename}", text)
        tree.memories.append(f"{folder}/{filename}")
        entries.append((filename, kind, title, desc))
    if size.index == "linkless":
        index = index_linkless(entries)
    else:
        index = index_emdash(entries) if number % 3 == 2 else index_grouped(entries)
    tree.add(f"{folder}/MEMORY.md", index)


def guidance_file(rng: random.Random, folder: str, globs: str = "none") -> str:
    sections = []
    for heading in ("Build", "Conventions", "Testing", "Gotchas"):
        bullets = "\n".join(f"- {phrase(rng, rng.randint(5, 12)).capitalize()}." for _ in range(rng.randint(3, 8)))
        sections.append(f"## {heading}\n\n{bullets}")
    # Mentions and links point at files that exist, so the tree stays clean.
    readme = "README.md" if folder == "" else "../README.md"
    head = ""
    if globs != "none":
        listed = ", ".join(map(repr, glob_list(globs, "")))
        head = f"---\ndescription: {phrase(rng, 6).capitalize()}\nalwaysApply: false\nglobs: [{listed}]\n---\n\n"
    return f"{head}# Agent guide\n\n{paragraph(rng)}\n\nSee @{readme} and [the readme]({readme}).\n\n" + "\n\n".join(sections) + "\n"


def glob_list(globs: str, package: str) -> list[str]:
    """Globs that match files (a package's sources from the root; from a guidance
    file's own folder, ``package`` empty, its Markdown), or nothing in the tree (no
    TypeScript or Go is ever generated)."""
    prefix = f"{package}/" if package else ""
    if globs == "match":
        return [f"{prefix}src/**/*.py" if package else "**/*.md", "**/README.md"]
    return [f"{prefix}web/**/*.ts", "**/*.go"]


def rule_files(tree: Tree, rng: random.Random, package: str, globs: str) -> None:
    """One rule per package for each agent with its own rule files: Claude Code
    (`paths`), Copilot (`applyTo`) and Cursor (`globs`), at the repository root."""
    name = package.replace("/", "-")
    listed = glob_list(globs, package)
    body = f"{paragraph(rng)}\n"
    tree.add(f".claude/rules/{name}.md", "---\npaths:\n" + "".join(f'  - "{g}"\n' for g in listed) + f"---\n\n# {name}\n\n{body}")
    tree.add(f".github/instructions/{name}.instructions.md", f'---\napplyTo: "{",".join(listed)}"\n---\n\n# {name}\n\n{body}')
    tree.add(
        f".cursor/rules/{name}.mdc",
        f"---\ndescription: Rules for {name}\nglobs: {','.join(listed)}\nalwaysApply: false\n---\n\n# {name}\n\n{body}",
    )


def skill_file(rng: random.Random, name: str) -> str:
    steps = "\n".join(f"{k}. {phrase(rng, rng.randint(5, 10)).capitalize()}." for k in range(1, rng.randint(4, 9)))
    return (
        f"---\nname: {name}\ndescription: {phrase(rng, 10).capitalize()}. Use when {phrase(rng, 5)}.\n---\n\n"
        f"# {name}\n\n{paragraph(rng)}\n\n## Steps\n\n{steps}\n"
    )


def source_file(rng: random.Random, module: str) -> str:
    funcs = "\n\n".join(f"def {rng.choice(WORDS)}_{k}(x):\n    return x + {k}\n" for k in range(rng.randint(2, 6)))
    # Distinct comment lines keep git's rename detection from pairing unrelated files.
    notes = "".join(f"# {phrase(rng, 8)}\n" for _ in range(8))
    return f'"""{module}: {phrase(rng, 6)}."""\n{notes}\n{funcs}'


def package_folder(size: Size, p: int) -> str:
    if not size.depth:
        return f"pkg{p:04d}"
    return "/".join([f"area{p % 10:02d}", *(f"level{d:02d}" for d in range(1, size.depth)), f"pkg{p:04d}"])


def build_tree(size: Size, root: Path) -> Tree:
    rng = random.Random(f"memcheck-bench-{size.seed or size.name}")
    tree = Tree(root)
    tree.add("README.md", "# Synthetic monorepo\n\nGenerated by bench/generate.py.\n")
    tree.add(".gitignore", "__pycache__/\n*.pyc\n")
    for p in range(size.packages):
        pkg = package_folder(size, p)
        tree.add(f"{pkg}/README.md", f"# {pkg}\n\n{paragraph(rng)}\n")
        # Deep packages: a guidance file in every folder on the way down, once.
        for above in _ancestors(pkg):
            if f"{above}/AGENTS.md" not in tree.files:
                tree.add(f"{above}/README.md", f"# {above}\n")
                tree.add(f"{above}/AGENTS.md", guidance_file(rng, "sub"))
        for g, sub in enumerate(GUIDANCE_FOLDERS):
            folder = f"{pkg}/{sub}" if sub else pkg
            name = GUIDANCE_NAMES[(p + g) % 2]
            tree.add(f"{folder}/{name}", guidance_file(rng, sub, size.globs if name == "AGENTS.md" else "none"))
        for k in range(10):
            tree.add(f"{pkg}/src/module_{k}.py", source_file(rng, f"{pkg}.module_{k}"))
        if size.globs != "none":
            rule_files(tree, rng, pkg, size.globs)
        if p < size.stores:
            add_store(tree, rng, f"{pkg}/{STORE_FOLDERS[p % len(STORE_FOLDERS)]}", p, size)
        if p * 4 < size.skills:
            for k in range(4):
                name = f"{rng.choice(WORDS)}-p{p:04d}-{k}"
                tree.add(f"{pkg}/.claude/skills/{name}/SKILL.md", skill_file(rng, name))
                if k == 0:
                    tree.add(f"{pkg}/.claude/skills/{name}/reference.md", f"# Reference\n\n{paragraph(rng)}\n")
    return tree


def _ancestors(package: str) -> list[str]:
    """The folders strictly between the root and ``package``, top first."""
    parts = package.split("/")[:-1]
    return ["/".join(parts[: i + 1]) for i in range(len(parts))]


def range_commits(tree: Tree, size: Size, rng: random.Random) -> list[tuple[list[str], list[str], list[tuple[str, str]]]]:
    """(written, deleted, renamed) per commit: size.range_paths distinct paths in all.

    Like a large pull request: memory bodies and guidance edited, source files
    edited, added, deleted and renamed. Bodies change, frontmatter does not, so the
    indexes stay correct and the tree stays clean.
    """
    memories = sorted(tree.memories)
    guidance = sorted(p for p in tree.files if p.rpartition("/")[2] in GUIDANCE_NAMES)
    sources = sorted(p for p in tree.files if p.endswith(".py"))
    n = size.range_paths
    n_mem, n_gdn = int(n * 0.6), int(n * 0.1)
    n_src_mod, n_add, n_del = int(n * 0.1), int(n * 0.1), int(n * 0.05)
    n_ren = n - n_mem - n_gdn - n_src_mod - n_add - n_del
    assert len(memories) >= n_mem and len(guidance) >= n_gdn and len(sources) >= n_src_mod + n_del + n_ren
    edits = memories[:n_mem] + guidance[:n_gdn] + sources[:n_src_mod]
    doomed = sources[n_src_mod : n_src_mod + n_del]
    moved = sources[n_src_mod + n_del : n_src_mod + n_del + n_ren]
    added = [f"{package_folder(size, i % size.packages)}/gen/added_{i:05d}.py" for i in range(n_add)]
    commits = []
    parts = 4
    for c in range(parts):
        written: list[str] = []
        for path in edits[c::parts]:
            tree.files[path] += f"\nEdited in range commit {c}: {phrase(rng, 6)}.\n"
            written.append(path)
        for path in added[c::parts]:
            tree.add(path, source_file(rng, path))
            written.append(path)
        renamed = []
        for path in moved[c::parts]:
            new = path.replace("/src/", "/lib/")
            tree.files[new] = tree.files.pop(path)
            renamed.append((path, new))
            written.append(new)
        deleted = doomed[c::parts]
        for path in deleted:
            del tree.files[path]
        commits.append((written, deleted, renamed))
    return commits


def generate(size: Size, out: Path, force: bool = False) -> Path:
    root = out / size.name
    stamp = root / ".git" / "memcheck-bench"
    if not force and stamp.exists() and stamp.read_text() == GENERATOR_VERSION:
        return root
    if root.exists():
        shutil.rmtree(root)
    root.mkdir(parents=True)
    git(root, "-c", "init.defaultBranch=main", "init", "-q")
    git(root, "config", "core.autocrlf", "false")
    git(root, "config", "gc.auto", "0")  # no background gc while timing
    tree = build_tree(size, root)
    tree.write()
    git(root, "add", "-A")
    git(root, "commit", "-q", "--no-verify", "-m", "Synthetic tree", date=1)
    git(root, "tag", "bench-base")
    rng = random.Random(f"memcheck-bench-range-{size.seed or size.name}")
    for c, (written, deleted, renamed) in enumerate(range_commits(tree, size, rng)):
        for old, _ in renamed:
            (root / old).unlink()
        for path in deleted:
            (root / path).unlink()
        tree.write(written)
        git(root, "add", "-A")
        git(root, "commit", "-q", "--no-verify", "-m", f"Range commit {c}", date=2 + c)
    git(root, "tag", "bench-head")
    stamp.write_text(GENERATOR_VERSION)
    return root


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", nargs="?", type=Path, default=DEFAULT_OUT, help="folder for the repositories (default bench/out)")
    parser.add_argument("--sizes", default="S,M", help="comma-separated sizes among S, M, L (default S,M)")
    parser.add_argument("--force", action="store_true", help="regenerate even when an up-to-date tree exists")
    args = parser.parse_args(argv)
    for name in args.sizes.split(","):
        if name not in SIZES:
            parser.error(f"unknown size {name!r}; choose among {', '.join(SIZES)}")
        root = generate(SIZES[name], args.out, args.force)
        print(f"{name}: {root}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
