"""Find the canned estimator behind a `model_fn` by running it once in TRAIN mode (TF 2.15, graph mode).

The canned estimators keep their configuration in the closure of the
``_model_fn`` they hand to `Estimator` (``hidden_units``,
``feature_columns``, ``head`` …). `capture` calls the user's `model_fn` —
the canned estimator's own, or one delegating to it as pair files do —
while `Estimator.__init__` is watched, so whatever estimator the user's
code builds is seen; the optimizers are seen where they apply gradients
(TF1's `Optimizer.apply_gradients`), so the instance that actually trains
each part is read, string names and canned default learning rates already
resolved by the estimator. Returns None when no canned estimator was built
(the `model_fn` is the user's own: not this porter's business).
"""
from __future__ import annotations

import contextlib
import inspect
import traceback
from collections.abc import Callable, Iterator, Mapping
from typing import Any

from migrate.port.canned.record import CannedEstimator, CannedRefusal, HeadSpec, OptimizerUse

CANNED_MODULES = {
    "tensorflow_estimator.python.estimator.canned.dnn": "dnn",
    "tensorflow_estimator.python.estimator.canned.linear": "linear",
    "tensorflow_estimator.python.estimator.canned.dnn_linear_combined": "dnn_linear_combined",
}
BOOSTED_TREES = (
    "the BoostedTrees estimators are gone from tensorflow_estimator 2.15 (the TF1 side cannot run here), boosted "
    "trees grow trees, not weights (no step parity is possible), and a TensorFlow Decision Forests port would need "
    "tensorflow-decision-forests on both TF 2.15 and 2.21, which has no TF 2.21 build "
    "(see examples/canned_estimators/README.md)")
REFUSED_MODULES = {
    "tensorflow_estimator.python.estimator.canned.boosted_trees": BOOSTED_TREES,
    "tensorflow_estimator.python.estimator.canned.baseline": "baseline estimators are not ported yet",
    "tensorflow_estimator.python.estimator.canned.kmeans": "k-means is not a gradient-trained model",
}
OPTIMIZER_ARGUMENTS = {
    "GradientDescentOptimizer": ("learning_rate",),
    "AdagradOptimizer": ("learning_rate", "initial_accumulator_value"),
    "AdamOptimizer": ("learning_rate", "beta1", "beta2", "epsilon"),
    "FtrlOptimizer": ("learning_rate", "learning_rate_power", "initial_accumulator_value",
                      "l1_regularization_strength", "l2_regularization_strength",
                      "l2_shrinkage_regularization_strength", "beta"),
    "MomentumOptimizer": ("learning_rate", "momentum", "use_nesterov"),
    "RMSPropOptimizer": ("learning_rate", "decay", "momentum", "epsilon", "centered"),
}
"""TF1 optimizer class → the constructor arguments its exact twin in `modern.optimizers` takes."""


@contextlib.contextmanager
def _watching() -> Iterator[tuple[list[Any], list[tuple[Any, list[str]]]]]:
    """Record estimators built and (optimizer, variable names) applied while inside."""
    import tensorflow as tf
    from tensorflow_estimator.python.estimator import estimator as estimator_lib

    estimators: list[Any] = []
    applied: list[tuple[Any, list[str]]] = []
    original_init = estimator_lib.Estimator.__init__
    original_apply = tf.compat.v1.train.Optimizer.apply_gradients

    def init(self: Any, *args: Any, **kwargs: Any) -> None:
        original_init(self, *args, **kwargs)
        user_frames = [frame for frame in traceback.extract_stack()[:-1]
                       if "site-packages" not in frame.filename and "/migrate/port/" not in frame.filename]
        self._migrate_created_at = f"{user_frames[-1].filename}:{user_frames[-1].lineno}" if user_frames else "?"
        estimators.append(self)

    def apply(self: Any, grads_and_vars: Any, *args: Any, **kwargs: Any) -> Any:
        pairs = list(grads_and_vars)
        applied.append((self, [variable.name.split(":")[0] for _, variable in pairs]))
        return original_apply(self, pairs, *args, **kwargs)

    from keras.src.optimizers.legacy import optimizer_v2  # the Keras optimizers of the v2 canned estimators

    original_apply_v2 = optimizer_v2.OptimizerV2.apply_gradients

    def apply_v2(self: Any, grads_and_vars: Any, *args: Any, **kwargs: Any) -> Any:
        pairs = list(grads_and_vars)
        self._migrate_config = _keras_config(self)  # before apply turns the hyperparameters into graph variables
        applied.append((self, [variable.name.split(":")[0] for _, variable in pairs]))
        return original_apply_v2(self, pairs, *args, **kwargs)

    estimator_lib.Estimator.__init__ = init
    tf.compat.v1.train.Optimizer.apply_gradients = apply
    optimizer_v2.OptimizerV2.apply_gradients = apply_v2
    try:
        yield estimators, applied
    finally:
        estimator_lib.Estimator.__init__ = original_init
        tf.compat.v1.train.Optimizer.apply_gradients = original_apply
        optimizer_v2.OptimizerV2.apply_gradients = original_apply_v2


