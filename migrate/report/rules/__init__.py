"""One module per rule: the directory listing is the rule list (see `migrate rules`).

Each module defines `RULE` (code, kebab-case name, fix kind, effort, the
`modern/` equivalent) whose doc is the module docstring — summary line, then
What it does / Why is this bad? / Example / Use instead / References — and
registers its checks with `migrate.report.registry.register`.
"""
