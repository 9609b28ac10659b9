#!/usr/bin/env python3
"""Does `migrate fix` + `migrate report` cover what `tf_upgrade_v2` changes? (issue 27), with CPU figures.

    .venv/bin/python -m bench.upgrade_coverage            # ten trees; writes results/upgrade_coverage.{json,md}
    .venv/bin/python -m bench.upgrade_coverage --quick    # tensorflow/nmt only, nothing written
    .venv/bin/python -m bench.upgrade_coverage --tree owner/name@commit ...   # other trees, nothing written

Trees: real TF1 repositories at pinned commits — tensorflow/nmt (an NMT
system), davidsandberg/facenet (a face-recognition trainer), NVIDIA/OpenSeq2Seq
(a speech/translation toolkit) and tensorflow/tensor2tensor, which the rules were
tuned on; then six the rules had not seen before they were measured (each one's
misses fixed in the rules, `tests/migrate/report/sample/unseen/` holds their
shapes): carpedm20/DCGAN-tensorflow (a GAN), openai/baselines (RL),
mozilla/DeepSpeech v0.5.1 (speech), tensorpack/tensorpack (a training
framework, 2018), tkipf/gcn (graph convolutions, `tf` star-imported) and
thtrieu/darkflow (YOLO, TF 0.x-era calls). Their `.py`
files are taken from a git mirror (`--mirrors`, one `owner+name/repo` git
directory each, as the session's `fetch` tool leaves them; cloned from GitHub
into `bench/.work/mirrors/` when absent) into `bench/.work/upgrade/` — never
committed.

For each tree, on copies of the same files:

1. `tf_upgrade_v2` (TensorFlow 2.15's own upgrader, run file by file in one process as
   `tf_upgrade_v2 --intree` runs it, so that a file it crashes on does not stop the tree);
2. `migrate fix` (timed), then `migrate fix` again on its output (the no-op re-run, timed);
3. `migrate report` on the original files (timed; every rule).

Every original line `tf_upgrade_v2` changed (a line-level diff of its output
against the input, in files both tools could parse) is then classified:
**made** when `migrate fix` changed that line too, else **reported** when the
report has a finding on it or on another line of its statement (a call's
argument lines belong to the call), or the line uses a name whose binding's
finding covers its uses (`slim = tf.contrib.slim`, "covers the 9 uses of
`slim`"), else **keywords only** when tf_upgrade_v2
only spelled out keywords for positional arguments whose meaning TF2 keeps
(checked against the derived `data/tf1_arguments.txt`), else **missed**. `tf_upgrade_v2`'s own report
lines (`Renamed 'tf.log' to 'tf.math.log'`, …) on missed lines are tallied
by kind, so what is missed says what it is.
"""
from __future__ import annotations

import argparse
import ast
import difflib
import json
import re
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import NamedTuple

from bench.common import RESULTS, ROOT, load_average, machine, markdown_table, publish, timestamp
from bench.report_speed import timed

WORK = ROOT / "bench" / ".work" / "upgrade"
DEFAULT_MIRRORS = Path("/work/.mirror")
TREES = {
    "tensorflow/nmt": "0be864257a76c151eef20ea689755f08bc1faf4e",
    "davidsandberg/facenet": "096ed770f163957c1e56efa7feeb194773920f6e",
    "NVIDIA/OpenSeq2Seq": "8681d381ed404fde516e2c1b823de5a213c59aba",
    "tensorflow/tensor2tensor": "bafdc1b67730430d38d6ab802cbd51f9d053ba2e",
    "carpedm20/DCGAN-tensorflow": "62c9a2a7f74505cad30858bf40307c93e5bd9293",
    "openai/baselines": "ea25b9e8b234e6ee1bca43083f8f3cf974143998",
    "mozilla/DeepSpeech": "4b29b78832036216b53f59b953639bde7cde7dfe",
    "tensorpack/tensorpack": "f63e0ee47c3e695001275b526b1fa7690948f692",
    "tkipf/gcn": "39a4089fe72ad9f055ed6fdb9746abdcfebc4d81",
    "thtrieu/darkflow": "eb7e830393f24233032b8578737141528be01d65",
}
TARGET = 0.99
_REPORT_LINE = re.compile(r"^(?P<line>\d+):(?P<column>\d+): (?P<level>INFO|WARNING|ERROR): (?P<message>.*)$")
_PROCESSING = re.compile(r"^Processing file '(?P<path>.+)'$")


