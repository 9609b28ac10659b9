"""`docs/reference/rules/`: an index and one page per `migrate report` rule, the text `migrate explain` prints."""
from __future__ import annotations

from migrate.docs.pages import Page, page, table_cell


def pages() -> list[Page]:
    from migrate.commands.explain import rule_document
    from migrate.report.registry import load_rules

    rules = list(load_rules().values())
    rows = [
        f"| [`{rule.code}`]({rule.code}.md) | {rule.name} | {rule.fix} | {rule.effort} | {table_cell(rule.summary)} |"
        for rule in rules
    ]
    automatic = sum(rule.fix == "automatic" for rule in rules)
    index = (
        "# Rules of `migrate report`\n\n"
        f"{len(rules)} rules; {automatic} have an automatic fix that `migrate fix` applies, the others are manual. "
        "Each page is what `migrate explain CODE` prints. Select rules by prefix with `--select`/`--ignore` "
        "(`TFM2` selects every hook rule).\n\n"
        "| code | name | fix | effort | summary |\n|---|---|---|---|---|\n" + "\n".join(rows)
    )
    source = "migrate/report/rules/*.py and migrate/fix/registry.py"
    return [page("rules/index.md", source, index)] + [
        page(f"rules/{rule.code}.md", f"migrate/report/rules (rule {rule.code})", rule_document(rule)) for rule in rules
    ]
