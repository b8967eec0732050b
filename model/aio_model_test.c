// SPDX-License-Identifier: GPL-2.0
/*
 * MODEL, not a kernel. Compiles compat/aio_compat.h against the historical
 * file_operations of each modelled world (model/worlds/) and drives a
 * demo_chardev-like data path through the model's read(2), readv(2) and
 * io_submit() (model/include/model/vfs.h): the single-buffer aio_read of
 * 2.6.18 (plus ->readv), the iovec aio_read of 2.6.19 and the early
 * iov_iter of 3.19-4.0 (read_iter beside aio_read, type bits, no
 * iter_is_iovec(), no IOCB_NOWAIT), which no kernel we can boot still has,
 * are compiled and exercised here, both through the segment walk and
 * through the copy API (aio_compat_copy_to_req()/_from_req()).
 */
#include <stdio.h>
#include <string.h>
#include <linux/uaccess.h>
#include <model/vfs.h>
#include <aio_compat.h>
#include <ktap.h>
#include "model_test.h"

#define STORE_SIZE	4096

static unsigned char store[STORE_SIZE];
static unsigned long shape_count[AIO_COMPAT_NR_SHAPES];

/* Every segment the helper handed to the data path. */
struct seg_log {
	char *ubuf;
	size_t len;
	loff_t pos;
};
static struct seg_log seg_log[UIO_MAXIOV + 8];
static unsigned int nr_logged;
static int bad_segment;		/* a zero-length or out-of-request segment */

static ssize_t model_seg(struct aio_compat_req *req, void __user *ubuf, size_t len,
			 loff_t pos, void *priv)
{
	unsigned char *data = priv;
	unsigned long left;
	size_t n;

	if (len == 0 || pos < req->pos || (size_t)(pos - req->pos) + len > req->count)
		bad_segment++;
	if (nr_logged < sizeof(seg_log) / sizeof(seg_log[0]))
		seg_log[nr_logged++] = (struct seg_log){ ubuf, len, pos };
	if (pos >= STORE_SIZE)
		return req->write ? -ENOSPC : 0;
	n = len < (size_t)(STORE_SIZE - pos) ? len : (size_t)(STORE_SIZE - pos);
	left = req->write ? copy_from_user(data + pos, ubuf, n) : copy_to_user(ubuf, data + pos, n);
	if (left == n)
		return -EFAULT;
	return n - left;
}

static ssize_t model_rw(struct aio_compat_req *req)
{
	shape_count[req->shape]++;
	if (req->file->private_data && !aio_compat_may_block(req))
		return -EAGAIN;	/* "throttled" and must not block */
	return aio_compat_seg_walk(req, model_seg, store);
}

AIO_COMPAT_DEFINE_METHODS(model_dev, model_rw);

/*
 * The same store through the copy API, in pieces of copy_piece bytes (an
 * odd size, so pieces straddle segments): what demo_chardev does.
 */
static size_t copy_piece = 7;

static ssize_t model_copy_rw(struct aio_compat_req *req)
{
	size_t len, done = 0;

	shape_count[req->shape]++;
	if (!req->count)
		return 0;
	if (req->pos >= STORE_SIZE)
		return req->write ? -ENOSPC : 0;
	len = req->count < (size_t)(STORE_SIZE - req->pos) ? req->count : (size_t)(STORE_SIZE - req->pos);
	while (done < len) {
		size_t want = len - done < copy_piece ? len - done : copy_piece, n;
		unsigned char *p = store + req->pos + done;

		n = req->write ? aio_compat_copy_from_req(req, p, want) :
				 aio_compat_copy_to_req(req, p, want);
		done += n;
		if (n < want)
			break;
	}
	return done ? (ssize_t)done : -EFAULT;
}

AIO_COMPAT_DEFINE_METHODS(model_cp, model_copy_rw);

static const struct file_operations model_cp_fops = {
	AIO_COMPAT_FOPS(model_cp),
};

static const struct file_operations model_fops = {
	AIO_COMPAT_FOPS(model_dev),
	AIO_COMPAT_SPLICE_FOPS
};

/* The macros must yield exactly the world's prototypes: no casts anywhere. */
#define SAME_TYPE(a, b) __builtin_types_compatible_p(__typeof__(a), __typeof__(b))
#if defined(AIO_COMPAT__FAMILY_ITER)
_Static_assert(SAME_TYPE(&model_dev_aio_compat_read, model_fops.read_iter),
	       "generated read has the read_iter field's type");
