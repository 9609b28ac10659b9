#!/usr/bin/env python3
"""The project's two quick-start commands, needing only Python 3.11 and pip.

    python3 dev.py run     # create .venv if needed, fetch MNIST, run the main job
    python3 dev.py test    # create .venv and .venv-tf221 if needed, run the whole test suite

Environments live inside the checkout (git-ignored) and are installed from the
committed locks in `requirements/`; they are re-synced whenever a lock or
`pyproject.toml` changes. `python3 dev.py lock tf215|tf221` regenerates a lock.
A lock is a complete `pip freeze`, so it is installed with ``--no-deps``: that
is what lets tf-keras (Keras 2 on TF 2.21, chosen with
``TF_USE_LEGACY_KERAS=1``) sit in the TF 2.21 lock, because its dependency on
the `tensorflow` package would otherwise pull a second TensorFlow next to
`tensorflow-cpu`.
"""
from __future__ import annotations

import collections
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import tomllib
import venv
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent


PYPROJECT = ROOT / "pyproject.toml"


@dataclass(frozen=True)
class Environment:
    """A virtualenv installed from a lock that is compiled from `pyproject.toml` extras."""

    name: str
    directory: Path
    lock: Path
    extras: tuple[str, ...]
    purpose: str
    no_deps_extras: tuple[str, ...] = ()
    """Extras whose own dependencies must not be resolved (installed with ``--no-deps`` when locking)."""

    @property
    def python(self) -> Path:
        return self.directory / "bin" / "python"

    def direct_requirements(self) -> list[str]:
        """The project's dependencies plus its extras, read from pyproject.toml (the single source)."""
        project = tomllib.loads(PYPROJECT.read_text())["project"]
        optional = project.get("optional-dependencies", {})
        return [*project.get("dependencies", []), *(item for extra in self.extras for item in optional[extra])]

    def _no_deps_note(self) -> str:
        return f" (+ {', '.join(self.no_deps_extras)} with --no-deps)" if self.no_deps_extras else ""

    def no_deps_requirements(self) -> list[str]:
        optional = tomllib.loads(PYPROJECT.read_text())["project"].get("optional-dependencies", {})
        return [item for extra in self.no_deps_extras for item in optional[extra]]

    def lock_header(self) -> str:
        return (
            f"# Lock for {self.directory.name}: {self.purpose}\n"
            f"# Compiled by `python3 dev.py lock {self.name}` (pip freeze of a fresh venv) from pyproject.toml\n"
            f"# extras {', '.join(self.extras)}{self._no_deps_note()}; edit the ranges there, never here.\n"
        )


ENVIRONMENTS = {
    "tf215": Environment(
        "tf215", ROOT / ".venv", ROOT / "requirements" / "tf215.txt", ("tf215", "test", "typecheck"),
        "the legacy + modern side-by-side environment (TF 2.15, the last tf.estimator).",
    ),
    "tf221": Environment(
        "tf221", ROOT / ".venv-tf221", ROOT / "requirements" / "tf221.txt", ("tf221", "test"),
        "the modern side on TF 2.21 + Keras 3 or tf-keras (no tf.estimator exists here).",
        no_deps_extras=("tf-keras",),
    ),
}
STAMP = ".tf1-migrate-stamp"


def say(message: str) -> None:
    print(f"[dev] {message}", flush=True)


def call(*command: object, env: dict[str, str] | None = None) -> int:
    return subprocess.call([str(part) for part in command], cwd=ROOT, env=env)


def check(*command: object) -> None:
    code = call(*command)
    if code != 0:
        raise SystemExit(f"[dev] failed (exit {code}): {' '.join(map(str, command))}")


def stamp_of(environment: Environment) -> str:
    digest = hashlib.sha256()
    for path in (environment.lock, PYPROJECT):
        digest.update(path.read_bytes())
    return digest.hexdigest()


def ensure_environment(environment: Environment) -> Path:
    """Create the venv and install the lock, unless it is already in sync."""
    stamp_file = environment.directory / STAMP
    wanted = stamp_of(environment)
    if environment.python.exists() and stamp_file.exists() and stamp_file.read_text() == wanted:
        return environment.python
    if not environment.python.exists():
        say(f"creating {environment.directory.name}/ ({environment.name})")
        venv.EnvBuilder(with_pip=True, clear=True).create(environment.directory)
    say(f"installing {environment.lock.relative_to(ROOT)} into {environment.directory.name}/")
    pip = (environment.python, "-m", "pip", "--disable-pip-version-check", "--quiet")
    check(*pip, "install", "--no-deps", "-r", environment.lock)
    with EDITABLE_INSTALL:
        check(*pip, "install", "--no-deps", "-e", ROOT)
    stamp_file.write_text(wanted)
    return environment.python


