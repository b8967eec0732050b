/* SPDX-License-Identifier: GPL-2.0 */
/*
 * MODEL, not a kernel: <linux/aio.h> of Linux 2.6.18-4.0 - the kiocb (it
 * moved to <linux/fs.h> only in 4.1), the synchronous-kiocb marker that
 * do_sync_read() and friends used, and fs/aio.c's exported aio_complete()
 * (model_runtime.c), with which a driver completes a kiocb its method
 * returned -EIOCBQUEUED for. In 4.1 that became iocb->ki_complete (commit
 * 04b2fa9f8f36); the modelled worlds all predate it.
 */
#ifndef MODEL_LINUX_AIO_H
#define MODEL_LINUX_AIO_H
#include <linux/kernel.h>

struct file;
struct io_event;

#define KIOCB_SYNC_KEY		(~0U)

struct kiocb {
	unsigned int ki_key;	/* KIOCB_SYNC_KEY: the caller waits */
	struct file *ki_filp;
	loff_t ki_pos;
	/* model: aio_complete() on this kiocb (under the runtime's lock) */
	unsigned int model_completions;
	long model_res, model_res2;
#if LINUX_VERSION_CODE < KERNEL_VERSION(2, 6, 20)
	/*
	 * The retry model and io_cancel() of 2.6.18-2.6.19, for drivers that
	 * use them to compile; the model never calls either.
	 */
	ssize_t (*ki_retry)(struct kiocb *iocb);
	int (*ki_cancel)(struct kiocb *iocb, struct io_event *ev);
#endif
};

#define is_sync_kiocb(iocb)	((iocb)->ki_key == KIOCB_SYNC_KEY)

static inline void init_sync_kiocb(struct kiocb *iocb, struct file *filp)
{
	*iocb = (struct kiocb){ .ki_key = KIOCB_SYNC_KEY, .ki_filp = filp };
}

/*
 * Any context. An io_submit() kiocb gets its event (res, res2); a sync one
 * wakes the caller in wait_on_sync_kiocb(). It returned int (1: the last
 * reference went) in 2.6.x and void by 4.0; the model switches at 3.10,
 * the aio rework (the shim ignores the value either way).
 */
#if LINUX_VERSION_CODE < KERNEL_VERSION(3, 10, 0)
int aio_complete(struct kiocb *iocb, long res, long res2);
#else
void aio_complete(struct kiocb *iocb, long res, long res2);
#endif

#if LINUX_VERSION_CODE < KERNEL_VERSION(2, 6, 20)
/* Run ki_retry again from the aio thread; declared only (not modelled). */
void kick_iocb(struct kiocb *iocb);
#endif

/* Sleep until aio_complete() reached @iocb; its res. Up to Linux 4.0. */
ssize_t wait_on_sync_kiocb(struct kiocb *iocb);

/* model: aio_complete() calls so far, on @iocb (NULL: on every kiocb). */
unsigned int model_aio_completions(const struct kiocb *iocb);
#endif
