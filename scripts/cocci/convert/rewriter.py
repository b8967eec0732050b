# SPDX-License-Identifier: GPL-2.0
"""What convert_plan.py finish does to the converted files after spatch, as
text: the markers (irqaio_convert_*) the semantic patches leave become what
they stand for (both shapes of a call that lost regs, under #if; the one
AIO_COMPAT_DEFINE_METHODS() that works), and the includes a file needs go
after its last #include, where Coccinelle would move a neighbouring comment.
"""
import re


def fold_lost_regs(text):
    """lost_regs.cocci (compat) writes
         irqaio_convert_lost_regs(F, (NEW...), (OLD...))
         irqaio_convert_gone_regs(F, (OLD...))
    inside one statement; give that statement both shapes."""
    out, pos = [], 0
    marker = re.compile(r"irqaio_convert_(lost|gone)_regs\(")
    while True:
        m = marker.search(text, pos)
        if not m:
            out.append(text[pos:])
            return "".join(out)
        start = text.rfind("\n", 0, m.start()) + 1
        end_call = match_paren(text, m.end() - 1)
        semi = text.find(";", end_call)
        if end_call < 0 or semi < 0 or text[end_call:semi].strip() != "" and \
                not re.fullmatch(r"\s*\)*\s*", text[end_call:semi]):
            out.append(text[pos:m.end()])
            pos = m.end()
            continue
        stmt_end = semi + 1
        if stmt_end < len(text) and text[stmt_end] == "\n":
            stmt_end += 1
        args = split_args(text[m.end():end_call - 1])
        fn = args[0].strip()
        old = args[-1].strip()
        before, after = text[start:m.start()], text[end_call:stmt_end]
        pre = "#if IRQAIO_IRQ_HANDLER_ARGS == 3\t/* before 7d12e780e003 (2.6.19) */\n"
        if m.group(1) == "lost":
            new = args[1].strip()
            body = (pre + before + fn + old + after + "#else\n" + before + fn + new + after
                    + "#endif\n")
        else:
            body = pre + before + fn + old + after + "#endif\n"
        out.append(text[pos:start])
        out.append(body)
        pos = stmt_end


def match_paren(text, i):
    """Index just after the parenthesis matching text[i] == '('."""
    depth = 0
    for j in range(i, len(text)):
        if text[j] == "(":
            depth += 1
        elif text[j] == ")":
            depth -= 1
            if depth == 0:
                return j + 1
    return -1


def split_args(s):
    args, depth, cur = [], 0, ""
    for ch in s:
        if ch == "," and depth == 0:
            args.append(cur)
            cur = ""
            continue
        depth += ch == "("
        depth -= ch == ")"
        cur += ch
    args.append(cur)
    return args


def add_include(text, header, needed):
    if not needed or re.search(r'^\s*#\s*include\s*[<"]%s[>"]' % re.escape(header), text, re.M):
        return text, None
    incs = list(re.finditer(r"^#\s*include\b.*\n", text, re.M))
    anchor = None
    for m in incs:
        if re.search(r"<linux/(interrupt|fs)\.h>", m.group(0)) and \
                ((header == "aio_compat.h") == ("fs.h" in m.group(0))):
            anchor = m
    if anchor is None:
        # The last #include before any code (not one inside an #if below).
        code = re.search(r"^(?!#|\s*$|\s*/?\*|//).", text, re.M)
        top = [m for m in incs if code is None or m.start() < code.start()]
        anchor = top[-1] if top else None
    if anchor is None:
        return text, "no #include to add <%s> after: add it by hand" % header
    return text[:anchor.end()] + "#include <%s>\n" % header + text[anchor.end():], None


def place_methods(text):
    """aio_methods.cocci marks two places for AIO_COMPAT_DEFINE_METHODS():
    after the later method (with the handler) and before the
    file_operations. The first in the file is the one that works: after the
    methods when the file_operations follow them, else before the
    file_operations, with the handler's prototype."""
    for m in re.finditer(r"^static const int irqaio_convert_aio_compat_after__(\w+);\n", text,
                         re.M):
        prefix = m.group(1)
        after = re.search(r"^static const int irqaio_convert_aio_compat_after__%s;\n" % prefix,
                          text, re.M)
        before = re.search(r"^static const int irqaio_convert_aio_compat_before__%s;\n" % prefix,
                           text, re.M)
        if not after or not before:
            continue
        define = "AIO_COMPAT_DEFINE_METHODS(%s, %s_aio_compat_rw);\n" % (prefix, prefix)
        if after.start() < before.start():
            text = text[:before.start()] + text[before.end():]
            text = text[:after.start()] + "\n" + define + text[after.end():]
        else:
            proto = "static ssize_t %s_aio_compat_rw(struct aio_compat_req *req);\n" % prefix
            text = text[:before.start()] + proto + define + "\n" + text[before.end():]
            after = re.search(r"\n\n?static const int irqaio_convert_aio_compat_after__%s;\n"
                              % prefix,
                              text)
            text = text[:after.start()] + "\n" + text[after.end():]
    return text


def finish(mode, files, pathmap):
    problems = []
    for path in files:
        text = open(path, encoding="utf-8").read()
        new = place_methods(text)
        new = fold_lost_regs(new) if mode == "compat" else new
        if mode == "compat":
            need_irq = re.search(r"\b(IRQ_COMPAT_HANDLER|NMI_COMPAT_HANDLER|irq_compat_regs|"
                                 r"IRQAIO_IRQ_HANDLER_ARGS)\b", new)
            new, err = add_include(new, "irq_compat.h", need_irq)
        else:
            new, err = add_include(new, "asm/irq_regs.h", re.search(r"\bget_irq_regs\(\)", new))
        if err:
            problems.append("%s:1: %s" % (pathmap.get(path, path), err))
        need_aio = re.search(
            r"\b(AIO_COMPAT_FOPS|AIO_COMPAT_DEFINE_METHODS|aio_compat_seg_walk)\b", new)
        new, err = add_include(new, "aio_compat.h", need_aio)
        if err:
            problems.append("%s:1: %s" % (pathmap.get(path, path), err))
        if "irqaio_convert_" in new:
            line = new[:new.index("irqaio_convert_")].count("\n") + 1
            problems.append("%s:%d: a converted call has a shape the tool cannot fold (not a "
                            "statement of its own); finish it by hand"
                            % (pathmap.get(path, path), line))
        if new != text:
            open(path, "w", encoding="utf-8").write(new)
    return problems