_Static_assert(SAME_TYPE(&model_dev_aio_compat_write, model_fops.write_iter),
	       "generated write has the write_iter field's type");
#else
_Static_assert(SAME_TYPE(&model_dev_aio_compat_read, model_fops.aio_read),
	       "generated aio_read has the aio_read field's type");
_Static_assert(SAME_TYPE(&model_dev_aio_compat_write, model_fops.aio_write),
	       "generated aio_write has the aio_write field's type");
#endif
#if defined(AIO_COMPAT__FAMILY_ITER)
_Static_assert(__builtin_types_compatible_p(__typeof__(&model_dev_aio_compat_read),
		ssize_t (*)(struct kiocb *, struct iov_iter *)),
	       "3.16+: read_iter, preferred over the iovec aio_read");
#elif LINUX_VERSION_CODE < KERNEL_VERSION(2, 6, 19)
_Static_assert(__builtin_types_compatible_p(__typeof__(&model_dev_aio_compat_read),
		ssize_t (*)(struct kiocb *, char __user *, size_t, loff_t)),
	       "2.6.18: single-buffer aio_read");
_Static_assert(__builtin_types_compatible_p(__typeof__(&model_dev_aio_compat_write),
		ssize_t (*)(struct kiocb *, const char __user *, size_t, loff_t)),
	       "2.6.18: single-buffer aio_write");
_Static_assert(__builtin_types_compatible_p(__typeof__(&model_dev_aio_compat_readv),
		ssize_t (*)(struct file *, const struct iovec *, unsigned long, loff_t *)),
	       "2.6.18: readv method");
_Static_assert(SAME_TYPE(&model_dev_aio_compat_writev, model_fops.writev),
	       "2.6.18: writev method");
#else
_Static_assert(__builtin_types_compatible_p(__typeof__(&model_dev_aio_compat_read),
		ssize_t (*)(struct kiocb *, const struct iovec *, unsigned long, loff_t)),
	       "2.6.19: iovec aio_read");
_Static_assert(__builtin_types_compatible_p(__typeof__(&model_dev_aio_compat_write),
		ssize_t (*)(struct kiocb *, const struct iovec *, unsigned long, loff_t)),
	       "2.6.19: iovec aio_write");
#endif

static struct file model_file;

static void reset(void)
{
	model_file = (struct file){ .f_op = &model_fops };
	memset(shape_count, 0, sizeof(shape_count));
	nr_logged = 0;
	bad_segment = 0;
	model_set_fault_range(NULL, 0);
}

static void fill_pattern(unsigned char *p, size_t n, unsigned int seed)
{
	size_t k;

	for (k = 0; k < n; k++)
		p[k] = (unsigned char)(seed * 131 + k * 7 + (k >> 8));
}

/* Single buffer: 2.6.18 hands it to aio_read as is, 2.6.19 wraps it. */
KTAP_TEST(aio_read_write_single_buffer, 30)
{
	unsigned char out[300], in[300];
	loff_t pos = 100;

	reset();
	fill_pattern(out, sizeof(out), 1);
	KTAP_EXPECT(model_vfs_rw(&model_file, 1, (char *)out, sizeof(out), &pos) == 300);
	KTAP_EXPECT(pos == 400);
	pos = 100;
	KTAP_EXPECT(model_vfs_rw(&model_file, 0, (char *)in, sizeof(in), &pos) == 300);
	KTAP_EXPECT(pos == 400 && !memcmp(in, out, sizeof(in)));
	KTAP_EXPECT(nr_logged == 2 && seg_log[0].len == 300 && seg_log[0].pos == 100);
#if LINUX_VERSION_CODE < KERNEL_VERSION(2, 6, 19)
	KTAP_EXPECT(shape_count[AIO_COMPAT_SHAPE_BUF] == 2);
#else
	KTAP_EXPECT(shape_count[AIO_COMPAT_SHAPE_IOVEC] == 2);
#endif
	KTAP_EXPECT(!bad_segment && !*model_warnings());
	return KTAP_PASS;
}

