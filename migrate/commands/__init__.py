"""One module per `migrate` subcommand; each defines `COMMAND` (see `migrate.cli` and `migrate.core.cli`)."""
