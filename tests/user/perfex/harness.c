// SPDX-License-Identifier: GPL-2.0-only
/*
 * The perfex suite's harness: runs the perfex binary with its output
 * captured, and reads perfex's -x and -j layouts back strictly, as
 * perfex.rst documents them (perf stat's fields and keys).
 */
#define _GNU_SOURCE
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "suite.h"

/* --- the programs --- */

/*
 * $NAME, else beside this binary (a build directory), else where the
 * test VM's initramfs puts it.
 */
static const char *find_program(const char *env, const char *name,
				const char *vm_path)
{
	static char path[2][PATH_MAX];
	char *p = path[!strcmp(name, "busy")], *slash;
	const char *v = getenv(env);
	ssize_t n;

	if (v)
		return v;
	n = readlink("/proc/self/exe", p, PATH_MAX - 16);
	if (n > 0) {
		p[n] = '\0';
		slash = strrchr(p, '/');
		if (slash) {
			strcpy(slash + 1, name);
			if (!access(p, X_OK))
				return p;
		}
	}
	return vm_path;
}

/*
 * The commands of perthread.c's stops and daemons, with no shell's kill
 * (ppc32's busybox has none): a SIGCONT to itself; a SIGSTOP that its
 * child ends with SIGCONT 0.3 s later; a child left running 30 s.
 */
int px_own_business(const char *what)
{
	pid_t child;

	if (!strcmp(what, CONT_ARG))
		return raise(SIGCONT) ? 1 : 0;
	child = fork();
	if (child < 0)
		return 1;
	if (!child) {
		if (!strcmp(what, DAEMON_ARG)) {
			sleep(30);
		} else {
			usleep(300000);
			kill(getppid(), SIGCONT);
		}
		_exit(0);
	}
	if (!strcmp(what, DAEMON_ARG))
		return 0;
	raise(SIGSTOP);
	return waitpid(child, NULL, 0) == child ? 0 : 1;
}

/* busy -p's "busy: tsc T ..." line: the total of its threads' reports. */
unsigned long long px_busy_tsc(const struct px_result *r)
{
	const char *line = strstr(r->out, "busy: tsc ");

	ck_assert_msg(line, "no busy: line in:\n%s", r->out);
	return strtoull(line + 10, NULL, 10);
}

int px_once_per_arch(void)
{
#ifdef __powerpc__
	return !model || !strcmp(model_name, "7450");
#else
	return !model || !strcmp(model_name, "k7");
#endif
}

const char *px_perfex(void)
{
	return find_program("PERFEX", "perfex", "/bin/perfex");
}

const char *px_busy(void)
{
	return find_program("BUSY", "busy", "/bin/busy");
}

void px_copy_busy(const char *path, mode_t mode)
{
	int in = open(px_busy(), O_RDONLY), out;
	char buf[65536];
	ssize_t n;

	ck_assert_msg(in >= 0, "%s: %s", px_busy(), strerror(errno));
	unlink(path);
	out = open(path, O_WRONLY | O_CREAT | O_EXCL, 0700);
	ck_assert_int_ge(out, 0);
	while ((n = read(in, buf, sizeof(buf))) > 0)
		ck_assert_int_eq(write(out, buf, n), n);
	ck_assert_int_eq(fchmod(out, mode), 0);
	close(in);
	close(out);
}

