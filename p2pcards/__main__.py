import sys

from p2pcards.cli import main

sys.exit(main())
