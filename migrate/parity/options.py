"""The parity option set, written once: every choice a caller makes about a parity run.

`ParityOptions` is the one definition. `migrate parity`'s flags are made from
it (`add_flags`, read back by `from_args`), `check_parity`'s keyword arguments
are its fields (`takes_options` gives the function its signature, for type
checkers and `help()` alike), `config_for` reads it, and the reference page
`docs/reference/parity-options.md` is generated from it. Add an option here
and all four follow; a test fails if any of them lists an option of its own.
Flags that only make sense on the command line (`--pair`, `--out`, `--side`,
`--record`, `--against`, `--data-dir`, `--show-mapping`, the distributed ones)
stay in `migrate.commands.parity`. Standard library only.
"""
from __future__ import annotations

import argparse
import functools
import inspect
import operator
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields
from typing import Any, Concatenate, NamedTuple, ParamSpec, TypeVar

from migrate.core.scenarios import SCENARIOS
from migrate.parity.tolerance import NAMED

MODES = ("exact", "statistical")
PARAM_SHORTCUTS = ("optimizer", "batch_size", "learning_rate")
"""Options that set the params entry of their name (`--optimizer NAME` is `--param optimizer=NAME`, and more)."""
OPTIMIZER_FLAVOURS = ("exact", "native")
Progress = Callable[[str], None]


class ConfigError(ValueError):
    """Settings that cannot run (non-positive steps, an unknown mode); the message names the setting."""


def to_stderr(message: str) -> None:
    """Progress goes to stderr (where pytest captures it)."""
    print(message, file=sys.stderr, flush=True)


def parse_value(text: str) -> Any:
    """A `KEY=VALUE` value: true/false, an int, a float, else the text."""
    lowered = text.lower()
    if lowered in ("true", "false"):
        return lowered == "true"
    for convert in (int, float):
        try:
            return convert(text)
        except ValueError:
            pass
    return text


def parse_assignments(items: list[str] | None, flag: str) -> dict[str, Any] | None:
    """Repeated `KEY=VALUE` flags as a dict; None when none is given (the API's default)."""
    assigned = {}
    for item in items or []:
        key, separator, value = item.partition("=")
        if not separator or not key:
            raise ConfigError(f"{flag} expects KEY=VALUE, got {item!r}")
        assigned[key] = parse_value(value)
    return assigned or None


def parse_scenarios(text: str) -> tuple[str, ...]:
    """`all` (the command line's default), `none`, or comma-separated scenario names."""
    if text == "all":
        return tuple(SCENARIOS)
    if text == "none":
        return ()
    return tuple(name.strip() for name in text.split(",") if name.strip())


class Flag(NamedTuple):
    """How one option is spelled on the `migrate parity` command line.

    `arguments` go to argparse's `add_argument` with the option's help and allowed values: a `type`, a
    `metavar`, ``action="append"`` for a repeated flag, ``action="store_true"`` for a `--no-X` switch. `parse`
    turns what argparse stored into the option's value (`--param` items into a dict, `--no-serving` into
    serving=False); a flag without it stores the option's value, its default the API's.
    """

    spelling: str
    arguments: Mapping[str, Any] = {}
    parse: Callable[[Any], Any] | None = None

    @property
    def dest(self) -> str:
        """The argparse attribute: the spelling without dashes (`--no-serving` → `no_serving`)."""
        return self.spelling.lstrip("-").replace("-", "_")


class OptionSpec(NamedTuple):
    """What one option means (`help`), its command-line flag (None: the API only) and its allowed values."""

    help: str
    flag: Flag | None
    choices: tuple[str, ...] | None = None


def option(help: str, flag: Flag | None, default: Any = None, choices: tuple[str, ...] | None = None) -> Any:
    """A `ParityOptions` field: its default, what it means, its flag and its allowed values."""
    return field(default=default, metadata={"spec": OptionSpec(help, flag, choices)})


