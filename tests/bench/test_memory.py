"""Smoke tests: the memory benchmark at a few MB, its dataset, its clean-up and its 2 GB accounting."""
from __future__ import annotations

import json

import numpy as np
import pytest

from bench import memory
from bench.run import refresh_readme

TINY_SIZES = ["--sizes", "3M", "9M", "--steps", "2"]


def _payload(directory):
    return json.loads((directory / "memory.json").read_text()), (directory / "memory.md").read_text()


def test_synthetic_dataset_is_mnist_shaped_and_memory_mappable(tmp_path):
    files = memory.make_dataset(tmp_path, 2_000_000)
    images = np.load(files.images, mmap_mode="r")
    labels = np.load(files.labels, mmap_mode="r")
    assert isinstance(images, np.memmap)
    assert images.shape == (files.examples, 28, 28) and images.dtype == np.uint8
    assert labels.shape == (files.examples,) and 0 <= labels.min() and labels.max() <= 9
    assert abs(files.total_bytes - 2_000_000) < memory.EXAMPLE_BYTES
    assert files.images.stat().st_size > files.image_bytes


def test_modern_generator_measured_in_subprocesses_and_the_data_removed(tmp_path):
    work = tmp_path / "work"
    work.mkdir()
    argv = [*TINY_SIZES, "--variants", "modern_generator", "--work-dir", str(work), "--results-dir", str(tmp_path)]
    assert memory.main(argv) == 0
    assert list(work.iterdir()) == []
    payload, markdown = _payload(tmp_path)
    runs = payload["runs"]
    assert [(run["size"], run["variant"]) for run in runs] == [(3_000_000, "modern_generator"), (9_000_000, "modern_generator")]
    for run in runs:
        assert run["result"]["outcome"] == "trained", run["result"]
        assert run["result"]["global_step"] == 2
        assert run["result"]["peak_rss_bytes"] > 0 and run["result"]["exit_code"] == 0
    assert any(name.startswith("modern_generator peak RSS within") for name in payload["targets_met"])
    assert "| 3 MB |" in markdown and "| 9 MB |" in markdown


@pytest.mark.estimator
def test_legacy_placeholder_trains_and_reports_its_input_graph_size(tmp_path):
    argv = [*TINY_SIZES, "--variants", "legacy_placeholder", "--work-dir", str(tmp_path), "--results-dir", str(tmp_path)]
    assert memory.main(argv) == 0
    payload, _ = _payload(tmp_path)
    sizes = {run["result"]["input_graph_def_bytes"] for run in payload["runs"]}
    assert all(run["result"]["outcome"] == "trained" for run in payload["runs"])
    assert max(sizes) < 10_000, "placeholders keep the data out of the GraphDef"


def test_the_constant_recipe_only_runs_where_it_must_hit_the_limit(tmp_path):
    small = memory.DatasetFiles(tmp_path / "x.npy", tmp_path / "y.npy", 1_000)
    large = memory.DatasetFiles(tmp_path / "x.npy", tmp_path / "y.npy", memory.PROTO_LIMIT // 784 + 1)
    assert memory.variants_for(small, memory.VARIANTS) == ["legacy_placeholder", "modern_generator"]
    assert memory.variants_for(large, memory.VARIANTS) == list(memory.VARIANTS)


@pytest.mark.estimator
def test_embedded_graph_grows_with_the_data_and_placeholders_do_not():
    """The size accounting behind the 2 GB wall, at a few MB (TensorFlow's limit itself cannot be lowered)."""
    from legacy.inputs import constant_input_fn, graph_def_bytes, placeholder_input_fn

    for examples in (1_000, 4_000):
        images = np.zeros((examples, 28, 28), np.uint8)
        labels = np.zeros(examples, np.uint8)
        embedded = graph_def_bytes(constant_input_fn(images, labels, batch_size=128))
        fed = graph_def_bytes(placeholder_input_fn(images, labels, batch_size=128)[0])
        assert embedded >= images.nbytes + labels.nbytes
        assert fed < 10_000


@pytest.mark.parametrize("message, expected", [
    pytest.param("Cannot create a tensor proto whose content is larger than 2GB.", True, id="one array over 2 GB"),
    pytest.param("GraphDef cannot be larger than 2GB. Received size: 2147483650.", True, id="graph adding up past 2 GB"),
    pytest.param("Dst tensor is not initialized.", False, id="an unrelated error"),
])
def test_the_2gb_limit_is_recognised_in_tensorflows_messages(message, expected):
    assert memory.hits_the_wall(message) is expected


def test_the_dataset_is_removed_when_the_run_is_interrupted(tmp_path, monkeypatch):
    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(memory, "measure_child", interrupted)
    with pytest.raises(KeyboardInterrupt):
        memory.main(["--sizes", "1M", "--work-dir", str(tmp_path), "--results-dir", str(tmp_path / "out")])
    assert list(tmp_path.iterdir()) == []


def test_sizes_parse_in_decimal_units():
    assert [memory.parse_size(text) for text in ("3G", "1.5G", "500M", "8000")] == [3 * 10**9, 15 * 10**8, 5 * 10**8, 8000]


def test_streamed_batches_equal_the_in_memory_ones(tmp_path):
    """The modern variant reads the memmap with pread; it must train on exactly the arrays' batches."""
    from modern.pipeline import train_batches

    files = memory.make_dataset(tmp_path, 400_000)
    images, labels = np.load(files.images, mmap_mode="r"), np.load(files.labels, mmap_mode="r")
    for seed in (None, 3):
        streamed = train_batches(images[5:], labels[5:], 128, seed)
        in_memory = train_batches(np.array(images[5:]), np.array(labels[5:]), 128, seed)
        for _, (a, b) in zip(range(12), zip(streamed, in_memory)):
            np.testing.assert_array_equal(a[0], b[0])
            np.testing.assert_array_equal(a[1], b[1])


def test_readme_blocks_are_replaced_and_the_rest_kept(tmp_path):
    readme = tmp_path / "README.md"
    readme.write_text("# B\n\nother section\n<!-- bench:memory -->\nold\n<!-- /bench:memory -->\ntail\n")
    (tmp_path / "memory.md").write_text("| new |\n")
    assert refresh_readme(readme, tmp_path, ["memory", "throughput"]) == ["memory"]
    assert readme.read_text() == "# B\n\nother section\n<!-- bench:memory -->\n| new |\n<!-- /bench:memory -->\ntail\n"
