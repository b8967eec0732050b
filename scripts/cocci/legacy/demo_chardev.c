// SPDX-License-Identifier: GPL-2.0
/*
 * DELIBERATELY LEGACY copy of the driver in drivers/demo_chardev/, the input
 * of the legacy-demo conversion check: its aio side is written the Linux
 * 2.6.18 way, single-buffer aio_read(kiocb, char __user *, size_t, loff_t)
 * and aio_write methods that move ki_pos themselves (do_sync_read() takes
 * the new f_pos from it, a retried aio request resumes there), readv/writev
 * over an iovec array and .read/.write = do_sync_read/do_sync_write, the
 * file_operations of a 2.6.18 filesystem. Like mm/filemap.c of that time
 * there is one iovec-based data path (demo_chardev_rw()): the aio methods
 * wrap their buffer in a one-element iovec, readv/writev pass the array, so
 * a vectored request is atomic there too. Everything else uses today's
 * APIs. It builds on no kernel of the matrix as it is (none has those
 * methods or do_sync_read()); scripts/convert --mode compat turns the aio
 * methods into per-segment functions of compat/aio_compat.h.
 *
 * What the conversion cannot give back, because a 2.6.18 method only ever
 * saw one buffer: each segment of a vectored request becomes a call of the
 * old method, so it is throttled, locked and counted (as a BUF request) on
 * its own; RWF_NOWAIT stays refused (no FMODE_NOWAIT; 2.6.18 had none).
 *
 * demo_chardev - a misc character device over a RAM store, read(2)/write(2),
 * readv(2)/writev(2) and io_submit() of single buffers.
 *
 * Semantics:
 * - The store is size_kb KiB of zeroed memory. A request at position pos
 *   moves bytes [pos, pos + count) clipped to the store: reads at or past
 *   the end return 0, reads across it return short; writes across the end
 *   return short, writes at or past it fail with -ENOSPC.
 * - read/write/readv/writev move f_pos; aio requests use the iocb's offset
 *   and never move f_pos.
 * - Each request is atomic against the others: it holds dev->lock (shared
 *   for reads, exclusive for writes) from its first byte to its last.
 * - Blocking: a request would block when its file is throttled
 *   (DEMO_CHARDEV_IOC_SET_THROTTLE: each request sleeps before it takes the
 *   lock) or when a conflicting request holds dev->lock. On an O_NONBLOCK
 *   file it returns -EAGAIN there, having moved nothing. A signal during
 *   that sleep returns -ERESTARTSYS; a signal between segments ends the
 *   request with the bytes already done (partial progress).
 * - Faults: the bytes done before the first fault, else -EFAULT.
 *
 * Built twice from this file: demo_chardev.ko (the aio methods) and, with
 * DEMO_CHARDEV_LEGACY, demo_chardev_legacy.ko (only ->read/->write).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/aio.h>
#include <linux/atomic.h>
#include <linux/delay.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/rwsem.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <linux/uio.h>
#include <linux/vmalloc.h>
#include <irqaio/demo_chardev.h>

#ifdef DEMO_CHARDEV_LEGACY
#define DRV_NAME	DEMO_CHARDEV_LEGACY_NAME
#define DRV_METHODS	"->read/->write only"
#else
#define DRV_NAME	DEMO_CHARDEV_NAME
#define DRV_METHODS	"aio methods"
#endif

#define DEMO_CHARDEV_MAX_SIZE_KB	(64 * 1024)
#define DEMO_CHARDEV_MAX_THROTTLE_MS	10000

static unsigned int size_kb = 256;
module_param(size_kb, uint, 0444);
MODULE_PARM_DESC(size_kb, "size of the RAM store in KiB (1-65536, default 256)");

struct demo_chardev {
	struct miscdevice misc;
	/*
	 * lock protects the contents of data[]: held shared by a read and
	 * exclusive by a write for the whole request, so requests are atomic
	 * against each other. Never taken in the fault path (no mmap), so
	 * copy_{to,from}_user() under it cannot invert with mmap_lock.
	 */
	struct rw_semaphore lock;
	u8 *data;
	size_t size;		/* set at load, then constant */
	/* Statistics; atomics, no lock. */
	atomic64_t requests[DEMO_CHARDEV_NR_PATHS];
	atomic64_t segments;
	atomic64_t eagain;
	atomic64_t interrupted;
	atomic64_t slept;
};

