// SPDX-License-Identifier: GPL-2.0-only
/*
 * perfctr: the "perfctr" file system, mounted on /proc/perfctr.
 *
 * A module cannot add entries to /proc/<pid>/, so it owns a directory of
 * the same shape: <tid>/ for every thread the caller can see, looked up
 * in the caller's pid namespace when it is used (no dentry outlives its
 * last user, and a cached one is checked again), "self" naming the
 * caller's thread, and the driver-wide files "info" and "global".
 *
 * The module creates the mount point; like binfmt_misc's, it is mounted
 * by user space: mount -t perfctr none /proc/perfctr. It cannot see the
 * options of the caller's /proc, so it takes procfs's hidepid= itself.
 */
#include <linux/cred.h>
#include <linux/fs.h>
#include <linux/fs_context.h>
#include <linux/fs_parser.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/namei.h>
#include <linux/pid.h>
#include <linux/proc_fs.h>
#include <linux/sched.h>
#include <linux/sched/task.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>

#include <perfctr/compat.h>
#include "internal.h"

#define PERFCTR_FS_MAGIC	0x70637472	/* "pctr" */

static struct proc_dir_entry *mount_point;

/*
 * hidepid=, with procfs's values and names (Documentation/perfctr/
 * virtual.rst): who may see a thread the caller may not read.
 */
enum pfs_hidepid { PFS_HIDEPID_OFF, PFS_HIDEPID_NOACCESS, PFS_HIDEPID_INVISIBLE };

static const char *const pfs_hidepid_names[] = { "off", "noaccess", "invisible" };

/* The superblock's options (s_fs_info), and a mount's (fs_private). */
struct pfs_options {
	int hidepid;
	bool hidepid_set;	/* a mount's: given, so it changes the sb's */
};

struct pfs_entry {
	const char *name;
	umode_t mode;
	const struct file_operations *fops;
};

static const struct pfs_entry tid_files[] = {
	{ "control", S_IFREG | 0600, &vperfctr_control_fops },
	{ "sums", S_IFREG | 0400, &vperfctr_sums_fops },
	{ "state", S_IFREG | 0400, &vperfctr_state_fops },
	{ "command", S_IFREG | 0200, &vperfctr_command_fops },
	{ "status", S_IFREG | 0400, &vperfctr_status_fops },
	{ "children", S_IFREG | 0400, &vperfctr_children_fops },
	{ "tree", S_IFREG | 0400, &vperfctr_tree_fops },
	{ "ibs", S_IFREG | 0600, &vperfctr_ibs_fops },
	{ "ibs_ring", S_IFREG | 0600, &vperfctr_ibs_ring_fops },
};

static const struct pfs_entry root_files[] = {
	{ "info", S_IFREG | 0444, &perfctr_info_fops },
	/* Anyone may try: the files check CAP_PERFMON themselves. */
	{ "global", S_IFREG | 0666, &perfctr_global_fops },
	{ "reclaim", S_IFREG | 0222, &perfctr_reclaim_fops },
	{ "self", S_IFLNK | 0777, NULL },
};

static const struct inode_operations pfs_self_iops;
static const struct inode_operations pfs_tid_iops;
static const struct file_operations pfs_tid_fops;

static struct inode *pfs_new_inode(struct super_block *sb, umode_t mode)
{
	struct inode *inode = new_inode(sb);

	if (!inode)
		return NULL;
	inode->i_ino = get_next_ino();
	inode->i_mode = mode;
	perfctr_inode_init_times(inode);
	return inode;
}

/* A thread's files belong to it, as /proc/<pid>/ does. */
static void pfs_set_owner(struct inode *inode, struct task_struct *task)
{
	const struct cred *cred = get_task_cred(task);

	inode->i_uid = cred->euid;
	inode->i_gid = cred->egid;
	put_cred(cred);
}

/* An inode of thread @pid's; it holds a reference to @pid. */
static struct inode *pfs_pid_inode(struct super_block *sb, umode_t mode,
				   struct pid *pid)
{
	struct task_struct *task = get_pid_task(pid, PIDTYPE_PID);
	struct inode *inode;

