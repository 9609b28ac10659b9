"""`feed-dict` (TFM302): look-alikes first, then findings."""
from __future__ import annotations

import pytest

CODE = "TFM302"


@pytest.mark.parametrize(
    "source",
    [
        pytest.param('sess.run(op, feed_dict={})\n', id='feed_dict in a file without tensorflow'),
        pytest.param('import tensorflow as tf\nsess.run(op, feed_dict=None)\n', id='feed_dict=None feeds nothing'),
        pytest.param('import tensorflow as tf\nsess.run(op, options)\n', id='a positional argument that is not a feed'),
        pytest.param('import tensorflow as tf\nfrom absl import app\napp.run(main, {"a": 1})\n', id="a module's run function"),
        pytest.param('import tensorflow as tf\nimport subprocess\nsubprocess.run(cmd, feed)\n', id='subprocess.run'),
        pytest.param('import tensorflow as tf\nsess.run(op)\nloss.eval()\n', id='no feed at all'),
        pytest.param(
            'import tensorflow as tf\nopts = {"a": 1}\nopts = make_options()\nsess.run(op, opts)\n',
            id='a name bound to a dict and to something else',
        ),
    ],
)
def test_noop(source: str, findings) -> None:
    assert findings(source, CODE) == []


@pytest.mark.parametrize(
    ("source", "lines"),
    [
        pytest.param('import tensorflow as tf\nsess.run(op, feed_dict={x: 1})\n', [2], id='session.run with feed_dict'),
        pytest.param('import tensorflow as tf\ny.eval(feed_dict={x: 1})\n', [2], id='tensor.eval with feed_dict'),
        pytest.param('import tensorflow as tf\nsess.run(op, {x: 1})\n', [2], id='a positional dict'),
        pytest.param('import tensorflow as tf\nsess.run([a, b], feed_dict)\n', [2], id='a positional feed name'),
        pytest.param('import tensorflow as tf\nself.sess.run(op, self.feeds)\n', [2], id='a positional feed attribute'),
        pytest.param('import tensorflow as tf\nsess.run(op, {k: v for k, v in pairs})\n', [2], id='a positional dict comprehension'),
        pytest.param('import tensorflow as tf\nacc = accuracy.eval({x: images, y: labels})\n', [2], id='tensor.eval with a positional dict'),
        pytest.param(
            'import tensorflow as tf\ntd_map = {X: obs, A: actions}\ntd_map[S] = states\nsess.run([loss, train], td_map)\n',
            [4], id='a name the file only binds to a dict',
        ),
    ],
)
def test_finding(source: str, lines: list[int], findings) -> None:
    assert findings(source, CODE) == [(line, CODE) for line in lines]
