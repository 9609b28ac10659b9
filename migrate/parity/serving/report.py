"""The serving stage in the Markdown report: what a TF Serving client sees, signature by signature."""
from __future__ import annotations

from migrate.parity.stages import Stage


def serving_section(stage: Stage | None) -> list[str]:
    """Markdown lines for stage 6's details (none when the stage did not run)."""
    if stage is None or "signatures" not in stage.details:
        return []
    details = stage.details
    lines = ["## 4. Serving", "", "The TF1 export's signatures (the reference); the Keras export "
             f"{'shows the same' if stage.ok else 'differs: see below'}.", "",
             "| signature | method | inputs | outputs |", "|---|---|---|---|"]
    for key, signature in details["signatures"].items():
        show = lambda tensors: "<br>".join(f"`{name}` {info}" for name, info in tensors.items())  # noqa: E731
        lines.append(f"| `{key}` | {signature['method'].rpartition('/')[2]} | {show(signature['inputs'])} | "
                     f"{show(signature['outputs'])} |")
    lines.append("")
    if details.get("parsed_features"):
        parsed = ", ".join(f"`{key}` {info}" for key, info in details["parsed_features"].items())
        lines += [f"Parsed from tf.Examples: {parsed}.", ""]
    lines += [f"Requests: {details['requests']} ({details['requests_from']}); SavedModels: "
              f"`{details['saved_models']['legacy']}`, `{details['saved_models']['modern']}`.", ""]
    lines += [f"- {item}" for item in details.get("mismatches", [])]
    return lines + ([""] if details.get("mismatches") else [])
