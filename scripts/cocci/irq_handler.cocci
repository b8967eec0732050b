// SPDX-License-Identifier: GPL-2.0
/// Convert pre-2.6.19 interrupt handlers, irqreturn_t h(int, void *,
/// struct pt_regs *), and x86 NMI handlers, int h(unsigned int,
/// struct pt_regs *), for the 2.6.19 API change (commit 7d12e780e003).
///
/// -D compat  (default of scripts/convert): one source for every kernel.
///   Handlers become IRQ_COMPAT_HANDLER(h, irq, dev_id) and
///   NMI_COMPAT_HANDLER(h, type) from compat/irq_compat.h; every use of the
///   regs parameter becomes irq_compat_regs(). Coccinelle cannot emit a
///   macro as a function header, so this file writes the header with the
///   parameter name irq_compat_regs_arg (the name irq_compat.h gives it) and
///   scripts/convert folds exactly that header into the macro.
/// -D native: for drivers that only target 2.6.19 and later. The regs
///   parameter is dropped, its uses become get_irq_regs() (<asm/irq_regs.h>)
///   and direct calls of a converted handler lose their third argument.
///   NMI handlers are left alone: int h(unsigned int, struct pt_regs *) is
///   still the stock x86 prototype.
///
/// request_irq() call sites are not touched: the converted handler has the
/// type they expect. Only a cast applied to a converted handler (a pre-2.6.19
/// habit to silence prototype warnings) is removed, since it would now cast
/// between function types.
//
// Confidence: High for the header and regs uses; a handler that assigns to
// regs or takes its address is reported, not converted.
// Options: --include-headers

virtual compat
virtual native
virtual report

// ---------------------------------------------------------------- refusals
@bad_lvalue@
typedef irqreturn_t;
identifier fn, irq, dev, regs;
expression E;
position p;
@@
  irqreturn_t fn@p(int irq, void *dev, struct pt_regs *regs)
  {
  <+...
(
  regs = E
|
  &regs
)
  ...+>
  }

@script:python depends on bad_lvalue@
fn << bad_lvalue.fn;
p << bad_lvalue.p;
@@
print("%s:%s: %s(): assigns to or takes the address of its regs parameter; "
      "not converted, do it by hand" % (p[0].file, p[0].line, fn))

// ------------------------------------------------------------ compat mode
@cdef depends on compat@
typedef irqreturn_t;
identifier fn != bad_lvalue.fn;
identifier irq, dev, regs;
@@
  irqreturn_t fn(int irq, void *dev,
- struct pt_regs *regs
+ struct pt_regs *irq_compat_regs_arg
  )
  {
  <...
- regs
+ irq_compat_regs()
  ...>
  }

@cproto depends on compat@
identifier cdef.fn;
identifier irq, dev, regs;
@@
  irqreturn_t fn(int irq, void *dev,
- struct pt_regs *regs
+ struct pt_regs *irq_compat_regs_arg
  );

@cproto_anon depends on compat@
identifier cdef.fn;
@@
  irqreturn_t fn(int, void *,
- struct pt_regs *
+ struct pt_regs *irq_compat_regs_arg
  );

@nmireg depends on compat@
identifier fn;
expression E1, E2, E3;
@@
  register_nmi_handler(E1, fn, E2, E3)

@cnmi depends on compat@
identifier nmireg.fn;
identifier type, regs;
@@
  int fn(unsigned int type,
- struct pt_regs *regs
+ struct pt_regs *irq_compat_regs_arg
  )
  {
  <...
- regs
+ irq_compat_regs()
  ...>
  }

@ccall depends on compat@
identifier cdef.fn;
expression E1, E2, E3;
position p;
@@
  fn@p(E1, E2, E3)

@script:python depends on ccall@
fn << cdef.fn;
p << ccall.p;
@@
print("%s:%s: direct call of handler %s() with a regs argument: its argument "
      "count now depends on the kernel; call the shared code through a helper "
      "that takes irq_compat_regs() instead" % (p[0].file, p[0].line, fn))

@ccast depends on compat@
identifier cdef.fn;
type T;
@@
- (T)fn
+ fn

@cinc depends on compat && (cdef || cnmi)@
@@
  #include <linux/interrupt.h>
+ #include <irq_compat.h>

// ------------------------------------------------------------ native mode
@ndef_uses depends on native@
typedef irqreturn_t;
identifier fn != bad_lvalue.fn;
identifier irq, dev, regs;
@@
  irqreturn_t fn(int irq, void *dev
- , struct pt_regs *regs
  )
  {
  <+...
- regs
+ get_irq_regs()
  ...+>
  }

@ndef depends on native@
identifier fn != bad_lvalue.fn;
identifier irq, dev, regs;
@@
  irqreturn_t fn(int irq, void *dev
- , struct pt_regs *regs
  )
  { ... }

@nproto depends on native@
identifier fn = {ndef.fn, ndef_uses.fn};
identifier irq, dev, regs;
@@
  irqreturn_t fn(int irq, void *dev
- , struct pt_regs *regs
  );

@nproto_anon depends on native@
identifier fn = {ndef.fn, ndef_uses.fn};
@@
  irqreturn_t fn(int, void *
- , struct pt_regs *
  );

@ncall depends on native@
identifier fn = {ndef.fn, ndef_uses.fn};
expression E1, E2, E3;
@@
  fn(E1, E2
- , E3
  )

@ncast depends on native@
identifier fn = {ndef.fn, ndef_uses.fn};
type T;
@@
- (T)fn
+ fn

@ninc depends on native && ndef_uses@
@@
  #include <linux/interrupt.h>
+ #include <asm/irq_regs.h>
