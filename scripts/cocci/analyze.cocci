// SPDX-License-Identifier: GPL-2.0
/// The facts scripts/convert plans with, read from the user's files before
/// anything is changed (so every line number is a line of those files, never
/// of Coccinelle's temporary copies). Changes nothing: each rule prints one
/// tab-separated "IRQAIO" fact line, which scripts/cocci/convert_plan.py
/// plan (the planner in scripts/cocci/convert/) reads for the whole driver
/// at once (a handler defined in one file and declared or called in
/// another, an aio method completed by a helper).
///
/// Facts: handler, hproto, nmi, regsfn, regslocal, regscall, regsfield, ref,
/// call, def, async, fops, aiometh, kiocb, kiocb_ok, kparam, kpass, kstore,
/// issync, acomp, acomp_stmt, acomp_free.
//
// Confidence: High (it only matches). Options: --include-headers

virtual compat
virtual native

@initialize:python@
@@
def fact(*a):
    print("IRQAIO\t" + "\t".join(str(x) for x in a))

def at(p):
    return (p[0].file, p[0].line, p[0].column, p[0].current_element)

// ------------------------------------------------------------ interrupts
@hdef@
typedef irqreturn_t;
identifier fn, irq, dev, regs;
position p;
@@
  irqreturn_t fn@p(int irq, void *dev, struct pt_regs *regs) { ... }

@script:python@
fn << hdef.fn;
regs << hdef.regs;
p << hdef.p;
@@
fact("handler", *at(p)[:3], fn, regs)

@hproto@
identifier fn, i, d, r;
position p;
@@
(
  irqreturn_t fn@p(int, void *, struct pt_regs *);
|
  irqreturn_t fn@p(int i, void *d, struct pt_regs *r);
)

@script:python@
fn << hproto.fn;
p << hproto.p;
@@
fact("hproto", *at(p)[:3], fn)

// Every function with a struct pt_regs * parameter: handlers, the driver's
// helpers, and callbacks of kernel types that lost regs in 2.6.19.
@rfn@
identifier fn, r;
type T;
parameter list[n] ps;
parameter list ps2;
position p;
@@
  T fn@p(ps, struct pt_regs *r, ps2) { ... }

@script:python@
fn << rfn.fn;
r << rfn.r;
n << rfn.n;
p << rfn.p;
@@
fact("regsfn", *at(p)[:3], fn, r, n)

@rloc@
identifier x;
position p;
@@
(
  struct pt_regs *x@p;
|
  struct pt_regs *x@p = ...;
)

@script:python@
x << rloc.x;
p << rloc.p;
@@
fact("regslocal", *at(p), x)

// Calls that receive a regs parameter or local itself as an argument.
@rcall@
identifier rfn.r, g;
expression list[k] es;
expression list es2;
position q;
@@
  g@q(es, r, es2)

@script:python@
g << rcall.g;
k << rcall.k;
q << rcall.q;
r << rfn.r;
@@
fact("regscall", *at(q), g, k, r)

// ... or cast to another pointer type on the way (reported unless the
// callee keeps regs: a cast hides the argument from the conversions).
@rccall disable drop_cast@
identifier rfn.r, g;
expression list[k] es;
expression list es2;
type T;
position q;
@@
  g@q(es, (T)r, es2)

@script:python@
g << rccall.g;
k << rccall.k;
q << rccall.q;
@@
fact("regscall", *at(q), g, k, "(cast)")

@rlcall@
identifier rloc.x, g;
expression list[k] es;
expression list es2;
position q;
@@
  g@q(es, x, es2)

@script:python@
g << rlcall.g;
k << rlcall.k;
q << rlcall.q;
x << rloc.x;
@@
fact("regscall", *at(q), g, k, x)

@rfcall@
identifier rfn.r, fld;
expression E;
expression list[k] es;
expression list es2;
position q;
@@
(
  E->fld@q(es, r, es2)
|
  E.fld@q(es, r, es2)
)

@script:python@
fld << rfcall.fld;
k << rfcall.k;
q << rfcall.q;
r << rfn.r;
@@
fact("regsfield", *at(q), fld, k, r)

// Every use of a regs function's name as a value (a call, or its address
// stored as a callback: the fact's line tells which).
@ref@
identifier rfn.fn;
position q;
@@
  fn@q

@script:python@
fn << rfn.fn;
q << ref.q;
@@
fact("ref", *at(q), fn)

// NMI handlers (int fn(unsigned int, struct pt_regs *)): irq_handler.cocci
// converts those passed to register_nmi_handler().
@nmi@
identifier fn;
expression E1, E2, E3;
@@
  register_nmi_handler(E1, fn, E2, E3)

@script:python@
fn << nmi.fn;
@@
fact("nmi", fn)

// Every call (call edges for async helpers, direct calls of handlers).
@call@
identifier g;
expression list[n] es;
position q;
@@
  g@q(es)

@script:python@
g << call.g;
n << call.n;
q << call.q;
@@
fact("call", *at(q), g, n)

