"""The helpers the tests and the benchmarks share: tools a test needs, fault injection,
a live table with phones, an X server, screen states and table stories.

Importable as ``support`` (``pythonpath = ["tests"]`` in pyproject.toml; a benchmark puts
``tests/`` on ``sys.path`` first). Nothing here is a test.
"""
