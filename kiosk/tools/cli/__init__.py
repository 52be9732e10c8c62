"""The tools' commands (``turbokiosk lab-package``, ``screenshots``, ``par-sheet``, ``simulate``,
``soak``, ``sim``...), one module each.
"""