	if (!task)
		return ERR_PTR(-ENOENT);
	inode = pfs_new_inode(sb, mode);
	if (inode) {
		pfs_set_owner(inode, task);
		inode->i_private = get_pid(pid);
	}
	put_task_struct(task);
	return inode ?: ERR_PTR(-ENOMEM);
}

static struct dentry *pfs_add(struct dentry *dentry, struct inode *inode)
{
	if (IS_ERR(inode))
		return ERR_CAST(inode);
	d_add(dentry, inode);
	return NULL;
}

static const struct pfs_entry *pfs_find(const struct pfs_entry *e, size_t n,
					const struct dentry *dentry)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(e[i].name, dentry->d_name.name))
			return &e[i];
	return NULL;
}

static struct pid *pfs_name_to_pid(const struct qstr *name)
{
	unsigned int nr;

	/* As /proc: plain decimal, no sign, no leading zero. */
	if (name->name[0] < '1' || name->name[0] > '9' ||
	    kstrtouint(name->name, 10, &nr) || nr > PID_MAX_LIMIT)
		return NULL;
	return find_get_pid(nr);	/* the caller's pid namespace */
}

/*
 * May the caller see thread @pid's directory (@files false), or the
 * files in it? With hidepid=, only if it may read the thread's counters
 * (perfctr_may_read_task(), the rule of the files themselves): else
 * -ENOENT (invisible: neither), or -EACCES (noaccess: not the files).
 */
static int pfs_hidden(struct super_block *sb, struct pid *pid, bool files)
{
	const struct pfs_options *o = sb->s_fs_info;
	int hide = READ_ONCE(o->hidepid);
	struct task_struct *task;
	bool may;

	if (hide == PFS_HIDEPID_OFF || (hide == PFS_HIDEPID_NOACCESS && !files))
		return 0;
	task = get_pid_task(pid, PIDTYPE_PID);
	if (!task)
		return -ENOENT;
	may = perfctr_may_read_task(task);
	put_task_struct(task);
	if (may)
		return 0;
	return hide == PFS_HIDEPID_INVISIBLE ? -ENOENT : -EACCES;
}

static struct dentry *pfs_tid_dir(struct dentry *dentry)
{
	struct pid *pid = pfs_name_to_pid(&dentry->d_name);
	struct inode *inode;
	int err;

	if (!pid)
		return ERR_PTR(-ENOENT);
	err = pfs_hidden(dentry->d_sb, pid, false);
	if (err) {
		put_pid(pid);
		return ERR_PTR(err);
	}
	inode = pfs_pid_inode(dentry->d_sb, S_IFDIR | 0555, pid);
	put_pid(pid);
	if (!IS_ERR(inode)) {
		inode->i_op = &pfs_tid_iops;
		inode->i_fop = &pfs_tid_fops;
		set_nlink(inode, 2);
	}
	return pfs_add(dentry, inode);
}

static struct dentry *pfs_root_lookup(struct inode *dir, struct dentry *dentry,
				      unsigned int flags)
{
	const struct pfs_entry *e;
	struct inode *inode;

	e = pfs_find(root_files, ARRAY_SIZE(root_files), dentry);
	if (!e)
		return pfs_tid_dir(dentry);
	inode = pfs_new_inode(dir->i_sb, e->mode);
	if (!inode)
		return ERR_PTR(-ENOMEM);
	if (e->fops)
		inode->i_fop = e->fops;
	else
		inode->i_op = &pfs_self_iops;
	return pfs_add(dentry, inode);
}

static struct dentry *pfs_tid_lookup(struct inode *dir, struct dentry *dentry,
				     unsigned int flags)
{
	const struct pfs_entry *e;
	struct inode *inode;
	int err;

	e = pfs_find(tid_files, ARRAY_SIZE(tid_files), dentry);
	if (!e)
		return ERR_PTR(-ENOENT);
	err = pfs_hidden(dir->i_sb, dir->i_private, true);
	if (err)
		return ERR_PTR(err);
	inode = pfs_pid_inode(dir->i_sb, e->mode, dir->i_private);
	if (!IS_ERR(inode))
		inode->i_fop = e->fops;
	return pfs_add(dentry, inode);
}

