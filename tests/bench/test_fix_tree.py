"""bench.fix_tree's diff check: intended respellings pass, any other change is flagged."""
from __future__ import annotations

from bench.fix_tree import unexplained_findings, unintended_lines

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


def test_tf_app_run_given_the_modules_main_is_intended() -> None:
    """BERT's `tf.app.run()` becomes `app.run(main)`: absl's run needs the main TF1 took from `__main__`."""
    diff = "@@ -1,2 +1,2 @@\n-  tf.app.run()\n+  app.run(main)\n"
    assert unintended_lines(diff) == []
    assert unintended_lines(diff.replace("app.run(main)", "app.run(other)")) == ["-  tf.app.run()", "+  app.run(other)"]


def test_an_absl_import_widened_by_the_fix_is_intended() -> None:
    """The Object Detection API's `from absl import flags` becomes `from absl import app, flags`."""
    diff = "@@ -1,2 +1,2 @@\n-from absl import flags\n+from absl import app, flags\n"
    assert unintended_lines(diff) == []
    assert unintended_lines("@@ -1 +1 @@\n-from absl import flags, logging\n+from absl import app, flags\n") == [
        "-from absl import flags, logging"]


def test_a_use_left_as_is_explains_its_finding_on_a_shifted_line() -> None:
    """The fix reports line 313 of the file it read; after `from absl import logging` was added it is line 314."""
    declined = [{"path": "m.py", "line": "313", "code": "TFM503", "spelling": "tf.logging.set_verbosity", "reason": "…"}]
    finding = {"path": "m.py", "line": 314, "code": "TFM503", "message": "`tf.logging.set_verbosity` is removed in TF2"}
    assert unexplained_findings([finding], declined) == []
    assert unexplained_findings([finding, dict(finding, line=400)], declined) == [dict(finding, line=400)]


def test_a_binding_that_repeats_an_absl_import_may_go_away() -> None:
    """tensor2tensor's nfg_interpolate.py: `from absl import flags` at the top, `flags = tf.flags` further down."""
    diff = ("--- a/n.py\n+++ b/n.py\n@@ -1,2 +1,2 @@\n-from absl import flags\n+from absl import app, flags\n import os\n"
            "@@ -40,3 +40,2 @@\n \n-flags = tf.flags\n FLAGS = flags.FLAGS\n")
    assert unintended_lines(diff) == []
    assert unintended_lines(diff.replace("import app, flags", "import app")) == ["-from absl import flags", "-flags = tf.flags"]
