/* SPDX-License-Identifier: GPL-2.0 */
/*
 * MODEL, not a kernel: what fs/read_write.c and fs/aio.c of the world did
 * with a driver's methods, reduced to the calls and checks that matter to
 * a char driver:
 *
 *   read(2)/write(2)     ->read, else do_sync_read(): a sync kiocb and
 *                        ->aio_read (2.6.18: the buffer; 2.6.19: the buffer
 *                        wrapped in one iovec); f_pos moves
 *   readv(2)/writev(2)   rw_copy_check_uvector() (UIO_MAXIOV, no wrap), then
 *                        2.6.18: ->readv, else ->read per segment;
 *                        2.6.19: do_sync_readv_writev(): ->aio_read(iov)
 *   io_submit()          PREAD/PWRITE: ->aio_read(buf) (2.6.18) or one
 *                        wrapped iovec (2.6.19); PREADV/PWRITEV only in
 *                        2.6.19. The kiocb is not sync and f_pos never moves;
 *                        a result other than -EIOCBQUEUED is completed at
 *                        once with aio_complete() (aio_run_iocb()), else
 *                        the driver does it later.
 *   3.16+ (the world's <linux/uio.h> has the iov_iter): a file with
 *   ->read_iter gets all of these through it, as new_sync_read() and
 *   aio_run_iocb() did; model_kernel_rw() is kernel_read()/kernel_write()
 *   (ITER_KVEC), model_bvec_rw() a page-backed request (ITER_BVEC, as
 *   iter_file_splice_write() and io_uring's fixed buffers make).
 *
 * A sync kiocb's method returning -EIOCBQUEUED was waited for with
 * wait_on_sync_kiocb() up to Linux 4.0 (4.1's new_sync_read() BUG()s on
 * it); the model waits too, and counts it in model_sync_queued(): the shim
 * promises that a synchronous caller never gets -EIOCBQUEUED.
 */
#ifndef MODEL_VFS_H
#define MODEL_VFS_H
#include <linux/aio.h>
#include <linux/errno.h>
#include <linux/fs.h>

#define IOCB_CMD_PREAD		0
#define IOCB_CMD_PWRITE		1
#define IOCB_CMD_PREADV		7
#define IOCB_CMD_PWRITEV	8

/* Synchronous callers that got -EIOCBQUEUED from a method. */
static inline int *model_sync_queued(void)
{
	static int n;

	return &n;
}

/*
 * The result of a method a synchronous caller called: with a sync @kiocb,
 * what do_sync_read() and friends did up to Linux 4.0; without one (the
 * 2.6.18 ->readv, a driver's own ->read), -EIOCBQUEUED would reach user
 * space.
 */
static inline ssize_t model_sync_result(struct kiocb *kiocb, ssize_t ret)
{
	if (ret != -EIOCBQUEUED)
		return ret;
	(*model_sync_queued())++;
	return kiocb ? wait_on_sync_kiocb(kiocb) : ret;
}

/* rw_copy_check_uvector(): the kernel's own checks of an iovec array. */
static inline ssize_t model_check_uvector(const struct iovec *iov, unsigned long nr)
{
	size_t total = 0;
	unsigned long k;

	if (nr > UIO_MAXIOV)
		return -EINVAL;
	for (k = 0; k < nr; k++) {
		if ((ssize_t)iov[k].iov_len < 0 || (ssize_t)(total + iov[k].iov_len) < 0)
			return -EINVAL;
		total += iov[k].iov_len;
	}
	return total;
}

#if LINUX_VERSION_CODE >= KERNEL_VERSION(3, 16, 0)
/* ->read_iter/->write_iter on an initialised iov_iter; ki_pos moves. */
static inline ssize_t model_call_iter(struct file *file, struct kiocb *iocb, int write,
				      struct iov_iter *iter)
{
	const struct file_operations *f = file->f_op;

	return write ? f->write_iter(iocb, iter) : f->read_iter(iocb, iter);
}

