"""`IteratorInitializerHook`: feed numpy arrays to an initializable iterator at session start.

The recipe for datasets too large to embed as graph constants (the
"GraphDef cannot be larger than 2GB" error): the input function builds
placeholders and an initializable iterator and hands the hook a function that
runs the initializer with the arrays in its `feed_dict`; the hook calls it in
`after_create_session`, once the session exists and before the first step.

Twin: `modern/callbacks/iterator_initializer.py` — deliberately no callback:
TF2 iterates datasets eagerly, so there is no initializer to run and nothing to feed.
"""
from __future__ import annotations

from collections.abc import Callable

import tensorflow as tf

IteratorInitializer = Callable[[tf.compat.v1.Session], None]


class IteratorInitializerHook(tf.compat.v1.train.SessionRunHook):
    """Runs `iterator_initializer_func(session)` right after the session is created.

    The input function sets `iterator_initializer_func` when the Estimator
    calls it (inside the Estimator's graph); one hook serves one input
    function. The session is recreated after Aborted/Unavailable errors, and
    `after_create_session` runs again then, so the iterator restarts.
    """

    def __init__(self) -> None:
        super().__init__()
        self.iterator_initializer_func: IteratorInitializer | None = None

    def after_create_session(self, session: tf.compat.v1.Session, coord: tf.train.Coordinator) -> None:
        """Called once the session exists, before the first `before_run`: initialise the iterator."""
        if self.iterator_initializer_func is None:
            raise RuntimeError(
                "IteratorInitializerHook has no iterator_initializer_func: pass the hook together with the "
                "input_fn it came from (legacy.inputs.placeholder_input_fn returns both)."
            )
        self.iterator_initializer_func(session)