EDITABLE_INSTALL = threading.Lock()
"""An editable install writes the project's egg-info into the checkout: one at a time."""


def ensure_environments(*names: str) -> list[Path]:
    """`ensure_environment` for each, side by side: a fresh clone's two installs unpack and byte-compile one file at
    a time, so together they take little more than the longer one instead of the sum."""
    with ThreadPoolExecutor(len(names)) as pool:
        return list(pool.map(ensure_environment, (ENVIRONMENTS[name] for name in names)))


def fetch_mnist(python: Path) -> None:
    check(python, "-m", "migrate", "fetch-mnist")


def training_environment() -> dict[str, str]:
    env = dict(os.environ)
    env.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
    return env


def run_main_job(extra: list[str]) -> int:
    python = ensure_environment(ENVIRONMENTS["tf215"])
    fetch_mnist(python)
    return call(python, "-m", "migrate", "parity", *extra, env=training_environment())


@dataclass(frozen=True)
class Lane:
    """One command of the test run, `python -m ARGUMENTS` in one environment: a pytest run, or a lint."""

    title: str
    python: Path
    arguments: tuple[str, ...]
    env: dict[str, str]

    def command(self, extra: list[str]) -> list[str]:
        """The command line; `dev.py test`'s own flags go to the pytest lanes only."""
        passed_on = extra if self.arguments[0] == "pytest" else []
        return [str(self.python), "-m", *self.arguments, *passed_on]


def run_lane(lane: Lane, extra: list[str], printing: threading.Lock) -> int:
    """Run one lane with its output in a file, then print that output whole (lanes side by side never interleave)."""
    started = time.monotonic()
    with tempfile.TemporaryFile(mode="w+b") as output:
        code = subprocess.call(lane.command(extra), cwd=ROOT, env=lane.env, stdout=output, stderr=subprocess.STDOUT)
        output.seek(0)
        with printing:
            say(f"{lane.title} — exit {code} after {time.monotonic() - started:.0f} s")
            sys.stdout.flush()
            shutil.copyfileobj(output, sys.stdout.buffer)
            sys.stdout.buffer.flush()
    return code


def run_tracks(tracks: list[list[Lane]], shared: list[Lane], extra: list[str]) -> dict[str, int]:
    """Each track runs its own lanes in order, then takes the shared lanes one at a time, whichever is next in the list
    when it is free; the tracks run side by side (DEV_TEST_JOBS=1: one lane at a time). Exit codes by lane title.

    The suite is mostly single-threaded, so two tracks on two cores take about half the time of one. Taken longest
    first, the shared lanes fill whichever track is free, so the tracks end close together whatever each lane costs.
    """
    printing = threading.Lock()
    codes: dict[str, int] = {}
    waiting = collections.deque(shared)  # popleft is atomic: no two tracks take the same lane
    serial = os.environ.get("DEV_TEST_JOBS") == "1"

    def run_track(track: list[Lane]) -> None:
        for lane in track:
            codes[lane.title] = run_lane(lane, extra, printing)
        while waiting:
            try:
                lane = waiting.popleft()
            except IndexError:
                return
            codes[lane.title] = run_lane(lane, extra, printing)

    if serial:
        for track in tracks:
            run_track(track)
    else:
        threads = [threading.Thread(target=run_track, args=(track,)) for track in tracks]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    return codes


def lint_lanes(python: Path, env: dict[str, str]) -> list[Lane]:
    """Ruff (pyflakes, pyupgrade, isort, bugbear) over the whole checkout, then mypy over the packages.

    Both are configured in pyproject.toml; mypy keeps its incremental cache in .mypy_cache/ (git-ignored),
    so only the modules changed since the last run are checked again.
    """
    return [Lane("lint (ruff check)", python, ("ruff", "check", "."), env), Lane("type check (mypy)", python, ("mypy",), env)]


TF215_PARTS = (
    ("tests/migrate/parity/test_parity_command.py", "tests/migrate/parity/distributed"),
    ("tests/migrate/parity",),
    ("tests/modern",),
    ("tests",),
    ("tests/migrate/port",),
    ("tests/legacy",),
    ("tests/examples", "tests/migrate/port_canned"),
    ("tests/bench",),
)
"""The TF 2.15 suite in parts, the longest first (each a pytest run a free track takes). A part runs its paths but
what another part names inside them, so `tests` is everything not listed and a new directory is run there. Tests
sharing a package-scoped run stay in one part: the MNIST command's and the distributed ones share `faulted_run`."""


