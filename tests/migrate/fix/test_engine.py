"""`fix_text`: LibCST rewrites of tf.logging / tf.flags / tf.app.run, pyupgrade-style tables."""
from __future__ import annotations

import ast
import textwrap

import pytest

from migrate.fix.engine import fix_text
from migrate.fix.result import FixFailed


def fixed(source: str) -> str:
    return fix_text(textwrap.dedent(source)).text


NO_OP = [
    pytest.param("import logging\nlogging.info('x')\n", id="the standard logging module"),
    pytest.param("from absl import logging\nlogging.info('x')\n", id="absl already"),
    pytest.param("import tensorflow as tf\ntf.logging.fatal('x')\n", id="fatal aborts in absl: left"),
    pytest.param("import tensorflow as tf\ntf.logging.set_verbosity(20)\n", id="numeric level: left"),
    pytest.param("import tensorflow as tf\nlevel = tf.logging.INFO\n", id="level constant outside a call: left"),
    pytest.param("import tensorflow as tf\nv = tf.logging.get_verbosity()\n", id="get_verbosity: left"),
    pytest.param("import tensorflow as tf\nlog = tf.logging\n", id="bare logging module: left"),
    pytest.param("import tensorflow as tf\ntf.app.run()\n", id="tf.app.run() without a main in the module: left"),
    pytest.param(
        "import sys\nimport tensorflow as tf\ntf.app.run(main=main, argv=[sys.argv[0]] + unparsed)\n",
        id="tf.app.run with argv: TF parsed it known-flags-only, absl would stop: left",
    ),
    pytest.param("import tensorflow as tf\ntf.app.run(main, argv)\n", id="argv passed by position: left"),
    pytest.param(
        "import tensorflow as tf\ntf.logging.set_verbosity(tf.logging.INFO)\n",
        id="set_verbosity: TF's also set TensorFlow's own logger, absl's would not: left",
    ),
    pytest.param("import tensorflow as tf\nrun = tf.app.run\n", id="tf.app.run not called: left"),
    pytest.param("tf.logging.info('x')\n", id="tf not imported: unknown name"),
    pytest.param("import tensorflow as tf\ndef f(tf):\n    tf.logging.info('x')\n", id="parameter shadows tf"),
]


@pytest.mark.parametrize("source", NO_OP)
def test_left_alone(source: str) -> None:
    assert fix_text(source).text == source


