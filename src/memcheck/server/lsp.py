"""The language server on pygls: LSP messages in, a ``Session``'s findings and edits
out. Everything the server knows lives in the session; this module turns URIs into
paths, findings into diagnostics and edits into ``WorkspaceEdit``s, and never lets an
error end the server (it is shown as a message, and the server goes on)."""

from __future__ import annotations

import asyncio
import functools
import json
import logging
import sys
from pathlib import Path
from typing import Any, BinaryIO, Callable, Sequence, TypeVar, cast

from lsprotocol import types
from pygls.exceptions import JsonRpcException
from pygls.lsp.server import LanguageServer
from pygls.protocol import LanguageServerProtocol
from pygls.protocol.json_rpc import JsonRPCNotification
from pygls.uris import from_fs_path, to_fs_path
from pygls.workspace.position_codec import PositionCodec

from memcheck import __version__
from memcheck import config as settings
from memcheck.checks import all_rules
from memcheck.config import CONFIG_FILES
from memcheck.output.sarif import help_uri
from memcheck.paths import parent
from memcheck.problem import ERROR, WARNING, Problem, escaped
from memcheck.safe_files import NotRegular, read_regular
from memcheck.server.edits import TextEdit
from memcheck.server.session import DiskChange, FolderState, Published, Session, disk_change, watch_globs
from memcheck.text.document import MAX_BYTES

# Edits come in keystroke by keystroke: wait this long after the last one before
# checking, so a burst of typing is checked once.
DEBOUNCE_SECONDS = 0.05
# An editor that watches no files for the server (Neovim on Linux leaves it off): the
# folders of the open documents are looked at this often instead.
POLL_SECONDS = 1.0
SOURCE = "memcheck"
REBUILD = "Rebuild MEMORY.md (as `memcheck fix` writes it)"
_WATCHERS_ID = "memcheck-watched-files"

T = TypeVar("T")
log = logging.getLogger(__name__)


# Stands for a request answered while it was read: a notification nobody handles.
_ANSWERED = "$/memcheck/answered"


class MemcheckProtocol(LanguageServerProtocol):
    """pygls reads each message into the protocol's types while parsing its JSON, and a
    request whose params do not fit (a negative position, a missing field) fails there,
    before pygls knows its id: it shows an error and answers nothing, so the editor
    waits for that answer forever. Here such a request is answered with the error."""

    # Any, as pygls types it: a message's JSON in, one of the protocol's types out.
    def structure_message(self, data: dict[str, Any]) -> Any:
        try:
            return super().structure_message(data)
        except JsonRpcException as e:
            msg_id = data.get("id")
            if "method" not in data or isinstance(msg_id, bool) or not isinstance(msg_id, (int, str)):
                raise
            self._send_response(msg_id, error=e.to_response_error())
            return JsonRPCNotification(method=_ANSWERED, jsonrpc=self.VERSION, params=None)

    @property
    def shut_down(self) -> bool:
        """Whether the client sent ``shutdown`` (before ``exit``, it should)."""
        return bool(self._shutdown)


class MemcheckServer(LanguageServer):
    def __init__(self) -> None:
        super().__init__(
            "memcheck", __version__, text_document_sync_kind=types.TextDocumentSyncKind.Incremental, protocol_cls=MemcheckProtocol
        )
        self.session: Session | None = None
        self.pending: set[str] = set()
        self.timer: asyncio.TimerHandle | None = None
        self.disk: dict[str, FolderState] | None = None  # what the poller saw last


server = MemcheckServer()


def guarded(handler: Callable[..., T]) -> Callable[..., T | None]:
    """Whatever goes wrong in a handler is told to the user in one line, and the
    server keeps running: an editor's linter must not die on one odd file."""

    @functools.wraps(handler)
    def run(ls: MemcheckServer, params: Any) -> T | None:  # Any: each handler's own params type
        try:
            return handler(ls, params)
        except Exception as e:  # the server's one catch-all: reported, never a crash
            log.exception("memcheck server: %s failed", handler.__name__)
            ls.window_show_message(
                types.ShowMessageParams(types.MessageType.Error, f"memcheck: internal error: {type(e).__name__}: {escaped(str(e))}")
            )
            return None

    return run


