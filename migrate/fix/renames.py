"""TFM513's, TFM515's and TFM516's fixes: TF1 names whose function TF2 has under another name, renamed in place
(`tf.log` → `tf.math.log`), calls of the `tf.gfile` functions TF2 has in `tf.io.gfile` under other keyword names
(`tf.gfile.Exists(p)` → `tf.io.gfile.exists(p)`, where no keyword says otherwise), and TF1 keywords TF2 spells
otherwise (`keep_dims=` → `keepdims=`, where TF1's function takes `keepdims=` too, so the call means the same
under both).

The renames are the `rename` lines of the report's `data/tf1_only.txt`
(derived from the real API: TF2's name is the same function and valid under
`tf.compat.v1` too, so `tf.math.log` is right whichever of the two the file
imports as `tf`). A chain is renamed when its root name is bound to the
`tensorflow` package itself (`import tensorflow as tf`, `import
tensorflow.compat.v1 as tf`) and it is written on one line; anything else
(`from tensorflow import log`, a chain through `gfile = tf.gfile`) is left
as is and its finding stays.

No LibCST: the chains are found on Python's own AST with the report's alias
table and replaced by their byte spans, so a file with only renames to do
costs about what the report costs.
"""
from __future__ import annotations

import ast
import re
from collections.abc import Iterator, Mapping
from functools import lru_cache
from types import MappingProxyType
from typing import NamedTuple

from migrate.fix.edits import Edit
from migrate.scanning.aliases import AliasTable, dotted_parts
from migrate.scanning.statements import file_aliases
from migrate.scanning.tf1_api import ChangedArguments, changed_arguments, tf1_only
from migrate.scanning.walk import descendants, descendants_on_lines

CODE = "TFM513"
KEYWORD_CODE = "TFM516"
MOVE_CODE = "TFM515"
ROOTS = frozenset({"tensorflow", "tensorflow.compat.v1", "tensorflow.compat.v2"})


class Rename(NamedTuple):
    """Replace `old` (the chain as written) at line/columns (UTF-8 byte offsets, as `ast` gives them) by `new`."""

    line: int
    start: int
    end: int
    old: str
    new: str


GFILE_KEYWORDS = frozenset({"filename", "dirname", "oldpath", "newpath", "oldname", "newname", "in_order"})
"""TF1's `tf.gfile` parameter names that TF2's `tf.io.gfile` spells otherwise (`path`, `src`, `dst`, `topdown`)."""


@lru_cache(maxsize=1)
def gfile_moves() -> Mapping[str, str]:
    """`tf.gfile` function → its `tf.io.gfile` name (`tensorflow.gfile.Exists` → `tensorflow.io.gfile.exists`): the
    moved names (TFM515) whose TF1 function, in TF 2.15, only calls the TF2 one, so a call with none of
    `GFILE_KEYWORDS` means the same renamed."""
    return MappingProxyType({
        entry.name: entry.target for entry in tf1_only().values()
        if entry.kind == "moved" and entry.target and entry.name.startswith("tensorflow.gfile.")
        and entry.target.startswith("tensorflow.io.gfile.")
    })


@lru_cache(maxsize=1)
def renames() -> Mapping[str, str]:
    """TF1 name → TF2 name (`tensorflow.log` → `tensorflow.math.log`)."""
    return MappingProxyType({entry.name: entry.target for entry in tf1_only().values() if entry.kind == "rename" and entry.target})


def plan_renames(
    tree: ast.Module, codes: frozenset[str] = frozenset({CODE, KEYWORD_CODE, MOVE_CODE}), text: str | None = None,
    aliases: AliasTable | None = None,
) -> list[Rename]:
    """Every chain (TFM513) and keyword (TFM516) to rename, in source order. With `text` (the module's source)
    only the lines that spell a renamed name or keyword are walked; `aliases`: the module's alias table, when
    the caller has it."""
    table = renames() if CODE in codes else {}
    keywords = changed_arguments() if KEYWORD_CODE in codes else {}
    moves = gfile_moves() if MOVE_CODE in codes else {}
    if text is None:
        nodes = descendants(tree)
    else:
        lines = _candidate_lines(text, codes)
        if not lines:
            return []  # no renamed name or keyword is spelled: no walk needed
        nodes = descendants_on_lines(tree, lines)
    aliases = file_aliases(tree) if aliases is None else aliases
    found: list[Rename] = []
    for node in nodes:
        if type(node) is ast.Call:
            if keywords and node.keywords:
                found.extend(_keyword_renames(node, aliases, keywords))
            if moves:
                found.extend(_gfile_call_rename(node, aliases, moves))
            continue
        if type(node) is not ast.Attribute or type(node.ctx) is not ast.Load or not table:
            continue
        written = _written(node, aliases)
        if written is None or node.end_lineno != node.lineno:
            continue
        parts, name = written
        target = table.get(name)
        if target is None:
            continue
        new = ".".join([parts[0], *target.split(".")[1:]])
        found.append(Rename(node.lineno, node.col_offset, node.end_col_offset or 0, ".".join(parts), new))
    found.sort()
    return found


