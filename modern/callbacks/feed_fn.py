"""`FeedFnHook` → no callback: feed data through a generator and `Dataset.from_generator`.

`tf.compat.v1.train.FeedFnHook(feed_fn)` (twin: `legacy/hooks/feed_fn.py`) called `feed_fn()` in every
`before_run` and passed the returned ``{placeholder: value}`` dict as the
step's `feed_dict`. Keras has no feed injection, and TF2 has no placeholders:
whatever `feed_fn` produced per step is what a Python generator yields per
batch. Move the body of `feed_fn` into a generator and wrap it with
`tf.data.Dataset.from_generator(gen, output_signature=...)` (see
`modern.pipeline.from_batch_generator`, which also checks each batch).

Method mapping: `before_run` returning ``SessionRunArgs(feed_dict=feed_fn())``
→ the generator's ``yield`` (the dataset pulls the next batch each step).

Differences: the generator runs ahead of the step (prefetch), so it must not
depend on the result of the previous step; values that did (e.g. a schedule
read from the session) belong in the model or a callback instead.
"""
from __future__ import annotations

TF1_EQUIVALENT = {
    "hooks": ["FeedFnHook"],
    "callback": None,
    "methods": {"before_run": "generator yield via tf.data.Dataset.from_generator"},
    "differences": [
        "no callback: Keras cannot inject feeds; the per-step feed becomes a batch yielded by a generator",
        "batches are prefetched, so a feed may not depend on the previous step's results",
    ],
}
