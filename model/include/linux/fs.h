/* SPDX-License-Identifier: GPL-2.0 */
/*
 * MODEL, not a kernel: struct file and the I/O methods of file_operations
 * before and after Linux 2.6.19 (commits 027445c37282 and ee0b3e671baf), as
 * the world's <linux/version.h> selects, and from 3.16 ->read_iter/
 * ->write_iter beside them (the iov_iter itself: the world's <linux/uio.h>);
 * the splice methods and helpers a driver's file_operations may name.
 */
#ifndef MODEL_LINUX_FS_H
#define MODEL_LINUX_FS_H
#include <linux/kernel.h>
#include <linux/types.h>
#include <linux/uio.h>

#define O_NONBLOCK	00004000

struct kiocb;
struct file;
struct iov_iter;
struct pipe_inode_info;

struct file_operations {
	loff_t (*llseek)(struct file *, loff_t, int);
	ssize_t (*read)(struct file *, char __user *, size_t, loff_t *);
	ssize_t (*write)(struct file *, const char __user *, size_t, loff_t *);
#if LINUX_VERSION_CODE < KERNEL_VERSION(2, 6, 19)
	/* Linux 2.6.18: one buffer per aio request. */
	ssize_t (*aio_read)(struct kiocb *, char __user *, size_t, loff_t);
	ssize_t (*aio_write)(struct kiocb *, const char __user *, size_t, loff_t);
	ssize_t (*readv)(struct file *, const struct iovec *, unsigned long, loff_t *);
	ssize_t (*writev)(struct file *, const struct iovec *, unsigned long, loff_t *);
#else
	/* Linux 2.6.19: vectored aio methods; readv/writev are gone. */
	ssize_t (*aio_read)(struct kiocb *, const struct iovec *, unsigned long, loff_t);
	ssize_t (*aio_write)(struct kiocb *, const struct iovec *, unsigned long, loff_t);
#endif
#if LINUX_VERSION_CODE >= KERNEL_VERSION(3, 16, 0)
	/* Linux 3.16: commit 293bc9822fa9; aio_read stays until 4.1. */
	ssize_t (*read_iter)(struct kiocb *, struct iov_iter *);
	ssize_t (*write_iter)(struct kiocb *, struct iov_iter *);
#endif
	/* Linux 2.6.17: splice. */
	ssize_t (*splice_write)(struct pipe_inode_info *, struct file *,
				loff_t *, size_t, unsigned int);
	ssize_t (*splice_read)(struct file *, loff_t *,
			       struct pipe_inode_info *, size_t, unsigned int);
};

/*
 * Through the page cache, which a device has not, until ITER_PIPE (4.9)
 * made it a ->read_iter call; the shim takes it only then.
 */
ssize_t generic_file_splice_read(struct file *, loff_t *,
				 struct pipe_inode_info *, size_t, unsigned int);
#if LINUX_VERSION_CODE >= KERNEL_VERSION(3, 16, 0)
/* Linux 3.16: commit 8d0207652cbe, the pipe's pages to ->write_iter. */
ssize_t iter_file_splice_write(struct pipe_inode_info *, struct file *,
			       loff_t *, size_t, unsigned int);
#endif

struct file {
	const struct file_operations *f_op;
	unsigned int f_flags;
	loff_t f_pos;
	void *private_data;
};
#endif