/* readv/writev: 2.6.18 through ->readv, 2.6.19 through aio_read(iov). */
KTAP_TEST(aio_readv_writev_segments, 30)
{
	unsigned char a[10], b[0x100], c[1], in[sizeof(a) + sizeof(b) + sizeof(c)];
	unsigned char out[sizeof(in)];
	struct iovec wv[4] = {
		{ a, sizeof(a) }, { NULL, 0 }, { b, sizeof(b) }, { c, sizeof(c) },
	};
	struct iovec rv[1] = { { in, sizeof(in) } };
	loff_t pos = 1000;

	reset();
	fill_pattern(a, sizeof(a), 2);
	fill_pattern(b, sizeof(b), 3);
	fill_pattern(c, sizeof(c), 4);
	memcpy(out, a, sizeof(a));
	memcpy(out + sizeof(a), b, sizeof(b));
	memcpy(out + sizeof(a) + sizeof(b), c, sizeof(c));
	KTAP_EXPECT(model_vfs_rwv(&model_file, 1, wv, 4, &pos) == (ssize_t)sizeof(out));
	KTAP_EXPECT(pos == 1000 + (loff_t)sizeof(out));
	/* the zero-length segment is skipped; positions follow the data */
	KTAP_EXPECT(nr_logged == 3);
	KTAP_EXPECT(seg_log[0].pos == 1000 && seg_log[0].len == sizeof(a));
	KTAP_EXPECT(seg_log[1].pos == 1000 + (loff_t)sizeof(a) && seg_log[1].len == sizeof(b));
	KTAP_EXPECT(seg_log[2].pos == 1000 + (loff_t)(sizeof(a) + sizeof(b)));
	pos = 1000;
	KTAP_EXPECT(model_vfs_rwv(&model_file, 0, rv, 1, &pos) == (ssize_t)sizeof(in));
	KTAP_EXPECT(!memcmp(in, out, sizeof(in)));
	KTAP_EXPECT(shape_count[AIO_COMPAT_SHAPE_IOVEC] == 2);
#if LINUX_VERSION_CODE < KERNEL_VERSION(2, 6, 19)
	/* Without ->readv, readv(2) would loop over ->read, which we lack. */
	KTAP_EXPECT(model_fops.readv && model_fops.writev && !model_fops.read);
#endif
	KTAP_EXPECT(!bad_segment && !*model_warnings());
	return KTAP_PASS;
}

/* io_submit(): ki_pos, not f_pos; PREADV exists only from 2.6.19 on. */
KTAP_TEST(aio_io_submit, 30)
{
	unsigned char out[64], in1[16], in2[48];
	struct iovec rv[2] = { { in1, sizeof(in1) }, { in2, sizeof(in2) } };

	reset();
	model_file.f_pos = 7;
	fill_pattern(out, sizeof(out), 5);
	KTAP_EXPECT(model_io_submit_one(&model_file, IOCB_CMD_PWRITE, out, sizeof(out), 2000) == 64);
#if LINUX_VERSION_CODE < KERNEL_VERSION(2, 6, 19)
	KTAP_EXPECT(shape_count[AIO_COMPAT_SHAPE_BUF] == 1);
	KTAP_EXPECT(model_io_submit_one(&model_file, IOCB_CMD_PREADV, rv, 2, 2000) == -EINVAL);
	KTAP_EXPECT(nr_logged == 1);
#else
	KTAP_EXPECT(shape_count[AIO_COMPAT_SHAPE_IOVEC] == 1);
	KTAP_EXPECT(model_io_submit_one(&model_file, IOCB_CMD_PREADV, rv, 2, 2000) == 64);
	KTAP_EXPECT(!memcmp(in1, out, 16) && !memcmp(in2, out + 16, 48));
	KTAP_EXPECT(shape_count[AIO_COMPAT_SHAPE_IOVEC] == 2);
#endif
	KTAP_EXPECT(model_file.f_pos == 7);
	KTAP_EXPECT(!bad_segment && !*model_warnings());
	return KTAP_PASS;
}

