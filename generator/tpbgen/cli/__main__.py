"""`python -m tpbgen.cli` (and `python -m tpbgen`): the tpbgen command."""

import sys

from . import main

sys.exit(main())
