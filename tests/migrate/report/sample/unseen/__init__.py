"""Short excerpts of real TF1 code (see each file\x27s docstring for its source)."""
