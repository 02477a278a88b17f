"""``python -m openrummy``: the ``rummy`` command, for when the script is not on the PATH."""

from openrummy.cli import main

if __name__ == "__main__":  # pragma: no cover
    main()
