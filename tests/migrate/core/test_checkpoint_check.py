"""A truncated latest checkpoint is named, and training resumes from the newest one that reads back whole."""
from __future__ import annotations

from pathlib import Path

import pytest

from migrate.core.checkpoint_check import resume_point
from migrate.core.cli import UsageError

pytestmark = pytest.mark.tensorflow


@pytest.fixture
def model_dir(tmp_path: Path) -> Path:
    """Three real checkpoints (steps 1..3) of a variable and an optimizer-like counter, as Keras training writes."""
    import tensorflow as tf

    step = tf.Variable(0, dtype=tf.int64)
    weights = tf.Variable(tf.zeros([64, 64]))
    manager = tf.train.CheckpointManager(tf.train.Checkpoint(step=step, weights=weights), str(tmp_path), max_to_keep=None,
                                         checkpoint_name="model.ckpt")
    for _ in range(3):
        step.assign_add(1)
        weights.assign_add(tf.ones([64, 64]))
        manager.save(checkpoint_number=int(step.numpy()))
    return tmp_path


def _truncate(model_dir: Path, step: int) -> Path:
    (data,) = model_dir.glob(f"model.ckpt-{step}.data-*")
    data.write_bytes(data.read_bytes()[: data.stat().st_size // 2])
    return data


def test_an_intact_latest_checkpoint_is_used_as_is(model_dir: Path) -> None:
    warnings: list[str] = []
    assert resume_point(str(model_dir), warnings.append) == str(model_dir / "model.ckpt-3") and warnings == []


def test_a_truncated_latest_checkpoint_resumes_from_the_newest_valid_one(model_dir: Path) -> None:
    _truncate(model_dir, 3)
    warnings: list[str] = []
    assert resume_point(str(model_dir), warnings.append) == str(model_dir / "model.ckpt-2")
    (warning,) = warnings
    assert f"the latest checkpoint {model_dir / 'model.ckpt-3'} is corrupt or truncated" in warning
    import tensorflow as tf

    assert tf.train.latest_checkpoint(str(model_dir)) == str(model_dir / "model.ckpt-2"), "training resumes there"


def test_no_readable_checkpoint_is_a_usage_error_naming_it(model_dir: Path) -> None:
    for step in (1, 2, 3):
        _truncate(model_dir, step)
    with pytest.raises(UsageError, match=r"model.ckpt-3 is corrupt or truncated .* no older checkpoint .* reads back"):
        resume_point(str(model_dir), print)
