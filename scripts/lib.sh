# shellcheck shell=bash
# Shared helpers of the scripts in this directory (sourced, never run).
# Everything here is idempotent: running a script twice changes nothing more.

# ROOT is the repository's top directory.
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

say() { printf '==> %s\n' "$*" >&2; }
die() { printf 'ERROR: %s\n' "$*" >&2; exit 1; }

# as_root runs a command as root: directly when we are root, with sudo otherwise.
as_root() {
	if [ "$(id -u)" -eq 0 ]; then
		"$@"
	elif command -v sudo >/dev/null 2>&1; then
		sudo "$@"
	else
		die "need root to run: $* (run as root or install sudo)"
	fi
}

# pkg_installed NAME: true when the Debian package NAME is installed.
pkg_installed() {
	dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'ok installed'
}

# apt_updated is set once apt-get update has run in this process.
apt_updated=""

# ensure_pkgs PKG...: install the Debian packages that are missing. apt-get
# update runs only when something is missing, at most once per script.
ensure_pkgs() {
	local missing=() p
	command -v dpkg-query >/dev/null 2>&1 || die "dpkg-query not found: these scripts need Debian (or a derivative)"
	for p in "$@"; do
		pkg_installed "$p" || missing+=("$p")
	done
	[ "${#missing[@]}" -eq 0 ] && return 0
	say "installing missing packages: ${missing[*]}"
	if [ -z "$apt_updated" ]; then
		as_root env DEBIAN_FRONTEND=noninteractive apt-get update -qq
		apt_updated=1
	fi
	as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

# The Debian packages raylib-go (cgo, X11 + Wayland desktop build) and the
# display tests under Xvfb need (shared/DEPENDENCIES.md).
RAYLIB_PKGS=(gcc libc6-dev pkg-config libx11-dev libgl1-mesa-dev libegl-dev libgl1-mesa-dri
	libxcursor-dev libxrandr-dev libxinerama-dev libxi-dev libxkbcommon-dev libwayland-dev
	xvfb xauth)

# ensure_go makes sure the go command is usable (it is installed with the
# machine at /usr/local/go; it is never downloaded by these scripts).
ensure_go() {
	if ! command -v go >/dev/null 2>&1 && [ -x /usr/local/go/bin/go ]; then
		PATH="/usr/local/go/bin:$PATH"
		export PATH
	fi
	command -v go >/dev/null 2>&1 || die "the go command was not found (looked in PATH and /usr/local/go/bin); install Go 1.26 from go.dev, then rerun"
	say "$(go version)"
}

# cabinet_pkgs prints the packages of the module, one import path a line.
cabinet_pkgs() { (cd "$ROOT" && go list -e ./...); }

# headless_pkgs prints every package except the two that may import raylib
# (internal/display and its sub-packages, cmd/cabinet).
headless_pkgs() {
	cabinet_pkgs | grep -v -E '^cabinet/(internal/display(/.*)?|cmd/cabinet)$'
}

# private_runtime_dir sets XDG_RUNTIME_DIR to a fresh 0700 directory (GLFW
# warns without one) that is removed when the script exits.
private_runtime_dir() {
	XDG_RUNTIME_DIR="$(mktemp -d)"
	chmod 0700 "$XDG_RUNTIME_DIR"
	export XDG_RUNTIME_DIR
	# shellcheck disable=SC2064
	trap "rm -rf '$XDG_RUNTIME_DIR'" EXIT
}

# deb_version prints the Debian version of the checkout: 0.<commits>+g<hash>
# (".dirty" added when tracked files differ from HEAD). The commit count grows
# with every commit (a descendant has more ancestors), so a newer build is an
# upgrade for dpkg and apt.
deb_version() {
	local n h v
	n="$(git -C "$ROOT" rev-list --count HEAD)" || die "deb_version: not a git checkout"
	h="$(git -C "$ROOT" rev-parse --short=7 HEAD)"
	v="0.$n+g$h"
	git -C "$ROOT" diff --quiet HEAD -- 2>/dev/null || v="$v.dirty"
	printf '%s\n' "$v"
}
