# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=bash
# shellcheck disable=SC2154 # check.sh sets results
# check.sh's pkg part: perfctr installed as a Debian user would. The
# packages are built (dpkg-buildpackage) and checked by lintian; a
# bookworm system (tests/pkg/rootfs.sh, debootstrapped once, in the
# background of make check) gets them by dpkg -i in a chroot, where DKMS
# builds the module for bookworm's 6.1 and 6.12 (there at install) and
# for sid's 7.2 (installed after it, through the kernel's postinst hook);
# then that system boots on each stock kernel in QEMU, where the module
# must be loaded and /proc/perfctr mounted with no command from anyone,
# and perfex and two programs built against libperfctr-dev must count.
# Sourced by check.sh; records pkg:... and pkg-vm-KERNEL:... results.

# pkg_versions: VERSION is the one authoritative version; dkms.conf and
# debian/changelog must say the same.
pkg_versions() {
	local v d c
	v=$(cat "$ROOT/VERSION")
	d=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"$/\1/p' "$ROOT/dkms.conf")
	c=$(sed -n '1s/^perfctr (\([^)-]*\).*/\1/p' "$ROOT/debian/changelog")
	if [ "$d" = "$v" ] && [ "$c" = "$v" ]; then
		record PASS pkg:versions-agree
	else
		record FAIL pkg:versions-agree "VERSION $v, dkms.conf $d, debian/changelog $c"
	fi
}

# pkg_results FILE PREFIX: FILE's RESULT lines as PREFIX:name records.
pkg_results() {
	local st name
	while read -r st name; do
		record "$st" "$2:$name"
	done < <(sed -n 's/^RESULT \(PASS\|FAIL\) \(.*\)/\1 \2/p' "$1")
}

pkg_part() {
	local out=$BUILD/pkg rootfs s hdrs vmlinuz rel when tree key n
	local kernels=() boots=() t0
	section "packages: build, lintian, DKMS in a bookworm chroot, boot"
	t0=$(date +%s)
	pkg_versions
	bash "$ROOT/tests/pkg/build.sh" "$out/debs" >"$out.build.txt" 2>&1
	pkg_results "$out.build.txt" pkg
	grep -v '^RESULT ' "$out.build.txt" | head -n 20
	ls "$out"/debs/*.deb >/dev/null 2>&1 || return
	echo "  packages built and linted in $(($(date +%s) - t0)) s"
	if ! rootfs=$(bash "$ROOT/tests/pkg/rootfs.sh"); then
		record FAIL pkg:rootfs "debootstrap failed"
		return
	fi
	for s in 6.1 6.12 sid; do
		if ! read -r hdrs vmlinuz < <(bash "$ROOT/tests/stock-kernel.sh" "$s" 2>/dev/null); then
			record FAIL "pkg:kernel-$s" "tests/stock-kernel.sh $s"
			continue
		fi
		# The image's name has the release (Debian's 6.1 headers say
		# 6.1.192 in kernel.release, the modules' directory is
		# 6.1.0-56-amd64).
		rel=${vmlinuz##*/vmlinuz-}
		# 6.1's headers are the chroot's own, from apt; sid's kernel
		# comes after perfctr, as a new kernel would.
		tree=$hdrs when=now
		[ "$s" = 6.1 ] && tree=-
		[ "$s" = sid ] && when=later
		kernels+=("$rel:$tree:$when")
		boots+=("$s:$vmlinuz")
	done
	# The installed system is made again only when what goes in has
	# changed: the packages (built reproducibly), the root file system,
	# the kernels and these scripts.
	key=$( { sha256sum "$out"/debs/*.deb "$ROOT"/tests/pkg/install.sh \
		"$ROOT"/tests/pkg/guest/*; echo "$rootfs ${kernels[*]}"; } |
		sed 's|  .*/| |' | sha256sum | cut -c1-16)
	if [ "$(cat "$out/img/key" 2>/dev/null)" != "$key" ]; then
		rm -f "$out/img/key"
		bash "$ROOT/tests/pkg/install.sh" "$rootfs" "$out/img" "$out/debs" \
			"${kernels[@]}" >"$out/img.txt" 2>&1 && echo "$key" >"$out/img/key"
	else
		echo "  the installed system is unchanged: $out/img"
	fi
	pkg_results "$out/img.txt" pkg
	grep -v '^RESULT ' "$out/img.txt" | head -n 20
	echo "  installed (DKMS: ${#kernels[@]} kernels) after $(($(date +%s) - t0)) s"
	[ -f "$out/img/pkg.cpio" ] || return
	for s in "${boots[@]}"; do
		n=pkg-vm-${s%%:*}
		if "$ROOT/tests/vm/run-vm.sh" --tcg-single --timeout 300 "${s#*:}" \
			"$out/img/pkg.cpio" pkg "$BUILD/$n.log"; then
			record PASS "$n:boot-completed"
		else
			record FAIL "$n:boot-completed" "see $BUILD/$n.log"
		fi
		pkg_results "$BUILD/$n.log" "$n"
		log_clean "$n:guest-log-clean" "$BUILD/$n.log"
		echo "  ${s%%:*} booted, after $(($(date +%s) - t0)) s"
	done
}

want pkg && pkg_part