static bool pfs_emit(struct dir_context *ctx, const struct pfs_entry *e,
		     size_t n)
{
	while (ctx->pos - 2 < n) {
		const struct pfs_entry *f = &e[ctx->pos - 2];

		/* Any non-zero inode number: readdir() skips zero. */
		if (!dir_emit(ctx, f->name, strlen(f->name), ctx->pos,
			      f->mode >> 12))
			return false;
		ctx->pos++;
	}
	return true;
}

/* The root lists its own files; threads are found by name, as in /proc. */
static int pfs_root_readdir(struct file *file, struct dir_context *ctx)
{
	if (dir_emit_dots(file, ctx))
		pfs_emit(ctx, root_files, ARRAY_SIZE(root_files));
	return 0;
}

static int pfs_tid_readdir(struct file *file, struct dir_context *ctx)
{
	if (dir_emit_dots(file, ctx))
		pfs_emit(ctx, tid_files, ARRAY_SIZE(tid_files));
	return 0;
}

static const char *pfs_self_get_link(struct dentry *dentry, struct inode *inode,
				     struct delayed_call *done)
{
	pid_t tid = task_pid_vnr(current);
	char *name;

	if (!dentry)
		return ERR_PTR(-ECHILD);
	if (!tid)
		return ERR_PTR(-ENOENT);	/* invisible in this namespace */
	name = kasprintf(GFP_KERNEL, "%d", tid);
	if (!name)
		return ERR_PTR(-ENOMEM);
	set_delayed_call(done, kfree_link, name);
	return name;
}

/*
 * A cached <tid> dentry is valid only while its thread lives and the name
 * means the same thread in the caller's namespace. Its owner follows the
 * thread's ids, as in /proc, so the mode bits judge by today's. Dentries
 * are shared: one the caller may not see (hidepid=) is looked up again,
 * which gives it the error.
 */
static int pfs_d_revalidate(D_REVALIDATE_PARAMS)
{
	struct task_struct *task;
	struct inode *inode;
	struct pid *pid, *now;

	if (flags & LOOKUP_RCU)
		return -ECHILD;
	inode = d_inode(dentry);
	if (!inode || !inode->i_private)
		return 1;
	pid = inode->i_private;
	task = get_pid_task(pid, PIDTYPE_PID);
	if (!task)
		return 0;
	pfs_set_owner(inode, task);
	put_task_struct(task);
	if (pfs_hidden(dentry->d_sb, pid, !S_ISDIR(inode->i_mode)))
		return 0;
	if (!S_ISDIR(inode->i_mode))
		return 1;
	now = pfs_name_to_pid(&dentry->d_name);
	put_pid(now);	/* only the address is compared */
	return now == pid;
}

static const struct dentry_operations pfs_dops = {
	.d_revalidate = pfs_d_revalidate,
	.d_delete = always_delete_dentry,
};

static const struct inode_operations pfs_root_iops = {
	.lookup = pfs_root_lookup,
};

static const struct file_operations pfs_root_fops = {
	.read = generic_read_dir,
	.iterate_shared = pfs_root_readdir,
	.llseek = generic_file_llseek,
};

static const struct inode_operations pfs_tid_iops = {
	.lookup = pfs_tid_lookup,
};

static const struct file_operations pfs_tid_fops = {
	.read = generic_read_dir,
	.iterate_shared = pfs_tid_readdir,
	.llseek = generic_file_llseek,
};

static const struct inode_operations pfs_self_iops = {
	.get_link = pfs_self_get_link,
};

static void pfs_evict_inode(struct inode *inode)
{
	truncate_inode_pages_final(&inode->i_data);
	clear_inode(inode);
	put_pid(inode->i_private);	/* NULL for the root's own files */
}

static int pfs_show_options(struct seq_file *m, struct dentry *root)
{
	const struct pfs_options *o = root->d_sb->s_fs_info;
	int hide = READ_ONCE(o->hidepid);

	if (hide != PFS_HIDEPID_OFF)
		seq_printf(m, ",hidepid=%s", pfs_hidepid_names[hide]);
	return 0;
}

