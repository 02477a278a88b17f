"""Migration scripts, oldest first (``0001_initial``, ``0002_puzzles``)."""
