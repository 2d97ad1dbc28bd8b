"""Benchmarks behind ``p2pcards bench``.

Each module has ``run(...) -> dict`` and ``format_table(dict) -> str``.  Benchmarks read the clock;
nothing replicated ever does.
"""
