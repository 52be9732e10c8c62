"""Vector drawings made by the project: suits, sport icons, card faces and backs, chips."""
