"""How the modern side lists Keras weights for the mapping: creation rank (not the listing order) and unique names."""
from __future__ import annotations

import pytest

keras = pytest.importorskip("keras")

from migrate.core.keras_weights import creation_rank, weight_path  # noqa: E402
from migrate.core.mapping import Weight, infer_mapping, unique_names  # noqa: E402


class HeadFirst(keras.Model):
    """Attributes assigned head first (Keras lists weights in that order), layers called body first (TF1 code order)."""

    def __init__(self):
        super().__init__()
        self.head = keras.layers.Dense(4, name="head")
        self.body = keras.layers.Dense(4, name="body")

    def call(self, inputs):
        return self.head(self.body(inputs))


def test_creation_rank_follows_the_call_order_where_the_listing_does_not():
    import numpy as np

    model = HeadFirst()
    model(np.zeros((1, 4), np.float32))
    listed = [weight_path(v).split("/")[-2] for v in model.trainable_weights]
    assert listed == ["head", "head", "body", "body"]
    modern = [Weight(weight_path(v), tuple(v.shape), order=creation_rank(v)) for v in model.trainable_weights]
    assert min(w.order for w in modern) >= 0
    legacy = [Weight("net/hidden/w", (4, 4)), Weight("net/hidden/b", (4,)), Weight("net/out/w", (4, 4)),
              Weight("net/out/b", (4,))]
    pairs = [(m.legacy.name, m.modern.name.split("/")[-2]) for m in infer_mapping(legacy, modern)]
    assert pairs == [("net/hidden/w", "body"), ("net/hidden/b", "body"), ("net/out/w", "head"), ("net/out/b", "head")]


@pytest.mark.skipif(not hasattr(keras, "experimental"), reason="keras.experimental.LinearModel is Keras 2's")
def test_keras_2_linear_model_names_its_kernels_alike_and_unique_names_tells_them_apart():
    import numpy as np

    model = keras.experimental.LinearModel(units=1)
    model([np.zeros((2, 1), np.float32), np.zeros((2, 2), np.float32), np.zeros((2, 1), np.float32)])
    paths = [weight_path(v) for v in model.trainable_weights]
    assert paths.count("linear_model/kernel") == 3
    assert unique_names(paths) == ["linear_model/kernel#0", "linear_model/kernel#1", "linear_model/kernel#2",
                                   "linear_model/bias"]
