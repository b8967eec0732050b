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
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

/* Load module file @fd with @params: 0, or the load's -errno. */
static inline int module_load_fd(int fd, const char *params)
{
	return syscall(SYS_finit_module, fd, params, 0) ? -errno : 0;
}

/*
 * The parameters the kernel command line gives module @name
 * (NAME.PARAM=VALUE words, which the guest's /init passes at boot as
 * modprobe would: the machine's, such as demo_irqdev.dma_bits), into @buf
 * as "PARAM=VALUE ...". A reload keeps them.
 */
static inline void module_boot_params(const char *name, char *buf, size_t size)
{
	char line[4096], *w, *save = NULL;
	size_t n = strlen(name), len = 0;
	int r;
	FILE *f = fopen("/proc/cmdline", "re");

	buf[0] = '\0';
	if (!f)
		return;
	if (!fgets(line, sizeof(line), f))
		line[0] = '\0';
	fclose(f);
	for (w = strtok_r(line, " \n", &save); w; w = strtok_r(NULL, " \n", &save)) {
		if (strncmp(w, name, n) || w[n] != '.' || !strchr(w + n, '='))
			continue;
		r = snprintf(buf + len, size - len, "%s ", w + n + 1);
		if (r < 0 || (size_t)r >= size - len) {
			buf[len] = '\0';	/* no half parameter */
			break;
		}
		len += r;
	}
}

/* Load /modules/@name.ko with the boot's parameters for it, then @params: 0, or -errno. */
static inline int module_load(const char *name, const char *params)
{
	char path[128], all[1024];
	int fd, r;

	snprintf(path, sizeof(path), "/modules/%s.ko", name);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	module_boot_params(name, all, sizeof(all));
	/* The later of two values of one parameter is the one the module gets. */
	snprintf(all + strlen(all), sizeof(all) - strlen(all), "%s", params);
	r = module_load_fd(fd, all);
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
