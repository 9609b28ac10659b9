"""`migrate fix` through `main([...])`: output, exit codes, and the report afterwards."""
from __future__ import annotations

from pathlib import Path

from migrate.cli import main
from migrate.report.scanner import ScanOptions, scan

TF1 = """\
import tensorflow as tf

flags = tf.app.flags
flags.DEFINE_integer("steps", 10, "training steps")
FLAGS = flags.FLAGS


def main(_):
    tf.logging.set_verbosity(tf.logging.INFO)
    tf.logging.info("training for %d steps", FLAGS.steps)
    tf.logging.fatal("not moved")


if __name__ == "__main__":
    tf.app.run()
"""


def test_fix_then_report_has_no_fixed_finding_and_second_fix_is_a_no_op(write, tmp_path: Path, capsys) -> None:
    write("train.py", TF1)
    assert main(["fix", str(tmp_path)]) == 0
    err = capsys.readouterr().err
    assert "fixed" in err and "`tf.logging.fatal` left as is: absl.logging.fatal aborts" in err
    report = scan([str(tmp_path)], ScanOptions(jobs=1, select=("TFM502", "TFM503")))
    assert [finding.message.split("`")[1] for finding in report.findings] == [
        "tf.logging.set_verbosity", "tf.logging.INFO", "tf.logging.fatal",
    ]  # set_verbosity is left: TF's also set TensorFlow's own logger
    text = (tmp_path / "train.py").read_text()
    assert main(["fix", "--diff", str(tmp_path)]) == 0
    assert capsys.readouterr().out == ""
    assert (tmp_path / "train.py").read_text() == text


def test_diff_prints_and_exits_1_without_writing(write, tmp_path: Path, capsys) -> None:
    path = write("train.py", TF1)
    assert main(["fix", "--diff", "--quiet", str(path)]) == 1
    out = capsys.readouterr().out
    assert out.startswith(f"--- a/{str(path).lstrip('/')}\n+++ b/{str(path).lstrip('/')}\n")
    assert "-    tf.app.run()\n+    app.run(main)\n" in out
    assert path.read_text() == TF1


def test_usage_errors(tmp_path: Path, capsys) -> None:
    assert main(["fix", str(tmp_path / "missing")]) == 2
    assert "no such file or directory" in capsys.readouterr().err
    assert main(["fix", "--jobs", "-1", str(tmp_path)]) == 2


def test_read_only_file_exits_1(write, tmp_path: Path, capsys) -> None:
    path = write("ro.py", TF1)
    path.chmod(0o444)
    assert main(["fix", str(tmp_path)]) == 1
    assert "read-only" in capsys.readouterr().err
