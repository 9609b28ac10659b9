from __future__ import annotations

import json

from migrate.report.formats.json_report import render


def test_json_round_trips_with_summary_findings_hooks_and_skips(sample_report) -> None:
    data = json.loads(render(sample_report))
    assert data["summary"]["findings"] == 4
    assert data["summary"]["by_rule"] == {"TFM201": 1, "TFM204": 1, "TFM301": 1, "TFM303": 1}
    notebook = next(finding for finding in data["findings"] if finding["path"].endswith(".ipynb"))
    assert (notebook["cell"], notebook["line"], notebook["code"], notebook["name"]) == (1, 2, "TFM301", "placeholder")
    assert notebook["modern_equivalent"] == "modern/pipeline.py"
    (hook,) = data["hooks"]
    assert hook["class"] == "StopHook" and hook["phases"] == [] and hook["methods"] == [
        {"name": "after_run", "defined_in": "StopHook", "callback": "on_train_batch_end", "phase_callbacks": ["on_train_batch_end"],
         "callbacks": ["on_train_batch_end", "on_test_batch_end", "on_predict_batch_end"]},
    ]
    assert data["skipped"][0]["reason"].startswith("Python 2 source")


def test_hook_entries_name_the_phase_the_code_runs_them_in(write, run_scan) -> None:
    path = write(
        "evaluation.py",
        """
        import tensorflow as tf

        class CountHook(tf.estimator.SessionRunHook):
            def after_run(self, run_context, run_values):
                pass

        def main(estimator, input_fn):
            estimator.evaluate(input_fn, hooks=[CountHook()])
            estimator.predict(input_fn, hooks=[CountHook()])
        """,
    )
    (hook,) = json.loads(render(run_scan(path)))["hooks"]
    assert (hook["phases"], hook["methods"][0]["phase_callbacks"]) == (["evaluate", "predict"], ["on_test_batch_end", "on_predict_batch_end"])
