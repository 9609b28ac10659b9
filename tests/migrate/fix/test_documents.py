"""Files and notebooks round-trip: encodings, BOM, CRLF, notebook outputs and IPython lines kept."""
from __future__ import annotations

import json

import pytest

from migrate.fix.documents import Unfixable, fix_document

TF = b"import tensorflow as tf\n"


@pytest.mark.parametrize(
    ("before", "after"),
    [
        pytest.param(
            b"# -*- coding: latin-1 -*-\nimport tensorflow as tf\n# caf\xe9\ntf.logging.info('\xe9')\n",
            b"# -*- coding: latin-1 -*-\nfrom absl import logging\nimport tensorflow as tf\n# caf\xe9\nlogging.info('\xe9')\n",
            id="a declared latin-1 file stays latin-1",
        ),
        pytest.param(
            b"\xef\xbb\xbfimport tensorflow as tf\ntf.logging.info(1)\n",
            b"\xef\xbb\xbffrom absl import logging\nimport tensorflow as tf\nlogging.info(1)\n",
            id="a UTF-8 BOM stays",
        ),
        pytest.param(
            b"import tensorflow as tf\r\n\r\ntf.logging.info(1)\r\n",
            b"from absl import logging\r\nimport tensorflow as tf\r\n\r\nlogging.info(1)\r\n",
            id="CRLF line endings stay, also on added lines",
        ),
    ],
)
def test_python_bytes(before: bytes, after: bytes) -> None:
    outcome = fix_document("a.py", before)
    assert outcome.data == after and outcome.changed
    assert not fix_document("a.py", outcome.data).changed


@pytest.mark.parametrize(
    ("data", "reason"),
    [
        pytest.param(TF + b"def f(:\n", "syntax error", id="syntax error"),
        pytest.param(TF + b"x = '\xff'\n", "not valid utf-8", id="undeclared non-UTF-8 byte"),
        pytest.param(b"# coding: klingon\n" + TF, "undecodable", id="unknown encoding"),
        pytest.param(TF + b"print 'py2'\n", "syntax error", id="Python 2"),
    ],
)
def test_unfixable_python(data: bytes, reason: str) -> None:
    with pytest.raises(Unfixable, match=reason):
        fix_document("a.py", data)


def notebook(*cells: dict) -> dict:
    return {"cells": list(cells), "metadata": {"kernelspec": {"name": "python3"}}, "nbformat": 4, "nbformat_minor": 5}


def code(source, outputs=None, **extra) -> dict:
    return {"cell_type": "code", "execution_count": 3, "metadata": {"tags": ["x"]}, "outputs": outputs or [], "source": source, **extra}


def test_notebook_code_cells_are_fixed_together_outputs_and_metadata_kept() -> None:
    output = {"output_type": "stream", "name": "stdout", "text": ["INFO tf.logging.info\n"]}
    before = notebook(
        code(["%matplotlib inline\n", "import tensorflow as tf"], [output]),
        {"cell_type": "markdown", "metadata": {}, "source": "tf.logging.info is explained here"},
        code("!pip install absl-py\ntf.logging.info('é')\nif True:\n    %time tf.logging.info(2)\n"),
        code("%%bash\necho tf.logging.info\n"),
    )
    data = (json.dumps(before, indent=1, ensure_ascii=False) + "\n").encode()
    outcome = fix_document("n.ipynb", data)
    after = json.loads(outcome.data)
    assert after["cells"][0]["source"] == ["from absl import logging\n", "%matplotlib inline\n", "import tensorflow as tf"]
    assert after["cells"][0]["outputs"] == [output] and after["cells"][0]["metadata"] == {"tags": ["x"]}
    assert after["cells"][1] == before["cells"][1]
    assert after["cells"][2]["source"] == "!pip install absl-py\nlogging.info('é')\nif True:\n    %time tf.logging.info(2)\n"
    assert after["cells"][3] == before["cells"][3]
    assert after["metadata"] == before["metadata"]
    assert outcome.data.decode().count("\n") == data.decode().count("\n") + 1, "only the added line differs"
    assert not fix_document("n.ipynb", outcome.data).changed


def test_notebook_cell_that_is_not_python_is_left_with_a_note() -> None:
    before = notebook(code("import tensorflow as tf\ntf.logging.info(1)"), code("print 'py2'\ntf.logging.info(2)"))
    outcome = fix_document("n.ipynb", json.dumps(before).encode())
    after = json.loads(outcome.data)
    assert after["cells"][1]["source"] == before["cells"][1]["source"]
    assert after["cells"][0]["source"] == "from absl import logging\nimport tensorflow as tf\nlogging.info(1)"
    assert outcome.notes == ["cell 2 left as is: syntax error at line 1"]


def test_broken_notebook() -> None:
    with pytest.raises(Unfixable, match="not JSON"):
        fix_document("n.ipynb", b"{not json")
