"""What to say about the optimizers when losses part, and whether an `--optimizer` choice reached either side.

The TF1 side's optimizers are read from its train graph (the update kernels
it runs, `legacy_side.tf1_optimizers_of`), the Keras side's from the model
(`keras_training.optimizers_of`: compiled, listed, or kept as attributes),
so the advice names every optimizer found on both sides and says when the
Keras side already uses the TF1-exact twin (`modern.optimizers`) — then the
optimizer is not the cause.
"""
from __future__ import annotations

TWINS = {"GradientDescentOptimizer": "GradientDescent", "MomentumOptimizer": "Momentum", "AdamOptimizer": "Adam",
         "AdagradOptimizer": "Adagrad", "RMSPropOptimizer": "RMSProp", "FtrlOptimizer": "Ftrl"}
"""TF1 optimizer class → its TF1-exact twin in `modern.optimizers`."""

FAMILIES = {
    "GradientDescentOptimizer": "sgd", "MomentumOptimizer": "momentum", "AdamOptimizer": "adam",
    "AdagradOptimizer": "adagrad", "RMSPropOptimizer": "rmsprop", "FtrlOptimizer": "ftrl", "AdadeltaOptimizer": "adadelta",
    "GradientDescent": "sgd", "SGD": "sgd", "Momentum": "momentum", "Adam": "adam", "AdamW": "adam", "Adagrad": "adagrad",
    "RMSProp": "rmsprop", "RMSprop": "rmsprop", "Ftrl": "ftrl", "Adadelta": "adadelta", "Adamax": "adamax",
    "AdaMax": "adamax", "Nadam": "nadam", "Lion": "lion",
}
"""Class names of both sides → the `--optimizer` name of their family (Keras' SGD may carry momentum)."""


def short(name: str) -> str:
    return name.rpartition(".")[2]


def is_twin(modern: str) -> bool:
    return modern.startswith("modern.optimizers.")


def family(name: str) -> str | None:
    return FAMILIES.get(short(name))


def optimizer_advice(legacy: list[str], modern: list[str]) -> str | None:
    """Why per-step losses may part, as far as the optimizers tell; None when neither side's is known."""
    if not legacy or not modern:
        return None
    tf1 = " and ".join(legacy)
    keras = " and ".join(short(name) + (" (TF1-exact twin)" if is_twin(name) else "") for name in modern)
    twins_in_use = {short(name) for name in modern if is_twin(name)}
    missing = [name for name in legacy if TWINS.get(name) not in twins_in_use and name != "GradientDescentOptimizer"]
    if not missing:
        return (f"the TF1 graph trains with {tf1}, the Keras model with {keras}: the Keras side already runs TF1's "
                "update (its TF1-exact twins), so the optimizer is not the cause — look at the loss, the gradients "
                "(the divergence above) or a learning-rate schedule")
    twins = " and ".join(f"modern.optimizers.{TWINS[name]}" for name in missing if name in TWINS)
    fix = f"compile with {twins} (the TF1-exact twin{'s' if ' and ' in twins else ''}) or " if twins else ""
    return (f"the TF1 graph trains with {tf1}, the Keras model with {keras} (Keras' own optimizers do not run "
            f"TF1's update: docs/guide/continuing.md 'Exact or native optimizer?'): {fix}allow the drift with --loss-tolerance REL or "
            "--schedule rounding")


def ignored_optimizer(requested: str, legacy: list[str], modern: list[str]) -> str | None:
    """The message when `--optimizer requested` reached neither side (both trained another family), else None."""
    if not legacy or not modern:
        return None
    families = {family(name) for name in legacy} | {family(name) for name in modern}
    wanted = "sgd" if requested in ("sgd", "gradient_descent") else requested
    if None in families or wanted in families or (wanted == "momentum" and "sgd" in families):
        return None
    return (f"--optimizer {requested} (params['optimizer']) reached neither side: the model_fn trains with "
            f"{' and '.join(legacy)} and the Keras model with {' and '.join(short(name) for name in modern)}, so the "
            f"{requested} tolerance would judge a run that never used {requested}. Make the pair read "
            "params['optimizer'] on both sides, or drop --optimizer.")
