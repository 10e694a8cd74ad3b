"""Find, read and validate the configuration.

The JSON Schema shipped in ``resources/`` is the single source of truth for what a
config may hold: ``validate`` interprets the small subset of JSON Schema it uses, so a
key added to the schema is accepted here without a second list to keep in sync.
"""

from __future__ import annotations

import json
import os
import stat
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterable, Mapping, Sequence, TypedDict, TypeGuard, Union, cast

from memcheck import choices
from memcheck.paths import basename
from memcheck.records import NamedTuple
from memcheck.safe_files import link_out, within

if TYPE_CHECKING:
    import datetime

    # Types alone: building a TypedDict (its every key's type compiled as a forward
    # reference) cost each hook's start-up a millisecond.
    # A JSON value: what the shipped schema and defaults hold.
    JSON = Union[None, bool, int, float, str, list["JSON"], dict[str, "JSON"]]

    class SchemaNode(TypedDict, total=False):
        """The subset of JSON Schema that ``validate`` interprets."""

        type: str | list[str]
        enum: list[JSON]
        format: str
        properties: dict[str, SchemaNode]
        additionalProperties: bool | SchemaNode
        propertyNames: SchemaNode
        items: SchemaNode
        minItems: int
        minimum: float
        maximum: float

    # The settings once validated and laid over the defaults: every key is there, each
    # value of the type the schema gives it.
    Settings = TypedDict(
        "Settings",
        {
            "select": list[str],
            "ignore": list[str],
            "per-path-ignores": dict[str, list[str]],
            "exclude": list[str],
            "agents": list[str],
            "fail-on": str,
            "baseline": str | None,
            "cache-dir": str | None,
            "memory": dict[str, JSON],
            "index": dict[str, JSON],
            "guidance": dict[str, JSON],
            "skills": dict[str, JSON],
            "context": dict[str, JSON],
            "guard": dict[str, JSON],
        },
    )

CONFIG_FILENAME = ".memcheck.yaml"
# Where a repository keeps its settings, in order: the first file that exists holds them.
CONFIG_FILES = (CONFIG_FILENAME, "pyproject.toml")


class ConfigError(Exception):
    """A usage or configuration error: reported on one line, exit code 2."""


def resource_json(name: str) -> Any:  # Any: JSON of a shape each caller knows (schema, defaults, guard patterns)
    """A JSON file shipped in ``memcheck/resources``.

    Read beside this module rather than through importlib.resources, whose import
    (tempfile, zipfile, shutil, ...) costs more than memcheck's whole start-up budget
    allows; memcheck is installed as files, never run from a zip.
    """
    with open(os.path.join(os.path.dirname(__file__), "resources", name), encoding="utf-8") as f:
        return json.load(f)


def schema() -> SchemaNode:
    node: SchemaNode = resource_json("config.schema.json")
    return node


def defaults() -> Settings:
    data: Settings = resource_json("default-config.json")
    data["agents"] = list(choices.AGENTS)  # all of them: the list is kept in memcheck.choices alone
    return data


_JSON_TYPES: dict[str, tuple[type, ...]] = {
    "object": (dict,),
    "array": (list,),
    "string": (str,),
    "integer": (int,),
    "number": (int, float),
    "boolean": (bool,),
    "null": (type(None),),
}


def _type_ok(value: object, expected: str) -> bool:
    if isinstance(value, bool) and expected in ("integer", "number"):
        return False
    return isinstance(value, _JSON_TYPES[expected])


def _where(path: Sequence[str]) -> str:
    return ".".join(map(_excerpt, path)) if path else "(top level)"


