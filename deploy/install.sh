#!/bin/bash
# Install (or update) TurboKiosk on a Raspberry Pi OS Lite / Debian bookworm terminal.
#
#   sudo deploy/install.sh --config my-terminal.conf --trust-key release-key.pub.pem \
#        --bundle turbokiosk-0.1.0.tkb --host-ca ca.crt --host-cert TK-0001.crt \
#        --host-key TK-0001.key --device-copies /mnt/device-keys [--read-only-root]
#   sudo deploy/install.sh --bundle turbokiosk-0.1.1.tkb        # a later update
#   sudo deploy/install.sh                                      # re-apply the system setup
#
# Idempotent: every step checks before it changes anything, so running it again is harmless.
# The bundle is verified (Ed25519, deploy/verify_bundle.py) before anything in it is used; the
# new version is installed beside the running one and becomes current only when its power-up
# self-test passes; when the restarted kiosk does not come up, the previous version is put back.
# Inside a chroot (no running systemd) units are enabled but nothing is started.
# See deploy/README.md.
set -euo pipefail

kit=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
prefix=/opt/turbokiosk
etc=/etc/turbokiosk
data=/var/lib/turbokiosk
user=turbokiosk
# The critical memory's signer (turbokiosk-signer.service): its own user, its key and anchor on
# the data partition (it writes the anchor at every signature: on the root file system, the
# read-only overlay would lose it at every power-up), its socket.
signer_user="turbokiosk-signer"
signer_state="$data/signer"
signer_socket=/run/turbokiosk-signer/signer.sock
signer_public_key="$etc/signer-public-key"
# The devices' pairing keys: the terminal's copies, where `turbokiosk run` reads them by default.
device_keys="$etc/devices"
# A device bridge's configuration and its copy of the device's pairing key
# (turbokiosk-bridge@<device>.service, docs/devices.md): enabled by the technician per device.
bridge_user="turbokiosk-bridge"
bridge_etc="$etc/bridge"
conf="$etc/turbokiosk.conf"
trusted_key="$etc/release-key.pub.pem"
# The host link's credentials, as the kiosk unit's ExecStart names them.
host_dir="$etc/host"
host_ca="$host_dir/ca.crt"
host_cert="$host_dir/terminal.crt"
host_key="$host_dir/terminal.key"
data_label=TKDATA

bundle=""
new_conf=""
new_key=""
new_host_ca=""
new_host_cert=""
new_host_key=""
device_copies=""
read_only_root=no

log() { printf 'install.sh: %s\n' "$*" >&2; }
die() { log "ERROR: $*"; exit 1; }

usage() {
    sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//'
    exit 2
}

while [ $# -gt 0 ]; do
    case "$1" in
        --bundle) bundle=${2:?--bundle needs a file}; shift 2 ;;
        --config) new_conf=${2:?--config needs a file}; shift 2 ;;
        --trust-key) new_key=${2:?--trust-key needs a file}; shift 2 ;;
        --host-ca) new_host_ca=${2:?--host-ca needs a file}; shift 2 ;;
        --host-cert) new_host_cert=${2:?--host-cert needs a file}; shift 2 ;;
        --host-key) new_host_key=${2:?--host-key needs a file}; shift 2 ;;
        --device-copies) device_copies=${2:?--device-copies needs a directory}; shift 2 ;;
        --read-only-root) read_only_root=yes; shift ;;
        -h|--help) usage ;;
        *) log "unknown argument: $1"; usage ;;
    esac
done

[ "$(id -u)" -eq 0 ] || die "run as root (sudo)"
[ "$(findmnt -n -o FSTYPE / 2>/dev/null || true)" != overlay ] ||
    die "the root file system is the read-only overlay: sudo raspi-config nonint do_overlayfs 1, reboot, run again"

# True when systemd is PID 1 here (false in a chroot or an image being prepared).
systemd_running() { [ -d /run/systemd/system ] && ! systemd-detect-virt --chroot --quiet 2>/dev/null; }

# Copy SRC to DEST with MODE (and GROUP, default root) unless DEST already has the same
# content, mode and group.
put() {
    local src=$1 dest=$2 mode=$3 group=${4:-root}
    if [ -f "$dest" ] && cmp -s "$src" "$dest" &&
        [ "$(stat -c %a:%G "$dest")" = "${mode#0}:$group" ]; then
        return 0
    fi
    install -D -m "$mode" -o root -g "$group" "$src" "$dest"
    log "installed $dest"
}

