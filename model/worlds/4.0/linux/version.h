/* SPDX-License-Identifier: GPL-2.0 */
/*
 * MODEL, not a kernel: the early iov_iter world, Linux 3.19-4.0 (named for
 * 4.0). ->read_iter/->write_iter exist beside the iovec ->aio_read, the
 * iov_iter's type is a bit in iter->type (ITER_IOVEC 0, ITER_KVEC 2,
 * ITER_BVEC 4), its array is the public ->iov member; no iter_is_iovec()
 * (4.1), no type accessors (4.20), no ITER_UBUF (6.0), no ITER_DEST (6.1),
 * no IOCB_NOWAIT (4.13). Its own <linux/uio.h> and <model/vfs.h> (next to
 * this file) stand for lib/iov_iter.c and fs/read_write.c, fs/aio.c of 4.0.
 */
#ifndef MODEL_LINUX_VERSION_H
#define MODEL_LINUX_VERSION_H
#define KERNEL_VERSION(a, b, c) (((a) << 16) + ((b) << 8) + (c))
#define LINUX_VERSION_CODE 262144 /* 4.0 */
#endif