static inline ssize_t model_kernel_rw(struct file *file, int write, void *buf, size_t len,
				      loff_t *ppos)
{
	struct kvec kv = { .iov_base = buf, .iov_len = len };
	struct kiocb kiocb;
	struct iov_iter iter;
	ssize_t ret;

	init_sync_kiocb(&kiocb, file);
	kiocb.ki_pos = *ppos;
	iov_iter_kvec(&iter, write ? WRITE : READ, &kv, 1, len);
	ret = model_sync_result(&kiocb, model_call_iter(file, &kiocb, write, &iter));
	*ppos = kiocb.ki_pos;
	return ret;
}

static inline ssize_t model_bvec_rw(struct file *file, int write, const struct bio_vec *bv,
				    unsigned long nr, size_t len, loff_t pos)
{
	struct kiocb kiocb;
	struct iov_iter iter;

	init_sync_kiocb(&kiocb, file);
	kiocb.ki_pos = pos;
	iov_iter_bvec(&iter, write ? WRITE : READ, bv, nr, len);
	return model_sync_result(&kiocb, model_call_iter(file, &kiocb, write, &iter));
}
#endif

static inline ssize_t model_call_aio(struct file *file, struct kiocb *iocb, int write,
				     char __user *buf, size_t len, loff_t pos)
{
	const struct file_operations *f = file->f_op;
#if LINUX_VERSION_CODE >= KERNEL_VERSION(3, 16, 0)
	if (write ? f->write_iter != NULL : f->read_iter != NULL) {
		struct iovec iov = { .iov_base = buf, .iov_len = len };
		struct iov_iter iter;

		iov_iter_init(&iter, write ? WRITE : READ, &iov, 1, len);
		iocb->ki_pos = pos;
		return model_call_iter(file, iocb, write, &iter);
	}
#endif
#if LINUX_VERSION_CODE < KERNEL_VERSION(2, 6, 19)
	if (!(write ? (void *)f->aio_write : (void *)f->aio_read))
		return -EINVAL;
	return write ? f->aio_write(iocb, buf, len, pos) : f->aio_read(iocb, buf, len, pos);
#else
	struct iovec iov = { .iov_base = buf, .iov_len = len };

	if (!(write ? (void *)f->aio_write : (void *)f->aio_read))
		return -EINVAL;
	return write ? f->aio_write(iocb, &iov, 1, pos) : f->aio_read(iocb, &iov, 1, pos);
#endif
}

/* vfs_read()/vfs_write() with do_sync_read()/do_sync_write(). */
static inline ssize_t model_vfs_rw(struct file *file, int write, char __user *buf,
				   size_t len, loff_t *ppos)
{
	struct kiocb kiocb;
	ssize_t ret;

	if (!write && file->f_op->read)
		return model_sync_result(NULL, file->f_op->read(file, buf, len, ppos));
	if (write && file->f_op->write)
		return model_sync_result(NULL, file->f_op->write(file, buf, len, ppos));
	init_sync_kiocb(&kiocb, file);
	kiocb.ki_pos = *ppos;
	ret = model_call_aio(file, &kiocb, write, buf, len, kiocb.ki_pos);
	ret = model_sync_result(&kiocb, ret);
	*ppos = kiocb.ki_pos;
	return ret;
}

