from __future__ import annotations

import ast

from migrate.scanning.walk import descendants, descendants_on_lines, node_fields

SOURCE = '''
import tensorflow as tf

@decorator(arg=1)
def f(x, *args, y: int = 2, **kwargs) -> None:
    """Doc."""
    total = [a + b for a, b in zip(x, args) if a]
    with tf.Session() as session:
        session.run(total, feed_dict={x: 1, **kwargs})
    match x:
        case {"k": [1, *rest]} if rest:
            return lambda z: -z
    try:
        pass
    except (ValueError, TypeError) as error:
        raise RuntimeError(f"{error!r:>10}") from error
'''


def test_descendants_are_ast_walk_without_contexts_operators_and_import_names() -> None:
    tree = ast.parse(SOURCE)
    left_out = (ast.expr_context, ast.operator, ast.unaryop, ast.cmpop, ast.boolop, ast.alias)
    expected = [node for node in ast.walk(tree) if not isinstance(node, left_out)]
    found = descendants(tree)
    assert sorted(map(id, found)) == sorted(map(id, expected))
    assert len(found) == len(expected)


def test_node_fields_leave_out_identifiers_operators_and_contexts() -> None:
    assert node_fields(ast.Name) == ()
    assert node_fields(ast.Attribute) == ("value",)
    assert node_fields(ast.BinOp) == ("left", "right")
    assert node_fields(ast.Call) == ("func", "args", "keywords")


def test_descendants_on_lines_are_every_node_across_those_lines_and_no_other_statement() -> None:
    tree = ast.parse(SOURCE)
    for line in range(1, SOURCE.count("\n") + 1):
        found = descendants_on_lines(tree, [line])
        across = [node for node in descendants(tree) if getattr(node, "lineno", None) is not None
                  and node.lineno <= line <= (node.end_lineno or node.lineno)]
        assert {id(node) for node in across} <= {id(node) for node in found}, line
        statements = [node for node in found if isinstance(node, ast.stmt)]
        assert all(node.lineno - len(getattr(node, "decorator_list", [])) <= line <= (node.end_lineno or node.lineno)
                   for node in statements), line
    on_the_decorator = descendants_on_lines(tree, [4])
    assert any(isinstance(node, ast.FunctionDef) for node in on_the_decorator)  # a definition starts at its decorator
    assert not any(isinstance(node, ast.FunctionDef) for node in descendants_on_lines(tree, [2]))
