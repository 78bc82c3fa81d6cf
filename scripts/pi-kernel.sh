# shellcheck shell=bash
# Debian 12's arm64 kernel, fetched and unpacked once outside the clone
# (sourced after lib.sh, never run). Nothing is installed on this machine and
# nothing here runs an arm64 binary: the packages are only unpacked.
#
# pi_kernel_fetch sets
#   PI_KDEBVER  Debian version of linux-image-arm64 (the apt candidate, or
#               $CABINET_PI_KERNEL to pin one, e.g. 6.1.192-2)
#   PI_KVER     kernel release, e.g. 6.1.0-56-arm64 (uname -r in the guest)
#   PI_KCACHE   the cache directory, /var/cache/cabinet-pi/gpio-sim/<kver>_<debver>
#               ($CABINET_PI_CACHE replaces /var/cache/cabinet-pi)
#   PI_KTREE    the unpacked image and headers: $PI_KTREE/boot/vmlinuz-$PI_KVER,
#               $PI_KTREE/lib/modules/$PI_KVER/, $PI_KTREE/usr/src/linux-headers-$PI_KVER
#               (its scripts/ are the host's linux-kbuild package: amd64 tools)
#   PI_KSRC     the few files of linux-source-<series> the module needs
#   PI_KDEBS    the downloaded .deb files (busybox-static:arm64 among them)

# pi_kernel_resolve sets PI_KDEBVER, PI_KVER and PI_KCACHE from the apt lists.
pi_kernel_resolve() {
	if ! dpkg --print-foreign-architectures | grep -qx arm64; then
		say "enabling the arm64 architecture (package lists only; nothing arm64 is installed)"
		as_root dpkg --add-architecture arm64
		apt_updated=""
	fi
	if [ -z "$(apt-cache policy linux-image-arm64:arm64 2>/dev/null | sed -n 's/^ *Candidate: *//p' | grep -v '(none)')" ] &&
		[ -z "$apt_updated" ]; then
		as_root env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 update -qq
		apt_updated=1
	fi
	PI_KDEBVER="${CABINET_PI_KERNEL:-$(apt-cache policy linux-image-arm64:arm64 | sed -n 's/^ *Candidate: *//p')}"
	[ -n "$PI_KDEBVER" ] && [ "$PI_KDEBVER" != "(none)" ] ||
		die "no linux-image-arm64:arm64 in the apt lists (is the Debian mirror configured for arm64?)"
	local image
	image="$(apt-cache show "linux-image-arm64:arm64=$PI_KDEBVER" 2>/dev/null |
		sed -n 's/^Depends: .*\(linux-image-[0-9][^ ,]*-arm64\) .*/\1/p' | head -n1)"
	[ -n "$image" ] || die "linux-image-arm64:arm64 version $PI_KDEBVER is not in the apt lists (CABINET_PI_KERNEL?)"
	PI_KVER="${image#linux-image-}"
	PI_KCACHE="${CABINET_PI_CACHE:-/var/cache/cabinet-pi}/gpio-sim/${PI_KVER}_$PI_KDEBVER"
}

# pi_kernel_cached DIR STEP: unless DIR is complete (DIR/.done), run STEP
# into a fresh DIR.tmp and move it into place: an interrupted run leaves no
# half-made DIR behind.
pi_kernel_cached() {
	local dir="$1" step="$2"
	[ -e "$dir/.done" ] && return 0
	rm -rf "$dir.tmp" && mkdir -p "$dir.tmp"
	"$step" "$dir.tmp"
	touch "$dir.tmp/.done"
	rm -rf "$dir" && mv "$dir.tmp" "$dir"
}