static const struct super_operations pfs_sops = {
	.statfs = simple_statfs,
	.show_options = pfs_show_options,
	.drop_inode = inode_just_drop,
	.evict_inode = pfs_evict_inode,
};

static int pfs_fill_super(struct super_block *sb, struct fs_context *fc)
{
	struct pfs_options *o;
	struct inode *root;

	o = kzalloc(sizeof(*o), GFP_KERNEL);
	if (!o)
		return -ENOMEM;
	sb->s_fs_info = o;	/* hidepid=off until pfs_get_tree() */
	sb->s_magic = PERFCTR_FS_MAGIC;
	sb->s_op = &pfs_sops;
	set_default_d_op(sb, &pfs_dops);
	sb->s_time_gran = 1;
	sb->s_iflags |= SB_I_NOEXEC | SB_I_NODEV;
	root = pfs_new_inode(sb, S_IFDIR | 0555);
	if (!root)
		return -ENOMEM;
	root->i_op = &pfs_root_iops;
	root->i_fop = &pfs_root_fops;
	set_nlink(root, 2);
	sb->s_root = d_make_root(root);
	return sb->s_root ? 0 : -ENOMEM;
}

/* hidepid=: 0, 1, 2 or off, noaccess, invisible, as procfs takes it. */
static int pfs_parse_param(struct fs_context *fc, struct fs_parameter *param)
{
	struct pfs_options *o = fc->fs_private;
	unsigned int i;

	if (strcmp(param->key, "hidepid"))
		return -ENOPARAM;	/* "source" and the rest: the VFS's */
	if (param->type != fs_value_is_string)
		return invalfc(fc, "hidepid needs a value");
	for (i = 0; i < ARRAY_SIZE(pfs_hidepid_names); i++) {
		if (!strcmp(param->string, pfs_hidepid_names[i]) ||
		    (param->string[0] == '0' + i && !param->string[1])) {
			o->hidepid = i;
			o->hidepid_set = true;
			return 0;
		}
	}
	return invalfc(fc, "unknown hidepid value: %s", param->string);
}

/*
 * One superblock serves every mount: an option given to any mount, or a
 * remount, applies to all of them; one not given keeps its value.
 */
static int pfs_reconfigure(struct fs_context *fc)
{
	const struct pfs_options *o = fc->fs_private;
	struct pfs_options *sbo = fc->root->d_sb->s_fs_info;

	if (o->hidepid_set)
		WRITE_ONCE(sbo->hidepid, o->hidepid);
	return 0;
}

static int pfs_get_tree(struct fs_context *fc)
{
	int err = get_tree_single(fc, pfs_fill_super);

	return err ?: pfs_reconfigure(fc);
}

static void pfs_free_fc(struct fs_context *fc)
{
	kfree(fc->fs_private);
}

static const struct fs_context_operations pfs_context_ops = {
	.parse_param = pfs_parse_param,
	.get_tree = pfs_get_tree,
	.reconfigure = pfs_reconfigure,
	.free = pfs_free_fc,
};

static int pfs_init_fs_context(struct fs_context *fc)
{
	struct pfs_options *o = kzalloc(sizeof(*o), GFP_KERNEL);

	if (!o)
		return -ENOMEM;
	fc->fs_private = o;
	fc->ops = &pfs_context_ops;
	return 0;
}

static void pfs_kill_sb(struct super_block *sb)
{
	void *o = sb->s_fs_info;

	kill_anon_super(sb);
	kfree(o);
}

static struct file_system_type pfs_type = {
	.owner = THIS_MODULE,
	.name = "perfctr",
	.init_fs_context = pfs_init_fs_context,
	.kill_sb = pfs_kill_sb,
};

int perfctr_fs_init(void)
{
	int err;

	mount_point = proc_create_mount_point("perfctr");
	if (!mount_point)
		return -ENOMEM;
	err = register_filesystem(&pfs_type);
	if (err)
		proc_remove(mount_point);
	return err;
}

/* Only reached unmounted: a mounted file system pins the module. */
void perfctr_fs_exit(void)
{
	unregister_filesystem(&pfs_type);
	proc_remove(mount_point);
}
