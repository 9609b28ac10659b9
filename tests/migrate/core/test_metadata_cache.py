"""The callbacks' literals are read once and then come from the cache, until a file changes."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from migrate.core.hook_map import callbacks_directory, load_hook_map, read_metadata
from migrate.core.metadata_cache import cache_file_for, cached_metadata


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
def cache_home(tmp_path: Path, monkeypatch) -> Path:
    monkeypatch.setenv("MIGRATE_CACHE_DIR", str(tmp_path / "user-cache"))
    return tmp_path / "user-cache"


@pytest.fixture
def directory(tmp_path: Path, cache_home: Path) -> Path:
    callbacks = tmp_path / "callbacks"
    callbacks.mkdir()
    _callback(callbacks, "a", "AHook")
    _callback(callbacks, "b", "BHook")
    (callbacks / "__init__.py").write_text("")
    return callbacks


def test_the_cache_lives_in_the_user_cache_not_beside_the_package(directory: Path, cache_home: Path) -> None:
    before = sorted(path.name for path in directory.iterdir())
    cached_metadata(directory, CountingReader())
    assert sorted(path.name for path in directory.iterdir()) == before, "nothing is written into the install"
    assert cache_file_for(directory).is_file() and cache_file_for(directory).is_relative_to(cache_home)


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
    cache_file = cache_file_for(directory)
    data = cache_file.read_bytes()
    cache_file.write_bytes({"garbage": b"\x00not marshal", "truncated": data[: len(data) // 2],
                            "other format": data.replace(b"\xe9\x01", b"\xe9\x02", 1)}[damage])
    reader = CountingReader()
    assert cached_metadata(directory, reader) == expected
    assert reader.read == ["__init__.py", "a.py", "b.py"]
    assert cached_metadata(directory, CountingReader()) == expected  # written again


def test_an_unwritable_cache_place_still_reads_the_files(directory: Path, cache_home: Path) -> None:
    cache_home.write_text("a file where the cache directory would be")
    for _ in range(2):
        reader = CountingReader()
        assert [value and value["hooks"] for _, value in cached_metadata(directory, reader)] == [None, ["AHook"], ["BHook"]]
        assert reader.read == ["__init__.py", "a.py", "b.py"]
    assert list(directory.iterdir()) and not list(directory.glob("*.tmp")) and not (directory / "__pycache__").exists()


def test_a_file_that_fails_to_read_is_not_cached(directory: Path) -> None:
    (directory / "bad.py").write_text("TF1_EQUIVALENT = {'hooks': []}\n")  # lacks keys: read_metadata raises
    for _ in range(2):
        with pytest.raises(ValueError, match="lacks"):
            cached_metadata(directory, CountingReader())


def test_a_missing_directory_has_no_metadata(tmp_path: Path, cache_home: Path) -> None:
    assert cached_metadata(tmp_path / "absent", CountingReader()) == []


def test_the_hook_map_is_the_same_from_the_cache(cache_home: Path) -> None:
    assert load_hook_map() == load_hook_map(callbacks_directory())
    uncached = [metadata for path in sorted(callbacks_directory().glob("*.py")) if (metadata := read_metadata(path))]
    assert sum(len(metadata["hooks"]) for metadata in uncached) == len(load_hook_map())