CASES = [
    pytest.param(
        """\
        import tensorflow as tf

        tf.logging.log(tf.logging.INFO, "x")
        tf.logging.info("step %d", 3)  # progress
        """,
        """\
        from absl import logging
        import tensorflow as tf

        logging.log(logging.INFO, "x")
        logging.info("step %d", 3)  # progress
        """,
        id="tf.logging calls and a level constant inside log",
    ),
    pytest.param(
        """\
        import tensorflow.compat.v1 as tf
        tf.compat.v1.logging.log_first_n(tf.logging.WARN, 'once', 1)
        """,
        """\
        from absl import logging
        import tensorflow.compat.v1 as tf
        logging.log_first_n(logging.WARN, 'once', 1)
        """,
        id="compat.v1 spellings",
    ),
    pytest.param(
        """\
        import logging
        import tensorflow as tf
        logging.info("stdlib")
        tf.logging.info("tf")
        """,
        """\
        import logging
        from absl import logging as absl_logging
        import tensorflow as tf
        logging.info("stdlib")
        absl_logging.info("tf")
        """,
        id="the name logging is taken: absl_logging",
    ),
    pytest.param(
        """\
        import tensorflow as tf
        from helpers import *
        tf.logging.info("x")
        """,
        """\
        from absl import logging as absl_logging
        import tensorflow as tf
        from helpers import *
        absl_logging.info("x")
        """,
        id="a star import may define logging later: absl_logging",
    ),
    pytest.param(
        """\
        from tensorflow.python.platform import tf_logging as logging
        logging.warn("x")
        """,
        """\
        from absl import logging
        logging.warn("x")
        """,
        id="a binding of the private module becomes the absl import, same name",
    ),
    pytest.param(
        """\
        import tensorflow as tf
        flags = tf.app.flags
        flags.DEFINE_integer("steps", 10, "training steps")
        FLAGS = flags.FLAGS
        """,
        """\
        import tensorflow as tf
        from absl import flags
        flags.DEFINE_integer("steps", 10, "training steps")
        FLAGS = flags.FLAGS
        """,
        id="flags = tf.app.flags becomes the import",
    ),
    pytest.param(
        """\
        import tensorflow as tf
        from absl import flags
        flags = tf.flags
        flags.DEFINE_string("data", None, "where")
        """,
        """\
        import tensorflow as tf
        from absl import flags
        flags.DEFINE_string("data", None, "where")
        """,
        id="a re-binding of an absl import already there is removed",
    ),
    pytest.param(
        """\
        from absl import flags
        import tensorflow as tf
        flags.DEFINE_string("data", None, "where")

        flags = tf.flags


        FLAGS = flags.FLAGS
        flags.DEFINE_integer(flag_name="steps", default_value=1, docstring="how many")
        """,
        """\
        from absl import flags
        import tensorflow as tf
        flags.DEFINE_string("data", None, "where")


        FLAGS = flags.FLAGS
        flags.DEFINE_integer(name="steps", default=1, help="how many")
        """,
        id="a re-binding below other statements goes; the longer run of blank lines around it stays",
    ),
    pytest.param(
        """\
        import tensorflow as tf
        tf.flags.DEFINE_string(flag_name="data", default_value="x", docstring="where")
        FLAGS = tf.app.flags.FLAGS
        """,
        """\
        from absl import flags
        import tensorflow as tf
        flags.DEFINE_string(name="data", default="x", help="where")
        FLAGS = flags.FLAGS
        """,
        id="old DEFINE keywords renamed; tf.flags and tf.app.flags share one import",
    ),
    pytest.param(
        """\
        import tensorflow as tf


        def main(_):
            tf.logging.info("run")


        if __name__ == "__main__":
            tf.app.run()
        """,
        """\
        from absl import app, logging
        import tensorflow as tf


        def main(_):
            logging.info("run")


        if __name__ == "__main__":
            app.run(main)
        """,
        id="tf.app.run() gets the module's main; imports merged into one statement",
    ),
    pytest.param(
        """\
        import sys
        from absl import flags
        import tensorflow as tf
        tf.app.run(main=lambda argv: 0)
        """,
        """\
        import sys
        from absl import app, flags
        import tensorflow as tf
        app.run(main=lambda argv: 0)
        """,
        id="merged into an existing from-absl import",
    ),
    pytest.param(
        '''\
        """Docstring."""
        from __future__ import annotations

        import os  # comment kept

        import tensorflow.compat.v1 as tf
        tf.logging.info('%s', os.sep)
        ''',
        '''\
        """Docstring."""
        from __future__ import annotations

        import os  # comment kept

        from absl import logging
        import tensorflow.compat.v1 as tf
        logging.info('%s', os.sep)
        ''',
        id="after docstring and __future__, comments and blank lines kept",
    ),
    pytest.param(
        """\
        from tensorflow.compat.v1 import estimator, logging
        logging.info("x")
        """,
        """\
        from tensorflow.compat.v1 import estimator
        from absl import logging
        logging.info("x")
        """,
        id="one name of a multi-name import moves to a line of its own",
    ),
    pytest.param(
        """\
        if True: from tensorflow.compat.v1 import flags; import os
        flags.DEFINE_bool("fast", False, "")
        """,
        """\
        if True: import os; from absl import flags
        flags.DEFINE_bool("fast", False, "")
        """,
        id="a one-line suite keeps its shape",
    ),
    pytest.param(
        """\
        try:
            from tensorflow.compat.v1 import flags
        except ImportError:
            flags = None
        flags.DEFINE_bool("fast", False, "")
        """,
        """\
        try:
            from tensorflow.compat.v1 import flags
        except ImportError:
            flags = None
        flags.DEFINE_bool("fast", False, "")
        """,
        id="a name bound two ways is left (its uses see both)",
    ),
    pytest.param(
        """\
        def train():
            from tensorflow.compat.v1 import logging
            logging.info("x")
        """,
        """\
        def train():
            from absl import logging
            logging.info("x")
        """,
        id="function-level import moves in place",
    ),
    pytest.param(
        """\
        from tensorflow.compat.v1 import flags, logging
        logging.info("x")
        """,
        """\
        from absl import flags, logging
        logging.info("x")
        """,
        id="a multi-name import moves whole, as one absl import",
    ),
    pytest.param(
        # google-research/bert run_classifier.py: `flags = tf.flags`, then both spellings.
        """\
        import tensorflow as tf

        tf.flags.DEFINE_string("early", None, "above the binding")
        flags = tf.flags
        FLAGS = flags.FLAGS
        flags.DEFINE_bool("use_tpu", False, "Whether to use TPU.")
        tf.flags.DEFINE_string("master", None, "TensorFlow master URL.")
        """,
        """\
        from absl import flags as absl_flags
        import tensorflow as tf

        absl_flags.DEFINE_string("early", None, "above the binding")
        from absl import flags
        FLAGS = flags.FLAGS
        flags.DEFINE_bool("use_tpu", False, "Whether to use TPU.")
        flags.DEFINE_string("master", None, "TensorFlow master URL.")
        """,
        id="tf.flags.X below flags = tf.flags uses that binding, not a second import",
    ),
    pytest.param(
        # tensor2tensor models/video/nfg_interpolate.py: the binding repeats an absl import and goes away.
        """\
        from absl import flags
        import tensorflow as tf

        flags.DEFINE_bool("decode_in_memory", False, "Decode in memory.")

        flags = tf.flags
        FLAGS = flags.FLAGS


        def main(_):
            pass
        """,
        """\
        from absl import flags
        import tensorflow as tf

        flags.DEFINE_bool("decode_in_memory", False, "Decode in memory.")

        FLAGS = flags.FLAGS


        def main(_):
            pass
        """,
        id="a removed duplicate binding leaves its blank lines to the next statement",
    ),
]


