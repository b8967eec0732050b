# SPDX-License-Identifier: GPL-2.0
# Included by a driver's Makefile (ours and docs/example/Makefile): the
# toolchain overrides given on the command line or in the environment
# (make CC=clang LLVM=1 KCFLAGS=..., or DKMS's CC= LD=), as arguments for
# conftest.sh, so that the probes are compiled by the compiler that builds
# the modules:
#
#   conftest.sh --kdir $(KDIR) --out FILE -- $(IRQAIO_TOOLCHAIN_ARGS)
IRQAIO_TOOLCHAIN_VARS := CC LD AR NM OBJCOPY OBJDUMP STRIP LLVM LLVM_IAS KCFLAGS \
	CROSS_COMPILE ARCH HOSTCC HOSTCXX HOSTLD
IRQAIO_TOOLCHAIN_ARGS := $(foreach v,$(IRQAIO_TOOLCHAIN_VARS),$(if $(filter command line environment,$(origin $(v))),'$(v)=$($(v))'))
