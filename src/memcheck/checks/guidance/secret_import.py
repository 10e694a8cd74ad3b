"""GDN023: an @-import or a link (Markdown, or an HTML ``href``/``src``) in a guidance
file that names a place where secrets are kept."""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterable, Iterator

from memcheck import lazy_regex
from memcheck.agents import links
from memcheck.agents.expansion import imports
from memcheck.problem import ERROR, Rule, escaped
from memcheck.text import mentions
from memcheck.workspace.links_out import secret_location

if TYPE_CHECKING:
    from memcheck.problem import Problem
    from memcheck.text.document import Document
    from memcheck.workspace.discover import Workspace

# Security severity 9.0 (critical): the agent puts a private key, a token or the
# machine's environment into its context, and from there into what it sends.
GDN023 = Rule(
    "GDN023",
    "secret-import",
    ERROR,
    False,
    "@-import or link names a place where secrets are kept",
    """\
## What it does
Reports an `@` import, a Markdown link or an HTML `href` or `src`
(`<a href="~/.ssh/id_rsa">`) whose target is a place the guard keeps secrets from
(its secrets tier: `.env` files, SSH and cloud credentials, keys,
`/etc/shadow`, `/proc/*/environ`, …): an absolute path, one from the home folder
(`@~/.aws/credentials`, judged as the home folder's own, and so `$HOME`, `${HOME}`,
`%USERPROFILE%` and `C:\\Users\\NAME`), or one in the repository, read through the
repository's symlinks (`@h/.ssh/id_rsa` with `h` a link to a home folder). A link is
an inline one, a reference definition, a `<file:…>` autolink or an HTML `href` or
`src`; `file:///…` and `file://localhost/…` name the path they hold.

## Why is this bad?
An agent that follows `@` imports loads the file into its context with the
instructions, and one that follows links reads it when it looks: the private key or
token goes to the model provider and into whatever the agent writes next.

## Example
```markdown
Deploy with the key in @~/.ssh/id_rsa.
```

## Use instead
Name the secret without importing it (`the deploy key, in your SSH agent`), and let
the tool that needs it read it.
```markdown
Deploy with the deploy key, in your SSH agent.
```
""",
    security_severity="9.0",
)


# The home folder as a shell or Windows spells it besides `~` (`$HOME`, `${HOME}`,
# `%USERPROFILE%`, `C:\\Users\\NAME`), once backslashes are slashes: judged as `~`.
_HOME = lazy_regex.compile(r"(?i)^(?:\$\{HOME\}|\$HOME|%USERPROFILE%|%HOMEDRIVE%%HOMEPATH%|%HOMEPATH%|/?[A-Z]:/Users/[^/]+)(?=/|$)")
# A Windows path, whose backslashes are separators: a drive or a variable first.
_WINDOWS = lazy_regex.compile(r"^(?:/?[A-Za-z]:|%[A-Za-z_]+%)[\\/]")
_DRIVE = lazy_regex.compile(r"^/?[A-Za-z]:(?=/)")
# `file:///etc/shadow` and `file://localhost/etc/shadow` (RFC 8089 §2) name the same file.
_FILE_URL = lazy_regex.compile(r"(?i)^file://(?:localhost)?(?=/)")
# An @-import of `${HOME}/…`, which the mention pattern stops at (its braces end a mention).
_BRACED_HOME_IMPORT = lazy_regex.compile(r"(?<![\w@/.\\+=-])@(\$\{HOME\}/[^\s`\"'<>()\[\]{}|,;]+)")
# An autolink to a file (`<file:///etc/shadow>`), which is a link without brackets.
_FILE_AUTOLINK = lazy_regex.compile(r"(?i)<(file:[^<>\s]+)>")


def _as_path(target: str) -> str:
    """``target`` as the path an agent's shell or Windows opens: a file URL's path,
    backslashes of a Windows path as slashes, the home folder as ``~`` and a drive
    letter dropped (``C:\\Users\\dev\\.ssh\\id_rsa`` is ``~/.ssh/id_rsa``)."""
    if not any(c in target for c in "$%:\\"):
        return target  # the usual path: no variable, drive, URL or backslash
    target = _FILE_URL.sub("", target)
    if _WINDOWS.match(target):
        target = target.replace("\\", "/")
    home = _HOME.match(target)
    if home is not None:
        return "~" + target[home.end() :]
    return _DRIVE.sub("", target)


def _imports_named(lines: Iterable[tuple[int, str]], body: str) -> Iterator[mentions.Token]:
    """The @-mentions of the prose, and the `@${HOME}/…` ones the mention pattern leaves."""
    yield from mentions.mentions(lines)
    if "@${HOME}" not in body:
        return
    for number, line in lines:
        if "${HOME}" in line:
            for m in _BRACED_HOME_IMPORT.finditer(line):
                yield mentions.Token(number, m.start() + 1, m.group(1).rstrip(".:!?*_~"))


def _autolinks(ws: Workspace, doc: Document) -> Iterator[mentions.Token]:
    """The autolinks to a file (`<file:///etc/shadow>`)."""
    if "<" in doc.body and _FILE_AUTOLINK.search(doc.body):  # one pass, for the rare file that has one
        for number, line in links.prose(ws, doc):
            for m in _FILE_AUTOLINK.finditer(line):
                yield mentions.Token(number, m.start(1) + 1, m.group(1))


def check(ws: Workspace, doc: Document, followed: bool) -> Iterator[Problem]:
    """The file's imports (where an agent that reads it follows them) and links that
    name a secret location."""
    if doc.error is not None:
        return
    path = doc.path
    if followed and "@" in doc.body:
        # Every mention that names a path, not only the ones memcheck takes for
        # imports: `@h/.ssh/id_rsa` has no extension, and through a link out of the
        # repository it names no file memcheck can see, yet the agent imports it.
        imported = {(imp.line, imp.col) for imp in imports(ws, doc)}
        for token in _imports_named(links.prose(ws, doc), doc.body):
            named = _as_path(token.text)
            if (token.line, token.col) not in imported and "/" not in named:
                continue
            if any(c in token.text for c in "*?["):
                continue  # a glob: GDN009's
            where = secret_location(ws, path, named.split("#", 1)[0])
            if where is not None:
                yield GDN023.at(
                    path,
                    token.line,
                    token.col,
                    f"@{escaped(token.text)} imports a place where secrets are kept ({where}): the agent loads it into its context; name the secret instead of importing it",
                )
    html = mentions.html_targets(links.prose(ws, doc)) if "<" in doc.body else ()
    judged: dict[str, str | None] = {}  # each target judged once: a page may repeat one 80,000 times
    for link in [*links.link_tokens(ws, doc), *html, *_autolinks(ws, doc)]:
        target = _as_path(link.text.removeprefix("file://") if link.text.startswith("file:///") else link.text)
        if not target or target.startswith(("#", "//")) or mentions.is_url(target):
            continue
        if target not in judged:
            judged[target] = secret_location(ws, path, mentions.unescaped(target).split("#", 1)[0].split("?", 1)[0])
        where = judged[target]
        if where is not None:
            yield GDN023.at(
                path,
                link.line,
                link.col,
                f"link {escaped(link.text)!r} names a place where secrets are kept ({where}): an agent that follows it reads the secret; name the secret instead of linking to it",
            )
