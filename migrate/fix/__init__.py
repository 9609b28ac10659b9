"""`migrate fix`: apply the mechanical, behaviour-preserving part of `migrate report`.

Layout, one purpose per module:

* `registry` + `rules/` — which rules `migrate fix` handles and what it will and
  will not do for every rule (standard library only: `migrate report` reads it
  to mark rules `[automatic]` without importing LibCST);
* `engine` — the LibCST rewrite of one module's text (format-preserving);
* `documents` — `.py` files and notebooks as text: encodings, line endings, cells;
* `apply` — the run over a tree: atomic rewrites, diffs, skipped files.
"""
