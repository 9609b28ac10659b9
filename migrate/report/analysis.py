"""One file, one pass: parse, resolve aliases, dispatch checks through the registry.

The steps, each in its own module: the statement pre-pass and the alias table
(`migrate.scanning.statements`, `migrate.scanning.aliases`); wrapper functions
(`wrappers`); a file that binds no TensorFlow name runs no checks — every rule
is about a TensorFlow API — but its classes are still recorded, because a hook
may subclass a base defined in it. Otherwise the tree is walked once with an
explicit stack (`collect`), collecting the nodes checks registered for and every
maximal name chain rooted in a TensorFlow alias (`tf.compat.v1.train.Saver`,
never its inner `tf.compat.v1`); chains become `Reference`s (`dispatch`). Each
node is dispatched by its registry key(s): `type(node)`, or the canonical name /
`.attr` / `arg=` keys derived from it. Classes and their call sites go to the
whole-codebase pass (`class_facts`). This module reads and parses the file,
runs the checks, and keeps suppression comments and where hooks are passed.
"""
from __future__ import annotations

import ast
import re
from collections.abc import Mapping
from typing import TYPE_CHECKING

from migrate.report.class_facts import class_calls, class_infos, qualified_class
from migrate.report.collect import Collected, collect
from migrate.report.collector import paused
from migrate.report.context import FileContext, Reference
from migrate.report.dispatch import checks_for, import_references, references
from migrate.report.model import FileResult, Finding, Locator, as_finding
from migrate.report.phases import MENTION, hook_passes
from migrate.report.registry import fallback_codes, import_rules
from migrate.report.unbound_tf import unbound_tf_import
from migrate.report.wrappers import KnownWrappers, WrapperSource, wrapper_functions, wrapper_references, wrapper_results
from migrate.scanning.aliases import AliasTable, Binding, scoped_alias_table
from migrate.scanning.names import is_tensorflow
from migrate.scanning.sources import DEFAULT_MAX_BYTES, SkipFile, SourceFile, module_names, read_source
from migrate.scanning.statements import Statements, statement_pass

if TYPE_CHECKING:
    from migrate.core.hook_map import HookEquivalent

SUPPRESSION = re.compile(r"#\s*migrate:\s*ignore(?:\[([^\]]*)\])?")
_PYTHON2_HINTS = (
    (r"^\s*print\s+[^\s(=.,)\]]", "print statement"),
    (r"^\s*except\s+[\w.]+\s*,\s*\w+\s*:", "`except X, e`"),
    (r"^\s*exec\s+[\"'\w]", "exec statement"),
    (r"^\s*raise\s+[\w.]+\s*,", "`raise E, message`"),
    (r"(?<![\w.])0[0-7]+\b", "old octal literal"),
    (r"\bur[\"']", "`ur''` string"),
)
"""Patterns of a Python 2 line, compiled on first use (`re`'s cache): only a syntax error needs them."""
def analyse_file(
    source: SourceFile,
    max_bytes: int = DEFAULT_MAX_BYTES,
    hook_map: Mapping[str, HookEquivalent] | None = None,
    wrappers: WrapperSource | None = None,
) -> FileResult:
    """Scan one file; problems become `FileResult.skipped`, never exceptions.

    The cyclic garbage collector is paused meanwhile (`collector.paused`): an
    AST holds no reference cycles, but the collections its allocations trigger
    would traverse everything the scan has accumulated so far.
    """
    with paused():
        return _analyse_file(source, max_bytes, hook_map or {}, wrappers)


