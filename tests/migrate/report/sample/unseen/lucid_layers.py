"""Shape of a script cut from a notebook (tensorflow/lucid lucid/scratch/scripts/get_model_layers.py, Apache-2.0):
`tf` is used but imported nowhere in the file (a notebook cell before did). Written for this test. Before the fix
the file got no finding."""
import lucid.optvis.render as render


def get_layers(model, proposed_layers):
  with tf.Graph().as_default(), tf.Session() as sess:  # expect: TFM303
    t_input = tf.placeholder(tf.float32, [1] + model.image_shape)  # expect: TFM301
    T = render.import_model(model, t_input, t_input)
    return sess.run([tf.shape(T(node.name))[1:] for node in proposed_layers])
