"""The terminal's Kivy touchscreen app: screens, widgets, ``.kv`` layouts and the service pages
(the Dealer Terminal's screens are :mod:`ui.table`).
"""
