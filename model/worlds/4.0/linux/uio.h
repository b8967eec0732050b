/* SPDX-License-Identifier: GPL-2.0 */
/*
 * MODEL, not a kernel: <linux/uio.h> of Linux 3.19-4.0 - the iovec of the
 * older worlds (include_next) plus struct iov_iter with its type bits and
 * the lib/iov_iter.c primitives a driver uses, over user iovecs (with the
 * model's fault range, as copy_{to,from}_user), kernel kvecs and bio_vecs.
 * copy_from_iter() on user memory stops at the fault without zero-filling,
 * as 4.0's __copy_from_user() based copy did.
 */
#ifndef MODEL_WORLD_LINUX_UIO_H
#define MODEL_WORLD_LINUX_UIO_H
#include_next <linux/uio.h>
#include <linux/uaccess.h>

#define READ	0
#define WRITE	1

/* Linux 3.16 (ITER_BVEC, commit 62a8067a7f35), 3.19 (ITER_KVEC, a280455fa8d8). */
enum {
	ITER_IOVEC = 0,
	ITER_KVEC = 2,
	ITER_BVEC = 4,
};

struct kvec {
	void *iov_base;
	size_t iov_len;
};

#define MODEL_PAGE_SIZE 4096
struct page {
	unsigned char data[MODEL_PAGE_SIZE];
};

struct bio_vec {
	struct page *bv_page;
	unsigned int bv_len;
	unsigned int bv_offset;
};

struct iov_iter {
	int type;		/* ITER_* | READ or WRITE */
	size_t iov_offset;
	size_t count;
	union {
		const struct iovec *iov;
		const struct kvec *kvec;
		const struct bio_vec *bvec;
	};
	unsigned long nr_segs;
};

static inline size_t iov_iter_count(const struct iov_iter *i)
{
	return i->count;
}

static inline void iov_iter_init(struct iov_iter *i, int direction, const struct iovec *iov,
				 unsigned long nr_segs, size_t count)
{
	*i = (struct iov_iter){ .type = ITER_IOVEC | direction, .iov = iov,
				.nr_segs = nr_segs, .count = count };
}

static inline void iov_iter_kvec(struct iov_iter *i, int direction, const struct kvec *kvec,
				 unsigned long nr_segs, size_t count)
{
	*i = (struct iov_iter){ .type = ITER_KVEC | direction, .kvec = kvec,
				.nr_segs = nr_segs, .count = count };
}

static inline void iov_iter_bvec(struct iov_iter *i, int direction, const struct bio_vec *bvec,
				 unsigned long nr_segs, size_t count)
{
	*i = (struct iov_iter){ .type = ITER_BVEC | direction, .bvec = bvec,
				.nr_segs = nr_segs, .count = count };
}

/* Base and length of the current segment, whatever the type. */
static inline char *model_iter_seg(const struct iov_iter *i, size_t *len)
{
	if (i->type & ITER_BVEC) {
		*len = i->bvec->bv_len;
		return (char *)i->bvec->bv_page->data + i->bvec->bv_offset;
	}
	if (i->type & ITER_KVEC) {
		*len = i->kvec->iov_len;
		return i->kvec->iov_base;
	}
	*len = i->iov->iov_len;
	return i->iov->iov_base;
}

static inline void model_iter_next_seg(struct iov_iter *i)
{
	if (i->type & ITER_BVEC)
		i->bvec++;
	else if (i->type & ITER_KVEC)
		i->kvec++;
	else
		i->iov++;
	i->nr_segs--;
	i->iov_offset = 0;
}

/* As lib/iov_iter.c: whole segments consumed (empty ones too) are left. */
static inline void iov_iter_advance(struct iov_iter *i, size_t n)
{
	size_t len;

	if (n > i->count)
		n = i->count;
	i->count -= n;
	n += i->iov_offset;
	while (i->nr_segs) {
		model_iter_seg(i, &len);
		if (n < len)
			break;
		n -= len;
		model_iter_next_seg(i);
	}
	i->iov_offset = n;
}

/* Move up to @n bytes between @k and the iterator; user segments may fault. */
static inline size_t model_iter_copy(struct iov_iter *i, char *k, size_t n, int to_iter)
{
	size_t done = 0;

	if (n > i->count)
		n = i->count;
	while (done < n && i->nr_segs) {
		size_t len, step, ok;
		char *base = model_iter_seg(i, &len) + i->iov_offset;

		step = len - i->iov_offset < n - done ? len - i->iov_offset : n - done;
		/* user memory: the bytes before the fault, no zero-fill */
		ok = i->type & (ITER_KVEC | ITER_BVEC) ? step : model_accessible(base, step);
		__builtin_memcpy(to_iter ? base : k + done, to_iter ? k + done : base, ok);
		iov_iter_advance(i, ok);
		done += ok;
		if (ok < step)
			break;
	}
	return done;
}

static inline size_t copy_to_iter(const void *addr, size_t bytes, struct iov_iter *i)
{
	return model_iter_copy(i, (char *)addr, bytes, 1);
}

static inline size_t copy_from_iter(void *addr, size_t bytes, struct iov_iter *i)
{
	return model_iter_copy(i, addr, bytes, 0);
}
#endif
