"""Every rule's documented `Example` fires that rule, and its `Use instead` fires no rule at all.

The snippets are the ones `migrate explain CODE` prints. They assume the usual
imports (`import numpy as np`, `import tensorflow as tf`, `from tensorflow import keras`), added
here; a snippet made of hook methods (`def after_run(self, ...)`) is put in a
`tf.train.SessionRunHook` subclass, one of callback methods in a
`keras.callbacks.Callback` subclass, as they would be in real code.
"""
from __future__ import annotations

import pytest

from migrate.report.registry import load_rules
from tests.migrate.report.rules.doc_snippets import runnable, section

RULES = sorted(load_rules().values(), key=lambda rule: rule.code)


@pytest.mark.parametrize("rule", RULES, ids=[f"{rule.code} {rule.name}" for rule in RULES])
def test_example_fires_its_rule(rule, write, run_scan) -> None:
    path = write("example.py", runnable(section(rule.doc, "Example")))
    codes = {finding.code for finding in run_scan(path).findings}
    assert rule.code in codes, f"{rule.code}'s Example gives {sorted(codes)}"


@pytest.mark.parametrize("rule", RULES, ids=[f"{rule.code} {rule.name}" for rule in RULES])
def test_use_instead_fires_nothing(rule, write, run_scan) -> None:
    path = write("use_instead.py", runnable(section(rule.doc, "Use instead")))
    report = run_scan(path)
    assert not report.skipped, report.skipped
    assert [f"{finding.line}:{finding.code}" for finding in report.findings] == []
