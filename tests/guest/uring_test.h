/* SPDX-License-Identifier: GPL-2.0 */
/*
 * uring_test.h - what the io_uring tests share (liburing, linked
 * statically): an SQE tagged with the slot its result goes to, and the
 * prepared SQEs submitted with their completions reaped into those slots.
 * Its names begin with uring_.
 */
#ifndef IRQAIO_URING_TEST_H
#define IRQAIO_URING_TEST_H

#include <limits.h>
#include <string.h>
#include <liburing.h>
#include <ktap.h>

/* The next SQE of @ring, its user_data @tag: the slot of res[] its CQE fills. */
static inline struct io_uring_sqe *uring_sqe_for(struct io_uring *ring, __u64 tag)
{
	struct io_uring_sqe *sqe = io_uring_get_sqe(ring);

	io_uring_sqe_set_data64(sqe, tag);
	return sqe;
}

/*
 * Submit what is prepared (@n SQEs), reap @n CQEs into res[] by user_data
 * (< n), every slot LONG_MIN beforehand: 0, or -1 with a diagnostic. A CQE
 * for no slot, or for one filled already, fails: each request must answer
 * once. @wait_s bounds the wait for each CQE; 0 leaves it to the test's
 * timeout.
 */
static inline int uring_reap(struct io_uring *ring, unsigned int n, long *res,
			     unsigned int wait_s)
{
	struct __kernel_timespec ts = { .tv_sec = wait_s };
	unsigned int k;
	int r;

	r = io_uring_submit(ring);
	if (r != (int)n) {
		ktap_diag("io_uring_submit: %d, want %u", r, n);
		return -1;
	}
	for (k = 0; k < n; k++) {
		struct io_uring_cqe *cqe;

		r = wait_s ? io_uring_wait_cqe_timeout(ring, &cqe, &ts) :
			     io_uring_wait_cqe(ring, &cqe);
		if (r) {
			ktap_diag("%s: %s",
				  wait_s ? "io_uring_wait_cqe_timeout" : "io_uring_wait_cqe",
				  strerror(-r));
			return -1;
		}
		if (cqe->user_data >= n || res[cqe->user_data] != LONG_MIN) {
			ktap_diag("CQE with user_data %llu: unknown or twice",
				  (unsigned long long)cqe->user_data);
			io_uring_cqe_seen(ring, cqe);
			return -1;
		}
		res[cqe->user_data] = cqe->res;
		io_uring_cqe_seen(ring, cqe);
	}
	return 0;
}

/* The prepared SQE (user_data 0), submitted and reaped: res or LONG_MIN. */
static inline long uring_one(struct io_uring *ring, unsigned int wait_s)
{
	long res = LONG_MIN;

	if (uring_reap(ring, 1, &res, wait_s))
		return LONG_MIN;
	return res;
}

#endif /* IRQAIO_URING_TEST_H */
