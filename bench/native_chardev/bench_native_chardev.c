// SPDX-License-Identifier: GPL-2.0
/*
 * bench_native_chardev - the baseline qemu/bench compares the shim with:
 * a RAM store written the native way for kernels with ->read_iter/
 * ->write_iter (3.16+) and no shim: the whole request moves with one
 * copy_to_iter()/copy_from_iter(), which walks the segments itself
 * (drivers/char/mem.c's read_iter_zero does the same).
 *
 * The same driver is built twice more through the shim, everything else
 * equal, so that "what does the shim cost" has an answer in instructions:
 * bench_shimcopy_chardev.c (BENCH_SHIM_COPY: one handler through
 * AIO_COMPAT_DEFINE_METHODS(), the data moved with the copy API, once per
 * request) and bench_segwalk_chardev.c (BENCH_SHIM_SEGWALK: the segment
 * walk, a copy_to_user()/__copy_from_user() per user segment; it serves
 * only user-backed requests and refuses io_uring fixed buffers and splice
 * with -EINVAL).
 *
 * Not demo drivers and not part of the test suite.
 *
 * Semantics, as demo_chardev's: a store of size_kb KiB; a request at pos
 * moves [pos, pos + count) clipped to the store; reads at or past the end
 * return 0, writes there -ENOSPC; reads share dev->lock, writes hold it
 * exclusive; IOCB_NOWAIT/O_NONBLOCK requests that would wait for it get
 * -EAGAIN; a fault returns the bytes done before it, else -EFAULT.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/rwsem.h>
#include <linux/uio.h>
#include <linux/vmalloc.h>
#if defined(BENCH_SHIM_COPY) || defined(BENCH_SHIM_SEGWALK)
#include <linux/uaccess.h>
#include <aio_compat.h>
#endif

#if defined(BENCH_SHIM_COPY)
#define DRV_NAME			"bench_shimcopy_chardev"
#define DRV_PATH			"aio_compat_copy_to_req()/_from_req()"
#elif defined(BENCH_SHIM_SEGWALK)
#define DRV_NAME			"bench_segwalk_chardev"
#define DRV_PATH			"aio_compat_seg_walk()"
#else
#define DRV_NAME			"bench_native_chardev"
#define DRV_PATH			"native read_iter/write_iter"
#endif
#define BENCH_NATIVE_MAX_SIZE_KB	(64 * 1024)

static unsigned int size_kb = 256;
module_param(size_kb, uint, 0444);
MODULE_PARM_DESC(size_kb, "size of the RAM store in KiB (1-65536, default 256)");

struct bench_native {
	struct miscdevice misc;
	/* Protects the contents of data[]: shared by reads, exclusive by writes. */
	struct rw_semaphore lock;
	u8 *data;
	size_t size;		/* set at load, then constant */
	atomic64_t requests;	/* as demo_chardev counts its requests */
};

static struct bench_native bench_native_dev;

/* A request that may not block gets -EAGAIN instead of waiting for the lock. */
static int bench_native_lock(struct bench_native *dev, bool may_block,
			     bool write)
{
	if (!may_block) {
		if (write ? down_write_trylock(&dev->lock) :
			    down_read_trylock(&dev->lock))
			return 0;
		return -EAGAIN;
	}
	if (write)
		return down_write_killable(&dev->lock) ? -EINTR : 0;
	return down_read_killable(&dev->lock) ? -EINTR : 0;
}

#if defined(BENCH_SHIM_COPY) || defined(BENCH_SHIM_SEGWALK)
#ifdef BENCH_SHIM_COPY
/* As the native methods: the whole request in one copy. */
static ssize_t bench_native_move(struct bench_native *dev,
				 struct aio_compat_req *req)
{
	u8 *p = dev->data + req->pos;
	size_t n = min_t(size_t, req->count, dev->size - req->pos);

