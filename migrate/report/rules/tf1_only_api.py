"""TF1-only API with no TF2 name: graph collections, the TF1 RNN API, session config, `tf.assign`, ….

## What it does
Checks for references to every name of `tf.compat.v1` (TensorFlow 2.15, the
TF 1.15 API) that TF2's `tf` does not have, under any name — the list is
derived from the real API (`migrate/scanning/data/tf1_only.txt`), not kept by
hand: graph collections (`tf.get_collection`, `tf.GraphKeys`,
`tf.trainable_variables`), the default graph (`tf.get_default_graph`,
`tf.reset_default_graph`), `tf.gfile` and `tf.python_io`, the TF1 RNN API
(`tf.nn.rnn_cell`, `tf.nn.dynamic_rnn`), session configuration
(`tf.ConfigProto`, `tf.GPUOptions`), `tf.assign` and the `scatter_*` ops,
global-step decay schedules (`tf.train.exponential_decay`), casts
(`tf.to_float`), `tf.py_func`, `tf.set_random_seed`, … Names another rule
is about (`tf.Session`, `tf.placeholder`, `tf.train.Saver`, …) are left to
that rule.

## Why is this bad?
TF2 has them only as `tf.compat.v1.*`, most of them graph-mode machinery
that does nothing useful, or fails, in eager code. Each family has a TF2
home, which the message names: Keras RNN layers for the RNN API,
`tf.Module` / Keras weight tracking for collections, `tf.config` for
session configuration, `Variable.assign` for assign ops,
`keras.optimizers.schedules` for decay schedules, `tf.summary` with a
writer and a step for summary protos, a SavedModel for meta graphs.

## Example
```python
cell = tf.nn.rnn_cell.LSTMCell(128)
outputs, state = tf.nn.dynamic_rnn(cell, inputs, sequence_length=lengths, dtype=tf.float32)
l2 = tf.add_n([tf.nn.l2_loss(v) for v in tf.trainable_variables()])
config = tf.ConfigProto(gpu_options=tf.GPUOptions(allow_growth=True))
```

## Use instead
```python
outputs = keras.layers.LSTM(128, return_sequences=True)(inputs, mask=tf.sequence_mask(lengths))
l2 = tf.add_n([tf.nn.l2_loss(v) for v in model.trainable_variables])
for gpu in tf.config.list_physical_devices("GPU"):
    tf.config.experimental.set_memory_growth(gpu, True)
```

## References
- https://www.tensorflow.org/guide/migrate/tf1_vs_tf2
- https://www.tensorflow.org/guide/migrate/model_mapping
- https://www.tensorflow.org/guide/migrate/upgrade
"""
from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache
from typing import NamedTuple

from migrate.report.context import FileContext, Reference
from migrate.report.registry import Message, Rule, register
from migrate.report.written_names import shown, written_entry, written_name
from migrate.scanning.names import display
from migrate.scanning.tf1_api import registry_keys

RULE = Rule(code="TFM514", name="tf1-only-api", effort="rewrite", doc=__doc__, fallback=True)

KINDS = ("module", "removed")


class Family(NamedTuple):
    """TF1-only names that share a TF2 home: matched by exact name, module prefix or name suffix."""

    advice: str
    names: frozenset[str] = frozenset()
    prefixes: tuple[str, ...] = ()
    suffixes: tuple[str, ...] = ()

    def holds(self, name: str) -> bool:
        return name in self.names or name.startswith(self.prefixes) or name.endswith(self.suffixes)


def _names(*short: str) -> frozenset[str]:
    return frozenset(f"tensorflow.{name}" for name in short)


