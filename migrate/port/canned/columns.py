"""TF1 feature columns → code building their `modern.feature_columns` twins, one converter per column kind.

`ColumnWriter.expression(column)` returns the Python expression for a
column's twin; categorical columns used by several others (an embedding and
an indicator of the same vocabulary) become one named variable, so the
Keras side shares one lookup as TF1 shares one transformation. A column
kind with no converter is refused with the reason (`NO_TWIN`).
"""
from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from migrate.port.canned.normalizers import NormalizerCode, normalizer_code
from migrate.port.canned.record import CannedRefusal

CONVERTERS: dict[str, Callable[[Any, ColumnWriter], str]] = {}

NO_TWIN = {
    "SequenceCategoricalColumn": "sequence columns feed SequenceFeatures/RNN models; no canned DNN, linear or "
                                 "combined estimator takes them",
    "SequenceNumericColumn": "sequence columns feed SequenceFeatures/RNN models; no canned DNN, linear or "
                             "combined estimator takes them",
    "_SharedEmbeddingColumn": "v1 shared_embedding_columns keep their table in a graph collection; use "
                              "tf.feature_column.shared_embeddings (v2), which is ported",
}
"""TF1 column classes with no exact twin, and why."""


def converter(*class_names: str) -> Callable[[Callable[[Any, ColumnWriter], str]], Callable[[Any, ColumnWriter], str]]:
    def register(function: Callable[[Any, ColumnWriter], str]) -> Callable[[Any, ColumnWriter], str]:
        for name in class_names:
            CONVERTERS[name] = function
        return function
    return register


def identifier(name: str) -> str:
    cleaned = re.sub(r"\W+", "_", name).strip("_").lower() or "column"
    return f"column_{cleaned}" if cleaned[0].isdigit() else cleaned


@dataclass
class ColumnWriter:
    """Collects the statements that build the twins, the normalizers they need, and the raw keys they read."""

    params: dict[str, Any] = field(default_factory=dict)
    statements: list[str] = field(default_factory=list)
    normalizers: list[NormalizerCode] = field(default_factory=list)
    keys: list[str] = field(default_factory=list)
    table_rows: list[tuple[str, str]] = field(default_factory=list)
    _names: dict[int, str] = field(default_factory=dict)
    _taken: set[str] = field(default_factory=set)
    _reused: set[int] = field(default_factory=set)
    _defining: set[int] = field(default_factory=set)

    def note_reuse(self, columns: list[Any]) -> None:
        """Mark the column objects that appear more than once in the tree (bound to one name, as TF1 shares them)."""
        seen: set[int] = set()

        def walk(column: Any) -> None:
            if id(column) in seen:
                self._reused.add(id(column))
                return
            seen.add(id(column))
            for parent in getattr(column, "parents", ()):
                if not isinstance(parent, str):
                    walk(parent)

        for column in columns:
            walk(column)

    def expression(self, column: Any) -> str:
        if id(column) in self._reused and id(column) not in self._defining:
            return self.shared(column)
        kind = type(column).__name__
        if kind in NO_TWIN:
            raise CannedRefusal([f"feature column {getattr(column, 'name', column)!r} ({kind}): {NO_TWIN[kind]}"])
        if kind not in CONVERTERS:
            raise CannedRefusal([f"feature column {getattr(column, 'name', column)!r} ({kind}) has no exact Keras "
                                 "twin in modern.feature_columns"])
        return CONVERTERS[kind](column, self)

    def shared(self, column: Any) -> str:
        """A name bound once to the twin of `column` (categorical columns used more than once)."""
        if id(column) not in self._names:
            name = identifier(column.name)
            while name in self._taken:
                name += "_"
            self._taken.add(name)
            self._defining.add(id(column))
            self.statements.append(f"{name} = {self.expression(column)}")
            self._defining.discard(id(column))
            self._names[id(column)] = name
        return self._names[id(column)]

    def forget_names(self) -> None:
        self._names.clear()
        self._taken.clear()
        self._reused.clear()

    def key(self, key: str) -> str:
        if key not in self.keys:
            self.keys.append(key)
        return repr(key)

    def value(self, value: Any) -> str:
        """A literal, or ``params[...]`` when exactly one entry of the user's params holds that value."""
        matches = [key for key, item in self.params.items() if type(item) is type(value) and item == value
                   and not isinstance(value, bool)]
        if len(matches) == 1 and not isinstance(value, str):
            return f"params[{matches[0]!r}]"
        return repr(value)

    def row(self, column: Any, twin: str) -> None:
        self.table_rows.append((f"{type(column).__name__} {column.name!r}", twin))


@converter("NumericColumn")
def numeric(column: Any, writer: ColumnWriter) -> str:
    arguments = [writer.key(column.key)]
    if tuple(column.shape) != (1,):
        arguments.append(f"shape={tuple(column.shape)!r}")
    if column.normalizer_fn is not None:
        factory = f"normalizer_{identifier(column.key)}"
        writer.normalizers.append(normalizer_code(column.normalizer_fn, factory, column.key))
        arguments.append(f"normalizer_fn={factory}()")
    if column.dtype.name != "float32":
        raise CannedRefusal([f"numeric column {column.key!r} has dtype {column.dtype.name}; only float32 is ported"])
    writer.row(column, "fc.Numeric" + (" + normalizer_fn" if column.normalizer_fn else ""))
    return f"fc.Numeric({', '.join(arguments)})"


