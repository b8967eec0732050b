// SPDX-License-Identifier: GPL-2.0
/// Convert Linux 2.6.18 character-driver aio methods to compat/aio_compat.h
/// (Linux 2.6.19 vectorised aio_read/aio_write, commit 027445c37282, and
/// removed readv/writev, commit ee0b3e671baf; 3.16 replaced them with
/// read_iter/write_iter).
///
/// The same in -D compat and -D native: there is no simpler native form
/// worth having (the helper gives every kernel from 2.6.18 to today the
/// right methods, read_iter/write_iter included). For a file_operations with
/// single-buffer .aio_read/.aio_write methods:
///   - each method becomes the driver's per-segment function
///     (aio_compat_seg_fn): ssize_t m(struct aio_compat_req *req,
///     void __user *ubuf, size_t count, loff_t pos, void *priv), its body kept,
///     with "char __user *buf = ubuf;" first; iocb->ki_filp becomes
///     req->file, other uses of iocb req->iocb (NULL when the request came
///     through ->readv on 2.6.18: reported), and "iocb->ki_pos = ...;" goes,
///     with its "if (...)" when that is all the if does (the generated
///     methods move the position by what was done);
///   - a request handler PREFIX_aio_compat_rw() walks the segments with
///     aio_compat_seg_walk() and AIO_COMPAT_DEFINE_METHODS(PREFIX, ...)
///     generates the tree's methods, both right after the later of the two
///     methods (so an #ifdef around the methods covers them too);
///     AIO_COMPAT_FOPS(PREFIX) replaces .aio_read/.aio_write,
///     .read = do_sync_read and .write = do_sync_write go (the VFS falls
///     back to the aio methods by itself; do_sync_read() is gone since
///     4.1), and .readv/.writev go with their functions (the helper serves
///     vectored requests on every kernel) unless something else still uses
///     them. Coccinelle reads only the first branch of an #if inside an
///     initializer: the aio entries must be there.
/// PREFIX is the file_operations name without "_fops". Methods that complete
/// asynchronously (-EIOCBQUEUED, aio_complete(), kick_iocb()) are reported
/// and left alone. As with irq_handler.cocci, the macros are written as
/// marked C that scripts/convert folds (Coccinelle cannot emit a macro in
/// an initializer or at file scope).
//
// Confidence: Moderate: a method that returned more than it copied, or that
// relied on being called once per request, needs a look.
// Options: --include-headers

virtual compat
virtual native

@fops depends on compat || native@
identifier fo, ar, aw;
@@
  struct file_operations fo = {
  ...,
  .aio_read = ar,
  ...,
  .aio_write = aw,
  ...
  };

// Where .readv/.writev are, for the warning when they go (read before any
// rule changes the file, so the lines are the file's).
@rvp depends on fops@
identifier fops.fo, rd;
position p;
@@
  struct file_operations fo = {
  ...,
  .readv = rd@p,
  ...
  };

@wvp depends on fops@
identifier fops.fo, wr;
position p;
@@
  struct file_operations fo = {
  ...,
  .writev = wr@p,
  ...
  };

// Which method is defined later (read here, before any rule changes the
// file, so that the positions are lines of the file): the request handler
// and the methods go right after it, not before the file_operations, so
// they share the methods' conditional compilation (a driver that builds its
// aio methods only under an #ifdef keeps building without them).
@ar_def depends on fops@
identifier fops.ar;
position p;
@@
  ssize_t ar@p(...) { ... }

@aw_def depends on fops@
identifier fops.aw;
position p;
@@
  ssize_t aw@p(...) { ... }

@script:python last depends on ar_def && aw_def@
ar << fops.ar;
aw << fops.aw;
pr << ar_def.p;
pw << aw_def.p;
fn;
@@
later = aw if (int(pw[0].line), int(pw[0].column)) > (int(pr[0].line), int(pr[0].column)) else ar
coccinelle.fn = cocci.make_ident(later)

@async depends on fops@
identifier fn = {fops.ar, fops.aw};
identifier kio, buf, count, pos;
type T;
position p;
@@
  ssize_t fn@p(struct kiocb *kio, T buf, size_t count, loff_t pos)
  {
  <+...
(
  -EIOCBQUEUED
|
  aio_complete(...)
|
  kick_iocb(...)
)
  ...+>
  }

@script:python depends on async@
fn << async.fn;
p << async.p;
@@
print("%s:%s: %s() completes asynchronously; not converted" % (p[0].file, p[0].line, fn))

// "if (ret > 0) iocb->ki_pos = pos + ret;" goes whole, as the plain
// assignment does below: an if with nothing left to do is noise.
@segpos depends on fops && !async@
identifier fn = {fops.ar, fops.aw};
identifier kio, buf, count, pos;
type T;
expression E;
@@
  ssize_t fn(struct kiocb *kio, T buf, size_t count, loff_t pos)
  {
  <...
- if (E)
-   kio->ki_pos = ...;
  ...>
  }

