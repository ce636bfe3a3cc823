#!/usr/bin/env bash
# Install hanabi-companion as an appliance on Raspberry Pi OS or Debian,
# trixie (13) or bookworm (12): a system user, a virtual environment in
# /opt, a default configuration in /etc, and a systemd service that owns the
# screen from boot on.
#
#   sudo systemd/install.sh              install, or update after `git pull`
#   sudo systemd/install.sh --uninstall  remove everything but the games
#
# Run it from the repository checkout it lives in; that checkout is what gets
# installed. Running it twice gives the same result as running it once.
set -euo pipefail
# Whatever root's umask, the service user must be able to read the venv and
# the configuration.
umask 022
# pip's warning about running as root does not apply to a dedicated venv.
export PIP_ROOT_USER_ACTION=ignore

readonly APP=hanabi-companion
readonly SERVICE=hanabi-companion.service
readonly USER_NAME=hanabi
readonly WANTED_GROUPS=(video render input gpio dialout)
# python3-venv: `python3 -m venv` on Debian. The rest: SDL (bundled in the
# pygame-ce wheel) loads libdrm, libgbm and EGL/GLES at run time for its
# KMSDRM driver, and Mesa's vc4/v3d drivers come with libgl1-mesa-dri;
# Raspberry Pi OS Lite lacks some of them. These exist in every release.
# python3-evdev: USB keyboard-type card readers (a compiled module: from
# Debian, pip has nothing to build).
readonly APT_PACKAGES=(python3-venv libdrm2 libgbm1 libegl1 libegl-mesa0 libgles2 libgl1-mesa-dri
    python3-evdev)
# GPIO through gpiozero needs lgpio. Raspberry Pi OS's archive has it as
# python3-lgpio (used from the venv thanks to --system-site-packages); plain
# Debian's has not, and then lgpio comes from PyPI into the venv where a
# wheel exists (Python 3.11 on arm64 and armhf, as of lgpio 0.2.2.0), else
# the companion runs without buttons.
readonly GPIO_PACKAGE=python3-lgpio
# What a source build of pygame-ce (and of msgspec, a small C extension: the
# compiler and Python's headers) needs, for systems PyPI has no wheel for
# (32-bit Raspberry Pi OS, when piwheels has no build for its Python either).
readonly SOURCE_BUILD_PACKAGES=(build-essential python3-dev pkg-config libsdl2-dev
    libsdl2-image-dev libsdl2-mixer-dev libsdl2-ttf-dev libfreetype-dev libportmidi-dev)

SOURCE_DIR=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")/.." && pwd)
readonly SOURCE_DIR

ROOT=""
USE_APT=1
USE_PIP=1
GPIO_OFF=0
WHEELS=""
ACTION=install
PYTHON=${HANABI_PYTHON:-python3}
# Extra pip arguments, e.g. HANABI_PIP_ARGS="--index-url https://…" (word-split).
PIP_ARGS=${HANABI_PIP_ARGS:-}

