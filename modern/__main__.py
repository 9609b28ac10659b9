from __future__ import annotations

from modern.cli import main

raise SystemExit(main())
