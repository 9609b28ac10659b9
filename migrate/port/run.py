"""One `migrate port` run: load the target, port it, write the files, check parity, write PORT.md."""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from migrate.port import contrib
from migrate.port.document import port_markdown, refused_markdown
from migrate.port.records import PortRefused, Verdict
from migrate.port.registry import porter_for
from migrate.port.target import Target, load_target
from migrate.port.writer import check_out, replace_file, write_port

Progress = Callable[[str], None]


@dataclass(frozen=True)
class PortRequest:
    """What the command line asked for."""

    target: str
    out: Path
    input_fn: str | None = None
    eval_input_fn: str | None = None
    params: str | None = None
    force: bool = False
    check: bool = True
    steps: int = 20
    serving: bool = True
    """Whether the check runs stage 6 (serving); the port writes its serving functions either way."""


@dataclass(frozen=True)
class PortOutcome:
    written: list[Path]
    verdict: Verdict


def port_target(target: Target, progress: Progress):
    """The `Port` of a loaded target by the first porter that claims it."""
    from migrate.parity.run import prepare_tensorflow_environment

    prepare_tensorflow_environment(progress)
    return porter_for(target).port(target, progress)


def run_port(request: PortRequest, progress: Progress) -> PortOutcome:
    """Port, write and check; a refused port writes PORT.md alone and re-raises `PortRefused`."""
    check_out(request.out, request.force)
    try:
        from migrate.parity.run import prepare_tensorflow_environment

        prepare_tensorflow_environment(progress)  # before the user's code imports TensorFlow
        contrib.install()  # the user's tf.contrib calls run as their TF1-core twins, from its imports on
        contrib.forget_uses()
        target = load_target(request.target, request.input_fn, request.params, request.eval_input_fn)
        port = port_target(target, progress)
        port.notes.extend(contrib.use_notes())
    except PortRefused as refused:
        write_port(request.out, {"PORT.md": refused_markdown(request.target, refused.problems)}, request.force)
        raise
    files = {**port.files, "PORT.md": port_markdown(request.target, port, None)}
    written = write_port(request.out, files, request.force)
    verdict = Verdict("not checked", "", 0)
    if request.check:
        from migrate.port.check import check_port

        progress(f"checking parity of {request.out / 'pair.py'} over {request.steps} steps")
        options = port.check_options if request.serving else {**port.check_options, "serving": False}
        verdict = check_port(request.out / "pair.py", request.steps, progress, options)
        replace_file(request.out / "PORT.md", port_markdown(request.target, port, verdict))
    return PortOutcome(written, verdict)
