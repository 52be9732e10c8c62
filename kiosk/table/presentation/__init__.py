"""The Dealer Terminal's screens as data."""
