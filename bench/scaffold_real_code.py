#!/usr/bin/env python3
"""`migrate scaffold` on real TF1 trees: the acceptance criteria of issue 14, hook by hook.

    .venv/bin/python -m bench.scaffold_real_code                         # installed tensorflow_estimator
    .venv/bin/python -m bench.scaffold_real_code t2t=PATH cifar10=PATH --arguments args.json
    .venv/bin/python -m bench.scaffold_real_code PATH --quick           # print the table, write nothing

For every SessionRunHook subclass found in each tree (`NAME=PATH`, or a path):

1. the scaffold meets the static criteria (`migrate.report.scaffold.check.problems`):
   it parses, reads no undefined global outside a TODO statement, passes no
   argument to `keras.callbacks.Callback.__init__`, assigns nothing Keras owns;
2. its runnable part (methods without a TODO) imports, is constructed with
   the hook's constructor arguments — from `--arguments` (JSON:
   `{"HookClass": {"args": [...], "kwargs": {...}}}`, `"{tmp}"` in a string
   becomes a fresh directory; `{"skip": "why"}` when no such argument can exist
   in TF2), or none when the constructor needs none — and
   survives `fit`, `evaluate` and `predict` on a stock model.

Each tree's root is put on `sys.path` (its modules are the hooks' own
dependencies); a hook whose dependencies still do not import here (modules
missing from the copy, Horovod, …) is listed as such. Exits 1 when a static criterion fails or a
constructed callback breaks Keras.
"""
from __future__ import annotations

import argparse
import importlib.util
import inspect
import json
import os
import sys
import tempfile
from pathlib import Path

from bench.common import RESULTS, ROOT, load_average, machine, markdown_table, publish, timestamp

WORK = ROOT / "bench" / ".work" / "scaffolds"


def trees(specs: list[str]) -> dict[str, Path]:
    if not specs:
        spec = importlib.util.find_spec("tensorflow_estimator")
        if spec is None or spec.origin is None:
            raise SystemExit("scaffold_real_code: tensorflow_estimator is not installed; give TREE paths")
        return {"tensorflow_estimator": Path(spec.origin).parent}
    found = {}
    for spec in specs:
        name, _, path = spec.rpartition("=") if "=" in spec else (Path(spec).name, "", spec)
        if not Path(path).exists():
            raise SystemExit(f"scaffold_real_code: no such tree {path!r} (give NAME=PATH or PATH)")
        found[name] = Path(path)
    return found


def arguments_for(name: str, table: dict, scratch: Path) -> tuple[list, dict] | None:
    entry = table.get(name)
    if entry is None:
        return None

    def fill(value):
        if isinstance(value, str):
            return value.replace("{tmp}", str(scratch))
        if isinstance(value, list):
            return [fill(item) for item in value]
        if isinstance(value, dict):
            return {key: fill(item) for key, item in value.items()}
        return value

    return fill(entry.get("args", [])), fill(entry.get("kwargs", {}))


def needs_arguments(cls: type) -> bool:
    parameters = list(inspect.signature(cls.__init__).parameters.values())[1:]
    return any(p.default is p.empty and p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY) for p in parameters)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("trees", nargs="*", metavar="NAME=PATH")
    parser.add_argument("--arguments", type=Path, help="JSON: hook class → constructor args/kwargs")
    parser.add_argument("--quick", action="store_true", help="print the table only")
    parser.add_argument("--name", default="scaffold_real_code")
    options = parser.parse_args(argv)

    from migrate.report.scaffold import callback_name, emit_callbacks
    from migrate.report.scaffold.check import load_runnable, problems, runnable_part, survive
    from migrate.report.scanner import ScanOptions, scan

    table = json.loads(options.arguments.read_text()) if options.arguments else {}
    before = load_average()
    import keras
    import numpy as np

    model = keras.Sequential([keras.Input((4,)), keras.layers.Dense(3, activation="relu"), keras.layers.Dense(1)])
    model.compile(optimizer="sgd", loss="mse")
    x = np.linspace(0, 1, 32, dtype="float32").reshape(8, 4)
    y = x.sum(axis=1, keepdims=True)

    rows, records, failed = [], [], False
    for tree_name, tree in trees(options.trees).items():
        hooks = scan([str(tree)], ScanOptions(jobs=2)).hooks
        sys.path.insert(0, str(tree))  # the tree's own modules are the hooks' dependencies
        out = WORK / tree_name
        out.mkdir(parents=True, exist_ok=True)
        for old in out.glob("*.py"):
            old.unlink()
        written = emit_callbacks(hooks, out)
        by_class = {path.read_text().split("\nclass ", 1)[1].split("(", 1)[0]: path for path in written}
        for hook in hooks:
            path = by_class[callback_name(hook)]
            source = path.read_text()
            found = problems(source)
            _, kept = runnable_part(source)
            record = {
                "tree": tree_name, "hook": hook.full_name, "file": str(Path(hook.path).relative_to(tree)) if Path(hook.path).is_relative_to(tree) else hook.path,
                "phases": list(hook.phases), "problems": found, "todo_lines": source.count("# TODO(migrate):"),
                "methods_without_todo": kept, "constructed": None, "survived": None,
            }
            try:
                cls = load_runnable(path, callback_name(hook))
            except Exception as error:  # noqa: BLE001 - the hook's own dependencies
                record["constructed"] = f"dependencies do not import here: {type(error).__name__}: {error}"
            else:
                scratch = Path(tempfile.mkdtemp(prefix="scaffold-"))
                given = arguments_for(hook.name, table, scratch)
                if "__init__" not in kept and "\n    def __init__(" in source:
                    record["constructed"] = "not tried: the constructor has TODO lines"
                elif "skip" in table.get(hook.name, {}):
                    record["constructed"] = f"not tried: {table[hook.name]['skip']}"
                elif given is None and needs_arguments(cls):
                    record["constructed"] = "not tried: the constructor needs arguments (none given)"
                else:
                    args, kwargs = given or ([], {})
                    try:
                        callback = cls(*args, **kwargs)
                    except Exception as error:  # noqa: BLE001
                        record["constructed"] = f"failed: {type(error).__name__}: {error}"
                        failed = True
                    else:
                        record["constructed"] = "yes"
                        broke = survive({hook.name: callback}, model, x, y)
                        record["survived"] = "yes" if not broke else broke[hook.name]
                        failed = failed or bool(broke)
            failed = failed or bool(found)
            records.append(record)
            rows.append([
                tree_name, f"`{hook.qualname}`", record["file"], ", ".join(hook.phases) or "unknown",
                "none" if not found else "; ".join(found), record["todo_lines"], ", ".join(kept) or "—",
                record["constructed"], record["survived"] or "—",
            ])
    markdown = "\n".join([
        f"# `migrate scaffold` on real TF1 code ({timestamp()})",
        "",
        f"Command: `{' '.join(['.venv/bin/python -m bench.scaffold_real_code', *(argv if argv is not None else sys.argv[1:])])}`; "
        f"load average {before[0]:.2f} → {load_average()[0]:.2f}; Keras {keras.__version__}.",
        "",
        markdown_table(
            ["tree", "hook", "file", "phase", "static problems", "TODO lines", "methods without TODO", "constructed", "survived fit/evaluate/predict"],
            rows,
        ),
        "",
    ])
    payload = {"machine": machine(), "hooks": records, "failed": failed}
    publish(options.name, payload, markdown, RESULTS, options.quick)
    return 1 if failed else 0


if __name__ == "__main__":
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
    raise SystemExit(main())
