"""A rule doc's code blocks as scannable sources (shared by the Example and snapshot tests)."""
from __future__ import annotations

import re
import textwrap

from migrate.report.classes import PROTOCOL_METHODS

PRELUDE = "import numpy as np\nimport tensorflow as tf\nfrom tensorflow import keras\n"
HOOK_METHOD = re.compile(rf"^def ({'|'.join(PROTOCOL_METHODS)})\(self", re.MULTILINE)
CALLBACK_METHOD = re.compile(r"^def on_\w+\(self", re.MULTILINE)


def section(doc: str, title: str) -> str:
    """The first ```python block under `## title`."""
    match = re.search(rf"^## {re.escape(title)}\n(.*?)(?=^## |\Z)", doc, re.MULTILINE | re.DOTALL)
    assert match, f"no `## {title}` section"
    block = re.search(r"```python\n(.*?)```", match.group(1), re.DOTALL)
    assert block, f"`## {title}` has no python block"
    return block.group(1)


def runnable(snippet: str) -> str:
    if HOOK_METHOD.search(snippet) and not snippet.lstrip().startswith("class "):
        snippet = "class ExampleHook(tf.train.SessionRunHook):\n" + textwrap.indent(snippet, "    ")
    elif CALLBACK_METHOD.search(snippet) and not snippet.lstrip().startswith("class "):
        snippet = "class ExampleCallback(keras.callbacks.Callback):\n" + textwrap.indent(snippet, "    ")
    return PRELUDE + snippet
