"""`memcheck server` driven over stdio by a real LSP client (pytest-lsp): diagnostics
on open and as memories are written on disk, the code actions, config reloads,
bad input, and a clean shutdown.

One server serves the module's tests that share it: each works in a store of its
own (`.claude/agent-memory/<test>`), so they do not see each other's edits. The
tests that change the settings or end the server start one of their own.
"""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path
from typing import AsyncIterator, Callable

import pytest
import pytest_asyncio
from conftest import git, memory, run_cli, write
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

from memcheck.output.sarif import help_uri

pytestmark = [pytest.mark.e2e, pytest.mark.asyncio(loop_scope="module")]
# pytest-lsp's hooks (a server's errors and log in a failing test's report), loaded here
# alone: pyproject.toml keeps the plugin out of every other run (-p no:pytest-lsp).
pytest_plugins = ["pytest_lsp"]

FIX_TEXT = "- [A](a.md) - first\n"
WAIT = 20.0  # seconds: generous, for a loaded CI machine; a passing run waits far less


def _environment(home: Path) -> dict[str, str]:
    """The server's environment: this one, with $HOME and git's settings isolated
    (the module's server starts before the per-test isolation applies)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GIT_", "PRE_COMMIT_", "MEMCHECK_"))}
    empty = home / ".gitconfig-empty"
    empty.write_text("")
    env.update(HOME=str(home), GIT_CONFIG_GLOBAL=str(empty), GIT_CONFIG_NOSYSTEM="1")
    return env


def _new_repo(base: Path) -> Path:
    root = base / "repo"
    root.mkdir()
    git(root, "-c", "init.defaultBranch=main", "init", "-q")
    return root


async def _start(root: Path, home: Path, registrations: list[types.Registration], editor: str = "visual-studio-code") -> LanguageClient:
    config = ClientServerConfig(server_command=[sys.executable, "-m", "memcheck", "server"], server_env=_environment(home))
    client = await config.start()
    assert isinstance(client, LanguageClient)

    @client.feature(types.CLIENT_REGISTER_CAPABILITY)
    def register(params: types.RegistrationParams) -> None:
        registrations.extend(params.registrations)

    await client.initialize_session(types.InitializeParams(capabilities=client_capabilities(editor), root_uri=root.as_uri()))
    return client


class Served:
    def __init__(self, root: Path, client: LanguageClient, registrations: list[types.Registration]) -> None:
        self.root, self.client, self.registrations = root, client, registrations

    def uri(self, path: str) -> str:
        return (self.root / path).as_uri()

    def open(self, path: str, text: str | None = None) -> str:
        uri = self.uri(path)
        text = (self.root / path).read_text(encoding="utf-8") if text is None else text
        self.client.text_document_did_open(
            types.DidOpenTextDocumentParams(types.TextDocumentItem(uri=uri, language_id="markdown", version=1, text=text))
        )
        return uri

    async def diagnostics(self, path: str, until: Callable[[list[types.Diagnostic]], bool]) -> list[types.Diagnostic]:
        """The diagnostics of ``path`` once they satisfy ``until``."""
        uri = self.uri(path)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + WAIT
        while True:
            found = list(self.client.diagnostics.get(uri, []))
            if (uri in self.client.diagnostics and until(found)) or loop.time() > deadline:
                return found
            await asyncio.sleep(0.02)


def codes(diagnostics: list[types.Diagnostic]) -> list[str]:
    return sorted(str(d.code) for d in diagnostics)


def has(code: str) -> Callable[[list[types.Diagnostic]], bool]:
    return lambda found: code in codes(found)


def lacks(code: str) -> Callable[[list[types.Diagnostic]], bool]:
    return lambda found: code not in codes(found)


def apply_edits(text: str, edits: list[types.TextEdit]) -> str:
    """What an editor makes of ``text`` with these edits (ASCII text: UTF-16 units
    are characters), applied from the last."""
    lines = text.split("\n")

    def offset(p: types.Position) -> int:
        return len(text) if p.line >= len(lines) else sum(len(x) + 1 for x in lines[: p.line]) + p.character

    for edit in sorted(edits, key=lambda e: (e.range.start.line, e.range.start.character), reverse=True):
        text = text[: offset(edit.range.start)] + edit.new_text + text[offset(edit.range.end) :]
    return text


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def served(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[Served]:
    base = tmp_path_factory.mktemp("served")
    root = _new_repo(base)
    home = base / "home"
    home.mkdir()
    for store in ("open", "disk", "rebuild", "suppress", "quote"):
        write(root, f".claude/agent-memory/{store}/a.md", memory("A", "first", "user"))
        write(root, f".claude/agent-memory/{store}/MEMORY.md", FIX_TEXT)
    registrations: list[types.Registration] = []
    client = await _start(root, home, registrations)
    yield Served(root, client, registrations)
    await client.shutdown_session()


async def test_diagnostics_on_open_and_on_change_come_from_the_unsaved_text(served: Served) -> None:
    index = ".claude/agent-memory/open/MEMORY.md"
    uri = served.open(index, FIX_TEXT + "- [Gone](gone.md) - was here\n")
    found = await served.diagnostics(index, has("IDX002"))
    dead = [d for d in found if d.code == "IDX002"]
    assert dead, codes(found)
    assert dead[0].source == "memcheck"
    assert dead[0].severity == types.DiagnosticSeverity.Error
    assert dead[0].range.start == types.Position(line=1, character=2)
    # The page SARIF's helpUri names.
    assert dead[0].code_description is not None and dead[0].code_description.href == help_uri("IDX002")
    assert help_uri("IDX002").endswith("/docs/rules/IDX002.md")
    # The line deleted in the editor, never saved: the finding goes.
    served.client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            types.VersionedTextDocumentIdentifier(uri=uri, version=2),
            [types.TextDocumentContentChangePartial(range=types.Range(types.Position(1, 0), types.Position(2, 0)), text="")],
        )
    )
    assert codes(await served.diagnostics(index, lacks("IDX002"))) == []


async def test_a_memory_written_on_disk_refreshes_its_index(served: Served) -> None:
    index = ".claude/agent-memory/disk/MEMORY.md"
    served.open(index)
    assert codes(await served.diagnostics(index, lambda found: True)) == []
    # An agent writes a memory, outside the editor, and the editor's watcher says so.
    write(served.root, ".claude/agent-memory/disk/b.md", memory("B", "second", "user"))
    event = types.FileEvent(uri=served.uri(".claude/agent-memory/disk/b.md"), type=types.FileChangeType.Created)
    served.client.workspace_did_change_watched_files(types.DidChangeWatchedFilesParams(changes=[event]))
    found = await served.diagnostics(index, has("IDX003"))
    assert [d.message for d in found if d.code == "IDX003"] == [
        "memory file b.md is not listed in MEMORY.md; agents that load only the index never see it (run `memcheck fix`)"
    ]


async def test_the_server_asks_to_hear_of_agent_files_and_settings_changed_on_disk(served: Served) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + WAIT
    while not served.registrations and loop.time() < deadline:  # asked for once the client says it is initialized
        await asyncio.sleep(0.02)
    [registration] = served.registrations
    assert registration.method == types.WORKSPACE_DID_CHANGE_WATCHED_FILES
    # (The client leaves registerOptions as the JSON it received.)
    options = registration.register_options
    assert isinstance(options, dict)
    globs = {w["globPattern"] for w in options["watchers"]}
    assert {"**/*.md", "**/.memcheck.yaml", "**/pyproject.toml", "**/CLAUDE.md"} <= globs


async def test_the_rebuild_action_writes_what_memcheck_fix_writes(served: Served) -> None:
    store = ".claude/agent-memory/rebuild"
    index = f"{store}/MEMORY.md"
    write(served.root, f"{store}/b.md", memory("B", "second", "user"))
    served.client.workspace_did_change_watched_files(
        types.DidChangeWatchedFilesParams(changes=[types.FileEvent(uri=served.uri(f"{store}/b.md"), type=types.FileChangeType.Created)])
    )
    uri = served.open(index)
    found = await served.diagnostics(index, has("IDX003"))
    actions = await served.client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(uri=uri),
            range=types.Range(types.Position(0, 0), types.Position(0, 0)),
            context=types.CodeActionContext(diagnostics=found),
        )
    )
    rebuild = [a for a in actions or [] if isinstance(a, types.CodeAction) and a.title.startswith("Rebuild MEMORY.md")]
    assert len(rebuild) == 1
    assert rebuild[0].edit is not None and rebuild[0].edit.changes is not None
    rebuilt = apply_edits(FIX_TEXT, list(rebuild[0].edit.changes[uri]))
    # What `memcheck fix` writes on disk for the same store.
    assert run_cli(served.root, "fix", store).returncode == 0
    assert rebuilt == (served.root / index).read_text(encoding="utf-8")
    assert "[B](b.md)" in rebuilt


async def test_the_suppression_action_adds_a_comment_that_silences_the_finding(served: Served) -> None:
    index = ".claude/agent-memory/suppress/MEMORY.md"
    text = FIX_TEXT + "- [Gone](gone.md) - was here\n"
    uri = served.open(index, text)
    found = await served.diagnostics(index, has("IDX002"))
    dead = [d for d in found if d.code == "IDX002"]
    actions = await served.client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(uri=uri), range=dead[0].range, context=types.CodeActionContext(diagnostics=dead)
        )
    )
    suppress = [a for a in actions or [] if isinstance(a, types.CodeAction) and a.title == "Suppress IDX002 on this line"]
    assert len(suppress) == 1 and suppress[0].edit is not None and suppress[0].edit.changes is not None
    after = apply_edits(text, list(suppress[0].edit.changes[uri]))
    assert after == FIX_TEXT + "<!-- memcheck-disable-next-line IDX002 -->\n- [Gone](gone.md) - was here\n"
    served.client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            types.VersionedTextDocumentIdentifier(uri=uri, version=2), [types.TextDocumentContentChangeWholeDocument(text=after)]
        )
    )
    assert codes(await served.diagnostics(index, lacks("IDX002"))) == []


async def test_the_quote_action_quotes_a_value_yaml_cuts_at_a_comment(served: Served) -> None:
    path = ".claude/agent-memory/quote/a.md"
    text = "---\nname: A\ndescription: use C# and F# #sharp\ntype: user\n---\n\nBody.\n"
    uri = served.open(path, text)
    found = [d for d in await served.diagnostics(path, has("MEM019")) if d.code == "MEM019"]
    assert found
    actions = await served.client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(uri=uri), range=found[0].range, context=types.CodeActionContext(diagnostics=found)
        )
    )
    quote = [a for a in actions or [] if isinstance(a, types.CodeAction) and a.title == "Quote the value of description"]
    assert len(quote) == 1 and quote[0].edit is not None and quote[0].edit.changes is not None
    assert apply_edits(text, list(quote[0].edit.changes[uri])) == text.replace("use C# and F# #sharp", '"use C# and F# #sharp"')


async def test_files_outside_the_root_and_other_schemes_are_passed_over(served: Served, tmp_path: Path) -> None:
    outside = tmp_path / "elsewhere" / "MEMORY.md"
    served.client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            types.TextDocumentItem(uri=outside.as_uri(), language_id="markdown", version=1, text="- [X](x.md)\n")
        )
    )
    served.client.text_document_did_open(
        types.DidOpenTextDocumentParams(types.TextDocumentItem(uri="untitled:Untitled-1", language_id="markdown", version=1, text="x"))
    )
    # Still answering, and nothing said about either.
    index = ".claude/agent-memory/open/MEMORY.md"
    await served.client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(uri=served.uri(index)),
            range=types.Range(types.Position(0, 0), types.Position(0, 0)),
            context=types.CodeActionContext(diagnostics=[]),
        )
    )
    assert outside.as_uri() not in served.client.diagnostics
    assert "untitled:Untitled-1" not in served.client.diagnostics
    assert not [m for m in served.client.messages if "internal error" in m.message]


@pytest.mark.asyncio(loop_scope="function")
async def test_without_file_watchers_settings_reloads_bad_input_and_a_clean_shutdown(tmp_path: Path) -> None:
    root = _new_repo(tmp_path)
    home = tmp_path / "home"
    home.mkdir()
    write(root, ".memory/a.md", memory("A", "first", "user"))
    write(root, ".memory/MEMORY.md", FIX_TEXT)
    write(root, "CLAUDE.md", b"# Guide\n\xff\xfe not UTF-8\n")
    registrations: list[types.Registration] = []
    # Neovim 0.11 as pytest-lsp recorded it: it watches no files for a server.
    client = await _start(root, home, registrations, editor="neovim")
    served = Served(root, client, registrations)
    bad = await served.diagnostics("CLAUDE.md", lambda found: bool(found))
    assert "is not valid UTF-8" in " ".join(d.message for d in bad), "a file that is not UTF-8 is a finding, not a crash"
    served.open(".memory/MEMORY.md")
    assert codes(await served.diagnostics(".memory/MEMORY.md", lambda found: True)) == []
    # An agent writes a memory and nobody says so: the server sees it all the same.
    write(root, ".memory/b.md", memory("B", "second", "user"))
    assert "IDX003" in codes(await served.diagnostics(".memory/MEMORY.md", has("IDX003"))), client.messages
    assert registrations == []
    # Settings that turn the index rules off, read when the client reports them.
    write(root, ".memcheck.yaml", "ignore: [IDX]\n")
    client.workspace_did_change_watched_files(
        types.DidChangeWatchedFilesParams(changes=[types.FileEvent(uri=served.uri(".memcheck.yaml"), type=types.FileChangeType.Created)])
    )
    assert codes(await served.diagnostics(".memory/MEMORY.md", lacks("IDX003"))) == []
    # Broken settings: said in a message; the server keeps the last good ones and runs on.
    write(root, ".memcheck.yaml", "ignore: [IDX\n")
    client.workspace_did_change_watched_files(
        types.DidChangeWatchedFilesParams(changes=[types.FileEvent(uri=served.uri(".memcheck.yaml"), type=types.FileChangeType.Changed)])
    )
    loop = asyncio.get_running_loop()
    deadline = loop.time() + WAIT
    while not client.messages and loop.time() < deadline:
        await asyncio.sleep(0.02)
    assert [m.type for m in client.messages] == [types.MessageType.Error]
    assert client.messages[0].message.startswith("memcheck: error: .memcheck.yaml")
    assert client.messages[0].message.endswith("; the last valid settings are kept")
    # Settings mended: the index rules are back.
    write(root, ".memcheck.yaml", "ignore: []\n")
    client.workspace_did_change_watched_files(
        types.DidChangeWatchedFilesParams(changes=[types.FileEvent(uri=served.uri(".memcheck.yaml"), type=types.FileChangeType.Changed)])
    )
    assert "IDX003" in codes(await served.diagnostics(".memory/MEMORY.md", has("IDX003")))
    await client.shutdown_session()
    # shutdown, then exit: the process ends with status 0 (pytest-lsp keeps it as _server).
    assert client._server is not None and client._server.returncode == 0
    assert len(client.messages) == 1  # nothing else went wrong on the way
    await client.stop()
