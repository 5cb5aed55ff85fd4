"""`python -m tpbgen`: the tpbgen command."""

import sys

from .cli import main

sys.exit(main())
