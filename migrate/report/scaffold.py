"""`--emit-callbacks DIR`: a Keras callback skeleton for every SessionRunHook subclass.

Each hook method body (own or inherited within the codebase) is moved into
the Keras method it maps to (`hierarchy.TF1_TO_KERAS`, the inverse of
`migrate.core.protocol.KERAS_TO_TF1`, `on_train_*` side); other methods and the
module's imports are copied as they are. Every statement that uses the
session, the graph, `run_context`/`run_values` or `SessionRunArgs` gets a
`# TODO(migrate): ...` line above it saying what to do instead. The skeleton
is a starting point that parses, not a working callback.
"""
from __future__ import annotations

import ast
import os
import re
import textwrap
from dataclasses import dataclass
from pathlib import Path

from migrate.report.aliases import absolute_module, build_alias_table, dotted_parts
from migrate.report.classes import PROTOCOL_METHODS, iter_classes
from migrate.report.hierarchy import HookClass
from migrate.report.names import display
from migrate.report.sources import SkipFile, SourceFile, read_source

KERAS_SIGNATURES = {
    "on_train_begin": "self, logs=None",
    "on_train_batch_begin": "self, batch, logs=None",
    "on_train_batch_end": "self, batch, logs=None",
    "on_train_end": "self, logs=None",
}
PARAMETER_ADVICE = {
    "run_context": "no run_context in Keras: request_stop() → `self.model.stop_training = True`",
    "run_values": "no run_values: read the value from `logs` (have train_step return it)",
    "session": "no session in TF2: read values eagerly (`variable.numpy()`)",
    "coord": "no coordinator in Keras: drop it",
}
GRAPH_CALLS = frozenset({"get_default_graph", "get_collection", "add_to_collection", "get_tensor_by_name", "get_operation_by_name", "graph"})
SESSION_ADVICE = "session.run: there is no session; compute the value eagerly or return it from train_step into logs"
GRAPH_ADVICE = "graph building: TF2 has no graph to extend; create state in __init__/set_model, compute eagerly"
ARGS_ADVICE = "SessionRunArgs: Keras cannot add fetches/feeds; return the values from train_step into logs"
RETURN_ADVICE = "Keras ignores callback return values (and an early return skips code moved below)"


@dataclass
class ParsedFile:
    lines: list[str]
    tree: ast.Module
    classes: dict[str, ast.ClassDef]
    imports: list[ast.Import | ast.ImportFrom]
    aliases: object


def emit_callbacks(hooks: list[HookClass], directory: str | os.PathLike) -> list[Path]:
    """Write one skeleton per hook into `directory`; return the written paths."""
    target = Path(directory)
    target.mkdir(parents=True, exist_ok=True)
    parsed: dict[str, ParsedFile | None] = {}
    written: list[Path] = []
    used: set[str] = set()
    for hook in hooks:
        source = callback_source(hook, lambda path: _parsed(path, parsed))
        if source is None:
            continue
        stem = _snake(callback_name(hook))
        name, counter = stem, 2
        while name in used:
            name, counter = f"{stem}_{counter}", counter + 1
        used.add(name)
        path = target / f"{name}.py"
        path.write_text(source, encoding="utf-8")
        written.append(path)
    return written


def callback_name(hook: HookClass) -> str:
    base = hook.name.lstrip("_") or "Hook"
    return (base[: -len("Hook")] if base.endswith("Hook") and base != "Hook" else base) + "Callback"


def callback_source(hook: HookClass, load) -> str | None:
    own = load(hook.path)
    if own is None or hook.qualname not in own.classes:
        return None
    class_node = own.classes[hook.qualname]
    by_callback: dict[str, list[tuple[str, str, ParsedFile, ast.FunctionDef]]] = {}
    for method in hook.methods:
        parsed = load(method.path)
        owner = parsed.classes.get(method.defined_in) if parsed else None
        function = _method(owner, method.name) if owner is not None else None
        if function is not None:
            by_callback.setdefault(method.callback, []).append((method.name, method.defined_in, parsed, function))
    out = [
        f'"""Keras callback skeleton for `{hook.full_name}` ({hook.path}:{hook.line}).',
        "",
        "Written by `migrate report --emit-callbacks`: each SessionRunHook method body was moved",
        "into the Keras method it maps to; lines marked TODO(migrate) used the session, the graph",
        "or run_context and must be rewritten. For evaluation/prediction hooks use the",
        "`on_test_*` / `on_predict_*` twins of these methods.",
        '"""',
        *_absolute_imports(own.imports, hook),
        "import keras",
        "",
        "",
        f"class {callback_name(hook)}(keras.callbacks.Callback):",
        f'    """Replaces `{hook.full_name}` (derives from {" ← ".join(hook.chain)})."""',
    ]
    if hook.equivalent is not None and hook.equivalent.callback:
        out.append(f"    # TODO(migrate): the TF1 base class did work not copied here; start from {hook.equivalent.callback} in {hook.equivalent.path}")
    for statement in class_node.body:
        if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef)) and statement.name not in PROTOCOL_METHODS:
            out += ["", *_copied_method(statement, own, hook.name)]
    for callback in KERAS_SIGNATURES:
        moved = by_callback.get(callback)
        if not moved:
            continue
        out += ["", f"    def {callback}({KERAS_SIGNATURES[callback]}):"]
        for hook_method, defined_in, parsed, function in moved:
            arguments = ", ".join(argument.arg for argument in function.args.args[1:])
            out.append(f"        # moved from {defined_in}.{hook_method}({arguments})")
            out += _moved_body(function, parsed, hook.name, several=len(moved) > 1)
    return "\n".join(out) + "\n"


