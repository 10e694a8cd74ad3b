"""The guard: which paths a change must not touch, and whether it touches them.

Not a rule family: it judges changes, not files. Its rules (GRD001-GRD005) are in
checks/guard/; ``memcheck guard`` (hooks/guard.py) and the Action ask ``engine`` to
judge what they were asked for.

- ``categories``: the guarded-path categories memcheck ships (``env``, ``keys``, …).
- ``paths``: ``Guard``, which names the pattern that guards a path, after the config's
  allowances and the categories' templates.
- ``tiers``: whose changes each category guards, and how an agent's change is recognised.
- ``policy``: what a config lets through, the strictest of several, what a change to
  one loosens.
- ``findings``: the GRD findings for changes, and the guarded paths of a tree; nothing
  there asks git.
- ``history``: which commits a change is (a range, a push, the tags it sends).
- ``trust``: which commits' settings judge it, and what a change to them loosens
  (GRD003, GRD005).
- ``gates``: what a change to memcheck's hooks (``.pre-commit-config.yaml``) or its
  workflow step weakens (GRD003).
- ``named``: paths named on the command line or in a list, as changes.
- ``engine``: the change a request names, judged.
"""
