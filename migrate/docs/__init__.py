"""The reference pages of `docs/reference/`, generated from the single sources the code already has.

One module per page family, each a `pages() -> list[Page]`:

* `rule_pages`      — a page per `migrate report` rule (its doc and the fix registry's automatic/manual line);
* `callback_pages`  — the hook → callback table and a page per `modern/callbacks/` file (read with `ast`);
* `optimizer_pages` — the TF1 optimizer → exact Keras twin table (`modern/optimizers/`, read with `ast`);
* `pair_page`       — the pair contract (`migrate.parity.contract`);
* `cli_pages`       — every `migrate` command's `--help`, from its argparse parser;
* `readme_examples` — README.md's quoted outputs of the cheap commands, run again.

`python -m migrate.docs` writes them; `python -m migrate.docs --check` lists
the stale ones and exits 1 (tests/docs/test_generated_pages.py runs it).
Nothing here imports TensorFlow: what lives in `modern/` is read statically.
"""
