"""The per-file pass: suppression comments, words in comments/strings, store contexts."""
from __future__ import annotations

import pytest


@pytest.mark.parametrize(
    ("source", "remaining"),
    [
        pytest.param("import tensorflow as tf\ntf.Session()  # migrate: ignore[TFM303]\n", [], id="the rule's code"),
        pytest.param("import tensorflow as tf\ntf.Session()  # migrate: ignore\n", [], id="bare ignore silences every rule"),
        pytest.param(
            "import tensorflow as tf\ntf.Session(tf.placeholder(1))  # migrate: ignore[TFM301, TFM999]\n", ["TFM303"],
            id="only the listed codes",
        ),
        pytest.param("import tensorflow as tf\n# migrate: ignore[TFM303]\ntf.Session()\n", ["TFM303"], id="only on its own line"),
    ],
)
def test_suppression_comments(source: str, remaining: list[str], write, run_scan) -> None:
    report = run_scan(write("example.py", source))
    assert [finding.code for finding in report.findings] == remaining


def test_suppression_applies_to_whole_codebase_findings(write, run_scan) -> None:
    path = write("hooks.py", "import tensorflow as tf\nclass H(tf.train.SessionRunHook):  # migrate: ignore[TFM201]\n    pass\n")
    report = run_scan(path)
    assert report.findings == [] and report.suppressed == 1


def test_words_in_comments_strings_and_docstrings_are_not_code(findings) -> None:
    source = '''
    """Uses tf.Session and tf.placeholder, tf.contrib.slim and tf.train.Saver."""
    import tensorflow as tf
    # tf.Session() tf.placeholder() tf.estimator.Estimator()
    text = "tf.logging.info('tf.contrib')"
    '''
    assert findings(source, "TFM") == []


def test_assignment_targets_are_not_uses(findings) -> None:
    assert findings("import tensorflow as tf\nflags = tf.app.flags\n", "TFM502") == [(2, "TFM502")]


def test_files_without_tensorflow_run_no_rules(findings) -> None:
    source = "def model_fn(features, labels, mode):\n    sess.run(x, feed_dict={})\n    it = ds.make_one_shot_iterator()\n"
    assert findings(source, "TFM") == []
