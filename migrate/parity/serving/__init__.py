"""Stage 6 of `migrate parity`: the Estimator's and the Keras model's SavedModels serve the same.

`surface` reads what a SavedModel shows a model server, `export` writes each
side's, `requests` builds the requests a client sends, `check` compares
surfaces and answers, `stage` runs it all for a parity run.
"""
