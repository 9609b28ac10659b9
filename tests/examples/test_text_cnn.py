"""The text CNN: TF1 conv2d filters (k, emb, 1, filters) ↔ stock Conv1D kernels, through the conv2d_as_conv1d transform.

One short SGD run must be bit-identical at every stage: the filters reach
Keras through the transform, and the embedding's sparse gradient (ids
repeated within a batch) is applied row by row as TF1 does. The README's
200-step figures (SGD and the original's Adam) come from the CLI.
"""
from __future__ import annotations

import numpy as np
import pytest

from tests.examples.helpers import EXAMPLES, load_pair

pytestmark = pytest.mark.estimator

PAIR = EXAMPLES / "text_cnn" / "pair.py"


def test_the_synthetic_sentences_are_fixed_padded_and_balanced_enough():
    pair = load_pair("text_cnn")
    ids, labels = pair.tokens(640, 0)
    again, _ = pair.tokens(640, 0)
    assert np.array_equal(ids, again)
    assert ids.shape == (640, pair.LENGTH) and (ids == pair.PAD).any() and (ids[:, 0] != pair.PAD).all()
    assert 0.3 < labels[:, 1].mean() < 0.7


def test_sgd_is_bit_identical_with_the_filters_through_the_transform():
    from migrate.parity import check_parity

    result = check_parity(PAIR, steps=6, params={"eval_examples": 64}, progress=lambda message: None)
    assert result.ok, result.first_failure.message
    assert [stage.status for stage in result.stages] == ["ok"] * 5
    assert result.summary()["losses"]["max_abs_loss_diff"] == 0.0
    rows = result.stage("variables").details["mapping"]
    assert {row["keras"]: row["transform"] for row in rows if row["transform"] not in (None, "", "-")} == {
        f"conv_{width}/kernel": "conv2d_as_conv1d" for width in (3, 4, 5)}
