"""The terminal deployable: a player terminal or a seat of a table, the software a laboratory
certifies.
"""
