// SPDX-License-Identifier: GPL-2.0
/*
 * demo_chardev - a misc character device over a RAM store, with one data
 * path for read(2)/write(2), readv(2)/writev(2), io_submit() and io_uring
 * (registered buffers included), splice, sendfile and kernel_read()/
 * kernel_write(), whatever shape the kernel hands the request in: the data
 * moves with compat/aio_compat.h's copy API (copy_to_iter()/copy_from_iter()
 * where the tree has iov_iter), never with the request's internals.
 *
 * Semantics:
 * - The store is size_kb KiB of zeroed memory. A request at position pos
 *   moves bytes [pos, pos + count) clipped to the store: reads at or past
 *   the end return 0, reads across it return short; writes across the end
 *   return short, writes at or past it fail with -ENOSPC.
 * - read/write move f_pos; aio requests use the iocb's offset (ki_pos) and
 *   never move f_pos (fs/aio.c does not write ki_pos back).
 * - Each request is atomic against the others: it holds dev->lock (shared
 *   for reads, exclusive for writes) from its first byte to its last.
 * - Blocking: a request would block when its file is throttled
 *   (DEMO_CHARDEV_IOC_SET_THROTTLE: each request sleeps before it takes the
 *   lock) or when a conflicting request holds dev->lock. A request that may
 *   not block (O_NONBLOCK file, RWF_NOWAIT/IOCB_NOWAIT request) returns
 *   -EAGAIN there, having moved nothing. A signal during that sleep returns
 *   -ERESTARTSYS; a signal between two chunks of DEMO_CHARDEV_CHUNK bytes
 *   ends the request with the bytes already done (partial progress), like
 *   drivers/char/mem.c.
 * - Faults (and a full pipe): the bytes done before the first fault, else
 *   -EFAULT. A faulting write changes only the bytes it reports.
 * - splice(2)/sendfile(2) from the device through the tree's read_iter
 *   splice helper, to it through iter_file_splice_write(); both as reads
 *   and writes at the file position.
 *
 * Built twice from this file: demo_chardev.ko (aio methods through the
 * helper) and, with DEMO_CHARDEV_LEGACY, demo_chardev_legacy.ko (only
 * ->read/->write, routed through the same handler as a single buffer).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/build_bug.h>
#include <linux/delay.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/rwsem.h>
#include <linux/sched/signal.h>
#include <linux/sizes.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <linux/vmalloc.h>
#include <aio_compat.h>
#include <irqaio/demo_chardev.h>

#ifdef DEMO_CHARDEV_LEGACY
#define DRV_NAME	DEMO_CHARDEV_LEGACY_NAME
#define DRV_METHODS	"->read/->write only"
#else
#define DRV_NAME	DEMO_CHARDEV_NAME
#define DRV_METHODS	"aio methods through aio_compat"
#endif

#define DEMO_CHARDEV_MAX_THROTTLE_MS	10000

static unsigned int size_kb = 256;
module_param(size_kb, uint, 0444);
MODULE_PARM_DESC(size_kb, "size of the RAM store in KiB (1-65536, default 256)");

/* The request shapes the helper reports are the paths the UAPI counts. */
static_assert((int)AIO_COMPAT_SHAPE_BUF == DEMO_CHARDEV_PATH_BUF);
static_assert((int)AIO_COMPAT_SHAPE_IOVEC == DEMO_CHARDEV_PATH_IOVEC);
static_assert((int)AIO_COMPAT_SHAPE_UBUF == DEMO_CHARDEV_PATH_UBUF);
static_assert((int)AIO_COMPAT_SHAPE_OTHER == DEMO_CHARDEV_PATH_OTHER);
static_assert((int)AIO_COMPAT_SHAPE_KVEC == DEMO_CHARDEV_PATH_KVEC);
static_assert((int)AIO_COMPAT_SHAPE_BVEC == DEMO_CHARDEV_PATH_BVEC);
static_assert((int)AIO_COMPAT_SHAPE_PIPE == DEMO_CHARDEV_PATH_PIPE);
static_assert((int)AIO_COMPAT_SHAPE_XARRAY == DEMO_CHARDEV_PATH_XARRAY);
static_assert((int)AIO_COMPAT_SHAPE_FOLIOQ == DEMO_CHARDEV_PATH_FOLIOQ);
static_assert((int)AIO_COMPAT_SHAPE_DISCARD == DEMO_CHARDEV_PATH_DISCARD);
static_assert((int)AIO_COMPAT_NR_SHAPES == DEMO_CHARDEV_NR_PATHS);

