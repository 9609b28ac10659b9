"""`FinalOps`: keep the values at the end of evaluate (or fit), as `FinalOpsHook` does.

Replaces `tf.compat.v1.train.FinalOpsHook(final_ops, final_ops_feed_dict=None)`
(twin: `legacy/hooks/final_ops.py`), which `Estimator.evaluate` uses to read
the metric values once the last batch has run.

Method mapping: `end` → `on_test_end` (evaluate) and `on_train_end` (fit);
`final_ops_values` is the same attribute name.

Semantics kept from TF1: the values are read once, at the end, after the last
batch (including on input exhaustion); an error other than exhausted input
skips it.

Differences: there is no graph to run: the values are the final logs (the
metrics' `result()` after the last batch; `evaluate(return_dict=True)` gives
the same dict). Anything else (a weight norm, the global step) is computed in
`compute` from the model. No feed dict.

Example::

    final = FinalOps(["loss", "accuracy"])
    model.evaluate(dataset, callbacks=[final])
    final.final_ops_values   # {"loss": ..., "accuracy": ...}
"""
from __future__ import annotations

from collections.abc import Callable, Sequence

from tensorflow import keras

TF1_EQUIVALENT = {
    "hooks": ["FinalOpsHook"],
    "callback": "FinalOps",
    "methods": {"end": "on_test_end / on_train_end"},
    "differences": [
        "values are the final logs (metric results), not tensors run in end()",
        "extra values come from compute(model) instead of graph tensors; no feed dict",
        "evaluate(return_dict=True) returns the same metric values",
        "multi-worker: runs on every worker, each reporting its own final logs (TF1: every worker it was given to)",
    ],
}


class FinalOps(keras.callbacks.Callback):
    """Stores the final log values in `final_ops_values` at the end of evaluate and/or fit.

    Args:
        keys: log keys to keep (default: all).
        compute: optional ``compute(model) -> dict`` merged into the values.
        phases: which ends to capture, among "evaluate" and "train".
    """

    def __init__(
        self,
        keys: Sequence[str] | None = None,
        compute: Callable[[keras.Model], dict] | None = None,
        phases: Sequence[str] = ("evaluate",),
    ) -> None:
        super().__init__()
        unknown = sorted(set(phases) - {"evaluate", "train"})
        if unknown:
            raise ValueError(f"FinalOps: phases must be among 'evaluate', 'train'; got {unknown}.")
        self.keys = None if keys is None else list(keys)
        self.compute = compute
        self.phases = tuple(phases)
        self.final_ops_values: dict | None = None

    def _capture(self, logs: dict | None) -> None:
        logs = dict(logs or {})
        if self.keys is not None:
            missing = [key for key in self.keys if key not in logs]
            if missing:
                raise KeyError(f"FinalOps: {missing} not in the final logs (keys: {sorted(logs)}).")
            logs = {key: logs[key] for key in self.keys}
        values = {key: float(value) if hasattr(value, "__float__") else value for key, value in logs.items()}
        if self.compute is not None:
            values.update(self.compute(self.model))
        self.final_ops_values = values

    def on_test_end(self, logs: dict | None = None) -> None:
        if "evaluate" in self.phases:
            self._capture(logs)

    def on_train_end(self, logs: dict | None = None) -> None:
        if "train" in self.phases:
            self._capture(logs)
