#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# kernel_facts: the matrix's facts about this kernel (/etc/irqaio/kernel.facts,
# from qemu/matrix.toml) against what the guest can see: the running
# release and the compile probes the modules were built with
# (/etc/irqaio/features.h). A wrong row, or a host that booted another
# kernel than it named, fails here instead of skewing every other test.
facts=/etc/irqaio/kernel.facts
features=/etc/irqaio/features.h
# shellcheck source=lib/ktap.sh
. /lib/irqaio/ktap.sh

fact() { sed -n "s/^$1=//p" "$facts"; }
have() { grep -q "^#define IRQAIO_HAVE_$1 1" "$features"; }
# export_fact FACT PROBE YES NO: FACT says YES where PROBE found the symbol
# exported and NO where it did not; any other value fails.
export_fact() {
	ok=0
	case $(fact "$1") in
	"$3") have "$2" && ok=1 ;;
	"$4") have "$2" || ok=1 ;;
	esac
	ktap_result $ok "$1_fact_vs_probe" "fact $(fact "$1")"
}

if [ ! -f "$facts" ] || [ ! -f "$features" ]; then
	ktap_begin
	ktap_result 0 facts_present "missing $facts or $features"
	ktap_end
	exit 1
fi
ktap_begin "kernel_facts on $(fact kernel): $(tr '\n' ' ' <"$facts")"

ok=0
[ "$(fact release)" = "$(uname -r)" ] && ok=1
ktap_result $ok release_matches "matrix release $(fact release), running $(uname -r)"

# core-patch 0001 drops the NMI handler's regs argument; the probe sees it.
ok=0
case $(fact nmi_handler) in
regs) have NMI_HANDLER_REGS && ! have NMI_HANDLER_NOREGS && ok=1 ;;
noregs) have NMI_HANDLER_NOREGS && ok=1 ;;
absent) have NMI_HANDLER_REGS || have NMI_HANDLER_NOREGS || ok=1 ;;
esac
ktap_result $ok nmi_handler_fact_vs_probe "fact $(fact nmi_handler)"

# ITER_UBUF arrived in 6.0; single-segment requests became ITER_UBUF after
# iter_iov() (6.4), so "single" needs both probes and "none" neither.
ok=0
case $(fact ubuf) in
none) have ITER_UBUF || ok=1 ;;
rw) have ITER_UBUF && ok=1 ;;
single) have ITER_UBUF && have ITER_IOV && ok=1 ;;
esac
ktap_result $ok ubuf_fact_vs_probe "fact $(fact ubuf)"

# pcim_iomap_region() arrived in 6.11; the probe links against it.
export_fact pcim_iomap_region PCIM_IOMAP_REGION_EXPORTED exported absent

# How a queued kiocb completes: ki_complete lost res2 in 5.16.
ok=0
case $(fact dma_complete) in
ki_complete3) have AIO_KI_COMPLETE_3ARG && ! have AIO_KI_COMPLETE_2ARG && ok=1 ;;
ki_complete2) have AIO_KI_COMPLETE_2ARG && ! have AIO_KI_COMPLETE_3ARG && ok=1 ;;
esac
ktap_result $ok dma_complete_fact_vs_probe "fact $(fact dma_complete)"

# iov_iter_extract_pages() (6.3) is preferred over pin_user_pages_fast().
ok=0
case $(fact dma_pin) in
extract) have ITER_EXTRACT_PAGES_EXPORTED && ok=1 ;;
pin_user) ! have ITER_EXTRACT_PAGES_EXPORTED && have PIN_USER_PAGES_FAST_EXPORTED && ok=1 ;;
esac
ktap_result $ok dma_pin_fact_vs_probe "fact $(fact dma_pin)"

# kiocb_set_cancel_fn() safe on any kiocb (IOCB_AIO_RW).
export_fact dma_cancel AIO_CANCEL_AIO_RW_EXPORTED yes no

# Forced interrupt threading: a PREEMPT_RT kernel says so in its version
# string, threadirqs is on the command line; where handlers are threaded,
# the probe must have found IRQF_NO_THREAD, the way out of it.
rt=0 threadirqs=0
uname -v | grep -qw PREEMPT_RT && rt=1
grep -qw threadirqs /proc/cmdline && threadirqs=1
ok=0
case $(fact irq_threads) in
none) [ $rt = 0 ] && [ $threadirqs = 0 ] && ok=1 ;;
threadirqs) [ $rt = 0 ] && [ $threadirqs = 1 ] && have IRQF_NO_THREAD && ok=1 ;;
rt) [ $rt = 1 ] && have IRQF_NO_THREAD && ok=1 ;;
esac
ktap_result $ok irq_threads_fact_vs_kernel "fact $(fact irq_threads); PREEMPT_RT $rt, threadirqs $threadirqs"

# Module signatures: the parameter exists only with CONFIG_MODULE_SIG and
# reads Y when they are forced. Where they are, every module this suite
# loaded was signed (the E taint, an unsigned module, never appears).
enforce=$(cat /sys/module/module/parameters/sig_enforce 2>/dev/null || echo absent)
unsigned_taint=$(( ($(cat /proc/sys/kernel/tainted) >> 13) & 1 ))
ok=0
case $(fact module_sig) in
none) [ "$enforce" = absent ] && ok=1 ;;
optional) [ "$enforce" = N ] && ok=1 ;;
forced) [ "$enforce" = Y ] && [ $unsigned_taint = 0 ] && ok=1 ;;
esac
ktap_result $ok module_sig_fact_vs_kernel "fact $(fact module_sig); sig_enforce $enforce, unsigned-module taint $unsigned_taint"
ktap_end