_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def _candidate_lines(text: str, codes: frozenset[str]) -> list[int]:
    """The lines (sorted) that spell a renamed name after a dot (`.log`) or a renamed keyword before `=`
    (`keep_dims=`): the only lines a rename can be on."""
    spelled = _spelled(codes).intersection(_WORD.findall(text))
    if not spelled:
        return []
    names = spelled & _renamed_leaves() if CODE in codes else set()
    if MOVE_CODE in codes:
        names |= spelled & _gfile_leaves()
    keywords = spelled & _renamed_keywords() if KEYWORD_CODE in codes else set()
    lines = match_lines(text, *map(_after_a_dot, sorted(names)))
    if keywords:
        lines = sorted({*lines, *match_lines(text, *map(_before_equals, sorted(keywords)), not_after="")})
    return lines


def match_lines(text: str, *patterns: re.Pattern[str], not_after: str | None = None) -> list[int]:
    """The lines (sorted, numbered as Python numbers them) on which a match of one of `patterns` starts.

    With `not_after`, a match right after a word character or one of those characters does not count: a
    pattern for a whole word then starts with the word, not `\\b`, so `re` looks only where its first
    letter is (`\\b` first makes it try every position, ten times slower on a module)."""
    starts = sorted({start for pattern in patterns for start in match_starts(text, pattern, not_after)})
    lines: list[int] = []
    line, previous, bare_returns = 1, 0, "\r" in text
    for start in starts:  # a match never starts between a `\r` and its `\n`
        line += text.count("\n", previous, start)
        if bare_returns:
            line += text.count("\r", previous, start) - text.count("\r\n", previous, start)
        previous = start
        if not lines or lines[-1] != line:
            lines.append(line)
    return lines


def match_starts(text: str, pattern: re.Pattern[str], not_after: str | None = None) -> Iterator[int]:
    """Where the matches of `pattern` start (`not_after` as for `match_lines`)."""
    if not_after is None:
        yield from (match.start() for match in pattern.finditer(text))
        return
    for match in pattern.finditer(text):
        start = match.start()
        before = text[start - 1] if start else " "
        if not (before.isalnum() or before == "_" or before in not_after):
            yield start


@lru_cache(maxsize=1024)
def _after_a_dot(name: str) -> re.Pattern[str]:
    """`.name` as a whole word: how a renamed chain ends."""
    return re.compile(r"\." + re.escape(name) + r"\b")


@lru_cache(maxsize=1024)
def _before_equals(keyword: str) -> re.Pattern[str]:
    """`keyword=` (spaces allowed): how a renamed keyword is passed (a whole word: `match_lines`' `not_after`)."""
    return re.compile(re.escape(keyword) + r"\s*=")


@lru_cache(maxsize=1)
def _renamed_leaves() -> frozenset[str]:
    """The last names of the TF1 names TFM513 renames (`log`, `random_normal`, …)."""
    return frozenset(name.rpartition(".")[2] for name in renames())


@lru_cache(maxsize=1)
def _renamed_keywords() -> frozenset[str]:
    """The keywords TFM516 renames (`keep_dims`, `reduction_indices`, …)."""
    return frozenset(
        keyword for entry in changed_arguments().values() for keyword, (_, valid) in entry.removed.items() if valid
    )


@lru_cache(maxsize=1)
def _gfile_leaves() -> frozenset[str]:
    """The last names of the `tf.gfile` functions TFM515's fix renames (`Exists`, `MakeDirs`, …)."""
    return frozenset(name.rpartition(".")[2] for name in gfile_moves())


@lru_cache(maxsize=8)
def _spelled(codes: frozenset[str]) -> frozenset[str]:
    """The last names of the TF1 names (TFM513, TFM515's `tf.gfile` calls) and the keywords (TFM516) the fixes of
    `codes` rename."""
    return (
        (_renamed_leaves() if CODE in codes else frozenset())
        | (_renamed_keywords() if KEYWORD_CODE in codes else frozenset())
        | (_gfile_leaves() if MOVE_CODE in codes else frozenset())
    )