@server.feature(types.INITIALIZE)
@guarded
def initialize(ls: MemcheckServer, params: types.InitializeParams) -> None:
    folder = None
    if params.workspace_folders:
        folder = to_fs_path(params.workspace_folders[0].uri)
    elif params.root_uri:
        folder = to_fs_path(params.root_uri)
    elif params.root_path:
        folder = params.root_path
    start = Path(folder) if folder else Path.cwd()
    ls.session = Session(settings.find_root(start))


@server.feature(types.INITIALIZED)
@guarded
def initialized(ls: MemcheckServer, params: types.InitializedParams) -> None:
    session = _session(ls)
    _load_config(ls, session)
    watched = ls.client_capabilities.workspace and ls.client_capabilities.workspace.did_change_watched_files
    if watched and watched.dynamic_registration:
        options = types.DidChangeWatchedFilesRegistrationOptions(
            watchers=[types.FileSystemWatcher(glob_pattern=g) for g in watch_globs(session.config)]
        )
        registration = types.Registration(id=_WATCHERS_ID, method=types.WORKSPACE_DID_CHANGE_WATCHED_FILES, register_options=options)
        ls.client_register_capability(types.RegistrationParams(registrations=[registration]))
    else:
        ls.disk = session.disk_state()
        asyncio.get_running_loop().call_later(POLL_SECONDS, _poll, ls)
    _publish(ls, session.check_all())


@server.feature(types.TEXT_DOCUMENT_DID_OPEN)
@guarded
def did_open(ls: MemcheckServer, params: types.DidOpenTextDocumentParams) -> None:
    _edited(ls, params.text_document.uri, params.text_document.text, at_once=True)


@server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
@guarded
def did_change(ls: MemcheckServer, params: types.DidChangeTextDocumentParams) -> None:
    uri = params.text_document.uri
    _edited(ls, uri, ls.workspace.get_text_document(uri).source)


@server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
@guarded
def did_close(ls: MemcheckServer, params: types.DidCloseTextDocumentParams) -> None:
    session = _session(ls)
    path = _path(session, params.text_document.uri)
    if path is not None and session.open_files.pop(path, None) is not None:
        _schedule(ls, path)  # the file as it is on disk now


@server.feature(types.TEXT_DOCUMENT_DID_SAVE)
@guarded
def did_save(ls: MemcheckServer, params: types.DidSaveTextDocumentParams) -> None:
    # For clients that watch no files: a saved config is new settings.
    session = _session(ls)
    if _path(session, params.text_document.uri) in CONFIG_FILES:
        _load_config(ls, session)
        _publish(ls, session.check_all())


@server.feature(types.WORKSPACE_DID_CHANGE_WATCHED_FILES)
@guarded
def did_change_watched_files(ls: MemcheckServer, params: types.DidChangeWatchedFilesParams) -> None:
    session = _session(ls)
    changed: list[str] = []
    deleted: list[str] = []
    listed = False
    for event in params.changes:
        path = _path(session, event.uri)
        if path is not None:
            listed |= event.type != types.FileChangeType.Changed
            (deleted if event.type == types.FileChangeType.Deleted else changed).append(path)
    _on_disk(ls, DiskChange(changed, deleted, listed))


def _on_disk(ls: MemcheckServer, change: DiskChange) -> None:
    """Files changed on disk: new settings, or the parts they belong to checked again."""
    session = _session(ls)
    if any(path in CONFIG_FILES for path in [*change.changed, *change.deleted]):
        _load_config(ls, session)
        _publish(ls, session.check_all())
        return
    if change.listed:
        session.refresh_listing()
    _publish(ls, session.check_paths(change.changed, change.deleted))


@guarded
def _look_at_disk(ls: MemcheckServer, _: None) -> None:
    session = _session(ls)
    now = session.disk_state()
    change = disk_change(ls.disk or {}, now)
    ls.disk = now
    if change.changed or change.deleted:
        _on_disk(ls, change)


def _poll(ls: MemcheckServer) -> None:
    _look_at_disk(ls, None)
    asyncio.get_running_loop().call_later(POLL_SECONDS, _poll, ls)


