"""The shared kernel: cards, scoring, game rules and math, and the small helpers every deployable
uses.
"""
