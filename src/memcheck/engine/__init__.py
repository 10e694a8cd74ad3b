"""The engine that runs the rule families over targets: what a run covers (targets),
checking one part of it (part), sharing the parts out between processes (queue,
signals), and the findings to report (collect, finish)."""
