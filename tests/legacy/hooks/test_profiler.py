"""`ProfilerHook`: Chrome traces every N steps."""
from __future__ import annotations

import json

from legacy.estimator import train
from legacy.hooks.profiler import make_profiler_hook


def test_writes_a_timeline_every_n_steps_after_the_start(make_estimator, train_arrays, tmp_path):
    hook = make_profiler_hook(str(tmp_path / "profile"), save_steps=3)
    train(make_estimator(), train_arrays, steps=7, batch_size=32, hooks=[hook])

    timelines = sorted(path.name for path in (tmp_path / "profile").glob("timeline-*.json"))
    assert timelines == ["timeline-3.json", "timeline-6.json"]
    assert "traceEvents" in json.loads((tmp_path / "profile" / "timeline-3.json").read_text())
