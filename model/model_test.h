/* SPDX-License-Identifier: GPL-2.0 */
/* MODEL test helpers (their KTAP is tools/ktap.h's). */
#ifndef MODEL_TEST_H
#define MODEL_TEST_H

/* IS_DEFINED(IRQAIO_HAVE_X): 1 if the probe defined it (to 1), else 0. */
#define MODEL_PLACEHOLDER_1 0,
#define IS_DEFINED(x) IS_DEFINED_1(x)
#define IS_DEFINED_1(val) IS_DEFINED_2(MODEL_PLACEHOLDER_##val)
#define IS_DEFINED_2(arg1_or_junk) IS_DEFINED_3(arg1_or_junk 1, 0)
#define IS_DEFINED_3(ignored, val, ...) val

#endif /* MODEL_TEST_H */
