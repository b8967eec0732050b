// SPDX-License-Identifier: GPL-2.0
/*
 * The C tests' KTAP emitter (tools/ktap.h) on made-up results, for
 * tests/harness/selftest: a pass, a failure and a skip, each test in its child as in
 * the guest. The failure and the skip explain themselves at greater length
 * than the line a skip's result carries: the diagnostic must reach stdout
 * whole, the result line its first part on one line. Then a fixture whose
 * step fails: its teardown still runs (ktap_run_fixture()).
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

/*
 * A fixture whose second step fails: the third never runs, the teardown
 * does, and the test's result is the step's failure.
 */
static int fixture_setup(void *state)
{
	*(int *)state = 1;
	return KTAP_PASS;
}

static int fixture_step_ok(void *state)
{
	(void)state;
	return KTAP_PASS;
}

static int fixture_step_fails(void *state)
{
	(void)state;
	ktap_diag("the second step fails");
	return KTAP_FAIL;
}

static int fixture_step_never(void *state)
{
	(void)state;
	ktap_diag("the third step ran after a failed one");
	return KTAP_PASS;
}

static int fixture_teardown(void *state)
{
	ktap_diag("teardown ran, setup's state %d", *(int *)state);
	return KTAP_PASS;
}

KTAP_TEST(fixture_tears_down_after_failure, 10)
{
	static const ktap_step steps[] = {
		fixture_step_ok, fixture_step_fails, fixture_step_never,
	};
	int state = 0;

	return ktap_run_fixture(fixture_setup, steps, KTAP_ARRAY_SIZE(steps),
				fixture_teardown, &state);
}

int main(void)
{
	size_t i;

	/* Digits in turn, so that a cut or a repeat shows in a comparison. */
	for (i = 0; i < LONG_REASON_LEN; i++)
		long_reason[i] = '0' + i % 10;
	return ktap_main("made-up results");
}