@server.feature(
    types.TEXT_DOCUMENT_CODE_ACTION, types.CodeActionOptions(code_action_kinds=[types.CodeActionKind.QuickFix], resolve_provider=False)
)
@guarded
def code_action(ls: MemcheckServer, params: types.CodeActionParams) -> list[types.CodeAction]:
    session = _session(ls)
    uri = params.text_document.uri
    path = _path(session, uri)
    if path is None or uri not in ls.workspace.text_documents:
        return []  # (an editor asks only about the documents it has open)
    _flush(ls)  # the actions are those of the text as it is now
    document = ls.workspace.get_text_document(uri)
    lines = document.lines
    codec = ls.workspace.position_codec
    found: list[types.CodeAction] = []
    rebuilt = session.rebuilt_index(path)
    if rebuilt is not None:
        whole = types.Range(types.Position(0, 0), _end(codec, lines))
        fix = types.TextEdit(range=whole, new_text=rebuilt)
        found.append(types.CodeAction(title=REBUILD, kind=types.CodeActionKind.QuickFix, edit=types.WorkspaceEdit(changes={uri: [fix]})))
    findings = {_key(p): p for p in session.findings(path)}
    for diagnostic in params.context.diagnostics:
        key = _data_key(diagnostic.data) if diagnostic.source == SOURCE else None
        problem = findings.get(key) if key is not None else None
        if problem is None:
            continue
        for action in session.actions(path, problem):
            edit = types.TextEdit(range=_range(codec, lines, action.edit), new_text=action.edit.text)
            found.append(
                types.CodeAction(
                    title=action.title,
                    kind=types.CodeActionKind.QuickFix,
                    diagnostics=[diagnostic],
                    is_preferred=action.preferred or None,
                    edit=types.WorkspaceEdit(changes={uri: [edit]}),
                )
            )
    return found


def _end(codec: PositionCodec, lines: Sequence[str]) -> types.Position:
    """Where the document ends, as the client counts."""
    if not lines:
        return types.Position(0, 0)
    if lines[-1].endswith("\n"):
        return types.Position(len(lines), 0)
    return codec.position_to_client_units(lines, types.Position(len(lines) - 1, len(lines[-1])))


def _session(ls: MemcheckServer) -> Session:
    if ls.session is None:  # a client that skipped initialize: the working folder's repository
        ls.session = Session(settings.find_root(Path.cwd()))
    return ls.session


def _load_config(ls: MemcheckServer, session: Session) -> None:
    first = session.config is None
    error = session.load_config()
    if error is not None:
        kept = "the default settings are used until it is fixed" if first else "the last valid settings are kept"
        ls.window_show_message(types.ShowMessageParams(types.MessageType.Error, f"memcheck: error: {escaped(error)}; {kept}"))


def _path(session: Session, uri: str) -> str | None:
    """The repository-relative path of a ``file:`` URI inside the root; None for
    anything else (another scheme, a file outside the repository)."""
    fs_path = to_fs_path(uri) if uri.startswith("file:") else None
    return session.relative(Path(fs_path)) if fs_path else None


def _edited(ls: MemcheckServer, uri: str, text: str, at_once: bool = False) -> None:
    session = _session(ls)
    path = _path(session, uri)
    if path is None:
        return
    session.open_files[path] = text
    if ls.disk is not None and parent(path) not in ls.disk:
        # What the poller compares with in the document's folder: the disk as it is now.
        ls.disk = {**session.disk_state(), **ls.disk}
    _schedule(ls, path)
    if at_once:
        _flush(ls)


def _schedule(ls: MemcheckServer, path: str) -> None:
    ls.pending.add(path)
    if ls.timer is not None:
        ls.timer.cancel()
    ls.timer = asyncio.get_running_loop().call_later(DEBOUNCE_SECONDS, _flush, ls)


@guarded
def _flush_pending(ls: MemcheckServer, paths: Sequence[str]) -> None:
    _publish(ls, _session(ls).check_paths(paths))


def _flush(ls: MemcheckServer) -> None:
    if ls.timer is not None:
        ls.timer.cancel()
        ls.timer = None
    paths, ls.pending = sorted(ls.pending), set()
    if paths:
        _flush_pending(ls, paths)


def _publish(ls: MemcheckServer, published: Published) -> None:
    session = _session(ls)
    for path, problems in published.by_path.items():
        uri = from_fs_path(str(session.root / path)) or ""
        text = session.open_files.get(path)
        if text is None and problems:
            text = _disk_text(session.root / path)
        lines = (text or "").split("\n")
        diagnostics = [_diagnostic(ls.workspace.position_codec, lines, p) for p in problems]
        open_document = ls.workspace.text_documents.get(uri)
        version = open_document.version if open_document is not None and path in session.open_files else None
        ls.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=uri, diagnostics=diagnostics, version=version))


