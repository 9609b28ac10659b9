"""`python -m legacy.distributed`: one ps or worker process (see `legacy.distributed.role`)."""
from __future__ import annotations

from legacy.distributed.role import main

raise SystemExit(main())
