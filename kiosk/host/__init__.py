"""The host deployable: the reference accounting host, the floor dashboard and the SAS host tool."""
