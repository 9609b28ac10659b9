"""Twins, one TF1 idiom per module; each defines ``TWIN`` (see `migrate.port.registry`)."""
