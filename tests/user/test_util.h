/* SPDX-License-Identifier: GPL-2.0-only */
/* Helpers shared by the Check suites that run in the test VM. */
#ifndef _PERFCTR_TEST_UTIL_H
#define _PERFCTR_TEST_UTIL_H

#define INFO_PATH	"/proc/perfctr/info"
#define GLOBAL_PATH	"/proc/perfctr/global"
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

/* The value of "key: value" in /proc/perfctr/info, or NULL. */
char *info_field(const char *key);

#endif /* _PERFCTR_TEST_UTIL_H */
