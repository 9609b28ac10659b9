"""`tf` that a file uses without importing it: through a star import, as research code writes it (tkipf/gcn's
`models.py`: `from gcn.layers import *`, where `layers.py` did `import tensorflow as tf`), or from nowhere the
file shows (a script cut from a notebook whose first cell imported it: tensorflow/lucid's `get_model_layers.py`).

Python finds a name the file never binds in the modules it star-imports (else in builtins or not at all), and
by convention `tf` is TensorFlow. The file is then read as if it had imported it at its first star import, or
at its start; a binding of its own (`tf = ...`, a parameter named `tf`) still wins from where it is made, as
for any import.
"""
from __future__ import annotations

import ast

ALIAS = "tf"


def unbound_tf_import(imports: list[ast.Import | ast.ImportFrom], text: str) -> ast.Import | None:
    """A synthetic `import tensorflow as tf` at the file's first star import of another module (else at its
    first line) when the file spells `tf.` and no import of its own binds `tf`; else None (decided from the
    imports for a file that imports `tf`, the common case, with one search of the text otherwise)."""
    star: ast.ImportFrom | None = None
    for node in imports:
        for alias in node.names:
            if alias.name == "*":
                if star is None and type(node) is ast.ImportFrom and not (node.module or "").startswith("tensorflow"):
                    star = node
            elif (alias.asname or alias.name.partition(".")[0]) == ALIAS:
                return None
    if "tf." not in text:
        return None
    synthetic = ast.Import(names=[ast.alias(name="tensorflow", asname=ALIAS)])
    if star is not None:
        return ast.copy_location(synthetic, star)
    synthetic.lineno, synthetic.col_offset, synthetic.end_lineno, synthetic.end_col_offset = 1, 0, 1, 0
    return synthetic
