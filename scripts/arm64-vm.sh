#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# An emulated arm64 machine from Debian 12's packages, to record with a real
# arm64 kernel and perf (docs/arm64-vm.md): Debian's arm64 kernel
# (linux-image-arm64) and perf (linux-perf) under qemu-system-aarch64 -M
# virt -cpu max (TCG: no KVM needed), its root a folder of unpacked arm64
# packages shared over 9p.
#
#   scripts/arm64-vm.sh build            install the host's tools, build the VM
#                                        (only what is missing)
#   scripts/arm64-vm.sh run DIR SCRIPT   boot, run `sh SCRIPT` (a path inside
#                                        DIR) as root in DIR, shared read-write
#                                        at /host; print its output; exit with
#                                        its status
#   scripts/arm64-vm.sh path             the cache folder
#
# Environment: AOTPERF_ARM64_VM (default ~/.cache/aotperf-arm64) the cache;
# VM_MEM (MB, default 1536), VM_SMP (default 2), VM_NICE (default 10),
# VM_TIMEOUT (seconds per run, default 1800), VM_CPU (default
# max,pauth-impdef=on,sve=off).
#
# The root (CACHE/root) is the packages' files unpacked, no maintainer
# script run (nothing there needs one): busybox-static gives the shell and
# tools, linux-perf perf. A tiny initramfs (busybox, the virtio-pci and 9p
# modules of that kernel) mounts it read-only and starts CACHE/root's
# /aotperf-vm-init, which mounts /proc, /sys, a tmpfs /tmp and the share,
# runs the script with perf_event_paranoid -1 and kptr_restrict 0, and
# powers off. The serial console is the channel: the script's output and
# exit status come back on it (and in DIR/.vm-status).
set -euo pipefail
CACHE=${AOTPERF_ARM64_VM:-$HOME/.cache/aotperf-arm64}
ROOT=$CACHE/root
MEM=${VM_MEM:-1536}
SMP=${VM_SMP:-2}
NICE=${VM_NICE:-10}
TIMEOUT=${VM_TIMEOUT:-1800}
CPU=${VM_CPU:-max,pauth-impdef=on,sve=off}
# arm64 packages: perf, the kernel (its modules feed the initramfs), a
# shell, and binutils (perf report runs addr2line for dwarf call chains and
# dies of SIGPIPE without it; perf annotate runs objdump)
PKGS=(linux-perf linux-image-arm64 busybox-static binutils)
# in load order (their "depends=" fields)
MODULES=(virtio_pci_modern_dev virtio_pci_legacy_dev virtio_pci 9pnet 9pnet_virtio netfs
	 fscache 9p)

say() { echo "arm64-vm: $*" >&2; }
die() { say "$*"; exit 1; }

