"""The iterator-initializer hook → no callback: TF2 datasets need no initialisation.

TF1 code fed arrays too large for a graph constant through placeholders into
`dataset.make_initializable_iterator()`, and an `IteratorInitializerHook`
(twin: `legacy/hooks/iterator_initializer.py`; the Estimator's own
`_DatasetInitializerHook` likewise) ran the initializer with a `feed_dict` in
`after_create_session`. In TF2 a dataset is iterated eagerly by `fit`, which
creates a fresh iterator per call: there is no initializer to run and nothing
to feed. Arrays that would exceed the 2 GB GraphDef limit are streamed by a
generator (`modern.pipeline`, memory-mapped from disk), never embedded.

Method mapping: `after_create_session` (run the initializer) → none.

Differences: the iterator restarts at every `fit`/`evaluate` call, as it
restarted when TF1 recreated the session; to resume mid-stream pass
`start_batch` to `modern.pipeline.train_dataset`.
"""
from __future__ import annotations

TF1_EQUIVALENT = {
    "hooks": ["IteratorInitializerHook", "_DatasetInitializerHook"],
    "callback": None,
    "methods": {"after_create_session": "none: fit iterates the dataset eagerly"},
    "differences": [
        "no callback: tf.data iterators need no initializer and no feed",
        "large arrays are streamed by a generator instead of fed into placeholders (no 2 GB GraphDef limit)",
    ],
}
