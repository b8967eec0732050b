/* SPDX-License-Identifier: GPL-2.0 */
/*
 * MODEL, not a kernel: WARN_ON_ONCE() counts instead of printing a splat,
 * so that a test can assert that nothing warned.
 */
#ifndef MODEL_LINUX_BUG_H
#define MODEL_LINUX_BUG_H
static inline int *model_warnings(void)
{
	static int n;

	return &n;
}

static inline int model_warn_on(int cond)
{
	if (cond)
		(*model_warnings())++;
	return cond;
}
#define WARN_ON_ONCE(cond) model_warn_on(!!(cond))
#endif