def validate(value: object, node: SchemaNode, path: tuple[str, ...] = ()) -> list[str]:
    """Errors of ``value`` against ``node``, each naming the key it is about.

    ``value`` comes from YAML or TOML, so it may be of any type those give, a
    mapping's keys included (``1:``, ``~:`` and ``2020-01-01:`` are not strings).
    """
    if "enum" in node and value not in node["enum"]:
        allowed = ", ".join("null" if v is None else str(v) for v in node["enum"])
        return [f"{_where(path)}: {_shown(value)} is not one of: {allowed}"]
    expected = node.get("type")
    if expected is not None:
        kinds = [expected] if isinstance(expected, str) else list(expected)
        if not any(_type_ok(value, k) for k in kinds):
            return [f"{_where(path)}: expected {' or '.join(kinds)}, got {type(value).__name__} {_shown(value)}"]
    if isinstance(value, str) and "format" in node:
        problem = _FORMATS[node["format"]](value)
        if problem is not None:
            return [f"{_where(path)}: {problem}"]
    errors: list[str] = []
    if isinstance(value, dict):
        props = node.get("properties", {})
        extra = node.get("additionalProperties", True)
        for key, sub in value.items():
            if not isinstance(key, str):
                errors.append(f"{_where(path)}: key {_shown(key)} is {_kind(key)}, not text; quote it")
                continue
            if "propertyNames" in node:
                errors += validate(key, node["propertyNames"], (*path, key))
            if key in props:
                errors += validate(sub, props[key], (*path, key))
            elif extra is False:
                known = ", ".join(sorted(props))
                errors.append(f"unknown key {_where((*path, key))!r} (known keys here: {known})")
            elif not isinstance(extra, bool):  # a schema for every other key
                errors += validate(sub, extra, (*path, key))
    if isinstance(value, list):
        if len(value) < node.get("minItems", 0):
            errors.append(f"{_where(path)}: needs at least {node['minItems']} item(s)")
        if "items" in node:
            for i, item in enumerate(value):
                errors += validate(item, node["items"], (*path, str(i)))
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        if "minimum" in node and value < node["minimum"]:
            errors.append(f"{_where(path)}: {_shown(value)} is below the minimum {node['minimum']}")
        if "maximum" in node and value > node["maximum"]:
            errors.append(f"{_where(path)}: {_shown(value)} is above the maximum {node['maximum']}")
    return errors


def _kind(value: object) -> str:
    if isinstance(value, bool):
        return "true or false"
    if isinstance(value, (int, float)):
        return "a number"
    if value is None:
        return "null"
    if _is_date(value):
        return "a date"
    return f"a {type(value).__name__}"


def _shown(value: object) -> str:
    """A value from a config file, as a message quotes it: a short excerpt, its
    secrets redacted (the message may reach a public CI log)."""
    if isinstance(value, str):
        return repr(_excerpt(value))
    return _excerpt(value.isoformat() if _is_date(value) else repr(value))


def _is_date(value: object) -> TypeGuard[datetime.date]:
    """A date YAML or TOML read (``2024-01-01``). Only their loaders make one, and
    they import datetime: a run that read neither has none, and need not import it
    (2 ms of a hook's start-up)."""
    dt = sys.modules.get("datetime")
    return dt is not None and isinstance(value, dt.date)


def _excerpt(text: str) -> str:
    from memcheck.text.secrets import excerpt  # only when a message quotes a config

    return excerpt(text)


def _bounded(message: str) -> str:
    """A library's message about a config (PyYAML's, tomllib's, re's), which may quote
    the file, cut and redacted as ``_shown`` does."""
    from memcheck.text.secrets import bounded

    return bounded(message)


def _gitignore_problem(pattern: str) -> str | None:
    """Why pathspec, which reads every gitignore-style pattern memcheck is given,
    cannot use ``pattern``; None when it can."""
    from memcheck.text import patterns

    return _pattern_problem(pattern, lambda: patterns.GitIgnore([pattern]))


def _glob_problem(glob: str) -> str | None:
    """The same for a folder glob (``memory.stores``, ``skills.roots``), matched one
    path segment at a time with fnmatch."""
    from memcheck.text import patterns

    return _pattern_problem(glob, lambda: patterns.folder_glob_regexes(glob))


