"""Small helpers shared by the renderers."""
from __future__ import annotations

from collections.abc import Callable

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


def indented_json(value) -> str:
    """`json.dumps(value, indent=2, ensure_ascii=False)`, byte for byte, in about half its time.

    With `indent`, the standard library encodes in Python, one call per value:
    5 ms for the JSON report of `tensorflow_estimator` (676 findings), a
    fortieth of the whole run. Here each container that holds no container (a
    finding, a list of names) is encoded in C with the newline and its
    indentation as the item separator, which yields the same text; only the
    nesting above those is walked in Python. It takes the C encoder from
    `_json`, as `json.encoder` does, so that the `json` package (and its
    decoder) is not imported for it; without the C accelerator it is
    `json.dumps` itself.
    """
    try:
        from _json import encode_basestring, make_encoder  # the C encoder `json` itself uses, without its decoder
    except ImportError:  # no C accelerator
        import json

        return json.dumps(value, indent=2, ensure_ascii=False)
    flat_encoders: dict[str, Callable] = {}
    """indentation → a C encoder whose item separator is a newline and that indentation."""

    def flat_encoder(inner: str) -> Callable:
        found = flat_encoders.get(inner)
        if found is None:
            found = flat_encoders[inner] = make_encoder(
                None, _unserialisable, encode_basestring, None, ": ", ",\n" + inner, False, False, True
            )
        return found

    scalar = flat_encoder("")

    def key_text(key) -> str:
        """A dict key as `json.dumps` writes it: strings as they are, None/bools/numbers as their JSON text."""
        if isinstance(key, str):
            return key
        if key is None or isinstance(key, (int, float)):
            return "".join(scalar(key, 0))
        raise TypeError(f"keys must be str, int, float, bool or None, not {type(key).__name__}")

    def encode(item, indent: str) -> str:
        is_dict = isinstance(item, dict)
        if not (is_dict or isinstance(item, (list, tuple))) or not item:
            return "".join(scalar(item, 0))
        inner = indent + "  "
        if not any(isinstance(entry, (dict, list, tuple)) for entry in (item.values() if is_dict else item)):
            text = "".join(flat_encoder(inner)(item, 0))
            return f"{text[0]}\n{inner}{text[1:-1]}\n{indent}{text[-1]}"
        if is_dict:
            body = f",\n{inner}".join(f"{''.join(scalar(key_text(key), 0))}: {encode(entry, inner)}" for key, entry in item.items())
            return f"{{\n{inner}{body}\n{indent}}}"
        return f"[\n{inner}" + f",\n{inner}".join(encode(entry, inner) for entry in item) + f"\n{indent}]"

    return encode(value, "")


def _unserialisable(value) -> None:
    raise TypeError(f"Object of type {type(value).__name__} is not JSON serializable")
