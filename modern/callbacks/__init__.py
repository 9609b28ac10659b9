"""One Keras callback per TF1 `SessionRunHook`, one copyable file each.

Each file imports only TensorFlow (Keras as ``from tensorflow import keras``,
so the same file runs on Keras 2.15, Keras 3 and tf-keras), numpy and the
standard library, so it can be copied alone into another project, and works
with its defaults on a stock compiled model: where TF1 read the step's own
loss, a file carries its own copy of the small `_StepLoss` helper that
recovers it from Keras' running mean. Each declares the literal
`TF1_EQUIVALENT` that `migrate hooks` turns into the mapping table. Files
without a class (`checkpoint_input_pipeline`, `feed_fn`, `global_step_waiter`,
`iterator_initializer`, `stop_at_checkpoint_step`, `sync_replicas`) document
why no callback is needed and what to do instead. This module only re-exports.
"""
from __future__ import annotations

from modern.callbacks.checkpoint_saver import CheckpointSaver, CheckpointSaverListener, make_checkpoint
from modern.callbacks.early_stopping import EarlyStopping
from modern.callbacks.event_recorder import EventRecorder
from modern.callbacks.final_ops import FinalOps
from modern.callbacks.in_memory_evaluator import InMemoryEvaluator
from modern.callbacks.logging_tensor import LoggingTensor
from modern.callbacks.nan_tensor import NanLossDuringTrainingError, NanTensor
from modern.callbacks.profiler import Profiler
from modern.callbacks.step_counter import StepCounter
from modern.callbacks.stop_at_step import StopAtStep
from modern.callbacks.stop_on_condition import StopOnCondition
from modern.callbacks.summary_saver import SummarySaver

__all__ = [
    "CheckpointSaver",
    "CheckpointSaverListener",
    "EarlyStopping",
    "EventRecorder",
    "FinalOps",
    "InMemoryEvaluator",
    "LoggingTensor",
    "NanLossDuringTrainingError",
    "NanTensor",
    "Profiler",
    "StepCounter",
    "StopAtStep",
    "StopOnCondition",
    "SummarySaver",
    "make_checkpoint",
]
