"""What to say about the optimizers when losses part, and whether an `--optimizer` choice reached either side.

The TF1 side's optimizers are read from its train graph (the update kernels
it runs, `legacy_side.tf1_optimizers_of`), the Keras side's from the model
(`keras_training.optimizers_of`: compiled, listed, or kept as attributes),
so the advice names every optimizer found on both sides and says when the
Keras side already uses the TF1-exact twin (`modern.optimizers`) — then the
optimizer is not the cause. In a distributed run, `replica_scaling_advice`
recognises the naive migration's loss scaled by the replica count.
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
REPLICA_FACTOR_TOLERANCE = 1e-4
"""How far (relative) the first step's loss ratio may be from N or 1/N and still be read as the replica count:
the two sides reduce the same numbers in another order, a few float32 ulps apart, never by 1e-4."""


def short(name: str) -> str:
    return name.rpartition(".")[2]


def is_twin(modern: str) -> bool:
    return modern.startswith("modern.optimizers.")


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
    families = {FAMILIES.get(short(name)) for name in [*legacy, *modern]}
    lowered = requested.lower()  # TF1 code spells the names as optimize_loss does: "Adam", "SGD", "RMSProp"
    wanted = "sgd" if lowered in ("sgd", "gradient_descent") else lowered
    if None in families or wanted in families or (wanted == "momentum" and "sgd" in families):
        return None
    return (f"--optimizer {requested} (params['optimizer']) reached neither side: the model_fn trains with "
            f"{' and '.join(legacy)} and the Keras model with {' and '.join(short(name) for name in modern)}, so the "
            f"{requested} tolerance would judge a run that never used {requested}. Make the pair read "
            "params['optimizer'] on both sides, or drop --optimizer.")


def replica_scaling_advice(legacy_first: float, modern_first: float, replicas: int) -> str | None:
    """The cause, when the first step's losses are a factor of the replica count apart (N or 1/N), else None.

    On the first step both clusters evaluate the same weights on the same global
    batch, so a ratio of exactly N (or 1/N) is no drift but a scale: TF1's
    `SyncReplicasOptimizer` averages the workers' gradients, a Keras optimizer
    under `MultiWorkerMirroredStrategy` sums them, and Keras divides by the
    replica count only the losses it reduces itself with ``sum_over_batch_size``.
    """
    if replicas < 2 or not legacy_first or not modern_first:
        return None
    ratio = modern_first / legacy_first
    for factor, side in ((float(replicas), "N times"), (1.0 / replicas, "1/N of")):
        if abs(ratio - factor) <= REPLICA_FACTOR_TOLERANCE * factor:
            return (f"the Keras loss at the first step is {side} TF1's (N = {replicas} replicas, ratio {ratio:.6g}): "
                    "a SUM-reduced loss or a custom train_step under a strategy — Keras sums the replicas' gradients "
                    "where TF1's SyncReplicasOptimizer averaged them; divide that loss by "
                    "tf.distribute.get_strategy().num_replicas_in_sync (only when it is over 1, so a single-process "
                    "run stays bit-identical): modern.replicas.replica_share, or ReplicaAveraged for a compiled loss")
    return None
