# SPDX-License-Identifier: GPL-2.0-only
#
# perfctr: build the module out of tree, and the two project commands.
#
#   make                      build perfctr.ko against $(KDIR)
#   make KDIR=/path/to/build  build against another kernel build tree
#   make modules_install      install into /lib/modules/<release>/extra
#   make tools                libperfctr, vself, gperfctr and perfex, in
#                             .build/tools
#   make install [PREFIX=/usr/local] [DESTDIR=] [LIBDIR=] [INCLUDEDIR=]
#                [BINDIR=] [MANDIR=] [DOCDIR=]
#                             install user space: library, headers, .pc,
#                             tools, manual pages, the perfmon example
#                             (tools/Makefile says where);
#                             the boot-time files (install-boot); and,
#                             without DESTDIR, perfctr.ko for $(KDIR)
#                             (install-module)
#   make uninstall            the same variables: removes what install put
#   make install-boot         /usr/lib/modules-load.d/perfctr.conf (load at
#                             boot), /usr/lib/modprobe.d/perfctr.conf (the
#                             options, as comments), proc-perfctr.mount
#                             (mounts /proc/perfctr), from packaging/
#   make install-module       modules_install for $(KDIR), then depmod
#                             (packages ship the source for DKMS instead:
#                             dkms.conf, debian/)
#   make clean
#   make check                every test (installs what it needs)
#   make run                  boot a test VM with the module and show it
#   make bench                instruction counts of reads and context switches
#   make check-hw             perfctr on this machine's real counters (root;
#                             installs nothing)

KDIR ?= /lib/modules/$(shell uname -r)/build
PWD := $(shell pwd)

all: modules

modules modules_install:
	$(MAKE) -C $(KDIR) M=$(PWD) $@

# User space needs no kernel tree: tools/Makefile builds it on its own.
TOOLS_O := $(PWD)/.build/tools

tools:
	$(MAKE) -C tools O=$(TOOLS_O)

# What `make install` installs, one part a line: user space (tools/);
# the boot-time files; the module, but not in a staged install (DESTDIR
# set), which is a package's: its module comes from DKMS (perfctr-dkms),
# not from this machine's kernel tree.
install: install-tools
uninstall: uninstall-tools
install: install-boot
uninstall: uninstall-boot
install: $(if $(DESTDIR),,install-module)
uninstall: $(if $(DESTDIR),,uninstall-module)

install-tools uninstall-tools: %-tools:
	$(MAKE) -C tools O=$(TOOLS_O) $*

# Boot-time files: where systemd and kmod look, whatever PREFIX is.
MODULESLOADDIR ?= /usr/lib/modules-load.d
MODPROBEDIR ?= /usr/lib/modprobe.d
SYSTEMDUNITDIR ?= $(or $(shell pkg-config --variable=systemdsystemunitdir \
			systemd 2>/dev/null),/lib/systemd/system)
BOOT_FILES := $(DESTDIR)$(MODULESLOADDIR)/perfctr.conf \
	$(DESTDIR)$(MODPROBEDIR)/perfctr.conf \
	$(DESTDIR)$(SYSTEMDUNITDIR)/proc-perfctr.mount
# Only on the running system (no DESTDIR): have systemd mount it at the
# next boot, and now if the module is there.
SYSTEMCTL := $(if $(DESTDIR),:,$(shell command -v systemctl 2>/dev/null || echo :))

install-boot:
	install -D -m 644 packaging/modules-load.conf \
		$(DESTDIR)$(MODULESLOADDIR)/perfctr.conf
	install -D -m 644 packaging/modprobe.conf \
		$(DESTDIR)$(MODPROBEDIR)/perfctr.conf
	install -D -m 644 packaging/proc-perfctr.mount \
		$(DESTDIR)$(SYSTEMDUNITDIR)/proc-perfctr.mount
	$(SYSTEMCTL) daemon-reload
	$(SYSTEMCTL) enable proc-perfctr.mount

uninstall-boot:
	-$(SYSTEMCTL) disable --now proc-perfctr.mount
	rm -f $(BOOT_FILES)
	$(SYSTEMCTL) daemon-reload

# The release of KDIR's kernel, for the installed path and depmod: the
# name in /lib/modules/RELEASE/build, as DKMS passes it (Debian's 6.1
# headers say 6.1.192 in their kernel.release), else the tree's own.
KRELEASE = $(or $(patsubst /lib/modules/%/build,%,$(filter /lib/modules/%/build,$(KDIR))),$(shell cat $(KDIR)/include/config/kernel.release))
DEPMOD = depmod $(if $(INSTALL_MOD_PATH),-b $(INSTALL_MOD_PATH)) -a $(KRELEASE)

install-module: modules
	$(MAKE) -C $(KDIR) M=$(PWD) KERNELRELEASE=$(KRELEASE) modules_install
	$(DEPMOD)

uninstall-module:
	rm -f $(INSTALL_MOD_PATH)/lib/modules/$(KRELEASE)/extra/perfctr.ko*
	$(DEPMOD)

# Works without a kernel tree too: the test builds live in .build/.
clean:
	if [ -d $(KDIR) ]; then $(MAKE) -C $(KDIR) M=$(PWD) clean; fi
	rm -rf .build

check:
	bash tests/check.sh

run:
	bash tests/run.sh

bench:
	bash tests/bench.sh

check-hw:
	bash tests/hw/check-hw.sh

.PHONY: all modules modules_install tools install uninstall install-tools \
	uninstall-tools clean check run bench check-hw install-boot \
	uninstall-boot install-module uninstall-module
