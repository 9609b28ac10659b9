"""bench.fix_tree's diff check: intended respellings pass, any other change is flagged."""
from __future__ import annotations

from bench.fix_tree import unintended_lines

GOOD = """\
--- a/x.py
+++ b/x.py
@@ -1,4 +1,4 @@
-from tensorflow.python.platform import tf_logging as logging
+from absl import app, logging
 import tensorflow as tf
-tf.compat.v1.logging.info("a %s", b)
+logging.info("a %s", b)
"""


def test_respellings_and_absl_imports_are_intended() -> None:
    assert unintended_lines(GOOD) == []


def test_any_other_change_is_reported() -> None:
    bad = GOOD.replace('+logging.info("a %s", b)', '+logging.info("a %s", c)')
    assert unintended_lines(bad) == ['-tf.compat.v1.logging.info("a %s", b)', '+logging.info("a %s", c)']
    assert "+x = 1" in unintended_lines(GOOD + "+x = 1\n")


def test_a_module_alias_replaced_by_an_absl_import_is_intended() -> None:
    diff = "@@ -1,2 +1,2 @@\n-flags = flags_lib\n+from absl import flags\n FLAGS = flags.FLAGS\n"
    assert unintended_lines(diff) == []
    assert unintended_lines(diff.replace("+from absl import flags", "+from absl import app")) == ["-flags = flags_lib"]