def _absolute_imports(imports: list[ast.Import | ast.ImportFrom], hook: HookClass) -> list[str]:
    """The hook module's imports, relative ones made absolute (the skeleton lives elsewhere)."""
    package = hook.module if hook.path.endswith("__init__.py") else hook.module.rpartition(".")[0]
    lines = []
    for node in imports:
        if isinstance(node, ast.ImportFrom) and node.level:
            module = absolute_module(node.module, node.level, package)
            if module is None:
                continue
            node = ast.ImportFrom(module=module, names=node.names, level=0)
        lines.append(ast.unparse(node))
    return lines


def _moved_body(function: ast.FunctionDef, parsed: ParsedFile, hook_name: str, several: bool) -> list[str]:
    todos = _todo_lines(function, parsed, several)
    first = function.body[0].lineno
    if isinstance(function.body[0], ast.Expr) and isinstance(function.body[0].value, ast.Constant) and len(function.body) > 1:
        first = function.body[1].lineno
    body = parsed.lines[first - 1: function.body[-1].end_lineno]
    dedented = textwrap.dedent("\n".join(body)).splitlines()
    out = []
    for offset, line in enumerate(dedented):
        reasons = todos.get(first + offset)
        if reasons:
            indent = line[: len(line) - len(line.lstrip())]
            out.append(f"        {indent}# TODO(migrate): {'; '.join(dict.fromkeys(reasons))}")
        out.append(f"        {_unsuper(line, hook_name)}".rstrip())
    return out or ["        pass"]


def _copied_method(function: ast.FunctionDef | ast.AsyncFunctionDef, parsed: ParsedFile, hook_name: str) -> list[str]:
    start = min([function.lineno, *(decorator.lineno for decorator in function.decorator_list)])
    text = textwrap.dedent("\n".join(parsed.lines[start - 1: function.end_lineno]))
    return [f"    {_unsuper(line, hook_name)}".rstrip() for line in text.splitlines()]


def _unsuper(line: str, hook_name: str) -> str:
    return re.sub(rf"super\(\s*{re.escape(hook_name)}\s*,\s*self\s*\)", "super()", line)


def _todo_lines(function: ast.FunctionDef, parsed: ParsedFile, several: bool) -> dict[int, list[str]]:
    parameters = {argument.arg for argument in function.args.args[1:]}
    todos: dict[int, list[str]] = {}

    def visit(node: ast.AST, statement_line: int) -> None:
        if isinstance(node, ast.stmt):
            statement_line = node.lineno
            if isinstance(node, ast.Return) and (node.value is not None or several):
                todos.setdefault(statement_line, []).append(RETURN_ADVICE)
        reason = _reason(node, function.name, parameters, parsed)
        if reason:
            todos.setdefault(statement_line, []).append(reason)
        for child in ast.iter_child_nodes(node):
            if not isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
                visit(child, statement_line)

    for statement in function.body:
        visit(statement, statement.lineno)
    return todos


def _reason(node: ast.AST, method: str, parameters: set[str], parsed: ParsedFile) -> str | None:
    if isinstance(node, ast.Name) and node.id in parameters:
        return PARAMETER_ADVICE.get(node.id, f"`{node.id}` was a SessionRunHook argument; Keras does not pass it")
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
        receiver = ".".join(dotted_parts(node.func.value) or [])
        if node.func.attr == "run" and "sess" in receiver.lower():
            return SESSION_ADVICE
    if isinstance(node, ast.Attribute) and node.attr in GRAPH_CALLS:
        return GRAPH_ADVICE
    if isinstance(node, ast.Call):
        name = parsed.aliases.tensorflow_name(node.func)
        if name is not None:
            if name.endswith("SessionRunArgs"):
                return ARGS_ADVICE
            if method == "begin" and not name.startswith("tensorflow.logging"):
                return f"{GRAPH_ADVICE} (`{display(name)}`)"
    return None


def _method(class_node: ast.ClassDef, name: str) -> ast.FunctionDef | None:
    return next(
        (node for node in class_node.body if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == name),
        None,
    )


def _parsed(path: str, cache: dict[str, ParsedFile | None]) -> ParsedFile | None:
    if path not in cache:
        cache[path] = _parse(path)
    return cache[path]


def _parse(path: str) -> ParsedFile | None:
    try:
        text = read_source(SourceFile(os.path.abspath(path), path, os.path.dirname(os.path.abspath(path))), max_bytes=1 << 40).text
        tree = ast.parse(text)
    except (SkipFile, SyntaxError, ValueError):
        return None
    lines = text.splitlines()
    imports = [
        node
        for node in tree.body
        if isinstance(node, (ast.Import, ast.ImportFrom)) and not (isinstance(node, ast.ImportFrom) and node.module == "__future__")
    ]
    nodes = list(ast.walk(tree))
    aliases = build_alias_table(
        [node for node in nodes if isinstance(node, (ast.Import, ast.ImportFrom))],
        [node for node in nodes if isinstance(node, (ast.Assign, ast.AnnAssign))],
        (),
        "",
    )
    classes = {qualname: node for node, qualname in iter_classes(tree.body)}
    return ParsedFile(lines, tree, classes, imports, aliases)


def _snake(name: str) -> str:
    return re.sub(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])", "_", name).lower()
