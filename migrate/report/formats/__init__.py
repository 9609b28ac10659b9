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


def load_formats() -> dict[str, Renderer]:
    if not FORMATS:
        import_all(__name__, __path__)
    return dict(sorted(FORMATS.items()))
