// SPDX-License-Identifier: GPL-2.0
/*
 * insn_window - a QEMU TCG plugin that counts the guest instructions each
 * vCPU executes inside windows the guest marks (make bench).
 *
 * The guest marks a window with magic no-ops (bench/insn_window.h): the
 * 7-byte "nopl disp32(%rax)" (0f 1f 80 + disp32) with disp32 one of
 *
 *   INSN_WINDOW_MAGIC | 1   begin a window on this vCPU
 *   INSN_WINDOW_MAGIC | 2   end it: one line for the window
 *   INSN_WINDOW_MAGIC | 3   next case: one "case" line (the guest says which)
 *
 * A no-op has no side effect and needs no privilege, so user space and the
 * kernel can both mark, on every kernel, without a device or a hypercall.
 * The count is the instructions strictly between begin and end on that
 * vCPU, whatever runs there in between: system calls, the kernel, and any
 * interrupt that arrives, which is why the guest repeats each window and
 * the report takes the median.
 *
 * Counting is per translation block: a block's instructions are added when
 * it starts, and a marker inside a block corrects for the instructions of
 * that block before (begin) or from (end) the marker. A block cut short by
 * an exception counts whole; the benchmarks touch their buffers first, so
 * their windows take none.
 *
 * Output, to the file named by the plugin argument out=FILE, one line each:
 *   case <vcpu> <n>              (n counts the case markers, from 0)
 *   window <vcpu> <case> <insns>
 * and with the argument profile=on, where the instructions went: at each
 * case marker (and at exit), for the case just finished,
 *   prof <case> <block address> <insns>
 * for every translation block that ran inside its windows (any vCPU's).
 *
 * Built against the qemu-plugin.h of the QEMU that loads it (qemu/bench
 * takes it from Debian's qemu source package of the installed version).
 */
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <qemu-plugin.h>

#include "../insn_window.h"

QEMU_PLUGIN_EXPORT int qemu_plugin_version = QEMU_PLUGIN_VERSION;

/* Per vCPU; each vCPU's callbacks run on its own thread, one at a time. */
struct vcpu_state {
	int active;
	int64_t count;
	long cases;
};

static struct vcpu_state *vcpus;
static int nr_vcpus;
static FILE *out;

/* profile=on: one per translated block, kept in a list under prof_lock. */
struct block {
	uint64_t vaddr;
	uint64_t n;		/* instructions */
	uint64_t insns;		/* executed inside windows since the last dump */
	struct block *next;
};

static int profile;
static pthread_mutex_t prof_lock = PTHREAD_MUTEX_INITIALIZER;
static struct block *blocks;	/* protected by prof_lock */
static long prof_case = -1;	/* protected by prof_lock */

static struct vcpu_state *vcpu(unsigned int index)
{
	return index < (unsigned int)nr_vcpus ? &vcpus[index] : NULL;
}

static void tb_exec(unsigned int index, void *udata)
{
	struct vcpu_state *v = vcpu(index);

	if (v && v->active)
		v->count += (int64_t)(uintptr_t)udata;
}

static void tb_exec_profiled(unsigned int index, void *udata)
{
	struct vcpu_state *v = vcpu(index);
	struct block *b = udata;

	if (v && v->active) {
		v->count += (int64_t)b->n;
		__atomic_fetch_add(&b->insns, b->n, __ATOMIC_RELAXED);
	}
}

/* Print and clear the profile of the case that just ended. */
static void prof_dump(long next_case)
{
	struct block *b;
	uint64_t insns;

	pthread_mutex_lock(&prof_lock);
	for (b = blocks; b; b = b->next) {
		insns = __atomic_exchange_n(&b->insns, 0, __ATOMIC_RELAXED);
		if (insns && prof_case >= 0)
			fprintf(out, "prof %ld 0x%" PRIx64 " %" PRIu64 "\n", prof_case,
				b->vaddr, insns);
	}
	prof_case = next_case;
	pthread_mutex_unlock(&prof_lock);
}

/* udata: the instructions of this block after the marker. */
static void mark_begin(unsigned int index, void *udata)
{
	struct vcpu_state *v = vcpu(index);

	if (!v)
		return;
	v->active = 1;
	v->count = (int64_t)(uintptr_t)udata;
}

/* udata: the instructions of this block from the marker on. */
static void mark_end(unsigned int index, void *udata)
{
	struct vcpu_state *v = vcpu(index);

	if (!v || !v->active)
		return;
	v->active = 0;
	v->count -= (int64_t)(uintptr_t)udata;
	fprintf(out, "window %u %ld %" PRId64 "\n", index, v->cases - 1,
		v->count);
}

