#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# build-initramfs.sh [--init FILE] [--busybox FILE] OUT.cpio.gz GEN_INIT_CPIO
#                    [DEST=SRC ...]
#
# Packs busybox-static (or the static busybox FILE, for another arch), the
# guest init, the plans and any extra files (installed at DEST, mode
# kept) into a gzip'd initramfs; with --init, FILE is /init and there is
# no busybox. The cpio is built from a list
# with the kernel's usr/gen_init_cpio, so device nodes such as
# /dev/console need no root. An extra file's directories are made.
set -euo pipefail

init= busybox=/bin/busybox
while :; do
	case $1 in
	--init) init=$2; shift 2 ;;
	--busybox) busybox=$2; shift 2 ;;
	*) break ;;
	esac
done
out=$1 gen=$2
shift 2
here=$(cd "$(dirname "$0")" && pwd)
list=$(mktemp)
trap 'rm -f "$list"' EXIT

dirs="/bin /sbin /dev /proc /sys /tmp /plans /lib /lib/modules /tests"
{
	for d in $dirs; do echo "dir $d 0755 0 0"; done
	echo "nod /dev/console 0600 0 0 c 5 1"
	echo "nod /dev/null 0666 0 0 c 1 3"
	if [ -n "$init" ]; then
		echo "file /init $init 0755 0 0"
	else
		echo "file /bin/busybox $busybox 0755 0 0"
		echo "slink /bin/sh busybox 0777 0 0"
		echo "file /init $here/guest/init 0755 0 0"
		for p in "$here"/plans/*; do
			echo "file /plans/$(basename "$p") $p 0644 0 0"
		done
	fi
	# The extra files' directories that the list above lacks (PAPI's
	# tests in /papi/ctests), parents first.
	for spec in "$@"; do
		d=$(dirname "${spec%%=*}")
		while [ "$d" != / ]; do echo "$d"; d=$(dirname "$d"); done
	done | sort -u | while read -r d; do
		case " $dirs " in *" $d "*) ;; *) echo "dir $d 0755 0 0" ;; esac
	done
	for spec in "$@"; do
		dest=${spec%%=*} src=${spec#*=}
		mode=$(stat -c %a "$src")
		echo "file $dest $src $mode 0 0"
	done
} >"$list"
"$gen" "$list" | gzip -1 >"$out"
