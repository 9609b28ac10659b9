from __future__ import annotations

from migrate.cli import run_program

raise SystemExit(run_program())
