/* SPDX-License-Identifier: GPL-2.0 */
/*
 * aio_test.h - what the libaio tests of either driver share: one request
 * submitted by itself and its event waited for, with a bound. Its names
 * begin with aio_.
 */
#ifndef IRQAIO_AIO_TEST_H
#define IRQAIO_AIO_TEST_H

#include <libaio.h>
#include <limits.h>
#include <string.h>
#include <time.h>
#include <ktap.h>

/*
 * Submit @cb alone and wait up to @wait_s seconds for its event: the event's
 * res, or LONG_MIN when io_submit() did not take it or no event for it came.
 * io_submit()'s answer goes to *@submitted, so that a test expecting a
 * refusal can check it; with @submitted NULL a refusal is explained in a
 * diagnostic. A missing event always is. An event must name @cb as both its
 * object and its data: anything else belongs to another request.
 */
static inline long aio_submit_wait(io_context_t ctx, struct iocb *cb, unsigned int wait_s,
				   int *submitted)
{
	struct timespec ts = { .tv_sec = wait_s };
	struct iocb *cbs[1] = { cb };
	struct io_event ev;
	int r;

	cb->data = cb;
	r = io_submit(ctx, 1, cbs);
	if (submitted)
		*submitted = r;
	if (r != 1) {
		if (!submitted)
			ktap_diag("io_submit: %d (%s)", r, r < 0 ? strerror(-r) : "none submitted");
		return LONG_MIN;
	}
	r = io_getevents(ctx, 1, 1, &ev, &ts);
	if (r != 1 || ev.obj != cb || ev.data != cb) {
		ktap_diag("io_getevents within %u s: %d, obj %p (want %p)", wait_s, r,
			  r == 1 ? (void *)ev.obj : NULL, (void *)cb);
		return LONG_MIN;
	}
	return (long)ev.res;
}

#endif /* IRQAIO_AIO_TEST_H */
