"""The two training sides of `migrate parity`; each imports TensorFlow (load lazily)."""
