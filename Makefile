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
#                [BINDIR=] [MANDIR=]
#                             install user space: library, headers, .pc,
#                             tools, manual pages (tools/Makefile says where)
#   make uninstall            the same variables: removes what install put
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
# more parts go beside it.
install: install-tools
uninstall: uninstall-tools

install-tools uninstall-tools: %-tools:
	$(MAKE) -C tools O=$(TOOLS_O) $*

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
	uninstall-tools clean check run bench check-hw
