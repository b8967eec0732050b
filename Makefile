# SPDX-License-Identifier: GPL-2.0
# Thin wrapper over "make -C $(KDIR) M=$(CURDIR)".
#
#   make                  build the demo modules for KERNEL (default: the matrix's default row)
#   make KDIR=/path       build against any prepared kernel tree
#   make check            the whole matrix: build, boot, test (KERNELS="...")
#   make run              boot the default kernel, load the demos, show a report
#   make shell            interactive guest shell with the modules loaded
#   make model-check      the historical (pre-2.6.19) API model, on the host
#   make mutants          deliberate driver bugs must fail the guest tests
#   make clean

KERNEL ?= $(shell $(CURDIR)/lib/matrix.py default)
FEATURES := compat/generated/irqaio_features.h
# The drivers' own probes (what a driver needs beyond the shim), decided in
# the same run and written to the same header.
DRIVER_PROBES := $(wildcard $(CURDIR)/drivers/*/probes)

# A matrix kernel (qemu/matrix.toml) brings its toolchain: its chroot, when
# this machine lacks the compiler that built it (KEXEC runs the command
# there), and its make arguments (LLVM=...). KDIR=/path is used as it is.
ifeq ($(origin KDIR),undefined)
KENTRY = $(shell $(CURDIR)/qemu/fetch-kernel $(KERNEL))
KDIR = $(or $(shell cat $(KENTRY)/build_kdir 2>/dev/null),$(KENTRY)/kdir)
KEXEC = $(CURDIR)/qemu/kernel-exec $(KERNEL)
KMAKE_ARGS = $(shell cat $(KENTRY)/make_args 2>/dev/null)
endif

all: modules

modules: features
	$(KEXEC) $(MAKE) -C $(KDIR) M=$(CURDIR) IRQAIO_TOP=$(CURDIR) $(KMAKE_ARGS) modules

include $(CURDIR)/compat/toolchain.mk

# Re-probes only when the tree, the toolchain or the probes changed
# (conftest.sh decides); IRQAIO_PROBE_CACHE=DIR keeps results across
# checkouts (the harness's fresh copies of the tree).
features:
	@$(KEXEC) $(CURDIR)/compat/conftest.sh --kdir $(KDIR) --out $(FEATURES) \
		$(foreach d,$(DRIVER_PROBES),--probes $(d)) \
		$(if $(IRQAIO_PROBE_CACHE),--cache $(IRQAIO_PROBE_CACHE)) \
		-- $(IRQAIO_TOOLCHAIN_ARGS) $(KMAKE_ARGS)

clean:
	$(KEXEC) $(MAKE) -C $(KDIR) M=$(CURDIR) IRQAIO_TOP=$(CURDIR) clean
	$(RM) -r compat/generated

check:
	$(CURDIR)/tests/harness/check $(KERNELS)

run:
	$(CURDIR)/qemu/demo-run

shell:
	$(CURDIR)/tests/harness/check --shell $(KERNEL)

model-check:
	$(MAKE) -C model check

mutants:
	$(CURDIR)/tests/harness/mutants/run $(KERNELS)

# Benchmarks, not part of check: results/ (DOC=1 also rewrites BENCHMARKS.md).
bench:
	$(CURDIR)/qemu/bench $(if $(DOC),--doc)

# bench/harness-timings.md from the last make check's build/timings.json.
harness-timings:
	$(CURDIR)/tests/harness/timings.py build/timings.json >bench/harness-timings.md.tmp
	mv bench/harness-timings.md.tmp bench/harness-timings.md

.PHONY: all modules features clean check run shell model-check mutants bench harness-timings

# Maintainer tools (scripts/; see docs/using-the-shim.md)
#   make lint                       scripts/lint (its header lists the checks)
#   make install-headers DESTDIR=D  compat/ (headers, conftest.sh, probes) + guide
#   make convert SRC=dir/ [MODE=compat|native] [KDIR=tree|KERNEL=row]
#                                   Coccinelle conversion (docs/convert.md)
#   make dkms-check [KERNELS=...]   dkms build of dkms.conf against each matrix kernel
#   make deb                        Debian packages into build/deb (docs/packaging.md)
#   make docs                       rewrite the docs' tables made from other files
#                                   (the branch table from the last make check's builds)
PREFIX ?= /usr/local

lint:
	$(CURDIR)/scripts/lint

install-headers:
	$(CURDIR)/scripts/install-headers --destdir "$(DESTDIR)" --prefix "$(PREFIX)"

convert:
	$(CURDIR)/scripts/convert --mode $(or $(MODE),compat) \
		$(if $(filter command line environment,$(origin KDIR)),--kdir $(KDIR)) \
		$(if $(filter command line environment,$(origin KERNEL)),--kernel $(KERNEL)) $(SRC)

dkms-check:
	$(CURDIR)/scripts/dkms-check $(KERNELS)

deb:
	$(CURDIR)/scripts/make-deb

docs:
	$(CURDIR)/scripts/doc-tables update

.PHONY: lint install-headers convert dkms-check deb docs
