"""Output formats: one module per format, each registering a `render(report) -> str`.

`FORMATS` maps the `--format` name to its renderer; it is filled by importing
every module of this package, like the rule registry.
"""
from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable
from typing import TYPE_CHECKING

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
        for module_info in pkgutil.iter_modules(__path__):
            importlib.import_module(f"{__name__}.{module_info.name}")
    return dict(sorted(FORMATS.items()))
