/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Stand-ins for the 2.6.18 kernel services the corpus handlers call, so that
 * they compile against the historical API model (model/include, one world of
 * model/worlds/). Deliberately world-independent: helpers that took regs in
 * 2.6.18 keep taking them, the way a driver's own helpers would.
 */
#ifndef CORPUS_H
#define CORPUS_H
#include <linux/kernel.h>
#include <linux/types.h>
#include <asm/ptrace.h>
#include <linux/interrupt.h>

#ifndef IRQ_RETVAL
#define IRQ_RETVAL(x)	((x) != 0)	/* <linux/interrupt.h> of 2.6.18 */
#endif
#define CPU_PROFILING	1
#define KERN_WARNING	"<4>"

struct corpus_state {
	unsigned long ticks, user_ticks, profiled, handled, math_errors;
	unsigned long last_ip;
};
extern struct corpus_state corpus;

static inline void do_timer(unsigned long n) { corpus.ticks += n; }
static inline void update_process_times(int user) { corpus.user_ticks += !!user; }
#if LINUX_VERSION_CODE < KERNEL_VERSION(2, 6, 19)
static inline void profile_tick(int type, struct pt_regs *regs)
{
	corpus.profiled++;
	corpus.last_ip = regs ? regs->ip : 0;
}
#else
static inline void profile_tick(int type)
{
	corpus.profiled++;
	corpus.last_ip = __irq_regs ? __irq_regs->ip : 0;
}
#endif
static inline void outb(unsigned char v, unsigned int port) { (void)v; (void)port; }
static inline unsigned int readl(const volatile void *addr) { return *(const volatile unsigned int *)addr; }
static inline void writel(unsigned int v, volatile void *addr) { *(volatile unsigned int *)addr = v; }
static inline void spin_lock(int *l) { (void)l; }
static inline void spin_unlock(int *l) { (void)l; }

/*
 * fs/read_write.c of 2.6.18: read(2)/write(2) through a sync kiocb and
 * ->aio_read/->aio_write, for file_operations that name them (corpus_run.c).
 */
struct file;
ssize_t do_sync_read(struct file *filp, char __user *buf, size_t len, loff_t *ppos);
ssize_t do_sync_write(struct file *filp, const char __user *buf, size_t len, loff_t *ppos);

/* libata in miniature: a host with ports and a lock. */
struct ata_port { unsigned int port_no; int busy; };
struct ata_host {
	int lock;
	unsigned int n_ports;
	void *mmio_base;
	void *private_data;
	struct ata_port *ports[4];
};
static inline unsigned int ata_host_intr(struct ata_port *ap) { return ap && ap->busy; }
#endif /* CORPUS_H */