def tf215_lanes(python: Path, env: dict[str, str]) -> list[Lane]:
    named = [path for part in TF215_PARTS for path in part]
    lanes = []
    for part in TF215_PARTS:
        inside = [other for other in named if other not in part and any(Path(other).is_relative_to(path) for path in part)]
        title = f"tests on TF 2.15: {', '.join(part)}" + (" (all the others)" if part == ("tests",) else "")
        lanes.append(Lane(title, python, ("pytest", *part, *(f"--ignore={path}" for path in inside)), env))
    return lanes


NO_TESTS_COLLECTED = 5
"""pytest's exit code when its selection is empty."""


def selected_nothing_is_no_failure(codes: dict[str, int], pytest_lanes: list[str]) -> dict[str, int]:
    """With `dev.py test -k …` or a path, most lanes select nothing (pytest exit 5): that is no failure of theirs —
    unless no lane selected anything, which is a filter matching no test (kept as 5, so the run says so)."""
    if all(codes[title] == NO_TESTS_COLLECTED for title in pytest_lanes):
        return codes
    return {title: 0 if title in pytest_lanes and code == NO_TESTS_COLLECTED else code for title, code in codes.items()}


def run_tests(extra: list[str]) -> int:
    python215, python221 = ensure_environments("tf215", "tf221")
    fetch_mnist(python215)
    env = training_environment()
    env["MIGRATE_TF221_PYTHON"] = str(python221)
    tf221 = Lane(
        "tests on TF 2.21 / Keras 3 (modern, parity, port, and the TF-free directories' TensorFlow tests; "
        "tf.estimator does not exist there)", python221,
        ("pytest", "tests/modern", "tests/migrate", "-m", "not estimator and not tf_free"), env,
    )
    tf_keras = Lane(
        "callback tests on TF 2.21 / tf-keras (TF_USE_LEGACY_KERAS=1, the Keras 2 many migrating teams keep)",
        python221, ("pytest", "tests/modern/callbacks", "-m", "not estimator"), {**env, "TF_USE_LEGACY_KERAS": "1"},
    )
    lint, tf215 = lint_lanes(python215, env), tf215_lanes(python215, env)
    say("two tracks side by side: one takes the TF 2.15 suite's parts, the other runs the lint and the TF 2.21 lanes, "
        "then takes parts too; each lane's output is printed when it ends")
    codes = run_tracks([[], [*lint, tf221, tf_keras]], tf215, extra)
    if extra:
        codes = selected_nothing_is_no_failure(codes, [lane.title for lane in (*tf215, tf221, tf_keras)])
    linted, first = (next((codes[lane.title] for lane in lanes if codes[lane.title]), 0) for lanes in (lint, tf215))
    second, third = codes[tf221.title], codes[tf_keras.title]
    say(f"lint exit {linted}, TF 2.15 suite exit {first}, TF 2.21 suite exit {second}, tf-keras suite exit {third}")
    return linted or first or second or third


def regenerate_lock(name: str) -> int:
    environment = ENVIRONMENTS[name]
    with tempfile.TemporaryDirectory() as scratch:
        venv.EnvBuilder(with_pip=True).create(scratch)
        python = Path(scratch) / "bin" / "python"
        check(python, "-m", "pip", "install", "--quiet", *environment.direct_requirements())
        if environment.no_deps_extras:
            check(python, "-m", "pip", "install", "--quiet", "--no-deps", *environment.no_deps_requirements())
        frozen = subprocess.run([python, "-m", "pip", "freeze"], capture_output=True, text=True, check=True).stdout
    environment.lock.write_text(environment.lock_header() + frozen)
    say(f"wrote {environment.lock.relative_to(ROOT)}")
    return 0


def lock_command(rest: list[str]) -> int:
    if len(rest) != 1 or rest[0] not in ENVIRONMENTS:
        print(USAGE, file=sys.stderr)
        return 2
    return regenerate_lock(rest[0])


USAGE = "usage: python3 dev.py run [migrate parity flags] | test [pytest flags] | lock tf215|tf221"
TASKS = {"run": run_main_job, "test": run_tests, "lock": lock_command}


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in TASKS:
        print(USAGE, file=sys.stderr)
        return 2
    return TASKS[argv[0]](argv[1:])


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