FAMILIES: tuple[Family, ...] = (
    Family(
        "graph collections are gone: variables are tracked by the objects that own them "
        "(`tf.Module.trainable_variables`, a Keras model's `trainable_weights`), extra losses by `model.losses`",
        _names("get_collection", "get_collection_ref", "add_to_collection", "add_to_collections", "GraphKeys",
               "trainable_variables", "global_variables", "local_variables", "model_variables", "all_variables",
               "moving_average_variables", "get_local_variable", "losses.get_regularization_loss",
               "losses.get_regularization_losses", "losses.get_losses", "losses.get_total_loss", "losses.add_loss"),
    ),
    Family(
        "TF2 has no default graph: code runs eagerly or in a `tf.function`, which traces its own graph; "
        "between tests or models call `keras.backend.clear_session()`",
        _names("get_default_graph", "reset_default_graph", "container", "colocate_with", "op_scope",
               "variable_op_scope", "get_default_session", "get_session_handle", "get_session_tensor",
               "delete_session_tensor", "report_uninitialized_variables", "is_variable_initialized",
               "assert_variables_initialized", "add_check_numerics_ops", "make_template", "AUTO_REUSE",
               "VariableScope", "wrap_function", "executing_eagerly_outside_functions"),
    ),
    Family(
        "the TF1 RNN API: use Keras RNN layers — `keras.layers.LSTM` / `keras.layers.GRU`, or `keras.layers.RNN` "
        "over `keras.layers.LSTMCell` / `keras.layers.GRUCell` / `keras.layers.StackedRNNCells`, "
        "`keras.layers.Bidirectional` for the bidirectional RNNs; sequence lengths become a mask",
        _names("nn.dynamic_rnn", "nn.bidirectional_dynamic_rnn", "nn.static_rnn", "nn.static_bidirectional_rnn",
               "nn.raw_rnn", "nn.static_state_saving_rnn"),
        prefixes=("tensorflow.nn.rnn_cell",),
    ),
    Family(
        "session configuration is `tf.config` in TF2: `tf.config.experimental.set_memory_growth` (allow_growth), "
        "`tf.config.set_visible_devices`, `tf.config.threading.set_intra_op_parallelism_threads`, "
        "`tf.config.set_soft_device_placement`; run metadata and tracing come from `tf.profiler.experimental`",
        _names("ConfigProto", "GPUOptions", "GraphOptions", "OptimizerOptions", "RunOptions", "RunMetadata"),
    ),
    Family(
        "assign through the variable: `v.assign(x)`, `v.assign_add(x)`, `v.assign_sub(x)`, "
        "`v.scatter_update(tf.IndexedSlices(values, indices))` (and `scatter_add`, `scatter_nd_update`, …)",
        _names("assign", "assign_add", "assign_sub", "count_up_to", "batch_scatter_update"),
        prefixes=("tensorflow.scatter_",),
    ),
    Family(
        "a global-step schedule: pass a `keras.optimizers.schedules` object as the optimizer's learning rate "
        "(`ExponentialDecay`, `PiecewiseConstantDecay`, `PolynomialDecay`, `CosineDecay`, `CosineDecayRestarts`, "
        "`InverseTimeDecay`); it is evaluated at the optimizer's own step",
        _names("train.piecewise_constant", "train.piecewise_constant_decay"),
        suffixes=("_decay", "_decay_restarts"),
    ),
    Family(
        "TF2 writes summaries eagerly: `tf.summary.scalar(name, value, step=step)` (`histogram`, `image`, `text`) "
        "inside `with tf.summary.create_file_writer(logdir).as_default():`, or `keras.callbacks.TensorBoard`",
        _names("Summary", "SummaryMetadata", "Event", "SessionLog", "HistogramProto", "summary.Summary",
               "summary.Event", "summary.SessionLog", "summary.SummaryDescription", "summary.TaggedRunMetadata",
               "summary.initialize", "summary.all_v2_summary_ops"),
    ),
    Family(
        "files go through `tf.io.gfile` in TF2 (`tf.io.gfile.GFile`, `exists`, `glob`, `makedirs`, `listdir`, …)",
        prefixes=("tensorflow.gfile", "tensorflow.resource_loader"),
    ),
    Family(
        "TFRecords: read them with `tf.data.TFRecordDataset`, write them with `tf.io.TFRecordWriter`",
        _names("io.tf_record_iterator", "io.TFRecordCompressionType"),
        prefixes=("tensorflow.python_io",),
    ),
    Family(
        "readers and queues become a `tf.data` pipeline (`tf.data.TFRecordDataset`, `tf.data.TextLineDataset`, "
        "`tf.data.FixedLengthRecordDataset`, then `.shuffle`, `.batch`, `.prefetch`)",
        _names("ReaderBase", "TFRecordReader", "TextLineReader", "FixedLengthRecordReader", "WholeFileReader",
               "IdentityReader", "LMDBReader", "ConditionalAccumulator", "ConditionalAccumulatorBase",
               "SparseConditionalAccumulator", "sparse.SparseConditionalAccumulator", "train.limit_epochs",
               "train.LooperThread", "train.basic_train_loop"),
    ),
    Family(
        "cast explicitly: `tf.cast(x, tf.float32)` (the dtype the name says)",
        _names("to_float", "to_double", "to_int32", "to_int64", "to_bfloat16", "to_complex64", "to_complex128"),
    ),
    Family(
        "TF2 behaviour is the default: delete the call (only tf.compat.v1 can switch it)",
        _names("enable_eager_execution", "disable_eager_execution", "enable_v2_behavior", "disable_v2_behavior",
               "enable_resource_variables", "disable_resource_variables", "resource_variables_enabled",
               "enable_control_flow_v2", "disable_control_flow_v2", "control_flow_v2_enabled",
               "enable_v2_tensorshape", "disable_v2_tensorshape", "enable_tensor_equality", "disable_tensor_equality",
               "experimental.output_all_intermediates"),
    ),
    Family(
        "initializers are `keras.initializers` objects in TF2 (`GlorotUniform`, `GlorotNormal`, `Orthogonal`, "
        "`TruncatedNormal`, `VarianceScaling`, …), passed to a layer",
        suffixes=("_initializer",),
        prefixes=("tensorflow.initializers.uniform_unit_scaling",),
    ),
    Family(
        "partitioned variables: in TF2 shard them with `tf.distribute.experimental.ParameterServerStrategy` and "
        "a `tf.distribute.experimental.partitioners.FixedShardsPartitioner`",
        _names("fixed_size_partitioner", "min_max_variable_partitioner", "variable_axis_size_partitioner",
               "create_partitioned_variables"),
    ),
    Family(
        "`tf.numpy_function` has the same contract (NumPy in, NumPy out); `tf.py_function` takes eager tensors",
        _names("py_func"),
    ),
    Family(
        "`tf.print` prints as an op but returns nothing: it no longer passes its input through",
        _names("Print"),
    ),
    Family(
        "`tf.random.set_seed` sets the global seed in TF2; op-level seeds derive from it differently, "
        "so random streams change",
        _names("set_random_seed", "random.set_random_seed", "get_seed", "random.get_seed"),
    ),
    Family(
        "`tf.image.resize(images, size, method=...)` replaces the resize_* ops; it has no align_corners and "
        "samples at half-pixel centres, so results differ from resize_bilinear's default",
        prefixes=("tensorflow.image.resize_",),
    ),
    Family(
        "Cloud TPUs are driven through `tf.distribute.TPUStrategy` in TF2",
        prefixes=("tensorflow.tpu.",),
    ),
    Family(
        "TF2 saves and loads with `tf.saved_model.save(obj, path, signatures=...)` and `tf.saved_model.load(path)`",
        _names("saved_model.Builder", "saved_model.simple_save", "saved_model.build_signature_def",
               "saved_model.build_tensor_info", "saved_model.classification_signature_def",
               "saved_model.predict_signature_def", "saved_model.regression_signature_def",
               "saved_model.get_tensor_from_tensor_info", "saved_model.is_valid_signature", "saved_model.main_op_with_restore",
               "saved_model.LEGACY_INIT_OP_KEY", "saved_model.MAIN_OP_KEY", "saved_model.load_v2"),
        prefixes=("tensorflow.saved_model.builder", "tensorflow.saved_model.loader", "tensorflow.saved_model.main_op",
                  "tensorflow.saved_model.signature_def_utils", "tensorflow.saved_model.utils",
                  "tensorflow.saved_model.constants", "tensorflow.saved_model.signature_constants",
                  "tensorflow.saved_model.tag_constants"),
    ),
    Family(
        "numpy input functions become datasets: `tf.data.Dataset.from_tensor_slices((features, labels))`",
        prefixes=("tensorflow.estimator.inputs",),
    ),
    Family(
        "profile with `tf.profiler.experimental.start(logdir)` / `stop()` (or the TensorBoard callback's `profile_batch`)",
        prefixes=("tensorflow.profiler.",),
    ),
    Family(
        "`tf.strings.split` returns a RaggedTensor (`.to_sparse()` gives the old SparseTensor)",
        _names("string_split"),
    ),
    Family(
        "freezing graphs is gone with graphs: export a SavedModel (`tf.saved_model.save`) and convert that",
        prefixes=("tensorflow.graph_util.",),
    ),
    Family(
        "mixed precision is a Keras policy in TF2: `keras.mixed_precision.set_global_policy(\"mixed_float16\")`, "
        "and `keras.mixed_precision.LossScaleOptimizer` for loss scaling",
        prefixes=("tensorflow.mixed_precision", "tensorflow.train.experimental."),
    ),
    Family(
        "`tf.div` divides with Python 2 semantics (integers floor-divide): write `x / y` (`tf.math.truediv`) for "
        "floats, `x // y` (`tf.math.floordiv`) for integers",
        _names("div"),
    ),
    Family(
        "graph protos describe session graphs: TF2 traces graphs with `tf.function` and ships them as a SavedModel "
        "(`tf.saved_model.save`, then `tf.saved_model.load`); a frozen `GraphDef` is loaded with "
        "`tf.compat.v1.wrap_function` until it is re-exported",
        _names("GraphDef", "MetaGraphDef", "NodeDef"),
    ),
    Family(
        "a TF1 optimizer, its methods too (a subclass calling `minimize` / `compute_gradients` / `apply_gradients` "
        "of its base): TF2's are `keras.optimizers.Optimizer` subclasses (`keras.optimizers.Adam`, `SGD`, `RMSprop`, "
        "…), or the bit-exact twins in `modern.optimizers`; gradients come from `tf.GradientTape`",
        suffixes=("Optimizer",),
    ),
    Family(
        "a SessionRunHook, its methods too (a subclass calling its base's): TF2's training loop takes "
        "`keras.callbacks.Callback` subclasses (`on_train_begin`, `on_train_batch_begin` / `on_train_batch_end`, "
        "`on_train_end`)",
        suffixes=("Hook",),
    ),
    Family(
        "the asserts live in `tf.debugging` in TF2 (`tf.debugging.assert_positive`, `tf.debugging.assert_type`, …); "
        "they raise at once in eager code and return None: call them as statements, not in `control_dependencies`",
        prefixes=("tensorflow.assert_",),
    ),
    Family(
        "TF2 has no sessions to create or supervise: train with `model.fit` or a `tf.function` step in a loop, "
        "save with `tf.train.CheckpointManager` (see modern/training.py)",
        _names("train.SessionCreator", "train.WorkerSessionCreator", "train.SessionManager", "train.Supervisor"),
    ),
    Family(
        "TF2 places variables on parameter servers with `tf.distribute.experimental.ParameterServerStrategy` "
        "(the cluster described by `tf.distribute.cluster_resolver.TFConfigClusterResolver`)",
        _names("train.replica_device_setter"),
    ),
    Family(
        "`tf.train.load_checkpoint(path)` returns the same reader (`get_tensor`, `get_variable_to_shape_map`); "
        "`tf.train.list_variables(path)` lists names and shapes",
        _names("train.NewCheckpointReader"),
    ),
    Family(
        "normalise with `keras.layers.BatchNormalization` (fused where it can be), or `tf.nn.batch_normalization` "
        "with moments from `tf.nn.moments`",
        _names("nn.fused_batch_norm"),
    ),
    Family(
        "distributions moved to TensorFlow Probability (`tfp.distributions`, the `tensorflow-probability` package)",
        prefixes=("tensorflow.distributions",),
    ),
    Family(
        "build a `tf.sparse.SparseTensor(indices, values, dense_shape)` and densify it with `tf.sparse.to_dense`",
        _names("sparse_to_dense"),
    ),
    Family(
        "TF2's `TensorShape` holds ints or None: `tensor.shape[i]` is the int itself (no `Dimension`, no `.value`)",
        _names("Dimension"),
    ),
)


