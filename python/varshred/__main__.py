# Licensed under the Apache License, Version 2.0.
"""``python -m varshred``: the varshred command."""

from varshred.cli import run

run()
