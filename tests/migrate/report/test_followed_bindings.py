"""Names the scan follows through the ways real TF1 code binds them (issue 27, item 6)."""
from __future__ import annotations


def _codes_by_line(report) -> list[tuple[str, int, str]]:
    return sorted((finding.path.rpartition("/")[2], finding.line, finding.code) for finding in report.findings)


def test_a_wrapper_functions_result_bound_to_a_name_is_that_module(write, run_scan, tmp_path) -> None:
    write("pkg/__init__.py", "")
    write("pkg/contrib.py", "def eager():\n    from tensorflow.contrib import eager as tfe\n    return tfe\n")
    write("pkg/model.py", "import tensorflow as tf\nfrom pkg import contrib\n\ntfe = contrib.eager()\nv = tfe.Variable(3)\n")
    report = run_scan(tmp_path / "pkg", select=("TFM501",))
    assert ("model.py", 5, "TFM501") in _codes_by_line(report)


def test_an_import_error_fallback_to_none_does_not_hide_the_import(write, run_scan) -> None:
    path = write("train.py", """\
        import tensorflow as tf
        try:
            from tensorflow.contrib import layers as contrib_layers
        except ImportError:
            contrib_layers = None
        y = contrib_layers.layer_norm(x)
        """)
    [finding] = run_scan(path, select=("TFM501",)).findings
    assert finding.line == 3 and "covers the 1 use of `contrib_layers`" in finding.message


def test_a_py_file_starting_with_an_ipython_magic_is_scanned(write, run_scan) -> None:
    path = write("exported.py", "%matplotlib inline\n!pip install foo\nimport tensorflow as tf\nsess = tf.Session()\n")
    report = run_scan(path)
    assert not report.skipped
    assert [(finding.line, finding.code) for finding in report.findings] == [(4, "TFM303")]
    assert any("IPython magics" in note for note in report.notes)


def test_a_py_file_with_a_syntax_error_and_no_magic_is_still_skipped(write, run_scan) -> None:
    report = run_scan(write("broken.py", "import tensorflow as tf\ndef f(:\n"))
    assert report.skipped and "syntax error at line 2" in report.skipped[0].skipped


def test_tf_bound_only_by_a_star_import_is_tensorflow(write, run_scan, tmp_path) -> None:
    write("gcn/__init__.py", "")
    write("gcn/layers.py", "import tensorflow as tf\n")
    write("gcn/models.py", """\
        from gcn.layers import *

        flags = tf.app.flags


        def save(sess, variables):
            return tf.train.Saver(variables)


        def scaled(tf):
            return tf.placeholder
        """)
    report = run_scan(tmp_path / "gcn", select=("TFM502", "TFM505", "TFM301"))
    assert _codes_by_line(report) == [("models.py", 3, "TFM502"), ("models.py", 7, "TFM505")]


def test_tf_used_but_bound_nowhere_is_tensorflow(write, run_scan) -> None:
    path = write("script.py", "import numpy as np\nsaver = tf.train.Saver()\n")
    assert [(finding.line, finding.code) for finding in run_scan(path, select=("TFM505",)).findings] == [(2, "TFM505")]


def test_a_files_own_tf_binding_is_not_tensorflow(write, run_scan) -> None:
    path = write("counts.py", "from collections import Counter\ntf = Counter(words)\ntop = tf.most_common(3)\n")
    assert run_scan(path).findings == []