usage() {
    cat <<EOF
Usage: sudo $0 [OPTIONS]

Installs hanabi-companion from this checkout ($SOURCE_DIR) as a systemd
service that takes over the screen (tty1) at boot:

  user        $USER_NAME (system user, no login), in the groups that exist of:
              ${WANTED_GROUPS[*]}
  program     /opt/$APP/venv (a venv with --system-site-packages)
  config      /etc/$APP/config.toml (written only if missing)
  service     /etc/systemd/system/$SERVICE (enabled; getty@tty1 disabled)
  games       /var/lib/$APP/ (created by systemd; never removed)

Options:
  --root DIR   install below DIR instead of /, for testing: files are laid
               down under DIR, and commands that would change the running
               system (apt-get, useradd, systemctl, ...) are only printed as
               "would run: ...". The venv's scripts then point into DIR.
  --no-apt     do not install the Debian packages this needs
               (${APT_PACKAGES[*]}, and $GPIO_PACKAGE where the archive has it)
  --no-pip     create the venv but do not pip-install the package into it
               (for tests; the service cannot start without it)
  --wheels DIR install offline: pip takes every package from the wheel
               files in DIR (pip download them on a machine with a network)
  --uninstall  stop and remove the service, the venv, the configuration
               and the user; keep the games in /var/lib/$APP
  -h, --help   show this help

Environment: HANABI_PYTHON (default: python3) creates the venv;
HANABI_PIP_ARGS adds arguments to "pip install".

Card readers are named in the config by their stable names: a serial one
(RDM6300 on a USB adapter) by /dev/serial/by-id/usb-...-port0, a USB
keyboard-type one by /dev/input/by-id/usb-...-event-kbd. Run
"ls /dev/serial/by-id/ /dev/input/by-id/" before and after plugging a
reader in: the new name is the reader's. Check it with
"hanabi-companion scanner --device /dev/input/by-id/..." (or --port).
EOF
}

die() {
    echo "install.sh: error: $*" >&2
    exit 1
}

log() {
    echo "install.sh: $*"
}

# Run a command that changes the system outside the install root; with
# --root only say what would be run.
system() {
    if [[ -n "$ROOT" ]]; then
        # Quote only the arguments that need it, so the line reads naturally.
        local arg shown=()
        for arg in "$@"; do
            if [[ "$arg" =~ ^[A-Za-z0-9_./,=:@%+-]+$ ]]; then
                shown+=("$arg")
            else
                shown+=("$(printf '%q' "$arg")")
            fi
        done
        echo "would run: ${shown[*]}"
    else
        "$@"
    fi
}

parse_args() {
    while (($#)); do
        case "$1" in
            --root)
                (($# >= 2)) || die "--root needs a directory"
                ROOT=$2
                shift 2
                ;;
            --root=*)
                ROOT=${1#--root=}
                shift
                ;;
            --no-apt)
                USE_APT=0
                shift
                ;;
            --no-pip)
                USE_PIP=0
                shift
                ;;
            --wheels)
                (($# >= 2)) || die "--wheels needs a directory"
                WHEELS=$2
                shift 2
                ;;
            --wheels=*)
                WHEELS=${1#--wheels=}
                shift
                ;;
            --uninstall)
                ACTION=uninstall
                shift
                ;;
            -h | --help)
                usage
                exit 0
                ;;
            *)
                die "unknown option: $1 (see --help)"
                ;;
        esac
    done
    if [[ -n "$ROOT" ]]; then
        [[ -d "$ROOT" ]] || die "--root $ROOT: no such directory"
        ROOT=$(cd -- "$ROOT" && pwd)
        [[ "$ROOT" != / ]] || ROOT=""
    fi
    if [[ -n "$WHEELS" ]]; then
        [[ -d "$WHEELS" ]] || die "--wheels $WHEELS: no such directory"
        WHEELS=$(cd -- "$WHEELS" && pwd)
    fi
}

set_paths() {
    UNIT_DIR=$ROOT/etc/systemd/system
    UNIT_FILE=$UNIT_DIR/$SERVICE
    DROPIN_DIR=$UNIT_DIR/$SERVICE.d
    GROUPS_DROPIN=$DROPIN_DIR/groups.conf
    OPT_DIR=$ROOT/opt/$APP
    VENV=$OPT_DIR/venv
    CONFIG_DIR=$ROOT/etc/$APP
    CONFIG_FILE=$CONFIG_DIR/config.toml
    CACHE_DIR=$ROOT/var/cache/$APP
    AVAHI_DIR=$ROOT/etc/avahi/services
    AVAHI_FILE=$AVAHI_DIR/$APP.service
    STATE_DIR=/var/lib/$APP
}

require_root() {
    if [[ -z "$ROOT" && $EUID -ne 0 ]]; then
        die "run as root (sudo $0 $*), or use --root DIR to try it out"
    fi
}

