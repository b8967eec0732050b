// SPDX-License-Identifier: GPL-2.0
/*
 * The C tests' KTAP emitter (tools/ktap.h) on made-up results, for
 * qemu/selftest: a pass, a failure and a skip, each test in its child as in
 * the guest. The failure and the skip explain themselves at greater length
 * than the line a skip's result carries: the diagnostic must reach stdout
 * whole, the result line its first part on one line.
 */
#include <string.h>
#include <ktap.h>

#define LONG_REASON_LEN 400

static char long_reason[LONG_REASON_LEN + 1];

KTAP_TEST(passes, 10)
{
	return KTAP_PASS;
}

KTAP_TEST(fails_at_length, 10)
{
	ktap_diag("%s", long_reason);
	return KTAP_FAIL;
}

KTAP_TEST(skips_at_length, 10)
{
	ktap_diag("%s", long_reason);
	return KTAP_SKIP;
}

int main(void)
{
	size_t i;

	/* Digits in turn, so that a cut or a repeat shows in a comparison. */
	for (i = 0; i < LONG_REASON_LEN; i++)
		long_reason[i] = '0' + i % 10;
	return ktap_main("made-up results");
}
