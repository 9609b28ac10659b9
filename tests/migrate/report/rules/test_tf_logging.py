"""`tf-logging` (TFM503): look-alikes first, then findings."""
from __future__ import annotations

import pytest

CODE = "TFM503"


@pytest.mark.parametrize(
    "source",
    [
        pytest.param("import tensorflow as tf\nimport logging\nlogging.info('x')\n", id='python logging'),
        pytest.param("import tensorflow as tf\nfrom absl import logging\nlogging.info('x')\n", id='absl logging'),
    ],
)
def test_noop(source: str, findings) -> None:
    assert findings(source, CODE) == []


@pytest.mark.parametrize(
    ("source", "lines"),
    [
        pytest.param('import tensorflow as tf\ntf.logging.set_verbosity(tf.logging.INFO)\n', [2, 2], id='tf.logging.info'),
        pytest.param("from tensorflow.python.platform import tf_logging as logging\nlogging.warn('x')\n", [1], id='private tf_logging module: one finding at the import'),
    ],
)
def test_finding(source: str, lines: list[int], findings) -> None:
    assert findings(source, CODE) == [(line, CODE) for line in lines]


def test_uses_the_fix_leaves_say_why_instead_of_naming_an_absl_twin(run_scan, write) -> None:
    path = write("a.py", "import tensorflow as tf\ntf.logging.fatal('x')\n")
    [finding] = run_scan(path, select=(CODE,)).findings
    assert "absl.logging.fatal aborts the process" in finding.message and "use `absl" not in finding.message
