"""`python -m modern.distributed`: one MultiWorkerMirroredStrategy worker (see `modern.distributed.worker`)."""
from __future__ import annotations

from modern.distributed.worker import main

raise SystemExit(main())
