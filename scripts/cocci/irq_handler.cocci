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
/// between function types. Prototypes and (native) direct calls follow the
/// handlers of every file converted, named by scripts/convert's plan; what
/// cannot be converted (a compat direct call: its argument count depends on
/// the kernel) is reported by the plan, from analyze.cocci's facts. The
/// includes are added by convert_plan.py finish.
//
// Confidence: High. Only handlers with exactly the historical prototypes
// are touched (NMI handlers only when passed to register_nmi_handler()).
// Options: --include-headers

virtual compat
virtual native

// The driver's handlers, from every file converted (scripts/convert's
// plan): a prototype in the driver's header or a call from another file
// follows a definition it cannot see.
@initialize:python@
@@
import json, os
HANDLERS = set(json.load(open(os.environ["IRQAIO_CONVERT_DB"]))["handlers"])

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
identifier hfn : script:python() { hfn in HANDLERS };
identifier irq, dev, regs;
symbol irq_compat_regs_arg;
@@
  irqreturn_t hfn(int irq, void *dev,
- struct pt_regs *regs
+ struct pt_regs *irq_compat_regs_arg
  );

@cproto_anon depends on compat@
identifier hfn : script:python() { hfn in HANDLERS };
symbol irq_compat_regs_arg;
@@
  irqreturn_t hfn(int, void *,
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

@ccast depends on compat disable drop_cast@
identifier cdef.fn;
type T;
@@
- (T)fn
+ fn

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
identifier hfn : script:python() { hfn in HANDLERS };
identifier irq, dev, regs;
@@
  irqreturn_t hfn(int irq, void *dev
- , struct pt_regs *regs
  );

@nproto_anon depends on native@
identifier hfn : script:python() { hfn in HANDLERS };
@@
  irqreturn_t hfn(int, void *
- , struct pt_regs *
  );

@ncall depends on native@
identifier hfn : script:python() { hfn in HANDLERS };
expression E1, E2, E3;
@@
  hfn(E1, E2
- , E3
  )

@ncast depends on native disable drop_cast@
identifier ndef.fn;
type T;
@@
- (T)fn
+ fn
