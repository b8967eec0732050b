/* SPDX-License-Identifier: GPL-2.0 */
/*
 * MODEL, not a kernel: the model runtime's sleep and wake-up
 * (model_runtime.c), one lock and one condition for everything, enough for
 * completions and for wait_on_sync_kiocb(). A wait that would never end
 * gives up after MODEL_WAIT_SECONDS and is counted, so that a test fails
 * instead of hanging.
 */
#ifndef MODEL_SCHED_H
#define MODEL_SCHED_H

#define MODEL_WAIT_SECONDS	5

/* Add one to *@count and wake every sleeper; any thread. */
void model_wake(unsigned int *count);
/* Sleep until *@count is not 0, then take one from it. */
void model_wait_take(unsigned int *count);
/*
 * Sleep until *@count is not 0, then take one from it and return 1; or
 * return 0 after @ms milliseconds (a wait that is meant to end so: not
 * counted as given up).
 */
int model_wait_take_ms(unsigned int *count, unsigned long ms);
/* Waits that gave up so far (each one a bug in what the test drives). */
unsigned int model_wait_timeouts(void);
#endif
