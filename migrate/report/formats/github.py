"""GitHub Actions workflow commands: one `::warning` annotation per finding, shown on the pull request's diff.

`migrate report --format github` in a workflow step annotates each finding's
line (`file`, `line`, `col`, and the rule as `title`); a notebook finding
names the cell in the message and annotates the line of the `.ipynb` file
holding that source line (`notebook_lines`). Skipped files are `::notice` annotations.
Values are escaped as the runner's command parser expects (`%`, CR and LF in
the message; also `:` and `,` in properties).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from migrate.report.formats import register_format
from migrate.report.formats.notebook_lines import json_line

if TYPE_CHECKING:
    from migrate.report.scanner import Report


def escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def command(kind: str, message: str, **properties: object) -> str:
    given = ",".join(f"{key}={escape_property(str(value))}" for key, value in properties.items() if value is not None)
    return f"::{kind} {given}::{escape_data(message)}" if given else f"::{kind}::{escape_data(message)}"


@register_format("github")
def render(report: Report) -> str:
    lines = []
    for finding in report.findings:
        rule = report.rules[finding.code]
        title = f"{finding.code} {rule.name}"
        if finding.cell is None:
            lines.append(command("warning", finding.message, file=finding.path, line=max(finding.line, 1),
                                 col=finding.column + 1, title=title))
        else:
            lines.append(command("warning", f"cell {finding.cell}, line {finding.line}: {finding.message}",
                                 file=finding.path, line=json_line(finding.path, finding.cell, finding.line),
                                 title=title))
    lines += [command("notice", f"skipped: {result.skipped}", file=result.path, title="migrate report")
              for result in report.skipped]
    return "".join(line + "\n" for line in lines)
