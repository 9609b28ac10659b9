"""`modern.distributed.backup`: the fit layout each Keras version resumes correctly with (the restart itself runs in
the shared faulted run on Keras 2.15 and in test_worker.py on Keras 3)."""
from __future__ import annotations

import keras
import pytest

from modern.distributed.backup import fit_layout, keras_major


def test_keras_2_resumes_mid_epoch_so_the_run_is_one_epoch():
    assert fit_layout(steps=16, save_steps=4, major=2) == (1, 16)


@pytest.mark.parametrize("steps, epochs", [(16, 4), (18, 5)])
def test_keras_3_restores_only_the_epoch_so_epochs_are_save_steps_long(steps, epochs):
    # StopAtStep ends an 18-step run two steps into its fifth epoch
    assert fit_layout(steps=steps, save_steps=4, major=3) == (epochs, 4)


def test_the_plan_follows_the_installed_keras():
    assert keras_major() == int(keras.__version__.split(".")[0])


def test_an_unknown_keras_is_named():
    with pytest.raises(ValueError, match="no BackupAndRestore plan for Keras 4.0.0; known majors: \\[2, 3\\]"):
        keras_major("4.0.0")
