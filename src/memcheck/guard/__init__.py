"""The guard: which paths a change must not touch, and whether it touches them (SPEC §6).

Not a rule family: it judges changes, not files. Its rules (GRD001-GRD003) are in
checks/guard.py; ``memcheck guard`` (hooks/guard.py) and the Action hand it ``Change``
values and the settings to judge them by, and nothing here asks git.

- ``categories``: the guarded-path categories memcheck ships (``env``, ``keys``, …).
- ``paths``: ``Guard``, which names the pattern that guards a path, after the config's
  allowances and the categories' templates.
- ``policy``: what a config lets through, the strictest of several, what a change to
  one loosens.
- ``findings``: the GRD findings for changes, and the guarded paths of a tree.
"""
