#!/usr/bin/env python3
"""`migrate port` on `model_fn`s from public TF1 repositories, each ported and checked (issue 23).

    .venv/bin/python -m bench.port_real_code            # writes results/port_real_code.{json,md}
    .venv/bin/python -m bench.port_real_code --quick    # nothing written
    .venv/bin/python -m bench.port_real_code NAME ...   # only these cases: their rows replaced, the others kept

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
repository's. A case may list further named text substitutions (a private
TF 1.x module path and its public spelling, a hard-coded dropout rate set to
0 for the exact check, a Python 2 print in the script's `main`), shown in the
results; `tf.contrib` calls need none: `migrate port` runs them as their
TF1-core twins.

Each case gets synthetic batches of its feature shapes (the model_fn's own
reshapes fix them) and the params its README or flags give, and `migrate port
target.py --out DIR --steps N` runs with its parity check. Verdicts:
bit-identical (forward and every loss equal), rounding-level (named by the
port), refused (the construct and its file:line), broken (the failing stage).
"""
from __future__ import annotations

import argparse
import ast
import json
import os
import re
import subprocess
import sys
import time
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path

from bench.common import RESULTS, ROOT, load_average, machine, markdown_table, publish, timestamp

WORK = ROOT / "bench" / ".work" / "port"
MIRROR = Path(os.environ.get("MIGRATE_PORT_MIRROR", "/work/.mirror"))
KEPT_IMPORTS = ("tensorflow", "tensorflow_estimator", "numpy", *sorted(sys.stdlib_module_names))
"""Top-level imports kept: TensorFlow (and its estimator), NumPy and the standard library (a module constant may read
`os.sep`)."""


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
    label_dtype: str = ""
    """The labels' dtype when not the default (int64 classes, float32 regression): float64 where the repository's
    data is (pandas columns), float32 0/1 classes for sigmoid losses."""
    label_keys: tuple = ()
    """Labels as a dict of these keys (multi-head models), each drawn as a single label would be."""
    harness_imports: str = ""
    """Imports the file leaves to whoever pastes it (a snippet without an import block), added by the harness."""
    batch_size: int = 8
    steps: int = 5
    params_code: str = ""
    """A Python expression (in the harness, `tf` is the case's) whose dict joins PARAMS: feature columns."""
    tf1_namespace: bool = True
    """False for code already written against TF 2's `tf` (it spells `tf.compat.v1` itself)."""
    id_features: dict = field(default_factory=dict)
    """Feature key → (shape of one example, vocabulary size): int64 token ids in [0, size) (text models); a single
    key ``""`` gives a bare tensor of ids."""
    helpers: tuple = ()
    """Other files of the repository the model_fn's module imports (written beside it, adapted the same way)."""
    string_features: dict = field(default_factory=dict)
    """Feature key → (shape of one example, the strings drawn from): text the model_fn looks up itself."""
    label_strings: tuple = ()
    """String labels drawn from these (a model_fn that maps its labels through a lookup table)."""
    binding: str = ""
    """How the harness gets the model_fn when a factory makes it (``model_fn = make_model_fn(…)``, the repository's
    call with smaller sizes)."""
    broken_because: str = ""
    """What a measurement outside the run showed about a broken verdict (added to its detail when it is broken)."""


OFFICIAL_MNIST = ("jetsmith/Estimator_Test", "77c14aba4809c9d3bdd38799ebd3421e6dfc1501", "official/mnist/mnist.py")
"""A copy of tensorflow/models' official/mnist/mnist.py (r1.x): tf.keras layers inside a TF1 model_fn."""
ADO = ("HeXiaoYi1/ado-tensorflow-models", "fbe2a40df4cd6892d46a0f178e438d4920c0ef4b")
NLP_ESTIMATORS_KERAS_PATHS = (("from tensorflow.python.keras.datasets import", "from tensorflow.keras.datasets import"),
                              ("from tensorflow.python.keras.preprocessing import",
                               "from tensorflow.keras.preprocessing import"))
