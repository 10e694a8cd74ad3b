"""The deterministic MEMORY.md index: read it, render it, sync it.

Everything here is a pure function of text, the store's documents and what exists
on disk, so the same store gives the same bytes on every machine, locale and
listing order.

What "listed" means is defined once, in ``survey``, and both ``memcheck check``
(IDX002, IDX003) and ``memcheck fix`` (``sync``) read an index through it, so the
two never disagree about which memories an index lists or which lines are dead.

The modules, each importing only those before it:

- ``memory``: what the engine knows of a store (``Memory``, ``Exists``, ``Ignored``);
- ``links``: an index's links and where each points;
- ``render``: the styles, written (``render``) and recognised (``detect_style``);
- ``naming``: which memories a line without links names;
- ``survey``: what an index lists, and what its dead links are;
- ``sync``: sync mode, the curator's index made to agree with the store;
- ``plan``: mode and style decided, and the index as it should be;
- ``caps``: how much of an index agents load;
- ``store``: all of it applied to a store of a ``Workspace``.

Callers import each name from the module that owns it; this package re-exports
nothing, so a caller loads only the modules it needs.
"""
