"""Locating a divergence from two sides' snapshots, and the ulp arithmetic it reports (plain NumPy)."""
from __future__ import annotations

import numpy as np

from migrate.core.mapping import Match, Weight
from migrate.parity.difference import difference
from migrate.parity.divergence import digest, first_parting, locate, rounding_note

MATCHES = [Match(Weight("dense/kernel", (2,)), Weight("dense/kernel", (2,)), "name"),
           Match(Weight("norm/moving_mean", (2,)), Weight("norm/moving_mean", (2,)), "name")]
W = {"dense/kernel": np.array([1.0, -2.0], np.float32), "norm/moving_mean": np.array([0.25, 0.5], np.float32)}


def nudged(values: dict, name: str, ulps: int) -> dict:
    """`values` with the largest element of `name` (its last) moved `ulps` steps away from zero."""
    result = dict(values)
    result[name] = values[name].copy()
    for _ in range(ulps):
        result[name][1] = np.nextafter(result[name][1], np.float32(np.copysign(np.inf, result[name][1])))
    return result


def test_ulps_are_counted_at_the_variables_scale():
    assert difference(W["dense/kernel"], W["dense/kernel"]).none
    assert difference(W["dense/kernel"], nudged(W, "dense/kernel", 3)["dense/kernel"]).ulps == 3
    assert difference([1.0], [float("nan")]).ulps == float("inf")


def test_the_first_update_that_differs_is_named_with_its_size():
    message, details = locate(4, MATCHES, {3: W, 4: W}, {3: W, 4: nudged(W, "norm/moving_mean", 2)}, 0.5, 0.5)
    assert details["verdict"] == "update"
    assert message.startswith("the weights are identical before step 4; after it the first that differs is "
                              "norm/moving_mean (Keras norm/moving_mean): max |Δ| 1.19209e-07, 2 ulp")
    assert rounding_note(details).startswith("this differs at rounding level (≤ 2 ulp: norm/moving_mean)")


def test_weights_that_parted_earlier_are_said_to_differ_before_the_step():
    far = {**W, "dense/kernel": np.array([1.0, -1.0], np.float32)}
    message, details = locate(2, MATCHES, {1: W, 2: W}, {1: far, 2: far}, 0.5, 0.75)
    assert details["verdict"] == "weights before" and rounding_note(details) is None
    assert "the weights already differ before step 2 (the losses were still within tolerance): first dense/kernel" in message


def test_a_loss_that_differs_over_identical_weights_is_said_to_be_the_only_difference():
    loss = np.float32(0.5)
    message, details = locate(3, MATCHES, {2: W, 3: W}, {2: W, 3: W}, float(loss), float(np.nextafter(loss, np.float32(np.inf))))
    assert details["verdict"] == "loss only" and message.startswith("at step 3 only the reported loss differs")
    assert rounding_note(details).startswith("this differs at rounding level (≤ 1 ulp)")


def test_the_first_step_after_which_the_digests_part_is_found():
    steps = {step: digest(W) for step in (1, 2, 3)}
    parted = {**steps, 2: digest(nudged(W, "dense/kernel", 1)), 3: digest(nudged(W, "dense/kernel", 1))}
    assert first_parting(MATCHES, steps, parted) == 2 and first_parting(MATCHES, steps, steps) is None