"""TF 1.x's private Keras paths → their public TF 2 spelling (the notebook's data loading imports them)."""
WORKSHOP = ("random-forests/tensorflow-workshop", "83f5b6024f026c10c62aba1399f9444d6435e85c")
"""The workshop's archived extras (TF 1.3-era code using tf.contrib), at the commit that archived them."""
CATDOG_PY2_PRINTS = (
    ("print 'Usage: python main.py [train|predict] [predict file]'",
     "print('Usage: python main.py [train|predict] [predict file]')"),
    ("print 'Usage: python main.py predict [predict file]'", "print('Usage: python main.py predict [predict file]')"),
    ("print 'Probability of cat: %.5f\\tProbability of dog: %.5f' % (", "print('Probability of cat: %.5f\\tProbability of dog: %.5f' % ("),
    ("pred_dict['probability'][1], pred_dict['probability'][0])", "pred_dict['probability'][1], pred_dict['probability'][0]))"),
    ("print 'Prediction %s' % ('CAT' if pred_dict['prediction'] == 1 else 'DOG')",
     "print('Prediction %s' % ('CAT' if pred_dict['prediction'] == 1 else 'DOG'))"),
)
"""The script's Python 2 print statements (in `main`, not the model) as Python 3 calls, so the module parses."""
CENSUS_STRINGS = {
    "gender": (" Female", " Male"), "race": (" White", " Black", " Asian-Pac-Islander", " Other"),
    "education": (" Bachelors", " HS-grad", " Masters", " Doctorate"),
    "marital_status": (" Married-civ-spouse", " Divorced", " Never-married"),
    "relationship": (" Husband", " Wife", " Own-child", " Unmarried"), "workclass": (" Private", " State-gov", " ?"),
    "occupation": (" Sales", " Tech-support", " Exec-managerial", " Craft-repair"),
    "native_country": (" United-States", " Mexico", " India"),
}
"""The census CSV's string columns, a few of their values each (the model's vocabulary lists and hash buckets)."""
ESTIMATOR_MODULE_PATHS = (("from tensorflow.python.estimator", "from tensorflow_estimator.python.estimator"),)
"""TF 1.x's private estimator module → where TF 2.15 keeps it (tensorflow_estimator, the same code)."""
SPEECH, SPEECH_COMMIT = "formigone/tensorflow-speech-recognition-challenge", "cfa652968facb312fb0c0b48aa996ce3f01f7157"
CASES = [
    Case("aymericdamien-nn", "aymericdamien/TensorFlow-Examples", "6dcbe14649163814e72a22a999f20c5e247ce988",
         "tensorflow_v1/examples/3_NeuralNetworks/neural_network.py", "model_fn", {"images": (784,)}),
    Case("aymericdamien-cnn", "aymericdamien/TensorFlow-Examples", "6dcbe14649163814e72a22a999f20c5e247ce988",
         "tensorflow_v1/examples/3_NeuralNetworks/convolutional_network.py", "model_fn", {"images": (784,)}),
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
    Case("cookbook-regression", OFFICIAL_MNIST[0], OFFICIAL_MNIST[1], "samples/cookbook/regression/custom_regression.py",
         "my_dnn_regression_fn", {"curb-weight": (), "highway-mpg": ()}, classes=0, label_dtype="float64",
         params={"learning_rate": 0.001, "hidden_units": [20, 20]},
         params_code='{"feature_columns": [tf.feature_column.numeric_column(key) for key in ("curb-weight", "highway-mpg")]}'),
    Case("blog-iris-layer-objects", OFFICIAL_MNIST[0], OFFICIAL_MNIST[1], "samples/outreach/blogs/blog_custom_estimators.py",
         "my_model_fn", {key: () for key in ("SepalLength", "SepalWidth", "PetalLength", "PetalWidth")}, classes=3),
    Case("workshop-sentiment-lstm", "random-forests/tensorflow-workshop", "e4ff2ca66b4e2387bba8a661696ada8b3e401abc",
         "extras/sentiment_analysis/model_fn_lib.py", "model_fn", {}, classes=2,
         params={"rnn_cell_sizes": [16], "dropout_keep_probabilities": [], "dnn_layer_sizes": [], "label_dimension": 2,
                 "optimizer": "Adam", "learning_rate": 0.001, "use_hidden_states": "last"},
         params_code='{"word_vector": np.random.default_rng(0).random((50, 8), dtype=np.float32)}',
         id_features={"x": ((20,), 50), "sequence_length": ((), 20)}, batch_size=4, steps=3),
    Case("rnn-playground-lstm", "amikholap/rnn-playground", "afa45acf2ee75561254738ec02290101a9f240bb",
         "rnntf/estimators/lstm.py", "model_fn", {}, classes=7, label_shape=(10,),
         params={"hidden_units": 16, "output_units": 7, "learning_rate": 0.01},
         params_code='{"feature_columns": []}', id_features={"x": ((10,), 7)}, batch_size=4, steps=3),
    Case("nlp-estimators-cnn", "eisenjulian/nlp_estimator_tutorial", "5bfec8ceed4f47098709f59335c41da756d97a9c",
         "nlp_estimators.py", "cnn_model_fn", {}, classes=2, params={"embedding_initializer": None},
         id_features={"x": ((20,), 50)}, batch_size=4, steps=3,
         substitutions=(*NLP_ESTIMATORS_KERAS_PATHS, ("rate=0.2,", "rate=0.0,"))),
    Case("nlp-estimators-lstm", "eisenjulian/nlp_estimator_tutorial", "5bfec8ceed4f47098709f59335c41da756d97a9c",
         "nlp_estimators.py", "lstm_model_fn", {}, classes=2, id_features={"x": ((20,), 50), "len": ((), 20)},
         batch_size=4, steps=3, substitutions=NLP_ESTIMATORS_KERAS_PATHS,
         broken_because="the loss and the other weights are within 1 ulp after step 1, the LSTM kernels 142 and 190 "
                        "ulp (relative 1.0e-5 and 1.3e-5, over the 1e-5 allowed): Adam's first update g/(|g|+ε) "
                        "magnifies the LSTM transform's rounding where a gradient is near 0 — the same port trained "
                        "with tf.train.GradientDescentOptimizer(0.5) instead (a scratch copy) holds, every weight "
                        "within 1 ulp"),
    Case("ado-textcnn", ADO[0], ADO[1], "01_TextCNN/TextCNN.py", "model_fn", {}, classes=3,
         params={"vocab_size": 50, "embedding_size": 8, "kernels": [2, 3], "filters": 4, "sequence_max_length": 10,
                 "dropout": 0.5, "num_class": 3, "learning_rate": 0.01, "use_highway": False},
         id_features={"": ((10,), 50)}, batch_size=4, steps=3),
    Case("ado-textcnn-highway", ADO[0], ADO[1], "01_TextCNN/TextCNN.py", "model_fn", {}, classes=3,
         params={"vocab_size": 50, "embedding_size": 8, "kernels": [2, 3], "filters": 4, "sequence_max_length": 10,
                 "dropout": 0.5, "num_class": 3, "learning_rate": 0.01, "use_highway": True},
         id_features={"": ((10,), 50)}, batch_size=4, steps=3, helpers=("01_TextCNN/Highway_networks.py",)),
    Case("ado-textrnn-bilstm", ADO[0], ADO[1], "02_TextRNN/model_fn.py", "model_fn", {}, classes=3,
         params={"hidden_size": 8, "drop_out": None, "vocab_size": 50, "embedding_size": 8, "num_class": 3,
                 "learning_rate": 0.01}, id_features={"": ((10,), 50)}, batch_size=4, steps=3,
         helpers=("02_TextRNN/TextRNN.py",)),
    Case("charlm-gru", "amirharati/sample_estimator_charlm", "05b943ba1bc342a1b90a6024fb4139dbfcb17c7c", "RnnLm.py",
         "RnnLm._model", {}, classes=2,
         params={"model_size": 8, "embedding_size": 6, "num_layers": 2, "keep_prob": 1.0, "vocab_size": 20},
         id_features={"seq": ((12,), 20), "length": ((), 13)}, batch_size=4, steps=3),
    Case("workshop-catdog-cnn", *WORKSHOP, "archive/extras/cat_dog_estimator/main.py", "model_fn", {"": (32, 32, 3)},
         classes=2, batch_size=8, steps=3, substitutions=CATDOG_PY2_PRINTS),
    Case("workshop-colorbot-lstm", *WORKSHOP, "archive/extras/colorbot/colorbot.py", "get_model_fn", {}, classes=0,
         label_shape=(3,), string_features={"color_name": ((8,), tuple("abcdefgh "))},
         id_features={"sequence_length": ((), 9)}, batch_size=4, steps=3, substitutions=ESTIMATOR_MODULE_PATHS,
         binding='model_fn = get_model_fn(rnn_cell_sizes=[16, 8], label_dimension=3, dnn_layer_sizes=[8], '
                 'optimizer="Adam", learning_rate=0.01)'),
    Case("census-custom-estimator", "GoogleCloudPlatform/cloudml-samples", "3d36c8808945e8e1cacc58afed11f9aa3eb26c42",
         "census/customestimator/trainer/model.py", "generate_model_fn",
         {key: (1,) for key in ("age", "education_num", "capital_gain", "capital_loss", "hours_per_week")}, classes=2,
         string_features={key: ((1,), values) for key, values in CENSUS_STRINGS.items()}, label_shape=(1,),
         label_strings=(" <=50K", " >50K"),
         batch_size=8, steps=3, substitutions=ESTIMATOR_MODULE_PATHS,
         binding="model_fn = generate_model_fn(embedding_size=4, hidden_units=[8, 4], learning_rate=0.1)"),
    Case("esmm-multi-head", "woshiamei/e-commerce-rank", "156cd8c0dffc9196f9144c16d35cc06714f1e86f", "train/esmm.py",
         "my_model", {key: () for key in ("price", "age")}, classes=2, label_shape=(1,), label_dtype="float32",
         label_keys=("ctr", "cvr"), params={"hidden_units": [8, 4], "learning_rate": 0.05},
         params_code='{"feature_columns": [fc.numeric_column(key) for key in ("price", "age")]}',
         harness_imports="import tensorflow.compat.v1 as tf  # noqa: E402\n"
                         "from tensorflow.compat.v1 import feature_column as fc  # noqa: E402\n"),
]


