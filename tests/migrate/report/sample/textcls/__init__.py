"""A text classifier in the TF1 idioms of large public repositories (see ../README.md)."""
