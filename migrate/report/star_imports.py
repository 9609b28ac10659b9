"""`tf` that reaches a file through a star import, as research code writes it (tkipf/gcn's `models.py`:
`from gcn.layers import *`, where `layers.py` did `import tensorflow as tf`, then `tf.train.Saver(...)`).

Python finds a name the file never binds in the modules it star-imports, and by convention `tf` is
TensorFlow. The file is then read as if it had imported it at its first star import; a binding of its own
(`tf = ...`, a parameter named `tf`) still wins from where it is made, as for any import.
"""
from __future__ import annotations

import ast

ALIAS = "tf"


def star_imported_tensorflow(imports: list[ast.Import | ast.ImportFrom], text: str) -> ast.Import | None:
    """A synthetic `import tensorflow as tf` at the file's first star import of another module when the file
    spells `tf.` and no import of its own binds `tf`; else None (the common case, decided from the imports alone:
    the text is searched only in a file with a star import)."""
    star: ast.ImportFrom | None = None
    for node in imports:
        for alias in node.names:
            if alias.name == "*":
                if star is None and type(node) is ast.ImportFrom and not (node.module or "").startswith("tensorflow"):
                    star = node
            elif (alias.asname or alias.name.partition(".")[0]) == ALIAS:
                return None
    if star is None or "tf." not in text:
        return None
    synthetic = ast.Import(names=[ast.alias(name="tensorflow", asname=ALIAS)])
    return ast.copy_location(synthetic, star)
