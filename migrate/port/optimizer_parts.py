"""Several optimizers in one train op (wide & deep), or one training part of the variables → `modern.optimizers.Parts`.

The wide-and-deep idiom groups ``ftrl.minimize(loss, var_list=linear)`` and
``adagrad.minimize(loss, var_list=dnn, global_step=…)`` in one train op. The
port carries each `minimize` as its TF1-exact twin training the Keras weights
of the same TF1 variables; a trainable variable no `minimize` updates is not
trained (a `Parts` part with optimizer None), as TF1 leaves it.

What `Parts` cannot carry is refused with each optimizer's file:line: a
learning rate computed from the global step (the parts' own step counts do
not advance), gradient clipping, one optimizer object applied twice, variable
groups that overlap, and a global step advanced other than once a step.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from migrate.port.records import Conversion, PortRefused, Problem
from migrate.port.training import OptimizerPlan, plan_optimizer

HAND_PORT = ('port the training step by hand: modern.optimizers.Parts({"<scope>/": <twin>, "": <twin>}), '
             "one TF1-exact twin per variable group")


@dataclass(frozen=True)
class PartsPlan:
    """The TRAIN graph's optimizers, each with the TF1 variables it trains, and the graph's trainable variables."""

    groups: tuple[tuple[OptimizerPlan, frozenset[str]], ...]
    trainable: frozenset[str]

    @property
    def twins(self) -> list[str]:
        return ["Parts", *(plan.twin for plan, _ in self.groups)]

    @property
    def conversions(self) -> list[Conversion]:
        return [plan.conversion for plan, _ in self.groups]

    def names(self) -> list[str]:
        """The generated code's name of each group's optimizer: its twin's, numbered when two share one."""
        names: list[str] = []
        for plan, _ in self.groups:
            base = plan.twin.lower()
            names.append(base if base not in names else f"{base}_{len(names) + 1}")
        return names

    def code(self, variable_map: dict) -> tuple[list[str], str]:
        """`make_optimizer`'s statements (one twin per group) and its `Parts` expression, over the Keras weight paths
        of `variable_map` (TF1 name(s) → Keras path(s)); a Keras weight made of two groups' variables is refused."""
        owners = self._keras_owners(variable_map)
        by_layer: dict[str, set[int | None]] = {}
        for path, owner in owners.items():
            by_layer.setdefault(path.rsplit("/", 1)[0] + "/", set()).add(owner)
        entries = {prefix: next(iter(groups)) for prefix, groups in by_layer.items() if len(groups) == 1}
        entries.update({path: owner for path, owner in owners.items() if path.rsplit("/", 1)[0] + "/" not in entries})
        names = self.names()
        statements = [f"{name} = {plan.constructor}" for name, (plan, _) in zip(names, self.groups)]
        rows = "".join(f"    {prefix!r}: {'None' if owner is None else names[owner]},\n"
                       for prefix, owner in sorted(entries.items(), key=lambda item: (-len(item[0]), item[0])))
        return statements, "Parts({  # the first prefix a weight's path starts with names its optimizer\n" + rows + "})"

    def _keras_owners(self, variable_map: dict) -> dict[str, int | None]:
        """Keras weight path → the index of the group training it (None: no optimizer trains it)."""
        group_of = {name: index for index, (_, names) in enumerate(self.groups) for name in names}
        owners: dict[str, int | None] = {}
        for tf1, keras in variable_map.items():
            names = [name for name in (tf1 if isinstance(tf1, tuple) else (tf1,)) if name in self.trainable]
            groups = {group_of.get(name) for name in names}
            if len(groups) > 1:
                raise PortRefused([Problem(self.groups[0][0].where, f"the Keras weight of {', '.join(names)} is "
                                           "made of variables different optimizers train", HAND_PORT)])
            for path in _paths(keras) if groups else ():
                owners[path] = next(iter(groups))
        return owners


def _paths(keras: Any) -> list[str]:
    """The Keras weight path(s) of one `variable_map` value (a path, or (path(s), transform))."""
    if isinstance(keras, tuple):
        keras = keras[0]
    return list(keras) if isinstance(keras, list) else [keras]


def _overlaps(applied: list, groups: list[frozenset[str]]) -> list[Problem]:
    """A problem for each optimizer training a variable an earlier one trains too."""
    problems = []
    for index, group in enumerate(groups):
        for other in range(index):
            if group & groups[other]:
                problems.append(Problem(applied[index].where, f"{type(applied[index].optimizer).__name__} and the "
                                        f"optimizer at {applied[other].where} both train {min(group & groups[other])}",
                                        f"give each minimize its own var_list, or {HAND_PORT}"))
    return problems


def plan_parts(recorded: list, trainable: frozenset[str], spell: Callable, calls: list) -> PartsPlan | list[Problem] | None:
    """The `Parts` plan when the TRAIN graph applies several optimizers or one to part of its trainable variables;
    None when one optimizer trains them all (the port's plain case); the problems when `Parts` cannot carry them."""
    applied = [use for use in recorded if not use.nested]
    groups = [frozenset(variable.op.name for _, variable in use.grads_and_vars) for use in applied]
    if not applied or (len(applied) == 1 and groups[0] >= trainable):
        return None
    kinds = ", ".join(type(use.optimizer).__name__ for use in applied)
    several = f"one of {len(applied)} optimizers ({kinds})" if len(applied) > 1 else "the one optimizer, on part " \
        "of the trainable variables"
    problems: list[Problem] = []
    plans = []
    for use in applied:
        def schedule(_tensor: Any, where: str = use.where) -> Problem:
            return Problem(where, f"a learning rate computed from the global step in {several}",
                           f"give it as a number, or {HAND_PORT}")
        plan = plan_optimizer(use, spell, calls, schedule)
        if isinstance(plan, OptimizerPlan) and "global_clipnorm" in plan.arguments:
            plan = Problem(use.where, f"gradient clipping in {several}", f"clip in one optimizer's minimize, or {HAND_PORT}")
        problems += [plan] if isinstance(plan, Problem) else []
        plans.append(plan)
    problems += _overlaps(applied, groups)
    if len({id(use.optimizer) for use in applied}) < len(applied):
        problems.append(Problem(applied[0].where, "one optimizer object applies gradients twice (TF1 advances its "
                                "state, e.g. Adam's beta powers, twice a step)", f"use one optimizer per var_list, or {HAND_PORT}"))
    stepping = [use for use in applied if use.global_step is not None]
    if len(stepping) != 1:
        named = "; ".join(f"{type(use.optimizer).__name__} at {use.where}" for use in stepping) or "none"
        problems.append(Problem(applied[0].where, f"{len(stepping)} of the optimizers ({kinds}) advance the global step "
                                f"({named}); the port (Keras' optimizer.iterations) advances it once a step",
                                f"pass global_step to exactly one minimize, or {HAND_PORT}"))
    if problems:
        return problems
    return PartsPlan(tuple((plan, group) for plan, group in zip(plans, groups) if isinstance(plan, OptimizerPlan)),
                     trainable)
