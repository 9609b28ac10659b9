"""`--format github`: workflow-command annotations, escaped as the Actions runner parses them."""
from __future__ import annotations

from migrate.report.formats.github import command, render


def test_each_finding_is_a_warning_on_its_line_and_a_notebook_names_its_cell(sample_report) -> None:
    lines = render(sample_report).splitlines()
    warnings = [line for line in lines if line.startswith("::warning ")]
    assert len(warnings) == len(sample_report.findings) == 4
    python = next(line for line in warnings if "train.py" in line and "TFM" in line)
    assert ",line=" in python and ",col=" in python and ",title=TFM" in python
    (notebook,) = [line for line in warnings if "explore.ipynb" in line]
    assert ",line=1," in notebook and "::cell 1, line 2: " in notebook, "the fixture's notebook JSON is one line"
    (notice,) = [line for line in lines if line.startswith("::notice ")]
    assert "broken.py" in notice and "::skipped: Python 2 source" in notice


def test_values_are_escaped() -> None:
    assert command("warning", "50% done\nnext", file="a,b:c.py", line=3) == \
        "::warning file=a%2Cb%3Ac.py,line=3::50%25 done%0Anext"
