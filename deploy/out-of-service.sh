#!/bin/sh
# Installed as /opt/turbokiosk/lib/out-of-service.sh; run by turbokiosk-out-of-service.service,
# the OnFailure= handler of turbokiosk.service and turbokiosk-signer.service.  A unit gets here
# when it gave up: its start limit was hit (a crash loop stopped), so the terminal is out of
# service until it is powered off and on.  This logs one clear line (priority crit, in the
# journal under turbokiosk-out-of-service) and puts the reason on the display's console.
#
# systemd hands the failed unit over in MONITOR_UNIT, MONITOR_SERVICE_RESULT,
# MONITOR_EXIT_CODE and MONITOR_EXIT_STATUS (systemd.exec(5)).  TURBOKIOSK_OOS_TTY names the
# console (default /dev/tty1, the display's); TURBOKIOSK_OOS_JOURNAL a journal directory to read
# instead of the system's (tests).
set -u

unit=${MONITOR_UNIT:-turbokiosk.service}
result=${MONITOR_SERVICE_RESULT:-unknown}
exit_code=${MONITOR_EXIT_CODE:-}
exit_status=${MONITOR_EXIT_STATUS:-}
tty=${TURBOKIOSK_OOS_TTY:-/dev/tty1}

case "$unit" in
    *[!A-Za-z0-9@._:-]*) unit="(unprintable unit name)" ;;
esac

# The last line the failed unit's own program wrote this boot (its error), if any.
last=""
if command -v journalctl >/dev/null 2>&1; then
    if [ -n "${TURBOKIOSK_OOS_JOURNAL:-}" ]; then
        set -- --directory="$TURBOKIOSK_OOS_JOURNAL"
    else
        set -- --boot
    fi
    last=$(journalctl "$@" --no-pager --output=cat --lines=1 _SYSTEMD_UNIT="$unit" 2>/dev/null |
        tail -n 1 | tr -cd '[:print:]' | cut -c 1-200)
fi
[ -n "$last" ] || last="(the program left no message)"

how="$result"
[ -z "$exit_code" ] || how="$how, $exit_code ${exit_status}"

# One line for the journal: <2> is syslog priority "crit".
printf '<2>OUT OF SERVICE: %s gave up after repeated failures (%s): %s\n' \
    "$unit" "$how" "$last" >&2

# The display: the kiosk let go of it when it stopped; its console (tty1) shows again.
if [ "$tty" = /dev/tty1 ] && command -v chvt >/dev/null 2>&1; then
    chvt 1 2>/dev/null || true
fi
{
    printf '\033[2J\033[H\n\n'
    printf '   OUT OF SERVICE\n\n'
    printf '   %s stopped after repeated failures.\n' "$unit"
    printf '   Result: %s\n' "$how"
    printf '   Last message: %s\n' "$last"
    printf '   Time: %s\n\n' "$(date -u '+%Y-%m-%d %H:%M:%S UTC')"
    printf '   The terminal store is kept as it is.  Call the technician:\n'
    printf '   power the terminal off and on to try again; if it stops again,\n'
    printf '   read the log from the SD card (deploy/README.md, "Out of service").\n'
} 2>/dev/null >"$tty" || printf 'out-of-service: cannot write to %s\n' "$tty" >&2
exit 0