static void mark_case(unsigned int index, void *udata)
{
	struct vcpu_state *v = vcpu(index);

	(void)udata;
	if (!v)
		return;
	v->active = 0;
	if (profile)
		prof_dump(v->cases);
	fprintf(out, "case %u %ld\n", index, v->cases++);
	fflush(out);
}

/* The marker an instruction is, or 0. */
static unsigned int marker_op(struct qemu_plugin_insn *insn)
{
	static const unsigned char nopl[3] = { 0x0f, 0x1f, 0x80 };
	const unsigned char *p = qemu_plugin_insn_data(insn);
	uint32_t disp;

	if (qemu_plugin_insn_size(insn) != INSN_WINDOW_MARK_LEN ||
	    memcmp(p, nopl, sizeof(nopl)))
		return 0;
	disp = (uint32_t)p[3] | (uint32_t)p[4] << 8 | (uint32_t)p[5] << 16 |
	       (uint32_t)p[6] << 24;
	if ((disp & ~INSN_WINDOW_OP_MASK) != INSN_WINDOW_MAGIC)
		return 0;
	return disp & INSN_WINDOW_OP_MASK;
}

static void tb_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	size_t n = qemu_plugin_tb_n_insns(tb), k;

	(void)id;
	if (profile) {
		struct block *b = calloc(1, sizeof(*b));

		if (!b)
			abort();
		b->vaddr = qemu_plugin_tb_vaddr(tb);
		b->n = n;
		pthread_mutex_lock(&prof_lock);
		b->next = blocks;
		blocks = b;
		pthread_mutex_unlock(&prof_lock);
		qemu_plugin_register_vcpu_tb_exec_cb(tb, tb_exec_profiled,
						     QEMU_PLUGIN_CB_NO_REGS, b);
	} else {
		qemu_plugin_register_vcpu_tb_exec_cb(tb, tb_exec, QEMU_PLUGIN_CB_NO_REGS,
						     (void *)(uintptr_t)n);
	}
	for (k = 0; k < n; k++) {
		struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, k);

		switch (marker_op(insn)) {
		case INSN_WINDOW_OP_BEGIN:
			qemu_plugin_register_vcpu_insn_exec_cb(insn, mark_begin,
							       QEMU_PLUGIN_CB_NO_REGS,
							       (void *)(uintptr_t)(n - k - 1));
			break;
		case INSN_WINDOW_OP_END:
			qemu_plugin_register_vcpu_insn_exec_cb(insn, mark_end,
							       QEMU_PLUGIN_CB_NO_REGS,
							       (void *)(uintptr_t)(n - k));
			break;
		case INSN_WINDOW_OP_CASE:
			qemu_plugin_register_vcpu_insn_exec_cb(insn, mark_case,
							       QEMU_PLUGIN_CB_NO_REGS,
							       NULL);
			break;
		default:
			break;
		}
	}
}

static void at_exit(qemu_plugin_id_t id, void *udata)
{
	(void)id;
	(void)udata;
	if (profile)
		prof_dump(-1);
	fclose(out);
}

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id,
					   const qemu_info_t *info,
					   int argc, char **argv)
{
	const char *path = NULL;
	bool on = false;
	int i;

	for (i = 0; i < argc; i++) {
		if (!strncmp(argv[i], "out=", 4)) {
			path = argv[i] + 4;
		} else if (!strncmp(argv[i], "profile=", 8)) {
			if (!qemu_plugin_bool_parse("profile", argv[i] + 8, &on)) {
				fprintf(stderr, "insn_window: bad %s\n", argv[i]);
				return -1;
			}
			profile = on;
		}
	}
	if (!path) {
		fprintf(stderr, "insn_window: needs the argument out=FILE\n");
		return -1;
	}
	if (!info->system_emulation) {
		fprintf(stderr, "insn_window: only for system emulation\n");
		return -1;
	}
	nr_vcpus = info->system.max_vcpus;
	vcpus = calloc(nr_vcpus, sizeof(*vcpus));
	out = fopen(path, "w");
	if (!vcpus || !out) {
		fprintf(stderr, "insn_window: cannot set up %s\n", path);
		return -1;
	}
	qemu_plugin_register_vcpu_tb_trans_cb(id, tb_trans);
	qemu_plugin_register_atexit_cb(id, at_exit, NULL);
	return 0;
}
