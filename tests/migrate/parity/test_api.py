"""`check_parity` takes a pair as a path, a built-in name, an imported module or a dict of functions."""
from __future__ import annotations

import sys
import types

import pytest

from migrate.parity.api import as_pair
from migrate.parity.pair import Pair, PairError


def functions(**extra):
    return {"model_fn": len, "train_input_fn": len, "build_model": len, "train_dataset": len, **extra}


def test_a_dict_of_functions():
    pair = as_pair(functions(PARAMS={"units": 3}))
    assert isinstance(pair, Pair) and pair.params == {"units": 3}


def test_an_imported_module():
    module = types.ModuleType("my_pair")
    vars(module).update(functions())
    assert as_pair(module).name == "my_pair"


def test_a_built_in_name_and_a_pair_pass_through():
    pair = as_pair("mnist")
    assert pair.name == "mnist" and as_pair(pair) is pair


def test_a_dict_lacking_a_name_is_refused():
    with pytest.raises(PairError, match="<pair> lacks train_dataset"):
        as_pair({"model_fn": len, "train_input_fn": len, "build_model": len})


def test_importing_the_api_and_the_plugin_does_not_import_tensorflow():
    import subprocess

    code = ("import sys, migrate.parity, migrate.parity.api, migrate.parity.pytest_plugin; "
            "print('tensorflow' in sys.modules)")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "False"
