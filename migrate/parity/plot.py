"""The loss plot: both curves and their difference, as a PNG (matplotlib, headless)."""
from __future__ import annotations

from pathlib import Path

from migrate.parity.result import ParityResult


def plot_losses(result: ParityResult, path: Path) -> Path:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    assert result.losses is not None
    every = result.losses.rows
    rows = [row for row in every if row.legacy is not None and row.modern is not None]
    steps = [row.step for row in rows]
    figure, (top, bottom) = plt.subplots(2, 1, figsize=(9, 6), sharex=True, gridspec_kw={"height_ratios": [3, 2]})
    # each curve over the steps its side logged (asynchronous workers log different steps); |Δ| where both did
    top.plot(*zip(*[(row.step, row.legacy) for row in every if row.legacy is not None]), label="legacy (TF1)",
             linewidth=1.6)
    top.plot(*zip(*[(row.step, row.modern) for row in every if row.modern is not None]), label="modern (Keras)",
             linewidth=1.0, linestyle="--")
    top.set_ylabel("training loss")
    top.legend()
    config = result.config
    largest = result.losses.max_abs_loss_diff
    top.set_title(f"parity {config['pair']} {config['mode']} / {config['params'].get('optimizer', '')}"
                  + (f", {config['workers']} workers {config['replication']}" if config.get("workers") else "")
                  + ": max |Δ| = " + ("n/a" if largest is None else f"{largest:.6g}"))
    bottom.plot(steps, [row.abs_diff for row in rows], color="tab:red", linewidth=1.0)
    bottom.set_ylabel("|Δ loss|")
    bottom.set_xlabel("global step")
    if any(row.abs_diff for row in rows):
        bottom.set_yscale("symlog", linthresh=1e-9)
    figure.tight_layout()
    figure.savefig(path, dpi=110)
    plt.close(figure)
    return path