def mirror_of(repo: str) -> Path:
    """The git directory of `repo`'s mirror: a bare clone (``…/repo``) or a work tree's ``…/repo/.git``."""
    root = MIRROR / repo.replace("/", "+") / "repo"
    return root / ".git" if (root / ".git").is_dir() else root


def read_source(case: Case) -> str:
    git_dir = mirror_of(case.repo)
    if not git_dir.exists():
        raise FileNotFoundError(f"no mirror of {case.repo} at {git_dir}: git clone --mirror "
                                f"https://github.com/{case.repo} {git_dir}")
    return subprocess.run(["git", "--git-dir", str(git_dir), "show", f"{case.commit}:{case.path}"],
                          check=True, capture_output=True, text=True).stdout


PURE_BUILTINS = frozenset({"chr", "ord", "range", "len", "list", "tuple", "set", "frozenset", "dict", "str", "int",
                           "float", "sorted", "zip", "enumerate", "min", "max", "sum"})
"""Builtins a module constant may be computed with (``CHARACTERS = [chr(i) for i in range(256)]``)."""


def _constant(value: ast.expr | None, bound: set[str]) -> bool:
    """Whether `value` is computed from literals, constants bound before (`bound`) and the calls a model-building
    module constant makes: TensorFlow's (``head = tf.contrib.estimator.…_head()``, feature columns) and pure
    builtins — so kept, where a call into the script (flags, data loading) is blanked."""
    if value is None:
        return True
    local = {name.id for node in ast.walk(value) if isinstance(node, ast.comprehension)
             for name in ast.walk(node.target) if isinstance(name, ast.Name)}
    for node in ast.walk(value):
        if isinstance(node, ast.Call) and not (
                isinstance(node.func, ast.Name) and node.func.id in PURE_BUILTINS
                or isinstance(node.func, ast.Attribute) and ast.unparse(node.func).startswith("tf.")
                and not ast.unparse(node.func).startswith("tf.estimator.")):  # an Estimator is the script's
            return False
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) and \
                node.id not in {"tf", *PURE_BUILTINS, *local, *bound}:
            return False
    return True


