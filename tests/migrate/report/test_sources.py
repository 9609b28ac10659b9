"""Bad input never aborts a run: each kind is listed as skipped with its reason, the rest is reported."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from migrate.scanning import sources

GOOD = "import tensorflow as tf\ntf.Session()\n"


def skipped_reasons(report) -> dict[str, str]:
    return {Path(result.path).name: result.skipped for result in report.skipped}


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        pytest.param("print 'hello'\n", "Python 2 source (print statement at line 1)", id="python 2 print statement"),
        pytest.param("try:\n    pass\nexcept ValueError, error:\n    pass\n", "Python 2 source (`except X, e` at line 3)", id="python 2 except clause"),
        pytest.param("def f(:\n    pass\n", "syntax error at line 1", id="syntax error"),
        pytest.param(b"x = '\xff\xfe'\n", "not valid utf-8 text (byte 0xff at offset 5)", id="non-UTF-8 bytes"),
        pytest.param(b"\x7fELF\x00\x00binary", "binary file", id="binary file"),
        pytest.param("", "empty file", id="empty file"),
        pytest.param("   \n\n", "empty file", id="whitespace only"),
    ],
)
def test_bad_files_are_skipped_with_a_reason(content, reason: str, write, run_scan, tmp_path: Path) -> None:
    write("good.py", GOOD)
    write("bad.py", content)
    report = run_scan(tmp_path)
    assert skipped_reasons(report)["bad.py"].startswith(reason)
    assert [finding.code for finding in report.findings] == ["TFM303"]


def test_declared_latin1_encoding_is_honoured(write, run_scan) -> None:
    path = write("latin.py", b"# -*- coding: latin-1 -*-\nimport tensorflow as tf\nname = '\xe9'\ntf.Session()\n")
    report = run_scan(path)
    assert not report.skipped and [finding.line for finding in report.findings] == [4]


@pytest.mark.parametrize(
    ("content", "finding_line"),
    [
        (b"#!/usr/bin/env python\n# vim: set fileencoding=latin-1 :\nimport tensorflow as tf\nname = '\xe9'\ntf.Session()\n", 5),
        (b"\xef\xbb\xbfimport tensorflow as tf\nname = '\xc3\xa9'\ntf.Session()\n", 3),
        (b"import tensorflow as tf\nname = '\xc3\xa9'  # no cookie: UTF-8\ntf.Session()\n", 3),
    ],
    ids=["cookie-on-line-2", "utf-8-bom", "utf-8-without-cookie"],
)
def test_encodings_are_read_as_python_reads_them(content: bytes, finding_line: int, write, run_scan) -> None:
    report = run_scan(write("encoded.py", content))
    assert not report.skipped and [finding.line for finding in report.findings] == [finding_line]


@pytest.mark.parametrize(
    ("head", "shortcut"),
    [
        (b"# coding=utf-8\nimport os\n", True),
        (b"# -*- coding: UTF_8 -*-\n", True),
        (b"#!/usr/bin/env python\n# -*- coding: utf-8 -*-\n", True),
        (b"\n# coding: utf-8\n", True),
        (b"# coding=utf-8 \xe9\n", True),
        (b"import os  # coding: utf-8\n", False),
        (b"import os\n# coding: utf-8\n", False),
        (b"# coding: utf-8-sig\n", False),
        (b"# coding: utf8\n", False),
        (b"# coding: latin-1\n# coding: utf-8\n", False),
        (b"# decoding: latin-1\n", False),
        (b"#  vim: set fileencoding=latin-1 :\n", False),
        (b"# no cookie\n# coding:latin-1", False),
    ],
)
def test_the_utf8_cookie_shortcut_agrees_with_tokenize(head: bytes, shortcut: bool) -> None:
    """`_declares_utf8` says yes only where `tokenize.detect_encoding` reads UTF-8 from the same lines
    (an undecodable cookie line counts as UTF-8, as `sources._declared_encoding` reads it)."""
    import io
    import tokenize

    try:
        detected = tokenize.detect_encoding(io.BytesIO(head).readline)[0]
    except SyntaxError:
        detected = "utf-8"
    assert sources._declares_utf8(head) is shortcut
    if shortcut:
        assert detected == "utf-8"


def test_a_cookie_after_line_2_does_not_count(write, run_scan) -> None:
    path = write("late.py", b"import tensorflow as tf\n\n# -*- coding: latin-1 -*-\nname = '\xe9'\n")
    (skipped,) = run_scan(path).skipped
    assert skipped.skipped.startswith("not valid utf-8 text (byte 0xe9")


def test_huge_file_is_skipped_by_the_size_cap(write, run_scan, tmp_path: Path) -> None:
    write("big.py", GOOD + "x = 1\n" * 200)
    report = run_scan(tmp_path, max_bytes=100)
    assert "exceeds the 100 bytes size cap" in skipped_reasons(report)["big.py"]
    assert "--max-file-size" in skipped_reasons(report)["big.py"]


def test_unreadable_file_is_skipped(write, run_scan, tmp_path: Path, monkeypatch) -> None:
    write("good.py", GOOD)
    locked = write("locked.py", GOOD)
    if os.geteuid() == 0:  # root reads anything: simulate the permission error instead (the scan opens with os.open)
        real_open = os.open

        def guarded_open(path, *args, **kwargs):
            if str(path) == str(locked):
                raise PermissionError(13, "Permission denied")
            return real_open(path, *args, **kwargs)

        monkeypatch.setattr(os, "open", guarded_open)
    else:
        locked.chmod(0)
    report = run_scan(tmp_path)
    assert skipped_reasons(report)["locked.py"] == "unreadable: Permission denied"
    assert len(report.findings) == 1


def test_symlink_loop_and_self_loop_are_skipped(write, run_scan, tmp_path: Path) -> None:
    write("pkg/good.py", GOOD)
    os.symlink(tmp_path / "pkg", tmp_path / "pkg" / "again")
    os.symlink(tmp_path / "self.py", tmp_path / "self.py")
    report = run_scan(tmp_path)
    reasons = skipped_reasons(report)
    assert reasons["again"].startswith("symlink loop")
    assert reasons["self.py"].startswith("symlink loop")
    assert len(report.findings) == 1


def test_symlink_out_of_the_root_is_not_followed(write, run_scan, tmp_path: Path) -> None:
    write("outside/secret.py", GOOD)
    write("root/good.py", GOOD)
    os.symlink(tmp_path / "outside", tmp_path / "root" / "linked")
    os.symlink(tmp_path / "outside" / "secret.py", tmp_path / "root" / "linked_file.py")
    report = run_scan(tmp_path / "root")
    reasons = skipped_reasons(report)
    assert reasons["linked"].startswith("symlink leads outside the scanned root")
    assert reasons["linked_file.py"].startswith("symlink leads outside the scanned root")
    assert [Path(finding.path).name for finding in report.findings] == ["good.py"]


def test_symlink_inside_the_root_is_followed_once(write, run_scan, tmp_path: Path) -> None:
    write("real/good.py", GOOD)
    os.symlink(tmp_path / "real" / "good.py", tmp_path / "alias.py")
    report = run_scan(tmp_path)
    assert len(report.findings) == 1 and not report.skipped


def test_broken_symlink_is_skipped(run_scan, tmp_path: Path) -> None:
    os.symlink(tmp_path / "missing.py", tmp_path / "dangling.py")
    assert skipped_reasons(run_scan(tmp_path))["dangling.py"].startswith("broken symlink")


def test_fifo_is_not_read(run_scan, tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "pipe.py")
    assert skipped_reasons(run_scan(tmp_path))["pipe.py"].startswith("not a regular file")


def test_hidden_directories_and_pycache_are_not_walked(write, run_scan, tmp_path: Path) -> None:
    write(".venv/lib/tf.py", GOOD)
    write("__pycache__/x.py", GOOD)
    write("other.txt", GOOD)
    assert run_scan(tmp_path).files == []


def test_module_names_follow_init_files(write, tmp_path: Path) -> None:
    write("proj/pkg/__init__.py", "")
    path = write("proj/pkg/mod.py", "")
    source = sources.SourceFile(str(path), str(path), str(tmp_path))
    primary, names = sources.module_names(source)
    assert primary == "pkg.mod"
    assert {"proj.pkg.mod", "pkg.mod", "mod"} <= set(names)
