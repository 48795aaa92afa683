// SPDX-License-Identifier: GPL-2.0-only
/*
 * perfctr_fuzz: /proc/perfctr/<tid>/ control, command, sums, status and
 * children, of the fuzzing thread or of another (a sleeping child, which
 * may be read but not changed), and opens with every access mode.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "fuzz.h"
#include "io.h"

/* The thread's own file mostly; sometimes the other thread's, fresh. */
static int pick_fd(enum vfile f, int *fresh)
{
	const int modes[] = { O_RDONLY, O_WRONLY, O_RDWR };

	*fresh = -1;
	if (rnd_below(8))
		return vfd[f];
	*fresh = fuzz_open_file(other_tid, vfile_name[f],
				modes[rnd_below(ARRAY_SIZE(modes))]);
	return *fresh;
}

static int req_control(void)
{
	struct vperfctr_control vc;
	int fresh, fd = pick_fd(VF_CONTROL, &fresh);
	int err;

	if (fd < 0)
		return errno;
	gen_vcontrol(&vc);
	if (rnd_below(4) == 0)
		err = fuzz_read(fd, sizeof(vc));
	else
		err = fuzz_write(fd, &vc, sizeof(vc));
	if (!err && fresh < 0)
		gen_keep_cpu_control(&vc.cpu_control);
	if (fresh >= 0)
		close(fresh);
	return err;
}

static int req_command(void)
{
	const __u32 cmds[] = { 0, VPERFCTR_CMD_SUSPEND, VPERFCTR_CMD_RESUME,
				  VPERFCTR_CMD_CLEAR, VPERFCTR_CMD_IRESUME,
				  VPERFCTR_CMD_UNLINK, 6, 0x100, 0xffffffff };
	/* UNLINK seldom: a thread without a set has less to fuzz. */
	__u32 cmd = rnd_pick(cmds, ARRAY_SIZE(cmds));
	int fresh, fd = pick_fd(VF_COMMAND, &fresh);
	int err;

	if (fd < 0)
		return errno;
	if (cmd == VPERFCTR_CMD_UNLINK && rnd_below(4))
		cmd = VPERFCTR_CMD_RESUME;
	err = rnd_below(8) ? fuzz_write(fd, &cmd, sizeof(cmd)) :
	      fuzz_read(fd, sizeof(cmd));
	if (fresh >= 0)
		close(fresh);
	return err;
}

static int req_reader(enum vfile f, size_t exact)
{
	__u64 junk[8];
	int fresh, fd = pick_fd(f, &fresh);
	int err;

	if (fd < 0)
		return errno;
	rnd_fill(junk, sizeof(junk));
	err = rnd_below(4) ? fuzz_read(fd, exact) :
	      fuzz_write(fd, junk, sizeof(junk));
	if (fresh >= 0)
		close(fresh);
	return err;
}

/* An open of any file of any thread with any flags; closed at once. */
static int req_open(void)
{
	const char *const names[] = { "control", "sums", "state", "command",
				      "status", "children", "ibs", "ibs_ring",
				      "tree", "nosuch", "", ".." };
	const int flags[] = { O_RDONLY, O_WRONLY, O_RDWR, O_RDWR | O_TRUNC,
			      O_WRONLY | O_APPEND, O_RDONLY | O_DIRECTORY,
			      O_RDWR | O_CREAT, 3 };
	const pid_t tids[] = { gettid(), other_tid, 0x7fffffff, 1 };
	int fd;

	fd = fuzz_open_file(tids[rnd_below(ARRAY_SIZE(tids))],
			    names[rnd_below(ARRAY_SIZE(names))],
			    flags[rnd_below(ARRAY_SIZE(flags))]);
	if (fd < 0)
		return errno;
	close(fd);
	return 0;
}

void req_vperfctr(struct fuzz_req *r)
{
	switch (rnd_below(8)) {
	case 0:
	case 1:
	case 2:
		r->what = "control";
		r->err = req_control();
		break;
	case 3:
		r->what = "command";
		r->err = req_command();
		break;
	case 4:
		r->what = "sums";
		r->err = req_reader(VF_SUMS, sizeof(struct perfctr_sum_ctrs));
		break;
	case 5:
		r->what = rnd_below(2) ? "children" : "tree";
		r->err = req_reader(r->what[0] == 'c' ? VF_CHILDREN : VF_TREE,
				    sizeof(struct vperfctr_children));
		break;
	case 6:
		r->what = "status";
		r->err = req_reader(VF_STATUS, 16);
		break;
	default:
		r->what = "open";
		r->err = req_open();
		break;
	}
}
