# SPDX-License-Identifier: GPL-2.0
# Included by a driver's Makefile (ours and docs/example/Makefile): the
# toolchain overrides the module build will honour, as arguments for
# conftest.sh, so that the probes are compiled by the compiler that builds
# the modules:
#
#   conftest.sh --kdir $(KDIR) --out FILE -- $(IRQAIO_TOOLCHAIN_ARGS)
#
# Kbuild assigns CC, LD and the other tools itself, so a value from the
# environment does not reach the module build (only "make CC=..." does);
# LLVM, LLVM_IAS, KCFLAGS, CROSS_COMPILE and ARCH it takes from either.
# (DKMS exports a CC that can carry make's "Entering directory '...'" noise:
# taking it from the environment broke the probes' shell command.)
IRQAIO_CMDLINE_VARS := CC LD AR NM OBJCOPY OBJDUMP STRIP HOSTCC HOSTCXX HOSTLD
IRQAIO_ENV_VARS := LLVM LLVM_IAS KCFLAGS CROSS_COMPILE ARCH
irqaio_squote := '
irqaio_escsq = $(subst $(irqaio_squote),'\$(irqaio_squote)',$(1))
irqaio_arg = '$(1)=$(call irqaio_escsq,$($(1)))'
IRQAIO_TOOLCHAIN_ARGS := \
	$(foreach v,$(IRQAIO_CMDLINE_VARS),$(if $(filter command line,$(origin $(v))),$(call irqaio_arg,$(v)))) \
	$(foreach v,$(IRQAIO_ENV_VARS),$(if $(filter command line environment,$(origin $(v))),$(call irqaio_arg,$(v))))
