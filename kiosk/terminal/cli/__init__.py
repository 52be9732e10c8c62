"""The terminal's commands (``turbokiosk run``, ``meters``, ``audit``...), one module each, and the
command line's shared arguments and error contract.
"""
