from __future__ import annotations

import copy
import json
import sys

import pytest

from migrate.report.formats.common import indented_json
from migrate.report.formats.json_report import as_dict, render
from migrate.report.model import Finding

VALUES = [
    {},
    [],
    "text",
    3,
    None,
    {"empty": {}, "none": [], "nested": [[]], "tuple": (1, (2, ()), [])},
    [1, "é", None, True, False, 1.5, -0.0, 1e300],
    {"quotes": 's\n"q"\\', "unicode": "\u2028 emoji 😀 \x00 \x1f", "nan": float("nan"), "inf": [float("inf"), float("-inf")]},
    {3: "int key", None: "null key", True: "bool key", 2.5: "float key"},
    [{"a": [1, {"b": [None, {"c": {}}]}]}, {"flat": 1, "also": "flat"}],
    {"findings": [{"message": "}\n{", "line": 1, "cell": None}, {"message": "},\n      {", "x": 1.5}], "pair": ({"t": 1}, {"u": "}"})},
    [{"a": 1}, {}],
    [{"a": 1}, {"b": (2, 3)}],
]


@pytest.mark.parametrize("value", VALUES, ids=range(len(VALUES)))
def test_indented_json_is_json_dumps_with_indent_2_byte_for_byte(value) -> None:
    assert indented_json(value) == json.dumps(value, indent=2, ensure_ascii=False)


def test_a_whole_report_renders_as_json_dumps_would(sample_report) -> None:
    document = as_dict(sample_report)
    assert document["findings"] and document["hooks"]
    expected = json.dumps(document, indent=2, ensure_ascii=False)
    assert indented_json(document) == expected
    assert render(sample_report) == expected + "\n"  # its findings written from a template (`encoded_findings`)


def test_findings_from_the_template_are_the_findings_json_dumps_writes(sample_report) -> None:
    """Every field kind: notebook cells and plain files, null and set equivalents, non-ASCII and escaped text."""
    findings = [
        Finding("nb.ipynb", 3, 2, 0, "TFM101", 'quote " backslash \\ tab \t → é 😀'),
        Finding("dir/a b.py", None, 10, 7, "TFM503", "plain"),
    ]
    report = replace_findings(sample_report, findings)
    assert {report.rules[code].modern_equivalent is None for code in ("TFM101", "TFM503")} == {True, False}
    assert render(report) == json.dumps(as_dict(report), indent=2, ensure_ascii=False) + "\n"
    assert render(replace_findings(sample_report, [])) == json.dumps(as_dict(replace_findings(sample_report, [])), indent=2, ensure_ascii=False) + "\n"


def replace_findings(report, findings):
    copied = copy.copy(report)
    copied.findings = findings
    return copied


def test_without_the_c_encoder_it_is_json_dumps(monkeypatch) -> None:
    monkeypatch.setitem(sys.modules, "_json", None)  # `from _json import ...` now raises ImportError
    value = {"a": [{"b": 1}], "c": "d"}
    assert indented_json(value) == json.dumps(value, indent=2, ensure_ascii=False)


@pytest.mark.parametrize("value", [{"x": object()}, {object(): 1}, [{"x": {1, 2}}]])
def test_what_json_cannot_encode_raises_type_error(value) -> None:
    with pytest.raises(TypeError):
        indented_json(value)
