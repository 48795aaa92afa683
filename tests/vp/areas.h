/* SPDX-License-Identifier: GPL-2.0-only */
/* The fast suite's areas, one file each; main.c runs them all. */
#ifndef _VP_AREAS_H
#define _VP_AREAS_H

#include <check.h>

/* A test case of @s with the fake kernel set up and checked around it. */
struct TCase *vp_tcase(struct Suite *s, const char *name);

void area_life(struct Suite *s);
void area_basic(struct Suite *s);
void area_exec(struct Suite *s);
void area_unlink(struct Suite *s);
void area_exit(struct Suite *s);
void area_signal(struct Suite *s);
void area_inherit(struct Suite *s);
void area_files(struct Suite *s);

#endif /* _VP_AREAS_H */