def _analyse_file(
    source: SourceFile, max_bytes: int, hook_map: Mapping[str, HookEquivalent], wrappers: WrapperSource | None
) -> FileResult:
    import_rules()
    result = FileResult(path=source.display)
    try:
        text = read_source(source, max_bytes)
    except SkipFile as reason:
        result.skipped = str(reason)
        return result
    notes = list(text.notes)
    try:
        tree = ast.parse(text.text, filename=source.display)
    except SyntaxError as error:
        neutralised = _with_magics_neutralised(text.text, source.display)
        if neutralised is None:
            result.skipped = describe_syntax_error(error, text.text)
            return result
        tree = neutralised
        notes.append("IPython magics and shell escapes (`%…`, `!…`) read as blank lines, as in a notebook")
    except (ValueError, RecursionError, MemoryError) as error:
        result.skipped = f"cannot be parsed: {type(error).__name__}: {error}"
        return result
    result.module, result.module_names = module_names(source)
    result.notes = notes
    locate = _locator(text.positions)
    package = result.module if source.path.endswith("__init__.py") else result.module.rpartition(".")[0]
    try:
        analyse_tree(tree, text.text, result, locate, package, hook_map, wrappers)
    except RecursionError:
        result.skipped = "too deeply nested to analyse"
        result.findings.clear()
        result.classes.clear()
    return result


def _with_magics_neutralised(text: str, filename: str) -> ast.Module | None:
    """A `.py` exported from a notebook (its first line an IPython magic, `%matplotlib inline`, or a shell
    escape): parsed with those lines blanked (`pass`, as the notebook reader does, so line numbers stay);
    None when the file does not start so or still does not parse."""
    first = next((line.lstrip() for line in text.splitlines() if line.strip()), "")
    if not first.startswith(("%", "!")):
        return None
    from migrate.scanning.notebooks import python_lines

    try:
        return ast.parse("\n".join(python_lines(text)) + "\n", filename=filename)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None


def analyse_tree(
    tree: ast.Module,
    text: str,
    result: FileResult,
    locate: Locator,
    package: str,
    hook_map: Mapping[str, HookEquivalent] | None = None,
    wrappers: WrapperSource | None = None,
) -> None:
    """`wrappers`: other files' functions that return a TensorFlow module, by qualified name
    (`pkg.helpers.slim` → `tensorflow.contrib.slim`; `migrate.report.wrapper_lookup`)."""
    statements = statement_pass(tree.body)
    aliases, context, known_wrappers = _bindings(tree, text, result, package, statements, hook_map, wrappers)
    roots = aliases.roots()
    local_classes = frozenset(node.name for node in tree.body if type(node) is ast.ClassDef)
    class_roots = frozenset(name for name, value in aliases.bindings.items() if not is_tensorflow(value)) | local_classes
    uses_tensorflow = bool(roots) or any(is_tensorflow(module) for module in aliases.star_modules)
    if not (uses_tensorflow or class_roots or result.wrappers):
        found = Collected([], [], [], [])
    else:
        found = collect(tree, roots, class_roots)
    through_wrappers = wrapper_references(found.on_calls, aliases, result, known_wrappers)
    result.class_calls = class_calls(found.class_calls, aliases, result.module, local_classes, locate)
    if uses_tensorflow or through_wrappers:
        chain_references, uses = references(found.chains, aliases)
        dispatched = [(node, checks_for(node)) for node in (*statements.imports, *found.interesting)]
        dispatched += import_references(statements.imports, aliases) + chain_references + through_wrappers
        _run_checks(dispatched, context, result, locate, uses)
    if statements.classes:
        result.classes = class_infos(statements.classes, context, result.module, locate, result.path)
    if MENTION.search(text):
        _find_hook_passes(tree, text, result, statements, aliases)
    if "migrate:" in text:
        result.suppressions = _suppressions(text, locate)