def _pattern_problem(pattern: str, compile_it: Callable[[], object]) -> str | None:
    import re
    import warnings

    if re.search(r"\[:[a-z]+:\]", pattern):
        # Git's own matcher knows [[:alpha:]]; pathspec and fnmatch do not: they read
        # a set of the characters `[:alph` (and re warns about the nested set).
        return f"pattern {_shown(pattern)} uses a POSIX class such as [[:alpha:]], which memcheck cannot match; write the characters, e.g. [a-zA-Z]"
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # re's FutureWarning on `[[` and the like: a regex that would not mean what the pattern says
        try:
            compile_it()
        except (ValueError, re.error, FutureWarning) as e:
            reason = e.msg if isinstance(e, re.error) else str(e)  # re's position is in the translated regex, not the pattern
            return f"invalid pattern {_shown(pattern)}: {_bounded(reason)}"
    return None


_FORMATS = {"gitignore-pattern": _gitignore_problem, "folder-glob": _glob_problem}


def _merge(base: Mapping[str, object], override: Mapping[str, object]) -> dict[str, object]:
    merged = dict(base)
    for key, value in override.items():
        below = merged.get(key)
        if isinstance(value, dict) and isinstance(below, dict) and key != "per-path-ignores":
            merged[key] = _merge(below, value)
        else:
            merged[key] = value
    return merged


def _attrs(section: Mapping[str, JSON]) -> dict[str, Any]:  # Any: validated, each value fits its field; mypy cannot see that
    return {k.replace("-", "_"): tuple(v) if isinstance(v, list) else v for k, v in section.items()}


class MemoryConfig(NamedTuple):
    stores: tuple[str, ...]
    types: tuple[str, ...]
    required: tuple[str, ...]
    allowed_keys: tuple[str, ...]
    description_max_length: int
    stale_after_days: int


class IndexConfig(NamedTuple):
    mode: str | None
    style: str | None
    max_lines: int
    max_bytes: int
    warn_ratio: float


class GuidanceConfig(NamedTuple):
    filenames: tuple[str, ...]
    max_lines: int
    max_bytes: int
    max_tokens: int
    max_import_depth: int | None  # a house limit for every guidance file; the agents' own apply anyway
    allowed_keys: tuple[str, ...]


class SkillsConfig(NamedTuple):
    roots: tuple[str, ...]
    allowed_keys: tuple[str, ...]


class ContextConfig(NamedTuple):
    max_tokens: int


class GuardConfig(NamedTuple):
    disable: tuple[str, ...]
    patterns: tuple[str, ...]
    allow: tuple[str, ...]
    case_sensitive: bool
    everyone: bool = False  # every tier guards every change
    tiers: tuple[tuple[str, str], ...] = ()  # (category, "secrets" or "agents"): moved from its shipped tier
    agents_add: tuple[tuple[tuple[str, str], ...], ...] = ()  # signatures, each as its sorted (key, value) pairs
    agents_remove: tuple[str, ...] = ()  # ids of shipped signatures


# What a signature the config adds must name, by kind: one of these keys at least.
SIGNATURE_KINDS = ("trailer", "author", "committer", "env")
_SIGNATURE_NEEDS = {
    "trailer": ("email", "name", "name-suffix"),
    "author": ("email", "name", "name-suffix"),
    "committer": ("email", "name", "name-suffix"),
    "env": ("variable",),
}


