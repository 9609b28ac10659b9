"""README.md is a landing page: small, every link resolves, every code block is run here or marked illustrative.

The markers and the runs are `migrate.docs.readme_examples`'s; `python -m migrate.docs` refreshes the quoted outputs.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from migrate.docs.pages import REGENERATE
from migrate.docs.readme_examples import BLOCK, README, blocks, console_commands, refreshed

ROOT = Path(__file__).resolve().parents[2]
LANDING_PAGE_LIMIT = 12 * 1024
LINK = re.compile(r"(?<!!)\[[^\]]*\]\(([^)\s]+)\)")


def test_the_readme_is_a_landing_page():
    size = len(README.read_bytes())
    assert size <= LANDING_PAGE_LIMIT, f"README.md is {size} bytes; move sections into docs/ (limit {LANDING_PAGE_LIMIT})"


def test_every_code_block_is_run_here_or_marked_illustrative():
    unmarked = [block.body.splitlines()[0] for block in blocks(README.read_text()) if block.marker is None]
    assert unmarked == [], f"code blocks with no <!-- file/run/illustrative --> marker, starting: {unmarked}"


def test_the_cheap_commands_print_what_the_readme_quotes():
    text = README.read_text()
    current, ran = refreshed(text)
    assert ran >= 3
    assert current == text, f"README.md quotes outputs its commands no longer print: run `{REGENERATE}`"


def test_a_changed_output_is_caught():
    """Guards the comparison: a quoted output that is not what the command prints is replaced."""
    text = README.read_text()
    altered = text.replace("Scanned 1 file(s)", "Scanned 2 file(s)", 1)
    assert altered != text
    current = refreshed(altered)[0]
    assert "Scanned 2 file(s)" not in current and "Scanned 1 file(s)" in current


def test_quoted_figures_come_from_the_committed_results():
    quoted = 0
    for block in blocks(README.read_text()):
        source = re.search(r"lines from (\S+)", block.marker.group("why") or "") if block.marker else None
        if source is None:
            continue
        committed = (ROOT / source.group(1)).read_text()
        for _, output in console_commands(block.body):
            for line in output.splitlines():
                if line.strip() and line.strip() != "…":
                    assert line.strip() in committed, f"{line.strip()!r} is not in {source.group(1)}"
                    quoted += 1
    assert quoted >= 1


def github_anchor(heading: str) -> str:
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def anchors(path: Path) -> set[str]:
    text = BLOCK.sub("", path.read_text(encoding="utf-8"))
    return {github_anchor(match.group(1)) for match in re.finditer(r"^#+ (.*)$", text, re.MULTILINE)}


@pytest.mark.parametrize("document", ["README.md", "CONTRIBUTING.md"])
def test_every_relative_link_resolves(document):
    path = ROOT / document
    broken = []
    for target in LINK.findall(BLOCK.sub("", path.read_text(encoding="utf-8"))):
        if target.startswith(("http://", "https://", "mailto:")):
            continue
        file_part, _, anchor = target.partition("#")
        linked = (path.parent / file_part) if file_part else path
        if not linked.exists() or (anchor and linked.suffix == ".md" and anchor not in anchors(linked)):
            broken.append(target)
    assert broken == [], f"{document} links to what does not exist: {broken}"
