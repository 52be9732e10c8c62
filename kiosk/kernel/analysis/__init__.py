"""Exact mathematics of every wager (par sheets) and simulation checks."""