def _written(node: ast.expr, aliases: AliasTable) -> tuple[list[str], str] | None:
    """(the chain's parts, its TensorFlow name with compat layers dropped) when its root is the tensorflow package."""
    parts = dotted_parts(node)
    if parts is None:
        return None
    root = aliases.lookup(parts[0], node.lineno, node.col_offset)
    if root not in ROOTS:
        return None
    path = parts[1:]
    if path[:2] in (["compat", "v1"], ["compat", "v2"]):
        path = path[2:]
    return parts, ".".join(["tensorflow", *path])


def _keyword_renames(call: ast.Call, aliases: AliasTable, table: dict[str, ChangedArguments]) -> list[Rename]:
    """`keep_dims=` → `keepdims=` where TF1's function takes the new keyword too (so the call means the same)."""
    written = _written(call.func, aliases)
    entry = table.get(written[1]) if written is not None else None
    if entry is None:
        return []
    given = {keyword.arg for keyword in call.keywords}
    found = []
    for keyword in call.keywords:
        if keyword.arg is None:  # **kwargs
            continue
        new, valid_in_tf1 = entry.removed.get(keyword.arg, (None, False))
        if new is None or not valid_in_tf1 or new in given:
            continue
        found.append(Rename(keyword.lineno, keyword.col_offset, keyword.col_offset + len(keyword.arg.encode()), keyword.arg, new))
    return found


def _gfile_call_rename(call: ast.Call, aliases: AliasTable, moves: Mapping[str, str]) -> list[Rename]:
    """`tf.gfile.Exists(p)` → `tf.io.gfile.exists(p)`: a call on one line passing none of TF1's own keyword names
    (`GFILE_KEYWORDS`) nor `**kwargs`, so it means the same renamed."""
    func = call.func
    if type(func) is not ast.Attribute or func.end_lineno != func.lineno:
        return []
    written = _written(func, aliases)
    target = moves.get(written[1]) if written is not None else None
    if written is None or target is None:
        return []
    if any(keyword.arg is None or keyword.arg in GFILE_KEYWORDS for keyword in call.keywords):
        return []
    parts = written[0]
    return [Rename(func.lineno, func.col_offset, func.end_col_offset or 0, ".".join(parts),
                   ".".join([parts[0], *target.split(".")[1:]]))]


def apply_renames(text: str, planned: list[Rename]) -> str:
    """`text` with each planned chain replaced (right to left within a line, so offsets stay valid)."""
    if not planned:
        return text
    lines = physical_lines(text)
    for rename in sorted(planned, key=lambda item: (item.line, -item.start)):
        raw = lines[rename.line - 1].encode("utf-8")
        if raw[rename.start:rename.end].decode("utf-8") != rename.old:
            continue  # not spelled plainly (`tf .log`, a comment inside): left as is
        lines[rename.line - 1] = (raw[:rename.start] + rename.new.encode("utf-8") + raw[rename.end:]).decode("utf-8")
    return "".join(lines)


def rename_edits(lines: list[str], planned: list[Rename]) -> list[Edit] | None:
    """The renames `apply_renames` makes, as edits of the original `lines` (physical lines); None when one of
    them would be made over another it overlaps (then only `apply_renames` says what comes out)."""
    edits: list[Edit] = []
    for rename in sorted(planned, key=lambda item: (item.line, -item.start)):
        raw = lines[rename.line - 1].encode("utf-8")
        made = [edit for edit in edits[-1:] if edit.line == rename.line and edit.start < rename.end]
        if made:  # right of it on its line, and into its span: its bytes are the renamed ones
            for edit in (edit for edit in edits if edit.line == rename.line):  # right to left, as made
                raw = raw[:edit.start] + edit.text.encode("utf-8") + raw[edit.end:]
        if raw[rename.start:rename.end].decode("utf-8") != rename.old:
            continue  # not spelled plainly (`tf .log`, a comment inside): left as is
        if made:
            return None
        edits.append(Edit(rename.line, rename.start, rename.end, rename.new))
    return edits


_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+$")


def physical_lines(text: str) -> list[str]:
    """The lines as Python counts them (`\n`, `\r\n`, `\r` only; `str.splitlines` also splits at form feeds and
    other separators, so it is used only when the text has none)."""
    return _LINE.findall(text) if _OTHER_BREAKS.search(text) else text.splitlines(keepends=True)


_OTHER_BREAKS = re.compile("[\v\f\x1c\x1d\x1e\x85\u2028\u2029]")
"""What `str.splitlines` splits at besides `\n`, `\r\n` and `\r`."""
