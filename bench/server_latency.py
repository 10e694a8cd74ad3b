"""How long the language server takes to bring an editor's diagnostics up to date,
measured in one process on its session (no LSP transport: that is the editor's
round trip, a millisecond or so), each beside a floor measured in the same run.

    python bench/server_latency.py ROOT MEMORY_FILE [--runs 5] [--store-files 1000]

- edit: one memory file of ROOT changed in the editor (unsaved), its diagnostics
  and its store's recomputed. Floor: reading and parsing that store's files.
- guidance edit: one guidance file changed in the editor, its @-imports kept (the
  common edit): the model of who reads what is carried over, and only the files
  whose findings can change are checked again. Floor: reading and parsing every
  guidance file.
- guidance import edit: the same file given, or losing, an @-import: the model is
  made again from every guidance file, and the files it now says otherwise of are
  checked again too. Same floor.
- store refresh: a store of --store-files memories (built in a temporary
  repository), a memory written on disk beside them, and the watched-file event
  handled: listing again, the store and its index checked. Floor: reading and
  parsing the store's files.

Prints one JSON object: each figure's median seconds of wall time, beside it the
median seconds of this process's CPU (``<figure>_cpu``: the server's own work, which
the wall time of a loaded machine hides), and the peak RSS in MiB.

    python bench/server_latency.py ROOT MEMORY_FILE --lsp [--runs 20]

With --lsp, the server itself (`python -m memcheck server`, this checkout's code) over
stdio, driven by pygls' client as an editor drives it: MEMORY_FILE and ROOT's first
guidance file opened, then each changed --runs times, whole; each figure is from the
change sent to its diagnostics received (``lsp_edit``, ``lsp_guidance_edit``: the
wall time includes the server's debounce), and ``<figure>_cpu`` the server process's
CPU over that time (its threads' run time, from Linux's /proc), the transport and the
publishing included.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Callable

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from memcheck.paths import parent  # noqa: E402  (after the path above)
from memcheck.server.session import Session  # noqa: E402
from memcheck.text import document  # noqa: E402


class Timed(dict[str, float]):  # figure name -> seconds (or a count)
    def add(self, name: str, runs: int, prepare: Callable[[int], None], timed: Callable[[], object]) -> None:
        """The median wall time of ``timed`` as ``name``, its median CPU as ``name_cpu``."""
        walls, cpus = [], []
        for i in range(runs + 1):  # the first is a warm-up
            prepare(i)
            start, start_cpu = time.perf_counter(), time.process_time()
            timed()
            if i:
                walls.append(time.perf_counter() - start)
                cpus.append(time.process_time() - start_cpu)
        self[name] = statistics.median(walls)
        self[name + "_cpu"] = statistics.median(cpus)


def read_all(root: Path, paths: list[str]) -> None:
    for path in paths:
        document.read(root, path).frontmatter  # noqa: B018  (parsed, as the check parses it)


def started(root: Path) -> Session:
    session = Session(root)
    error = session.load_config()
    if error is not None:
        raise SystemExit(f"server_latency: {error}")
    session.check_all()
    return session


def edit_figures(root: Path, memory_file: str, runs: int) -> Timed:
    session = started(root)
    original = (root / memory_file).read_text(encoding="utf-8")
    store = parent(memory_file)
    store_files = [f"{store}/{p.name}" for p in sorted((root / store).iterdir()) if p.is_file()]

    def edit(i: int) -> None:
        session.open_files[memory_file] = original + f"\nEdited {i}.\n"

    found = Timed()
    found.add("edit", runs, edit, lambda: session.check_paths([memory_file]))
    found.add("edit_floor", runs, lambda i: None, lambda: read_all(root, store_files))
    ws = session.workspace()
    guidance = sorted(ws.guidance)
    if guidance:
        first = guidance[0]
        text = (root / first).read_text(encoding="utf-8")

        def edit_guidance(i: int) -> None:
            session.open_files[first] = text + f"\nEdited {i}.\n"

        found.add("guidance_edit", runs, edit_guidance, lambda: session.check_paths([first]))
        # A file below its folder that it does not name yet: imported on every other run.
        folder = root / parent(first)
        below = sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file())
        beside = next((name for name in below if name not in text and name != Path(first).name), None)
        if beside is not None:

            def import_or_not(i: int) -> None:
                session.open_files[first] = text + (f"\nSee @{beside}.\n" if i % 2 else f"\nEdited {i}.\n")

            found.add("guidance_import_edit", runs, import_or_not, lambda: session.check_paths([first]))
        found.add("guidance_floor", runs, lambda i: None, lambda: read_all(root, guidance))
        found["guidance_files"] = len(guidance)
    return found


def store_figures(files: int, runs: int) -> Timed:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        subprocess.run(["git", "-c", "init.defaultBranch=main", "init", "-q"], cwd=root, check=True)
        store = root / ".memory"
        store.mkdir()
        for i in range(files):
            (store / f"note_{i:05d}.md").write_text(
                f"---\nname: Note {i}\ndescription: what note {i} says\ntype: project\n---\n\nNote {i}.\n", encoding="utf-8"
            )
        (store / "MEMORY.md").write_text(
            "".join(f"- [Note {i}](note_{i:05d}.md) - what note {i} says\n" for i in range(files)), encoding="utf-8"
        )
        session = started(root)
        written: list[str] = []

        def agent_writes(i: int) -> None:
            name = f"new_{i:03d}.md"
            (store / name).write_text(
                f"---\nname: New {i}\ndescription: written by an agent\ntype: project\n---\n\nNew.\n", encoding="utf-8"
            )
            written.append(f".memory/{name}")

        def refresh() -> object:
            session.refresh_listing()
            return session.check_paths([written[-1]])

        found = Timed()
        found.add("store", runs, agent_writes, refresh)
        files_now = [f".memory/{p.name}" for p in sorted(store.iterdir())]
        found.add("store_floor", runs, lambda i: None, lambda: read_all(root, files_now))
        found["store_files"] = files
        return found


def server_cpu(pid: int) -> float:
    """Seconds of CPU the process ``pid`` has had, all its threads together."""
    total = 0
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            total += int((task / "schedstat").read_text().split()[0])  # nanoseconds on a CPU
        except (OSError, ValueError, IndexError):
            pass  # a thread that ended meanwhile
    return total / 1e9


def lsp_figures(root: Path, memory_file: str, runs: int) -> dict[str, float]:
    return asyncio.run(_lsp_figures(root, memory_file, runs))


async def _lsp_figures(root: Path, memory_file: str, runs: int) -> dict[str, float]:
    from lsprotocol import types
    from pygls.lsp.client import LanguageClient

    client = LanguageClient("server-latency", "1")
    published: dict[str, int | None] = {}
    heard = asyncio.Event()

    @client.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    def diagnostics(params: types.PublishDiagnosticsParams) -> None:
        published[params.uri] = params.version
        heard.set()

    @client.feature(types.CLIENT_REGISTER_CAPABILITY)
    def register(params: types.RegistrationParams) -> None:
        return None

    src = str(Path(__file__).resolve().parents[1] / "src")
    await client.start_io(sys.executable, "-m", "memcheck", "server", cwd=root, env={**os.environ, "PYTHONPATH": src})
    assert client._server is not None  # (pygls keeps the server's process there, with no accessor)
    pid = client._server.pid
    watching = types.DidChangeWatchedFilesClientCapabilities(dynamic_registration=True)
    capabilities = types.ClientCapabilities(workspace=types.WorkspaceClientCapabilities(did_change_watched_files=watching))
    await client.initialize_async(types.InitializeParams(capabilities=capabilities, root_uri=root.as_uri()))
    client.initialized(types.InitializedParams())

    async def published_as(uri: str, version: int) -> None:
        while published.get(uri) != version:
            heard.clear()
            await asyncio.wait_for(heard.wait(), 120)

    found: dict[str, float] = {}
    guidance = Session(root)
    guidance.load_config()
    first = sorted(guidance.workspace().guidance)[:1]
    for name, path in [("lsp_edit", memory_file), *(("lsp_guidance_edit", p) for p in first)]:
        uri, text = (root / path).as_uri(), (root / path).read_text(encoding="utf-8")
        client.text_document_did_open(
            types.DidOpenTextDocumentParams(types.TextDocumentItem(uri=uri, language_id="markdown", version=1, text=text))
        )
        await published_as(uri, 1)  # (the first answer waits for the start-up check of the tree)
        walls, cpus = [], []
        for version in range(2, runs + 3):  # the first change is a warm-up
            start, start_cpu = time.perf_counter(), server_cpu(pid)
            change = types.TextDocumentContentChangeWholeDocument(text=text + f"\nEdited {version}.\n")
            client.text_document_did_change(
                types.DidChangeTextDocumentParams(types.VersionedTextDocumentIdentifier(uri=uri, version=version), [change])
            )
            await published_as(uri, version)
            if version > 2:
                walls.append(time.perf_counter() - start)
                cpus.append(server_cpu(pid) - start_cpu)
            await asyncio.sleep(0.05)  # the editor's next keystroke, after the debounce
        found[name], found[name + "_cpu"] = statistics.median(walls), statistics.median(cpus)
    await client.shutdown_async(None)
    client.exit(None)
    await client.stop()
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("root", type=Path)
    parser.add_argument("memory_file")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--store-files", type=int, default=1000)
    parser.add_argument("--lsp", action="store_true", help="time the server over stdio, as an editor drives it")
    args = parser.parse_args(argv)
    if args.lsp:
        found = lsp_figures(args.root.resolve(), args.memory_file, args.runs)
    else:
        found = {**edit_figures(args.root.resolve(), args.memory_file, args.runs), **store_figures(args.store_files, args.runs)}
        found["rss"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # the session is in this process
    print(json.dumps(found, sort_keys=True))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
