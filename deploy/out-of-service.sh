#!/bin/sh
# Installed as /opt/turbokiosk/lib/out-of-service.sh; run as
#   out-of-service.sh UNIT
# by turbokiosk-out-of-service@UNIT.service, the OnFailure= handler of turbokiosk.service and
# turbokiosk-signer.service.  A unit gets here when systemd gave up on it (its start limit was
# hit: a crash loop stopped) or could not start it (the kiosk without its signer), so the
# terminal is out of service until it is powered off and on.  This logs one clear line
# (priority crit) and puts the reason on the display's console.
#
# systemd hands over the failed unit's result in MONITOR_SERVICE_RESULT, MONITOR_EXIT_CODE,
# MONITOR_EXIT_STATUS and MONITOR_INVOCATION_ID (systemd.exec(5)).  TURBOKIOSK_OOS_TTY names the
# console (default /dev/tty1, the display's); TURBOKIOSK_OOS_JOURNAL a journal directory to read
# instead of the system's (tests).
set -u

unit=${1:-${MONITOR_UNIT:-turbokiosk.service}}
result=${MONITOR_SERVICE_RESULT:-unknown}
exit_code=${MONITOR_EXIT_CODE:-}
exit_status=${MONITOR_EXIT_STATUS:-}
tty=${TURBOKIOSK_OOS_TTY:-/dev/tty1}

case "$unit" in
    *[!A-Za-z0-9@._:-]*) unit="(unprintable unit name)" ;;
esac

# The last line the failed unit's own program wrote (its error), if any: of the run that failed
# last (MONITOR_INVOCATION_ID), else of the unit.  Not "--boot": a sandboxed unit may not see
# the boot id journald files entries under (in a container it sees the host's).
last_line() {
    journalctl "$@" --no-pager --output=cat --lines=1 2>/dev/null |
        tail -n 1 | tr -cd '[:print:]' | cut -c 1-200
}
last=""
if command -v journalctl >/dev/null 2>&1; then
    if [ -n "${TURBOKIOSK_OOS_JOURNAL:-}" ]; then
        set -- --directory="$TURBOKIOSK_OOS_JOURNAL"
    else
        set --
    fi
    case "${MONITOR_INVOCATION_ID:-}" in
        "" | *[!0-9a-f]*) ;;
        *) last=$(last_line "$@" _SYSTEMD_INVOCATION_ID="$MONITOR_INVOCATION_ID") ;;
    esac
    [ -n "$last" ] || last=$(last_line "$@" _SYSTEMD_UNIT="$unit")
fi
[ -n "$last" ] || last="(the program left no message)"

# The kiosk and the signer restart always: failed with a result of their own means systemd gave
# up (systemd 252 keeps the last run's result, exit-code, signal, ..., not start-limit-hit);
# "success" means the unit never ran (the kiosk whose signer failed).
case "$result" in
    success | unknown)
        what="could not run"
        how="a unit it needs failed, or its start was refused"
        ;;
    *)
        what="gave up after repeated failures"
        how="$result"
        [ -z "$exit_code" ] || how="$how, $exit_code ${exit_status}"
        ;;
esac

# One line for the journal: <2> is syslog priority "crit".
printf '<2>OUT OF SERVICE: %s %s (%s): %s\n' "$unit" "$what" "$how" "$last" >&2

# The display: the kiosk let go of it when it stopped; its console (tty1) shows again.
if [ "$tty" = /dev/tty1 ] && command -v chvt >/dev/null 2>&1; then
    chvt 1 2>/dev/null || true
fi
{
    printf '\033[2J\033[H\n\n'
    printf '   OUT OF SERVICE\n\n'
    printf '   %s %s.\n' "$unit" "$what"
    printf '   Result: %s\n' "$how"
    printf '   Last message: %s\n' "$last"
    printf '   Time: %s\n\n' "$(date -u '+%Y-%m-%d %H:%M:%S UTC')"
    printf '   The terminal store is kept as it is.  Call the technician:\n'
    printf '   power the terminal off and on to try again; if it stops again,\n'
    printf '   read the log from the SD card (deploy/README.md, "Out of service").\n'
} 2>/dev/null >"$tty" || printf 'out-of-service: cannot write to %s\n' "$tty" >&2
exit 0
