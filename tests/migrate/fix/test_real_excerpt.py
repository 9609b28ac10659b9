"""`migrate fix` on an excerpt of real TF1 code (tensorflow_estimator): exactly the intended lines change.

The whole tree is checked by `python -m bench.fix_tree` (every file parses,
no finding of the fixed rules left, a second fix is a no-op).
"""
from __future__ import annotations

import difflib
import shutil
from pathlib import Path

from migrate.cli import main
from migrate.report.scanner import ScanOptions, scan

EXCERPT = Path(__file__).parent / "fixtures" / "estimator_excerpt.py"

EXPECTED_CHANGES = [
    "-from tensorflow.python.platform import tf_logging as logging",
    "+from absl import logging",
    "-          tf.compat.v1.logging.log_first_n(",
    "-              tf.compat.v1.logging.INFO,",
    "+          logging.log_first_n(",
    "+              logging.INFO,",
    "-                tf.compat.v1.logging.vlog(1, \"Ignored exception: %s\", str(e))",
    "+                logging.vlog(1, \"Ignored exception: %s\", str(e))",
]
"""`tf.compat.v1.app.run(main=main, argv=[sys.argv[0]] + unparsed)` stays: TF parsed that argv known-flags-only."""


def test_only_the_intended_lines_change_and_nothing_is_left(tmp_path: Path, capsys) -> None:
    path = tmp_path / "excerpt.py"
    shutil.copyfile(EXCERPT, path)
    before = path.read_text().splitlines()
    assert main(["fix", str(path)]) == 0
    after = path.read_text().splitlines()
    changes = [line for line in difflib.unified_diff(before, after, lineterm="", n=0) if line[:1] in "+-" and line[:3] not in ("---", "+++")]
    assert changes == EXPECTED_CHANGES
    report = scan([str(path)], ScanOptions(jobs=1, select=("TFM502", "TFM503")))
    assert [finding.message.split("`")[1] for finding in report.findings] == ["tf.compat.v1.app.run"] and not report.skipped
    assert "left as is: tf.app.run parsed the given argv with known_only=True" in capsys.readouterr().err
    assert main(["fix", "--diff", str(path)]) == 0
