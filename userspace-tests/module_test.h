/* SPDX-License-Identifier: GPL-2.0 */
/*
 * module_test.h - loading and unloading the guest's modules (/modules/NAME.ko)
 * with the system calls themselves, so that a test sees the load's own
 * errno, and asking whether one is loaded.
 */
#ifndef IRQAIO_MODULE_TEST_H
#define IRQAIO_MODULE_TEST_H

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

/* Load module file @fd with @params: 0, or the load's -errno. */
static inline int module_load_fd(int fd, const char *params)
{
	return syscall(SYS_finit_module, fd, params, 0) ? -errno : 0;
}

/* Load /modules/@name.ko with @params: 0, or -errno. */
static inline int module_load(const char *name, const char *params)
{
	char path[128];
	int fd, r;

	snprintf(path, sizeof(path), "/modules/%s.ko", name);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	r = module_load_fd(fd, params);
	close(fd);
	return r;
}

/* Unload module @name (not waiting for users): 0, or -errno. */
static inline int module_unload(const char *name)
{
	return syscall(SYS_delete_module, name, O_NONBLOCK) ? -errno : 0;
}

/* Whether module @name is loaded (or still loading or going). */
static inline bool module_loaded(const char *name)
{
	char path[128];
	struct stat st;

	snprintf(path, sizeof(path), "/sys/module/%s", name);
	return stat(path, &st) == 0;
}

#endif /* IRQAIO_MODULE_TEST_H */
