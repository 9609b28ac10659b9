"""`--train-examples N` and `--test-examples N`, the MNIST run's flags from before `--param`, still set those params:
single-process and distributed alike (the run itself is replaced: only what it is handed is checked)."""
from __future__ import annotations

import pytest

from migrate.cli import main
from migrate.parity.pair import PairError

ALIASES = ["--train-examples", "512", "--test-examples", "256"]


@pytest.fixture
def handed(monkeypatch):
    """The params each side of the single-process run or of the distributed launcher was handed by the command."""
    from migrate.parity import run as single_run
    from migrate.parity.distributed import run as distributed_run

    seen = {}

    def single(config, pair, *args, **kwargs):
        seen["params"] = (config.legacy_params, config.modern_params)
        raise PairError("stopped by the test once the run has its params")

    def distributed(config, workdir, **kwargs):
        seen["params"] = (config.run.legacy_params, config.run.modern_params)
        raise PairError("stopped by the test once the run has its params")

    monkeypatch.setattr(single_run, "run_parity", single)
    monkeypatch.setattr(distributed_run, "run_distributed", distributed)
    return seen


@pytest.mark.parametrize("deployment", [pytest.param([], id="single process"),
                                        pytest.param(["--workers", "2"], id="distributed")])
def test_the_older_flags_set_the_params_they_stand_for(deployment, handed, tmp_path, capsys):
    assert main(["parity", *deployment, *ALIASES, "--out", str(tmp_path)]) == 2
    assert "stopped by the test" in capsys.readouterr().err
    for params in handed["params"]:
        assert (params["train_examples"], params["eval_examples"]) == (512, 256)


def test_an_explicit_param_of_the_same_key_wins(handed, tmp_path):
    assert main(["parity", *ALIASES, "--param", "train_examples=64", "--out", str(tmp_path)]) == 2
    legacy, modern = handed["params"]
    assert legacy["train_examples"] == modern["train_examples"] == 64 and legacy["eval_examples"] == 256
