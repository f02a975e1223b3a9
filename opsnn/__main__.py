"""python -m opsnn: the opsnn command line."""
from opsnn.cli import main

if __name__ == "__main__":
    raise SystemExit(main())
