"""Output formats: one module per format, each registering a `render(report) -> str`.

`FORMATS` maps the `--format` name to its renderer; it is filled by importing
every module of this package, like the rule registry.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from migrate.core.plugins import import_all

if TYPE_CHECKING:
    from migrate.report.scanner import Report

Renderer = Callable[["Report"], str]
FORMATS: dict[str, Renderer] = {}


def register_format(name: str) -> Callable[[Renderer], Renderer]:
    def decorator(render: Renderer) -> Renderer:
        FORMATS[name] = render
        return render

    return decorator


_loaded: list[bool] = []


def load_formats() -> dict[str, Renderer]:
    """Every format: the package's modules are imported once (a module imported on its own before, as a
    test does, registers only itself, so emptiness cannot tell)."""
    if not _loaded:
        import_all(__name__, __path__)
        _loaded.append(True)
    return dict(sorted(FORMATS.items()))
