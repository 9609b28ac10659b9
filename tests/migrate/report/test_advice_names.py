"""Advice that exists: every TF2 or Keras name the report tells users to write resolves in the real APIs.

Run in both lanes: TF 2.15 with Keras 2.15, and TF 2.21 with Keras 3, so each
name is checked against all three APIs the issue names. The names come from
what users read:

* the messages of a scan of a source that references every TensorFlow name
  any rule registers for (each called), plus the labelled sample;
* the advice of every TF1-only family (TFM514), of every contrib module's home (TFM501) and the TF2
  names of TFM513's data;
* every rule's `modern_equivalent` (a path of this repository).

A backticked `tf.…` / `keras.…` name is checked; the user's own TF1 spelling
is not advice (the names of the TF1-only data, `tf.compat.v1.…`, and the first
backticked name of a message, which quotes the code) and is skipped.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from migrate.report.contrib_homes import HOMES as CONTRIB_HOMES
from migrate.report.registry import CHECKS, load_rules
from migrate.report.rules.tf1_only_api import FAMILIES
from migrate.report.rules.tf_layers import keras_name
from migrate.scanning.tf1_api import lookup, tf1_only

ROOT = Path(__file__).resolve().parents[3]
SAMPLE = Path(__file__).with_name("sample")
NAME = re.compile(r"`((?:tf|keras)\.[A-Za-z_][A-Za-z0-9_.]*)")


def _every_registered_name() -> list[str]:
    load_rules()
    names = set()
    for key in CHECKS:
        if isinstance(key, str) and key.startswith("tensorflow.") and not key.startswith(("tensorflow.contrib", "tensorflow.python")):
            names.add(key.removesuffix(".*"))
    return sorted(names)


def _source_using(names: list[str]) -> str:
    lines = ["import tensorflow as tf"]
    lines += [f"x{index} = tf{name[len('tensorflow'):]}(a, b)" for index, name in enumerate(names)]
    return "\n".join(lines) + "\n"


def _advice_names(message: str) -> set[str]:
    found = NAME.findall(message)
    return {name.rstrip(".") for name in found[1:]}  # the first quotes the user's code


@pytest.fixture(scope="module")
def advised(tmp_path_factory) -> dict[str, str]:
    """name → where it was advised (the first message or table that gave it)."""
    from migrate.report.scanner import ScanOptions, scan

    directory = tmp_path_factory.mktemp("every-name")
    (directory / "every_name.py").write_text(_source_using(_every_registered_name()), encoding="utf-8")
    report = scan([str(directory), str(SAMPLE)], ScanOptions(jobs=1, callbacks_dir=directory / "none"))
    names: dict[str, str] = {}
    for finding in report.findings:
        for name in _advice_names(finding.message):
            names.setdefault(name, f"{finding.code}: {finding.message}")
    for family in FAMILIES:
        for name in NAME.findall(family.advice):
            names.setdefault(name.rstrip("."), f"TFM514 family: {family.advice}")
    for module, advice in CONTRIB_HOMES.items():
        for name in NAME.findall(advice):
            names.setdefault(name.rstrip("."), f"TFM501 contrib.{module}: {advice}")
    for entry in tf1_only().values():
        if entry.target is not None:
            names.setdefault("tf" + entry.target[len("tensorflow"):], f"TFM513 data: {entry.name} → {entry.target}")
    return names


def _is_tf1_spelling(name: str) -> bool:
    if name.startswith("tf.compat.v1"):
        return True
    return name.startswith("tf.") and lookup("tensorflow" + name[2:]) is not None


def _resolve(name: str, roots: dict[str, object]) -> bool:
    head, *parts = name.split(".")
    value = roots[head]
    for part in parts:
        try:
            value = getattr(value, part)
        except AttributeError:
            return False
    return True


@pytest.mark.tensorflow
def test_every_advised_name_exists(advised: dict[str, str]) -> None:
    import keras
    import tensorflow as tf

    roots = {"tf": tf, "keras": keras}
    missing = {
        name: where for name, where in sorted(advised.items())
        if not _is_tf1_spelling(name) and not _resolve(name, roots)
    }
    assert missing == {}, f"TF {tf.__version__}, Keras {keras.__version__}"


def test_the_scan_gave_advice_to_check(advised: dict[str, str]) -> None:
    assert {"keras.layers.LSTM", "keras.optimizers.schedules", "tf.math.log", "tf.config.experimental.set_memory_growth"} <= set(advised)


@pytest.mark.tensorflow
def test_every_tf_layers_class_has_its_keras_layer() -> None:
    """TFM507 names `keras.layers.<keras_name(member)>` for each tf.layers member (classes from the API data)."""
    import keras

    from migrate.scanning.api_tree import api_tree

    members = sorted(name.rpartition(".")[2] for name in api_tree().classes if name.startswith("tensorflow.layers."))
    assert members, "no tf.layers classes in data/tf_api.txt"
    assert [member for member in members if member != "Layer" and not hasattr(keras.layers, keras_name(member))] == []


@pytest.mark.estimator
def test_every_tf_layers_function_maps_to_a_keras_layer() -> None:
    """The functions (`max_pooling2d`, `conv2d_transpose`, …), read from the real tf.compat.v1.layers of TF 2.15."""
    import keras
    import tensorflow as tf

    functions = [name for name in dir(tf.compat.v1.layers) if name[:1].islower() and callable(getattr(tf.compat.v1.layers, name))]
    assert functions
    assert [name for name in functions if not hasattr(keras.layers, keras_name(name))] == []


def test_every_modern_equivalent_exists() -> None:
    rules = load_rules().values()
    assert [rule.code for rule in rules if rule.modern_equivalent and not (ROOT / rule.modern_equivalent).exists()] == []