# The value of KEY in the configuration file (KEY=VALUE lines), checked against REGEX.
conf_get() {
    local key=$1 regex=$2 value
    value=$(sed -n "s/^${key}=//p" "$conf" | tail -n 1)
    [[ $value =~ $regex ]] || die "$conf: $key='$value' is not valid (expected $regex)"
    printf '%s' "$value"
}

# Render TEMPLATE into DEST, replacing @KEY@ with the configuration's values.
render() {
    local template=$1 dest=$2 mode=$3 tmp
    tmp=$(mktemp)
    sed -e "s/@HOST_ADDRESS@/$host_address/g" -e "s/@HOST_PORT@/$host_port/g" \
        -e "s/@HOST_INTERFACE@/$host_interface/g" \
        -e "s/@VALIDATOR_VENDOR@/$validator_vendor/g" -e "s/@VALIDATOR_PRODUCT@/$validator_product/g" \
        -e "s/@VALIDATOR_SERIAL@/$validator_serial/g" \
        -e "s/@PRINTER_VENDOR@/$printer_vendor/g" -e "s/@PRINTER_PRODUCT@/$printer_product/g" \
        -e "s/@PRINTER_SERIAL@/$printer_serial/g" "$template" >"$tmp"
    put "$tmp" "$dest" "$mode"
    rm -f "$tmp"
}

step_packages() {
    "$kit/install-system-packages" "$kit/system-packages-terminal.txt"
}

step_user() {
    if ! getent passwd "$user" >/dev/null; then
        useradd --system --user-group --home-dir "$data" --no-create-home \
            --shell /usr/sbin/nologin --comment "TurboKiosk terminal" "$user"
        log "created system user $user"
    fi
    if ! getent passwd "$bridge_user" >/dev/null; then
        # The device bridges (turbokiosk-bridge@.service): their own user; the unit adds the
        # groups dialout (the device) and turbokiosk (to share the link's pty with the kiosk).
        useradd --system --user-group --home-dir "$data/bridge" --no-create-home \
            --shell /usr/sbin/nologin --comment "TurboKiosk device bridge" "$bridge_user"
        log "created system user $bridge_user"
    fi
    if ! getent passwd "$signer_user" >/dev/null; then
        # Not in the group turbokiosk: the signer reads nothing of the kiosk's.
        useradd --system --user-group --home-dir "$signer_state" --no-create-home \
            --shell /usr/sbin/nologin --comment "TurboKiosk critical memory signer" "$signer_user"
        log "created system user $signer_user"
    fi
    local group
    for group in video render input dialout; do
        if getent group "$group" >/dev/null && ! id -nG "$user" | grep -qw "$group"; then
            usermod -a -G "$group" "$user"
        fi
    done
}

# The data partition: a file system labelled TKDATA, mounted on /var/lib/turbokiosk.
step_data_partition() {
    local device uuid
    mkdir -p "$data"
    device=$(blkid -L "$data_label" 2>/dev/null || true)
    if [ -z "$device" ]; then
        log "no partition labelled $data_label: $data stays on the root file system"
        return 0
    fi
    uuid=$(blkid -s UUID -o value "$device")
    if ! grep -q "^UUID=$uuid " /etc/fstab; then
        printf 'UUID=%s %s ext4 defaults,noatime,nodev,nosuid,noexec,commit=5 0 2\n' \
            "$uuid" "$data" >>/etc/fstab
        log "added $device ($data_label) to /etc/fstab"
    fi
    if ! mountpoint -q "$data"; then
        mount "$data"
    fi
}

step_directories() {
    install -d -m 0755 -o root -g root "$prefix" "$prefix/releases" "$prefix/lib"
    install -d -m 0750 -o root -g "$user" "$etc"
    # The data partition's top directory is root's: the kiosk's user owns its own directories in
    # it but cannot rename or replace the signer's or the journal's.
    install -d -m 0755 -o root -g root "$data"
    install -d -m 0750 -o "$user" -g "$user" "$data/terminal" "$data/kivy"
    install -d -m 2755 -o root -g systemd-journal "$data/journal"
    install -d -m 0755 /var/log/journal
    install -d -m 0700 -o "$signer_user" -g "$signer_user" "$signer_state"
    put "$kit/verify_bundle.py" "$prefix/lib/verify_bundle.py" 0755
    put "$kit/out-of-service.sh" "$prefix/lib/out-of-service.sh" 0755
    put "$kit/README.md" "$prefix/README.md" 0644
}

