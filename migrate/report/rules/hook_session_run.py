"""`session.run(...)` inside a hook.

## What it does
Checks for `.run(...)` calls on a session in the protocol methods of
`SessionRunHook` subclasses: the session the method is given (`session` in
`after_create_session`/`end`, `run_context.session` in `before_run`/`after_run`),
one the hook stored (`self._session = session`), `tf.get_default_session()`
or a session the hook opens (`with tf.Session() as sess`) — followed through
local variables, whatever they are called.

## Why is this bad?
A hook may run graph ops itself (read a variable in `after_create_session`,
evaluate a metric in `end`). Without sessions there is nothing to run: in TF2
variables are read eagerly, and per-step values must come from the training
step. Running extra ops per step was also a hidden cost in TF1.

## Example
```python
def after_create_session(self, session, coord):
    self._start_step = session.run(self._global_step)
```

## Use instead
```python
def on_train_begin(self, logs=None):
    self._start_step = int(self.model.optimizer.iterations.numpy())
```

## References
- https://www.tensorflow.org/guide/migrate/sessionrunhook_callback
- https://www.tensorflow.org/guide/effective_tf2
"""
from __future__ import annotations

import ast
from collections.abc import Iterator

from migrate.core.protocol import TF1_TO_KERAS
from migrate.report.context import FileContext, MethodBody, spelled
from migrate.report.registry import Message, Rule, register
from migrate.scanning.aliases import dotted_parts
from migrate.scanning.walk import descendants

RULE = Rule(code="TFM205", name="hook-session-run", effort="rewrite", doc=__doc__, modern_equivalent="modern/callbacks/")

SESSION_PARAMETERS = {"after_create_session": 0, "end": 0}
"""Protocol methods that receive the session, and its position after `self`."""
RUN_CONTEXT_METHODS = ("before_run", "after_run")
"""Protocol methods whose first argument is a `SessionRunContext` (its `.session` is the session)."""
SESSION_CALLS = frozenset({
    "tensorflow.get_default_session", "tensorflow.Session", "tensorflow.InteractiveSession",
    "tensorflow.train.MonitoredSession", "tensorflow.train.SingularMonitoredSession", "tensorflow.train.MonitoredTrainingSession",
})
"""Calls that give a session: the default one, or a new one the hook opens itself."""


def _session_attributes(owner: ast.ClassDef) -> frozenset[str]:
    """`self.X` attributes the class stores a protocol-given session in (`self._session = session`)."""
    attributes = set()
    for statement in owner.body:
        if not isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        given = _given_session(MethodBody(statement, owner))
        if given == (None, None):
            continue  # given no session, a method stores none (`_is_session` below knows no attribute yet)
        for node in descendants(statement):
            if isinstance(node, ast.Assign) and _is_session(node.value, given, frozenset(), None):
                for target in node.targets:
                    parts = dotted_parts(target)
                    if parts is not None and len(parts) == 2 and parts[0] == "self":
                        attributes.add(parts[1])
    return frozenset(attributes)


def _given_session(method: MethodBody) -> tuple[str | None, str | None]:
    """(name of the session parameter, name of the run-context parameter) of a protocol method."""
    parameters = method.parameters()
    position = SESSION_PARAMETERS.get(method.name)
    session = parameters[position] if position is not None and len(parameters) > position else None
    run_context = parameters[0] if method.name in RUN_CONTEXT_METHODS and parameters else None
    return session, run_context


def _is_session(node: ast.AST, given: tuple[str | None, str | None], attributes: frozenset[str], context: FileContext | None) -> bool:
    session, run_context = given
    if isinstance(node, ast.Call):
        return context is not None and context.tensorflow_name(node.func) in SESSION_CALLS
    parts = dotted_parts(node)
    if parts is None:
        return False
    if len(parts) == 1:
        return parts[0] == session
    if len(parts) == 2:
        return (parts[0] == run_context and parts[1] == "session") or (parts[0] == "self" and parts[1] in attributes)
    return False


@register(RULE, MethodBody)
def check(method: MethodBody, context: FileContext) -> Iterator[Message]:
    runs = [(node, node.func) for node in method.calls if isinstance(node.func, ast.Attribute) and node.func.attr == "run"]
    if not runs:
        return
    given = _given_session(method)
    attributes = context.memo(f"hook-session-run:{id(method.owner)}", lambda _: _session_attributes(method.owner))
    local: set[str] = set()
    for node in descendants(method.node):
        if isinstance(node, ast.Assign) and _is_session(node.value, given, attributes, context):
            local.update(target.id for target in node.targets if isinstance(target, ast.Name))
        elif isinstance(node, ast.With):
            local.update(
                item.optional_vars.id for item in node.items
                if isinstance(item.optional_vars, ast.Name) and _is_session(item.context_expr, given, attributes, context)
            )
    for node, func in runs:
        receiver = func.value
        if _is_session(receiver, given, attributes, context) or (isinstance(receiver, ast.Name) and receiver.id in local):
            yield node, (
                f"`{spelled(node.func)}(...)` in `{method.class_name}.{method.name}` runs graph ops outside the training "
                f"step; in `{TF1_TO_KERAS[method.name][0]}` read values eagerly (`variable.numpy()`, "
                "`self.model.optimizer.iterations`) or have `train_step` return them in `logs`"
            )
