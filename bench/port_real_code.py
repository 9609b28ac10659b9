#!/usr/bin/env python3
"""`migrate port` on `model_fn`s from public TF1 repositories, each ported and checked (issue 23).

    .venv/bin/python -m bench.port_real_code            # writes results/port_real_code.{json,md}
    .venv/bin/python -m bench.port_real_code --quick    # nothing written
    .venv/bin/python -m bench.port_real_code NAME ...   # only these cases

The code is not committed: each case names a repository, a commit and a
file, read from a local git mirror (``$MIGRATE_PORT_MIRROR/<owner>+<name>/repo``,
default ``/work/.mirror``; make one with ``git clone --mirror
https://github.com/<owner>/<name> <mirror>/<owner>+<name>/repo``). The file is
taken as its author wrote it, with two mechanical changes recorded per case:
``import tensorflow as tf`` becomes ``import tensorflow.compat.v1 as tf``
(what ``migrate fix`` does for TF1 code on TF 2.15), and the module's
top-level statements other than imports of TensorFlow/NumPy/math, functions,
classes and constant assignments are blanked (data downloads, flags,
``main``) — line numbers are kept, so a refusal's file:line is the
repository's. A case may list further named text substitutions (a
``tf.contrib`` call and its TF 1.15 spelling), shown in the results.

Each case gets synthetic batches of its feature shapes (the model_fn's own
reshapes fix them) and the params its README or flags give, and `migrate port
target.py --out DIR --steps N` runs with its parity check. Verdicts:
bit-identical (forward and every loss equal), rounding-level (named by the
port), refused (the construct and its file:line), broken (the failing stage).
"""
from __future__ import annotations

import argparse
import ast
import os
import re
import subprocess
import sys
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

from bench.common import RESULTS, ROOT, load_average, machine, markdown_table, publish, timestamp

WORK = ROOT / "bench" / ".work" / "port"
MIRROR = Path(os.environ.get("MIGRATE_PORT_MIRROR", "/work/.mirror"))
KEPT_IMPORTS = ("tensorflow", "numpy", "math", "functools", "collections")


@dataclass(frozen=True)
class Case:
    name: str
    repo: str
    commit: str
    path: str
    function: str
    features: dict
    """Feature key → shape of one example (a single key ``""`` gives a bare tensor); float32."""
    classes: int = 10
    """Labels are int64 in [0, classes); 0 gives float32 regression labels of `label_shape`."""
    params: dict = field(default_factory=dict)
    substitutions: tuple = ()
    label_shape: tuple = ()
    batch_size: int = 8
    steps: int = 5
    params_code: str = ""
    """A Python expression (in the harness, `tf` is the case's) whose dict joins PARAMS: feature columns."""
    tf1_namespace: bool = True
    """False for code already written against TF 2's `tf` (it spells `tf.compat.v1` itself)."""


OFFICIAL_MNIST = ("jetsmith/Estimator_Test", "77c14aba4809c9d3bdd38799ebd3421e6dfc1501", "official/mnist/mnist.py")
"""A copy of tensorflow/models' official/mnist/mnist.py (r1.x): tf.keras layers inside a TF1 model_fn."""
SPEECH, SPEECH_COMMIT = "formigone/tensorflow-speech-recognition-challenge", "cfa652968facb312fb0c0b48aa996ce3f01f7157"
CASES = [
    Case("aymericdamien-nn", "aymericdamien/TensorFlow-Examples", "6dcbe14649163814e72a22a999f20c5e247ce988",
         "tensorflow_v1/examples/3_NeuralNetworks/neural_network.py", "model_fn", {"images": (784,)}),
    Case("aymericdamien-cnn", "aymericdamien/TensorFlow-Examples", "6dcbe14649163814e72a22a999f20c5e247ce988",
         "tensorflow_v1/examples/3_NeuralNetworks/convolutional_network.py", "model_fn", {"images": (784,)},
         substitutions=(("tf.contrib.layers.flatten(", "tf.layers.flatten("),)),
    Case("official-mnist", *OFFICIAL_MNIST, "model_fn", {"": (28, 28, 1)}, params={"data_format": "channels_last"},
         batch_size=8, steps=3),
    Case("official-mnist2", OFFICIAL_MNIST[0], OFFICIAL_MNIST[1], "mnist2.py", "model_fn", {"": (28, 28, 1)},
         params={"data_format": "channels_last", "learning_rate": 1e-4}, steps=3),
    Case("custom-estimator-iris", OFFICIAL_MNIST[0], OFFICIAL_MNIST[1], "samples/core/get_started/custom_estimator.py",
         "my_model", {key: () for key in ("SepalLength", "SepalWidth", "PetalLength", "PetalWidth")}, classes=3,
         params={"hidden_units": [10, 10], "n_classes": 3},
         params_code='{"feature_columns": [tf.feature_column.numeric_column(key) for key in '
                     '("SepalLength", "SepalWidth", "PetalLength", "PetalWidth")]}'),
    Case("finfra-keras-mnist", "Finfra/DeepLearningServing", "e49909ce6c4c265b6bc523dc26056236336f263f",
         "2.AITensorflowTraining/5.EstimatorBasedMultiWorkerTraining/mnist.py", "model_fn", {"": (28, 28, 1)},
         tf1_namespace=False),
    Case("speech-simple-cnn", SPEECH, SPEECH_COMMIT, "models/simple_cnn.py", "model_fn", {"x": (99 * 161,)}, classes=12,
         params={"output_classes": 12, "dropout_rate": 0.0, "learning_rate": 0.01}, batch_size=4, steps=3),
    Case("speech-deep-cnn2", SPEECH, SPEECH_COMMIT, "models/deep_cnn2.py", "model_fn", {"x": (99 * 161,)}, classes=12,
         params={"output_classes": 12, "dropout_rate": 0.0, "learning_rate": 0.01}, batch_size=2, steps=3),
    Case("speech-vgg", SPEECH, SPEECH_COMMIT, "models/vgg.py", "model_fn", {"x": (99 * 161,)}, classes=12,
         params={"output_classes": 12, "dropout_rate": 0.0, "learning_rate": 0.01}, batch_size=2, steps=3),
    Case("speech-incep10", SPEECH, SPEECH_COMMIT, "cloud_models/incep10_model.py", "model_fn", {"": (99 * 161,)},
         classes=12, params={"num_classes": 12, "dropout_rate": 0.0, "learning_rate": 0.01, "verbose_summary": False},
         batch_size=2, steps=3),
    Case("speech-stric-conv2", SPEECH, SPEECH_COMMIT, "cloud_models/stric_conv2_model.py", "model_fn", {"": (99 * 161,)},
         classes=12, params={"num_classes": 12, "dropout_rate": 0.0, "learning_rate": 0.01, "verbose_summary": False},
         batch_size=4, steps=3),
]