step_config() {
    if [ -n "$new_conf" ]; then
        put "$new_conf" "$conf" 0640 "$user"
    fi
    [ -f "$conf" ] || die "no $conf: pass --config FILE (see $kit/config/turbokiosk.conf.example)"
    if [ -n "$new_key" ]; then
        put "$new_key" "$trusted_key" 0644
    fi
    host_address=$(conf_get HOST_ADDRESS '^([0-9]{1,3}\.){3}[0-9]{1,3}$')
    host_port=$(conf_get HOST_PORT '^[0-9]{1,5}$')
    host_interface=$(conf_get HOST_INTERFACE '^[a-z][a-z0-9]{0,14}$')
    conf_get DISPLAY_SIZE '^[0-9]{3,4}x[0-9]{3,4}$' >/dev/null
    conf_get LANGUAGE '^[a-z]{2}$' >/dev/null
    validator_vendor=$(conf_get VALIDATOR_VENDOR '^[0-9a-f]{4}$')
    validator_product=$(conf_get VALIDATOR_PRODUCT '^[0-9a-f]{4}$')
    validator_serial=$(conf_get VALIDATOR_SERIAL '^[A-Za-z0-9._-]+$')
    printer_vendor=$(conf_get PRINTER_VENDOR '^[0-9a-f]{4}$')
    printer_product=$(conf_get PRINTER_PRODUCT '^[0-9a-f]{4}$')
    printer_serial=$(conf_get PRINTER_SERIAL '^[A-Za-z0-9._-]+$')
}

step_system_files() {
    local unit
    for unit in turbokiosk.service turbokiosk-signer.service turbokiosk-out-of-service@.service \
        turbokiosk-bridge@.service var-log-journal.mount; do
        put "$kit/systemd/$unit" "/etc/systemd/system/$unit" 0644
    done
    install -d -m 0750 -o root -g "$bridge_user" "$bridge_etc"
    put "$kit/tmpfiles/turbokiosk-signer.conf" /etc/tmpfiles.d/turbokiosk-signer.conf 0644
    # The kiosk may reach the host's address and nothing else (on top of the firewall).
    render "$kit/config/host-address.conf.in" /etc/systemd/system/turbokiosk.service.d/host-address.conf 0644
    put "$kit/systemd/journald.conf.d/turbokiosk.conf" /etc/systemd/journald.conf.d/turbokiosk.conf 0644
    put "$kit/systemd/system.conf.d/turbokiosk-watchdog.conf" \
        /etc/systemd/system.conf.d/turbokiosk-watchdog.conf 0644
    put "$kit/systemd/logind.conf.d/turbokiosk.conf" /etc/systemd/logind.conf.d/turbokiosk.conf 0644
    render "$kit/config/timesyncd.conf.in" /etc/systemd/timesyncd.conf.d/turbokiosk.conf 0644
    render "$kit/config/nftables.conf.in" /etc/nftables.conf 0755
    render "$kit/udev/70-turbokiosk-devices.rules.in" /etc/udev/rules.d/70-turbokiosk-devices.rules 0644
}

# Raspberry Pi firmware settings, when this is a Pi (the files exist).
step_boot_config() {
    local config=/boot/firmware/config.txt cmdline=/boot/firmware/cmdline.txt line
    [ -f "$config" ] || config=/boot/config.txt
    [ -f "$cmdline" ] || cmdline=/boot/cmdline.txt
    if [ -f "$config" ]; then
        for line in dtparam=watchdog=on dtoverlay=disable-wifi dtoverlay=disable-bt; do
            grep -qx "$line" "$config" || { echo "$line" >>"$config"; log "$config: $line"; }
        done
    fi
    if [ -f "$cmdline" ] && ! grep -q 'console=tty3' "$cmdline"; then
        # Kernel messages off the kiosk display; no blanking, no logo, no cursor.
        sed -i -e 's/console=tty1/console=tty3/' \
            -e 's/$/ consoleblank=0 logo.nologo vt.global_cursor_default=0 quiet/' "$cmdline"
        log "$cmdline: console moved off the display"
    fi
}

