"""`estimator` (TFM101): look-alikes first, then findings."""
from __future__ import annotations

import pytest

CODE = "TFM101"


@pytest.mark.parametrize(
    "source",
    [
        pytest.param('class Estimator:\n    pass\nEstimator()\n', id='a user class named Estimator'),
        pytest.param("import tensorflow as tf\n# tf.estimator.Estimator\nx = 'tf.estimator.Estimator'\n", id='the word in comments and strings'),
        pytest.param('from sklearn.base import BaseEstimator\nBaseEstimator()\n', id='sklearn estimators'),
        pytest.param('estimator.Estimator()\n', id='file without tensorflow'),
    ],
)
def test_noop(source: str, findings) -> None:
    assert findings(source, CODE) == []


@pytest.mark.parametrize(
    ("source", "lines"),
    [
        pytest.param('import tensorflow as tf\ntf.estimator.Estimator(model_fn=f)\n', [2], id='tf.estimator.Estimator'),
        pytest.param('from tensorflow import estimator as tf_estimator\ntf_estimator.Estimator(f)\n', [2], id='from tensorflow import estimator as tf_estimator'),
        pytest.param('import tensorflow_estimator as tfe\ntfe.estimator.Estimator(f)\n', [2], id='tensorflow_estimator package'),
        pytest.param('import tensorflow.compat.v1 as tf\ntf.estimator.tpu.TPUEstimator(f)\n', [2], id='TPUEstimator via compat.v1'),
        pytest.param('import tensorflow as tf\nclass Mine(tf.estimator.Estimator):\n    pass\n', [2], id='subclassing Estimator'),
    ],
)
def test_finding(source: str, lines: list[int], findings) -> None:
    assert findings(source, CODE) == [(line, CODE) for line in lines]