def mirror_of(repo: str) -> Path:
    return MIRROR / repo.replace("/", "+") / "repo"


def read_source(case: Case) -> str:
    git_dir = mirror_of(case.repo)
    if not git_dir.exists():
        raise FileNotFoundError(f"no mirror of {case.repo} at {git_dir}: git clone --mirror "
                                f"https://github.com/{case.repo} {git_dir}")
    return subprocess.run(["git", "--git-dir", str(git_dir), "show", f"{case.commit}:{case.path}"],
                          check=True, capture_output=True, text=True).stdout


def _kept(node: ast.stmt) -> bool:
    if isinstance(node, ast.Import):
        return all(alias.name.split(".")[0] in KEPT_IMPORTS for alias in node.names)
    if isinstance(node, ast.ImportFrom):
        return node.module == "__future__" or (node.module or "").split(".")[0] in KEPT_IMPORTS and \
            not (node.module or "").startswith(("tensorflow.examples", "tensorflow.contrib"))
    if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
        return True
    if isinstance(node, (ast.Assign, ast.AnnAssign)):
        return not any(isinstance(inner, ast.Call) for inner in ast.walk(node.value)) if node.value else True
    return False


def adapted(case: Case, source: str) -> tuple[str, list[str]]:
    """The source with TF1's namespace, its non-model top level blanked (lines kept) and the case's substitutions."""
    notes = []
    text = source
    if case.tf1_namespace:
        text = re.sub(r"^import tensorflow as tf\b", "import tensorflow.compat.v1 as tf", source, flags=re.M)
    if text != source:
        notes.append("import tensorflow as tf → import tensorflow.compat.v1 as tf")
    for old, new in case.substitutions:
        if old not in text:
            raise ValueError(f"{case.name}: substitution {old!r} not found")
        text = text.replace(old, new)
        notes.append(f"{old} → {new}")
    lines = text.splitlines()
    blanked = []
    for node in ast.parse(text).body:
        if not _kept(node):
            for index in range(node.lineno - 1, node.end_lineno):
                lines[index] = ""
            blanked.append(f"{node.lineno}")
    if blanked:
        notes.append(f"top-level statements blanked at lines {', '.join(blanked)}")
    return "\n".join(lines) + "\n", notes


def harness(case: Case) -> str:
    features = ", ".join(f"{key!r}: rng.random((64, *{tuple(shape)!r}), dtype=np.float32)"
                         for key, shape in case.features.items())
    features = features if "" not in case.features else f"rng.random((64, *{tuple(case.features[''])!r}), dtype=np.float32)"
    labels = (f"rng.integers(0, {case.classes}, (64, *{tuple(case.label_shape)!r}))" if case.classes
              else f"rng.random((64, *{tuple(case.label_shape)!r}), dtype=np.float32)")
    return f'''

# --- bench harness (bench/port_real_code.py), not from the repository ---
import numpy as np  # noqa: E402
import tensorflow as tf2  # noqa: E402

PARAMS = {{**{case.params!r}, **({case.params_code or "{}"})}}


def train_input_fn(params):
    rng = np.random.default_rng(0)
    features = {features if "" in case.features else "{" + features + "}"}
    return tf2.data.Dataset.from_tensor_slices((features, {labels})).repeat().batch({case.batch_size})

{"" if case.function == "model_fn" else f"model_fn = {case.function}"}
'''


