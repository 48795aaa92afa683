// SPDX-License-Identifier: GPL-2.0-only
/* The driver, as one translation unit (units.h lists its sources). */
#include "units.h"
