"""Side-by-side parity: does the TF2 rebuild train exactly like the TF1 original?

TF-free parts (comparison, traces, reports) live here; the two training sides
(`migrate.parity.sides.*`) import TensorFlow and are loaded only when
`migrate parity` runs.
"""
