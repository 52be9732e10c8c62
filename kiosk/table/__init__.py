"""The table deployable: the table controller and the Dealer Terminal."""
