"""The one CLI kit: exit codes, error messages, validators and a closed stdout, for all three programs."""
from __future__ import annotations

import argparse
import gc
import os
import subprocess
import sys
from pathlib import Path

import pytest

from migrate.core.cli import (
    EXIT_INTERNAL,
    Command,
    CommandFailed,
    Program,
    UsageError,
    non_negative_int,
    positive_float,
    positive_int,
    rate,
    run_commands,
)

ROOT = Path(__file__).resolve().parents[3]
PROGRAM = Program(prog="demo", description="a demo program", interrupted_hint="; run it again")


def _command(outcome):
    def run(args: argparse.Namespace) -> int:
        return outcome(args)

    return Command("go", "run the outcome", lambda parser: parser.add_argument("--n", type=positive_int), run)


def _raise(error: BaseException):
    def outcome(args: argparse.Namespace) -> int:
        raise error

    return outcome


@pytest.mark.parametrize(
    ("outcome", "code", "message"),
    [
        pytest.param(lambda args: 0, 0, "", id="success returns the command's code"),
        pytest.param(lambda args: 1, 1, "", id="a found problem returns 1"),
        pytest.param(_raise(UsageError("no such file x")), 2, "demo go: error: no such file x", id="usage error is 2"),
        pytest.param(_raise(CommandFailed("the loss became NaN")), 1, "demo go: the loss became NaN", id="failure is 1"),
        pytest.param(_raise(KeyboardInterrupt()), 130, "demo go: interrupted; run it again", id="ctrl-c is 130"),
    ],
)
def test_outcomes_map_to_exit_codes(capsys, outcome, code, message):
    assert run_commands(PROGRAM, [_command(outcome)], ["go"]) == code
    assert capsys.readouterr().err.strip() == message


def test_a_bug_is_an_internal_error_with_its_traceback_in_a_file(capsys, tmp_path, monkeypatch):
    monkeypatch.setenv("MIGRATE_CACHE_DIR", str(tmp_path))
    assert run_commands(PROGRAM, [_command(_raise(ValueError("a bug")))], ["go"]) == EXIT_INTERNAL != 1
    err = capsys.readouterr().err
    assert "demo go: internal error (exit 70, not a verdict): ValueError: a bug" in err
    (log,) = (tmp_path / "crashes").iterdir()
    assert f"the traceback is in {log}" in err
    assert "Traceback (most recent call last)" in log.read_text() and "ValueError: a bug" in log.read_text()


@pytest.mark.parametrize(
    ("module", "extra"),
    [("tensorflow", "tf1-migrate[tf215]"), ("numpy.core", "tf1-migrate[tf215]"),
     ("tensorflow_estimator", "tf1-migrate[tf215]")],
)
def test_a_missing_extra_is_a_usage_error_naming_the_extra(capsys, module, extra):
    missing = ModuleNotFoundError(f"No module named '{module}'", name=module)
    assert run_commands(PROGRAM, [_command(_raise(missing))], ["go"]) == 2
    err = capsys.readouterr().err
    assert f"demo go: error: this command needs `{module.partition('.')[0]}`, which is not installed" in err
    assert extra in err


def test_a_missing_module_no_extra_provides_is_an_internal_error(capsys, tmp_path, monkeypatch):
    monkeypatch.setenv("MIGRATE_CACHE_DIR", str(tmp_path))
    missing = ModuleNotFoundError("No module named 'my_pair_helpers'", name="my_pair_helpers")
    assert run_commands(PROGRAM, [_command(_raise(missing))], ["go"]) == EXIT_INTERNAL


def test_no_command_prints_help_and_is_a_usage_error(capsys):
    assert run_commands(PROGRAM, [_command(lambda args: 0)], []) == 2
    assert "a demo program" in capsys.readouterr().err


def test_bad_flag_value_is_a_usage_error(capsys):
    assert run_commands(PROGRAM, [_command(lambda args: 0)], ["go", "--n", "0"]) == 2
    assert "must be a positive integer, got 0" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("validator", "good", "bad"),
    [
        (positive_int, ["1", "20"], ["0", "-3", "1.5", "x"]),
        (non_negative_int, ["0", "7"], ["-1", "x"]),
        (positive_float, ["1e-3", "2"], ["0", "-1", "nan", "x"]),
        (rate, ["0", "0.5"], ["1", "-0.1", "x"]),
    ],
)
def test_validators(validator, good, bad):
    for text in good:
        validator(text)
    for text in bad:
        with pytest.raises(argparse.ArgumentTypeError, match="must be"):
            validator(text)