def _assigned_names(node: ast.stmt) -> list[ast.expr]:
    targets = node.targets if isinstance(node, ast.Assign) else [node.target]  # type: ignore[attr-defined]
    return [name for target in targets for name in (target.elts if isinstance(target, ast.Tuple) else [target])]


def _kept_import(node: ast.Import | ast.ImportFrom, local: frozenset) -> bool:
    if isinstance(node, ast.Import):
        return all(alias.name.split(".")[0] in (*KEPT_IMPORTS, *local) for alias in node.names)
    return node.module == "__future__" or (node.module or "").split(".")[0] in (*KEPT_IMPORTS, *local) and \
        not (node.module or "").startswith("tensorflow.examples")


def kept_statements(body: list[ast.stmt], local: frozenset = frozenset()) -> list[ast.stmt]:
    """The top-level statements that are the model's rather than the script's (in order); `local`: helper modules.

    Imports of TensorFlow, NumPy, the standard library and the helpers, functions and classes, and module
    constants (`_constant`) are the model's."""
    kept, bound = [], set()
    for node in body:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            keep = _kept_import(node, local)
            bound.update((alias.asname or alias.name).split(".")[0] for alias in node.names if keep)
        elif isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            keep = True
            bound.add(node.name)
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            names = _assigned_names(node)
            keep = all(isinstance(name, ast.Name) for name in names) and _constant(node.value, bound)
            bound.update(name.id for name in names if keep and isinstance(name, ast.Name))
        else:
            keep = False
        if keep:
            kept.append(node)
    return kept


