#!/usr/bin/env python3
"""`migrate report` and `migrate fix` on real TF1 training code nobody here wrote (issue 12).

    .venv/bin/python -m bench.unseen_code            # writes results/unseen_code.{json,md}
    .venv/bin/python -m bench.unseen_code --quick    # nothing written

The corpus is 21 training files (and the `__init__.py` of their packages)
from five TF1-era projects, taken from their PyPI wheels (`pip download
--no-deps`, pinned versions, cached in `bench/.work/unseen/wheels/`) and
extracted with their package paths, so imports between them resolve as in
the projects: BERT's fine-tuning and pre-training scripts, tensor2tensor's
trainer and its `contrib` wrapper module, the Object Detection API's
`model_main`/`model_lib`/legacy trainer, mesh-tensorflow's transformer
utilities and model executor, magenta's training scripts.

Then: `migrate report` (findings per rule and per file), and on a copy the
acceptance steps of `bench.fix_tree` (every file parses after the fix, no
TFM502/503 finding left that the fix did not list, a second fix changes
nothing, only intended lines in the diff). Precision and recall are judged by
hand on the listing the run prints with `--list` (bench/README.md has the
judgement). Exits 1 when a check fails.
"""
from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import zipfile
from collections import Counter
from pathlib import Path

from bench.common import RESULTS, ROOT, machine, markdown_table, publish, timestamp
from bench.fix_tree import check_tree, migrate

WORK = ROOT / "bench" / ".work" / "unseen"
WHEELS = {
    "bert-tensorflow==1.0.4": "bert_tensorflow-1.0.4-py2.py3-none-any.whl",
    "tensor2tensor==1.15.7": "tensor2tensor-1.15.7-py2.py3-none-any.whl",
    "object-detection==0.0.3": "object_detection-0.0.3-py3-none-any.whl",
    "mesh-tensorflow==0.1.21": "mesh_tensorflow-0.1.21-py3-none-any.whl",
    "magenta==1.1.7": "magenta-1.1.7-py2.py3-none-any.whl",
}
FILES = {
    "bert-tensorflow==1.0.4": ("bert/run_classifier.py", "bert/run_pretraining.py", "bert/run_squad.py",
                               "bert/optimization.py"),
    "tensor2tensor==1.15.7": ("tensor2tensor/utils/trainer_lib.py", "tensor2tensor/utils/contrib.py",
                              "tensor2tensor/utils/optimize.py", "tensor2tensor/utils/metrics_hook.py",
                              "tensor2tensor/utils/restore_hook.py", "tensor2tensor/utils/learning_rate.py",
                              "tensor2tensor/bin/t2t_trainer.py"),
    "object-detection==0.0.3": ("object_detection/model_main.py", "object_detection/model_lib.py",
                                "object_detection/legacy/train.py", "object_detection/eval_util.py",
                                "object_detection/inputs.py"),
    "mesh-tensorflow==0.1.21": ("mesh_tensorflow/transformer/utils.py", "mesh_tensorflow/experimental/model_executor.py"),
    "magenta==1.1.7": ("magenta/models/shared/events_rnn_train.py", "magenta/models/sketch_rnn/sketch_rnn_train.py",
                       "magenta/models/image_stylization/image_stylization_train.py"),
}


def fetch(spec: str) -> Path:
    """The pinned wheel, downloaded once with pip (no dependencies)."""
    wheel = WORK / "wheels" / WHEELS[spec]
    if not wheel.exists():
        wheel.parent.mkdir(parents=True, exist_ok=True)
        subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", "--quiet", "--dest", str(wheel.parent), spec],
                       check=True)
    return wheel