const char *px_self(void)
{
	static char path[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", path, sizeof(path) - 1);

	ck_assert_int_gt(n, 0);
	path[n] = '\0';
	return path;
}

void px_plain_cpuid(void)
{
	if (!model)
		ck_assert_int_eq(setenv("PERFCTR_CPUID", PX_TABLE_CPUID, 1), 0);
}

/* --- running perfex --- */

static void slurp(int fd, char *buf)
{
	ssize_t n = pread(fd, buf, OUT_MAX - 1, 0);

	buf[n > 0 ? n : 0] = '\0';
	close(fd);
}

#if defined(__x86_64__)
#define PX_AUDIT_ARCH	AUDIT_ARCH_X86_64
#elif defined(__i386__)
#define PX_AUDIT_ARCH	AUDIT_ARCH_I386
#elif defined(__powerpc__) && !defined(__powerpc64__)
#define PX_AUDIT_ARCH	AUDIT_ARCH_PPC
#else
#error "the seccomp filter needs this arch's AUDIT_ARCH_*"
#endif
#ifndef GRND_INSECURE
#define GRND_INSECURE	0x0004
#endif
/* getrandom()'s flags, the low word of its third argument. */
#define PX_FLAGS_OFF	(offsetof(struct seccomp_data, args[2]) + \
			 4 * (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__))
#define PX_EINVAL	(SECCOMP_RET_ERRNO | EINVAL)

/* Each way: a getrandom() with any of @flags set gets @set, else @clear. */
static const struct {
	__u32 flags, set, clear;
} px_way[] = {
	[PX_FRESH_BOOT] = { GRND_NONBLOCK | GRND_INSECURE, SECCOMP_RET_ALLOW,
			    SECCOMP_RET_KILL_PROCESS },
	[PX_NO_INSECURE] = { GRND_INSECURE, PX_EINVAL, SECCOMP_RET_ALLOW },
	[PX_GETRANDOM_REFUSED] = { 0, PX_EINVAL, PX_EINVAL },
};

/* In the child, before exec: getrandom() as @how says (seccomp). */
static int random_filter(enum px_random how)
{
	struct sock_filter f[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
			 offsetof(struct seccomp_data, arch)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, PX_AUDIT_ARCH, 0, 6),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
			 offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_getrandom, 0, 4),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, PX_FLAGS_OFF),
		BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, px_way[how].flags, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, px_way[how].set),
		BPF_STMT(BPF_RET | BPF_K, px_way[how].clear),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = { ARRAY_SIZE(f), f };

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))
		return -1;
	return syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog);
}

static void spawn_perfex(struct px_result *r, const char *const *argv,
			 int nobody, int sig, int after_ms,
			 enum px_random how)
{
	const char *args[64] = { "perfex" };
	int out = memfd_create("px-out", MFD_CLOEXEC);
	int err = memfd_create("px-err", MFD_CLOEXEC);
	int i, status, null;
	pid_t pid;

	ck_assert_int_ge(out, 0);
	ck_assert_int_ge(err, 0);
	for (i = 0; argv[i]; i++)
		args[i + 1] = argv[i];
	fflush(NULL);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (!pid) {
		null = open("/dev/null", O_RDONLY);
		if (null < 0 || dup2(null, 0) < 0 || dup2(out, 1) < 0 ||
		    dup2(err, 2) < 0)
			_exit(120);
		if (nobody && (setgid(NOBODY) || setuid(NOBODY)))
			_exit(121);
		if (how && random_filter(how))
			_exit(121);
		execv(px_perfex(), (char **)args);
		_exit(122);
	}
	if (sig) {
		usleep(after_ms * 1000);
		kill(pid, sig);
	}
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	slurp(out, r->out);
	slurp(err, r->err);
	ck_assert_msg(WIFEXITED(status), "perfex died of signal %d",
		      WTERMSIG(status));
	r->status = WEXITSTATUS(status);
	ck_assert_msg(r->status < 120 || r->status > 122 ||
		      strstr(r->err, "perfex"),
		      "could not run %s (%d)", px_perfex(), r->status);
}

void px_run(struct px_result *r, const char *const *argv)
{
	spawn_perfex(r, argv, 0, 0, 0, 0);
}

int px_have_seccomp(void)
{
	__u32 kill = SECCOMP_RET_KILL_PROCESS;

	return !syscall(SYS_seccomp, SECCOMP_GET_ACTION_AVAIL, 0, &kill);
}

