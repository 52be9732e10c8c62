"""The Kivy touchscreen app: screens, widgets and .kv layouts.

It shows the terminal's state (as :mod:`kiosk.terminal.presentation` makes it display-ready) and
turns touches into the terminal's commands.  No rules and no money math live here.  Import
:mod:`ui.terminal.env` and call :func:`ui.terminal.env.prepare` before anything that imports Kivy.
"""
