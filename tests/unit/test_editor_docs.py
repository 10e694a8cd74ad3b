"""The editor set-ups in docs/language-server.md start the server that the README's
install puts in place: the clone's virtualenv's `memcheck`, by its full path (it is not
on PATH), with the `server` command."""

from __future__ import annotations

import json
import re
import sys

from conftest import REPO_ROOT

from memcheck.cli import cli

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

DOC = (REPO_ROOT / "docs/language-server.md").read_text(encoding="utf-8")
README = (REPO_ROOT / "README.md").read_text(encoding="utf-8")
SERVER = "/path/to/memcheck/.venv/bin/memcheck"


def _block(heading: str, lang: str) -> str:
    section = DOC.split(f"### {heading}", 1)[1]
    found = re.search(rf"```{lang}\n(.*?)```", section, re.S)
    assert found is not None, heading
    return found.group(1)


def test_the_readme_installs_memcheck_in_the_clones_virtualenv() -> None:
    assert "python3 -m venv .venv && .venv/bin/pip install ." in README
    assert "server" in cli.commands


def test_each_editor_starts_the_virtualenvs_memcheck_server() -> None:
    vscode = json.loads(_block("VS Code", "json"))
    assert (vscode["glspc.server.command"], vscode["glspc.server.commandArguments"]) == (SERVER, ["server"])
    assert f"cmd = {{ '{SERVER}', 'server' }}" in _block("Neovim 0.11 and later", "lua")
    helix = tomllib.loads(_block("Helix", "toml"))["language-server"]["memcheck"]
    assert (helix["command"], helix["args"]) == (SERVER, ["server"])
    assert f"`{SERVER}`" in DOC and "Put the folder of your clone in place of `/path/to/memcheck`" in DOC
