// SPDX-License-Identifier: GPL-2.0-only
#include "areas.h"
#include "harness.h"

void area_unlink(Suite *s)
{
}
