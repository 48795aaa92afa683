// SPDX-License-Identifier: GPL-2.0-only
/* Helpers shared by the Check suites that run in the test VM. */
#include <stdio.h>
#include <string.h>

#include "test_util.h"

char *info_field(const char *key)
{
	static char value[256];
	char line[512];
	size_t klen = strlen(key);
	FILE *f = fopen(INFO_PATH, "r");
	char *found = NULL;

	if (!f)
		return NULL;
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, key, klen) || line[klen] != ':')
			continue;
		snprintf(value, sizeof(value), "%s", line + klen + 1);
		value[strcspn(value, "\n")] = 0;
		found = value + (value[0] == ' ');
		break;
	}
	fclose(f);
	return found;
}
