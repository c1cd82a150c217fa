"""``python -m asyncfail``: the same CLI as the ``asyncfail`` script."""

import sys

from asyncfail.cli.main import main

sys.exit(main())