void px_run_random(struct px_result *r, const char *const *argv,
		   enum px_random how)
{
	spawn_perfex(r, argv, 0, 0, 0, how);
}

void px_run_nobody(struct px_result *r, const char *const *argv)
{
	spawn_perfex(r, argv, 1, 0, 0, 0);
}

void px_run_signalled(struct px_result *r, const char *const *argv, int sig,
		      int after_ms)
{
	spawn_perfex(r, argv, 0, sig, after_ms, 0);
}

/* --- -x SEP --- */

int px_is_uint(const char *s)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if (*s < '0' || *s > '9')
			return 0;
	return 1;
}

/* The next line of *@text into @line; 0 at the end. */
static int next_line(const char **text, char *line, size_t size)
{
	size_t len;

	if (!**text)
		return 0;
	len = strcspn(*text, "\n");
	snprintf(line, size, "%.*s", (int)len, *text);
	*text += len + ((*text)[len] == '\n');
	return 1;
}

int px_csv(const char *text, const char *sep, struct px_row *rows, int max)
{
	size_t seplen = strlen(sep);
	char line[1024], *p, *q;
	int n = 0;

	while (next_line(&text, line, sizeof(line))) {
		if (!strncmp(line, "perfex:", 7))
			continue;
		ck_assert_msg(n < max, "too many rows");
		memset(&rows[n], 0, sizeof(rows[n]));
		for (p = line;; p = q + seplen) {
			struct px_row *r = &rows[n];

			ck_assert_msg(r->nfields < 12, "too many fields: %s", line);
			q = strstr(p, sep);
			if (q)
				*q = '\0';
			snprintf(r->fields[r->nfields++], sizeof(r->fields[0]),
				 "%.127s", p);
			if (!q)
				break;
		}
		snprintf(rows[n].value, sizeof(rows[n].value), "%.63s",
			 rows[n].fields[0]);
		if (rows[n].nfields > 2)
			snprintf(rows[n].name, sizeof(rows[n].name), "%.127s",
				 rows[n].fields[2]);
		n++;
	}
	return n;
}

const struct px_row *px_find(const struct px_row *rows, int n,
			     const char *name)
{
	int i;

	for (i = 0; i < n; i++)
		if (!strcmp(rows[i].name, name))
			return &rows[i];
	return NULL;
}

unsigned long long px_tsc(const struct px_result *r)
{
	struct px_row rows[PX_MAX_ROWS];
	const struct px_row *t;
	int n = px_csv(r->err, ";", rows, PX_MAX_ROWS);

	t = px_find(rows, n, "tsc");
	ck_assert_msg(t && px_is_uint(t->value), "no tsc row in:\n%s", r->err);
	return strtoull(t->value, NULL, 10);
}

/* --- -j: a strict reader of flat objects --- */

static const char *json_ws(const char *p)
{
	return p + strspn(p, " \t");
}

/* A string at @p (its opening quote) into @out; past it, or NULL. */
static const char *json_str(const char *p, char *out, size_t size)
{
	size_t o = 0;

	if (*p++ != '"')
		return NULL;
	for (; *p != '"'; p++) {
		if (!*p || (unsigned char)*p < 0x20)
			return NULL;
		if (*p == '\\') {
			p++;
			if (*p == 'u') {
				if (strspn(p + 1, "0123456789abcdefABCDEF") < 4)
					return NULL;
				p += 4;
			} else if (!strchr("\"\\/bfnrt", *p) || !*p) {
				return NULL;
			}
		}
		if (o + 1 < size)
			out[o++] = *p;
	}
	out[o] = '\0';
	return p + 1;
}

