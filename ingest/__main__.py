"""`python -m ingest PATH… [--corpus NAME] [--format …] [--dry-run] [--json]` (the command is `ingest.cli`)."""
from __future__ import annotations

import sys

from ingest.cli import main

if __name__ == "__main__":
    sys.exit(main())
