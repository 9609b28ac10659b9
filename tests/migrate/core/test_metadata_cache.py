"""The callbacks' literals are read once and then come from the cache, until a file changes."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from migrate.core.hook_map import callbacks_directory, load_hook_map, read_metadata
from migrate.core.metadata_cache import cached_metadata


class CountingReader:
    """`read_metadata`, counting which files it really read."""

    def __init__(self) -> None:
        self.read: list[str] = []

    def __call__(self, path: Path):
        self.read.append(path.name)
        return read_metadata(path)


def _callback(directory: Path, name: str, hook: str) -> Path:
    path = directory / f"{name}.py"
    path.write_text(
        f'"""A callback."""\nTF1_EQUIVALENT = {{"hooks": ["{hook}"], "callback": "C", "methods": {{}}, "differences": []}}\n'
    )
    return path


@pytest.fixture
def directory(tmp_path: Path) -> Path:
    _callback(tmp_path, "a", "AHook")
    _callback(tmp_path, "b", "BHook")
    (tmp_path / "__init__.py").write_text("")
    return tmp_path


def test_unchanged_files_come_from_the_cache(directory: Path) -> None:
    first, second = CountingReader(), CountingReader()
    assert cached_metadata(directory, first) == cached_metadata(directory, second)
    assert first.read == ["__init__.py", "a.py", "b.py"] and second.read == []


def test_a_changed_new_or_removed_file_is_seen(directory: Path) -> None:
    cached_metadata(directory, CountingReader())
    _callback(directory, "a", "ChangedHook")
    _callback(directory, "c", "NewHook")
    (directory / "b.py").unlink()
    reader = CountingReader()
    found = {path.name: value for path, value in cached_metadata(directory, reader)}
    assert reader.read == ["a.py", "c.py"]
    assert {name: value and value["hooks"] for name, value in found.items()} == {
        "__init__.py": None, "a.py": ["ChangedHook"], "c.py": ["NewHook"],
    }


def test_a_same_size_edit_is_seen(directory: Path) -> None:
    cached_metadata(directory, CountingReader())
    path = _callback(directory, "a", "XHook")  # "AHook" and "XHook": same size
    os.utime(path, ns=(path.stat().st_atime_ns, path.stat().st_mtime_ns + 1))
    assert dict((p.name, v and v["hooks"]) for p, v in cached_metadata(directory, CountingReader()))["a.py"] == ["XHook"]


@pytest.mark.parametrize("damage", ["garbage", "truncated", "other format"])
def test_a_damaged_cache_is_no_cache(directory: Path, damage: str) -> None:
    expected = cached_metadata(directory, CountingReader())
    (cache_file,) = (directory / "__pycache__").glob("hook_map.*.marshal")
    data = cache_file.read_bytes()
    cache_file.write_bytes({"garbage": b"\x00not marshal", "truncated": data[: len(data) // 2],
                            "other format": data.replace(b"\xe9\x01", b"\xe9\x02", 1)}[damage])
    reader = CountingReader()
    assert cached_metadata(directory, reader) == expected
    assert reader.read == ["__init__.py", "a.py", "b.py"]
    assert cached_metadata(directory, CountingReader()) == expected  # written again


def test_an_unwritable_cache_place_still_reads_the_files(directory: Path) -> None:
    (directory / "__pycache__").write_text("a file where the cache directory would be")
    for _ in range(2):
        reader = CountingReader()
        assert [value and value["hooks"] for _, value in cached_metadata(directory, reader)] == [None, ["AHook"], ["BHook"]]
        assert reader.read == ["__init__.py", "a.py", "b.py"]
    assert list(directory.iterdir()) and not list(directory.glob("*.tmp"))


def test_a_file_that_fails_to_read_is_not_cached(directory: Path) -> None:
    (directory / "bad.py").write_text("TF1_EQUIVALENT = {'hooks': []}\n")  # lacks keys: read_metadata raises
    for _ in range(2):
        with pytest.raises(ValueError, match="lacks"):
            cached_metadata(directory, CountingReader())


def test_a_missing_directory_has_no_metadata(tmp_path: Path) -> None:
    assert cached_metadata(tmp_path / "absent", CountingReader()) == []


def test_the_hook_map_is_the_same_from_the_cache() -> None:
    assert load_hook_map() == load_hook_map(callbacks_directory())
    uncached = [metadata for path in sorted(callbacks_directory().glob("*.py")) if (metadata := read_metadata(path))]
    assert sum(len(metadata["hooks"]) for metadata in uncached) == len(load_hook_map())
