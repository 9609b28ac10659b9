"""`dataset-iterator` (TFM401): look-alikes first, then findings."""
from __future__ import annotations

import pytest

CODE = "TFM401"


@pytest.mark.parametrize(
    "source",
    [
        pytest.param('ds.make_one_shot_iterator()\n', id='method call in a file without tensorflow'),
        pytest.param('import tensorflow as tf\nfor x in tf.data.Dataset.range(3):\n    pass\n', id='iterating a dataset'),
        pytest.param('import tensorflow as tf\nspec = dataset.element_spec\n', id='element_spec'),
        pytest.param('import tensorflow as tf\nself.output_shapes = shapes\n', id='an attribute of ours, assigned'),
    ],
)
def test_noop(source: str, findings) -> None:
    assert findings(source, CODE) == []


@pytest.mark.parametrize(
    ("source", "lines"),
    [
        pytest.param('import tensorflow as tf\nit = dataset.make_initializable_iterator()\n', [2], id='method form'),
        pytest.param('import tensorflow as tf\ntf.compat.v1.data.make_one_shot_iterator(ds)\n', [2], id='function form'),
        pytest.param('import tensorflow as tf\ntf.data.Dataset.range(3).make_one_shot_iterator()\n', [2], id='chained after from_tensor_slices'),
        pytest.param('import tensorflow as tf\ntypes, shapes = dataset.output_types, dataset.output_shapes\n', [2, 2], id='output_* properties'),
    ],
)
def test_finding(source: str, lines: list[int], findings) -> None:
    assert findings(source, CODE) == [(line, CODE) for line in lines]


def test_a_helper_module_named_like_the_method_is_not_the_method(findings) -> None:
    """The Object Detection API's `dataset_builder.make_initializable_iterator(dataset)` (its body is reported)."""
    source = "import tensorflow as tf\nfrom object_detection.builders import dataset_builder\n" \
             "it = dataset_builder.make_initializable_iterator(ds)\n"
    assert findings(source, CODE) == []
    assert findings(source.replace("dataset_builder.make", "ds.make").replace("(ds)", "()"), CODE) == [(3, CODE)]
