"""The language server (``memcheck server``): findings as the editor's diagnostics,
while the files are typed and when agents write them on disk, and the fixes as code
actions. Needs the ``server`` extra (pygls): ``pip install 'memcheck[server]'``."""
from __future__ import annotations

from memcheck.config import ConfigError

INSTALL = "memcheck server needs the language-server extra, which is not installed: pip install 'memcheck[server]'"


def run() -> int:
    """Serve over standard input and output until the editor says ``exit``."""
    try:
        from memcheck.server import lsp
    except ImportError as e:
        if (e.name or "").partition(".")[0] in ("pygls", "lsprotocol", "cattrs", "attrs"):
            raise ConfigError(INSTALL) from None
        raise

    return lsp.start()
