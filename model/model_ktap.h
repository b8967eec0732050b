/* SPDX-License-Identifier: GPL-2.0 */
/* MODEL test helpers: KTAP output on the host, one line per test. */
#ifndef MODEL_KTAP_H
#define MODEL_KTAP_H
#include <stdio.h>

struct model_test {
	const char *name;
	int (*fn)(void);
};

#define MODEL_EXPECT(cond)						\
	do {								\
		if (!(cond)) {						\
			printf("# %s:%d: expected %s\n", __FILE__, __LINE__, #cond); \
			return 1;					\
		}							\
	} while (0)

#ifdef IRQAIO_HAVE_GET_IRQ_REGS
#define IS_DEFINED_GET_IRQ_REGS 1
#else
#define IS_DEFINED_GET_IRQ_REGS 0
#endif
#ifdef IRQAIO_HAVE_GET_IRQ_REGS_EXPORTED
#define IS_DEFINED_GET_IRQ_REGS_EXPORTED 1
#else
#define IS_DEFINED_GET_IRQ_REGS_EXPORTED 0
#endif

static inline int model_ktap_run(const char *suite, const struct model_test *t, int n)
{
	int i, fail = 0;

	printf("KTAP version 1\n# %s (a userspace MODEL of the historical API, not a kernel)\n1..%d\n",
	       suite, n);
	for (i = 0; i < n; i++) {
		int r = t[i].fn();

		printf("%sok %d %s\n", r ? "not " : "", i + 1, t[i].name);
		fail += r != 0;
	}
	return fail ? 1 : 0;
}
#endif