/* Per open file. */
struct demo_chardev_file {
	struct demo_chardev *dev;
	unsigned int throttle_ms;	/* READ_ONCE/WRITE_ONCE: set by ioctl */
};

static struct demo_chardev demo_chardev_dev;

/* One user segment: the only place data moves. */
static ssize_t demo_chardev_seg(struct demo_chardev *dev, void __user *ubuf,
				size_t len, loff_t pos, bool write)
{
	unsigned long left;
	size_t n;

	if (pos >= dev->size)
		return write ? -ENOSPC : 0;
	atomic64_inc(&dev->segments);
	n = min_t(size_t, len, dev->size - pos);
	if (write) {
		/*
		 * copy_from_user() zero-fills what it could not copy, which
		 * would wipe stored bytes past a fault: copy without that, so
		 * a faulting write changes only the bytes it reports written.
		 */
		if (!access_ok(ubuf, n))
			return -EFAULT;
		left = __copy_from_user(dev->data + pos, ubuf, n);
	} else {
		left = copy_to_user(ubuf, dev->data + pos, n);
	}
	if (left == n)
		return -EFAULT;
	return n - left;
}

/*
 * Take dev->lock for a request: on an O_NONBLOCK file a request gets
 * -EAGAIN when a conflicting request holds it; others wait (killable).
 */
static int demo_chardev_lock(struct demo_chardev *dev, struct file *filp,
			     bool write)
{
	if (filp->f_flags & O_NONBLOCK) {
		if (write ? down_write_trylock(&dev->lock) :
			    down_read_trylock(&dev->lock))
			return 0;
		atomic64_inc(&dev->eagain);
		return -EAGAIN;
	}
	if (write)
		return down_write_killable(&dev->lock) ? -EINTR : 0;
	return down_read_killable(&dev->lock) ? -EINTR : 0;
}

/*
 * One request over an array of user segments (one for the single-buffer
 * methods): throttle, lock, copy each segment. @path says which method it
 * came through, for the statistics.
 */
static ssize_t demo_chardev_rw(struct file *filp, const struct iovec *iov,
			       unsigned long nr_segs, loff_t pos, bool write,
			       enum demo_chardev_path path)
{
	struct demo_chardev_file *df = filp->private_data;
	struct demo_chardev *dev = df->dev;
	unsigned int throttle_ms = READ_ONCE(df->throttle_ms);
	ssize_t done = 0, n = 0;
	unsigned long k;
	int err;

	atomic64_inc(&dev->requests[path]);
	if (throttle_ms) {
		if (filp->f_flags & O_NONBLOCK) {
			atomic64_inc(&dev->eagain);
			return -EAGAIN;
		}
		if (msleep_interruptible(throttle_ms)) {
			atomic64_inc(&dev->interrupted);
			return -ERESTARTSYS;
		}
		atomic64_inc(&dev->slept);
	}

	err = demo_chardev_lock(dev, filp, write);
	if (err)
		return err;
	for (k = 0; k < nr_segs; k++) {
		size_t len = iov[k].iov_len;

		if (!len)
			continue;
		/* Between segments: give up with what is done, as mem.c does. */
		if (done && signal_pending(current)) {
			atomic64_inc(&dev->interrupted);
			break;
		}
		n = demo_chardev_seg(dev, iov[k].iov_base, len, pos + done,
				     write);
		if (n <= 0)
			break;
		done += n;
		if (n < len)
			break;
	}
	if (write)
		up_write(&dev->lock);
	else
		up_read(&dev->lock);
	return done ? done : n;
}

