"""A small report with a finding in a file, one in a notebook, a hook and a skipped file."""
from __future__ import annotations

import json
from pathlib import Path

import pytest


@pytest.fixture
def sample_report(write, run_scan, tmp_path: Path):
    write(
        "proj/train.py",
        """
        import tensorflow as tf

        class StopHook(tf.train.SessionRunHook):
            def after_run(self, run_context, run_values):
                run_context.request_stop()

        sess = tf.Session()
        """,
    )
    write("proj/broken.py", "print 'python 2'\n")
    cells = [{"cell_type": "code", "metadata": {}, "source": ["import tensorflow as tf\n", "x = tf.placeholder(tf.float32)\n"]}]
    write("proj/explore.ipynb", json.dumps({"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": cells}))
    return run_scan(tmp_path / "proj")