def _imports_used(kept: list[ast.stmt]) -> set[int]:
    """Line numbers of the top-level imports the kept code reads (an import only data-loading code reads is blanked
    with it; one the model reads stays, so a `tf.contrib` import the model needs fails as it would for the user)."""
    kept_code = [node for node in kept if not isinstance(node, (ast.Import, ast.ImportFrom))]
    used = {name.id for node in kept_code for name in ast.walk(node) if isinstance(name, ast.Name)}
    lines = set()
    for node in kept:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            bound = {(alias.asname or alias.name).split(".")[0] for alias in node.names}
            if getattr(node, "module", None) == "__future__" or bound & used:
                lines.add(node.lineno)
    return lines


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
    body = ast.parse(text).body
    kept = kept_statements(body, frozenset(Path(helper).stem for helper in case.helpers))
    imports = _imports_used(kept)
    for node in body:
        if node not in kept or isinstance(node, (ast.Import, ast.ImportFrom)) and node.lineno not in imports:
            for index in range(node.lineno - 1, node.end_lineno):
                lines[index] = ""
            blanked.append(f"{node.lineno}")
    if blanked:
        notes.append(f"top-level statements blanked at lines {', '.join(blanked)}")
    return "\n".join(lines) + "\n", notes


def _model_fn_binding(function: str) -> str:
    """``model_fn = …`` for the case's function: a module function, or ``Class.method`` bound to an instance made
    without running ``__init__`` (the method reads only its arguments)."""
    if function == "model_fn":
        return ""
    if "." in function:
        owner, method = function.split(".")
        return f"model_fn = {owner}.__new__({owner}).{method}"
    return f"model_fn = {function}"


