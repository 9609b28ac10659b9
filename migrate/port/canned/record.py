"""The typed records of a canned-estimator port: what was captured from the TF1 side, and what was refused."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


class CannedRefusal(ValueError):
    """The canned estimator cannot be ported exactly; `reasons` say what and why (exit 2)."""

    def __init__(self, reasons: list[str]) -> None:
        super().__init__("; ".join(reasons))
        self.reasons = reasons


@dataclass(frozen=True)
class HeadSpec:
    """A canned head, as the arguments of `modern.heads.Head` (written into the Keras model, never imported here)."""

    kind: str
    n_classes: int = 2
    label_dimension: int = 1
    loss_reduction: str = "sum_over_batch_size"
    weight_column: str | None = None
    label_vocabulary: tuple[str, ...] | None = None
    api: str = "v2"

    def code(self) -> str:
        defaults = HeadSpec(self.kind)
        arguments = [repr(self.kind)] + [
            f"{name}={getattr(self, name)!r}" for name in
            ("n_classes", "label_dimension", "loss_reduction", "weight_column", "label_vocabulary", "api")
            if getattr(self, name) != getattr(defaults, name)]
        return f"heads.Head({', '.join(arguments)})"

    @property
    def logits_dimension(self) -> int:
        if self.kind == "binary":
            return 1
        return self.label_dimension if self.kind == "regression" else self.n_classes


@dataclass(frozen=True)
class OptimizerUse:
    """One TF1 optimizer the canned model_fn applied, and to which part ("dnn", "linear" or "all")."""

    part: str
    tf1_class: str
    arguments: dict[str, Any]
    """Its TF1 constructor arguments, read back from the instance (learning_rate first)."""


@dataclass
class CannedEstimator:
    """A canned estimator as its model_fn builds it: family, API version, head, parts and optimizers."""

    class_name: str
    module: str
    api: str
    family: str
    """"dnn", "linear" or "dnn_linear_combined"."""
    head: HeadSpec
    created_at: str
    """file:line where the user's code constructed the estimator."""
    dnn_columns: list[Any] = field(default_factory=list)
    linear_columns: list[Any] = field(default_factory=list)
    hidden_units: list[int] = field(default_factory=list)
    activation: str = "relu"
    dropout: float | None = None
    batch_norm: bool = False
    sparse_combiner: str = "sum"
    optimizers: list[OptimizerUse] = field(default_factory=list)
    frozen: list[str] = field(default_factory=list)
    """Trainable TF1 variables no optimizer updates (a v2 canned DNN's shared embedding table)."""
    tf1_variables: dict[str, tuple[int, ...]] = field(default_factory=dict)
    """Trainable TF1 variable name (no ``:0``) → shape, from the TRAIN graph."""
    tf1_state: list[str] = field(default_factory=list)
    """Non-trainable model state (batch norm's moving mean and variance), mapped like the variables."""
    feature_specs: dict[str, tuple[tuple[int | None, ...], str]] = field(default_factory=dict)
    """Raw feature key → (shape without batch, dtype name), from the input function."""