@lru_cache(maxsize=4096)
def advice(name: str) -> str | None:
    """The advice of the first family holding the name, None when none does."""
    return next((family.advice for family in FAMILIES if family.holds(name)), None)


@register(RULE, *registry_keys(KINDS), *registry_keys(("changed",)))
def check(reference: Reference, context: FileContext) -> Iterator[Message]:
    """Also dispatched for the names TF2 has for another function: a member of a TF1-only module may be one of
    them canonically (`tf.saved_model.loader.load` is `tf.saved_model.load`), and it is what was written that
    decides (TFM517 leaves it: its written name is no such name)."""
    entry = written_entry(reference, context)
    if entry is None or entry.kind not in KINDS:
        return
    compat = f"`tf.compat.v1.{display(entry.name).partition('.')[2]}`"
    if entry.kind == "removed":
        what = f"is TF1-only (TF2 has it only as {compat})"
    elif written_name(reference, context) == entry.name:
        what = f"is a module TF2 does not have (only {compat})"
    else:
        what = f"belongs to `{display(entry.name)}`, a module TF2 does not have (only {compat})"
    found = advice(entry.name)
    yield reference.node, f"`{shown(reference)}` {what}; " + (found if found is not None else "rewrite it with TF2 APIs")


@register(RULE, "tensorflow.test.mock", "tensorflow.test.mock.*")
def check_test_mock(reference: Reference, context: FileContext) -> Iterator[Message]:
    """`tf.test.mock` was TF1's re-export of the `mock` library, outside the API data (not a TensorFlow module)."""
    if ".compat.v1" in (context.qualified(reference.node) or ""):
        return
    yield reference.node, (
        f"`{reference.spelling}` is TF1's re-export of the standard mock library, gone from TF2's `tf.test`: "
        "`from unittest import mock`"
    )