# pi_kernel_download DIR: the packages, with apt-get download.
pi_kernel_download() {
	# The host's kbuild (modpost, fixdep, genksyms: amd64 binaries) at the
	# headers' version when the mirror still has it, else its candidate
	# (the headers ask for >= their own version).
	local kbuild need
	kbuild="$(apt-cache madison "linux-kbuild-$series" | awk -v v="$PI_KDEBVER" '$3 == v { print v; exit }')"
	if [ -z "$kbuild" ]; then
		kbuild="$(apt-cache policy "linux-kbuild-$series:$host" | sed -n 's/^ *Candidate: *//p')"
		dpkg --compare-versions "$kbuild" ge "$PI_KDEBVER" ||
			die "linux-kbuild-$series:$host $kbuild is older than the kernel $PI_KDEBVER: no host tools for its headers"
	fi
	need=("linux-image-$PI_KVER:arm64=$PI_KDEBVER" "linux-headers-$PI_KVER:arm64=$PI_KDEBVER"
		"linux-headers-${PI_KVER%-arm64}-common=$PI_KDEBVER" "linux-kbuild-$series:$host=$kbuild"
		"linux-source-$series=$PI_KDEBVER" busybox-static:arm64)
	say "downloading ${need[*]}"
	(cd "$1" && apt-get -q -o APT::Sandbox::User="$(id -un)" download "${need[@]}" >/dev/null) ||
		die "apt-get download failed for: ${need[*]}"
}

# pi_kernel_unpack DIR: the kernel, its headers and the host's kbuild tools.
pi_kernel_unpack() {
	say "unpacking the kernel, its headers and the $host kbuild tools into $PI_KTREE"
	local d
	for d in "$PI_KDEBS"/linux-image-*.deb "$PI_KDEBS"/linux-headers-*.deb "$PI_KDEBS"/linux-kbuild-*.deb; do
		dpkg-deb -x "$d" "$1"
	done
	# The arm64 headers' Makefile includes the common headers by their
	# installed path; point it at the unpacked copy (where DIR is moved
	# next). Their scripts/ and tools/ are relative links to the kbuild
	# package unpacked beside.
	sed -i "s#^include /usr/src/#include $PI_KTREE/usr/src/#" "$1/usr/src/linux-headers-$PI_KVER/Makefile"
	file -L "$1/usr/src/linux-headers-$PI_KVER/scripts/mod/modpost" | grep -q "$(uname -m | tr _ -)" ||
		die "modpost of linux-kbuild-$series is not a $(uname -m) program"
}

# pi_kernel_sources DIR: the GPIO simulator's few files of linux-source.
pi_kernel_sources() {
	say "extracting the GPIO simulator's sources from linux-source-$series $PI_KDEBVER"
	dpkg-deb --fsys-tarfile "$PI_KDEBS"/linux-source-*.deb |
		tar -xO "./usr/src/linux-source-$series.tar.xz" |
		tar -xJ -C "$1" --strip-components=1 \
			"linux-source-$series/drivers/gpio/gpio-sim.c" "linux-source-$series/drivers/gpio/gpiolib.h" \
			"linux-source-$series/kernel/irq/irq_sim.c"
}

# pi_kernel_fetch downloads (once) the kernel image, its headers, the host's
# kbuild tools, the kernel source and busybox-static:arm64, and unpacks them
# (once) under PI_KCACHE. Safe to run twice and after an interrupted run.
pi_kernel_fetch() {
	pi_kernel_resolve
	local series="${PI_KVER%%-*}" # 6.1.0
	series="${series%.*}"         # 6.1
	local host
	host="$(dpkg --print-architecture)"
	PI_KDEBS="$PI_KCACHE/debs"
	PI_KTREE="$PI_KCACHE/tree"
	PI_KSRC="$PI_KCACHE/src"
	as_root mkdir -p "$PI_KCACHE"
	[ -w "$PI_KCACHE" ] || as_root chown "$(id -u):$(id -g)" "$PI_KCACHE"
	pi_kernel_cached "$PI_KDEBS" pi_kernel_download
	pi_kernel_cached "$PI_KTREE" pi_kernel_unpack
	pi_kernel_cached "$PI_KSRC" pi_kernel_sources
}