def _guard_config(section: Mapping[str, Any], source: str) -> GuardConfig:  # Any: validated against the schema
    agents = section["agents"]
    added = []
    for i, signature in enumerate(agents.get("add", [])):
        kind = signature.get("kind")
        if kind is None:
            raise ConfigError(f"{source}: guard.agents.add.{i}: needs a kind (trailer, author, committer or env)")
        if not any(signature.get(key) for key in _SIGNATURE_NEEDS[kind]):
            raise ConfigError(f"{source}: guard.agents.add.{i}: a {kind} signature needs {' or '.join(_SIGNATURE_NEEDS[kind])}")
        if kind == "trailer" and not signature.get("key"):
            raise ConfigError(f"{source}: guard.agents.add.{i}: a trailer signature needs the trailer's key (Co-Authored-By)")
        added.append(tuple(sorted(signature.items())))
    return GuardConfig(
        disable=tuple(section["disable"]),
        patterns=tuple(section["patterns"]),
        allow=tuple(section["allow"]),
        case_sensitive=section["case-sensitive"],
        everyone=section["everyone"],
        tiers=tuple(sorted(section["tiers"].items())),
        agents_add=tuple(added),
        agents_remove=tuple(agents.get("remove", [])),
    )


class Config(NamedTuple):
    """The settings of a run. (A NamedTuple, as every value here: a frozen dataclass
    costs each process that reads settings, every hook's, 11 ms of CPU to import
    dataclasses and inspect.)"""

    root: Path
    source: str  # where the settings came from, for messages
    select: tuple[str, ...]
    ignore: tuple[str, ...]
    per_path_ignores: tuple[tuple[str, tuple[str, ...]], ...]
    exclude: tuple[str, ...]
    agents: tuple[str, ...]  # the agents this repository serves (memcheck.agents names)
    memory: MemoryConfig
    index: IndexConfig  # type: ignore[assignment]  # (the field, in place of tuple's index(): never called on a Config)
    guidance: GuidanceConfig
    skills: SkillsConfig
    context: ContextConfig
    guard: GuardConfig
    fail_on: str = "error"  # check and fix exit 1 on findings of this severity or worse
    baseline: str | None = None  # findings recorded in this file are not reported
    settings_file: str | None = None  # the file read (absolute), None for the defaults or settings from git
    cache_dir: str = ""  # where findings are kept between runs (repository-relative); "": the git folder's
    no_cache: bool = False  # --no-cache: keep nothing between runs


