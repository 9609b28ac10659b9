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
    assert hook["class"] == "StopHook" and hook["methods"] == [
        {"name": "after_run", "defined_in": "StopHook", "callback": "on_train_batch_end",
         "callbacks": ["on_train_batch_end", "on_test_batch_end", "on_predict_batch_end"]},
    ]
    assert data["skipped"][0]["reason"].startswith("Python 2 source")