@dataclass(frozen=True, kw_only=True)
class ParityOptions:
    """Every choice about a parity run that the command line and `check_parity` share (see the module docstring)."""

    steps: int | None = option(
        "training steps (default: the pair's STEPS, else 200 exact / 2000 statistical)", Flag("--steps", {"type": int}))
    mode: str = option(
        "exact: per-step losses under the optimizer's tolerance; statistical: the metrics decide",
        Flag("--mode"), "exact", MODES)
    seed: int = option("the seed both sides get in params", Flag("--seed", {"type": int}), 42)
    params: Mapping[str, Any] | None = option(
        "set entries of params for both sides (on the command line: numbers, true/false, or text)",
        Flag("--param", {"metavar": "KEY=VALUE", "action": "append"}, lambda items: parse_assignments(items, "--param")))
    optimizer: str | None = option(
        "shortcut for --param optimizer=NAME (MNIST pair: sgd or adam)", Flag("--optimizer"))
    optimizer_flavour: str | None = option(
        "MNIST pair: the Keras side's optimizer — exact (default): the TF1-exact twin from modern/optimizers, "
        "bit-identical; native: Keras' own, which drifts (shortcut for --modern-override optimizer_flavour=NAME)",
        Flag("--optimizer-flavour"), None, OPTIMIZER_FLAVOURS)
    batch_size: int | None = option("shortcut for --param batch_size=N", Flag("--batch-size", {"type": int}))
    learning_rate: float | None = option("shortcut for --param learning_rate=X", Flag("--learning-rate", {"type": float}))
    scenarios: tuple[str, ...] = option(
        f"the event scenarios the pair runs ({', '.join(SCENARIOS)}); on the command line comma-separated, "
        "'all' (the command's default) or 'none' (check_parity's default)",
        Flag("--scenarios", {"default": "all"}, parse_scenarios), (), tuple(SCENARIOS))
    accuracy_bar: float | None = option(
        "minimum accuracy for both (default: the pair's ACCURACY_BAR)", Flag("--accuracy-bar", {"type": float}))
    max_accuracy_gap_points: float | None = option(
        "allowed |Δ metric| in points (default: 0 for exact sgd, else 0.5)", Flag("--max-accuracy-gap", {"type": float}))
    modern_overrides: Mapping[str, Any] | None = option(
        "change modern params only (e.g. adam_epsilon=1e-7) to see what parity reports",
        Flag("--modern-override", {"metavar": "KEY=VALUE", "action": "append"},
             lambda items: parse_assignments(items, "--modern-override")))
    loss_tolerance: float | None = option(
        "allowed relative |Δloss| at every step, instead of the optimizer's schedule",
        Flag("--loss-tolerance", {"type": float, "metavar": "REL"}))
    schedule: str | None = option(
        f"hold the per-step losses to a named tolerance schedule whatever the optimizer: {', '.join(NAMED)} "
        "(default: the pair's TOLERANCE_SCHEDULE, else by optimizer)", Flag("--schedule", {"metavar": "NAME"}),
        None, tuple(NAMED))
    forward_tolerance: float = option(
        "allowed max |Δ| of the forward-pass outputs", Flag("--forward-tolerance", {"type": float, "metavar": "ABS"}), 0.0)
    serving: bool = option(
        "stage 6 (export both sides, compare signatures and answers) for a pair that defines it: "
        "serving=False, --no-serving, skips it", Flag("--no-serving", {"action": "store_true"}, operator.not_), True)
    serving_tolerance: float = option(
        "allowed max |Δ| of the SavedModels' floating-point answers (e.g. against a trace of another "
        "TensorFlow version whose losses drift)", Flag("--serving-tolerance", {"type": float, "metavar": "ABS"}), 0.0)
    progress: Progress = option("where progress messages go (the command prints them to stderr)", None, to_stderr)

    def __post_init__(self) -> None:
        for name, spec in SPECS.items():
            value = getattr(self, name)
            given = value if isinstance(value, tuple) else (value,)
            unknown = [item for item in given if item is not None and spec.choices is not None and item not in spec.choices]
            if unknown and spec.choices is not None:  # the option by both spellings: `mode (--mode)`
                named = f"{name} ({spec.flag.spelling})" if spec.flag is not None else name
                raise ConfigError(f"{named}: {', '.join(map(repr, unknown))} is not one of {', '.join(spec.choices)}")


