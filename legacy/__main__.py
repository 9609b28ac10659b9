"""`python -m legacy`: see `legacy.cli`."""
from __future__ import annotations

import legacy  # noqa: F401  (sets the TensorFlow environment before TensorFlow is imported)
from legacy.cli import main

raise SystemExit(main())