@pytest.mark.parametrize(("before", "after"), CASES)
def test_fix(before: str, after: str) -> None:
    result = fixed(before)
    assert result == textwrap.dedent(after)
    assert fix_text(result).text == result, "a second fix must change nothing"
    ast.parse(result)


def test_declined_uses_name_the_reason() -> None:
    result = fix_text("import tensorflow as tf\ntf.logging.info('a')\ntf.logging.fatal('b')\n")
    assert result.rewrites == 1
    [declined] = result.declined
    assert (declined.line, declined.code, declined.spelling) == (3, "TFM503", "tf.logging.fatal")
    assert "aborts" in declined.reason


def test_a_binding_with_one_unsafe_use_is_left_whole() -> None:
    source = "from tensorflow.compat.v1 import logging\nlogging.info('a')\nlogging.fatal('b')\n"
    result = fix_text(source)
    assert result.text == source and [item.spelling for item in result.declined] == ["logging.info", "logging.fatal"]


def test_syntax_error_raises_with_the_line() -> None:
    with pytest.raises(FixFailed, match="syntax error"):
        fix_text("import tensorflow as tf\ndef broken(:\n")


def test_every_use_of_a_binding_held_back_by_one_unsafe_use_is_listed() -> None:
    source = "from tensorflow.compat.v1 import logging\nlogging.info('a')\nv = logging.get_verbosity()\n"
    result = fix_text(source)
    assert result.text == source
    assert [(item.line, item.spelling) for item in result.declined] == [(2, "logging.info"), (3, "logging.get_verbosity")]
    assert "`logging.get_verbosity` (line 3) cannot move" in result.declined[0].reason