@def@
identifier fn;
type T;
position p;
@@
  T fn@p(...) { ... }

@script:python@
fn << def.fn;
p << def.p;
@@
fact("def", *at(p)[:3], fn)

// ------------------------------------------------------------ aio
@asy@
identifier fld;
symbol aio_complete;
expression E;
position q;
@@
(
  EIOCBQUEUED@q
|
  aio_complete@q(...)
|
  kick_iocb@q(...)
|
  E->ki_retry@q = ...
|
  E->fld@q = aio_complete
|
  E->ki_cancel@q = ...
|
  list_add@q(&E->ki_list, ...)
|
  list_add_tail@q(&E->ki_list, ...)
)

@script:python@
q << asy.q;
@@
fact("async", *at(q))

@fopsf@
identifier fo, fn;
identifier fld = {aio_read, aio_write, readv, writev, read, write};
position p, q;
@@
  struct file_operations fo@p = {
  ...,
  .fld = fn@q,
  ...
  };

@script:python@
fo << fopsf.fo;
fld << fopsf.fld;
fn << fopsf.fn;
p << fopsf.p;
q << fopsf.q;
@@
fact("fops", *at(q)[:3], fo, fld, fn, p[0].line)

@am@
identifier fn, kio, buf, count, pos;
type T;
position p;
@@
  ssize_t fn@p(struct kiocb *kio, T buf, size_t count, loff_t pos) { ... }

@script:python@
fn << am.fn;
kio << am.kio;
buf << am.buf;
p << am.p;
@@
fact("aiometh", *at(p)[:3], fn, kio, buf)

@kall@
identifier am.kio;
position q;
@@
  kio@q

@script:python@
kio << am.kio;
q << kall.q;
@@
fact("kiocb", *at(q), kio)

@kok@
identifier am.kio;
position q;
expression E;
@@
(
  kio@q->ki_filp
|
  kio@q->ki_pos = E
)

@script:python@
kio << am.kio;
q << kok.q;
@@
fact("kiocb_ok", *at(q), kio)

// ------------------------------------------------------------ async shapes
// What Plan.async_shape() (scripts/cocci/convert/aio_planner.py) needs to
// tell a request finished later that it can convert (the kiocb kept in one
// slot, one aio_complete() of that slot) from one it reports.

// Every function with a struct kiocb * parameter, and its index.
@kpar@
identifier fn, kio;
type T;
parameter list[n] ps;
parameter list ps2;
position p;
@@
  T fn@p(ps, struct kiocb *kio, ps2) { ... }

@script:python@
fn << kpar.fn;
kio << kpar.kio;
n << kpar.n;
p << kpar.p;
@@
fact("kparam", *at(p)[:3], fn, kio, n)

// The kiocb parameter handed on to another function as argument k.
@kpas@
identifier kpar.fn, kpar.kio, g;
expression list[k] es;
expression list es2;
position q;
@@
  fn(...) {
  <...
  g@q(es, kio, es2)
  ...>
  }

@script:python@
fn << kpar.fn;
g << kpas.g;
k << kpas.k;
q << kpas.q;
@@
fact("kpass", *at(q)[:3], fn, g, k)

// The kiocb parameter kept: in a variable, or in a member of an object.
@kstv@
identifier kpar.fn, kpar.kio, x;
position q;
@@
  fn(...) {
  <...
  x@q = kio;
  ...>
  }

@script:python@
fn << kpar.fn;
x << kstv.x;
q << kstv.q;
@@
fact("kstore", *at(q)[:3], fn, "var", x, "")

@kstm@
identifier kpar.fn, kpar.kio, fld;
expression E;
position q;
@@
  fn(...) {
  <...
  E->fld@q = kio;
  ...>
  }

@script:python@
fn << kpar.fn;
fld << kstm.fld;
E << kstm.E;
q << kstm.q;
@@
fact("kstore", *at(q)[:3], fn, "member", fld, E)

@ksync@
identifier kpar.fn, kpar.kio;
position q;
@@
  fn(...) {
  <...
  is_sync_kiocb@q(kio)
  ...>
  }

@script:python@
fn << kpar.fn;
q << ksync.q;
@@
fact("issync", *at(q)[:3], fn)

// Every aio_complete(): the kiocb it completes and its res2; whether it is
// a statement of its own, and whether the object holding the kiocb is
// freed right after it.
@acm@
symbol aio_complete;
expression E, R1, R2;
position q;
@@
  aio_complete@q(E, R1, R2)

@script:python@
E << acm.E;
R2 << acm.R2;
q << acm.q;
@@
fact("acomp", *at(q), E, R2)

@acs@
symbol aio_complete;
expression E, R1, R2;
position q;
@@
  aio_complete@q(E, R1, R2);

@script:python@
q << acs.q;
@@
fact("acomp_stmt", *at(q)[:3])

@acf@
symbol aio_complete;
identifier fld;
expression E, R1, R2;
position q;
@@
  aio_complete@q(E->fld, R1, R2);
  kfree(E);

@script:python@
q << acf.q;
@@
fact("acomp_free", *at(q)[:3])
