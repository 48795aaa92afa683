/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The driver sources the fast suite compiles, as one translation unit.
 * When virtual.c is split, list its parts here: nothing else changes.
 */
#include "../../drivers/perfctr/virtual.c"