def capture(model_fn: Callable[..., Any], input_fn: Callable[..., Any], params: Mapping[str, Any]) -> CannedEstimator | None:
    """Run `model_fn` on one batch of `input_fn` in TRAIN mode and read the canned estimator it used."""
    import tensorflow as tf

    graph = tf.Graph()
    with graph.as_default(), _watching() as (estimators, applied):
        tf.compat.v1.train.get_or_create_global_step()  # as the Estimator creates it before calling model_fn
        features, labels, specs = _first_batch(input_fn, params)
        accepted = inspect.signature(model_fn).parameters
        arguments = {"features": features, "labels": labels, "mode": "train", "params": dict(params)}
        try:
            model_fn(**{key: value for key, value in arguments.items() if key in accepted})
        except AttributeError as error:
            if "BoostedTrees" in str(error):
                raise CannedRefusal([f"{error}: {BOOSTED_TREES}"]) from error
            raise
        except Exception:
            _refuse_if_refused_kind(estimators)  # a refused kind's model_fn may fail on our batch: say why first
            raise
        variables = {v.name.split(":")[0]: tuple(v.shape.as_list()) for v in tf.compat.v1.trainable_variables()}
        state = [v.name.split(":")[0] for v in tf.compat.v1.global_variables()
                 if "/moving_mean" in v.name or "/moving_variance" in v.name]
    _refuse_if_refused_kind(estimators)
    canned = [estimator for estimator in estimators if type(estimator).__module__ in CANNED_MODULES]
    if not canned:
        return None
    estimator = canned[-1]
    record = describe(estimator)
    record.optimizers = [_optimizer_use(optimizer, names, record) for optimizer, names in applied]
    record.tf1_variables = variables
    record.tf1_state = state
    trained = {name for _, names in applied for name in names}
    record.frozen = sorted(name for name in variables if applied and name not in trained)
    record.feature_specs = specs
    return record


def _refuse_if_refused_kind(estimators: list[Any]) -> None:
    """`CannedRefusal` naming the first estimator built whose kind has no Keras port (boosted trees …)."""
    for estimator in estimators:
        module = type(estimator).__module__
        if module in REFUSED_MODULES:
            raise CannedRefusal([f"{type(estimator).__name__} (built at {estimator._migrate_created_at}): "
                                 f"{REFUSED_MODULES[module]}"])


def _first_batch(input_fn: Callable[..., Any], params: Mapping[str, Any]) -> tuple[Any, Any, dict]:
    import tensorflow as tf

    accepted = inspect.signature(input_fn).parameters
    result = input_fn(dict(params)) if "params" in accepted or len(accepted) == 1 else input_fn()
    if isinstance(result, tf.data.Dataset):
        specs = result.element_spec
        features, labels = tf.compat.v1.data.make_one_shot_iterator(result).get_next()
        feature_specs = specs[0]
    else:
        features, labels = result
        feature_specs = {key: tf.TensorSpec(value.shape, value.dtype) for key, value in features.items()}
    if not isinstance(feature_specs, Mapping):
        raise CannedRefusal(["the input function's features are not a dict; canned estimators take a dict of "
                             "named features"])
    sparse = sorted(key for key, spec in feature_specs.items() if not isinstance(spec, tf.TensorSpec))
    if sparse:
        raise CannedRefusal([f"features {sparse} are sparse or ragged; the Keras side takes dense inputs (pad them "
                             "with '' or -1 in the input function, which TF1 treats as missing)"])
    specs = {key: (tuple(spec.shape.as_list()[1:]), spec.dtype.name) for key, spec in feature_specs.items()}
    return features, labels, specs


def describe(estimator: Any) -> CannedEstimator:
    """The `CannedEstimator` record of a canned estimator object (no TRAIN trace: optimizers left empty)."""

    cls = type(estimator)
    family = CANNED_MODULES.get(cls.__module__)
    if family is None:
        raise CannedRefusal([f"{cls.__module__}.{cls.__name__} is not a canned DNN, linear or combined estimator"])
    closure = inspect.getclosurevars(estimator._model_fn).nonlocals
    api = "v2" if cls.__name__.endswith("V2") else "v1"
    record = CannedEstimator(cls.__name__, cls.__module__, api, family, _head(closure["head"], api),
                             getattr(estimator, "_migrate_created_at", "?"))
    if family == "dnn":
        record.dnn_columns = list(closure["feature_columns"])
        record.hidden_units = list(closure["hidden_units"])
        record.activation = _activation(closure["activation_fn"])
        record.dropout, record.batch_norm = closure["dropout"], bool(closure["batch_norm"])
    elif family == "linear":
        record.linear_columns = list(closure["feature_columns"])
        record.sparse_combiner = closure["sparse_combiner"]
    else:
        record.dnn_columns = list(closure["dnn_feature_columns"] or [])
        record.linear_columns = list(closure["linear_feature_columns"] or [])
        record.hidden_units = list(closure["dnn_hidden_units"] or [])
        record.activation = _activation(closure["dnn_activation_fn"])
        record.dropout, record.batch_norm = closure["dnn_dropout"], bool(closure["batch_norm"])
        record.sparse_combiner = closure["linear_sparse_combiner"]
    return record