/* The helper's own limits, on direct method calls (no VFS checks first). */
KTAP_TEST(aio_limits, 30)
{
	static struct iovec iov[UIO_MAXIOV + 1];
	static unsigned char buf[UIO_MAXIOV + 1];
	size_t half = AIO_COMPAT_SSIZE_MAX / 2 + 1;
	struct iovec wrap[2] = { { buf, half }, { buf, half } };
	struct iovec huge[1] = { { buf, AIO_COMPAT_SSIZE_MAX + 1 } };
	unsigned int k;

	reset();
	for (k = 0; k < UIO_MAXIOV + 1; k++)
		iov[k] = (struct iovec){ buf + k, 1 };
#if LINUX_VERSION_CODE < KERNEL_VERSION(2, 6, 19)
	loff_t pos = 0;

	KTAP_EXPECT(model_dev_aio_compat_readv(&model_file, iov, UIO_MAXIOV + 1, &pos) == -EINVAL);
	KTAP_EXPECT(model_dev_aio_compat_readv(&model_file, wrap, 2, &pos) == -EINVAL);
	KTAP_EXPECT(model_dev_aio_compat_readv(&model_file, huge, 1, &pos) == -EINVAL);
	pos = -1;
	KTAP_EXPECT(model_dev_aio_compat_readv(&model_file, iov, 1, &pos) == -EINVAL);
	{
		struct kiocb kiocb = { .ki_filp = &model_file };

		KTAP_EXPECT(model_dev_aio_compat_read(&kiocb, (char *)buf, AIO_COMPAT_SSIZE_MAX + 1, 0) == -EINVAL);
		KTAP_EXPECT(model_dev_aio_compat_read(&kiocb, (char *)buf, 1, -5) == -EINVAL);
		KTAP_EXPECT(model_dev_aio_compat_read(&kiocb, (char *)buf, 2, AIO_COMPAT_LOFF_MAX) == -EINVAL);
	}
	KTAP_EXPECT(nr_logged == 0);
	pos = 0;
	KTAP_EXPECT(model_dev_aio_compat_readv(&model_file, iov, UIO_MAXIOV, &pos) == UIO_MAXIOV);
#elif defined(AIO_COMPAT__FAMILY_ITER)
	/* the VFS checks the array before read_iter; the walk checks again */
	(void)wrap;
	(void)huge;
	KTAP_EXPECT(model_io_submit_one(&model_file, IOCB_CMD_PREADV, iov, UIO_MAXIOV + 1, 0) == -EINVAL);
	KTAP_EXPECT(nr_logged == 0);
	KTAP_EXPECT(model_io_submit_one(&model_file, IOCB_CMD_PREADV, iov, UIO_MAXIOV, 0) == UIO_MAXIOV);
#else
	{
		struct kiocb kiocb = { .ki_filp = &model_file };

		KTAP_EXPECT(model_dev_aio_compat_read(&kiocb, iov, UIO_MAXIOV + 1, 0) == -EINVAL);
		KTAP_EXPECT(model_dev_aio_compat_read(&kiocb, wrap, 2, 0) == -EINVAL);
		KTAP_EXPECT(model_dev_aio_compat_read(&kiocb, huge, 1, 0) == -EINVAL);
		KTAP_EXPECT(model_dev_aio_compat_read(&kiocb, iov, 1, -1) == -EINVAL);
		KTAP_EXPECT(model_dev_aio_compat_read(&kiocb, iov, 2, AIO_COMPAT_LOFF_MAX) == -EINVAL);
		KTAP_EXPECT(nr_logged == 0);
		KTAP_EXPECT(model_dev_aio_compat_read(&kiocb, iov, UIO_MAXIOV, 0) == UIO_MAXIOV);
		KTAP_EXPECT(kiocb.ki_pos == UIO_MAXIOV);
	}
	/* and the model kernel refuses 1025 before the driver sees it */
	KTAP_EXPECT(model_io_submit_one(&model_file, IOCB_CMD_PREADV, iov, UIO_MAXIOV + 1, 0) == -EINVAL);
#endif
	KTAP_EXPECT(nr_logged == UIO_MAXIOV);
	KTAP_EXPECT(!memcmp(buf, store, UIO_MAXIOV));
	KTAP_EXPECT(!bad_segment && !*model_warnings());
	return KTAP_PASS;
}