def _disk_text(path: Path) -> str:
    """The text on disk that a finding's position counts in: at most what the check
    reads of a file, and nothing of a FIFO or a device (a memory linked to
    ``/dev/zero`` never ends, and a FIFO's open waits for a writer)."""
    try:
        return read_regular(path, MAX_BYTES).decode("utf-8", "replace")
    except (OSError, NotRegular):
        return ""


_SEVERITY = {ERROR: types.DiagnosticSeverity.Error, WARNING: types.DiagnosticSeverity.Warning}


def _diagnostic(codec: PositionCodec, lines: Sequence[str], problem: Problem) -> types.Diagnostic:
    line = problem.line - 1
    text = lines[line] if line < len(lines) else ""
    col = min(problem.col - 1, len(text))
    end = len(text.rstrip("\r")) if col < len(text.rstrip("\r")) else col
    known = problem.code in all_rules()
    return types.Diagnostic(
        range=_range(codec, lines, TextEdit(line, col, line, end, "")),
        message=problem.message,
        severity=_SEVERITY.get(problem.severity, types.DiagnosticSeverity.Information),
        code=problem.code,
        code_description=types.CodeDescription(href=help_uri(problem.code)) if known else None,
        source=SOURCE,
        data=list(_key(problem)),
    )


def _range(codec: PositionCodec, lines: Sequence[str], edit: TextEdit) -> types.Range:
    """A range in code points, as the client counts (UTF-16 unless it chose otherwise)."""
    server_range = types.Range(types.Position(edit.line, edit.col), types.Position(edit.end_line, edit.end_col))
    return codec.range_to_client_units(list(lines), server_range)


def _key(problem: Problem) -> tuple[int, int, str, str]:
    return problem.line, problem.col, problem.code, problem.message


def _data_key(data: object) -> tuple[int, int, str, str] | None:
    if isinstance(data, list) and len(data) == 4:
        line, col, code, message = data
        if isinstance(line, int) and isinstance(col, int) and isinstance(code, str) and isinstance(message, str):
            return line, col, code, message
    return None


# A message larger than this is passed over: pygls reads a message's body in one
# read of the length its header gives, so ``Content-Length: 99999999999999`` asked
# for that much memory at once and the server died of MemoryError. The largest file
# the check reads is 1 MiB; an editor's message about it is far below this.
MAX_MESSAGE_BYTES = 64 << 20
_HEADER_BYTES = 64 << 10  # a header line longer than this is read in pieces
_TOO_LARGE = "$/memcheck/tooLarge"


class BoundedInput:
    """Standard input as pygls reads it, with every read bounded: a message larger
    than ``MAX_MESSAGE_BYTES`` is read in pieces, thrown away, and stands for a
    notification that says so (the session goes on with the next message)."""

    def __init__(self, stream: BinaryIO) -> None:
        self.stream = stream

    def readline(self) -> bytes:
        return self.stream.readline(_HEADER_BYTES)

    def read(self, size: int) -> bytes:
        if size <= MAX_MESSAGE_BYTES:
            return self.stream.read(size)
        left = size
        while left > 0:
            chunk = self.stream.read(min(left, 1 << 20))
            if not chunk:
                return b""  # the input ended inside the message: the session ends
            left -= len(chunk)
        return json.dumps({"jsonrpc": "2.0", "method": _TOO_LARGE, "params": {"size": size}}).encode()


@server.feature(_TOO_LARGE)
@guarded
def too_large(ls: MemcheckServer, params: Any) -> None:  # Any: the params pygls made of our own notification
    size = getattr(params, "size", "?")
    ls.window_show_message(
        types.ShowMessageParams(
            types.MessageType.Error, f"memcheck: error: a message of {size} bytes was passed over (more than {MAX_MESSAGE_BYTES} bytes)"
        )
    )


def start() -> int:
    """Serve over standard input and output until the client says ``exit``; the exit
    status the protocol asks for: 0 after ``shutdown``, else 1."""
    # pygls calls only readline() and read(n) of what it is given as standard input.
    server.start_io(stdin=cast("BinaryIO", BoundedInput(sys.stdin.buffer)))
    return 0 if isinstance(server.protocol, MemcheckProtocol) and server.protocol.shut_down else 1
