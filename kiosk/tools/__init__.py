"""The tools deployable: the laboratory package, tours, screenshots, benches, demos and
simulators."""
