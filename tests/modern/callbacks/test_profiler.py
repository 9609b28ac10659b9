"""`Profiler`: one TensorBoard profile for a global-step range."""
from __future__ import annotations

import glob

import pytest

from modern.callbacks.profiler import Profiler
from modern.training import fit_steps


def test_traces_the_step_range(model, train_data, tmp_path):
    profiler = Profiler(tmp_path, start_step=2, stop_step=3)
    fit_steps(model, train_data, 5, [profiler])
    assert profiler.traced_steps == [2, 3]
    assert glob.glob(str(tmp_path / "plugins" / "profile" / "*" / "*.xplane.pb"))


def test_bad_range(tmp_path):
    with pytest.raises(ValueError, match="start_step <= stop_step"):
        Profiler(tmp_path, start_step=5, stop_step=2)