def extract(tree: Path) -> list[str]:
    """The corpus files and their packages' `__init__.py`, at their package paths under `tree`."""
    shutil.rmtree(tree, ignore_errors=True)
    files = []
    for spec, paths in FILES.items():
        with zipfile.ZipFile(fetch(spec)) as wheel:
            names = set(wheel.namelist())
            wanted = set(paths)
            for path in paths:
                parts = Path(path).parts
                wanted.update(f"{'/'.join(parts[:cut])}/__init__.py" for cut in range(1, len(parts)))
            for name in sorted(wanted & names):
                target = tree / name
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_bytes(wheel.read(name))
            files += sorted(paths)
    return files


def report(tree: Path) -> dict:
    completed = migrate("report", str(tree), "--format", "json", "--exit-zero")
    return json.loads(completed.stdout)


def listing(tree: Path, findings: list[dict]) -> str:
    """`file:line CODE | source line` per finding, for judging by hand."""
    lines, sources = [], {}
    for finding in findings:
        path = Path(finding["path"])
        source = sources.setdefault(path, path.read_text(encoding="utf-8", errors="replace").splitlines())
        lines.append(f"{path.relative_to(tree)}:{finding['line']} {finding['code']} | {source[finding['line'] - 1].strip()[:100]}")
    return "\n".join(lines)


def markdown(result: dict) -> str:
    by_rule = sorted(result["findings_by_rule"].items())
    by_file = sorted(result["findings_by_file"].items())
    fix = result["fix"]
    checks = [
        ("files scanned / skipped", f"{result['files_scanned']} / {result['skipped']}"),
        ("findings", result["findings"]),
        ("files rewritten by `migrate fix`", fix["rewritten_files"]),
        ("lines added or changed", fix["changed_lines"]),
        ("TFM502/503 findings after the fix", fix["remaining_findings"]),
        ("other findings unchanged by the fix", "yes" if result["others_unchanged"] else "NO"),
        ("every file parses after the fix", "yes" if not any("parse" in item for item in fix["failures"]) else "NO"),
        ("second fix changes nothing", "yes" if not any("second fix" in item for item in fix["failures"]) else "NO"),
        ("diff shows only intended lines", "yes" if not any("unintended" in item for item in fix["failures"]) else "NO"),
    ]
    text = (f"`migrate report` / `migrate fix` on {result['files_scanned']} real TF1 files ({timestamp()}; "
            "skipped: their packages' empty `__init__.py`):\n\n"
            + markdown_table(("check", "result"), checks)
            + "\n\nFindings per rule:\n\n" + markdown_table(("rule", "findings"), by_rule)
            + "\n\nFindings per file:\n\n" + markdown_table(("file", "findings"), by_file))
    if fix["failures"]:
        text += "\n\nFAILED:\n" + "\n".join(f"- {failure}" for failure in fix["failures"])
    return text + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="write nothing to bench/results/")
    parser.add_argument("--list", action="store_true", help="print every finding with its source line")
    args = parser.parse_args(argv)
    tree = WORK / "tree"
    corpus = extract(tree)
    before = report(tree)
    findings = before["findings"]
    if args.list:
        print(listing(tree, findings))
    fixed = WORK / "fixed"
    shutil.rmtree(fixed, ignore_errors=True)
    shutil.copytree(tree, fixed)
    fix = check_tree(fixed)
    fix.pop("diff")
    after = report(fixed)
    others = Counter(f["code"] for f in findings if f["code"] not in ("TFM502", "TFM503"))
    result = {
        "corpus": {spec: list(paths) for spec, paths in FILES.items()},
        "files_scanned": len(corpus),
        "skipped": len(before["skipped"]),
        "findings": len(findings),
        "findings_by_rule": dict(Counter(f["code"] for f in findings)),
        "findings_by_file": dict(Counter(str(Path(f["path"]).relative_to(tree)) for f in findings)),
        "others_unchanged": others == Counter(f["code"] for f in after["findings"] if f["code"] not in ("TFM502", "TFM503")),
        "fix": fix,
        "machine": machine(),
    }
    publish("unseen_code", result, markdown(result), RESULTS, args.quick)
    return 1 if fix["failures"] or not result["others_unchanged"] else 0


if __name__ == "__main__":
    raise SystemExit(main())
