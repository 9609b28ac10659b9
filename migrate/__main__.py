from __future__ import annotations

from migrate.cli import main

raise SystemExit(main())