@pytest.mark.parametrize(
    ("command", "code"),
    [
        pytest.param(["-m", "migrate", "rules"], 141, id="migrate rules"),
        pytest.param(["-m", "migrate", "hooks"], 141, id="migrate hooks"),
        pytest.param(["-m", "legacy", "--help"], 0, id="legacy help (argparse drops the text itself)",
                     marks=pytest.mark.tensorflow),
        pytest.param(["-m", "modern", "--help"], 0, id="modern help (argparse drops the text itself)",
                     marks=pytest.mark.tensorflow),
    ],
)
def test_a_closed_stdout_ends_quietly(command, code):
    """`migrate rules | head -1`: the reader is gone before the first write; no BrokenPipeError traceback."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "TF_CPP_MIN_LOG_LEVEL": "3"}
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        finished = subprocess.run([sys.executable, *command], stdout=write_end, stderr=subprocess.PIPE, env=env,
                                  cwd=ROOT, timeout=120)
    finally:
        os.close(write_end)
    stderr = finished.stderr.decode()
    assert "Traceback" not in stderr and "BrokenPipe" not in stderr, stderr
    assert finished.returncode == code


@pytest.mark.tensorflow
@pytest.mark.parametrize("program", ["legacy", "modern"])
def test_training_clis_share_flag_names(program):
    """The same setting has the same flag on both sides, so a command line moves across unchanged."""
    module = __import__(f"{program}.cli", fromlist=["COMMANDS"])
    train = next(command for command in module.COMMANDS if command.name == "train")
    parser = argparse.ArgumentParser()
    train.configure(parser)
    flags = {option for action in parser._actions for option in action.option_strings}
    assert {"--model-dir", "--data-dir", "--steps", "--batch-size", "--learning-rate", "--optimizer",
            "--dropout-rate", "--seed", "--save-checkpoints-steps", "--log-step-count-steps"} <= flags


_STANDALONE_PROGRAM = """
import atexit, gc, sys, threading, time
from migrate.core.cli import Command, Program, run_commands

class Finalised:
    def __del__(self):
        print("teardown ran", flush=True)

KEPT = Finalised()  # freed only when the interpreter tears down
atexit.register(lambda: print("exit handlers ran", flush=True))

def run(args):
    print(f"collector {'on' if gc.isenabled() else 'off'}")  # left in the buffer: stdout is a pipe
    if args.thread:
        threading.Thread(target=lambda: (time.sleep(0.5), print("thread finished")), daemon=False).start()
    return 3

def configure(parser):
    parser.add_argument("--thread", action="store_true")

commands = [Command("quick", "", configure, run, quick_exit=True), Command("slow", "", configure, run)]
sys.exit(run_commands(Program("demo", ""), commands, sys.argv[1:], standalone=True))
"""


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        pytest.param(["quick"], ["collector off", "exit handlers ran"], id="quick exit: no teardown, no collector"),
        pytest.param(["slow"], ["collector on", "exit handlers ran", "teardown ran"], id="other commands exit normally"),
        pytest.param(["quick", "--thread"], ["collector off", "thread finished", "exit handlers ran", "teardown ran"],
                     id="a running thread makes quick exit wait: a normal exit"),
    ],
)
def test_a_standalone_program_ends_a_quick_exit_command_without_teardown(tmp_path, argv, expected):
    """`quick_exit` commands (`migrate report`) run with the collector paused and end with `os._exit`,
    after the exit handlers and with stdout flushed; the exit code is the command's."""
    script = tmp_path / "demo.py"
    script.write_text(_STANDALONE_PROGRAM)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    finished = subprocess.run([sys.executable, str(script), *argv], capture_output=True, text=True, env=env, timeout=60)
    assert finished.returncode == 3, finished.stderr
    assert finished.stdout.splitlines() == expected


def test_run_commands_restores_the_collector():
    """In-process (tests, library use) the collector is back as it was, whatever the command;
    a command that is not `quick_exit` runs with it on even in a standalone program."""
    seen = []
    quick = Command("go", "", lambda parser: None, lambda args: seen.append(gc.isenabled()) or 0, quick_exit=True)
    assert gc.isenabled()
    assert run_commands(PROGRAM, [quick], ["go"]) == 0
    assert run_commands(PROGRAM, [quick._replace(quick_exit=False)], ["go"], standalone=True) == 0
    assert seen == [True, True] and gc.isenabled()
