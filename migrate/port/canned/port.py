"""`port_canned`: port the canned estimator behind a pair file's `model_fn` to Keras, and prove it.

Steps: import the source file (only its TF1 half: `model_fn`,
`train_input_fn`, `eval_input_fn`, `PARAMS`, `LEARNING_RATES`); trace the
`model_fn` (once per optimizer choice the pair offers) to read the canned
estimator; write ``keras_model.py`` and ``pair.py``; build the Keras model
once to check every canned variable has its Keras weight of the same shape;
run ``migrate parity`` on the written pair (unless ``check=False``); write
``PORT.md`` with what became what and the verdict. Exit codes: 0 parity
holds (or not checked), 1 parity broken, 2 refused (PORT.md says why; no
keras_model.py or pair.py is left behind).
"""
from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType

from migrate.port.canned.files import canned_files
from migrate.port.canned.record import CannedEstimator, CannedRefusal

WRITTEN = ("keras_model.py", "pair.py")


@dataclass
class CannedPort:
    """What a canned port wrote and found: the estimator, the files, the column table, the verdict."""

    record: CannedEstimator | None
    out: Path
    exit_code: int
    refusals: list[str] = field(default_factory=list)
    column_rows: list[tuple[str, str]] = field(default_factory=list)
    variable_map: dict[str, str] = field(default_factory=dict)
    verdict: str = "not checked (--no-check)"


def load_source(path: Path) -> ModuleType:
    """Import the source file by path (its folder on sys.path, as pair files are loaded)."""
    spec = importlib.util.spec_from_file_location(f"migrate_canned_source_{abs(hash(str(path))) & 0xFFFF:x}", path)
    if spec is None or spec.loader is None:
        raise CannedRefusal([f"{path} cannot be imported as a Python module"])
    module = importlib.util.module_from_spec(spec)
    if str(path.parent) not in sys.path:
        sys.path.insert(0, str(path.parent))
    spec.loader.exec_module(module)
    return module


def port_canned(source: Path, out: Path, *, check: bool = True, force: bool = False) -> CannedPort | None:
    """Port the canned estimator in `source` into `out`; None when its model_fn builds no canned estimator."""
    source = source.resolve()
    module = load_source(source)
    params = dict(getattr(module, "PARAMS", None) or {})
    if out.exists() and any(out.iterdir()) and not force:
        raise FileExistsError(f"{out} exists and is not empty; pass --force to overwrite it.")
    try:
        files = canned_files(module.model_fn, module.train_input_fn, params, getattr(module, "LEARNING_RATES", None),
                             source, vars(module))
    except CannedRefusal as refusal:
        for name in WRITTEN:
            (out / name).unlink(missing_ok=True)
        port = CannedPort(None, out, 2, refusals=refusal.reasons)
        _write_port_md(port, source)
        return port
    if files is None:
        return None
    out.mkdir(parents=True, exist_ok=True)
    (out / "keras_model.py").write_text(files.keras_model)
    (out / "pair.py").write_text(files.pair)
    port = CannedPort(files.record, out, 0, column_rows=files.column_rows, variable_map=files.variable_map)
    if check:
        port.exit_code, port.verdict = run_parity(out / "pair.py")
    _write_port_md(port, source)
    return port


def run_parity(pair: Path) -> tuple[int, str]:
    """``migrate parity --pair PAIR`` in a child process: its exit code and the last lines it printed."""
    command = [sys.executable, "-m", "migrate", "parity", "--pair", str(pair), "--out", str(pair.parent / "parity")]
    result = subprocess.run(command, capture_output=True, text=True, env=os.environ.copy())
    lines = [line for line in (result.stdout + result.stderr).splitlines() if line.strip()]
    verdict = "\n".join(lines[-12:])
    code = result.returncode if result.returncode in (0, 1) else 2
    return code, f"`{' '.join(command[1:])}` exited {result.returncode}:\n\n```\n{verdict}\n```"


def _write_port_md(port: CannedPort, source: Path) -> None:
    port.out.mkdir(parents=True, exist_ok=True)
    lines = ["# Port of a canned estimator", "", f"Source: `{source}`", ""]
    if port.record is None or port.refusals:
        lines += ["**Refused** — no Keras model was written:", "", *[f"- {reason}" for reason in port.refusals], ""]
        (port.out / "PORT.md").write_text("\n".join(lines))
        return
    record = port.record
    lines += [
        f"Estimator: `{record.module}.{record.class_name}` ({record.api}), built at `{record.created_at}`.",
        "",
        f"Head: {record.head.code()} — loss reduction `{record.head.loss_reduction}`.",
        "",
        "| TF1 feature column | Keras twin (modern.feature_columns) |",
        "|---|---|",
        *[f"| `{column}` | {twin} |" for column, twin in port.column_rows],
        "",
        "| TF1 optimizer | part | arguments |",
        "|---|---|---|",
        *[f"| `{use.tf1_class}` | {use.part} | `{use.arguments}` |" for use in record.optimizers],
        "",
        "| canned variable | Keras weight |",
        "|---|---|",
        *[f"| `{tf1}` | `{keras}` |" for tf1, keras in port.variable_map.items()],
        "",
    ]
    if record.dropout:
        lines += [f"Dropout {record.dropout}: Keras draws other random masks than TF1; training parity with dropout "
                  "is statistical, not step by step.", ""]
    lines += ["## Parity", "", port.verdict, ""]
    (port.out / "PORT.md").write_text("\n".join(lines))
