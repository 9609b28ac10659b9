"""`docs/reference/pair.md`: the pair contract, from `migrate.parity.contract.CONTRACT`."""
from __future__ import annotations

from migrate.docs.pages import Page, page, table_cell
from migrate.parity.contract import CONTRACT, FUNCTION, need


def pages() -> list[Page]:
    def rows(kind: str) -> str:
        return "\n".join(
            f"| `{table_cell(entry.usage)}` | {need(entry)} | {table_cell(entry.meaning)} |"
            for entry in CONTRACT if (entry.kind == FUNCTION) == (kind == FUNCTION)
        )

    text = (
        "# The pair file\n\n"
        "A pair is one Python module naming both sides of a migration: the TF1 `model_fn` with its input, and the "
        "Keras rebuild with its dataset. `migrate parity --pair FILE` loads it by path; every function receives "
        "`params`, the dict built from `PARAMS`, the mode's defaults and the command line. A name listed "
        "\"with\" another is one half of a twin: define both or neither. The parity guide walks through "
        "[writing one](../guide/parity.md).\n\n"
        f"## Functions\n\n| name | need | what it is |\n|---|---|---|\n{rows(FUNCTION)}\n\n"
        f"## Values\n\n| name | need | what it is |\n|---|---|---|\n{rows('value')}"
    )
    return [page("pair.md", "migrate/parity/contract.py", text)]
