"""Scaffolds respect the user's edits (a second run writes `.new` beside an edited file), and TF1-only calls in
moved bodies get a TODO."""
from __future__ import annotations

from pathlib import Path

from migrate.cli import main

HOOK = """\
import tensorflow as tf


class StepHook(tf.train.SessionRunHook):
    def after_run(self, run_context, run_values):
        tf.logging.info("step done")
        self.steps = getattr(self, "steps", 0) + 1
"""


def _scaffold(tmp_path: Path, capsys) -> str:
    assert main(["scaffold", str(tmp_path / "src"), "-o", str(tmp_path / "cb")]) == 0
    return capsys.readouterr().err


def test_a_second_run_keeps_an_edited_skeleton_and_writes_new_beside_it(write, tmp_path: Path, capsys) -> None:
    write("src/hooks.py", HOOK)
    _scaffold(tmp_path, capsys)
    generated = tmp_path / "cb" / "step_callback.py"
    first = generated.read_text()
    _scaffold(tmp_path, capsys)
    assert generated.read_text() == first and not (tmp_path / "cb" / "step_callback.py.new").exists()
    generated.write_text(first + "\n# my finished version\n")
    err = _scaffold(tmp_path, capsys)
    assert generated.read_text().endswith("# my finished version\n"), "the user's edit is kept"
    assert (tmp_path / "cb" / "step_callback.py.new").read_text() == first
    assert f"kept your edited {generated}; the new skeleton is {generated}.new" in err


def test_an_unedited_skeleton_is_regenerated_and_a_foreign_file_is_kept(write, tmp_path: Path, capsys) -> None:
    write("src/hooks.py", HOOK)
    write("cb/other_callback.py", "# mine, not generated\n")
    write("src/other.py", HOOK.replace("StepHook", "OtherHook"))
    _scaffold(tmp_path, capsys)
    assert (tmp_path / "cb" / "other_callback.py").read_text() == "# mine, not generated\n"
    assert (tmp_path / "cb" / "other_callback.py.new").exists()
    write("src/hooks.py", HOOK.replace('"step done"', '"changed"'))
    _scaffold(tmp_path, capsys)
    assert '"changed"' in (tmp_path / "cb" / "step_callback.py").read_text(), "an untouched skeleton follows the hook"
    assert not (tmp_path / "cb" / "step_callback.py.new").exists()


def test_a_tf1_only_call_in_a_moved_body_gets_a_todo(write, tmp_path: Path, capsys) -> None:
    write("src/hooks.py", HOOK)
    _scaffold(tmp_path, capsys)
    lines = (tmp_path / "cb" / "step_callback.py").read_text().splitlines()
    call = next(index for index, line in enumerate(lines) if 'logging.info("step done")' in line)
    assert lines[call - 1].strip() == (
        "# TODO(migrate): `tf.logging.info` does not exist in TF2: use absl.logging (`migrate fix` rewrites it)")


def test_a_call_through_tf_compat_v1_runs_on_tf2_and_gets_no_todo(write, tmp_path: Path, capsys) -> None:
    write("src/hooks.py", HOOK.replace("import tensorflow as tf", "import tensorflow.compat.v1 as tf"))
    _scaffold(tmp_path, capsys)
    assert "TODO(migrate): `tf" not in (tmp_path / "cb" / "step_callback.py").read_text()
