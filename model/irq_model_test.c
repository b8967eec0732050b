// SPDX-License-Identifier: GPL-2.0
/*
 * MODEL, not a kernel. Compiles compat/irq_compat.h against the historical
 * interrupt API of each modelled world (model/worlds/) and runs a handler
 * through the model's do_IRQ(): the old-world branches of the shim, which no
 * kernel we can boot still has, are compiled and exercised here.
 */
#include <stdio.h>
#include <irq_compat.h>
#include <ktap.h>
#include "model_test.h"

/*
 * Where get_irq_regs() exists but is not exported, the shim makes
 * irq_compat_regs() a compile error, and only where it is used: this
 * handler must then still compile and run without it (compile-check shows
 * the error itself).
 */
#if defined(IRQAIO_HAVE_GET_IRQ_REGS) && !defined(IRQAIO_HAVE_GET_IRQ_REGS_EXPORTED)
#define MODEL_SHIM_HAS_REGS 0
#else
#define MODEL_SHIM_HAS_REGS 1
#endif

static struct pt_regs *seen_regs;
static void *seen_dev;
static int seen_irq;

static IRQ_COMPAT_HANDLER(model_isr, irq, dev_id)
{
#if MODEL_SHIM_HAS_REGS
	seen_regs = irq_compat_regs();
#endif
	seen_dev = dev_id;
	seen_irq = irq;
	return IRQ_HANDLED;
}

/* The macro must yield exactly the world's prototype: no casts anywhere. */
#if LINUX_VERSION_CODE < KERNEL_VERSION(2, 6, 19)
_Static_assert(IRQAIO_IRQ_HANDLER_ARGS == 3, "2.6.18: 3-argument handlers");
_Static_assert(__builtin_types_compatible_p(__typeof__(&model_isr),
		irqreturn_t (*)(int, void *, struct pt_regs *)),
	       "IRQ_COMPAT_HANDLER must give the 2.6.18 prototype");
#else
_Static_assert(IRQAIO_IRQ_HANDLER_ARGS == 2, "2.6.19: 2-argument handlers");
_Static_assert(__builtin_types_compatible_p(__typeof__(&model_isr),
		irqreturn_t (*)(int, void *)),
	       "IRQ_COMPAT_HANDLER must give the 2.6.19 prototype");
_Static_assert(__builtin_types_compatible_p(__typeof__(&model_isr), irq_handler_t),
	       "IRQ_COMPAT_HANDLER must give irq_handler_t");
#endif
_Static_assert(__builtin_types_compatible_p(__typeof__(model_do_irq(0, NULL)), irqreturn_t),
	       "model sanity");
/* Every branch keeps the type; only a call that is compiled can fail. */
_Static_assert(__builtin_types_compatible_p(__typeof__(irq_compat_regs()), struct pt_regs *),
	       "irq_compat_regs() is a struct pt_regs * in every world");

static int cookie;

KTAP_TEST(irq_request_and_deliver, 30)
{
	struct pt_regs kregs = { .ip = 0xc0101234, .cs = 0x60 };
	struct pt_regs uregs = { .ip = 0x08048000, .cs = 0x73 };

	KTAP_EXPECT(request_irq(5, model_isr, IRQF_SHARED, "model", &cookie) == 0);
	KTAP_EXPECT(model_do_irq(5, &kregs) == IRQ_HANDLED);
	KTAP_EXPECT(seen_dev == &cookie && seen_irq == 5);
	if (MODEL_SHIM_HAS_REGS) {
		KTAP_EXPECT(seen_regs == &kregs);
		KTAP_EXPECT(!user_mode(seen_regs));
	}
	KTAP_EXPECT(model_do_irq(5, &uregs) == IRQ_HANDLED);
	if (MODEL_SHIM_HAS_REGS) {
		KTAP_EXPECT(seen_regs == &uregs && user_mode(seen_regs));
		KTAP_EXPECT(instruction_pointer(seen_regs) == 0x08048000);
	} else {
		KTAP_EXPECT(!seen_regs);
	}
	free_irq(5, &cookie);
	KTAP_EXPECT(model_do_irq(5, &kregs) == IRQ_NONE);
	return KTAP_PASS;
}

/*
 * The probes against the world: get_irq_regs() from 2.6.19 on, and
 * exported exactly when the world's Module.symvers lists __irq_regs (the
 * Makefile reads that on its own, so conftest.sh ignoring the file fails
 * here in the irq-regs-unexported world).
 */
KTAP_TEST(irq_probed_features, 30)
{
#if LINUX_VERSION_CODE < KERNEL_VERSION(2, 6, 19)
	KTAP_EXPECT(!IS_DEFINED(IRQAIO_HAVE_GET_IRQ_REGS));
	KTAP_EXPECT(!IS_DEFINED(IRQAIO_HAVE_GET_IRQ_REGS_EXPORTED));
#else
	KTAP_EXPECT(IS_DEFINED(IRQAIO_HAVE_GET_IRQ_REGS));
	KTAP_EXPECT(IS_DEFINED(IRQAIO_HAVE_GET_IRQ_REGS_EXPORTED) == MODEL_WORLD_EXPORTS_IRQ_REGS);
#endif
	return KTAP_PASS;
}

int main(void)
{
	return ktap_main("irq_model " MODEL_WORLD);
}