def _bindings(
    tree: ast.Module, text: str, result: FileResult, package: str, statements: Statements,
    hook_map: Mapping[str, HookEquivalent] | None, wrappers: WrapperSource | None,
) -> tuple[AliasTable, FileContext, KnownWrappers]:
    """The file's alias table and check context, its own wrapper functions (into `result`), and every wrapper
    it may call (its own, then `wrappers`). A name bound to a known wrapper's result (`tfe = contrib.eager()`)
    is the module it returns, as if imported; so is `tf` used but not imported (`migrate.report.unbound_tf`)."""
    imports = statements.imports
    tf_import = unbound_tf_import(imports, text)
    if tf_import is not None:
        imports = [*imports, tf_import]
    aliases = scoped_alias_table(imports, statements, package)
    result.wrappers = wrapper_functions(aliases, statements.returns)
    known = KnownWrappers({f"{result.module}.{name}": target for name, target in result.wrappers.items()}, wrappers)
    module_bindings = wrapper_results(statements.calls, aliases, result, known)
    assignments = statements.assignments
    if module_bindings:
        for synthetic, assignment in module_bindings:
            if id(assignment) in statements.scopes:
                statements.scopes[id(synthetic)] = statements.scopes[id(assignment)]
        replaced = {id(assignment) for _, assignment in module_bindings}
        assignments = [assignment for assignment in assignments if id(assignment) not in replaced]
        kept = [(node, scope) for node, scope in zip(statements.plain, statements.plain_scopes) if id(node) not in replaced]
        aliases = scoped_alias_table(
            [*imports, *(synthetic for synthetic, _ in module_bindings)],
            statements._replace(plain=[node for node, _ in kept], plain_scopes=[scope for _, scope in kept]), package,
        )
    result.exports = dict(aliases.bindings)
    return aliases, FileContext(tree, aliases, assignments, hook_map, text), known


def _run_checks(
    dispatched: list, context: FileContext, result: FileResult, locate: Locator, uses: list[tuple[Binding, Reference | None]]
) -> None:
    """Each (node, its checks) run, one finding per rule and place, into `result.findings`; then the uses of a
    flagged binding folded into its finding (`_fold_uses`)."""
    flagged: dict[int, list[int]] = {}
    """id(binding site) → indexes of its findings, to which the uses of the names it binds are added."""
    produced: dict[int, list[int]] = {}
    """id(Reference) → indexes of its findings, for the references that are uses of a binding (`_fold_uses`)."""
    folded = {id(reference) for _, reference in uses if reference is not None}
    binding_sites = {id(binding.node) for binding, _ in uses}
    """The sites of the bindings whose uses `_fold_uses` may fold: only there a finding's index is kept, or a
    fallback's is worth making on a covered line (elsewhere it would fold nothing, and be dropped)."""
    seen: set[tuple[int, int, str]] = set()
    covered: set[tuple[int | None, int]] = set()
    """(cell, line) of the findings of rules that are not fallbacks, so far."""
    findings, path = result.findings, result.path
    fallback_found = False
    for node, checks in dispatched:
        site = node.node if type(node) is Reference else node
        for rule, check in checks:
            if rule.fallback and id(site) not in binding_sites and locate(getattr(site, "lineno", 0)) in covered:
                continue  # its finding would be dropped (`_drop_covered_fallbacks`); a binding site's folds its uses
            for found, message in check(node, context):
                line_number, column, code = found.lineno, found.col_offset, rule.code
                key = (line_number, column, code)
                if key in seen:
                    continue  # one finding per rule and place (an import is also a reference)
                seen.add(key)
                index = len(findings)
                if id(site) in binding_sites:
                    flagged.setdefault(id(site), []).append(index)
                if id(node) in folded:
                    produced.setdefault(id(node), []).append(index)
                cell, line = place = locate(line_number)
                if rule.fallback:
                    fallback_found = True
                else:
                    covered.add(place)
                findings.append(as_finding((path, cell, line, column, code, message)))
    if flagged:  # most files flag no binding site (tensor2tensor: 310 of 381), and have nothing to fold
        _fold_uses(result, flagged, produced, uses)
    if fallback_found:
        _drop_covered_fallbacks(result.findings)


def _drop_covered_fallbacks(findings: list[Finding]) -> None:
    """A fallback rule's finding on a line where another rule of this file reports, dropped here: the scan drops
    it anyway (`scanner._without_covered_fallbacks`, which also sees the whole-codebase findings), and on
    tensor2tensor a third of the findings (2,097 of 6,433) need not be pickled to the parent only to be dropped."""
    fallback = fallback_codes()
    covered = {(finding.cell, finding.line) for finding in findings if finding.code not in fallback}
    findings[:] = [
        finding for finding in findings if finding.code not in fallback or (finding.cell, finding.line) not in covered
    ]


