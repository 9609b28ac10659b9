"""The hook twins a distributed trainer runs, and what each did, for its role trace.

The `MultiWorkerMirroredStrategy` worker (`modern.distributed.pair`) and
the `ParameterServerStrategy` coordinator (`modern.distributed.pair_ps`) run
the same four callbacks of `modern/callbacks/` — the twins of the hooks TF1's
`MonitoredTrainingSession` adds on the chief — with the same settings, and
report which acted at which global step the same way (the launcher compares
those steps with the TF1 hooks'). Built here once.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

from migrate.core.side_trace import Action
from modern.callbacks.checkpoint_saver import CheckpointSaver
from modern.callbacks.logging_tensor import LoggingTensor
from modern.callbacks.step_counter import StepCounter
from modern.callbacks.summary_saver import SummarySaver


class RecordedCallbacks:
    """`CheckpointSaver`, `StepCounter`, `SummarySaver` and `LoggingTensor` writing to `model_dir` (checkpoints every
    `save_steps`, the rest every `log_steps`), and the steps `LoggingTensor` logged."""

    def __init__(self, model_dir: Path, save_steps: int, log_steps: int) -> None:
        self.logged_steps: list[int] = []
        self.saver = CheckpointSaver(model_dir, save_steps=save_steps, max_to_keep=None)
        self.counter = StepCounter(every_n_steps=log_steps, output_dir=model_dir)
        self.summaries = SummarySaver(model_dir, save_steps=log_steps, keys=["step_loss"])
        self.logger = LoggingTensor({"step": "global_step", "loss": "step_loss"}, every_n_iter=log_steps,
                                    formatter=self._log_line)

    def _log_line(self, values: dict[str, Any]) -> str:
        self.logged_steps.append(int(float(values["step"])))
        return f"step = {int(float(values['step']))}, loss = {float(values['loss']):.6f}"

    def callbacks(self) -> list[Any]:
        return [self.saver, self.counter, self.summaries, self.logger]

    def actions(self) -> list[Action]:
        """Every save, summary, step-rate record and log line, in no set order."""
        return ([Action("LoggingTensor", step) for step in self.logged_steps]
                + [Action("CheckpointSaver", step) for step in self.saver.saved_steps]
                + [Action("SummarySaver", step) for step in self.summaries.written_steps]
                + [Action("StepCounter", step) for step, _ in self.counter.rates])