unit_exists() { [ -n "$(systemctl list-unit-files --no-legend "$1" 2>/dev/null)" ]; }

step_services() {
    local unit
    systemctl mask getty@tty1.service autovt@tty1.service >/dev/null 2>&1
    for unit in bluetooth.service hciuart.service avahi-daemon.service avahi-daemon.socket \
        triggerhappy.service triggerhappy.socket ModemManager.service cups.service \
        cups-browsed.service wpa_supplicant.service rpi-connect.service ssh.service \
        ssh.socket apt-daily.timer apt-daily-upgrade.timer man-db.timer e2scrub_all.timer; do
        if unit_exists "$unit" && [ "$(systemctl is-enabled "$unit" 2>/dev/null)" != masked ]; then
            systemctl mask "$unit" >/dev/null 2>&1
            log "masked $unit"
        fi
    done
    systemctl set-default multi-user.target >/dev/null 2>&1
    systemctl enable turbokiosk.service turbokiosk-signer.service var-log-journal.mount \
        nftables.service systemd-timesyncd.service >/dev/null 2>&1
}

# Power-up self-test of the release in VENV: RNG self-tests, software manifest, store audit.
# The audit verifies the store's signatures with the terminal's signer: the running service,
# or (no systemd: a chroot or an image) the new release's signer started for the audit.
self_test() {
    local venv=$1 signer_pid="" status=0 i
    runuser -u "$user" -- "$venv/bin/turbokiosk" rng selftest >/dev/null &&
        runuser -u "$user" -- "$venv/bin/turbokiosk" software --manifest >/dev/null || return 1
    [ -f "$data/terminal/terminal.sqlite3" ] || return 0
    if systemd_running; then
        systemctl start turbokiosk-signer.service || return 1
    else
        systemd-tmpfiles --create /etc/tmpfiles.d/turbokiosk-signer.conf
        runuser -u "$signer_user" -- "$venv/bin/turbokiosk" signer serve --socket "$signer_socket" \
            --state-dir "$signer_state" >/dev/null &
        signer_pid=$!
        for i in $(seq 100); do
            [ -S "$signer_socket" ] && break
            [ "$i" -lt 100 ] && sleep 0.1
        done
    fi
    runuser -u "$user" -- "$venv/bin/turbokiosk" audit --data-dir "$data/terminal" \
        --signer "$signer_socket" || status=1
    if [ -n "$signer_pid" ]; then
        kill "$signer_pid" 2>/dev/null || true
        wait "$signer_pid" || true
    fi
    return "$status"
}

# Point $prefix/current at RELEASE (atomically); the old target becomes $prefix/previous.
switch_to() {
    local release=$1 old=""
    [ -L "$prefix/current" ] && old=$(readlink "$prefix/current")
    ln -sfn "$release" "$prefix/current.new"
    mv -T "$prefix/current.new" "$prefix/current"
    if [ -n "$old" ] && [ "$old" != "$release" ]; then
        ln -sfn "$old" "$prefix/previous.new"
        mv -T "$prefix/previous.new" "$prefix/previous"
    fi
}

step_release() {
    if [ -z "$bundle" ]; then
        [ -e "$prefix/current/bin/turbokiosk" ] || die "no release installed: pass --bundle FILE"
        return 0
    fi
    [ -f "$trusted_key" ] || die "no trusted release key $trusted_key: pass --trust-key FILE"
    local version release
    staging=$(mktemp -d "$prefix/releases/.staging.XXXXXX")
    trap 'rm -rf "$staging"' EXIT
    version=$(/usr/bin/python3 "$prefix/lib/verify_bundle.py" "$trusted_key" "$bundle" \
        "$staging/bundle") || die "bundle $bundle REJECTED (signature or contents); nothing changed"
    release="$prefix/releases/$version"
    log "bundle $bundle verified: version $version"
    if [ "$(readlink "$prefix/current" 2>/dev/null || true)" = "$release" ] &&
        [ -x "$release/bin/turbokiosk" ]; then
        log "version $version is already current"
        return 0
    fi
    # A venv's paths are absolute: it is built under its final name (not current until tested).
    rm -rf "$release"
    python3 -m venv "$release"
    "$release/bin/pip" install --quiet --disable-pip-version-check --no-index \
        --find-links "$staging/bundle/wheels" "turbokiosk==$version"
    cp "$staging/bundle/manifest.json" "$release/bundle-manifest.json"
    # The self-test opens the data directory: the running kiosk lets go of it first.
    if systemd_running; then systemctl stop turbokiosk.service; fi
    if ! self_test "$release"; then
        rm -rf "$release"
        if systemd_running; then systemctl start turbokiosk.service || true; fi
        die "version $version FAILED its power-up self-test; kept $(readlink "$prefix/current" 2>/dev/null || echo 'no version')"
    fi
    switch_to "$release"
    log "version $version is current"
    installed_new=$release
    prune_releases
}

