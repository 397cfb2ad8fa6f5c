"""Benchmarks for skprobeval: each ``bench_*.py`` has ``main(quick=False)``."""
