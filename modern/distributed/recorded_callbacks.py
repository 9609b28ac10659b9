"""The hook twins a distributed trainer runs, and what each did, for its role trace.

The `MultiWorkerMirroredStrategy` worker (`modern.distributed.pair`) and
the `ParameterServerStrategy` coordinator (`modern.distributed.pair_ps`) run
the same four callbacks of `modern/callbacks/` — the twins of the hooks TF1's
`MonitoredTrainingSession` adds on the chief — with the same settings, and
report which acted at which global step the same way (the launcher compares
those steps with the TF1 hooks'). Built here once.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from migrate.core.side_trace import Action


@dataclass
class RecordedCallbacks:
    """`CheckpointSaver`, `StepCounter`, `SummarySaver` and `LoggingTensor`, and the steps `LoggingTensor` logged."""

    saver: Any
    counter: Any
    summaries: Any
    logger: Any
    logged_steps: list[int] = field(default_factory=list)

    def callbacks(self) -> list:
        return [self.saver, self.counter, self.summaries, self.logger]

    def actions(self) -> list[Action]:
        """Every save, summary, step-rate record and log line, in no set order."""
        return ([Action("LoggingTensor", step) for step in self.logged_steps]
                + [Action("CheckpointSaver", step) for step in self.saver.saved_steps]
                + [Action("SummarySaver", step) for step in self.summaries.written_steps]
                + [Action("StepCounter", step) for step, _ in self.counter.rates])


def recorded_callbacks(model_dir: Path, save_steps: int, log_steps: int) -> RecordedCallbacks:
    """The four callbacks writing to `model_dir`: checkpoints every `save_steps`, the rest every `log_steps`."""
    from modern.callbacks.checkpoint_saver import CheckpointSaver
    from modern.callbacks.logging_tensor import LoggingTensor
    from modern.callbacks.step_counter import StepCounter
    from modern.callbacks.summary_saver import SummarySaver

    logged: list[int] = []

    def log_line(values: dict) -> str:
        logged.append(int(float(values["step"])))
        return f"step = {int(float(values['step']))}, loss = {float(values['loss']):.6f}"

    return RecordedCallbacks(
        saver=CheckpointSaver(model_dir, save_steps=save_steps, max_to_keep=None),
        counter=StepCounter(every_n_steps=log_steps, output_dir=model_dir),
        summaries=SummarySaver(model_dir, save_steps=log_steps, keys=["step_loss"]),
        logger=LoggingTensor({"step": "global_step", "loss": "step_loss"}, every_n_iter=log_steps, formatter=log_line),
        logged_steps=logged,
    )
