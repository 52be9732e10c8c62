"""Bill validator and ticket printer: the ports the terminal talks to, and their simulators."""
