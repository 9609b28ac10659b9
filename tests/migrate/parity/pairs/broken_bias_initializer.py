"""dense.py with one detail changed on the Keras side: the Keras hidden bias initialised to ones (TF1: zeros)."""
from dense import *  # noqa: F403
from dense import PARAMS as BASE_PARAMS

PARAMS = {**BASE_PARAMS, "keras_bias_initializer": "ones"}