@segr depends on fops && !async@
attribute name __user;
symbol req, ubuf, priv;
identifier fops.ar;
identifier kio, buf, count, pos;
@@
  ssize_t ar(
- struct kiocb *kio, char __user *buf, size_t count, loff_t pos
+ struct aio_compat_req *req, void __user *ubuf, size_t count, loff_t pos, void *priv
  )
  {
+ char __user *buf = ubuf;
  <...
(
- kio->ki_pos = ...;
|
- kio->ki_filp
+ req->file
|
- kio
+ req->iocb
)
  ...>
  }

@segw depends on fops && !async@
attribute name __user;
symbol req, ubuf, priv;
identifier fops.aw;
identifier kio, buf, count, pos;
@@
  ssize_t aw(
- struct kiocb *kio, const char __user *buf, size_t count, loff_t pos
+ struct aio_compat_req *req, void __user *ubuf, size_t count, loff_t pos, void *priv
  )
  {
+ const char __user *buf = ubuf;
  <...
(
- kio->ki_pos = ...;
|
- kio->ki_filp
+ req->file
|
- kio
+ req->iocb
)
  ...>
  }

@uses_iocb depends on segr || segw@
identifier fn = {fops.ar, fops.aw};
symbol req;
position p;
@@
  ssize_t fn(...)
  {
  <+... req->iocb@p ...+>
  }

@script:python depends on uses_iocb@
fn << uses_iocb.fn;
p << uses_iocb.p;
@@
print("%s:%s: %s() uses the kiocb: req->iocb is NULL for a 2.6.18 ->readv call "
      "and for aio_compat_rw_buf(); check it" % (p[0].file, p[0].line, fn))

@script:python pfx depends on segr && segw@
fo << fops.fo;
hnd;
mark;
@@
prefix = fo[:-5] if fo.endswith("_fops") and len(fo) > 5 else fo
coccinelle.hnd = cocci.make_ident(prefix + "_aio_compat_rw")
coccinelle.mark = cocci.make_ident("irqaio_convert_aio_compat_fops__" + prefix)

@handler depends on segr && segw@
identifier fops.fo, fops.ar, fops.aw, pfx.mark;
@@
  struct file_operations fo = {
  ...,
- .aio_read = ar,
+ .aio_read = mark,
  ...,
- .aio_write = aw,
  ...
  };

@depends on handler@
identifier fops.ar, fops.aw, pfx.hnd, pfx.mark, last.fn;
symbol req;
@@
  ssize_t fn(...) { ... }
+
+ static ssize_t hnd(struct aio_compat_req *req)
+ {
+ return aio_compat_seg_walk(req, req->write ? aw : ar, NULL);
+ }
+
+ static const int mark;

// 2.6.18 filesystems set .read = do_sync_read (a sync kiocb through
// ->aio_read); the VFS has called the aio method by itself when ->read is
// NULL since before 2.6.18, and do_sync_read() is gone since 4.1.
@depends on handler@
identifier fops.fo;
symbol do_sync_read;
@@
  struct file_operations fo = {
  ...,
- .read = do_sync_read,
  ...
  };

@depends on handler@
identifier fops.fo;
symbol do_sync_write;
@@
  struct file_operations fo = {
  ...,
- .write = do_sync_write,
  ...
  };

@rv depends on handler@
identifier fops.fo, rd;
position p;
@@
  struct file_operations fo = {
  ...,
- .readv = rd@p,
  ...
  };

@wv depends on handler@
identifier fops.fo, wr;
position p;
@@
  struct file_operations fo = {
  ...,
- .writev = wr@p,
  ...
  };

// The helper serves a vectored request by calling the segment function once
// per segment; a ->readv/->writev that held a lock or counted once per
// request loses that, and only the maintainer can tell whether it mattered.
@script:python depends on rv && rvp@
rd << rv.rd;
p << rvp.p;
@@
print("%s:%s: .readv = %s removed: a vectored read now calls the segment "
      "function once per segment; what %s did once per request (a lock held "
      "across segments, accounting) is gone: check it" % (p[0].file, p[0].line, rd, rd))

@script:python depends on wv && wvp@
wr << wv.wr;
p << wvp.p;
@@
print("%s:%s: .writev = %s removed: a vectored write now calls the segment "
      "function once per segment; what %s did once per request (a lock held "
      "across segments, accounting) is gone: check it" % (p[0].file, p[0].line, wr, wr))

@rv_used depends on rv@
identifier rv.rd;
position q != rv.p;
@@
  rd@q

@wv_used depends on wv@
identifier wv.wr;
position q != wv.p;
@@
  wr@q

@depends on rv && !rv_used@
identifier rv.rd;
@@
- ssize_t rd(...) { ... }

@depends on wv && !wv_used@
identifier wv.wr;
@@
- ssize_t wr(...) { ... }

@has_inc depends on handler@
@@
(
  #include <aio_compat.h>
|
  #include "aio_compat.h"
)

@depends on handler && !has_inc@
@@
  #include <linux/fs.h>
+ #include <aio_compat.h>
