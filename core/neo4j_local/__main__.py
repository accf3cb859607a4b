"""`python -m core.neo4j_local {install,start,stop,status,uri,password}`"""
import sys

from core.neo4j_local.cli import main

if __name__ == "__main__":
    sys.exit(main())
