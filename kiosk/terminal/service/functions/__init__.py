"""Every service function and the least role that may call it: the table the gate enforces.

====================  ==========  ===========================================================
function              least role  what it does
====================  ==========  ===========================================================
status                attendant   what stops play, credits, handpay and tilts waiting
meters                attendant   lifetime and period meters
recall                attendant   the last games, card by card
handpay_reset         attendant   the handpay or jackpot was paid by hand
clear_tilt            attendant   clear a resolved tilt
change_pin            attendant   change the entered role's own PIN
events                technician  the event log with filters
audit_log             technician  the service audit log (read only)
bill_test             technician  notes read and handed back without credit
voucher_test          technician  a VOID test voucher
touch_test            technician  touchscreen test result
display_test          technician  display test patterns and verdict
doors                 technician  door switches and the service key
devices               technician  validator, printer and host link with counters
rng_selftest          technician  DRBG known answers, health-test check, generator counters
software              technician  SHA-256 manifest of every program file
software_hmac         technician  HMAC-SHA256 of every program file with a typed-in seed
store_check           technician  non-volatile store integrity
sas                   technician  the SAS link: address, polls/s, last poll, errors, queue depth
sas_address           technician  set the SAS address (1-127), audited
sas_aft_acknowledge   operator    agree to the AFT registration the SAS host asked for
config                operator    settings, editions and pay tables with house edges
paytables             operator    every pay table with its house edge
config_change         operator    change settings (zero credits, no game)
period_reset          operator    clear the period meters
config_export         operator    signed configuration file out
config_import         operator    signed configuration file in
set_pin               operator    set another role's PIN, lifting its lock-out
ram_clear             operator    move the store aside (kept) and start a new one (audited)
====================  ==========  ===========================================================
"""

from __future__ import annotations

from kiosk.terminal.service.functions import (
    attendant,
    checks,
    config,
    config_file,
    diagnostics,
    pins,
    ram_clear,
    records,
    sas,
)
from kiosk.terminal.service.functions.base import ServiceFunction

_ALL: tuple[ServiceFunction, ...] = (
    *attendant.FUNCTIONS[:1],
    *records.FUNCTIONS[:2],
    *attendant.FUNCTIONS[1:],
    *pins.FUNCTIONS[:1],
    *records.FUNCTIONS[2:],
    *diagnostics.FUNCTIONS,
    *checks.FUNCTIONS,
    *sas.FUNCTIONS,
    *config.FUNCTIONS,
    *config_file.FUNCTIONS,
    *pins.FUNCTIONS[1:],
    *ram_clear.FUNCTIONS,
)

#: function name -> function, in menu order
FUNCTIONS: dict[str, ServiceFunction] = {f.name: f for f in _ALL}
