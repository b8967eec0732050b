/* SPDX-License-Identifier: GPL-2.0 */
/*
 * MODEL, not a kernel: user copies. "User memory" is host memory; one
 * range can be declared unmapped (model_set_fault_range()), and a copy that
 * touches it stops at its first byte and returns the bytes not copied, as
 * the kernel's copy_{to,from}_user() do at a fault; copy_from_user() then
 * zero-fills the rest of the destination, as the kernel's does. (In 2.6.18
 * these lived in <asm/uaccess.h>.)
 */
#ifndef MODEL_LINUX_UACCESS_H
#define MODEL_LINUX_UACCESS_H
#include <linux/kernel.h>

struct model_fault_range {
	const char *lo, *hi;	/* [lo, hi) faults */
};

static inline struct model_fault_range *model_fault(void)
{
	static struct model_fault_range r;

	return &r;
}

static inline void model_set_fault_range(const void *lo, size_t len)
{
	model_fault()->lo = lo;
	model_fault()->hi = (const char *)lo + len;
}

/* Bytes of [p, p+n) before the first faulting byte. */
static inline unsigned long model_accessible(const void __user *p, unsigned long n)
{
	const char *a = (const char *)p, *lo = model_fault()->lo, *hi = model_fault()->hi;

	if (!lo || a + n <= lo || a >= hi)
		return n;
	return a < lo ? (unsigned long)(lo - a) : 0;
}

static inline unsigned long copy_to_user(void __user *to, const void *from, unsigned long n)
{
	unsigned long ok = model_accessible(to, n);

	__builtin_memcpy((void *)to, from, ok);
	return n - ok;
}

static inline unsigned long copy_from_user(void *to, const void __user *from, unsigned long n)
{
	unsigned long ok = model_accessible(from, n);

	__builtin_memcpy(to, (const void *)from, ok);
	__builtin_memset((char *)to + ok, 0, n - ok);
	return n - ok;
}
#endif
