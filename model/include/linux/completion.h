/* SPDX-License-Identifier: GPL-2.0 */
/*
 * MODEL, not a kernel: <linux/completion.h> over the model runtime's one
 * sleep/wake-up (model_runtime.c, pthreads): complete() may run on another
 * thread (a "CPU" taking the device's interrupt) than the waiter, and, as
 * in the kernel, returns without touching @x once the waiter can run, so a
 * completion may live in memory the waiter frees.
 */
#ifndef MODEL_LINUX_COMPLETION_H
#define MODEL_LINUX_COMPLETION_H
#include <model/sched.h>

struct completion {
	unsigned int done;	/* complete()s not yet waited for */
};

static inline void init_completion(struct completion *x)
{
	x->done = 0;
}

static inline void complete(struct completion *x)
{
	model_wake(&x->done);
}

/* Uninterruptible; the model gives up after a while (model_wait_timeouts()). */
static inline void wait_for_completion(struct completion *x)
{
	model_wait_take(&x->done);
}

/*
 * At most @timeout jiffies, a model jiffy being a millisecond; no model
 * thread ever gets a fatal signal. Returns what the kernel's does: 0 at
 * the timeout, else at least 1.
 */
static inline long wait_for_completion_killable_timeout(struct completion *x,
							 unsigned long timeout)
{
	return model_wait_take_ms(&x->done, timeout) ? 1 : 0;
}
#endif