#ifdef DEMO_CHARDEV_LEGACY
static ssize_t demo_chardev_read(struct file *file, char __user *buf,
				 size_t len, loff_t *ppos)
{
	struct iovec iov = { .iov_base = buf, .iov_len = len };
	ssize_t ret;

	ret = demo_chardev_rw(file, &iov, 1, *ppos, false,
			      DEMO_CHARDEV_PATH_BUF);
	if (ret > 0)
		*ppos += ret;
	return ret;
}

static ssize_t demo_chardev_write(struct file *file, const char __user *buf,
				  size_t len, loff_t *ppos)
{
	/* A data pointer cast: the data path only copies from it. */
	struct iovec iov = { .iov_base = (void __user *)buf, .iov_len = len };
	ssize_t ret;

	ret = demo_chardev_rw(file, &iov, 1, *ppos, true,
			      DEMO_CHARDEV_PATH_BUF);
	if (ret > 0)
		*ppos += ret;
	return ret;
}
#else
/*
 * Linux 2.6.18 aio: one buffer per call, from io_submit() and, through
 * do_sync_read(), from read(2); wrapped in a one-element iovec as
 * generic_file_aio_read() did.
 */
static ssize_t demo_chardev_aio_read(struct kiocb *iocb, char __user *buf,
				     size_t count, loff_t pos)
{
	struct iovec iov = { .iov_base = buf, .iov_len = count };
	ssize_t ret;

	ret = demo_chardev_rw(iocb->ki_filp, &iov, 1, pos, false,
			      DEMO_CHARDEV_PATH_BUF);
	if (ret > 0)
		iocb->ki_pos = pos + ret;
	return ret;
}

/* The cast drops const from a data pointer, as generic_file_aio_write() did. */
static ssize_t demo_chardev_aio_write(struct kiocb *iocb,
				      const char __user *buf, size_t count,
				      loff_t pos)
{
	struct iovec iov = { .iov_base = (void __user *)buf, .iov_len = count };
	ssize_t ret;

	ret = demo_chardev_rw(iocb->ki_filp, &iov, 1, pos, true,
			      DEMO_CHARDEV_PATH_BUF);
	if (ret > 0)
		iocb->ki_pos = pos + ret;
	return ret;
}

/*
 * readv(2)/writev(2): the whole array as one request, so it is atomic;
 * without these the VFS would call ->read once per segment. The VFS has
 * checked the array (rw_copy_check_uvector()).
 */
static ssize_t demo_chardev_readv(struct file *filp, const struct iovec *iov,
				  unsigned long nr_segs, loff_t *ppos)
{
	ssize_t ret;

	ret = demo_chardev_rw(filp, iov, nr_segs, *ppos, false,
			      DEMO_CHARDEV_PATH_IOVEC);
	if (ret > 0)
		*ppos += ret;
	return ret;
}

static ssize_t demo_chardev_writev(struct file *filp, const struct iovec *iov,
				   unsigned long nr_segs, loff_t *ppos)
{
	ssize_t ret;

	ret = demo_chardev_rw(filp, iov, nr_segs, *ppos, true,
			      DEMO_CHARDEV_PATH_IOVEC);
	if (ret > 0)
		*ppos += ret;
	return ret;
}
#endif

static int demo_chardev_open(struct inode *inode, struct file *file)
{
	struct demo_chardev_file *df;

	df = kzalloc(sizeof(*df), GFP_KERNEL);
	if (!df)
		return -ENOMEM;
	df->dev = container_of(file->private_data, struct demo_chardev, misc);
	file->private_data = df;
	return 0;
}

static int demo_chardev_release(struct inode *inode, struct file *file)
{
	kfree(file->private_data);
	return 0;
}