/* do_readv_writev(). */
static inline ssize_t model_vfs_rwv(struct file *file, int write, const struct iovec *iov,
				    unsigned long nr, loff_t *ppos)
{
	const struct file_operations *f = file->f_op;
	ssize_t ret = model_check_uvector(iov, nr);

	if (ret <= 0)
		return ret;
#if LINUX_VERSION_CODE < KERNEL_VERSION(2, 6, 19)
	if (write ? f->writev != NULL : f->readv != NULL)
		return model_sync_result(NULL, write ? f->writev(file, iov, nr, ppos) :
						       f->readv(file, iov, nr, ppos));
	if (!(write ? (void *)f->write : (void *)f->read))
		return -EINVAL;
	{	/* do_loop_readv_writev(): ->read/->write per segment */
		ssize_t done = 0;
		unsigned long k;

		for (k = 0; k < nr; k++) {
			ssize_t n = write ? f->write(file, iov[k].iov_base, iov[k].iov_len, ppos) :
					    f->read(file, iov[k].iov_base, iov[k].iov_len, ppos);
			if (n < 0)
				return done ? done : n;
			done += n;
			if ((size_t)n < iov[k].iov_len)
				break;
		}
		return done;
	}
#else
	{	/* do_sync_readv_writev(); 3.16+: do_iter_readv_writev() */
		struct kiocb kiocb;

		init_sync_kiocb(&kiocb, file);
		kiocb.ki_pos = *ppos;
#if LINUX_VERSION_CODE >= KERNEL_VERSION(3, 16, 0)
		if (write ? f->write_iter != NULL : f->read_iter != NULL) {
			struct iov_iter iter;

			iov_iter_init(&iter, write ? WRITE : READ, iov, nr, ret);
			ret = model_call_iter(file, &kiocb, write, &iter);
			ret = model_sync_result(&kiocb, ret);
			*ppos = kiocb.ki_pos;
			return ret;
		}
#endif
		if (!(write ? (void *)f->aio_write : (void *)f->aio_read))
			return -EINVAL;
		ret = write ? f->aio_write(&kiocb, iov, nr, kiocb.ki_pos) :
			      f->aio_read(&kiocb, iov, nr, kiocb.ki_pos);
		ret = model_sync_result(&kiocb, ret);
		*ppos = kiocb.ki_pos;
		return ret;
	}
#endif
}

/*
 * io_submit() of one iocb into @kiocb, which must stay until its event:
 * @buf is the buffer (PREAD/PWRITE) or the iovec array (PREADV/PWRITEV).
 * Returns 0 once submitted (the method's result is the event's res, on
 * the kiocb: model_aio_completions(), wait_on_sync_kiocb()), or the
 * submission error, with no event.
 */
static inline int model_io_submit(struct kiocb *kiocb, struct file *file, int opcode,
				  void *buf, unsigned long nbytes, loff_t offset)
{
	int write = opcode == IOCB_CMD_PWRITE || opcode == IOCB_CMD_PWRITEV;
	ssize_t ret;

	*kiocb = (struct kiocb){ .ki_key = 0, .ki_filp = file, .ki_pos = offset };
	switch (opcode) {
	case IOCB_CMD_PREAD:
	case IOCB_CMD_PWRITE:
		ret = model_call_aio(file, kiocb, write, buf, nbytes, offset);
		break;
#if LINUX_VERSION_CODE >= KERNEL_VERSION(2, 6, 19)
	case IOCB_CMD_PREADV:
	case IOCB_CMD_PWRITEV: {
		const struct iovec *iov = buf;

		ret = model_check_uvector(iov, nbytes);
		if (ret < 0)
			return ret;
#if LINUX_VERSION_CODE >= KERNEL_VERSION(3, 16, 0)
		if (write ? file->f_op->write_iter != NULL : file->f_op->read_iter != NULL) {
			struct iov_iter iter;

			iov_iter_init(&iter, write ? WRITE : READ, iov, nbytes, ret);
			ret = model_call_iter(file, kiocb, write, &iter);
			break;
		}
#endif
		ret = write ? file->f_op->aio_write(kiocb, iov, nbytes, offset) :
			      file->f_op->aio_read(kiocb, iov, nbytes, offset);
		break;
	}
#endif
	default:
		return -EINVAL;	/* 2.6.18 had no vectored aio commands */
	}
	/* aio_run_iocb(): -EIOCBQUEUED is the driver's to complete */
	if (ret != -EIOCBQUEUED)
		aio_complete(kiocb, ret, 0);
	return 0;
}

/*
 * One io_submit() iocb to a driver that completes it during submission:
 * the event's res, or the submission error; -EIOCBQUEUED (and a kiocb the
 * driver must not complete any more) for one that queued it.
 */
static inline ssize_t model_io_submit_one(struct file *file, int opcode, void *buf,
					  unsigned long nbytes, loff_t offset)
{
	struct kiocb kiocb;
	int err = model_io_submit(&kiocb, file, opcode, buf, nbytes, offset);

	if (err)
		return err;
	return kiocb.model_completions ? kiocb.model_res : -EIOCBQUEUED;
}
#endif /* MODEL_VFS_H */
