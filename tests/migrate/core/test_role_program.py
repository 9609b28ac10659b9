"""`migrate.core.role_program`: every role program's exit codes, messages on stderr, and trace file.

TF-free: a program declared here stands for the five role programs (each is
checked on its own flags in tests/legacy/distributed and tests/modern/distributed).
"""
from __future__ import annotations

import argparse
import json

import pytest

from migrate.core.cli import EXIT_FAILED, EXIT_INTERNAL, EXIT_INTERRUPTED, EXIT_OK, EXIT_USAGE
from migrate.core.progress_file import ProgressFile
from migrate.core.role_program import RoleError, RoleFailed, RoleProgram, RoleRecord
from migrate.core.side_trace import Action, Evaluation, Role, read_side_trace, write_side_trace

WORKER_1 = json.dumps({"cluster": {"worker": ["127.0.0.1:1", "127.0.0.1:2"]}, "task": {"type": "worker", "index": 1}})


def _program(body) -> RoleProgram:
    def configure(parser: argparse.ArgumentParser) -> None:
        parser.add_argument("--steps", type=int, required=True)

    return RoleProgram("demo.distributed", "A demo role.", configure, lambda args, environ: body(args, environ))


def _raise(error: BaseException):
    def body(args, environ):
        raise error

    return body


@pytest.mark.parametrize(
    ("body", "code", "message"),
    [
        pytest.param(lambda args, environ: 0, EXIT_OK, "", id="done is 0"),
        pytest.param(_raise(RoleError("TF_CONFIG is not set")), EXIT_USAGE,
                     "demo.distributed (worker 1): error: TF_CONFIG is not set", id="bad input is 2"),
        pytest.param(_raise(RoleFailed("the chief did not initialise the variables within 120 s.")), EXIT_FAILED,
                     "demo.distributed (worker 1): the chief did not initialise the variables within 120 s.",
                     id="a failed cluster is 1, a verdict"),
        pytest.param(_raise(KeyboardInterrupt()), EXIT_INTERRUPTED, "demo.distributed (worker 1): interrupted",
                     id="ctrl-c is 130"),
    ],
)
def test_outcomes_map_to_the_cli_kit_exit_codes_with_the_task_named_on_stderr(monkeypatch, capsys, body, code,
                                                                               message):
    monkeypatch.setenv("TF_CONFIG", WORKER_1)
    assert _program(body).main(["--steps", "3"]) == code
    out, err = capsys.readouterr()
    assert out == "" and err.strip() == message


def test_the_environment_reaches_the_body_read_once(monkeypatch):
    monkeypatch.setenv("TF_CONFIG", WORKER_1)
    seen = {}
    assert _program(lambda args, environ: seen.update(environ) or args.steps - 3).main(["--steps", "3"]) == 0
    assert seen["TF_CONFIG"] == WORKER_1


def test_a_bad_flag_is_a_usage_error_returned_not_raised(capsys):
    assert _program(lambda args, environ: 0).main(["--steps", "many"]) == EXIT_USAGE
    out, err = capsys.readouterr()
    assert out == "" and "usage: python -m demo.distributed" in err and "invalid int value: 'many'" in err


def test_a_bug_is_an_internal_error_with_a_crash_log_never_a_verdict(monkeypatch, capsys, tmp_path):
    monkeypatch.setenv("MIGRATE_CACHE_DIR", str(tmp_path))
    monkeypatch.delenv("TF_CONFIG", raising=False)
    assert _program(_raise(ValueError("a bug"))).main(["--steps", "1"]) == EXIT_INTERNAL
    err = capsys.readouterr().err
    assert "demo.distributed (unknown task): internal error (exit 70, not a verdict): ValueError: a bug" in err
    (log,) = (tmp_path / "crashes").iterdir()
    assert "ValueError: a bug" in log.read_text()


def test_a_roles_trace_is_one_side_trace_written_whole_and_read_back_typed(tmp_path):
    path = tmp_path / "trace.json"
    record = RoleRecord(ProgressFile(tmp_path / "progress.jsonl"))
    record.loss(2, 2.5)
    record.loss(1, float("nan"), pid=7)
    record.act("StepCounterHook", 2)
    record.evaluated(2, {"accuracy": 0.5}, "model.ckpt-2")
    record.act("CheckpointSaverHook", 0)
    trace = record.trace("legacy", Role("chief", "worker:0", final_step=2), {"tensorflow": "2.15.1"}, {"accuracy": 0.5})
    write_side_trace(path, trace)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["progress.jsonl", "trace.json"]
    lines = [json.loads(line) for line in (tmp_path / "progress.jsonl").read_text().splitlines()]
    assert [line["step"] for line in lines] == [2, 1, 2], "a progress line per loss and per evaluation, as they come"
    assert lines[0]["loss"] == 2.5 and lines[1]["pid"] == 7 and lines[2]["checkpoint"] == "model.ckpt-2"
    json.loads(path.read_text())  # strict JSON: the NaN loss is written as an object
    back = read_side_trace(path)
    assert back.role == Role("chief", "worker:0", final_step=2) and list(back.losses) == [1, 2]
    assert back.actions == [Action("CheckpointSaverHook", 0), Action("Evaluation", 2), Action("StepCounterHook", 2)]
    assert back.evaluations == [Evaluation(2, {"accuracy": 0.5}, "model.ckpt-2")]
    assert back.metrics == {"accuracy": 0.5, "global_step": 2}, "the metrics name the step they were taken at"


ROLE_PROGRAM_PACKAGES = ("legacy/distributed", "modern/distributed")
LONGEST_FUNCTION = 70


def test_no_function_of_the_role_programs_is_over_70_lines():
    """The role programs are written as small functions along their seams (graph, hooks, loops, trace)."""
    import ast
    from pathlib import Path

    root = Path(__file__).resolve().parents[3]
    long = []
    for package in ROLE_PROGRAM_PACKAGES:
        for path in sorted((root / package).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    lines = node.end_lineno - node.lineno + 1
                    if lines > LONGEST_FUNCTION:
                        long.append(f"{path.relative_to(root)}:{node.lineno} {node.name} ({lines} lines)")
    assert not long, long