def run_case(case: Case, quick_dir: Path) -> dict:
    started = time.monotonic()
    record = {"case": case.name, "repo": case.repo, "commit": case.commit, "path": case.path,
              "function": case.function, "steps": case.steps}
    try:
        source = read_source(case)
    except (FileNotFoundError, subprocess.CalledProcessError) as error:
        return {**record, "verdict": "not fetched", "detail": str(error)}
    directory = quick_dir / case.name
    directory.mkdir(parents=True, exist_ok=True)
    text, notes = adapted(case, source)
    target = directory / Path(case.path).name
    target.write_text(text + harness(case))
    out = directory / "port"
    env = {**os.environ, "PYTHONPATH": f"{ROOT}{os.pathsep}{directory}", "TF_ENABLE_ONEDNN_OPTS": "0",
           "TF_CPP_MIN_LOG_LEVEL": "2"}
    result = subprocess.run([sys.executable, "-m", "migrate", "port", str(target), "--out", str(out), "--force",
                             "--steps", str(case.steps)], capture_output=True, text=True, env=env, cwd=directory)
    record.update(adaptations=notes, exit_code=result.returncode, seconds=round(time.monotonic() - started, 1))
    where = f"{case.repo}/{case.path}"
    if result.returncode == 0:
        report = (out / "PORT.md").read_text()
        rounding = re.search(r"rounding level: weights map through the transforms ([\w, ]+)", report)
        forward = re.search(r"max \|Δ\| = ([0-9.e+-]+)", report)
        loss = re.search(r"max \|Δloss\| = ([0-9.e+-]+) over (\d+) steps", report)
        exact = forward and float(forward.group(1)) == 0.0 and loss and float(loss.group(1)) == 0.0
        record["verdict"] = "bit-identical" if exact else "rounding-level"
        record["detail"] = (f"forward max |Δ| {forward.group(1) if forward else '?'}, max |Δloss| "
                            f"{loss.group(1) if loss else '?'} over {loss.group(2) if loss else '?'} steps"
                            + (f"; transforms {rounding.group(1)}" if rounding else ""))
    elif result.returncode == 2:
        problems = [line.strip() for line in result.stderr.splitlines() if line.startswith("  ") and " — " in line]
        record["verdict"] = "refused"
        record["detail"] = "; ".join(problem.replace(f"{target.name}:", f"{where}:") for problem in problems[:3]) \
            or result.stderr.strip().splitlines()[-1]
    else:
        failing = [line.strip() for line in result.stdout.splitlines() if "[FAIL]" in line]
        record["verdict"] = "broken"
        record["detail"] = failing[0] if failing else (result.stderr.strip().splitlines() or ["?"])[-1]
    return record


def markdown(records: list[dict], context: dict) -> str:
    counts = {verdict: sum(1 for r in records if r["verdict"] == verdict)
              for verdict in ("bit-identical", "rounding-level", "refused", "broken", "not fetched")}
    rows = [(r["case"], f"[{r['repo']}](https://github.com/{r['repo']}) `{r['commit'][:7]}` `{r['path']}`",
             f"`{r['function']}`", f"**{r['verdict']}**", r.get("detail", "").replace("|", "\\|"),
             r.get("seconds", "")) for r in records]
    summary = ", ".join(f"{count} {verdict}" for verdict, count in counts.items() if count)
    return "\n".join([
        "# `migrate port` on public TF1 model_fns", "",
        f"Run {context['when']} (load {context['load']}): {summary} of {len(records)}.", "",
        markdown_table(["case", "source", "model_fn", "verdict", "detail", "s"], rows), "",
        "Adaptations per case are in port_real_code.json (TF1 namespace, blanked top level, named substitutions).",
    ])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("names", nargs="*", help="only these cases")
    parser.add_argument("--quick", action="store_true", help="print the table, write nothing")
    args = parser.parse_args(argv)
    cases = [case for case in CASES if not args.names or case.name in args.names]
    records = []
    for case in cases:
        print(f"[port_real_code] {case.name}: {case.repo}/{case.path}", file=sys.stderr, flush=True)
        records.append(run_case(case, WORK))
        print(f"  → {records[-1]['verdict']}: {records[-1].get('detail', '')}", file=sys.stderr, flush=True)
    context = {"when": timestamp(), "load": " ".join(f"{value:.1f}" for value in load_average())}
    payload = {"context": context, "machine": machine(), "cases": [asdict(case) for case in cases], "results": records}
    publish("port_real_code", payload, markdown(records, context), RESULTS, args.quick or bool(args.names))
    return 1 if any(record["verdict"] == "broken" and not record.get("detail") for record in records) else 0


if __name__ == "__main__":
    raise SystemExit(main())
