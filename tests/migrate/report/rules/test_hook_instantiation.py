"""`hook-instantiation` (TFM208): call sites of in-repo hooks, across files and imports."""
from __future__ import annotations

CODE = "TFM208"
HOOKS = "import tensorflow as tf\nclass MyHook(tf.train.SessionRunHook):\n    def end(self, session):\n        pass\n"


def test_not_a_hook_is_not_reported(write, run_scan) -> None:
    write("pkg/__init__.py")
    write("pkg/things.py", "class Thing:\n    pass\n")
    path = write("pkg/train.py", "from pkg.things import Thing\nthings = [Thing()]\n")
    assert run_scan(path.parent, select=(CODE,)).findings == []


def test_call_sites_in_other_files_and_spellings(write, run_scan) -> None:
    write("pkg/__init__.py")
    write("pkg/hooks.py", HOOKS + "default = [MyHook()]\n")
    write(
        "pkg/train.py",
        "from pkg.hooks import MyHook\nfrom pkg import hooks as hooks_lib\n\n"
        "def train(estimator, input_fn):\n    estimator.train(input_fn, hooks=[MyHook(), hooks_lib.MyHook()])\n",
    )
    report = run_scan(write("pkg/__init__.py").parent, select=(CODE,))
    assert [(finding.path.rpartition("/")[2], finding.line, finding.column) for finding in report.findings] == [
        ("hooks.py", 5, 11), ("train.py", 5, 37), ("train.py", 5, 47),
    ]
    assert "creates `MyHook`, a SessionRunHook" in report.findings[1].message