def mirror(repository: str, mirrors: Path) -> Path:
    """The git directory of `repository` (owner/name): the session's mirror, else a clone of our own."""
    for candidate in (mirrors / repository.replace("/", "+") / "repo", WORK.parent / "mirrors" / repository.replace("/", "+")):
        if (candidate / "HEAD").exists() or (candidate / ".git").exists():
            return candidate
    clone = WORK.parent / "mirrors" / repository.replace("/", "+")
    clone.parent.mkdir(parents=True, exist_ok=True)
    subprocess.run(["git", "clone", "--bare", "--quiet", f"https://github.com/{repository}.git", str(clone)], check=True)
    return clone


def extract(repository: str, commit: str, mirrors: Path, destination: Path) -> int:
    """The repository's `.py` files at `commit` into `destination`; how many."""
    git = ["git", "--git-dir", str(_git_dir(mirror(repository, mirrors)))]
    names = subprocess.run([*git, "ls-tree", "-r", "--name-only", commit], capture_output=True, text=True, check=True).stdout.split("\n")
    if destination.exists():
        shutil.rmtree(destination)
    count = 0
    for name in names:
        if not name.endswith(".py"):
            continue
        data = subprocess.run([*git, "show", f"{commit}:{name}"], capture_output=True, check=True).stdout
        target = destination / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
        count += 1
    return count


def _git_dir(path: Path) -> Path:
    return path / ".git" if (path / ".git").exists() else path


def changed_lines(before: str, after: str) -> set[int]:
    """1-based lines of `before` that a line diff to `after` replaces or deletes."""
    lines: set[int] = set()
    matcher = difflib.SequenceMatcher(None, before.splitlines(), after.splitlines(), autojunk=False)
    for tag, first, last, _, _ in matcher.get_opcodes():
        if tag in ("replace", "delete"):
            lines.update(range(first + 1, last + 1))
    return lines


def upgrade_messages(report: Path, tree: Path) -> dict[str, dict[int, list[str]]]:
    """tf_upgrade_v2's report: relative path → line → its messages."""
    messages: dict[str, dict[int, list[str]]] = {}
    current: dict[int, list[str]] | None = None
    for line in report.read_text(encoding="utf-8", errors="replace").splitlines():
        processing = _PROCESSING.match(line)
        if processing:
            path = Path(processing.group("path"))
            relative = path.relative_to(tree).as_posix() if path.is_absolute() and path.is_relative_to(tree) else path.as_posix()
            current = messages.setdefault(relative, {})
            continue
        entry = _REPORT_LINE.match(line)
        if entry and current is not None:
            current.setdefault(int(entry.group("line")), []).append(f"{entry.group('level')}: {entry.group('message')}")
    return messages


def kind_of(message: str) -> str:
    """`INFO: Renamed 'tf.log' to 'tf.math.log'` → `Renamed … tf.log`: the message's words before its first
    quoted name, and that name."""
    text = message.split(": ", 1)[1] if ": " in message else message
    quoted = re.findall(r"'([^']+)'", text)
    head = " ".join(text.split("'", 1)[0].split()[:6])
    return f"{head} {quoted[0]}" if quoted else head