	n = req->write ? aio_compat_copy_from_req(req, p, n) :
			 aio_compat_copy_to_req(req, p, n);
	return n ? n : -EFAULT;
}
#else
/* One user segment. */
static ssize_t bench_native_seg(struct aio_compat_req *req, void __user *ubuf,
				size_t len, loff_t pos, void *priv)
{
	struct bench_native *dev = priv;
	unsigned long left;
	size_t n;

	if (pos >= dev->size)
		return req->write ? -ENOSPC : 0;
	n = min_t(size_t, len, dev->size - pos);
	if (req->write) {
		/* No zero-fill past a fault: only the bytes reported change. */
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

static ssize_t bench_native_move(struct bench_native *dev,
				 struct aio_compat_req *req)
{
	return aio_compat_seg_walk(req, bench_native_seg, dev);
}
#endif

/* The one handler, both directions, every request shape the shim serves. */
static ssize_t bench_native_rw(struct aio_compat_req *req)
{
	struct bench_native *dev = &bench_native_dev;
	ssize_t ret;

	atomic64_inc(&dev->requests);
	if (!req->count)
		return 0;
	if (req->pos >= dev->size)
		return req->write ? -ENOSPC : 0;
	ret = bench_native_lock(dev, aio_compat_may_block(req), req->write);
	if (ret)
		return ret;
	ret = bench_native_move(dev, req);
	if (req->write)
		up_write(&dev->lock);
	else
		up_read(&dev->lock);
	return ret;
}

AIO_COMPAT_DEFINE_METHODS(bench_native, bench_native_rw);
#else
static bool bench_native_may_block(struct kiocb *iocb)
{
	return !(iocb->ki_flags & IOCB_NOWAIT) &&
	       !(iocb->ki_filp->f_flags & O_NONBLOCK);
}

static ssize_t bench_native_read_iter(struct kiocb *iocb, struct iov_iter *to)
{
	struct bench_native *dev = &bench_native_dev;
	loff_t pos = iocb->ki_pos;
	size_t n, done;
	int ret;

	atomic64_inc(&dev->requests);
	if (pos < 0)
		return -EINVAL;
	if (pos >= dev->size || !iov_iter_count(to))
		return 0;
	n = min_t(size_t, iov_iter_count(to), dev->size - pos);
	ret = bench_native_lock(dev, bench_native_may_block(iocb), false);
	if (ret)
		return ret;
	done = copy_to_iter(dev->data + pos, n, to);
	up_read(&dev->lock);
	if (!done)
		return -EFAULT;
	iocb->ki_pos += done;
	return done;
}

static ssize_t bench_native_write_iter(struct kiocb *iocb, struct iov_iter *from)
{
	struct bench_native *dev = &bench_native_dev;
	loff_t pos = iocb->ki_pos;
	size_t n, done;
	int ret;

	atomic64_inc(&dev->requests);
	if (pos < 0)
		return -EINVAL;
	if (!iov_iter_count(from))
		return 0;
	if (pos >= dev->size)
		return -ENOSPC;
	n = min_t(size_t, iov_iter_count(from), dev->size - pos);
	ret = bench_native_lock(dev, bench_native_may_block(iocb), true);
	if (ret)
		return ret;
	/* No zero-fill past a fault: only the bytes reported change. */
	done = copy_from_iter(dev->data + pos, n, from);
	up_write(&dev->lock);
	if (!done)
		return -EFAULT;
	iocb->ki_pos += done;
	return done;
}

#endif /* BENCH_SHIM_COPY || BENCH_SHIM_SEGWALK */

static int bench_native_open(struct inode *inode, struct file *file)
{
	/* We honour IOCB_NOWAIT, as demo_chardev does. */
	file->f_mode |= FMODE_NOWAIT;
	return 0;
}

static loff_t bench_native_llseek(struct file *file, loff_t offset, int whence)
{
	return fixed_size_llseek(file, offset, whence, bench_native_dev.size);
}

static const struct file_operations bench_native_fops = {
	.owner = THIS_MODULE,
	.open = bench_native_open,
	.llseek = bench_native_llseek,
#if defined(BENCH_SHIM_COPY) || defined(BENCH_SHIM_SEGWALK)
	AIO_COMPAT_FOPS(bench_native),
#else
	.read_iter = bench_native_read_iter,
	.write_iter = bench_native_write_iter,
#endif
};

static int __init bench_native_init(void)
{
	struct bench_native *dev = &bench_native_dev;
	int ret;

	if (!size_kb || size_kb > BENCH_NATIVE_MAX_SIZE_KB) {
		pr_err("size_kb=%u out of range 1-%u\n", size_kb,
		       BENCH_NATIVE_MAX_SIZE_KB);
		return -EINVAL;
	}
	dev->size = (size_t)size_kb * 1024;
	dev->data = vzalloc(dev->size);
	if (!dev->data)
		return -ENOMEM;
	init_rwsem(&dev->lock);

	dev->misc.minor = MISC_DYNAMIC_MINOR;
	dev->misc.name = DRV_NAME;
	dev->misc.fops = &bench_native_fops;
	dev->misc.mode = 0666;
	ret = misc_register(&dev->misc);
	if (ret)
		goto err_free_data;
	pr_info("/dev/%s: %zu bytes, %s\n", DRV_NAME, dev->size, DRV_PATH);
	return 0;

err_free_data:
	vfree(dev->data);
	return ret;
}

static void __exit bench_native_exit(void)
{
	struct bench_native *dev = &bench_native_dev;

	misc_deregister(&dev->misc);
	vfree(dev->data);
}

module_init(bench_native_init);
module_exit(bench_native_exit);

MODULE_DESCRIPTION("Bench-only RAM device: native read_iter or the aio_compat shim (qemu/bench)");
MODULE_LICENSE("GPL");
