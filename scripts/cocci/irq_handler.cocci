// SPDX-License-Identifier: GPL-2.0
/// Convert pre-2.6.19 interrupt handlers, irqreturn_t h(int, void *,
/// struct pt_regs *), and x86 NMI handlers, int h(unsigned int,
/// struct pt_regs *), for the 2.6.19 API change (commit 7d12e780e003).
///
/// -D compat  (default of scripts/convert): one source for every kernel.
///   Handlers become IRQ_COMPAT_HANDLER(h, irq, dev_id) and
///   NMI_COMPAT_HANDLER(h, type) from compat/irq_compat.h. A handler that
///   uses regs gets "struct pt_regs *regs = irq_compat_regs();" as its first
///   declaration, so the body keeps its meaning to the letter (the value at
///   entry, even where the body assigns to regs) and its text. Coccinelle
///   cannot emit a macro as a function header, so this file writes the
///   header with the parameter name irq_compat_regs_arg (the name
///   irq_compat.h gives it) and scripts/convert folds exactly that header
///   into the macro.
/// -D native: for drivers that only target 2.6.19 and later. The regs
///   parameter is dropped, a handler that used it starts with
///   "struct pt_regs *regs = get_irq_regs();" (<asm/irq_regs.h>), and
///   direct calls of a converted handler lose their third argument. NMI
///   handlers are left alone: int h(unsigned int, struct pt_regs *) is still
///   the stock x86 prototype.
///
/// request_irq() call sites are not touched: the converted handler has the
/// type they expect. Only a cast applied to a converted handler (a pre-2.6.19
/// habit to silence prototype warnings) is removed, since it would now cast
/// between function types. In compat mode a direct call of a converted
/// handler is reported: its argument count now depends on the kernel.
//
// Confidence: High. Only handlers with exactly the historical prototypes
// are touched (NMI handlers only when passed to register_nmi_handler()).
// Options: --include-headers

virtual compat
virtual native
virtual report

// ------------------------------------------------------------ compat mode
@cuses depends on compat@
typedef irqreturn_t;
identifier fn, irq, dev, regs;
@@
  irqreturn_t fn(int irq, void *dev, struct pt_regs *regs)
  {
  <+... regs ...+>
  }

@cdef depends on compat@
typedef irqreturn_t;
identifier fn, irq, dev, regs;
symbol irq_compat_regs_arg;
@@
  irqreturn_t fn(int irq, void *dev,
- struct pt_regs *regs
+ struct pt_regs *irq_compat_regs_arg
  )
  { ... }

@cdecl depends on compat@
identifier cuses.fn, cuses.regs, irq, dev;
symbol irq_compat_regs_arg;
@@
  irqreturn_t fn(int irq, void *dev, struct pt_regs *irq_compat_regs_arg)
  {
+ struct pt_regs *regs = irq_compat_regs();
  ...
  }

@cproto depends on compat@
identifier cdef.fn;
identifier irq, dev, regs;
symbol irq_compat_regs_arg;
@@
  irqreturn_t fn(int irq, void *dev,
- struct pt_regs *regs
+ struct pt_regs *irq_compat_regs_arg
  );

@cproto_anon depends on compat@
identifier cdef.fn;
symbol irq_compat_regs_arg;
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

@cnmiuses depends on compat@
identifier nmireg.fn;
identifier type, regs;
@@
  int fn(unsigned int type, struct pt_regs *regs)
  {
  <+... regs ...+>
  }

@cnmi depends on compat@
identifier nmireg.fn;
identifier type, regs;
symbol irq_compat_regs_arg;
@@
  int fn(unsigned int type,
- struct pt_regs *regs
+ struct pt_regs *irq_compat_regs_arg
  )
  { ... }

@cnmidecl depends on compat@
identifier nmireg.fn, cnmiuses.regs, type;
symbol irq_compat_regs_arg;
@@
  int fn(unsigned int type, struct pt_regs *irq_compat_regs_arg)
  {
+ struct pt_regs *regs = irq_compat_regs();
  ...
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

@ccast depends on compat disable drop_cast@
identifier cdef.fn;
type T;
@@
- (T)fn
+ fn

@has_inc depends on compat@
@@
(
  #include <irq_compat.h>
|
  #include "irq_compat.h"
)

@cinc depends on compat && (cdef || cnmi) && !has_inc@
@@
  #include <linux/interrupt.h>
+ #include <irq_compat.h>

// ------------------------------------------------------------ native mode
@nuses depends on native@
typedef irqreturn_t;
identifier fn, irq, dev, regs;
@@
  irqreturn_t fn(int irq, void *dev, struct pt_regs *regs)
  {
  <+... regs ...+>
  }

@ndecl depends on native@
identifier nuses.fn, nuses.regs, irq, dev;
@@
  irqreturn_t fn(int irq, void *dev, struct pt_regs *regs)
  {
+ struct pt_regs *regs = get_irq_regs();
  ...
  }

@ndef depends on native@
typedef irqreturn_t;
identifier fn, irq, dev, regs;
@@
  irqreturn_t fn(int irq, void *dev
- , struct pt_regs *regs
  )
  { ... }

@nproto depends on native@
identifier ndef.fn;
identifier irq, dev, regs;
@@
  irqreturn_t fn(int irq, void *dev
- , struct pt_regs *regs
  );

@nproto_anon depends on native@
identifier ndef.fn;
@@
  irqreturn_t fn(int, void *
- , struct pt_regs *
  );

@ncall depends on native@
identifier ndef.fn;
expression E1, E2, E3;
@@
  fn(E1, E2
- , E3
  )

@ncast depends on native disable drop_cast@
identifier ndef.fn;
type T;
@@
- (T)fn
+ fn

@has_irq_regs depends on native@
@@
  #include <asm/irq_regs.h>

@ninc depends on native && ndecl && !has_irq_regs@
@@
  #include <linux/interrupt.h>
+ #include <asm/irq_regs.h>