def statement_lines(text: str) -> dict[int, range]:
    """Line → the lines of its statement: the innermost simple statement, or a compound statement's header
    (a finding on `noise = tf.random_normal(` covers the `stddev=` line below it that tf_upgrade_v2 changed)."""
    spans: dict[int, range] = {}

    def visit(body: list[ast.stmt]) -> None:
        for statement in body:
            inner = [value for field in ("body", "orelse", "finalbody", "handlers", "cases")
                     for value in [getattr(statement, field, None)] if isinstance(value, list) and value]
            if inner:
                first_inner = min(child.lineno for block in inner for child in block)
                header = range(statement.lineno, max(statement.lineno, first_inner - 1) + 1)
                for line in header:
                    spans.setdefault(line, header)
                for block in inner:
                    visit([child for child in block if isinstance(child, ast.stmt)] or
                          [item for clause in block for item in getattr(clause, "body", [])])
            else:
                span = range(statement.lineno, (statement.end_lineno or statement.lineno) + 1)
                for line in span:
                    spans[line] = span

    visit(ast.parse(text).body)
    return spans


_COVERS = re.compile(r"\(covers the .*\)$")
_COVERED_NAME = re.compile(r"`(\w+)`")


def _uses(text: str, lines, names) -> bool:
    """One of `names` (bound by a reported import or assignment whose finding covers their uses) is used on `lines`."""
    if not names:
        return False
    source = text.splitlines()
    pattern = re.compile(r"\b(" + "|".join(map(re.escape, names)) + r")\.")
    return any(pattern.search(source[line - 1]) for line in lines if 0 < line <= len(source))


_ADDED_KEYWORDS = re.compile(r"^INFO: Added keywords to args of function '(?P<name>[\w.]+)'$")


def keywords_only(messages: list[str], tree: ast.Module, line: int) -> bool:
    """tf_upgrade_v2 only spelled out keywords (and renamed the ones it spelled out) for positional arguments that
    mean the same in TF2
    (`tf.nn.max_pool(x, k, s, "SAME")` → `tf.nn.max_pool(input=x, ksize=k, …)`): the derived
    `data/tf1_arguments.txt` says how many leading positions keep their meaning, the call on the line how many
    it passes. Such a change changes nothing to do."""
    from migrate.scanning.tf1_api import changed_arguments

    names = [match.group("name") for message in messages if (match := _ADDED_KEYWORDS.match(message))]
    renamed = [match for message in messages if (match := _RENAMED_KEYWORD.match(message))]
    if not names or len(names) + len(renamed) != len(messages):
        return False
    table = changed_arguments()
    for name in names:
        entry = table.get("tensorflow" + name[2:])
        keeps = entry.positional if entry is not None and entry.positional is not None else None
        calls = [node for node in ast.walk(tree) if type(node) is ast.Call and node.lineno <= line <= (node.end_lineno or node.lineno)
                 and (ast.unparse(node.func).endswith(name.rpartition(".")[2]))]
        if not calls:
            return False
        if keeps is not None and any(len(call.args) > keeps for call in calls):
            return False
    for match in renamed:  # a keyword tf_upgrade_v2 renamed must be one it added, not one the call wrote
        written = {keyword.arg for node in ast.walk(tree) if type(node) is ast.Call
                   and node.lineno <= line <= (node.end_lineno or node.lineno) for keyword in node.keywords}
        if match.group("old") in written:
            return False
    return True


_RENAMED_KEYWORD = re.compile(r"^INFO: Renamed keyword argument for (?P<name>[\w.]+) from (?P<old>\w+) to (?P<new>\w+)$")


def _parses(text: str) -> bool:
    try:
        ast.parse(text)
    except (SyntaxError, ValueError):
        return False
    return True