def harness(case: Case, source: str) -> str:
    if "" in case.id_features:
        shape, size = case.id_features[""]
        features = f"rng.integers(0, {size}, (64, *{tuple(shape)!r}))"
    elif "" in case.features:
        features = f"rng.random((64, *{tuple(case.features[''])!r}), dtype=np.float32)"
    else:
        entries = [f"{key!r}: rng.random((64, *{tuple(shape)!r}), dtype=np.float32)" for key, shape in case.features.items()]
        entries += [f"{key!r}: rng.integers(0, {size}, (64, *{tuple(shape)!r}))"
                    for key, (shape, size) in case.id_features.items()]
        entries += [f"{key!r}: rng.choice(np.array({list(strings)!r}), (64, *{tuple(shape)!r}))"
                    for key, (shape, strings) in case.string_features.items()]
        features = "{" + ", ".join(entries) + "}"
    labels = (f"rng.integers(0, {case.classes}, (64, *{tuple(case.label_shape)!r}))" if case.classes
              else f"rng.random((64, *{tuple(case.label_shape)!r}))")
    labels += f".astype(np.{case.label_dtype or ('int64' if case.classes else 'float32')})"
    if case.label_strings:
        labels = f"np.array({list(case.label_strings)!r})[{labels}]"
    if case.label_keys:
        labels = "{" + ", ".join(f"{key!r}: {labels}" for key in case.label_keys) + "}"
    return f'''

# --- bench harness (bench/port_real_code.py), not from the repository ---
import numpy as np  # noqa: E402
import tensorflow as tf2  # noqa: E402
{case.harness_imports}
PARAMS = {{**{case.params!r}, **({case.params_code or "{}"})}}


def train_input_fn(params):
    rng = np.random.default_rng(0)
    features = {features}
    return tf2.data.Dataset.from_tensor_slices((features, {labels})).repeat().batch({case.batch_size})

{case.binding or _model_fn_binding(case.function)}
''' + (EVAL_INPUT if "def eval_input_fn(" in source else "")


