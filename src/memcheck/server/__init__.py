"""The language server (``memcheck server``): findings as the editor's diagnostics,
while the files are typed and when agents write them on disk, and the fixes as code
actions. Needs the ``server`` extra (pygls): ``pip install '.[server]'`` in the clone."""

from __future__ import annotations

from memcheck.config import ConfigError

# memcheck is installed from a clone, so the install command names the clone's folder
# (or pygls itself), never a package index name that may belong to someone else.
INSTALL = (
    "memcheck server needs pygls 2.0 or newer, which is not installed: in memcheck's clone run"
    " `pip install '.[server]'`, or `pip install 'pygls>=2.0'` into memcheck's environment"
)


def run() -> int:
    """Serve over standard input and output until the editor says ``exit``."""
    try:
        from memcheck.server import lsp
    except ImportError as e:
        if (e.name or "").partition(".")[0] in ("pygls", "lsprotocol", "cattrs", "attrs"):
            raise ConfigError(INSTALL) from None
        raise

    return lsp.start()
