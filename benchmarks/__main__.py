"""``python -m benchmarks [--quick]``: every benchmark, one table."""

from benchmarks.run import main

raise SystemExit(main())