def _find_hook_passes(tree: ast.Module, text: str, result: FileResult, statements: Statements, aliases: AliasTable) -> None:
    """Where the file passes hooks (`hooks=[...]`, `MonitoredSession(hooks=...)`) and in which phase, into `result`."""
    classes: dict[str, str] = {}
    for node, qualname in statements.classes:
        classes.setdefault(node.name, qualname)
    mentions = _matching_lines(MENTION, text)
    result.hook_passes = hook_passes(
        tree, lambda node: qualified_class(node, aliases, result.module, classes), mentions, statements.functions
    )


def _matching_lines(pattern: re.Pattern[str], text: str) -> frozenset[int]:
    """The numbers of the lines where `pattern` matches, counting newlines once through the text
    (counting from the start for each match cost 3 ms on `tensorflow_estimator`)."""
    lines = set()
    line, position = 1, 0
    for match in pattern.finditer(text):
        line += text.count("\n", position, match.start())
        position = match.start()
        lines.add(line)
    return frozenset(lines)


def _fold_uses(result: FileResult, flagged: dict[int, list[int]], produced: dict[int, list[int]], uses: list) -> None:
    """Uses of a flagged binding are covered by its finding: drop theirs (same rule), count them in its message.

    `uses` holds (binding, the use's Reference or None when the name holds a value, not an alias).
    """
    counts: dict[int, dict[str, int]] = {}
    dropped: set[int] = set()
    for binding, reference in uses:
        site = id(binding.node)
        if site not in flagged:
            continue
        by_name = counts.setdefault(site, {})
        by_name[binding.name] = by_name.get(binding.name, 0) + 1
        if reference is not None:
            codes = {result.findings[index].code for index in flagged[site]}
            dropped.update(index for index in produced.get(id(reference), ()) if result.findings[index].code in codes)
    for site, by_name in counts.items():
        covered = ", ".join(f"{count} {'use' if count == 1 else 'uses'} of `{name}`" for name, count in by_name.items())
        for index in flagged[site]:
            finding = result.findings[index]
            result.findings[index] = finding._replace(message=f"{finding.message} (covers the {covered})")
    if dropped:
        result.findings[:] = [finding for index, finding in enumerate(result.findings) if index not in dropped]


def _suppressions(text: str, locate: Locator) -> dict[tuple[int | None, int], frozenset[str] | None]:
    suppressions = {}
    for number, line in enumerate(text.splitlines(), 1):
        if "migrate:" not in line:
            continue
        match = SUPPRESSION.search(line)
        if match:
            codes = match.group(1)
            selected = frozenset(code.strip().upper() for code in codes.split(",") if code.strip()) if codes else None
            suppressions[locate(number)] = selected
    return suppressions


def _locator(positions: list[tuple[int, int]] | None) -> Locator:
    if positions is None:
        return lambda line: (None, line)

    def locate(line: int) -> tuple[int | None, int]:
        if 1 <= line <= len(positions):
            return positions[line - 1]
        return (None, line)

    return locate


def describe_syntax_error(error: SyntaxError, text: str) -> str:
    """The skip reason: Python 2 source named as such, other errors with their line."""
    message = error.msg or "invalid syntax"
    if "Missing parentheses in call to" in message:
        what = "print statement" if "'print'" in message else "exec statement"
        return f"Python 2 source ({what} at line {error.lineno}); port it to Python 3 first"
    lines = text.splitlines()
    error_line = lines[error.lineno - 1] if error.lineno and 0 < error.lineno <= len(lines) else ""
    for pattern, what in _PYTHON2_HINTS:
        if re.search(pattern, error_line):
            return f"Python 2 source ({what} at line {error.lineno}); port it to Python 3 first"
    return f"syntax error at line {error.lineno}: {message}"