/* Faults: bytes done if any, else -EFAULT; nothing outside the segments. */
KTAP_TEST(aio_partial_progress, 30)
{
	static unsigned char user[4 * 256];
	struct iovec rv[3] = {
		{ user + 16, 100 }, { user + 256 + 16, 100 }, { user + 512 + 16, 100 },
	};
	loff_t pos = 0;
	unsigned int k;

	reset();
	memset(store, 0xab, 512);
	memset(user, 0x5a, sizeof(user));
	/* second segment unmapped from its 40th byte */
	model_set_fault_range(user + 256 + 16 + 40, 512);
	KTAP_EXPECT(model_vfs_rwv(&model_file, 0, rv, 3, &pos) == 140);
	KTAP_EXPECT(pos == 140);
	/* first segment unmapped: nothing done, -EFAULT */
	model_set_fault_range(user, 64);
	pos = 0;
	KTAP_EXPECT(model_vfs_rwv(&model_file, 0, rv, 3, &pos) == -EFAULT);
	KTAP_EXPECT(pos == 0);
	/* a short segment ends the walk: the next, mapped one is not touched */
	{
		struct iovec sv[2] = { { user + 256 + 16, 100 }, { user + 16, 100 } };

		memset(user, 0x5a, sizeof(user));
		model_set_fault_range(user + 256 + 16 + 40, 512);
		pos = 0;
		KTAP_EXPECT(model_vfs_rwv(&model_file, 0, sv, 2, &pos) == 40);
		KTAP_EXPECT(user[16] == 0x5a && user[115] == 0x5a);
	}
	/* a fault in the last segment after the first two completed */
	model_set_fault_range(user + 512, 256);
	KTAP_EXPECT(model_vfs_rwv(&model_file, 1, rv, 3, &pos) == 200);
	/* guard bytes around every segment untouched */
	for (k = 0; k < sizeof(user); k++) {
		size_t off = k % 256;

		if (off < 16 || off >= 116)
			KTAP_EXPECT(user[k] == 0x5a);
	}
	KTAP_EXPECT(!bad_segment && !*model_warnings());
	return KTAP_PASS;
}

/* End of store: reads short then 0, writes short then -ENOSPC. */
KTAP_TEST(aio_end_of_store, 30)
{
	unsigned char buf[100];
	loff_t pos = STORE_SIZE - 30;

	reset();
	memset(buf, 1, sizeof(buf));
	KTAP_EXPECT(model_vfs_rw(&model_file, 1, (char *)buf, sizeof(buf), &pos) == 30);
	KTAP_EXPECT(pos == STORE_SIZE);
	KTAP_EXPECT(model_vfs_rw(&model_file, 1, (char *)buf, sizeof(buf), &pos) == -ENOSPC);
	pos = STORE_SIZE - 10;
	KTAP_EXPECT(model_vfs_rw(&model_file, 0, (char *)buf, sizeof(buf), &pos) == 10);
	KTAP_EXPECT(model_vfs_rw(&model_file, 0, (char *)buf, sizeof(buf), &pos) == 0);
	pos = STORE_SIZE + 500;
	KTAP_EXPECT(model_vfs_rw(&model_file, 0, (char *)buf, sizeof(buf), &pos) == 0);
	KTAP_EXPECT(pos == STORE_SIZE + 500);
	KTAP_EXPECT(model_io_submit_one(&model_file, IOCB_CMD_PWRITE, buf, 10, STORE_SIZE) == -ENOSPC);
	KTAP_EXPECT(!bad_segment && !*model_warnings());
	return KTAP_PASS;
}

/* O_NONBLOCK on a "throttled" file: -EAGAIN, nothing moved. */
KTAP_TEST(aio_nonblock, 30)
{
	unsigned char buf[8] = { 0 };
	loff_t pos = 0;
	int throttled = 1;

	reset();
	model_file.private_data = &throttled;
	model_file.f_flags = O_NONBLOCK;
	KTAP_EXPECT(model_vfs_rw(&model_file, 0, (char *)buf, sizeof(buf), &pos) == -EAGAIN);
	KTAP_EXPECT(pos == 0 && nr_logged == 0);
	model_file.f_flags = 0;
	KTAP_EXPECT(model_vfs_rw(&model_file, 0, (char *)buf, sizeof(buf), &pos) == 8);
	return KTAP_PASS;
}

/*
 * The walk shared by every branch, with a starting offset (iov_iter's
 * iov_offset after a partial advance) and a count limit (a truncated
 * iov_iter): the first segment is skipped whole, the empty one too, the
 * third starts 2 bytes in and is cut at the limit.
 */
