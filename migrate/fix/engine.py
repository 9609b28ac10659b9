"""Fix one module's text: one parse, byte-span edits, LibCST only where a module move needs it.

`fix_text` is what `migrate fix` calls per file (notebooks: per joined notebook).
Python's own parser and the report's alias table decide what there is to do;
TFM513/TFM516's renames (`migrate.fix.renames`) and, where the file spells a
moved module out at each use, the module moves of TFM502/TFM503
(`migrate.fix.fast_moves`) are byte-span edits of the original text, made in
one pass; a file that binds a moved module to a name needs LibCST's scope
analysis (`migrate.fix.module_moves`, imported only when a file needs it:
importing LibCST alone costs more than scanning a small file).
"""
from __future__ import annotations

import ast

from migrate.fix.alignment import realign
from migrate.fix.edits import Layout, apply_edits
from migrate.fix.registry import Fix, load_fixes
from migrate.fix.renames import CODE, KEYWORD_CODE, MOVE_CODE, apply_renames, physical_lines, plan_renames, rename_edits
from migrate.fix.result import Declined, FixFailed, FixResult
from migrate.fix.verify import parse_error
from migrate.scanning.statements import file_aliases


def fix_text(text: str, fixes: dict[str, Fix] | None = None) -> FixResult:
    """The fixed text of one module; raises `FixFailed` when it cannot be parsed.

    Fast first: TF1 names and keywords are renamed in place on Python's own AST
    (`migrate.fix.renames`, TFM513/TFM516), and so are the module moves (tf.logging,
    tf.flags, tf.app) where the file spells the module out at each use
    (`migrate.fix.fast_moves`): byte-span edits of the original text, made in one
    pass, so the module is parsed once. Only a file that binds a moved module to a
    name needs LibCST's scope analysis, about 100× the cost of `ast.parse`.
    Continuation lines aligned to a rewritten call's `(` are re-aligned
    (`migrate.fix.alignment`).
    """
    fixes = load_fixes() if fixes is None else fixes
    if "tensorflow" not in text or not fixes:
        return FixResult(text, False)
    try:
        tree = ast.parse(text)  # Python's own message and line for a syntax error; LibCST's are vaguer
    except (SyntaxError, ValueError) as error:
        raise FixFailed(f"syntax error at line {getattr(error, 'lineno', None) or '?'}: {getattr(error, 'msg', error)}") from None
    rewritten = _rewrite(text, tree, fixes)
    if rewritten.text == text:
        return FixResult(text, False, declined=rewritten.declined)
    fixed, fixed_tree = realign(text, rewritten.text, tree, rewritten.layout)
    broken = parse_error(fixed, tree, rewritten.layout) if fixed_tree is None else None
    if broken is not None:
        raise FixFailed(f"internal error: the rewrite would not parse ({broken.msg} at line {broken.lineno}); file left as is")
    return FixResult(fixed, True, rewritten.rewrites, rewritten.declined)


RENAME_CODES = frozenset({CODE, KEYWORD_CODE, MOVE_CODE})


def _rewrite(text: str, tree: ast.Module, fixes: dict[str, Fix]) -> FixResult:
    """The renames and the module moves: by byte spans of the original text, in one pass, where the file only
    spells moved modules out at their uses (`migrate.fix.fast_moves`); else renamed first, then moved with
    LibCST's scope analysis (`migrate.fix.module_moves`, imported only when a file needs it: importing LibCST
    alone costs more than scanning a small file)."""
    from migrate.fix.fast_moves import move_modules_fast, spells_a_moved_module

    lines = physical_lines(text)
    aliases = file_aliases(tree)
    renaming = frozenset(fixes) & RENAME_CODES
    planned = plan_renames(tree, renaming, text, aliases) if renaming else []
    edits = rename_edits(lines, planned)
    rewrites = len(planned) if edits is None or edits else 0
    declined: list[Declined] = []
    moving = {code: fix for code, fix in fixes.items() if fix.moves}
    if moving and spells_a_moved_module(text, moving):
        fast = move_modules_fast(text, tree, moving, edits, aliases) if edits is not None else None
        if fast is None:
            from migrate.fix.module_moves import move_modules

            moved = move_modules(apply_renames(text, planned), moving)
            return FixResult(moved.text, moved.text != text, rewrites + moved.rewrites, moved.declined)
        if fast.changed:
            return FixResult(fast.text, True, rewrites + fast.rewrites, fast.declined, fast.layout)
        declined = fast.declined
    if edits is None:
        return FixResult(apply_renames(text, planned), True, rewrites, declined)
    if not edits:
        return FixResult(text, False, declined=declined)
    return FixResult("".join(apply_edits(lines, edits)), True, rewrites, declined, Layout(tuple(edits), {}))