static loff_t demo_chardev_llseek(struct file *file, loff_t offset, int whence)
{
	struct demo_chardev_file *df = file->private_data;

	return fixed_size_llseek(file, offset, whence, df->dev->size);
}

static long demo_chardev_ioctl(struct file *file, unsigned int cmd,
			       unsigned long arg)
{
	struct demo_chardev_file *df = file->private_data;
	struct demo_chardev *dev = df->dev;
	void __user *argp = (void __user *)arg;
	struct demo_chardev_stats st = {};
	u32 ms;
	int i;

	switch (cmd) {
	case DEMO_CHARDEV_IOC_GET_SIZE:
		return put_user((u64)dev->size, (u64 __user *)argp);
	case DEMO_CHARDEV_IOC_SET_THROTTLE:
		if (get_user(ms, (u32 __user *)argp))
			return -EFAULT;
		if (ms > DEMO_CHARDEV_MAX_THROTTLE_MS)
			return -EINVAL;
		WRITE_ONCE(df->throttle_ms, ms);
		return 0;
	case DEMO_CHARDEV_IOC_GET_STATS:
		for (i = 0; i < DEMO_CHARDEV_NR_PATHS; i++)
			st.requests[i] = atomic64_read(&dev->requests[i]);
		st.segments = atomic64_read(&dev->segments);
		st.eagain = atomic64_read(&dev->eagain);
		st.interrupted = atomic64_read(&dev->interrupted);
		st.slept = atomic64_read(&dev->slept);
		return copy_to_user(argp, &st, sizeof(st)) ? -EFAULT : 0;
	default:
		return -ENOTTY;
	}
}

static const struct file_operations demo_chardev_fops = {
	.owner = THIS_MODULE,
	.open = demo_chardev_open,
	.release = demo_chardev_release,
	.llseek = demo_chardev_llseek,
	/* aio branch first: Coccinelle reads only the first one in here */
#ifndef DEMO_CHARDEV_LEGACY
	.read = do_sync_read,
	.aio_read = demo_chardev_aio_read,
	.readv = demo_chardev_readv,
	.write = do_sync_write,
	.aio_write = demo_chardev_aio_write,
	.writev = demo_chardev_writev,
#else
	.read = demo_chardev_read,
	.write = demo_chardev_write,
#endif
	.unlocked_ioctl = demo_chardev_ioctl,
	.compat_ioctl = compat_ptr_ioctl,
};

static int __init demo_chardev_init(void)
{
	struct demo_chardev *dev = &demo_chardev_dev;
	int ret;

	if (!size_kb || size_kb > DEMO_CHARDEV_MAX_SIZE_KB) {
		pr_err("size_kb=%u out of range 1-%u\n", size_kb,
		       DEMO_CHARDEV_MAX_SIZE_KB);
		return -EINVAL;
	}
	dev->size = (size_t)size_kb * 1024;
	dev->data = vzalloc(dev->size);
	if (!dev->data)
		return -ENOMEM;
	init_rwsem(&dev->lock);

	dev->misc.minor = MISC_DYNAMIC_MINOR;
	dev->misc.name = DRV_NAME;
	dev->misc.fops = &demo_chardev_fops;
	dev->misc.mode = 0666;
	ret = misc_register(&dev->misc);
	if (ret)
		goto err_free_data;

	pr_info("/dev/%s: %zu bytes, %s\n", DRV_NAME, dev->size, DRV_METHODS);
	return 0;

err_free_data:
	vfree(dev->data);
	return ret;
}

static void __exit demo_chardev_exit(void)
{
	struct demo_chardev *dev = &demo_chardev_dev;

	misc_deregister(&dev->misc);
	vfree(dev->data);
}

module_init(demo_chardev_init);
module_exit(demo_chardev_exit);

MODULE_DESCRIPTION("Demo misc device: one data path for read, readv and io_submit");
MODULE_LICENSE("GPL");