KTAP_TEST(aio_walk_offset_and_limit, 30)
{
	static unsigned char a[10], c[20];
	struct iovec v[3] = { { a, sizeof(a) }, { NULL, 0 }, { c, sizeof(c) } };
	struct aio_compat_req req;

	reset();
	KTAP_EXPECT(aio_compat__init_iovec(&req, &model_file, NULL, v, 3, 50, false) == 0);
	KTAP_EXPECT(req.count == 30);
	KTAP_EXPECT(aio_compat__check(&req, v, 3, 12, 10) == 0 && req.count == 10);
	KTAP_EXPECT(aio_compat__walk(&req, v, 3, 12, model_seg, store) == 10);
	KTAP_EXPECT(nr_logged == 1);
	KTAP_EXPECT(seg_log[0].ubuf == (char *)c + 2 && seg_log[0].len == 10 && seg_log[0].pos == 50);
	KTAP_EXPECT(aio_compat__check(&req, v, 3, 40, 10) == 0 && req.count == 0);
	KTAP_EXPECT(aio_compat__walk(&req, v, 3, 40, model_seg, store) == 0 && nr_logged == 1);
	KTAP_EXPECT(!bad_segment && !*model_warnings());
	return KTAP_PASS;
}

/*
 * The copy API over user segments: odd pieces across segment boundaries,
 * empty segments, and faults. A faulting write stores the bytes it
 * reports and leaves every store byte after them as it was.
 */
KTAP_TEST(aio_copy_api_user_segments, 30)
{
	static unsigned char user[3 * 256], in[600];
	struct iovec wv[4] = {
		{ user, 10 }, { NULL, 0 }, { user + 256, 200 }, { user + 512, 90 },
	};
	struct iovec rv[2] = { { in, 123 }, { in + 123, 177 } };
	loff_t pos = 300;
	size_t k;

	reset();
	model_file.f_op = &model_cp_fops;
	fill_pattern(user, sizeof(user), 7);
	KTAP_EXPECT(model_vfs_rwv(&model_file, 1, wv, 4, &pos) == 300 && pos == 600);
	pos = 300;
	KTAP_EXPECT(model_vfs_rwv(&model_file, 0, rv, 2, &pos) == 300);
	KTAP_EXPECT(!memcmp(in, user, 10) && !memcmp(in + 10, user + 256, 200) &&
		    !memcmp(in + 210, user + 512, 90));
	/* a read longer than the request stops at its end */
	memset(in, 0x77, sizeof(in));
	pos = 300;
	KTAP_EXPECT(model_vfs_rw(&model_file, 0, (char *)in, 50, &pos) == 50 && in[50] == 0x77);
	/* write fault 30 bytes into the third segment: 240 bytes, no more */
	memset(store + 1000, 0xab, 400);
	model_set_fault_range(user + 512 + 30, 100);
	pos = 1000;
	KTAP_EXPECT(model_vfs_rwv(&model_file, 1, wv, 4, &pos) == 240);
	KTAP_EXPECT(!memcmp(store + 1000, user, 10) && !memcmp(store + 1010, user + 256, 200));
	KTAP_EXPECT(!memcmp(store + 1210, user + 512, 30));
	for (k = 1240; k < 1400; k++)
		KTAP_EXPECT(store[k] == 0xab);
	/* read fault: the bytes before it, the user bytes after untouched */
	memset(user, 0x5a, sizeof(user));
	model_set_fault_range(user + 256 + 20, 100);
	pos = 1000;
	KTAP_EXPECT(model_vfs_rwv(&model_file, 0, wv, 4, &pos) == 30);
	KTAP_EXPECT(user[256 + 19] == store[1000 + 29] && user[512] == 0x5a);
	/* first byte faults: -EFAULT, nothing moved */
	model_set_fault_range(user, 4);
	pos = 1000;
	KTAP_EXPECT(model_vfs_rwv(&model_file, 1, wv, 4, &pos) == -EFAULT && pos == 1000);
	KTAP_EXPECT(!bad_segment && !*model_warnings());
	return KTAP_PASS;
}

#if defined(AIO_COMPAT__FAMILY_ITER)
/*
 * Kernel-backed iterators (kernel_read(), a page-backed request): the copy
 * API serves them and names their shape; the segment walk refuses them.
 */
