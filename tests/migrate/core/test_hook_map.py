"""The hook → callback map read from `modern/callbacks/*.py` metadata, and `migrate hooks`. TF-free."""
from __future__ import annotations

import ast
import subprocess
import sys

import pytest

from migrate.cli import main
from migrate.core.hook_map import callbacks_directory, equivalent_for, load_hook_map, markdown_table, read_metadata

EXPECTED = {
    "CheckpointInputPipelineHook": (None, "checkpoint_input_pipeline.py"),
    "CheckpointSaverHook": ("CheckpointSaver", "checkpoint_saver.py"),
    "EventRecorderHook": ("EventRecorder", "event_recorder.py"),
    "FeedFnHook": (None, "feed_fn.py"),
    "FinalOpsHook": ("FinalOps", "final_ops.py"),
    "GlobalStepWaiterHook": (None, "global_step_waiter.py"),
    "InMemoryEvaluatorHook": ("InMemoryEvaluator", "in_memory_evaluator.py"),
    "IteratorInitializerHook": (None, "iterator_initializer.py"),
    "LoggingTensorHook": ("LoggingTensor", "logging_tensor.py"),
    "NanTensorHook": ("NanTensor", "nan_tensor.py"),
    "ProfilerHook": ("Profiler", "profiler.py"),
    "StepCounterHook": ("StepCounter", "step_counter.py"),
    "StopAtStepHook": ("StopAtStep", "stop_at_step.py"),
    "StopOnConditionHook": ("StopOnCondition", "stop_on_condition.py"),
    "SummarySaverHook": ("SummarySaver", "summary_saver.py"),
    "SyncReplicasOptimizer.make_session_run_hook": (None, "sync_replicas.py"),
    "make_stop_at_checkpoint_step_hook": (None, "stop_at_checkpoint_step.py"),
    "stop_if_no_decrease_hook": ("EarlyStopping", "early_stopping.py"),
}


def test_every_hook_has_its_callback_and_file():
    for hook, (callback, filename) in EXPECTED.items():
        entry = equivalent_for(hook)
        assert entry is not None, hook
        assert entry.callback == callback and entry.path == f"modern/callbacks/{filename}"
        assert entry.differences and entry.methods


def test_every_callback_file_declares_metadata_naming_a_class_it_defines():
    files = [path for path in sorted(callbacks_directory().glob("*.py")) if path.name != "__init__.py"]
    assert len(files) == 18
    for path in files:
        metadata = read_metadata(path)
        assert metadata is not None, f"{path.name} lacks TF1_EQUIVALENT"
        tree = ast.parse(path.read_text())
        classes = {node.name for node in tree.body if isinstance(node, ast.ClassDef)}
        if metadata["callback"] is None:
            assert not classes, f"{path.name} says 'no class' but defines {classes}"
        else:
            assert metadata["callback"] in classes, path.name
        docstring = ast.get_docstring(tree)
        assert docstring and any(hook in docstring for hook in metadata["hooks"]), path.name


def test_reading_the_map_imports_no_tensorflow():
    code = (
        "import sys; from migrate.cli import main; main(['hooks']); "
        "assert 'tensorflow' not in sys.modules and 'keras' not in sys.modules"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[0].startswith("| TF1 hook | Keras callback |")


def test_migrate_hooks_prints_the_table(capsys):
    assert main(["hooks"]) == 0
    out = capsys.readouterr().out
    assert out.strip() == markdown_table(load_hook_map())
    assert "| `StopAtStepHook` | `StopAtStep` |" in out and "*(no class: see file)*" in out


def test_migrate_hooks_bad_directory(capsys, tmp_path):
    assert main(["hooks", "--callbacks-dir", str(tmp_path / "missing")]) == 2
    assert "is not a directory" in capsys.readouterr().err


def test_every_callback_says_what_it_does_on_a_non_chief_worker():
    """Keras runs callbacks on every worker, TF1 often ran hooks on the chief only: each row with a class says so."""
    for entry in load_hook_map():
        if entry.callback is not None:
            assert any(line.startswith("multi-worker:") for line in entry.differences), entry.path


def test_the_docs_table_lists_every_hook_with_its_page():
    """docs/reference/callbacks/ is generated from this map (`python -m migrate.docs`; tests/docs checks it is
    current): every hook has its row, linking to the page of its file."""
    from pathlib import Path

    docs = Path(__file__).resolve().parents[3] / "docs" / "reference" / "callbacks"
    table = (docs / "index.md").read_text(encoding="utf-8")
    for entry in load_hook_map():
        page = f"{Path(entry.path).stem}.md"
        rows = [line for line in table.splitlines() if line.startswith(f"| `{entry.hook}` |")]
        assert len(rows) == 1 and f"]({page}) |" in rows[0], entry.hook
        assert (docs / page).is_file(), page


def test_readme_option_rewrites_only_between_markers(tmp_path, capsys):
    from migrate.commands.hooks import BEGIN_MARKER, END_MARKER

    document = tmp_path / "doc.md"
    document.write_text(f"intro\n{BEGIN_MARKER}\nstale\n{END_MARKER}\noutro\n")
    assert main(["hooks", "--readme", str(document)]) == 0
    text = document.read_text()
    assert text.startswith("intro\n") and text.endswith(f"{END_MARKER}\noutro\n")
    assert "stale" not in text and "| `StopAtStepHook` | `StopAtStep` |" in text
    document.write_text("no markers here\n")
    assert main(["hooks", "--readme", str(document)]) == 2


def _full_parse_metadata(text: str) -> dict | None:
    for node in ast.parse(text).body:
        if isinstance(node, ast.Assign) and [getattr(target, "id", None) for target in node.targets] == ["TF1_EQUIVALENT"]:
            return ast.literal_eval(node.value)
    return None


def test_the_cut_out_literal_reads_what_a_whole_file_parse_reads():
    for path in sorted(callbacks_directory().glob("*.py")):
        assert read_metadata(path) == _full_parse_metadata(path.read_text()), path.name


@pytest.mark.parametrize(
    "text",
    [
        pytest.param('"""Docs.\n\nTF1_EQUIVALENT = {"hooks": ["Fake"]}\n"""\nX = 1\n', id="a literal in a docstring is not metadata"),
        pytest.param('"""Mentions TF1_EQUIVALENT."""\nTF1_EQUIVALENT = {\n"hooks": ["A"], "callback": None,\n'
                     '"methods": {}, "differences": []}\n', id="a key at column 0 inside the literal"),
        pytest.param('X = 1; TF1_EQUIVALENT = {"hooks": ["B"], "callback": None, "methods": {}, "differences": []}\n',
                     id="metadata after a semicolon"),
    ],
)
def test_metadata_the_cut_out_cannot_read_safely_comes_from_the_whole_file(text, tmp_path):
    path = tmp_path / "callback.py"
    path.write_text(text)
    assert read_metadata(path) == _full_parse_metadata(text)
