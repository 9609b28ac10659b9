"""Why `migrate fix` leaves a rule alone: the rewrite is not mechanical.

One line per rule, shown by `migrate explain` and `migrate rules --format json`.
A rule without a line here gets the reason of its effort class.
"""
from __future__ import annotations

WHY_MANUAL: dict[str, str] = {
    "TFM101": "the Estimator becomes a Keras model trained by fit: the training loop changes shape",
    "TFM102": "the EstimatorSpec's loss, train op and metrics move into compile/train_step",
    "TFM103": "the model_fn is split into a Keras model, a loss and metrics by hand",
    "TFM104": "RunConfig settings become callbacks and fit arguments (checkpoints, summaries, distribution)",
    "TFM105": "train_and_evaluate becomes fit(validation_data=...), with its specs rewritten",
    "TFM106": "a canned estimator has no drop-in Keras model; its architecture is rebuilt",
    "TFM107": "Experiment/learn_runner loops are replaced by fit and callbacks",
    "TFM201": "each hook method maps to a callback method with different arguments (see `migrate scaffold`)",
    "TFM202": "the built-in hook becomes a callback with its own constructor (see the hook map)",
    "TFM203": "extra fetches become values in the train step's logs",
    "TFM204": "request_stop becomes `model.stop_training = True` in a callback",
    "TFM205": "there is no session in a callback; the value comes from the model or the logs",
    "TFM206": "graph building in begin() moves into the model or the train step",
    "TFM301": "placeholders are replaced by a tf.data input or function arguments",
    "TFM302": "feeds become dataset elements or function arguments",
    "TFM303": "session code becomes eager code or tf.function",
    "TFM304": "the monitored training loop becomes fit with callbacks",
    "TFM305": "queue runners become a tf.data pipeline",
    "TFM306": "initializer ops have no TF2 equivalent to rename to: eager variables are initialized when created, so the call is deleted together with the session code around it",
    "TFM401": "graph-mode iterators become Python iteration over the dataset",
    "TFM402": "the iterator initializer disappears with the session that ran it",
    "TFM403": "large in-memory arrays are streamed by a generator instead (a design choice)",
    "TFM501": "tf.contrib has no single replacement: each module moved to a different library or was dropped",
    "TFM504": "Keras optimizers take other argument names and defaults (e.g. epsilon) and are used through fit, not minimize",
    "TFM505": "name-based Saver checkpoints become object-based tf.train.Checkpoint (see modern/weights.py for reading old ones)",
    "TFM506": "graph-collection variables become layer or tf.Variable attributes",
    "TFM507": "tf.layers functions become Keras layer objects created once, not per call",
    "TFM508": "tf.losses functions become Keras losses with other reduction defaults",
    "TFM509": "streaming (value, update_op) metrics become stateful Keras metrics",
    "TFM510": "TF1 summary ops become tf.summary calls under a default writer",
    "TFM511": "the global step becomes optimizer.iterations, read where it is used",
}

BY_EFFORT = {
    "rename": "the new name is not a drop-in replacement in every use",
    "rewrite": "the replacement needs local code changes that depend on the surrounding code",
    "redesign": "the training loop changes shape; no mechanical rewrite exists",
}


def why_manual(code: str, effort: str) -> str:
    return WHY_MANUAL.get(code) or BY_EFFORT.get(effort, BY_EFFORT["rewrite"])