KTAP_TEST(aio_copy_api_kernel_backed, 30)
{
	static struct page pages[2];
	struct bio_vec bv[2] = { { &pages[0], 100, 3996 }, { &pages[1], 50, 0 } };
	unsigned char kbuf[150];
	loff_t pos = 2000;

	reset();
	model_file.f_op = &model_cp_fops;
	fill_pattern(kbuf, sizeof(kbuf), 8);
	KTAP_EXPECT(model_kernel_rw(&model_file, 1, kbuf, sizeof(kbuf), &pos) == 150 && pos == 2150);
	KTAP_EXPECT(!memcmp(store + 2000, kbuf, 150) && shape_count[AIO_COMPAT_SHAPE_KVEC] == 1);
	KTAP_EXPECT(model_bvec_rw(&model_file, 0, bv, 2, 150, 2000) == 150);
	KTAP_EXPECT(!memcmp(pages[0].data + 3996, kbuf, 100) && !memcmp(pages[1].data, kbuf + 100, 50));
	KTAP_EXPECT(shape_count[AIO_COMPAT_SHAPE_BVEC] == 1);
	/* across the end of the store */
	pos = STORE_SIZE - 20;
	KTAP_EXPECT(model_kernel_rw(&model_file, 0, kbuf, sizeof(kbuf), &pos) == 20);
	/* the walk only ever hands out user addresses */
	model_file.f_op = &model_fops;
	pos = 0;
	KTAP_EXPECT(model_kernel_rw(&model_file, 0, kbuf, sizeof(kbuf), &pos) == -EINVAL);
	KTAP_EXPECT(nr_logged == 0 && shape_count[AIO_COMPAT_SHAPE_KVEC] == 3);
	KTAP_EXPECT(!*model_warnings());
	return KTAP_PASS;
}
#endif

KTAP_TEST(aio_probed_features, 30)
{
#if LINUX_VERSION_CODE < KERNEL_VERSION(2, 6, 19)
	KTAP_EXPECT(IS_DEFINED(IRQAIO_HAVE_AIO_READ_BUF) && IS_DEFINED(IRQAIO_HAVE_AIO_READV_METHOD));
	KTAP_EXPECT(!IS_DEFINED(IRQAIO_HAVE_AIO_READ_IOVEC));
#else
	KTAP_EXPECT(IS_DEFINED(IRQAIO_HAVE_AIO_READ_IOVEC));
	KTAP_EXPECT(!IS_DEFINED(IRQAIO_HAVE_AIO_READ_BUF) && !IS_DEFINED(IRQAIO_HAVE_AIO_READV_METHOD));
#endif
#if LINUX_VERSION_CODE >= KERNEL_VERSION(3, 16, 0)
	/* the early iov_iter shape, read_iter chosen over aio_read */
	KTAP_EXPECT(IS_DEFINED(IRQAIO_HAVE_AIO_READ_ITER) && IS_DEFINED(AIO_COMPAT__FAMILY_ITER));
	KTAP_EXPECT(IS_DEFINED(IRQAIO_HAVE_ITER_IOV_FIELD) && IS_DEFINED(IRQAIO_HAVE_ITER_TYPE_FIELD));
	KTAP_EXPECT(!IS_DEFINED(IRQAIO_HAVE_ITER_IS_IOVEC) && !IS_DEFINED(IRQAIO_HAVE_ITER_TYPE_HELPERS));
#else
	KTAP_EXPECT(!IS_DEFINED(IRQAIO_HAVE_AIO_READ_ITER) && !IS_DEFINED(IRQAIO_HAVE_ITER_IOV_FIELD));
#endif
	KTAP_EXPECT(!IS_DEFINED(IRQAIO_HAVE_ITER_UBUF) && !IS_DEFINED(IRQAIO_HAVE_ITER_IOV));
	KTAP_EXPECT(!IS_DEFINED(IRQAIO_HAVE_AIO_IOCB_NOWAIT));
	/* splice: generic_file_splice_read() wants a page cache in every world */
	KTAP_EXPECT(IS_DEFINED(IRQAIO_HAVE_SPLICE_GENERIC_READ) && !IS_DEFINED(IRQAIO_HAVE_ITER_PIPE));
	KTAP_EXPECT(!model_fops.splice_read);
#if LINUX_VERSION_CODE >= KERNEL_VERSION(3, 16, 0)
	KTAP_EXPECT(model_fops.splice_write == iter_file_splice_write);
#else
	KTAP_EXPECT(!model_fops.splice_write);
#endif
	return KTAP_PASS;
}

int main(void)
{
	return ktap_main("aio_model " MODEL_WORLD);
}
