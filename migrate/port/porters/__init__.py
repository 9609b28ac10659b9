"""Porters, one per kind of target; each module defines ``PORTER`` (see `migrate.port.registry`)."""
