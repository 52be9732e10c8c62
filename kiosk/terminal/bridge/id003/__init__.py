"""JCM ID-003: the bill validator protocol of the JCM UBA, iVizion and their kin
(docs/devices.md)."""
