"""One module per rule that `migrate fix` applies; each defines `FIX` (see `migrate.fix.registry`)."""