def measure(repository: str, commit: str, mirrors: Path) -> dict:
    stem = repository.replace("/", "+")
    original = WORK / stem / "original"
    files = extract(repository, commit, mirrors, original)
    upgraded, fixed = WORK / stem / "tf_upgrade_v2", WORK / stem / "fixed"
    timings = _run_tools(original, upgraded, fixed, WORK / stem)
    findings, covered_names = _reported_lines(WORK / stem / "report.json", original)
    messages = upgrade_messages(WORK / stem / "tf_upgrade_v2_report.txt", original)
    tally = _Tally(Counter(), Counter(), [])
    unparsable = 0
    for path in sorted(original.rglob("*.py")):
        relative = path.relative_to(original).as_posix()
        before = path.read_text(encoding="utf-8", errors="replace")
        upgraded_path = upgraded / relative
        if not upgraded_path.exists() or not _parses(before):
            unparsable += 1
            continue
        upgrade_lines = changed_lines(before, upgraded_path.read_text(encoding="utf-8", errors="replace"))
        if upgrade_lines:
            fix_lines = changed_lines(before, (fixed / relative).read_text(encoding="utf-8", errors="replace"))
            _classify(tally, relative, before, upgrade_lines, fix_lines, findings.get(relative, set()),
                      covered_names.get(relative, set()), messages.get(relative, {}))
    counts = tally.counts
    total = sum(counts.values()) - counts["whitespace"]
    return {
        "repository": repository, "commit": commit, "files": files, "files_not_compared": unparsable,
        "changed_lines": total, "made": counts["made"], "reported": counts["reported"],
        "equivalent": counts["equivalent"], "missed": counts["missed"], "whitespace_only": counts["whitespace"],
        "covered": round((counts["made"] + counts["reported"]) / total, 4) if total else 1.0,
        "covered_or_equivalent": round((total - counts["missed"]) / total, 4) if total else 1.0,
        "missed_kinds": tally.missed_kinds.most_common(30), "missed_examples": tally.missed_examples,
        "timings": timings,
    }


def _run_tools(original: Path, upgraded: Path, fixed: Path, work: Path) -> dict:
    """tf_upgrade_v2 into `upgraded`; `migrate report` on `original`; `migrate fix` twice on a copy (`fixed`, the
    second run a no-op) and `migrate report` on the result: each timed as a subprocess."""
    for path in (upgraded, fixed):
        if path.exists():
            shutil.rmtree(path)
    shutil.copytree(original, fixed)
    python = sys.executable
    upgrade = timed([python, "-m", "bench.upgrade_coverage", "--tf-upgrade-v2", str(original), str(upgraded),
                     str(work / "tf_upgrade_v2_report.txt")])
    report = timed([python, "-m", "migrate", "report", str(original), "--format", "json", "--output", str(work / "report.json")])
    fix = timed([python, "-m", "migrate", "fix", str(fixed), "--quiet"])
    fix_again = timed([python, "-m", "migrate", "fix", str(fixed), "--quiet"])
    report_fixed = timed([python, "-m", "migrate", "report", str(fixed), "--format", "json", "--output", str(work / "report-fixed.json")])
    return {"tf_upgrade_v2": upgrade, "migrate_report": report, "migrate_fix": fix, "migrate_fix_again": fix_again,
            "migrate_report_fixed": report_fixed}


def _reported_lines(report_json: Path, original: Path) -> tuple[dict[str, set[int]], dict[str, set[str]]]:
    """Per file, the lines with a finding; and the names whose uses a finding covers
    (`(covers the 3 uses of `slim`)`): those uses are reported."""
    findings: dict[str, set[int]] = {}
    covered_names: dict[str, set[str]] = {}
    for finding in json.loads(report_json.read_text(encoding="utf-8"))["findings"]:
        relative = Path(finding["path"]).resolve().relative_to(original.resolve()).as_posix()
        findings.setdefault(relative, set()).add(finding["line"])
        covers = _COVERS.search(finding["message"])
        if covers:
            covered_names.setdefault(relative, set()).update(_COVERED_NAME.findall(covers.group(0)))
    return findings, covered_names


class _Tally(NamedTuple):
    counts: Counter[str]
    """made / reported / equivalent / missed / whitespace → changed lines of tf_upgrade_v2."""
    missed_kinds: Counter[str]
    missed_examples: list[str]


