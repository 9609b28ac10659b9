"""The settings of one parity run, derived from the command line."""
from __future__ import annotations

from dataclasses import asdict, dataclass, field

MODES = ("exact", "statistical")
OPTIMIZERS = ("sgd", "adam")
SIDES = ("both", "legacy", "modern")


@dataclass(frozen=True)
class ParityConfig:
    """What both sides train with. `exact`: dropout off, no shuffle; `statistical`: the real config."""

    mode: str = "exact"
    optimizer: str = "sgd"
    steps: int = 300
    batch_size: int = 128
    learning_rate: float = 0.05
    seed: int = 42
    scenarios: tuple[str, ...] = field(default=())
    accuracy_bar: float | None = None
    max_accuracy_gap: float = 0.005
    modern_overrides: tuple[tuple[str, float | str], ...] = ()

    @property
    def dropout_rate(self) -> float:
        return 0.0 if self.mode == "exact" else 0.5

    @property
    def shuffle(self) -> bool:
        return self.mode == "statistical"

    @property
    def params(self) -> dict:
        """The model params both `legacy.model.model_fn` and `modern.model.build_model` take."""
        return {
            "learning_rate": self.learning_rate,
            "optimizer": self.optimizer,
            "dropout_rate": self.dropout_rate,
            "adam_epsilon": 1e-8,
        }

    @property
    def modern_params(self) -> dict:
        """The modern side's params: the shared ones, plus deliberate overrides to see parity catch them."""
        return {**self.params, **dict(self.modern_overrides)}

    def as_dict(self, data_fingerprint: str) -> dict:
        values = asdict(self)
        values["scenarios"] = list(self.scenarios)
        values["modern_overrides"] = dict(self.modern_overrides)
        values.update(dropout_rate=self.dropout_rate, shuffle=self.shuffle, data_fingerprint=data_fingerprint)
        return values


def default_learning_rate(optimizer: str) -> float:
    """SGD needs a larger step than Adam to learn in a few hundred steps."""
    return 0.05 if optimizer == "sgd" else 1e-3
