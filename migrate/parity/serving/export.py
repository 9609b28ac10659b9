"""Export each side as production did: the Estimator with `export_saved_model`, the Keras model with its signatures.

Every SavedModel is written into a temporary directory next to its target and
renamed into place once complete, so `--out` never holds a half-written one;
an earlier export at the target is replaced only then.

The Keras side's signatures come from the pair's `serving_signatures(model, params)`:
``{key: function}`` (a `tf.function` with an input signature; method
``predict``) or ``{key: (function, method)}`` with method ``"classify"``,
``"regress"``, ``"predict"`` or a full ``tensorflow/serving/…`` name (the
`Signature` tuples of `modern/serving.py` are such pairs). TF2 writes every
signature as ``tensorflow/serving/predict``; the method names are set in
``saved_model.pb`` afterwards, as `modern/serving.py`'s `save` does for users.
"""
from __future__ import annotations

import shutil
import tempfile
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from migrate.parity.serving.surface import ServingError

METHOD_NAMES = {"classify": "tensorflow/serving/classify", "regress": "tensorflow/serving/regress",
                "predict": "tensorflow/serving/predict"}


def replace_atomically(target: Path, write: Callable[[Path], Path | None], side: str) -> Path:
    """`write(scratch)` fills a scratch directory (or returns the directory it wrote); it becomes `target`."""
    target.parent.mkdir(parents=True, exist_ok=True)
    scratch = Path(tempfile.mkdtemp(prefix=f".{target.name}-", dir=target.parent))
    try:
        written = write(scratch / "export") or scratch / "export"
        if not (Path(written) / "saved_model.pb").is_file():
            raise ServingError(f"{side} side: the export wrote no saved_model.pb (into {written}).")
        if target.exists():
            target.rename(scratch / "replaced")
        Path(written).rename(target)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    return target


def export_estimator(estimator: Any, receiver_fn: Callable[[], Any], target: Path) -> Path:
    """`Estimator.export_saved_model` from its latest checkpoint (the final step) into `target`."""

    def write(scratch: Path) -> Path:
        try:
            written = estimator.export_saved_model(str(scratch), receiver_fn)
        except Exception as error:  # the receiver's PairError too: the message names the legacy side
            raise ServingError(f"legacy side: Estimator.export_saved_model failed: {type(error).__name__}: "
                               f"{str(error).strip()[:600]}") from error
        return Path(written.decode() if isinstance(written, bytes) else written)

    return replace_atomically(target, write, "legacy")


def method_name(key: str, value: Any) -> tuple[Any, str]:
    """(function, full method name) of one entry of `serving_signatures`' dict."""
    if isinstance(value, tuple):
        if len(value) != 2 or not isinstance(value[1], str):
            raise ServingError(f"modern side: serving_signatures gives {key!r} as a tuple of {len(value)}; "
                               "give (function, 'classify' | 'regress' | 'predict').")
        function, method = value[0], str(value[1])  # a str, checked above
        full = METHOD_NAMES.get(method, method)
        if full not in METHOD_NAMES.values():
            raise ServingError(f"modern side: serving_signatures gives {key!r} the method {method!r}; "
                               f"use one of {sorted(METHOD_NAMES)}.")
        return function, full
    return value, METHOD_NAMES["predict"]


def _is_keras3(model: Any) -> bool:
    try:
        import keras
    except ImportError:
        return False
    return int(keras.__version__.split(".")[0]) >= 3 and isinstance(model, keras.Model)


def _set_method_names(directory: Path, names: Mapping[str, str]) -> None:
    from tensorflow.core.protobuf import saved_model_pb2

    path = directory / "saved_model.pb"
    saved_model = saved_model_pb2.SavedModel.FromString(path.read_bytes())
    for meta_graph in saved_model.meta_graphs:
        for key, name in names.items():
            if key in meta_graph.signature_def:
                meta_graph.signature_def[key].method_name = name
    path.write_bytes(saved_model.SerializeToString())


def export_keras(model: Any, signatures: Any, target: Path) -> Path:
    """The trained Keras model with `signatures`: `tf.saved_model.save` on Keras 2, `ExportArchive` on Keras 3."""
    if not isinstance(signatures, Mapping) or not signatures:
        raise ServingError(f"modern side: serving_signatures(model, params) returned {type(signatures).__name__}; "
                           "return a dict {signature key: tf.function or (tf.function, method)}.")
    chosen = {str(key): method_name(str(key), value) for key, value in signatures.items()}

    def write(scratch: Path) -> None:
        import tensorflow as tf

        try:
            if _is_keras3(model):
                import keras

                archive = keras.export.ExportArchive()
                archive.track(model)
                for value in vars(model).values():  # Keras 3's archive tracks a model's Keras variables only:
                    if isinstance(value, tf.saved_model.experimental.TrackableResource):  # a port's lookup tables
                        archive.track(value)
                for key, (function, _) in chosen.items():
                    archive.add_endpoint(key, function)
                archive.write_out(str(scratch), verbose=False)
            else:
                tf.saved_model.save(model, str(scratch), signatures={key: fn for key, (fn, _) in chosen.items()})
        except Exception as error:
            raise ServingError(f"modern side: exporting the Keras model with serving_signatures failed: "
                               f"{type(error).__name__}: {str(error).strip()[:600]}") from error
        _set_method_names(scratch, {key: name for key, (_, name) in chosen.items()})

    return replace_atomically(target, write, "modern")
