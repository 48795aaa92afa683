# SPDX-License-Identifier: GPL-2.0-only
#
# The generated event tables, for the Makefiles that build libperfctr
# (tools/lib/perfctr, tests/user). Set PMU_EVENTS_C (the .c to write)
# and UAPI_ARCH (x86 or powerpc) before including this.

# Its rule must not become the includer's default goal.
ifeq ($(.DEFAULT_GOAL),)
.DEFAULT_GOAL := all
endif
PYTHON ?= python3
PMU_EVENTS_DIR := $(ROOT)/tools/pmu-events
PMU_EVENTS_SRC := $(shell find $(PMU_EVENTS_DIR)/arch/$(UAPI_ARCH) -type f) \
	$(PMU_EVENTS_DIR)/jevents.py $(PMU_EVENTS_DIR)/perf-tables.sh

# perf's own tables are x86's only.
$(PMU_EVENTS_C): $(PMU_EVENTS_SRC)
	@mkdir -p $(@D)
	imp=$$($(if $(filter x86,$(UAPI_ARCH)),$(PMU_EVENTS_DIR)/perf-tables.sh $(@D))) && \
	$(PYTHON) $(PMU_EVENTS_DIR)/jevents.py --arch $(UAPI_ARCH) \
		$${imp:+--import "$$imp"} -o $@.tmp $(PMU_EVENTS_DIR) && \
	mv $@.tmp $@