def _classify(
    tally: _Tally, relative: str, before: str, upgrade_lines: set[int], fix_lines: set[int], reported: set[int],
    covered_names: set[str], messages: dict[int, list[str]],
) -> None:
    """Each line of one file tf_upgrade_v2 changed, counted as made by `fix`, reported, equivalent or missed."""
    counts = tally.counts
    statements = statement_lines(before)
    tree = ast.parse(before)
    source_lines = before.splitlines()
    for line in sorted(upgrade_lines):
        if line > len(source_lines) or not source_lines[line - 1].strip():
            counts["whitespace"] += 1  # pasta drops blank lines' spaces and a last line's missing newline
            continue
        said = [message for first in statements.get(line, (line,)) for message in messages.get(first, [])]
        if line in fix_lines:
            counts["made"] += 1
        elif line in reported or not reported.isdisjoint(statements.get(line, ())) or _uses(
            before, statements.get(line, (line,)), covered_names
        ):
            counts["reported"] += 1
        elif said and keywords_only(said, tree, line):
            counts["equivalent"] += 1
        else:
            counts["missed"] += 1
            said = messages.get(line, ["(no message on the line)"])
            tally.missed_kinds.update(kind_of(message) for message in said)
            if len(tally.missed_examples) < 40:
                tally.missed_examples.append(
                    f"{relative}:{line}: {source_lines[line - 1].strip()[:120]}  [{'; '.join(said)[:200]}]"
                )


def render(results: list[dict], loads: tuple[float, float]) -> str:
    rows = []
    for result in results:
        timings = result["timings"]
        upgrade, fix, again = (timings[key]["cpu_seconds"] for key in ("tf_upgrade_v2", "migrate_fix", "migrate_fix_again"))
        report = timings["migrate_report_fixed"]["cpu_seconds"]
        rows.append([
            result["repository"], result["files"], result["changed_lines"], result["made"], result["reported"],
            result["equivalent"], result["missed"], f"{result['covered']:.1%}", f"{result['covered_or_equivalent']:.1%}",
            f"{upgrade:.2f} s", f"{fix:.2f} s ({upgrade / fix:.1f}× less)" if fix else "-",
            f"{again:.2f} s ({again / report:.2f}× the report's {report:.2f} s)" if report else "-",
        ])
    total = {key: sum(result[key] for result in results) for key in ("changed_lines", "made", "reported", "equivalent", "missed")}
    covered = (total["made"] + total["reported"]) / total["changed_lines"] if total["changed_lines"] else 1.0
    meaningful = total["changed_lines"] - total["equivalent"]
    covered_meaningful = (total["made"] + total["reported"]) / meaningful if meaningful else 1.0
    table = markdown_table(
        ["tree", "files", "lines tf_upgrade_v2 changed", "made by fix", "reported", "keywords only", "missed",
         "made or reported", "… or keywords only", "tf_upgrade_v2 CPU", "migrate fix CPU", "fix re-run (no-op) CPU"],
        rows,
    )
    lines = [
        "# `tf_upgrade_v2` changes covered by `migrate fix` + `migrate report`",
        "",
        "Command: `python -m bench.upgrade_coverage`  ",
        f"Measured: {timestamp()}; load average {loads[0]:.2f} before, {loads[1]:.2f} after (2 shared CPUs).",
        "",
        "Every original line `tf_upgrade_v2` changed is **made** (`migrate fix` changed it too), else **reported** "
        "(`migrate report` has a finding on it or on another line of the same statement), else **missed**. "
        "CPU is user+sys of each tool's whole process tree.",
        "",
        table,
        "",
        f"All trees: {total['changed_lines']} lines, {total['made']} made, {total['reported']} reported, "
        f"{total['equivalent']} keywords only, {total['missed']} missed — **{covered:.1%} made or reported** of all "
        f"changed lines; {covered_meaningful:.1%} of the {meaningful} that are more than keywords spelled out "
        f"(target ≥ {TARGET:.0%}: {'met' if covered_meaningful >= TARGET else 'NOT met'} on those, "
        f"{'met' if covered >= TARGET else 'NOT met'} on all).",
        "",
        "Not counted: lines that were blank (whitespace only) before tf_upgrade_v2 rewrote them — pasta drops "
        f"their spaces and a last line's missing newline ({sum(result['whitespace_only'] for result in results)} lines).",
        "",
        "*Keywords only*: tf_upgrade_v2's only change on the line is `Added keywords to args of function …` for "
        "positional arguments that, per the derived `migrate/scanning/data/tf1_arguments.txt`, mean the same in TF2 "
        "(`tf.nn.max_pool(x, k, s, 'SAME')`): nothing to do, so neither fixed nor reported.",
        "",
    ]
    for result in results:
        if result["missed_kinds"]:
            lines += [f"## Missed in {result['repository']} (by tf_upgrade_v2's message)", ""]
            lines += [f"- {count} × {kind}" for kind, count in result["missed_kinds"]]
            lines.append("")
    return "\n".join(lines)


