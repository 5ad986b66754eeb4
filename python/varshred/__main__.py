# Licensed under the Apache License, Version 2.0.
"""``python -m varshred``: the varshred command."""

import sys

from varshred.cli import main

sys.exit(main())
