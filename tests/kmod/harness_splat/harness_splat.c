// SPDX-License-Identifier: GPL-2.0
/*
 * harness_splat - test-only module for tests/harness/selftest. Loading it with
 * what=warn|lockdep|slub makes the kernel print one report that does not
 * panic (a test boot runs with panic_on_warn=0 for it), so that the
 * harness proves it sees reports that leave the guest running: a WARN, a
 * lockdep circular-dependency report, a SLUB redzone corruption report.
 * what=int3 executes an int3 no handler claims, the Oops a CPU meets on a
 * site that text_poke_bp() has finished patching.
 * what=none loads it quietly: the taint it leaves (O, E) must pass.
 * Never part of the demo drivers or of a guest suite.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bug.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/string.h>

static char *what = "";
module_param(what, charp, 0444);
MODULE_PARM_DESC(what, "report to provoke: warn, lockdep, slub, int3 or none");

/*
 * The byte written in the "slub" case: just past a 64-byte kmalloc object,
 * in the right redzone slub_debug=Z puts there. A parameter, so that the
 * compiler does not see a constant out-of-bounds store.
 */
static unsigned int slub_offset = 64;
module_param(slub_offset, uint, 0444);
MODULE_PARM_DESC(slub_offset, "byte of the kmalloc-64 object to overwrite");

/* Taken in both orders by one thread: no deadlock, but lockdep sees AB-BA. */
static DEFINE_MUTEX(harness_splat_a);
static DEFINE_MUTEX(harness_splat_b);

static void harness_splat_lockdep(void)
{
	mutex_lock(&harness_splat_a);
	mutex_lock(&harness_splat_b);
	mutex_unlock(&harness_splat_b);
	mutex_unlock(&harness_splat_a);

	mutex_lock(&harness_splat_b);
	mutex_lock(&harness_splat_a);
	mutex_unlock(&harness_splat_a);
	mutex_unlock(&harness_splat_b);
}

/*
 * The corrupted object stays allocated until unload, so that the report
 * comes from "echo 1 >/sys/kernel/slab/kmalloc-64/validate", which checks
 * every object's redzones. Freeing it at once would leave the check to
 * kfree(), which a KASAN kernel defers: its quarantine holds the object.
 */
static u8 *harness_splat_obj;

static int harness_splat_slub(void)
{
	harness_splat_obj = kmalloc(64, GFP_KERNEL);
	if (!harness_splat_obj)
		return -ENOMEM;
	WRITE_ONCE(harness_splat_obj[slub_offset], 0xa5);
	return 0;
}

static int __init harness_splat_init(void)
{
	if (!strcmp(what, "warn")) {
		WARN(1, "deliberate warning for tests/harness/selftest\n");
		return 0;
	}
	if (!strcmp(what, "lockdep")) {
		harness_splat_lockdep();
		return 0;
	}
	if (!strcmp(what, "slub"))
		return harness_splat_slub();
	if (!strcmp(what, "int3")) {
		asm volatile("int3");
		return 0;
	}
	if (!strcmp(what, "none"))
		return 0;
	pr_err("what=%s: expected warn, lockdep, slub, int3 or none\n", what);
	return -EINVAL;
}

static void __exit harness_splat_exit(void)
{
	kfree(harness_splat_obj);
}

module_init(harness_splat_init);
module_exit(harness_splat_exit);
MODULE_DESCRIPTION("Provokes one kernel report for the harness self-tests");
MODULE_LICENSE("GPL");
