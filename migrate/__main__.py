from __future__ import annotations

from migrate.core.namespace import isolate_main_path

isolate_main_path()  # before anything imports `legacy` or `modern`: the working directory may hold a user's own

from migrate.cli import run_program  # noqa: E402

raise SystemExit(run_program())