EVAL_INPUT = '''

def eval_input_fn(params):  # the repository's reads its data files (blanked): synthetic batches as for training
    return train_input_fn(params).take(4)
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
    target.write_text(text + harness(case, text))
    for helper in case.helpers:
        helper_text, helper_notes = adapted(replace(case, substitutions=()), read_source(replace(case, path=helper)))
        (directory / Path(helper).name).write_text(helper_text)
        notes += [f"{Path(helper).name}: {note}" for note in helper_notes]
    out = directory / "port"
    env = {**os.environ, "PYTHONPATH": f"{ROOT}{os.pathsep}{directory}", "TF_ENABLE_ONEDNN_OPTS": "0",
           "TF_CPP_MIN_LOG_LEVEL": "2"}
    result = subprocess.run([sys.executable, "-m", "migrate", "port", str(target), "--out", str(out), "--force",
                             "--steps", str(case.steps)], capture_output=True, text=True, env=env, cwd=directory)
    record.update(adaptations=notes, exit_code=result.returncode, seconds=round(time.monotonic() - started, 1))
    where = f"{case.repo}/{case.path}"
    if result.returncode == 0:
        report = (out / "PORT.md").read_text()
        rounding = re.search(r"rounding level: weights map through the transforms (\w+(?:, (?!which)\w+)*)", report)
        forward = re.search(r"max \|Δ\| = ([0-9.e+-]+)", report)
        loss = re.search(r"max \|Δloss\| = ([0-9.e+-]+) over (\d+) steps", report)
        exact = forward and float(forward.group(1)) == 0.0 and loss and float(loss.group(1)) == 0.0
        record["verdict"] = "bit-identical" if exact else "rounding-level"
        record["detail"] = (f"forward max |Δ| {forward.group(1) if forward else '?'}, max |Δloss| "
                            f"{loss.group(1) if loss else '?'} over {loss.group(2) if loss else '?'} steps"
                            + (f"; transforms {rounding.group(1)}" if rounding else "")
                            + ("; gradients of a tensor with 3+ readers summed in another order"
                               if "summed in another order by GradientTape" in report else ""))
    elif result.returncode == 2:
        problems = [line.strip() for line in result.stderr.splitlines() if line.startswith("  ") and " — " in line]
        record["verdict"] = "refused"
        record["detail"] = "; ".join(re.sub(rf"\S*{re.escape(target.name)}:", f"{where}:", problem, count=1)
                                     for problem in problems[:3]) \
            or result.stderr.strip().splitlines()[-1]
    else:
        failing = [line.strip() for line in result.stdout.splitlines() if "[FAIL]" in line]
        crashed = [line.strip() for line in result.stderr.splitlines() if "internal error" in line or "Error: " in line]
        record["verdict"] = "broken"
        record["detail"] = failing[0] if failing else " … ".join(crashed[:1] + crashed[-1:]) if crashed else \
            (result.stderr.strip().splitlines() or ["?"])[-1]
        record["detail"] += f"; why: {case.broken_because}" if case.broken_because else ""
    return record


def markdown(records: list[dict], context: dict) -> str:
    counts = {verdict: sum(1 for r in records if r["verdict"] == verdict)
              for verdict in ("bit-identical", "rounding-level", "refused", "broken", "not fetched")}
    rows = [(r["case"], f"[{r['repo']}](https://github.com/{r['repo']}) `{r['commit'][:7]}` `{r['path']}`",
             f"`{r['function']}`", f"**{r['verdict']}**", r.get("detail", "").replace("|", "\\|"),
             r.get("seconds", ""), f"{r.get('when', '?')} (load {r.get('load', '?')})") for r in records]
    summary = ", ".join(f"{count} {verdict}" for verdict, count in counts.items() if count)
    dates = sorted(r["when"] for r in records if r.get("when"))
    span = f"{dates[0]} … {dates[-1]}" if dates and dates[0] != dates[-1] else (dates[0] if dates else "?")
    return "\n".join([
        "# `migrate port` on public TF1 model_fns", "",
        f"Rows run {span}, each dated in its last column (a run on some cases replaces their rows only; "
        f"the last such run: {context['when']}): {summary} of {len(records)}.", "",
        markdown_table(["case", "source", "model_fn", "verdict", "detail", "s", "run (load)"], rows), "",
        "Adaptations per case are in port_real_code.json (TF1 namespace, blanked top level, named substitutions).",
    ])


def merged(records: list[dict], previous: dict) -> list[dict]:
    """This run's records over the previous results' (a run on some cases keeps the others' rows), in CASES order;
    a previous row without its own date takes its run's."""
    by_case = {record["case"]: {"when": previous.get("context", {}).get("when"),
                                "load": previous.get("context", {}).get("load"), **record}
               for record in previous.get("results", [])}
    by_case.update({record["case"]: record for record in records})
    return [by_case[case.name] for case in CASES if case.name in by_case]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("names", nargs="*", help="only these cases")
    parser.add_argument("--quick", action="store_true", help="print the table, write nothing")
    args = parser.parse_args(argv)
    unknown = sorted(set(args.names) - {case.name for case in CASES})
    if unknown:
        parser.error(f"no such case: {', '.join(unknown)} (cases: {', '.join(case.name for case in CASES)})")
    cases = [case for case in CASES if not args.names or case.name in args.names]
    records = []
    for case in cases:
        print(f"[port_real_code] {case.name}: {case.repo}/{case.path}", file=sys.stderr, flush=True)
        load = " ".join(f"{value:.1f}" for value in load_average())
        records.append({**run_case(case, WORK), "when": timestamp(), "load": load})
        print(f"  → {records[-1]['verdict']}: {records[-1].get('detail', '')}", file=sys.stderr, flush=True)
    context = {"when": timestamp(), "load": " ".join(f"{value:.1f}" for value in load_average())}
    previous_path = RESULTS / "port_real_code.json"
    previous = json.loads(previous_path.read_text()) if previous_path.exists() else {}
    records = merged(records, previous)
    ran = {record["case"] for record in records}
    payload = {"context": context, "machine": machine(), "cases": [asdict(case) for case in CASES if case.name in ran],
               "results": records}
    publish("port_real_code", payload, markdown(records, context), RESULTS, args.quick)
    return 1 if any(record["verdict"] == "broken" and not record.get("detail") for record in records) else 0


if __name__ == "__main__":
    raise SystemExit(main())
