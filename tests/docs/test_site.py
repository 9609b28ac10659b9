"""The docs site builds offline with `mkdocs build --strict` (mkdocs.yml): a broken link or anchor fails it."""
from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def build(config: Path, site: Path) -> subprocess.CompletedProcess:
    """Never with -q: quiet mode drops the warnings that --strict counts, and a broken link would pass."""
    return subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-f", str(config), "-d", str(site)],
                          capture_output=True, text=True, timeout=300, cwd=config.parent)


def test_the_site_builds_strictly(tmp_path):
    result = build(ROOT / "mkdocs.yml", tmp_path / "site")
    assert result.returncode == 0, result.stderr
    for page in ("index.html", "guide/parity/index.html", "reference/rules/TFM301/index.html",
                 "reference/callbacks/stop_at_step/index.html", "reference/cli/report/index.html"):
        assert (tmp_path / "site" / page).is_file(), page


def test_a_broken_link_fails_the_build(tmp_path):
    """The strict settings catch what they are for (guards against a config that lets everything through)."""
    shutil.copytree(ROOT / "docs", tmp_path / "docs")
    shutil.copy(ROOT / "mkdocs.yml", tmp_path / "mkdocs.yml")
    with (tmp_path / "docs" / "guide" / "fix.md").open("a") as page:
        page.write("\nSee [the report](report.md#no-such-section) and [the source](../../migrate/cli.py).\n")
    result = build(tmp_path / "mkdocs.yml", tmp_path / "site")
    assert result.returncode != 0
    assert "no-such-section" in result.stderr and "migrate/cli.py" in result.stderr
