"""Code shared by more than one test module: rigs, harnesses, builders, PKI makers, pty helpers.

Test modules import from here, never from one another (tests/architecture/test_test_imports.py)."""
