"""Other files' wrappers looked up while a file is analysed: claimed files, files another worker holds."""
from __future__ import annotations

from pathlib import Path

from migrate.report.analysis import analyse_file
from migrate.report.model import FileResult
from migrate.report.wrapper_lookup import DONE, TAKEN, Claims, WrapperLookup
from migrate.report.wrappers import WrapperSource
from migrate.scanning.sources import SourceFile

CONTRIB = "def slim():\n    from tensorflow.contrib import slim\n    return slim\n"
USER = "from pkg import contrib\nwith contrib.slim().arg_scope([]):\n    pass\n"


def _sources(tmp_path: Path) -> list[SourceFile]:
    """pkg/user.py (index 0) calling the wrapper of pkg/contrib.py (index 1)."""
    (tmp_path / "pkg").mkdir(exist_ok=True)
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "user.py").write_text(USER)
    (tmp_path / "pkg" / "contrib.py").write_text(CONTRIB)
    return [SourceFile(str(tmp_path / "pkg" / name), f"pkg/{name}", str(tmp_path)) for name in ("user.py", "contrib.py")]


def _lookup(tmp_path: Path, claims: Claims | None = None) -> tuple[WrapperLookup, list[str]]:
    """A lookup over `_sources`, and the files it analysed, in order."""
    sources = _sources(tmp_path)
    analysed: list[str] = []

    def analyse(source: SourceFile, wrappers: WrapperSource | None) -> FileResult:
        analysed.append(source.display)
        return analyse_file(source, wrappers=wrappers)

    return WrapperLookup(sources, claims or Claims(len(sources)), analyse), analysed


def test_a_called_files_wrappers_come_from_analysing_it_once_here(tmp_path: Path) -> None:
    lookup, analysed = _lookup(tmp_path)
    user = lookup.analysed(0)
    assert user is not None and [finding.line for finding in user.findings] == [2]
    extra = lookup.take_extra()
    assert [result.path for result in extra] == ["pkg/contrib.py"], "analysed on demand, returned with the chunk"
    assert lookup.analysed(1) is None, "claimed: not analysed a second time"
    assert analysed == ["pkg/user.py", "pkg/contrib.py"]


def test_a_file_another_worker_holds_is_read_for_its_wrappers_and_not_returned(tmp_path: Path) -> None:
    claims = Claims(2)
    claims.claim(1)
    lookup, analysed = _lookup(tmp_path, claims)
    user = lookup.analysed(0)
    assert user is not None and [finding.line for finding in user.findings] == [2]
    assert lookup.take_extra() == [] and claims.state(1) == TAKEN
    assert analysed == ["pkg/user.py", "pkg/contrib.py"]


def test_a_file_done_elsewhere_without_wrappers_is_not_read_again(tmp_path: Path) -> None:
    claims = Claims(2)
    claims.claim(1)
    claims.finish(1, FileResult("pkg/contrib.py"))
    lookup, analysed = _lookup(tmp_path, claims)
    user = lookup.analysed(0)
    assert claims.state(1) == DONE and user is not None and user.findings == []
    assert analysed == ["pkg/user.py"]


def test_the_wrappers_of_a_file_analysed_elsewhere_are_read_from_the_claims_directory(tmp_path: Path) -> None:
    shared = tmp_path / "claims"
    shared.mkdir()
    claims = Claims(2, str(shared))
    claims.claim(1)
    claims.finish(1, analyse_file(_sources(tmp_path)[1]))
    lookup, analysed = _lookup(tmp_path, claims)
    user = lookup.analysed(0)
    assert user is not None and [finding.line for finding in user.findings] == [2]
    assert analysed == ["pkg/user.py"], "contrib.py's wrappers came from the other process, not a second analysis"


def test_wrappers_that_cannot_be_written_are_read_by_analysing_the_file_again(tmp_path: Path) -> None:
    claims = Claims(2, str(tmp_path / "not-a-directory"))
    claims.claim(1)
    claims.finish(1, analyse_file(_sources(tmp_path)[1]))
    assert claims.state(1) == TAKEN and claims.wrappers(1) is None
    lookup, analysed = _lookup(tmp_path, claims)
    user = lookup.analysed(0)
    assert user is not None and [finding.line for finding in user.findings] == [2]
    assert analysed == ["pkg/user.py", "pkg/contrib.py"]