def run_tf_upgrade_v2(tree: Path, out: Path, report: Path) -> int:
    """`tf_upgrade_v2 --intree` as TensorFlow's `tf_upgrade_v2_main` runs it (`ast_edits.ASTCodeUpgrader` with
    `TFAPIChangeSpec`, one process), file by file: the tool stops the whole tree at a file pasta cannot annotate
    (`AnnotationError` on a slice in facenet), which is recorded here and the file left out."""
    from tensorflow.tools.compatibility import ast_edits, tf_upgrade_v2

    upgrader = ast_edits.ASTCodeUpgrader(tf_upgrade_v2.TFAPIChangeSpec())
    logs = []
    for path in sorted(tree.rglob("*.py")):
        target = out / path.relative_to(tree)
        target.parent.mkdir(parents=True, exist_ok=True)
        try:
            _, log, errors = upgrader.process_file(str(path), str(target))
        except Exception as error:  # noqa: BLE001 - the tool's own crash on one file
            logs.append(f"Processing file '{path}'\nCRASHED: {type(error).__name__}: {str(error)[:200]}\n")
            target.unlink(missing_ok=True)
            continue
        logs.append(log + "\n".join(errors) + "\n")
    report.write_text("".join(logs), encoding="utf-8")
    return 0


def _pinned_tree(text: str) -> tuple[str, str]:
    """`owner/name@commit` → (`owner/name`, `commit`): a tree to measure that is not pinned in `TREES` — a
    repository nobody has tuned the rules for (issue 27's acceptance measures on such trees)."""
    repository, _, commit = text.partition("@")
    if repository.count("/") != 1 or not commit:
        raise argparse.ArgumentTypeError(f"expected OWNER/NAME@COMMIT (e.g. tensorflow/nmt@0be8642), got {text!r}")
    return repository, commit


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tf-upgrade-v2", nargs=3, type=Path, metavar=("TREE", "OUT", "REPORT"), help=argparse.SUPPRESS)
    parser.add_argument("--quick", action="store_true", help="tensorflow/nmt only, nothing written")
    parser.add_argument("--mirrors", type=Path, default=DEFAULT_MIRRORS, help="directory of owner+name/repo git mirrors")
    parser.add_argument("--tree", action="append", type=_pinned_tree, metavar="OWNER/NAME@COMMIT", default=[],
                        help="measure this tree instead of the pinned ones (repeatable); nothing is written")
    arguments = parser.parse_args(argv)
    if arguments.tf_upgrade_v2:
        return run_tf_upgrade_v2(*arguments.tf_upgrade_v2)
    trees = dict(list(TREES.items())[:1]) if arguments.quick else dict(arguments.tree) or TREES
    load_before = load_average()[0]
    results = []
    for repository, commit in trees.items():
        print(f"[upgrade_coverage] {repository}", file=sys.stderr, flush=True)
        results.append(measure(repository, commit, arguments.mirrors))
    loads = (load_before, load_average()[0])
    payload = {"machine": machine(), "measured": timestamp(), "load": loads, "trees": results}
    publish("upgrade_coverage", payload, render(results, loads), RESULTS, arguments.quick or bool(arguments.tree))
    meaningful = sum(result["changed_lines"] - result["equivalent"] for result in results)
    covered = sum(result["made"] + result["reported"] for result in results) / max(meaningful, 1)
    return 0 if covered >= TARGET else 1


if __name__ == "__main__":
    raise SystemExit(main())