ACTIVATIONS = ("relu", "relu6", "elu", "selu", "sigmoid", "tanh", "softplus", "softsign", "leaky_relu", "gelu",
               "swish", "silu")


def _activation(function: Any) -> str:
    name = getattr(function, "__name__", repr(function))
    if name not in ACTIVATIONS:
        raise CannedRefusal([f"activation_fn {name!r} has no Keras activation of the same name; use one of "
                             f"{', '.join(ACTIVATIONS)}"])
    return name


def _head(head: Any, api: str) -> Any:
    name = type(head).__name__
    kinds = {"_BinaryLogisticHeadWithSigmoidCrossEntropyLoss": "binary", "BinaryClassHead": "binary",
             "_MultiClassHeadWithSoftmaxCrossEntropyLoss": "multi_class", "MultiClassHead": "multi_class",
             "_RegressionHeadWithMeanSquaredErrorLoss": "regression", "RegressionHead": "regression",
             "MultiLabelHead": "multi_label"}
    if name not in kinds:
        raise CannedRefusal([f"head {name} has no Keras twin in modern.heads"])
    problems = []
    if getattr(head, "_loss_fn", None) is not None:
        problems.append(f"head {name}: a custom loss_fn is not carried over")
    if getattr(head, "_inverse_link_fn", None) is not None:
        problems.append(f"head {name}: inverse_link_fn is not carried over")
    reduction = str(head._loss_reduction).lower().removeprefix("weighted_")
    if reduction not in ("sum", "sum_over_batch_size"):
        problems.append(f"head {name}: loss reduction {head._loss_reduction!r} has no Keras twin (use SUM or "
                        "SUM_OVER_BATCH_SIZE)")
    weight = head._weight_column
    if weight is not None and not isinstance(weight, str):
        if weight.normalizer_fn is not None:
            problems.append(f"head {name}: weight column {weight.key!r} has a normalizer_fn; not carried over")
        weight = weight.key
    vocabulary = getattr(head, "_label_vocabulary", None)
    if kinds[name] == "multi_label" and vocabulary:
        problems.append(f"head {name}: label_vocabulary with multi-label heads is not carried over")
    if problems:
        raise CannedRefusal(problems)
    kind = kinds[name]
    return HeadSpec(kind, n_classes=getattr(head, "_n_classes", 2), loss_reduction=reduction,
                label_dimension=getattr(head, "_logits_dimension", 1) if kind == "regression" else 1,
                weight_column=weight, label_vocabulary=tuple(vocabulary) if vocabulary else None, api=api)


def _keras_config(optimizer: Any) -> dict[str, Any]:
    """A legacy Keras optimizer's hyperparameters as given (``_hyper``) plus its plain attributes."""
    config = dict(optimizer._hyper)
    for attribute in ("epsilon", "nesterov", "amsgrad", "centered"):
        if hasattr(optimizer, attribute):
            config[attribute] = getattr(optimizer, attribute)
    if hasattr(optimizer, "_initial_accumulator_value"):
        config["initial_accumulator_value"] = optimizer._initial_accumulator_value
    return config


KERAS_OPTIMIZERS = ("SGD", "Adagrad", "Adam", "Ftrl", "RMSprop")
"""The Keras (legacy) optimizers the v2 canned estimators take; read through `get_config`."""


def _optimizer_use(optimizer: Any, names: list[str], record: CannedEstimator) -> OptimizerUse:
    cls = type(optimizer).__name__
    prefixes = {name.split("/", 1)[0] for name in names}
    part = prefixes.pop() if len(prefixes) == 1 and record.family == "dnn_linear_combined" else "all"
    if type(optimizer).__module__.startswith("keras."):
        if cls not in KERAS_OPTIMIZERS:
            raise CannedRefusal([f"Keras optimizer {cls} is not one the canned estimators name; not ported"])
        config = dict(optimizer._migrate_config)
        if config.pop("decay", 0.0):
            raise CannedRefusal([f"Keras optimizer {cls} has decay; learning-rate decay is not carried over"])
        if any(callable(value) or isinstance(value, dict) for value in config.values()):
            raise CannedRefusal([f"Keras optimizer {cls}: a learning-rate schedule is not carried over"])
        return OptimizerUse(part, f"keras.{cls}", config)
    if cls not in OPTIMIZER_ARGUMENTS:
        raise CannedRefusal([f"optimizer {cls} has no TF1-exact twin in modern.optimizers"])
    arguments = {}
    for argument in OPTIMIZER_ARGUMENTS[cls]:
        value = getattr(optimizer, "_lr" if (cls, argument) == ("AdamOptimizer", "learning_rate") else f"_{argument}")
        if callable(value) or hasattr(value, "dtype"):
            raise CannedRefusal([f"{cls}.{argument} is a tensor or a schedule; only numbers are carried over"])
        arguments[argument] = value
    return OptimizerUse(part, cls, arguments)
