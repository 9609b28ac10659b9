"""Call sites of `od_dataset_builder.make_initializable_iterator` (object_detection/legacy/train.py)."""
import functools

import tensorflow as tf

from unseen import od_dataset_builder as dataset_builder


def create_input_dict_fn(input_config, build):
  def get_next(config):
    return dataset_builder.make_initializable_iterator(build(config)).get_next()

  tf.logging.info("input: %s", input_config)  # expect: TFM503
  return functools.partial(get_next, input_config)
