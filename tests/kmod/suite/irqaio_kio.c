// SPDX-License-Identifier: GPL-2.0
/*
 * irqaio_kio - TEST-ONLY module, not a demo driver: a misc device whose one
 * ioctl calls kernel_read() or kernel_write() on a file named by path, so
 * that a guest test can drive a file's ->read_iter/->write_iter with an
 * ITER_KVEC iov_iter from userspace and compare the device with a tmpfs
 * file. Root only (mode 0600): it opens any path with the caller's
 * credentials, but moves data through a kernel buffer.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/err.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <linux/vmalloc.h>
#include "irqaio_kio.h"

static long irqaio_kio_rw(struct irqaio_kio_req *r)
{
	void __user *ubuf = u64_to_user_ptr(r->buf);
	struct file *f;
	loff_t pos = r->pos;
	ssize_t ret;
	void *kbuf;

	if ((r->flags & ~IRQAIO_KIO_VMALLOC) || r->write > 1 || r->len > IRQAIO_KIO_MAX_LEN)
		return -EINVAL;
	if (strnlen(r->path, sizeof(r->path)) == sizeof(r->path))
		return -ENAMETOOLONG;
	if (r->flags & IRQAIO_KIO_VMALLOC)
		kbuf = vzalloc(r->len ? r->len : 1);
	else
		kbuf = kvzalloc(r->len ? r->len : 1, GFP_KERNEL);
	if (!kbuf)
		return -ENOMEM;
	if (r->write && copy_from_user(kbuf, ubuf, r->len)) {
		ret = -EFAULT;
		goto out_free;
	}
	f = filp_open(r->path, O_RDWR, 0);
	if (IS_ERR(f)) {
		ret = PTR_ERR(f);
		goto out_free;
	}
	if (r->write)
		ret = kernel_write(f, kbuf, r->len, &pos);
	else
		ret = kernel_read(f, kbuf, r->len, &pos);
	filp_close(f, NULL);
	r->result = ret;
	r->pos_after = pos;
	ret = 0;
	if (!r->write && r->result > 0 && copy_to_user(ubuf, kbuf, r->result))
		ret = -EFAULT;
out_free:
	kvfree(kbuf);
	return ret;
}

static long irqaio_kio_ioctl(struct file *file, unsigned int cmd,
			     unsigned long arg)
{
	void __user *argp = (void __user *)arg;
	struct irqaio_kio_req *r;
	long ret;

	if (cmd != IRQAIO_KIO_IOC_RW)
		return -ENOTTY;
	r = memdup_user(argp, sizeof(*r));
	if (IS_ERR(r))
		return PTR_ERR(r);
	ret = irqaio_kio_rw(r);
	if (!ret && copy_to_user(argp, r, sizeof(*r)))
		ret = -EFAULT;
	kfree(r);
	return ret;
}

static const struct file_operations irqaio_kio_fops = {
	.owner = THIS_MODULE,
	.unlocked_ioctl = irqaio_kio_ioctl,
};

static struct miscdevice irqaio_kio_misc = {
	.minor = MISC_DYNAMIC_MINOR,
	.name = IRQAIO_KIO_NAME,
	.fops = &irqaio_kio_fops,
	.mode = 0600,
};

module_misc_device(irqaio_kio_misc);

MODULE_DESCRIPTION("Test-only: kernel_read()/kernel_write() on a named file, for the guest tests");
MODULE_LICENSE("GPL");
