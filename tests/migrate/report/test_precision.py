"""Precision and recall of `migrate report` on the labelled sample (`sample/`), per rule.

Each line of the sample that must be reported ends with `# expect: CODE[, CODE]`
(a code twice: two findings on that line); every other finding is a false
positive. The table is printed on every run; the acceptance bar is
precision ≥ 98 % and recall ≥ 99 % over all rules, with every rule covered.
"""
from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import pytest

from migrate.report.registry import load_rules

SAMPLE = Path(__file__).with_name("sample")
EXPECT = re.compile(r"#\s*expect:\s*(.+)$")

Key = tuple[str, int, str]


def expected_findings() -> Counter[Key]:
    expected: Counter[Key] = Counter()
    for path in sorted(SAMPLE.rglob("*.py")):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            match = EXPECT.search(line)
            if match:
                for code in match.group(1).split(","):
                    expected[(path.relative_to(SAMPLE).as_posix(), number, code.strip())] += 1
    return expected


@dataclass
class Scores:
    by_rule: dict[str, tuple[int, int, int]]
    """rule code → (true positives, false positives, false negatives)."""
    false_positives: list[Key]
    false_negatives: list[Key]


@pytest.fixture(scope="module")
def scored(tmp_path_factory) -> Scores:
    from migrate.report.scanner import ScanOptions, scan

    report = scan([str(SAMPLE)], ScanOptions(jobs=1, callbacks_dir=tmp_path_factory.mktemp("no-callbacks")))
    assert not report.skipped, report.skipped
    found: Counter[Key] = Counter(
        (Path(finding.path).relative_to(SAMPLE).as_posix(), finding.line, finding.code) for finding in report.findings
    )
    expected = expected_findings()
    scores = {}
    for code in load_rules():
        hits = sum((min(count, found[key]) for key, count in expected.items() if key[2] == code), 0)
        scores[code] = (
            hits,
            sum(count for key, count in found.items() if key[2] == code) - hits,
            sum(count for key, count in expected.items() if key[2] == code) - hits,
        )
    return Scores(scores, sorted((found - expected).elements()), sorted((expected - found).elements()))


def _ratio(numerator: int, denominator: int) -> float:
    return numerator / denominator if denominator else 1.0


def test_precision_and_recall_per_rule(scored: Scores, capsys) -> None:
    rules = load_rules()
    lines = ["", "rule     name                            TP   FP   FN  precision  recall"]
    for code, (hits, false_positives, false_negatives) in scored.by_rule.items():
        precision = _ratio(hits, hits + false_positives)
        recall = _ratio(hits, hits + false_negatives)
        lines.append(f"{code}  {rules[code].name:30} {hits:4} {false_positives:4} {false_negatives:4}  {precision:8.1%}  {recall:6.1%}")
    hits, false_positives, false_negatives = (sum(column) for column in zip(*scored.by_rule.values()))
    precision, recall = _ratio(hits, hits + false_positives), _ratio(hits, hits + false_negatives)
    lines.append(f"{'all':37} {hits:5} {false_positives:4} {false_negatives:4}  {precision:8.1%}  {recall:6.1%}")
    with capsys.disabled():
        print("\n".join(lines))
    assert precision >= 0.98, f"false positives: {scored.false_positives}"
    assert recall >= 0.99, f"missed: {scored.false_negatives}"


def test_sample_covers_every_rule(scored: Scores) -> None:
    assert [code for code, (hits, _, misses) in scored.by_rule.items() if hits + misses == 0] == []


def test_sample_has_the_hard_cases() -> None:
    """The wrapper-function, module-path and flag cases the issue names stay in the sample."""
    text = "\n".join(path.read_text(encoding="utf-8") for path in SAMPLE.rglob("*.py"))
    for case in ("contrib.slim().arg_scope", "contrib.tpu().TPUEstimator", "tf.train.queue_runner.add_queue_runner",
                 "tf.queue.FIFOQueue", "seq_len = FLAGS.max_seq_length", "hparams.initializer", "flags = tf.flags",
                 "tf.train.GlobalStepWaiterHook)", "tf_debug.LocalCLIDebugHook", "CrossShardOptimizer",
                 "from tensorflow.python.platform import flags", "tpu_estimator.TPUEstimator("):
        assert case in text, case
