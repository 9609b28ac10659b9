"""The parity option set is written once (TensorFlow-free): the command line, `check_parity` and `config_for` agree.

Each test fails when one of them gains, loses or reads an option on its own: a flag
added beside the option set, a keyword `check_parity` takes that the command line
lacks (the old `optimizer_flavour` drift), an option nothing reads.
"""
from __future__ import annotations

import argparse
import dataclasses
import inspect

import pytest

from migrate.commands import parity as parity_command
from migrate.parity.api import check_parity
from migrate.parity.config import config_for
from migrate.parity.options import SPECS, ConfigError, ParityOptions, from_args
from migrate.parity.pair import pair_from

READ_BY_THE_RUN = {
    "serving": "run_parity (its options): whether stage 6 runs",
    "serving_tolerance": "run_parity (its options): the answers' tolerance",
    "progress": "where run_parity's messages go",
}
"""Options the run reads rather than `config_for` (so `ParityConfig` does not change with them), and where."""

CHANGED = {
    "steps": 7, "mode": "statistical", "seed": 1, "params": {"units": 3}, "optimizer": "adam",
    "optimizer_flavour": "native", "batch_size": 8, "learning_rate": 0.5, "scenarios": ("train-steps",),
    "accuracy_bar": 0.5, "max_accuracy_gap_points": 2.0, "modern_overrides": {"units": 4}, "loss_tolerance": 1e-3,
    "schedule": "rounding", "forward_tolerance": 1e-6, "serving": False, "serving_tolerance": 1e-3,
    "progress": print,
}
"""A value other than the default for every option (a new option must be added here, or this test fails)."""


def make_pair():
    functions = {name: (lambda *args: None) for name in ("model_fn", "train_input_fn", "build_model", "train_dataset")}
    return pair_from({**functions, "legacy_scenarios": lambda params, workdir: {},
                      "modern_scenarios": lambda params, model: {}}, name="p", origin="p.py")


def command_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser()
    parity_command.configure(parser)
    return parser


def test_check_parity_takes_exactly_the_options_after_the_pair():
    parameters = list(inspect.signature(check_parity).parameters.values())
    assert parameters[0].kind is inspect.Parameter.POSITIONAL_ONLY
    assert [(each.name, each.default, each.kind) for each in parameters[1:]] == [
        (each.name, each.default, inspect.Parameter.KEYWORD_ONLY) for each in dataclasses.fields(ParityOptions)]
    assert "optimizer_flavour" in inspect.signature(check_parity).parameters  # the option it once lacked
    for name in SPECS:
        assert f"    {name}=" in (check_parity.__doc__ or ""), f"check_parity's docstring does not list {name}"


def test_an_unknown_keyword_is_refused_with_the_known_ones():
    with pytest.raises(TypeError, match=r"check_parity\(\) takes the pair and keyword options \(steps, mode, .*got stepz"):
        check_parity("mnist", stepz=3)


def test_every_option_with_a_flag_is_a_flag_of_the_command_and_only_once():
    spellings = [action.option_strings for action in command_parser()._actions]
    flat = [spelling for each in spellings for spelling in each]
    for name, spec in SPECS.items():
        if spec.flag is not None:
            assert flat.count(spec.flag.spelling) == 1, f"{name}: {spec.flag.spelling} is not one flag of the command"


def test_the_command_line_defaults_are_the_api_defaults_but_the_documented_ones():
    from_the_command_line = from_args(command_parser().parse_args([]), progress=ParityOptions().progress)
    differing = {name for name in SPECS if getattr(from_the_command_line, name) != getattr(ParityOptions(), name)}
    documented = {name for name, spec in SPECS.items() if spec.flag is not None and "default" in spec.flag.arguments}
    assert differing == documented == {"scenarios"}


def test_each_flag_reaches_its_option():
    argv = ["--steps", "7", "--mode", "statistical", "--seed", "1", "--param", "units=3", "--optimizer", "adam",
            "--optimizer-flavour", "native", "--batch-size", "8", "--learning-rate", "0.5", "--scenarios", "train-steps",
            "--accuracy-bar", "0.5", "--max-accuracy-gap", "2", "--modern-override", "units=4", "--loss-tolerance",
            "1e-3", "--schedule", "rounding", "--forward-tolerance", "1e-6", "--no-serving", "--serving-tolerance", "1e-3"]
    given = from_args(command_parser().parse_args(argv), progress=print)
    assert {name: getattr(given, name) for name in SPECS} == CHANGED


def test_every_option_is_read_by_config_for_or_by_the_run():
    assert set(CHANGED) == set(SPECS), "give every option a changed value in CHANGED"
    baseline = config_for(make_pair(), ParityOptions(mode="statistical", steps=2000))
    for name in SPECS:
        if name in ("mode", "steps"):
            continue
        config = config_for(make_pair(), ParityOptions(mode="statistical", steps=2000, **{name: CHANGED[name]}))
        changed = config != baseline
        assert changed == (name not in READ_BY_THE_RUN), f"{name}: config_for {'ignores' if not changed else 'reads'} it"


@pytest.mark.parametrize(("name", "value"), [
    pytest.param("mode", "fast", id="mode"),
    pytest.param("optimizer_flavour", "bespoke", id="optimizer flavour"),
    pytest.param("schedule", "loose", id="schedule"),
    pytest.param("scenarios", ("warp-drive",), id="scenarios"),
])
def test_a_value_outside_the_allowed_ones_is_refused_the_same_way_by_both(name, value):
    with pytest.raises(ConfigError, match=rf"{name} \(--[a-z-]+\): '{value if isinstance(value, str) else value[0]}' "
                                          "is not one of"):
        ParityOptions(**{name: value})
    flag = SPECS[name].flag
    assert flag is not None
    text = value if isinstance(value, str) else ",".join(value)
    parser = command_parser()
    try:
        args = parser.parse_args([flag.spelling, text])
    except SystemExit as refused:  # argparse's own refusal of a choice: exit 2
        assert refused.code == 2
    else:
        with pytest.raises(ConfigError, match="is not one of"):
            from_args(args)