def _read_yaml_config(path: Path) -> object:
    try:
        text = path.read_text("utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise ConfigError(f"{path.name}: cannot read: {e}") from None
    return _parse_yaml_config(text, path.name)


def _parse_yaml_config(text: str, name: str) -> object:
    """The settings in a YAML config's text (``name`` for messages), read within the
    same bounds as frontmatter: a config can come with the pull request memcheck
    judges. Imports PyYAML, so only when there is a config file: start-up stays cheap."""
    import yaml

    from memcheck.text import yamlload

    try:
        loaded = yamlload.load(text)
        if loaded.duplicates:
            # PyYAML keeps the last of two equal keys without a word: a setting
            # written twice would be half ignored.
            key, line = loaded.duplicates[0]
            raise ConfigError(f"{name}:{line + 1}: key {_shown(key)} is given twice; keep one")
        return loaded.data or {}
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        where = f":{mark.line + 1}" if mark is not None else ""
        problem = getattr(e, "problem", None) or str(e).splitlines()[0]
        what = "not read" if isinstance(e, yamlload.TooComplex) else "invalid YAML"
        raise ConfigError(f"{name}{where}: {what}: {_bounded(problem)}") from None
    except (ValueError, TypeError, OverflowError) as e:  # a value YAML cannot build (a date out of range)
        raise ConfigError(f"{name}: invalid YAML: {_bounded(yamlload.value_problem(e))}") from None


def _read_pyproject(path: Path) -> object:
    if not path.is_file():
        return None
    try:
        text = path.read_text("utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise ConfigError(f"pyproject.toml: cannot read: {e}") from None
    return _parse_pyproject(text, "pyproject.toml")


def _parse_pyproject(text: str, name: str) -> object:
    try:
        import tomllib  # type: ignore[import-not-found,unused-ignore]
    except ImportError:  # Python < 3.11
        import tomli as tomllib  # type: ignore[import-not-found,no-redef,unused-ignore]
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise ConfigError(f"{name}: cannot read: {_bounded(str(e))}") from None
    except RecursionError:  # tomllib recurses once per level: `x = [[[...` some hundreds deep
        raise ConfigError(f"{name}: cannot read: arrays or tables nested too deeply to be settings") from None
    tool = data.get("tool", {})
    if not isinstance(tool, dict):
        raise ConfigError(f"{name}: tool: expected a table ([tool.memcheck]), got {type(tool).__name__} {_shown(tool)}")
    return tool.get("memcheck")


def pyproject_table(text: str, name: str) -> object:
    """A pyproject.toml's ``[tool.memcheck]`` table, None without one; ConfigError
    when the file is not TOML memcheck can read."""
    return _parse_pyproject(text, name)


def find_root(start: Path, fallback: Path | None = None) -> Path:
    """The repository's top folder (where ``.git`` is); outside a repository,
    ``fallback`` (the working folder) or else ``start`` itself."""
    found = repository_of(start)
    if found is not None:
        return found
    return fallback.resolve() if fallback is not None else start.resolve()


def repository_of(path: Path) -> Path | None:
    """The top folder of the repository holding ``path``, if any.

    Found from the path as written: a symlink in a repository that leads into
    another one (``notes -> ~/work/other/notes``) leaves the path in the first, whose
    settings apply, never the other's. Only a path in no repository as written is
    followed through its links (``~/link-to-repo/notes``)."""
    written = Path(os.path.abspath(path))
    found = None
    for folder in (*reversed(written.parents), written):
        if found is not None and folder.is_symlink():
            break  # below the repository found, a link leads elsewhere: the path is in that repository
        if (folder / ".git").exists():
            found = folder
    if found is not None:
        return found.resolve()
    path = path.resolve()
    for folder in (path, *path.parents):
        if (folder / ".git").exists():
            return folder
    return None


_ERRORS_SHOWN = 10  # a config of thousands of wrong values still gets a line one can read


def load(root: Path, config_file: Path | None = None) -> Config:
    """Defaults overlaid with the repository's settings, validated."""
    user: object = None
    source = "defaults"
    read: Path | None = None
    if config_file is not None:
        inside_only(config_file, root, str(config_file), "its settings")
        _refuse_special(config_file, f"config file {config_file}")
        if not config_file.is_file():
            what = "is not a file" if config_file.exists() else "does not exist"
            raise ConfigError(f"config file {config_file} {what}")
        user = _read_pyproject(config_file) if config_file.name == "pyproject.toml" else _read_yaml_config(config_file)
        source, read = str(config_file), config_file
    elif (root / CONFIG_FILENAME).is_file() or (root / CONFIG_FILENAME).exists():
        inside_only(root / CONFIG_FILENAME, root, CONFIG_FILENAME, "its settings")
        _refuse_special(root / CONFIG_FILENAME)
        if not (root / CONFIG_FILENAME).is_file():  # a folder: never silently the defaults
            raise ConfigError(f"{CONFIG_FILENAME} is not a file; memcheck reads its settings from a file of that name")
        user = _read_yaml_config(root / CONFIG_FILENAME)
        source, read = CONFIG_FILENAME, root / CONFIG_FILENAME
    else:
        for name in CONFIG_FILES:  # a link to nothing outside is refused too, not passed over
            inside_only(root / name, root, name, "its settings")
        _refuse_special(root / CONFIG_FILENAME)
        _refuse_special(root / "pyproject.toml")
        user = _read_pyproject(root / "pyproject.toml")
        if user is not None:
            source, read = "pyproject.toml [tool.memcheck]", root / "pyproject.toml"
    config = _validated(root, user, source)
    if read is not None:
        config = config._replace(settings_file=os.path.abspath(read))
    if config.baseline and (config_file is None or within(config_file, root) is not None):
        # The repository's own settings (which a pull request may change) name a
        # baseline in the repository, never a file elsewhere on the machine.
        if within(os.path.join(root, config.baseline), root) is None:
            raise ConfigError(
                f"{source}: baseline: must be a path inside the repository, relative to its top; memcheck reads a baseline only from inside the repository"
            )
    return config


def inside_only(path: Path, root: Path, shown: str, what: str) -> None:
    """Refuse ``path`` (``shown`` in messages), a name in the repository, when it
    leads out of it through a symlink (as guard refuses a link out of a commit):
    memcheck reads ``what`` only from inside the repository. The message names the
    link, never where it points, nor anything of what is there."""
    link = link_out(path, root)
    if link is None:
        return
    named = f"{shown} is" if link == Path(within(path, root) or "").as_posix() else f"{shown}: {link} is"
    raise ConfigError(f"{named} a symlink out of the repository; memcheck reads {what} only from inside the repository")


def _refuse_special(path: Path, shown: str | None = None) -> None:
    """A FIFO (or socket, device) where a config file goes is an error, never read
    (reading a FIFO waits for a writer forever) nor passed over for the defaults."""
    try:
        if stat.S_ISREG(os.stat(path).st_mode):
            return  # as config files are: told without importing text/
    except (OSError, ValueError):
        return  # nothing there
    from memcheck.text.document import special_file

    kind = special_file(path)
    if kind is not None:
        raise ConfigError(f"{shown or path.name} is {kind}, not a regular file; not read: replace it with a file")


def load_text(root: Path, name: str, text: str | None, shown_as: str) -> Config:
    """Settings from the text of one config file (``name``: ``.memcheck.yaml``,
    ``pyproject.toml`` or a file given with ``--config``), held somewhere other than
    the working tree, such as a commit; ``shown_as`` names it in messages
    (``HEAD:.memcheck.yaml``). No text, or a pyproject.toml without
    ``[tool.memcheck]``, gives the defaults."""
    if text is None:
        return default_config(root)
    if basename(name) == "pyproject.toml":
        user = _parse_pyproject(text, shown_as)
        return default_config(root) if user is None else _validated(root, user, f"{shown_as} [tool.memcheck]")
    return _validated(root, _parse_yaml_config(text, shown_as), shown_as)


def load_texts(root: Path, texts: Mapping[str, str | None], shown_as: Callable[[str], str]) -> Config:
    """Settings from the texts of ``CONFIG_FILES`` as a commit holds them (None:
    the commit has no such file), chosen in the order ``load`` chooses files."""
    for name in CONFIG_FILES:
        if texts.get(name) is not None:
            return load_text(root, name, texts[name], shown_as(name))
    return default_config(root)


def _validated(root: Path, user: object, source: str) -> Config:
    if user is None:
        user = {}
    errors = validate(user, schema())
    if errors:
        shown = errors[:_ERRORS_SHOWN] + ([f"and {len(errors) - _ERRORS_SHOWN} more"] if len(errors) > _ERRORS_SHOWN else [])
        raise ConfigError(f"{source}: " + "; ".join(shown))
    assert isinstance(user, dict)  # the schema's top level is an object, and validate found no error
    return from_mapping(root, cast("Settings", _merge(defaults(), user)), source)  # a valid config over the defaults


def from_mapping(root: Path, data: Settings, source: str = "defaults") -> Config:
    from memcheck.rules import unknown_selectors

    for key in ("select", "ignore"):
        bad = unknown_selectors(data[key])
        if bad:
            raise ConfigError(f"{source}: {key}: no rule code starts with {', '.join(map(_shown, bad))}")
    for pattern, codes in data["per-path-ignores"].items():
        bad = unknown_selectors(codes)
        if bad:
            raise ConfigError(f"{source}: per-path-ignores.{_excerpt(pattern)}: no rule code starts with {', '.join(map(_shown, bad))}")
    return Config(
        root=root,
        source=source,
        select=tuple(data["select"]),
        ignore=tuple(data["ignore"]),
        per_path_ignores=tuple((p, tuple(c)) for p, c in data["per-path-ignores"].items()),
        exclude=tuple(data["exclude"]),
        agents=tuple(dict.fromkeys(data["agents"])),
        memory=MemoryConfig(**_attrs(data["memory"])),
        index=IndexConfig(**_attrs(data["index"])),
        guidance=GuidanceConfig(**_attrs(data["guidance"])),
        skills=SkillsConfig(**_attrs(data["skills"])),
        context=ContextConfig(**_attrs(data["context"])),
        guard=_guard_config(data["guard"], source),
        fail_on=data["fail-on"],
        baseline=data["baseline"],
        cache_dir=_cache_dir(data["cache-dir"], source),
    )


def _cache_dir(value: str | None, source: str) -> str:
    """The settings' cache folder, which must be inside the repository: settings a
    change brings never make memcheck write elsewhere (MEMCHECK_CACHE_DIR is the
    caller's own, and may name any folder)."""
    if not value:
        return ""
    from memcheck.paths import normal

    inside = normal(value.replace("\\", "/"))
    if not inside or inside == ".git" or inside.startswith(".git/"):
        raise ConfigError(
            f"{source}: cache-dir: {_shown(value)} is not a folder inside the repository; name one relative to its top, or set MEMCHECK_CACHE_DIR"
        )
    return inside


def default_config(root: Path) -> Config:
    return from_mapping(root, defaults())


def selectors(values: Iterable[str], option: str) -> tuple[str, ...]:
    """Rule codes or prefixes given on the command line (``--select MEM,IDX001``,
    repeatable), checked against the catalogue."""
    from memcheck.rules import unknown_selectors

    found = tuple(dict.fromkeys(s.strip().upper() for v in values for s in v.split(",") if s.strip()))
    if values and not found:  # `--select ''` must not quietly select every rule
        raise ConfigError(f"{option} needs rule codes or prefixes (`memcheck rules` lists them)")
    bad = unknown_selectors(found)
    if bad:
        raise ConfigError(f"{option}: no rule code starts with {', '.join(map(repr, bad))}; `memcheck rules` lists them")
    return found


def with_options(
    config: Config,
    select: tuple[str, ...] = (),
    ignore: tuple[str, ...] = (),
    fail_on: str | None = None,
    baseline: str | None = None,
) -> Config:
    """The settings with the command line on top, as ruff layers them: ``--select``
    starts the selection afresh (the config's select and ignore no longer apply, so
    ``--select MEM010`` shows MEM010 even where the config ignores it), ``--ignore``
    then removes codes from whatever is selected."""
    if select:
        config = config._replace(select=select, ignore=ignore)
    elif ignore:
        config = config._replace(ignore=(*config.ignore, *ignore))
    if fail_on is not None:
        config = config._replace(fail_on=fail_on)
    if baseline is not None:
        config = config._replace(baseline=baseline)
    return config


def enabled_codes(config: Config) -> frozenset[str]:
    """The codes of every rule that config's select and ignore leave on (from the
    catalogue's data: no rule is imported)."""
    from memcheck.rules import codes

    return frozenset(selected(codes(), config))


def selected(codes: Iterable[str], config: Config) -> set[str]:
    """The codes that config's select/ignore leave on. As in ruff, the more specific
    selector wins (``select MEM012`` with ``ignore MEM01`` keeps MEM012 on); between
    equally specific ones, ignore. An opt-in rule (``rules.OPT_IN``) is on only where
    ``select`` names its code."""
    from memcheck.rules import OPT_IN

    def specificity(code: str, selectors: Iterable[str]) -> int:
        """How long the longest selector matching ``code`` is (ALL: 0); -1: none."""
        return max((0 if s == "ALL" else len(s) for s in selectors if s == "ALL" or code.startswith(s)), default=-1)

    on = set()
    for code in codes:
        if code in OPT_IN and code not in config.select:
            continue
        chosen = specificity(code, config.select) if config.select else 0
        if chosen >= 0 and chosen > specificity(code, config.ignore):
            on.add(code)
    return on