SPECS: dict[str, OptionSpec] = {each.name: each.metadata["spec"] for each in fields(ParityOptions)}
"""Option name → its spec, in declaration order."""
FLAGS: dict[str, Flag] = {name: spec.flag for name, spec in SPECS.items() if spec.flag is not None}
"""Option name → its command-line flag, for the options that have one."""


def default_text(name: str) -> str:
    """An option's API default as written in docs: `42`, `None`, `{}`, `to_stderr`."""
    default = getattr(ParityOptions(), name)
    return getattr(default, "__name__", None) or repr(default)


def add_flags(parser: argparse.ArgumentParser) -> None:
    """One argparse flag per option that has one, in their own group (`dest`s as the spellings make them)."""
    group = parser.add_argument_group(
        "parity options (check_parity's keyword arguments, named in docs/reference/parity-options.md)")
    for name, flag in FLAGS.items():
        # a flag with a parse stores what was given (None if nothing was), ParityOptions checks it
        stored = {} if flag.parse is not None else {"default": getattr(ParityOptions(), name),
                                                    "choices": SPECS[name].choices}
        group.add_argument(flag.spelling, help=SPECS[name].help, **stored, **flag.arguments)


def from_args(args: argparse.Namespace, **api_only: Any) -> ParityOptions:
    """The options the command line gave (`api_only`: the fields without a flag, e.g. `progress`)."""
    given: dict[str, Any] = dict(api_only)
    for name, flag in FLAGS.items():
        value = getattr(args, flag.dest)
        given[name] = flag.parse(value) if flag.parse is not None else value
    return ParityOptions(**given)


P = ParamSpec("P")
R = TypeVar("R")
S = TypeVar("S")


def takes_options(options: Callable[P, ParityOptions]) -> Callable[
        [Callable[[S, ParityOptions], R]], Callable[Concatenate[S, P], R]]:
    """Give `run(subject, options)` the signature `run(subject, *, <every option>=<its default>)`.

    The keyword arguments are checked (an unknown name is a `TypeError` that
    lists the known ones) and gathered into one `ParityOptions`; type checkers
    see every option with its type, and the docstring gains the option list.
    """
    option_parameters = list(inspect.signature(options).parameters.values())

    def decorate(run: Callable[[S, ParityOptions], R]) -> Callable[Concatenate[S, P], R]:
        subject = next(iter(inspect.signature(run).parameters.values())).replace(kind=inspect.Parameter.POSITIONAL_ONLY)
        signature = inspect.Signature([subject, *option_parameters], return_annotation=inspect.signature(run).return_annotation)

        @functools.wraps(run)
        def with_keywords(first: S, /, *args: P.args, **keywords: P.kwargs) -> R:
            unknown = sorted(set(keywords) - {parameter.name for parameter in option_parameters})
            if args or unknown:
                known = ", ".join(parameter.name for parameter in option_parameters)
                raise TypeError(f"{run.__name__}() takes the pair and keyword options ({known}); "
                                f"got {', '.join(unknown) or 'extra positional arguments'}")
            return run(first, options(*args, **keywords))

        with_keywords.__dict__["__signature__"] = signature  # what inspect.signature and help() read
        with_keywords.__doc__ = (run.__doc__ or "").rstrip() + "\n\n" + keyword_list()
        return with_keywords

    return decorate


def keyword_list() -> str:
    """The options as a docstring section: `name=default [--flag]: what it does`."""
    lines = ["Options (keyword-only; the `migrate parity` flag in brackets):"]
    for name, spec in SPECS.items():
        flag = f" [{FLAGS[name].spelling}]" if name in FLAGS else ""
        lines.append(f"    {name}={default_text(name)}{flag}: {spec.help}")
    return "\n".join(lines)
