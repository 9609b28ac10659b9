"""dense.py with one detail changed on the Keras side: tanh instead of relu in the Keras hidden layer."""
from dense import *  # noqa: F403
from dense import PARAMS as BASE_PARAMS

PARAMS = {**BASE_PARAMS, "keras_activation": "tanh"}
