"""`python -m legacy`: see `legacy.cli`."""
from __future__ import annotations

from legacy.cli import main

raise SystemExit(main())