# host_deps: qemu-system-aarch64 and cpio, from apt on Debian; named elsewhere
host_deps() {
	local need=() p
	command -v qemu-system-aarch64 >/dev/null || need+=(qemu-system-arm)
	command -v cpio >/dev/null || need+=(cpio)
	[ ${#need[@]} -eq 0 ] && return 0
	command -v apt-get >/dev/null ||
		die "install ${need[*]} (qemu-system-aarch64, cpio): not a Debian system"
	[ "$(id -u)" = 0 ] || die "need root to install: ${need[*]}"
	DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=900 install -y -qq \
		--no-install-recommends "${need[@]}" >/dev/null
	for p in "${need[@]}"; do say "installed $p"; done
}

# download: the arm64 packages and their dependencies into CACHE/apt, with
# the host's apt lists (dpkg --add-architecture arm64 and apt-get update
# when they have no arm64 index) and an empty package status, so apt
# resolves them as for an empty arm64 machine
download() {
	local a=$CACHE/apt
	mkdir -p "$a/archives/partial"
	: >"$a/status"
	if ! ls /var/lib/apt/lists/*binary-arm64_Packages* >/dev/null 2>&1; then
		[ "$(id -u)" = 0 ] || die "need root: dpkg --add-architecture arm64; apt-get update"
		dpkg --print-foreign-architectures | grep -qx arm64 || dpkg --add-architecture arm64
		apt-get -o DPkg::Lock::Timeout=900 update -qq
	fi
	apt-get -qq -o APT::Architecture=arm64 -o APT::Architectures::=arm64 \
		-o Dir::State::status="$a/status" -o Dir::Cache="$a" \
		-o Dir::Cache::archives="$a/archives" -o Debug::NoLocking=1 \
		-o APT::Sandbox::User=root -o APT::Install-Recommends=0 \
		--download-only -y install "${PKGS[@]}" >"$a/download.log" 2>&1 ||
		{ tail -n 20 "$a/download.log" >&2; die "apt-get download failed ($a/download.log)"; }
}

# unpack: every downloaded package into a fresh root
unpack() {
	local d
	rm -rf "$ROOT.new"
	mkdir -p "$ROOT.new"
	for d in "$CACHE"/apt/archives/*.deb; do
		dpkg-deb -x "$d" "$ROOT.new"
	done
	mkdir -p "$ROOT.new"/{proc,sys,dev,tmp,host,root}
	cat >"$ROOT.new/aotperf-vm-init" <<'EOF'
#!/bin/busybox sh
# pid 1 of the VM (scripts/arm64-vm.sh): run /host's job, power off
export PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/tmp/home TMPDIR=/tmp
/bin/busybox mount -t proc proc /proc
/bin/busybox mount -t sysfs sys /sys
/bin/busybox mount -t devtmpfs dev /dev
/bin/busybox mount -t tmpfs -o size=768m tmp /tmp
/bin/busybox mount -t 9p -o trans=virtio,version=9p2000.L,msize=262144 host /host
mkdir -p /tmp/home
echo -1 >/proc/sys/kernel/perf_event_paranoid
echo 0 >/proc/sys/kernel/kptr_restrict
job=$(cat /host/.vm-job)
echo "arm64-vm: running $job on $(uname -r) $(uname -m)"
cd /host && /bin/busybox sh "$job" </dev/null 2>&1
st=$?
echo "$st" >/host/.vm-status
echo "arm64-vm: exit status $st"
sync
/bin/busybox poweroff -f
EOF
	chmod +x "$ROOT.new/aotperf-vm-init"
	rm -rf "$ROOT"
	mv "$ROOT.new" "$ROOT"
}

# initramfs: busybox and the modules; /init mounts the root and hands over
initramfs() {
	local i=$CACHE/initramfs kver m f
	kver=$(basename "$(ls -d "$ROOT"/lib/modules/*)")
	rm -rf "$i"
	mkdir -p "$i"/{bin,dev,proc,sys,newroot,modules}
	cp "$ROOT/bin/busybox" "$i/bin/busybox"
	for m in "${MODULES[@]}"; do
		f=$(find "$ROOT/lib/modules/$kver" -name "$m.ko*" | head -n1)
		[ -n "$f" ] || die "$m.ko not found in the kernel package"
		cp "$f" "$i/modules/"
	done
	cat >"$i/init" <<EOF
#!/bin/busybox sh
/bin/busybox mount -t proc proc /proc
/bin/busybox mount -t devtmpfs dev /dev
for m in ${MODULES[*]}; do /bin/busybox insmod /modules/\$m.ko* || echo "init: insmod \$m failed"; done
/bin/busybox mount -t 9p -o ro,trans=virtio,version=9p2000.L,cache=loose,msize=262144 root /newroot ||
	{ echo "init: cannot mount the root"; /bin/busybox poweroff -f; }
/bin/busybox umount /proc /dev
exec /bin/busybox switch_root /newroot /aotperf-vm-init
EOF
	chmod +x "$i/init"
	(cd "$i" && find . | cpio -o -H newc --quiet | gzip -1) >"$CACHE/initrd.gz"
	cp "$ROOT/boot/vmlinuz-$kver" "$CACHE/vmlinuz"
	echo "$kver" >"$CACHE/kernel-version"
}

build() {
	host_deps
	# a changed package list rebuilds
	[ "$(cat "$CACHE/ready" 2>/dev/null)" = "${PKGS[*]}" ] && { say "already built ($CACHE)"; return 0; }
	mkdir -p "$CACHE"
	say "downloading ${PKGS[*]} (arm64) and their dependencies"
	download
	say "unpacking $(ls "$CACHE"/apt/archives/*.deb | wc -l) packages into $ROOT"
	unpack
	initramfs
	echo "${PKGS[*]}" >"$CACHE/ready"
	say "built: kernel $(cat "$CACHE/kernel-version"), $(du -sh "$ROOT" | cut -f1) root"
}

run() {
	local dir=$1 job=$2 log rc
	[ -f "$CACHE/ready" ] || die "not built: run scripts/arm64-vm.sh build first"
	[ -d "$dir" ] || die "$dir: not a folder"
	[ -f "$dir/$job" ] || die "$dir/$job: no such script"
	dir=$(cd "$dir" && pwd)
	echo "$job" >"$dir/.vm-job"
	rm -f "$dir/.vm-status"
	log=$dir/.vm-console
	# pauth-impdef: QEMU's own pointer-authentication hash, much faster
	# under TCG than the architected one. sve=off: with SVE, perf 6.1 asks
	# for SVE's VG register with --call-graph=dwarf, which software events
	# refuse (docs/arm64-vm.md)
	timeout "$TIMEOUT" nice -n "$NICE" qemu-system-aarch64 -M virt -cpu "$CPU" \
		-smp "$SMP" -m "$MEM" -nographic -no-reboot -nodefaults -serial stdio \
		-kernel "$CACHE/vmlinuz" -initrd "$CACHE/initrd.gz" \
		-append "console=ttyAMA0 panic=-1 quiet loglevel=3" \
		-fsdev local,id=root,path="$ROOT",security_model=none,readonly=on \
		-device virtio-9p-pci,fsdev=root,mount_tag=root \
		-fsdev local,id=host,path="$dir",security_model=none \
		-device virtio-9p-pci,fsdev=host,mount_tag=host </dev/null >"$log" 2>&1 || true
	sed -e 's/\r$//' "$log"
	[ -f "$dir/.vm-status" ] || die "the VM stopped without the job's status (console: $log)"
	rc=$(cat "$dir/.vm-status")
	return "$rc"
}

case ${1:-} in
build) build ;;
run) [ $# -eq 3 ] || die "usage: $0 run DIR SCRIPT"; run "$2" "$3" ;;
path) echo "$CACHE" ;;
*) echo "usage: $0 build | run DIR SCRIPT | path" >&2; exit 2 ;;
esac
