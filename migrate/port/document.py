"""PORT.md: what became what, what was kept as a raw op, what was refused and why, and the parity verdict."""
from __future__ import annotations

from collections.abc import Sequence

from migrate.port.records import Conversion, Port, Problem, Verdict

KIND_TITLES = {
    "layer": "Layers", "op": "TensorFlow ops kept as they are", "raw": "Raw op clusters (no twin; generated code, proven by parity)",
    "training": "Training configuration", "input": "Input",
}


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _table(rows: Sequence[Conversion]) -> list[str]:
    lines = ["| TF1 (file:line) | construct | Keras |", "|---|---|---|"]
    lines += [f"| `{_cell(row.where)}` | {_cell(row.construct)} | `{_cell(row.keras)}` |" for row in rows]
    return lines


def verdict_lines(verdict: Verdict | None) -> list[str]:
    if verdict is None or verdict.status == "not checked":
        return ["## Parity", "", "Not checked (`--no-check`): run `migrate parity --pair pair.py` in this directory's parent.", ""]
    return ["## Parity", "", f"**{verdict.status}** over {verdict.steps} steps (`migrate parity --pair pair.py`):", "",
            "```", verdict.summary.rstrip(), "```", ""]


def port_markdown(target: str, port: Port, verdict: Verdict | None) -> str:
    """The PORT.md of a written port."""
    lines = [f"# Port of `{target}`", "", f"Ported by `migrate port` ({port.porter}). Files: "
             + ", ".join(f"`{name}`" for name in port.files if name != "PORT.md") + ".", ""]
    for kind, title in KIND_TITLES.items():
        rows = [row for row in port.conversions if row.kind == kind]
        if rows:
            lines += [f"## {title}", "", *_table(rows), ""]
    if port.notes:
        lines += ["## Notes", "", *[f"- {note}" for note in port.notes], ""]
    return "\n".join(lines + verdict_lines(verdict))


def refused_markdown(target: str, problems: Sequence[Problem]) -> str:
    """The PORT.md of a refused port: the only file written, and it says so."""
    lines = [f"# Port of `{target}`: refused", "",
             "`migrate port` wrote no model: the target cannot be ported as it is. Every problem found:", ""]
    lines += [f"- `{problem.where or '<target>'}`: {problem.what}. What to do: {problem.todo}." for problem in problems]
    return "\n".join([*lines, ""])