struct demo_chardev {
	struct miscdevice misc;
	/*
	 * lock protects the contents of data[]: held shared by a read and
	 * exclusive by a write for the whole request, so requests are atomic
	 * against each other. Never taken in the fault path (no mmap), so
	 * the user copies under it cannot invert with mmap_lock.
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

/*
 * Move the request's bytes: the only place data moves. Called with
 * dev->lock held; the copy API serves every shape of request. The store is
 * one virtually contiguous buffer, so the request moves in as few copy
 * calls as the chunk size allows: each call pays its fixed costs once (on
 * iov_iter trees copy_to_iter()'s hardened-usercopy check of the vmalloc
 * area and its walk set-up), whatever the request's segments.
 */
static ssize_t demo_chardev_copy(struct demo_chardev *dev,
				 struct aio_compat_req *req)
{
	size_t len, done = 0;

	if (!req->count)
		return 0;
	if (req->pos >= dev->size)
		return req->write ? -ENOSPC : 0;
	len = min_t(size_t, req->count, dev->size - req->pos);
	for (;;) {
		size_t want = min_t(size_t, len - done, DEMO_CHARDEV_CHUNK);
		u8 *p = dev->data + req->pos + done;
		size_t n;

		atomic64_inc(&dev->segments);
		if (req->write)
			n = aio_compat_copy_from_req(req, p, want);
		else
			n = aio_compat_copy_to_req(req, p, want);
		done += n;
		if (n < want || done == len)
			break;
		cond_resched();
		/* Between chunks: give up with what is done, as mem.c does. */
		if (signal_pending(current)) {
			atomic64_inc(&dev->interrupted);
			break;
		}
	}
	return done ? done : -EFAULT;
}

/*
 * Take dev->lock for a request: a request that may not block gets -EAGAIN
 * when a conflicting request holds it; others wait (killable).
 */
static int demo_chardev_lock(struct demo_chardev *dev,
			     struct aio_compat_req *req, bool write)
{
	if (!aio_compat_may_block(req)) {
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

/* One request, any shape: throttle, lock, copy. */
static ssize_t demo_chardev_rw(struct aio_compat_req *req)
{
	struct demo_chardev_file *df = req->file->private_data;
	struct demo_chardev *dev = df->dev;
	unsigned int throttle_ms = READ_ONCE(df->throttle_ms);
	ssize_t ret;

	atomic64_inc(&dev->requests[req->shape]);
	if (throttle_ms) {
		if (!aio_compat_may_block(req)) {
			atomic64_inc(&dev->eagain);
			return -EAGAIN;
		}
		if (msleep_interruptible(throttle_ms)) {
			atomic64_inc(&dev->interrupted);
			return -ERESTARTSYS;
		}
		atomic64_inc(&dev->slept);
	}

	ret = demo_chardev_lock(dev, req, req->write);
	if (ret)
		return ret;
	ret = demo_chardev_copy(dev, req);
	if (req->write)
		up_write(&dev->lock);
	else
		up_read(&dev->lock);
	return ret;
}

#ifdef DEMO_CHARDEV_LEGACY
static ssize_t demo_chardev_read(struct file *file, char __user *buf,
				 size_t len, loff_t *ppos)
{
	return aio_compat_rw_buf(file, buf, len, ppos, false, demo_chardev_rw);
}

static ssize_t demo_chardev_write(struct file *file, const char __user *buf,
				  size_t len, loff_t *ppos)
{
	/* A data pointer cast: the handler only copies from it. */
	return aio_compat_rw_buf(file, (void __user *)buf, len, ppos, true,
				 demo_chardev_rw);
}
#else
AIO_COMPAT_DEFINE_METHODS(demo_chardev, demo_chardev_rw);
#endif

static int demo_chardev_open(struct inode *inode, struct file *file)
{
	struct demo_chardev_file *df;

	df = kzalloc(sizeof(*df), GFP_KERNEL);
	if (!df)
		return -ENOMEM;
	df->dev = container_of(file->private_data, struct demo_chardev, misc);
	file->private_data = df;
#if !defined(DEMO_CHARDEV_LEGACY)
	/* Requests honour IOCB_NOWAIT (aio_compat_may_block()). */
	aio_compat_file_nowait(file);
#endif
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
#ifdef DEMO_CHARDEV_LEGACY
	.read = demo_chardev_read,
	.write = demo_chardev_write,
#else
	AIO_COMPAT_FOPS(demo_chardev),
	AIO_COMPAT_SPLICE_FOPS
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

MODULE_DESCRIPTION("Demo misc device: one data path for read, readv, aio, io_uring, splice and kernel_read");
MODULE_LICENSE("GPL");
