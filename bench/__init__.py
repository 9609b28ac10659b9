"""Benchmarks (measurements, not tests): `python -m bench` runs the training ones; see bench/README.md."""