# "Debian GNU/Linux 13 (trixie)", "Raspbian GNU/Linux 12 (bookworm)", ...
release_name() {
    local PRETTY_NAME=""
    # shellcheck disable=SC1091
    [[ -r /etc/os-release ]] && . /etc/os-release
    echo "${PRETTY_NAME:-this system}"
}

is_installed() {
    dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"
}

# Whether the archive this system uses offers the package.
archive_has() {
    [[ -n "$(apt-cache policy "$1" 2>/dev/null | awk '/Candidate:/ && $2 != "(none)" { print $2 }')" ]]
}

install_packages() {
    GPIO_FROM=pypi
    if ! command -v dpkg-query >/dev/null; then
        log "no dpkg-query: not a Debian system, skipping apt (use --no-apt to silence this)"
        return 0
    fi
    if is_installed "$GPIO_PACKAGE"; then
        GPIO_FROM=debian
    fi
    ((USE_APT)) || return 0
    local missing=() package
    for package in "${APT_PACKAGES[@]}"; do
        is_installed "$package" || missing+=("$package")
    done
    if ((${#missing[@]})) || { [[ "$GPIO_FROM" != debian ]] && ! archive_has "$GPIO_PACKAGE"; }; then
        # The package lists may be stale (a freshly flashed card): refresh them
        # before deciding; offline, decide from the lists already there.
        system env DEBIAN_FRONTEND=noninteractive apt-get update -qq ||
            log "warning: apt-get update failed (offline?): using the package lists already here"
    fi
    if [[ "$GPIO_FROM" != debian ]]; then
        if archive_has "$GPIO_PACKAGE"; then
            log "$(release_name): GPIO through $GPIO_PACKAGE from its archive"
            missing+=("$GPIO_PACKAGE")
            GPIO_FROM=debian
        else
            log "$(release_name): its archive has no $GPIO_PACKAGE; GPIO through lgpio from PyPI if it has a wheel for this system"
        fi
    fi
    ((${#missing[@]})) || return 0
    log "installing ${missing[*]}"
    system env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" ||
        die "apt-get could not install ${missing[*]} (see above); fix that, or install them yourself and use --no-apt"
}

# The wanted groups that exist on this system, space-separated.
existing_groups() {
    local group found=()
    for group in "${WANTED_GROUPS[@]}"; do
        if getent group "$group" >/dev/null; then
            found+=("$group")
        fi
    done
    echo "${found[*]}"
}

create_user() {
    local groups
    groups=$(existing_groups)
    if ! getent passwd "$USER_NAME" >/dev/null; then
        log "creating system user $USER_NAME"
        system useradd --system --user-group --home-dir "$STATE_DIR" --no-create-home \
            --shell /usr/sbin/nologin --comment "Hanabi companion" "$USER_NAME"
    fi
    if [[ -n "$groups" ]]; then
        # -a appends: memberships the admin added by hand are kept.
        system usermod --append --groups "${groups// /,}" "$USER_NAME"
    fi
}

create_venv() {
    local version_ok
    version_ok=$("$PYTHON" -c 'import sys; print(int(sys.version_info >= (3, 11)))') ||
        die "cannot run $PYTHON (set HANABI_PYTHON to a Python 3.11+ interpreter)"
    [[ "$version_ok" == 1 ]] || die "$PYTHON is older than Python 3.11"
    if [[ -f "$VENV/pyvenv.cfg" ]] && grep -qx 'include-system-site-packages = true' "$VENV/pyvenv.cfg"; then
        log "reusing the venv in $VENV"
    else
        log "creating the venv in $VENV"
        mkdir -p "$OPT_DIR"
        local venv_args=(--clear --system-site-packages)
        ((USE_PIP)) || venv_args+=(--without-pip)
        "$PYTHON" -m venv "${venv_args[@]}" "$VENV" ||
            die "could not create a venv with $PYTHON (on Debian: apt-get install python3-venv)"
    fi
    ((USE_PIP)) || return 0
    log "installing $SOURCE_DIR into the venv"
    PIP=("$VENV/bin/python" -m pip --disable-pip-version-check)
    PIP_INSTALL=("${PIP[@]}" install --quiet)
    if [[ -n "$WHEELS" ]]; then
        PIP_INSTALL+=(--no-index --find-links "$WHEELS")
    fi
    local pip_args=()
    [[ -z "$PIP_ARGS" ]] || read -r -a pip_args <<<"$PIP_ARGS"
    PIP_INSTALL+=("${pip_args[@]}")
    # Build from a clean copy: setuptools would otherwise leave build/ and
    # *.egg-info in the checkout, and a stale build/lib can put deleted
    # modules back into the package.
    STAGE=$(mktemp -d)
    tar -C "$SOURCE_DIR" -cf - --exclude=./.git --exclude=./.venv --exclude=./build \
        --exclude='*.egg-info' --exclude=__pycache__ --exclude=.pytest_cache \
        --exclude=.ruff_cache --exclude=.hypothesis . | tar -C "$STAGE" -xf -
    # --force-reinstall --no-deps: the checkout is reinstalled even when its
    # version number did not change (an update is a git pull); the second
    # call only fetches dependencies that are missing or too old. A system
    # gpiozero older than the 2.0 we need (Debian's 1.6) does not satisfy the
    # requirement, so pip puts 2.x into the venv, which comes first on
    # sys.path; check_venv makes sure of it.
    "${PIP_INSTALL[@]}" --force-reinstall --no-deps "$STAGE"
    if ! "${PIP_INSTALL[@]}" --only-binary=pygame-ce,msgspec "$STAGE"; then
        compiled_dependencies_need_a_source_build
        "${PIP_INSTALL[@]}" "$STAGE"
    fi
    install_gpio_library
    check_venv
}

# pygame-ce and msgspec have wheels on PyPI for 64-bit systems; 32-bit
# Raspberry Pi OS gets them from piwheels (its /etc/pip.conf lists it) when
# piwheels built them for its Python, else pip builds them from source, which
# needs a compiler (and SDL's headers for pygame-ce). Called when the install
# with wheels only for these two failed: if one of them was the reason, get
# what a source build needs (or say what it needs), else stop.
compiled_dependencies_need_a_source_build() {
    local machine python_version
    if "${PIP_INSTALL[@]}" --dry-run --only-binary=pygame-ce,msgspec "pygame-ce>=2.5" "msgspec>=0.18" >/dev/null 2>&1; then
        die "pip could not install the companion's dependencies (see above)"
    fi
    machine=$(uname -m)
    python_version=$("$VENV/bin/python" -c 'import sys; print("%d.%d" % sys.version_info[:2])')
    if ((USE_APT)) && command -v apt-get >/dev/null; then
        log "pygame-ce or msgspec has no wheel for Python $python_version on $machine: building from source (pygame-ce is a long build), with ${SOURCE_BUILD_PACKAGES[*]}"
        system env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${SOURCE_BUILD_PACKAGES[@]}" ||
            die "apt-get could not install what a source build of pygame-ce or msgspec needs (see above)"
    else
        die "pygame-ce or msgspec has no wheel for Python $python_version on $machine, and --no-apt forbids installing what a source build needs: apt-get install ${SOURCE_BUILD_PACKAGES[*]}, then run this again"
    fi
}

# lgpio for GPIO buttons: Debian's python3-lgpio, else a wheel from PyPI, else none.
install_gpio_library() {
    if [[ "${GPIO_FROM:-pypi}" == debian ]]; then
        return 0
    fi
    local machine python_version
    if "${PIP_INSTALL[@]}" --only-binary=:all: "lgpio>=0.2" >/dev/null 2>&1; then
        log "GPIO: lgpio $("$VENV/bin/python" -c 'import importlib.metadata as m; print(m.version("lgpio"))') from PyPI in the venv"
        return 0
    fi
    machine=$(uname -m)
    python_version=$("$VENV/bin/python" -c 'import sys; print("%d.%d" % sys.version_info[:2])')
    log "GPIO: off. No $GPIO_PACKAGE here and no lgpio wheel on PyPI for Python $python_version on $machine; the companion runs without buttons (screen, keyboard and scanners work)"
    GPIO_OFF=1
}

# The venv must run our gpiozero (2.x), not an older one from the system.
check_venv() {
    local code='import gpiozero, importlib.metadata as m, sys
version = m.version("gpiozero")
print(version, gpiozero.__file__)
sys.exit(int(version.split(".")[0]) < 2)'
    local found
    found=$("$VENV/bin/python" -c "$code") ||
        die "the venv imports gpiozero $found, older than 2.0: remove the system's python3-gpiozero or report this"
    log "gpiozero ${found%% *} from ${found#* }"
}

# Print the default configuration: from the installed package if possible,
# else from the checkout (with --no-pip; works only if its imports are
# importable by $PYTHON), else a minimal file that leaves every setting at
# its default.
default_config() {
    local code='import sys; from companion.shell.config import DEFAULT_CONFIG_TOML as t; sys.stdout.write(t)'
    if ((USE_PIP)) && "$VENV/bin/python" -c "$code" 2>/dev/null; then
        return 0
    fi
    if PYTHONPATH=$SOURCE_DIR "$PYTHON" -c "$code" 2>/dev/null; then
        return 0
    fi
    log "warning: could not import companion.shell.config.DEFAULT_CONFIG_TOML, writing a minimal config" >&2
    cat <<'EOF'
# hanabi-companion configuration. Every setting is at its default; see the
# README for the settings and their values.
EOF
}

write_config() {
    mkdir -p "$CONFIG_DIR"
    chmod 0755 "$CONFIG_DIR"
    if [[ -e "$CONFIG_FILE" ]]; then
        log "keeping the existing $CONFIG_FILE"
        return 0
    fi
    local text
    text=$(default_config)
    if ((GPIO_OFF)); then
        # No pin library: a GPIO chip here (a board's, or a VM's) must not make
        # the companion ask for a package this system cannot install.
        text=$(printf '%s\n' "$text" | sed 's/^pin_factory = "auto"$/pin_factory = "none"  # install.sh: no lgpio for this system/')
        log "GPIO: off in $CONFIG_FILE ([gpio] pin_factory = \"none\")"
    fi
    # Written in one go, so an interrupted run leaves no half a file behind.
    printf '%s\n' "$text" >"$CONFIG_FILE.new"
    chmod 0644 "$CONFIG_FILE.new"
    mv -f "$CONFIG_FILE.new" "$CONFIG_FILE"
    log "wrote the default configuration to $CONFIG_FILE"
}

install_unit() {
    mkdir -p "$UNIT_DIR"
    install -m 0644 "$SOURCE_DIR/systemd/$SERVICE" "$UNIT_FILE"
    # The unit asks for all of video, render, input, gpio and dialout; a
    # group missing on this system would make every start fail (216/GROUP),
    # so a drop-in lists only the ones that exist.
    local groups
    groups=$(existing_groups)
    if [[ "$groups" == "${WANTED_GROUPS[*]}" ]]; then
        rm -f "$GROUPS_DROPIN"
        rmdir "$DROPIN_DIR" 2>/dev/null || true
    else
        mkdir -p "$DROPIN_DIR"
        cat >"$GROUPS_DROPIN" <<EOF
# Written by install.sh: only the groups that exist on this system.
[Service]
SupplementaryGroups=
SupplementaryGroups=$groups
EOF
        chmod 0644 "$GROUPS_DROPIN"
    fi
    log "installed $UNIT_FILE"
    system systemctl daemon-reload
    # tty1 belongs to the companion now; a login prompt there would race it.
    system systemctl disable getty@tty1.service
    system systemctl enable "$SERVICE"
    if [[ -z "$ROOT" ]] && systemctl --quiet is-active "$SERVICE"; then
        log "restarting the running service with the new version"
        systemctl restart "$SERVICE"
    else
        # Not started from here: if this runs on tty1 itself, starting the
        # service would end this very login session.
        log "done. Reboot, or start it now (it takes over tty1): sudo systemctl start $SERVICE"
    fi
}

# "[web] port = N" of the configuration when [web] enabled = true, else nothing.
web_port() {
    awk '
        /^[[:space:]]*\[/ { section = $0; gsub(/[[:space:]]/, "", section); next }
        section == "[web]" && /^[[:space:]]*enabled[[:space:]]*=[[:space:]]*true/ { on = 1 }
        section == "[web]" && /^[[:space:]]*port[[:space:]]*=/ { port = $0; gsub(/[^0-9]/, "", port) }
        END { if (on) print (port == "" ? 8080 : port) }
    ' "$CONFIG_FILE"
}

# The page for phones, announced over mDNS by the system's own avahi (when it
# is installed): phones and laptops find "Hanabi companion" as a web service.
announce_page() {
    local port
    port=$(web_port)
    if [[ -z "$port" ]]; then
        rm -f "$AVAHI_FILE"
        log "mDNS: the page for phones is off in $CONFIG_FILE, nothing announced"
        return 0
    fi
    if [[ ! -d "$AVAHI_DIR" ]]; then
        log "mDNS: no avahi here ($AVAHI_DIR), the page is not announced (its URL is on the Phones page)"
        return 0
    fi
    cat >"$AVAHI_FILE.new" <<AVAHI
<?xml version="1.0" standalone='no'?>
<!DOCTYPE service-group SYSTEM "avahi-service.dtd">
<!-- Written by hanabi-companion's install.sh: the page for phones. -->
<service-group>
  <name replace-wildcards="yes">Hanabi companion on %h</name>
  <service>
    <type>_http._tcp</type>
    <port>$port</port>
    <txt-record>path=/</txt-record>
  </service>
</service-group>
AVAHI
    chmod 0644 "$AVAHI_FILE.new"
    mv -f "$AVAHI_FILE.new" "$AVAHI_FILE"
    log "mDNS: the page for phones announced as _http._tcp on port $port ($AVAHI_FILE)"
}

do_install() {
    install_packages
    create_user
    create_venv
    write_config
    announce_page
    install_unit
}

do_uninstall() {
    if [[ -z "$ROOT" ]]; then
        if systemctl --quiet is-enabled "$SERVICE" 2>/dev/null ||
            systemctl --quiet is-active "$SERVICE" 2>/dev/null; then
            systemctl disable --now "$SERVICE"
        fi
    else
        echo "would run: systemctl disable --now $SERVICE"
    fi
    rm -f "$UNIT_FILE"
    rm -rf "$DROPIN_DIR"
    system systemctl daemon-reload
    # Give tty1 its login prompt back.
    system systemctl enable getty@tty1.service
    rm -rf "$OPT_DIR" "$CONFIG_DIR" "$CACHE_DIR"
    rm -f "$AVAHI_FILE"
    if getent passwd "$USER_NAME" >/dev/null; then
        # Without --remove: the home directory is the state directory.
        system userdel "$USER_NAME"
    fi
    log "removed. The games are kept in $ROOT$STATE_DIR (delete it by hand if unwanted)."
}

STAGE=""
cleanup() {
    [[ -z "$STAGE" ]] || rm -rf -- "$STAGE"
}

main() {
    trap cleanup EXIT
    parse_args "$@"
    set_paths
    require_root "$@"
    if [[ "$ACTION" == uninstall ]]; then
        do_uninstall
    else
        do_install
    fi
}

main "$@"
