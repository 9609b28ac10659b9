"""`migrate report`: a TensorFlow-free static scan of a TF1 codebase.

Standard library only (`ast`, `tokenize`, `json`, process pools): it never
imports or runs the scanned code. Layout, one purpose per module:

* `sources` / `notebooks` — which files, and their text (bad input → skipped);
* `names` / `aliases` — canonical TensorFlow names through every import spelling;
* `analysis` — one file, one pass, checks dispatched on `type(node)`;
* `registry` + `rules/` — one module per rule, docs printed by `migrate explain`;
* `hierarchy` — the whole-codebase SessionRunHook class graph;
* `scanner` — parallel scan and the `Report`; `formats/` — text, json, markdown, sarif;
* `scaffold` — Keras callback skeletons for `--emit-callbacks`.

Importing the package imports nothing else, so building the `migrate`
command line (which configures every subcommand) stays cheap; the entry
point is `migrate.report.scanner.scan`.
"""