/* A JSON number at @p; past it, or NULL. */
static const char *json_num(const char *p, char *out, size_t size)
{
	const char *s = p;

	if (*p == '-')
		p++;
	if (*p == '0')
		p++;
	else if (*p >= '1' && *p <= '9')
		p += strspn(p, "0123456789");
	else
		return NULL;
	if (*p == '.') {
		if (!strspn(++p, "0123456789"))
			return NULL;
		p += strspn(p, "0123456789");
	}
	if (*p == 'e' || *p == 'E') {
		p += strspn(p + 1, "+-") ? 2 : 1;
		if (!strspn(p, "0123456789"))
			return NULL;
		p += strspn(p, "0123456789");
	}
	snprintf(out, size, "%.*s", (int)(p - s), s);
	return p;
}

/* One line, one object of string and number members; how many, or -1. */
static int json_object(const char *p, struct px_json_member *m, int max)
{
	int n = 0, i;

	p = json_ws(p);
	if (*p++ != '{')
		return -1;
	p = json_ws(p);
	if (*p == '}')
		return *json_ws(p + 1) ? -1 : 0;
	for (;;) {
		if (n == max)
			return -1;
		p = json_str(p, m[n].key, sizeof(m[n].key));
		if (!p)
			return -1;
		p = json_ws(p);
		if (*p != ':')
			return -1;
		p = json_ws(p + 1);
		m[n].is_string = *p == '"';
		p = m[n].is_string ? json_str(p, m[n].val, sizeof(m[n].val)) :
		    json_num(p, m[n].val, sizeof(m[n].val));
		if (!p)
			return -1;
		for (i = 0; i < n; i++)
			if (!strcmp(m[i].key, m[n].key))
				return -1;	/* a key twice */
		n++;
		p = json_ws(p);
		if (*p == '}')
			return *json_ws(p + 1) ? -1 : n;
		if (*p++ != ',')
			return -1;
		p = json_ws(p);
	}
}

/* perfex.rst's keys, each a string (1) or a number (0). */
static const struct {
	const char *key;
	int is_string;
} json_keys[] = {
	{ "counter-value", 1 }, { "unit", 1 }, { "event", 1 },
	{ "event-runtime", 0 }, { "pcnt-running", 0 },
	{ "metric-value", 1 }, { "metric-unit", 1 }, { "variance", 0 },
};

/* Exactly the documented keys, of the documented types, into @r. */
static int json_row(const struct px_json_member *m, int n, int variance,
		    struct px_row *r)
{
	int want = ARRAY_SIZE(json_keys) - !variance, i, k;

	if (n != want)
		return -1;
	memset(r, 0, sizeof(*r));
	for (i = 0; i < n; i++) {
		for (k = 0; k < want; k++)
			if (!strcmp(m[i].key, json_keys[k].key))
				break;
		if (k == want || m[i].is_string != json_keys[k].is_string)
			return -1;
		if (!strcmp(m[i].key, "event"))
			snprintf(r->name, sizeof(r->name), "%.127s", m[i].val);
		if (!strcmp(m[i].key, "counter-value"))
			snprintf(r->value, sizeof(r->value), "%.63s", m[i].val);
	}
	return 0;
}

int px_json_line(const char *line, struct px_json_member *m, int max)
{
	return json_object(line, m, max);
}

int px_json(const char *text, struct px_row *rows, int max, int variance)
{
	struct px_json_member m[16];
	char line[1024];
	int n = 0, k;

	while (next_line(&text, line, sizeof(line))) {
		if (!strncmp(line, "perfex:", 7))
			continue;
		if (n == max)
			return -1;
		k = json_object(line, m, ARRAY_SIZE(m));
		if (k < 0 || json_row(m, k, variance, &rows[n]))
			return -1;
		n++;
	}
	return n;
}

/* perf's software event names and aliases, as perfex.rst lists them. */
int px_is_software(const char *name)
{
	static const char *const names[] = {
		"task-clock", "context-switches", "cs", "cpu-migrations",
		"migrations", "page-faults", "faults", "minor-faults",
		"major-faults",
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(names); i++)
		if (!strcmp(name, names[i]))
			return 1;
	return 0;
}
