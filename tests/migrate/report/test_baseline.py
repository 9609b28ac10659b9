"""`migrate report --baseline / --write-baseline`: only new findings fail, whatever moved around them."""
from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from migrate.cli import main

TRAIN = """\
import tensorflow as tf


def model_fn(features, labels, mode):
    x = tf.placeholder(tf.float32, [None, 784])
    tf.logging.info("building")
    return tf.estimator.EstimatorSpec(mode, loss=tf.reduce_sum(x))


def train():
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
"""


@pytest.fixture
def tree(write, tmp_path: Path) -> Path:
    write("src/train.py", TRAIN)
    write("src/pkg/util.py", "import tensorflow as tf\nsaver = tf.train.Saver()\n")
    assert main(["report", str(tmp_path / "src"), "--write-baseline", str(tmp_path / "baseline.json")]) == 0
    return tmp_path


def report_json(tree: Path, capsys) -> tuple[int, list[dict], str]:
    code = main(["report", str(tree / "src"), "--baseline", str(tree / "baseline.json"), "--format", "json"])
    captured = capsys.readouterr()
    return code, json.loads(captured.out)["findings"], captured.err


def test_unchanged_tree_passes(tree: Path, capsys) -> None:
    code, findings, err = report_json(tree, capsys)
    assert (code, findings) == (0, [])
    assert "0 new finding(s)" in err


def test_one_added_line_is_exactly_one_new_finding(tree: Path, capsys) -> None:
    path = tree / "src" / "train.py"
    lines = path.read_text().splitlines(keepends=True)
    lines.insert(1, "\n# a new helper\nsess = tf.Session()\n")
    path.write_text("".join(lines))
    code, findings, _ = report_json(tree, capsys)
    assert code == 1
    assert [(finding["code"], finding["line"]) for finding in findings] == [("TFM303", 4)]


def test_a_copy_of_a_baselined_line_is_new(tree: Path, capsys) -> None:
    path = tree / "src" / "pkg" / "util.py"
    path.write_text(path.read_text() + "saver = tf.train.Saver()\n")
    code, findings, _ = report_json(tree, capsys)
    assert code == 1 and [(finding["code"], finding["line"]) for finding in findings] == [("TFM505", 3)]


def test_reindenting_and_moving_code_still_passes(tree: Path, capsys) -> None:
    path = tree / "src" / "train.py"
    text = path.read_text().replace("    ", "  ")
    path.write_text("# moved down by a header\n\n\n" + text)
    code, findings, _ = report_json(tree, capsys)
    assert (code, findings) == (0, [])


def test_fixed_findings_are_counted_as_gone(tree: Path, capsys) -> None:
    (tree / "src" / "pkg" / "util.py").write_text("import os\n")
    code, _, err = report_json(tree, capsys)
    assert code == 0 and "1 baselined finding(s) are gone" in err


def test_baseline_paths_do_not_depend_on_the_working_directory(tree: Path, capsys, monkeypatch) -> None:
    monkeypatch.chdir(tree / "src")
    assert main(["report", ".", "--baseline", os.path.join("..", "baseline.json")]) == 0
    entries = json.loads((tree / "baseline.json").read_text())["findings"]
    assert {entry["path"] for entry in entries} == {"src/train.py", "src/pkg/util.py"}


@pytest.mark.parametrize(
    ("content", "message"),
    [
        pytest.param(None, "does not exist", id="missing"),
        pytest.param("{not json", "not readable JSON", id="corrupt"),
        pytest.param('{"format": "other"}', "not a migrate report baseline", id="another format"),
    ],
)
def test_unusable_baseline_is_a_usage_error(content, message, write, tmp_path: Path, capsys) -> None:
    write("a.py", "import tensorflow as tf\ntf.Session()\n")
    if content is not None:
        write("baseline.json", content)
    assert main(["report", str(tmp_path / "a.py"), "--baseline", str(tmp_path / "baseline.json")]) == 2
    assert message in capsys.readouterr().err


def test_notebook_findings_match_by_cell_line_text(write, tmp_path: Path, capsys) -> None:
    cell = {"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": None}
    notebook = {"cells": [{**cell, "source": "import tensorflow as tf\nsess = tf.Session()\n"}], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    path = write("n.ipynb", json.dumps(notebook))
    baseline = str(tmp_path / "b.json")
    assert main(["report", str(path), "--write-baseline", baseline]) == 0
    notebook["cells"].insert(0, {"cell_type": "markdown", "metadata": {}, "source": "# title"})
    notebook["cells"][1]["source"] = "import tensorflow as tf\n\n\nsess = tf.Session()\n"
    path.write_text(json.dumps(notebook))
    assert main(["report", str(path), "--baseline", baseline]) == 0


def test_a_partial_run_counts_and_rewrites_only_its_own_files(tree: Path, capsys) -> None:
    """pre-commit passes the staged files only: the other files' entries are neither gone nor dropped."""
    one = str(tree / "src" / "pkg" / "util.py")
    baseline = str(tree / "baseline.json")
    assert main(["report", one, "--baseline", baseline]) == 0
    assert "gone" not in capsys.readouterr().err
    before = json.loads(Path(baseline).read_text())["findings"]
    assert main(["report", one, "--write-baseline", baseline]) == 0
    assert json.loads(Path(baseline).read_text())["findings"] == before
    (tree / "src" / "pkg" / "util.py").write_text("import os\n")
    assert main(["report", one, "--baseline", baseline]) == 0
    assert "1 baselined finding(s) are gone" in capsys.readouterr().err
    assert main(["report", one, "--write-baseline", baseline]) == 0
    after = json.loads(Path(baseline).read_text())["findings"]
    assert {entry["path"] for entry in after} == {"src/train.py"} and len(after) == len(before) - 1
