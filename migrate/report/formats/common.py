"""Small helpers shared by the renderers."""
from __future__ import annotations

from collections.abc import Callable
from itertools import repeat

from migrate.report.model import Finding
from migrate.report.registry import Rule

EFFORT_MEANING = {
    "redesign": "the training loop changes shape (Estimator, sessions, hooks → Keras fit + callbacks)",
    "rewrite": "local code changes with a known TF2 counterpart",
    "rename": "mechanical replacement, same behaviour",
}


def location(finding: Finding) -> str:
    if finding.cell is not None:
        return f"{finding.path}:cell {finding.cell}:{finding.line}:{finding.column + 1}"
    return f"{finding.path}:{finding.line}:{finding.column + 1}"


def group_skipped(skipped) -> dict[str, list[str]]:
    """reason → paths, so a hundred empty `__init__.py` files read as one line."""
    groups: dict[str, list[str]] = {}
    for result in skipped:
        groups.setdefault(result.skipped or "", []).append(result.path)
    return groups


def rule_label(rule: Rule) -> str:
    return f"{rule.code} {rule.name}"


def indented_json(value, end: str = "") -> str:
    """`json.dumps(value, indent=2, ensure_ascii=False)`, byte for byte, without the `json` package.

    With `indent`, the standard library encodes in Python, one call per value.
    Here the C encoder does the flat parts, with the newline and the
    indentation as its item separator, which yields the same text: each
    container that holds no container (a finding, a list of names) is one
    call; only the nesting above those is walked in Python, writing into one
    list of parts joined once, so the text is not copied level by level (in
    a fresh process every large string costs new memory pages). The JSON
    report of `tensorflow_estimator` (676 findings) takes 3.6 ms in a
    `migrate report` run, where building it level by level took 5.7 ms. It
    takes the C encoder from `_json`, as `json.encoder` does, so that the
    `json` package (and its decoder) is not imported for it; without the C
    accelerator it is `json.dumps` itself. `end` is appended (a file's final
    newline), so that the text is not copied once more to add it.
    """
    try:
        from _json import encode_basestring, make_encoder  # the C encoder `json` itself uses, without its decoder
    except ImportError:  # no C accelerator
        import json

        return json.dumps(value, indent=2, ensure_ascii=False) + end
    encoder = _IndentedEncoder(make_encoder, encode_basestring)
    encoder.encode(value, "")
    encoder.parts.append(end)
    return "".join(encoder.parts)


class _IndentedEncoder:
    """`indented_json`'s walk: containers that hold containers in Python, the rest by the C encoder."""

    def __init__(self, make_encoder: Callable, encode_basestring: Callable) -> None:
        self.make_encoder = make_encoder
        self.encode_basestring = encode_basestring
        self.flat_encoders: dict[str, Callable] = {}
        """indentation → a C encoder whose item separator is a newline and that indentation."""
        self.scalar = self.flat_encoder("")
        self.parts: list[str] = []

    def flat_encoder(self, inner: str) -> Callable:
        found = self.flat_encoders.get(inner)
        if found is None:
            found = self.flat_encoders[inner] = self.make_encoder(
                None, _unserialisable, self.encode_basestring, None, ": ", ",\n" + inner, False, False, True
            )
        return found

    def key_text(self, key) -> str:
        """A dict key as `json.dumps` writes it: strings as they are, None/bools/numbers as their JSON text."""
        if isinstance(key, str):
            return key
        if key is None or isinstance(key, (int, float)):
            return "".join(self.scalar(key, 0))
        raise TypeError(f"keys must be str, int, float, bool or None, not {type(key).__name__}")

    def encode(self, item, indent: str) -> None:
        write = self.parts.append
        if type(item) is Encoded:
            self.parts.extend(item.parts)
            return
        is_dict = isinstance(item, dict)
        if not (is_dict or isinstance(item, (list, tuple))) or not item:
            write("".join(self.scalar(item, 0)))
            return
        inner = indent + "  "
        entries = item.values() if is_dict else item
        if not any(map(isinstance, entries, repeat(_CONTAINERS))):
            text = "".join(self.flat_encoder(inner)(item, 0))
            write(f"{text[0]}\n{inner}{text[1:-1]}\n{indent}{text[-1]}")
            return
        separator = ("{" if is_dict else "[") + "\n" + inner
        for key, entry in item.items() if is_dict else zip(repeat(None), item):
            write(separator)
            if is_dict:
                write("".join(self.scalar(self.key_text(key), 0)))
                write(": ")
            self.encode(entry, inner)
            separator = ",\n" + inner
        write(f"\n{indent}{'}' if is_dict else ']'}")


class Encoded:
    """JSON text already encoded for where it stands in an `indented_json` value (indentation included),
    in parts that `indented_json` joins with the rest of its output (not copied into a string of its own)."""

    __slots__ = ("parts",)

    def __init__(self, parts: list[str]) -> None:
        self.parts = parts


def string_encoder() -> Callable[[str | None], str]:
    """A function writing a string (or None) as `json.dumps(..., ensure_ascii=False)` does."""
    encode_string = str_encoder()
    return lambda value: "null" if value is None else encode_string(value)


def str_encoder() -> Callable[[str], str]:
    """`string_encoder` for a value that is always a string: the C encoder itself, no Python call around it
    (the report's thousands of finding messages)."""
    try:
        from _json import encode_basestring
    except ImportError:  # no C accelerator
        from json.encoder import py_encode_basestring as encode_basestring
    return encode_basestring


_CONTAINERS = (dict, list, tuple)
"""What JSON nests: a value of one of these types (or a subclass) is not flat."""


def _unserialisable(value) -> None:
    raise TypeError(f"Object of type {type(value).__name__} is not JSON serializable")
