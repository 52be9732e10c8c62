"""The SAS host side: the poller, the casino logic, the serial line, the ticket database."""
