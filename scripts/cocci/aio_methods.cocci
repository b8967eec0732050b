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
/// PREFIX is the file_operations name without "_fops". Where the
/// file_operations come before the methods, the request handler's prototype
/// and AIO_COMPAT_DEFINE_METHODS() go right before them instead, and the
/// methods' forward declarations (named parameters or not) follow the new
/// prototype. A buffer parameter already named ubuf gives the segment
/// function's parameter the name useg. file_operations that scripts/convert's
/// plan refused (methods that complete asynchronously in a shape it does not
/// convert, also through a helper; page-cache methods; a method defined
/// elsewhere) are left alone: the plan reports them, from analyze.cocci's
/// facts, with the lines of the user's files. Methods that complete
/// asynchronously in the shape the plan accepts are converted here like the
/// others; the semantic patch convert_plan.py async-cocci writes then moves
/// their queueing and completion to aio_compat_async.h. As with
/// irq_handler.cocci, the macros are written as marked C that scripts/convert
/// folds (Coccinelle cannot emit a macro in an initializer or
/// at file scope).
//
// Confidence: Moderate: a method that returned more than it copied, or that
// relied on being called once per request, needs a look.
// Options: --include-headers

virtual compat
virtual native

@initialize:python@
@@
import json, os
SKIP = set(json.load(open(os.environ["IRQAIO_CONVERT_DB"]))["skip_fops"])

@fops depends on compat || native@
identifier fo, ar, aw;
position p;
@@
  struct file_operations fo@p = {
  ...,
  .aio_read = ar,
  ...,
  .aio_write = aw,
  ...
  };

// Not those the plan refused (this drops their matches for every rule).
@script:python depends on fops@
fo << fops.fo;
@@
cocci.include_match(fo not in SKIP)

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

// The segment function's user-pointer parameter: ubuf, or useg where the
// old buffer is already called ubuf.
@rhdr depends on fops@
attribute name __user;
identifier fops.ar;
identifier kio, buf, count, pos;
@@
  ssize_t ar(struct kiocb *kio, char __user *buf, size_t count, loff_t pos) { ... }

@script:python rname depends on rhdr@
buf << rhdr.buf;
ub;
@@
coccinelle.ub = cocci.make_ident("useg" if buf == "ubuf" else "ubuf")

@whdr depends on fops@
attribute name __user;
identifier fops.aw;
identifier kio, buf, count, pos;
@@
  ssize_t aw(struct kiocb *kio, const char __user *buf, size_t count, loff_t pos) { ... }

@script:python wname depends on whdr@
buf << whdr.buf;
ub;
@@
coccinelle.ub = cocci.make_ident("useg" if buf == "ubuf" else "ubuf")

// "if (ret > 0) iocb->ki_pos = pos + ret;" goes whole, as the plain
// assignment does below: an if with nothing left to do is noise.
@segpos depends on fops@
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

@segr depends on rname@
attribute name __user;
symbol req, priv;
identifier fops.ar, rname.ub;
identifier kio, buf, count, pos;
@@
  ssize_t ar(
- struct kiocb *kio, char __user *buf, size_t count, loff_t pos
+ struct aio_compat_req *req, void __user *ub, size_t count, loff_t pos, void *priv
  )
  {
+ char __user *buf = ub;
  <...
- kio->ki_pos = ...;
  ...>
  }

@segw depends on wname@
attribute name __user;
symbol req, priv;
identifier fops.aw, wname.ub;
identifier kio, buf, count, pos;
@@
  ssize_t aw(
- struct kiocb *kio, const char __user *buf, size_t count, loff_t pos
+ struct aio_compat_req *req, void __user *ub, size_t count, loff_t pos, void *priv
  )
  {
+ const char __user *buf = ub;
  <...
- kio->ki_pos = ...;
  ...>
  }

// A method that never touched its buffer (it only queues the request)
// gets no variable for it: unused, it would not build with -Werror.
@depends on segr@
identifier fops.ar, rname.ub, segr.buf;
type T;
@@
  ssize_t ar(...)
  {
- T buf = ub;
  ... when != buf
  }

@depends on segw@
identifier fops.aw, wname.ub, segw.buf;
type T;
@@
  ssize_t aw(...)
  {
- T buf = ub;
  ... when != buf
  }

// The kiocb's uses, in two passes so that one expression holding both
// iocb->ki_filp and iocb is converted whole.
@depends on segr@
identifier fops.ar, segr.kio;
symbol req;
@@
  ssize_t ar(...)
  {
  <...
- kio->ki_filp
+ req->file
  ...>
  }

@depends on segr@
identifier fops.ar, segr.kio;
symbol req;
@@
  ssize_t ar(...)
  {
  <...
- kio
+ req->iocb
  ...>
  }

@depends on segw@
identifier fops.aw, segw.kio;
symbol req;
@@
  ssize_t aw(...)
  {
  <...
- kio->ki_filp
+ req->file
  ...>
  }

@depends on segw@
identifier fops.aw, segw.kio;
symbol req;
@@
  ssize_t aw(...)
  {
  <...
- kio
+ req->iocb
  ...>
  }

// Forward declarations of the methods, with or without parameter names
// (the names in a prototype need not be those of the definition).
@depends on segr@
identifier fops.ar;
symbol req, ubuf, priv, count, pos;
@@
- ssize_t ar(...);
+ ssize_t ar(struct aio_compat_req *req, void __user *ubuf, size_t count, loff_t pos, void *priv);

@depends on segw@
identifier fops.aw;
symbol req, ubuf, priv, count, pos;
@@
- ssize_t aw(...);
+ ssize_t aw(struct aio_compat_req *req, void __user *ubuf, size_t count, loff_t pos, void *priv);

// The names: PREFIX_aio_compat_rw and the markers scripts/convert folds.
// The handler goes right after the later method; "after__PREFIX" there and
// "before__PREFIX" right before the file_operations mark the two places for
// AIO_COMPAT_DEFINE_METHODS(): convert_plan.py finish keeps the first one in
// the file (so where the file_operations precede the methods, the handler's
// prototype and the generated methods go right before them).
@script:python pfx depends on segr && segw@
fo << fops.fo;
hnd;
mark;
after;
before;
@@
prefix = fo[:-5] if fo.endswith("_fops") and len(fo) > 5 else fo
coccinelle.hnd = cocci.make_ident(prefix + "_aio_compat_rw")
coccinelle.mark = cocci.make_ident("irqaio_convert_aio_compat_fops__" + prefix)
coccinelle.after = cocci.make_ident("irqaio_convert_aio_compat_after__" + prefix)
coccinelle.before = cocci.make_ident("irqaio_convert_aio_compat_before__" + prefix)

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
identifier fops.ar, fops.aw, pfx.hnd, pfx.after, last.fn;
symbol req;
@@
  ssize_t fn(...) { ... }
+
+ static ssize_t hnd(struct aio_compat_req *req)
+ {
+ return aio_compat_seg_walk(req, req->write ? aw : ar, NULL);
+ }
+
+ static const int after;

@depends on handler@
identifier fops.fo, pfx.before;
@@
+ static const int before;
  struct file_operations fo = { ... };

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
