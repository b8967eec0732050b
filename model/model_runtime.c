// SPDX-License-Identifier: GPL-2.0
/*
 * MODEL, not a kernel: the state behind the model headers. No libc header
 * that pulls in a <linux/...> header (the model's would be found) or
 * <sys/types.h> (its loff_t clashes): the allocator is reached through
 * GCC's builtins.
 */
#include <pthread.h>
#include <time.h>
#include <linux/errno.h>
#include <linux/fs.h>
#include <linux/interrupt.h>
#include <linux/aio.h>
#include <linux/slab.h>
#include <model/sched.h>

struct model_irqaction model_irq_table[MODEL_NR_IRQS];
#if LINUX_VERSION_CODE >= KERNEL_VERSION(2, 6, 19)
struct pt_regs *__irq_regs;
#endif

#if LINUX_VERSION_CODE >= KERNEL_VERSION(3, 16, 0)
/* Only named in a file_operations: the model splices nothing. */
ssize_t iter_file_splice_write(struct pipe_inode_info *pipe, struct file *out,
			       loff_t *ppos, size_t len, unsigned int flags)
{
	return -EINVAL;
}
#endif

/* The one lock of the model's sleeps and wake-ups; protects what they count. */
static pthread_mutex_t model_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t model_cond = PTHREAD_COND_INITIALIZER;
static unsigned int model_timeouts;	/* waits that gave up */
static unsigned int model_aio_calls;	/* aio_complete() calls, all kiocbs */

void model_wake(unsigned int *count)
{
	pthread_mutex_lock(&model_lock);
	(*count)++;
	pthread_cond_broadcast(&model_cond);
	pthread_mutex_unlock(&model_lock);
}

/* Sleep until *@count is not 0, at most MODEL_WAIT_SECONDS; under model_lock. */
static int model_wait_locked(const unsigned int *count)
{
	struct timespec end;

	clock_gettime(CLOCK_REALTIME, &end);
	end.tv_sec += MODEL_WAIT_SECONDS;
	while (!*count)
		if (pthread_cond_timedwait(&model_cond, &model_lock, &end) &&
		    !*count) {
			model_timeouts++;
			return -1;
		}
	return 0;
}

void model_wait_take(unsigned int *count)
{
	pthread_mutex_lock(&model_lock);
	if (!model_wait_locked(count))
		(*count)--;
	pthread_mutex_unlock(&model_lock);
}

int model_wait_take_ms(unsigned int *count, unsigned long ms)
{
	struct timespec end;
	int taken = 0;

	clock_gettime(CLOCK_REALTIME, &end);
	end.tv_sec += ms / 1000;
	end.tv_nsec += (long)(ms % 1000) * 1000000;
	if (end.tv_nsec >= 1000000000) {
		end.tv_sec++;
		end.tv_nsec -= 1000000000;
	}
	pthread_mutex_lock(&model_lock);
	while (!*count && !pthread_cond_timedwait(&model_cond, &model_lock, &end))
		;
	if (*count) {
		(*count)--;
		taken = 1;
	}
	pthread_mutex_unlock(&model_lock);
	return taken;
}

unsigned int model_wait_timeouts(void)
{
	unsigned int n;

	pthread_mutex_lock(&model_lock);
	n = model_timeouts;
	pthread_mutex_unlock(&model_lock);
	return n;
}

/* fs/aio.c: the event (or the sync waiter's result) is the kiocb's record. */
#if LINUX_VERSION_CODE < KERNEL_VERSION(3, 10, 0)
int aio_complete(struct kiocb *iocb, long res, long res2)
#else
void aio_complete(struct kiocb *iocb, long res, long res2)
#endif
{
	pthread_mutex_lock(&model_lock);
	iocb->model_res = res;
	iocb->model_res2 = res2;
	iocb->model_completions++;
	model_aio_calls++;
	pthread_cond_broadcast(&model_cond);
	pthread_mutex_unlock(&model_lock);
#if LINUX_VERSION_CODE < KERNEL_VERSION(3, 10, 0)
	return 1;
#endif
}

ssize_t wait_on_sync_kiocb(struct kiocb *iocb)
{
	ssize_t res;

	pthread_mutex_lock(&model_lock);
	res = model_wait_locked(&iocb->model_completions) ? -EIO : iocb->model_res;
	pthread_mutex_unlock(&model_lock);
	return res;
}

unsigned int model_aio_completions(const struct kiocb *iocb)
{
	unsigned int n;

	pthread_mutex_lock(&model_lock);
	n = iocb ? iocb->model_completions : model_aio_calls;
	pthread_mutex_unlock(&model_lock);
	return n;
}

/* The slab: the host's allocator, with a count of live objects. */
static long model_live;

void *kmalloc(size_t size, gfp_t flags)
{
	void *p = __builtin_malloc(size ? size : 1);

	if (p)
		__atomic_add_fetch(&model_live, 1, __ATOMIC_RELAXED);
	return p;
}

void *kzalloc(size_t size, gfp_t flags)
{
	return kcalloc(1, size, flags);
}

void *kcalloc(size_t n, size_t size, gfp_t flags)
{
	void *p = __builtin_calloc(n ? n : 1, size ? size : 1);

	if (p)
		__atomic_add_fetch(&model_live, 1, __ATOMIC_RELAXED);
	return p;
}

void kfree(const void *p)
{
	if (!p)
		return;
	__atomic_sub_fetch(&model_live, 1, __ATOMIC_RELAXED);
	__builtin_free((void *)p);
}

long model_slab_live(void)
{
	return __atomic_load_n(&model_live, __ATOMIC_RELAXED);
}

#if LINUX_VERSION_CODE <= KERNEL_VERSION(2, 6, 19)
#include <linux/workqueue.h>

/* The events queue; its own lock, since a work item may sleep. */
static pthread_mutex_t model_work_lock = PTHREAD_MUTEX_INITIALIZER;
static struct work_struct *model_work_head, **model_work_tail = &model_work_head;

int schedule_work(struct work_struct *work)
{
	int queued = 0;

	pthread_mutex_lock(&model_work_lock);
	if (!work->pending) {
		work->pending = true;
		work->next = NULL;
		*model_work_tail = work;
		model_work_tail = &work->next;
		queued = 1;
	}
	pthread_mutex_unlock(&model_work_lock);
	return queued;
}

void flush_scheduled_work(void)
{
	for (;;) {
		struct work_struct *w;
		void (*func)(void *data);
		void *data;

		pthread_mutex_lock(&model_work_lock);
		w = model_work_head;
		if (w) {
			model_work_head = w->next;
			if (!model_work_head)
				model_work_tail = &model_work_head;
			w->pending = false;
			func = w->func;
			data = w->data;
		}
		pthread_mutex_unlock(&model_work_lock);
		if (!w)
			return;
		/* the item may free @w: only what was read above is used */
		func(data);
	}
}
#endif