@converter("BucketizedColumn")
def bucketized(column: Any, writer: ColumnWriter) -> str:
    writer.row(column, "fc.Bucketized (Bucketize op, TF1's one-hot / id layout)")
    return f"fc.Bucketized({writer.shared(column.source_column)}, {list(column.boundaries)!r})"


@converter("VocabularyListCategoricalColumn")
def vocabulary_list(column: Any, writer: ColumnWriter) -> str:
    arguments = [writer.key(column.key), repr(tuple(column.vocabulary_list))]
    if column.num_oov_buckets:
        arguments.append(f"num_oov_buckets={column.num_oov_buckets}")
    if column.default_value != -1:
        arguments.append(f"default_value={column.default_value}")
    if column.dtype.is_integer:
        arguments.append('key_dtype="int64"')
    writer.row(column, "fc.VocabularyList (TF1's ids: vocabulary first, OOV buckets after)")
    return f"fc.VocabularyList({', '.join(arguments)})"


@converter("VocabularyFileCategoricalColumn")
def vocabulary_file(column: Any, writer: ColumnWriter) -> str:
    arguments = [writer.key(column.key), repr(str(column.vocabulary_file)), f"vocabulary_size={column.vocabulary_size}"]
    if column.num_oov_buckets:
        arguments.append(f"num_oov_buckets={column.num_oov_buckets}")
    if column.default_value != -1:
        arguments.append(f"default_value={column.default_value}")
    if column.dtype.is_integer:
        arguments.append('key_dtype="int64"')
    writer.row(column, "fc.VocabularyFile (the same file, read as index_table_from_file)")
    return f"fc.VocabularyFile({', '.join(arguments)})"


@converter("IdentityCategoricalColumn")
def identity(column: Any, writer: ColumnWriter) -> str:
    default = f", default_value={column.default_value}" if column.default_value is not None else ""
    writer.row(column, "fc.Identity")
    return f"fc.Identity({writer.key(column.key)}, {column.num_buckets}{default})"


@converter("HashedCategoricalColumn")
def hash_bucket(column: Any, writer: ColumnWriter) -> str:
    writer.row(column, "fc.HashBucket (string_to_hash_bucket_fast, as keras.layers.Hashing)")
    return f"fc.HashBucket({writer.key(column.key)}, {column.hash_bucket_size})"


@converter("CrossedColumn")
def crossed(column: Any, writer: ColumnWriter) -> str:
    keys = [writer.key(key) if isinstance(key, str) else writer.shared(key) for key in column.keys]
    hash_key = f", hash_key={column.hash_key}" if column.hash_key is not None else ""
    writer.row(column, "fc.Crossed (sparse_cross_hashed on TF1's inputs)")
    return f"fc.Crossed([{', '.join(keys)}], {column.hash_bucket_size}{hash_key})"


@converter("WeightedCategoricalColumn")
def weighted(column: Any, writer: ColumnWriter) -> str:
    writer.row(column, "fc.Weighted")
    return f"fc.Weighted({writer.shared(column.categorical_column)}, {writer.key(column.weight_feature_key)})"


@converter("EmbeddingColumn")
def embedding(column: Any, writer: ColumnWriter) -> str:
    if column.ckpt_to_load_from is not None:
        raise CannedRefusal([f"embedding column {column.name!r} warm-starts from {column.ckpt_to_load_from}; "
                             "load that checkpoint into the Keras model instead (modern.tf1_checkpoint)"])
    arguments = [writer.shared(column.categorical_column), f"dimension={writer.value(column.dimension)}"]
    if column.combiner != "mean":
        arguments.append(f"combiner={column.combiner!r}")
    if column.max_norm is not None:
        arguments.append(f"max_norm={column.max_norm!r}")
    if not column.trainable:
        arguments.append("trainable=False")
    if not column.use_safe_embedding_lookup:
        arguments.append("use_safe_embedding_lookup=False")
    writer.row(column, f"fc.Embedding (safe_embedding_lookup_sparse, combiner {column.combiner!r})")
    return f"fc.Embedding({', '.join(arguments)})"


@converter("IndicatorColumn")
def indicator(column: Any, writer: ColumnWriter) -> str:
    writer.row(column, "fc.Indicator (multi-hot counts, TF1's ids)")
    return f"fc.Indicator({writer.shared(column.categorical_column)})"


@converter("SharedEmbeddingColumn")
def shared_embedding(column: Any, writer: ColumnWriter) -> str:
    creator = column.shared_embedding_column_creator
    table_key = id(creator)
    if table_key not in writer._names:
        name = identifier(creator._name)
        writer._names[table_key] = name
        writer.statements.append(
            f"{name} = fc.SharedEmbeddingTable({creator._name!r}, {creator._num_buckets}, "
            f"{writer.value(creator._dimension)})")
    arguments = [writer.shared(column.categorical_column), writer._names[table_key]]
    if column.combiner != "mean":
        arguments.append(f"combiner={column.combiner!r}")
    if column.max_norm is not None:
        arguments.append(f"max_norm={column.max_norm!r}")
    writer.row(column, "fc.SharedEmbedding (one shared table)")
    return f"fc.SharedEmbedding({', '.join(arguments)})"