# Remove the releases that are neither current nor previous.
prune_releases() {
    local dir keep_current keep_previous
    keep_current=$(readlink "$prefix/current" 2>/dev/null || true)
    keep_previous=$(readlink "$prefix/previous" 2>/dev/null || true)
    for dir in "$prefix"/releases/*; do
        [ -d "$dir" ] || continue
        if [ "$dir" != "$keep_current" ] && [ "$dir" != "$keep_previous" ]; then
            rm -rf "$dir"
            log "removed old release $dir"
        fi
    done
}

# A terminal holds the CA's certificate, never its key, and its own certificate is not the CA's:
# refuse a --host-ca or --host-cert file with a private key in it, and a CA certificate (or
# the CA's own) given as the terminal's (with the CA's key as --host-key it would pass every
# other check, and the CA's key would end up on the terminal).
refuse_ca_secrets() {
    local ca=$1 cert=$2 file
    for file in "$ca" "$cert"; do
        if grep -q 'PRIVATE KEY' "$file"; then
            die "host credentials REJECTED ($file holds a private key; a CA key never goes onto a terminal); $host_dir unchanged"
        fi
    done
    if ! "$prefix/current/bin/python" - "$cert" <<'EOF_PY'
import sys

from cryptography import x509

try:
    cert = x509.load_pem_x509_certificate(open(sys.argv[1], "rb").read())
    is_ca = cert.extensions.get_extension_for_class(x509.BasicConstraints).value.ca
except (ValueError, OSError, x509.ExtensionNotFound):
    is_ca = False  # check-credentials names what else is wrong
sys.exit(1 if is_ca else 0)
EOF_PY
    then
        die "host credentials REJECTED ($cert is a CA certificate, not a terminal's); $host_dir unchanged"
    fi
}

# The terminal's identity on the host link (docs/host.md): the CA, this terminal's certificate
# and key.  New ones are checked by the installed release (issued by the CA, the key is the
# certificate's, valid now) before they replace anything; then the kiosk's user must be able
# to read and use what is installed.
step_host_credentials() {
    local turbokiosk="$prefix/current/bin/turbokiosk" summary
    if [ -n "$new_host_ca$new_host_cert$new_host_key" ]; then
        if [ -z "$new_host_ca" ] || [ -z "$new_host_cert" ] || [ -z "$new_host_key" ]; then
            die "--host-ca, --host-cert and --host-key go together"
        fi
        refuse_ca_secrets "$new_host_ca" "$new_host_cert"
        summary=$("$turbokiosk" host check-credentials --ca "$new_host_ca" \
            --cert "$new_host_cert" --key "$new_host_key" 2>&1) ||
            die "host credentials REJECTED (${summary#host: }); $host_dir unchanged"
        install -d -m 0750 -o root -g "$user" "$host_dir"
        put "$new_host_ca" "$host_ca" 0644
        put "$new_host_cert" "$host_cert" 0644
        put "$new_host_key" "$host_key" 0640 "$user"
        log "host credentials: $summary"
    fi
    if [ ! -f "$host_ca" ] || [ ! -f "$host_cert" ] || [ ! -f "$host_key" ]; then
        die "no host credentials in $host_dir: pass --host-ca, --host-cert and --host-key (deploy/README.md)"
    fi
    summary=$(runuser -u "$user" -- "$turbokiosk" host check-credentials --ca "$host_ca" \
        --cert "$host_cert" --key "$host_key" 2>&1) ||
        die "the installed host credentials do not work for $user: ${summary#host: }"
}

# The critical memory's key, made once by the signer itself as its own user (the key file 0600 in
# its 0700 directory).  Never replaced: a new key on a terminal that holds money means a RAM
# clear, which only the operator's audited procedure does (docs/terminal.md).
step_signer() {
    local turbokiosk="$prefix/current/bin/turbokiosk" public
    if [ -n "$(ls -A "$signer_state")" ]; then
        log "signer key kept ($signer_state is not empty)"
        return 0
    fi
    public=$(runuser -u "$signer_user" -- "$turbokiosk" signer init --state-dir "$signer_state") ||
        die "turbokiosk signer init failed: no key in $signer_state"
    printf '%s\n' "$public" >"$signer_public_key.new"
    chmod 0644 "$signer_public_key.new"
    mv -f "$signer_public_key.new" "$signer_public_key"
    log "signer key created; its public key is in $signer_public_key"
}

# The devices' pairing keys (issue 11, item 5; docs/devices.md): each device not yet paired is
# paired by the release itself (`turbokiosk devices pair`): the terminal's copy in
# /etc/turbokiosk/devices/<device>.key (root:turbokiosk 0640, where the kiosk unit's `turbokiosk
# run` reads it by default), the device's copy in --device-copies DIR, for loading into the
# device.  An existing pairing is never replaced here (a replaced device: `turbokiosk devices
# pair DEVICE --replace`).  A release without device pairing needs no keys.
step_device_keys() {
    local turbokiosk="$prefix/current/bin/turbokiosk" device paired
    if ! "$turbokiosk" devices --help >/dev/null 2>&1; then
        log "this release does not pair devices: no device keys"
        return 0
    fi
    install -d -m 0750 -o root -g "$user" "$device_keys"
    for device in bill-validator printer; do
        [ ! -f "$device_keys/$device.key" ] || continue
        [ -n "$device_copies" ] ||
            die "$device is not paired: pass --device-copies DIR for the devices' copies (deploy/README.md)"
        install -d -m 0700 "$device_copies"
        paired=$("$turbokiosk" devices pair "$device" --key-dir "$device_keys" \
            --device-copy "$device_copies/$device.key" 2>&1) ||
            die "pairing $device failed: $paired"
        log "$paired"
    done
}

# After an update on a running terminal: the kiosk must come up, else the previous version returns.
step_restart() {
    if ! systemd_running; then
        log "no running systemd (chroot or image): units enabled, nothing started"
        return 0
    fi
    systemctl daemon-reload
    udevadm control --reload && udevadm trigger --subsystem-match=tty
    systemd-tmpfiles --create /etc/tmpfiles.d/turbokiosk-signer.conf
    systemctl restart systemd-journald systemd-timesyncd nftables.service
    mountpoint -q /var/log/journal || systemctl start var-log-journal.mount
    # Restarting the signer restarts the kiosk too (it Requires= the signer).
    systemctl restart turbokiosk-signer.service turbokiosk.service || true
    if [ -n "${installed_new:-}" ] && ! systemctl is-active --quiet turbokiosk.service; then
        if [ -L "$prefix/previous" ]; then
            switch_to "$(readlink "$prefix/previous")"
            rm -rf "$installed_new"
            rm -f "$prefix/previous"  # it named the failed version
            systemctl restart turbokiosk.service || true
            die "the kiosk did not start on the new version: rolled back to $(readlink "$prefix/current")"
        fi
        die "the kiosk did not start (journalctl -u turbokiosk)"
    fi
}

step_read_only_root() {
    [ "$read_only_root" = yes ] || return 0
    if ! command -v raspi-config >/dev/null; then
        log "no raspi-config: read-only root not enabled (see deploy/README.md)"
        return 0
    fi
    if ! grep -q overlayroot /proc/cmdline 2>/dev/null; then
        raspi-config nonint do_overlayfs 0
        log "read-only root (overlay) enabled from the next boot; the data partition stays writable"
    fi
}

installed_new=""
staging=""
step_packages
step_user
step_data_partition
step_directories
step_config
step_system_files
step_boot_config
step_services
step_release
step_host_credentials
step_signer
step_device_keys
step_restart
step_read_only_root
log "done"
