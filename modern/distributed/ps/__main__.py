"""`python -m modern.distributed.ps`: one ParameterServerStrategy process (see `modern.distributed.ps.role`)."""
from __future__ import annotations

from modern.distributed.ps.role import main

raise SystemExit(main())
