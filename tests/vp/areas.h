/* SPDX-License-Identifier: GPL-2.0-only */
/* The fast suite's areas, one file each; main.c runs them all. */
#ifndef _VP_AREAS_H
#define _VP_AREAS_H

#include <check.h>

/* A test case of @s with the fake kernel set up and checked around it. */
TCase *vp_tcase(Suite *s, const char *name);

void area_life(Suite *s);
void area_basic(Suite *s);
void area_exec(Suite *s);
void area_unlink(Suite *s);
void area_exit(Suite *s);
void area_signal(Suite *s);
void area_inherit(Suite *s);
void area_files(Suite *s);

#endif /* _VP_AREAS_H */
