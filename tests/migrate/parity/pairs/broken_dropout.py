"""dense.py with one detail changed on the Keras side: a Dropout(0.5) in Keras that the TF1 model_fn does not have."""
from dense import *  # noqa: F403
from dense import PARAMS as BASE_PARAMS

PARAMS = {**BASE_PARAMS, "keras_dropout": 0.5}
