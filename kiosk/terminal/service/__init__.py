"""The service menu for attendants, technicians and operators, UI-agnostic.

The touchscreen screens (``ui/terminal/service``) and ``turbokiosk service`` (SSH) are two faces of
the same logic: :mod:`~kiosk.terminal.service.access` (roles, PINs, lock-out),
:mod:`~kiosk.terminal.service.session` (the one gate every function goes through, writing exactly
one audit record), :mod:`~kiosk.terminal.service.functions` (the functions and the role each needs)
and
:mod:`~kiosk.terminal.service.audit_log` (reading and verifying the append-only audit log).
"""
