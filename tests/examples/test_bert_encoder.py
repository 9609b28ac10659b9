"""The BERT-style encoder: (d, d) attention kernels ↔ stock MultiHeadAttention through the mapping's transforms.

One short SGD run: the forward pass must be bit-identical (every weight
went through its transform), and after the first update the only variables
allowed to differ are the attention biases, by rounding noise — the
documented reason: `MultiHeadAttention` adds its biases by broadcasting, so
their gradients are reduced over batch and sequence in another order than
TF1's `bias_add` gradient. The README's 200-step figures come from the CLI.
"""
from __future__ import annotations

import re

import numpy as np
import pytest

from tests.examples.helpers import EXAMPLES, load_pair

pytestmark = pytest.mark.estimator

PAIR = EXAMPLES / "bert_encoder" / "pair.py"
ATTENTION_BIAS = re.compile(r"^bert/encoder/layer_\d+/attention/(self/(query|key|value)|output/dense)/bias$")


def test_sentence_pairs_follow_berts_input_format():
    pair = load_pair("bert_encoder")
    features, labels = pair.sentence_pairs(400, 0)
    ids, mask, segments = features["input_ids"], features["input_mask"], features["segment_ids"]
    assert (ids[:, 0] == pair.CLS).all() and ((ids == pair.SEP).sum(axis=1) == 2).all()
    assert np.array_equal(mask, (ids != pair.PAD).astype(np.int32))
    assert (segments[mask == 0] == 0).all() and (segments.max(axis=1) == 1).all()
    assert 0.3 < labels.mean() < 0.7


@pytest.fixture(scope="module")
def short_run():
    from migrate.parity import check_parity

    return check_parity(PAIR, steps=3, params={"train_examples": 96, "eval_examples": 32}, progress=lambda message: None)


def test_the_attention_kernels_reach_multi_head_attention_through_transforms(short_run):
    rows = short_run.stage("variables").details["mapping"]
    transforms = {row["keras"]: row["transform"] for row in rows if row["transform"] not in (None, "", "-")}
    assert transforms["layer_1_attention/query/kernel"] == "mha_qkv_kernel"
    assert transforms["layer_0_attention/value/bias"] == "mha_qkv_bias"
    assert transforms["layer_0_attention/attention_output/kernel"] == "mha_output_kernel"
    assert transforms["classifier/kernel"] == "transposed_dense"
    assert len(transforms) == 2 * 7 + 1
    forward = short_run.stage("forward")
    assert forward.ok and "max |Δ| = 0" in forward.message


def test_after_one_update_only_the_attention_biases_differ_and_only_by_rounding(short_run):
    rows = short_run.stage("one-step").details["variables"]
    differing = [row for row in rows if row["max_abs_diff"] != 0.0]
    assert differing, "the broadcast bias gradient of MultiHeadAttention sums in another order than bias_add's"
    assert all(ATTENTION_BIAS.match(row["tf1"]) for row in differing), [row["tf1"] for row in differing]
    assert max(row["max_abs_diff"] for row in differing) < 1e-10
