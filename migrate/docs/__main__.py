"""`python -m migrate.docs [--check]`: write the generated pages and README's quoted outputs, or list what is stale."""
from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from migrate.docs import readme_examples
from migrate.docs.pages import REFERENCE, REGENERATE, all_pages


def stale_pages() -> list[str]:
    """Paths under docs/reference/ that differ from what the generators make, are missing, or are left over."""
    wanted = {item.path: item.text for item in all_pages()}
    stale = [path for path, text in wanted.items()
             if not (REFERENCE / path).is_file() or (REFERENCE / path).read_text(encoding="utf-8") != text]
    present = {path.relative_to(REFERENCE).as_posix() for path in REFERENCE.rglob("*") if path.is_file()}
    return sorted(stale + [f"{path} (no generator makes it)" for path in present - set(wanted)])


def write_pages() -> list[str]:
    """Write every page; remove pages no generator makes any more. Returns what changed."""
    wanted = {item.path: item.text for item in all_pages()}
    changed = []
    for path, text in wanted.items():
        target = REFERENCE / path
        if not target.is_file() or target.read_text(encoding="utf-8") != text:
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text, encoding="utf-8")
            changed.append(path)
    for leftover in sorted(path for path in REFERENCE.rglob("*.md") if path.relative_to(REFERENCE).as_posix() not in wanted):
        leftover.unlink()
        changed.append(f"{leftover.relative_to(REFERENCE).as_posix()} (removed)")
    return changed


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m migrate.docs", description=__doc__)
    parser.add_argument("--check", action="store_true", help="change nothing; exit 1 listing the stale pages")
    args = parser.parse_args(argv)
    if args.check:
        stale = [f"docs/reference/{path}" for path in stale_pages()]
        readme = readme_examples.README.read_text(encoding="utf-8")
        if readme_examples.refreshed(readme)[0] != readme:
            stale.append("README.md (a quoted command output)")
        for path in stale:
            print(f"stale: {path}", file=sys.stderr)
        if stale:
            print(f"{len(stale)} generated page(s) are stale: run `{REGENERATE}`", file=sys.stderr)
        return 1 if stale else 0
    changed = [f"docs/reference/{path}" for path in write_pages()]
    if readme_examples.refresh_readme():
        changed.append("README.md (quoted command outputs)")
    print(f"{len(changed)} page(s) written" + "".join(f"\n  {path}" for path in changed))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
