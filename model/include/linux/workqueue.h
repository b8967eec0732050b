/* SPDX-License-Identifier: GPL-2.0 */
/*
 * MODEL, not a kernel: <linux/workqueue.h> as the worlds that include it
 * (2.6.18, 2.6.19) have it: INIT_WORK(work, func, data), the work function
 * gets data. schedule_work() only queues; the queued items run, in order,
 * when a test calls flush_scheduled_work() (the model's events thread is
 * whoever flushes), so a test decides when "later" is.
 */
#ifndef MODEL_LINUX_WORKQUEUE_H
#define MODEL_LINUX_WORKQUEUE_H
#include <linux/kernel.h>

#if LINUX_VERSION_CODE > KERNEL_VERSION(2, 6, 19)
#error "model: only the INIT_WORK(work, func, data) of 2.6.18-2.6.19 is modelled"
#endif

struct work_struct {
	void (*func)(void *data);
	void *data;
	struct work_struct *next;	/* model: the queue */
	bool pending;
};

#define INIT_WORK(w, f, d)	\
	(*(w) = (struct work_struct){ .func = (f), .data = (d) })

/* Queue @work unless it is queued already; 1 if this queued it. */
int schedule_work(struct work_struct *work);
/* Run every queued item (and what they queue) on this thread. */
void flush_scheduled_work(void);
#endif
