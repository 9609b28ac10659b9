"""`FinalOpsHook`: tensors evaluated once, at `end`."""
from __future__ import annotations

import numpy as np

from legacy.hooks.final_ops import make_final_ops_hook
from legacy.hooks.names import GLOBAL_STEP, value_of
from legacy.monitored import train_monitored


def test_final_values_are_read_in_end(train_arrays):
    hook = make_final_ops_hook({"global_step": GLOBAL_STEP, "logits_biases": value_of("logits/biases")})
    last = train_monitored(train_arrays, checkpoint_dir=None, steps=4, batch_size=32, hooks=[hook])

    assert last == 4
    assert hook.final_ops_values["global_step"] == 4
    assert hook.final_ops_values["logits_biases"].shape == (10,)
    assert np.any(hook.final_ops_values["logits_biases"] != 0)
