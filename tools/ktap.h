/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ktap.h - the KTAP emitter of every C test program here (the in-guest
 * tests, the historical API MODEL's tests, the Coccinelle corpus run), in
 * the manner of tools/testing/selftests/kselftest_harness.h. A test is
 * written once, and that registers it:
 *
 *	KTAP_TEST(irq_fire_1, 30)
 *	{
 *		KTAP_EXPECT(fire(1) == 0, "fire: %s", strerror(errno));
 *		return KTAP_PASS;
 *	}
 *
 * and main() ends with "return ktap_main(suite);", which prints the plan,
 * counted from what registered, then runs the tests in the order they are
 * defined, each with its timeout in seconds. A test returns KTAP_PASS,
 * KTAP_FAIL or KTAP_SKIP and explains itself with ktap_diag();
 * KTAP_EXPECT() fails it with the place and the reason. The program exits
 * 0 when nothing failed, 1 when something failed, 4 when everything was
 * skipped. Also what the in-guest tests share: the matrix's facts about
 * the kernel, and waits for another task to be inside a system call, never
 * for a stretch of time that a loaded host may not honour.
 *
 * In the guest each test runs in a forked child. A program built in a
 * MODEL world (MODEL_WORLD defined: the tests in model/, the Coccinelle
 * corpus run) runs them in this process instead, one after the other: they
 * use what an earlier test left or a thread main() started, which a forked
 * child would not share. Its document says it is a MODEL, not a kernel,
 * and it sees none of the in-guest helpers: their libc headers define
 * types, such as loff_t, that the model's kernel headers define their own
 * way.
 *
 * Include it in one file of a program: the list of tests is that file's.
 */
#ifndef IRQAIO_KTAP_H
#define IRQAIO_KTAP_H

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <unistd.h>
#ifndef MODEL_WORLD
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#endif

enum { KTAP_PASS = 0, KTAP_FAIL = 1, KTAP_SKIP = 4 };

struct ktap_test {
	const char *name;
	int (*fn)(void);
	unsigned int timeout_s;
	struct ktap_test *next;
};

/*
 * The tests KTAP_TEST() registered, in the order they are defined. Each
 * registers from a constructor of its own. Constructors run in the order
 * they are defined, or in reverse with some toolchains; ktap_ctors_order(),
 * defined here before any test, runs first or last and so tells which, as
 * kselftest_harness.h's __constructor_order_forward does.
 */
static struct ktap_test *ktap_first, *ktap_last;
static int ktap_ctors_forward;

static void __attribute__((constructor)) ktap_ctors_order(void)
{
	ktap_ctors_forward = 1;
}

static inline void ktap_register(struct ktap_test *t)
{
	if (!ktap_first) {
		ktap_first = t;
		ktap_last = t;
	} else if (ktap_ctors_forward) {
		ktap_last->next = t;
		ktap_last = t;
	} else {
		t->next = ktap_first;
		ktap_first = t;
	}
}

/*
 * Define test ID, reported under that name, and register it; the body
 * follows. TIMEOUT: seconds before the test is killed and fails (0: 60).
 */
#define KTAP_TEST(id, timeout)						\
	static int id(void);						\
	static struct ktap_test ktap_test_##id = {			\
		.name = #id, .fn = id, .timeout_s = (timeout),		\
	};								\
	static void __attribute__((constructor)) ktap_register_##id(void) \
	{								\
		ktap_register(&ktap_test_##id);				\
	}								\
	static int id(void)

static inline unsigned int ktap_timeout(const struct ktap_test *t)
{
	return t->timeout_s ? t->timeout_s : 60;
}

/*
 * The last line a test printed with ktap_diag(): a test that skips says
 * why last, and its result line carries it ("ok 3 name # SKIP why"), so
 * that a summary of results names the reason. In the guest the test runs
 * in a child, so the line lives in memory the child shares with the
 * parent (ktap_main() maps it); otherwise in this buffer.
 */
#define KTAP_LAST_DIAG_LEN	256
static char ktap_last_diag_own[KTAP_LAST_DIAG_LEN];
static char *ktap_last_diag = ktap_last_diag_own;

static inline void __attribute__((format(printf, 1, 2))) ktap_diag(const char *fmt, ...)
{
	va_list ap, keep;

	/* The whole line to stdout; only the copy kept for a result line is cut. */
	va_start(ap, fmt);
	va_copy(keep, ap);
	fputs("# ", stdout);
	vprintf(fmt, ap);
	putchar('\n');
	fflush(stdout);
	vsnprintf(ktap_last_diag, KTAP_LAST_DIAG_LEN, fmt, keep);
	va_end(keep);
	va_end(ap);
}

/*
 * Fail the current test unless COND, naming the place, then saying why
 * with the printf-style arguments that follow, if any.
 */
#define KTAP_EXPECT(cond, ...)						\
	do {								\
		if (!(cond)) {						\
			ktap_diag("%s:%d: expected %s", __FILE__, __LINE__, #cond); \
			__VA_OPT__(ktap_diag(__VA_ARGS__);)		\
			return KTAP_FAIL;				\
		}							\
	} while (0)

/*
 * Fail the current test unless system call CALL fails with errno ERR;
 * WHAT names it in the diagnostic.
 */
#define KTAP_EXPECT_ERRNO(call, err, what)				\
	do {								\
		long r_;						\
									\
		errno = 0;						\
		r_ = (call);						\
		KTAP_EXPECT(r_ == -1 && errno == (err), "%s: %ld (%s), want %s", \
			    (what), r_, strerror(errno), strerror(err));	\
	} while (0)

/* The result of a test that is one condition and has nothing to explain. */
#define KTAP_RESULT(cond) ((cond) ? KTAP_PASS : KTAP_FAIL)

#ifndef MODEL_WORLD
/* The kernel this guest runs, as the host named it (qemu/run). */
static inline const char *ktap_kernel(void)
{
	const char *k = getenv("IRQAIO_KERNEL");

	return k ? k : "unknown";
}

/*
 * A fact the matrix (qemu/matrix.toml) states about this kernel, from
 * /etc/irqaio/kernel.facts ("key=value" lines, written by qemu/run), or
 * NULL. Tests assert per-kernel behaviour from these, never from the name.
 */
static inline const char *ktap_fact(const char *key)
{
	static char line[256];
	size_t n = strlen(key);
	const char *found = NULL;
	FILE *f = fopen("/etc/irqaio/kernel.facts", "r");

	if (!f)
		return NULL;
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, key, n) && line[n] == '=') {
			line[strcspn(line, "\n")] = '\0';
			found = line + n + 1;
			break;
		}
	}
	fclose(f);
	return found;
}

/* Whether the matrix states fact KEY=VALUE for this kernel. */
static inline int ktap_fact_is(const char *key, const char *value)
{
	const char *v = ktap_fact(key);

	return v && !strcmp(v, value);
}

/*
 * How long a test waits for something another task or the kernel must do
 * at once (enter a system call, start an operation): far beyond any stall
 * of a loaded host, well inside the tests' timeouts. A wait that runs out
 * fails the test.
 */
#define KTAP_WAIT_S	20

static inline double ktap_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/*
 * The system call task @tid (a thread of this process, or a child) sleeps
 * in right now, from /proc/<tid>/syscall; -1 when it runs, sleeps outside
 * one, or is gone.
 */
static inline long ktap_syscall_of(pid_t tid)
{
	char path[64], buf[256];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/syscall", (int)tid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	/* "running" while it runs; "-1 ..." asleep outside a system call */
	if (buf[0] < '0' || buf[0] > '9')
		return -1;
	return strtol(buf, NULL, 10);
}

/* Whether task @tid has ended (gone, or a zombie). */
static inline int ktap_task_ended(pid_t tid)
{
	char path[64], buf[512], *p;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)tid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return 1;
	buf[n] = '\0';
	/* "pid (comm) S ...": the state follows the last ')' */
	p = strrchr(buf, ')');
	return !p || p[1] != ' ' || p[2] == 'Z' || p[2] == 'X';
}

/*
 * Wait until task @tid sleeps in system call @nr: a signal sent after that
 * finds it in the kernel, and a request it makes of a driver is there. A
 * sleep cannot know how long a loaded machine takes to get that far. 0, or
 * -1 (said) if the task ended or was not there within KTAP_WAIT_S.
 */
static inline int ktap_wait_syscall(pid_t tid, long nr)
{
	double t0 = ktap_now();

	while (ktap_syscall_of(tid) != nr) {
		if (ktap_task_ended(tid)) {
			ktap_diag("task %d ended before it slept in system call %ld", (int)tid, nr);
			return -1;
		}
		if (ktap_now() - t0 > KTAP_WAIT_S) {
			ktap_diag("task %d not asleep in system call %ld after %d s", (int)tid, nr,
				  KTAP_WAIT_S);
			return -1;
		}
		usleep(1000);
	}
	return 0;
}

/* ktap_last_diag in memory the tests' children write and this process reads. */
static inline void ktap_share_last_diag(void)
{
	void *p = mmap(NULL, KTAP_LAST_DIAG_LEN, PROT_READ | PROT_WRITE,
		       MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	if (p != MAP_FAILED)
		ktap_last_diag = p;
}

/*
 * Run test T; what it returned. In the guest: in a child of its own. Its
 * time on the guest's clock goes in a comment before its result, as the
 * guest's /init writes each program's, so that a console shows where a
 * suite spends its time.
 */
static inline int ktap_run_one(const struct ktap_test *t)
{
	double t0 = ktap_now();
	int status, r;
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid < 0)
		return KTAP_FAIL;
	if (pid == 0) {
		alarm(ktap_timeout(t));
		_exit(t->fn());
	}
	r = waitpid(pid, &status, 0);
	printf("# %s: %.1f s\n", t->name, ktap_now() - t0);
	if (r < 0)
		return KTAP_FAIL;
	if (WIFSIGNALED(status)) {
		ktap_diag("%s: killed by signal %d%s", t->name, WTERMSIG(status),
			  WTERMSIG(status) == SIGALRM ? " (timeout)" : "");
		return KTAP_FAIL;
	}
	return WEXITSTATUS(status);
}

/* The comment under the plan: what ran, where. */
static inline void ktap_about(char *buf, size_t len, const char *suite)
{
	snprintf(buf, len, "%s on %s", suite, ktap_kernel());
}
#else /* MODEL_WORLD */
/* Tests run in this process: ktap_last_diag is theirs already. */
static inline void ktap_share_last_diag(void)
{
}

/* In this process: a test that overruns its timeout ends the program. */
static inline int ktap_run_one(const struct ktap_test *t)
{
	int r;

	alarm(ktap_timeout(t));
	r = t->fn();
	alarm(0);
	return r;
}

static inline void ktap_about(char *buf, size_t len, const char *suite)
{
	snprintf(buf, len, "%s (a userspace MODEL of the historical API, not a kernel)", suite);
}
#endif /* MODEL_WORLD */

/* Cut @s at its first newline: a reason with one would end the result line. */
static inline void ktap_one_line(char *s)
{
	while (*s && *s != '\n')
		s++;
	*s = '\0';
}

/*
 * Run every registered test: the version line, the plan counted from what
 * registered, a comment saying what runs where, a result per test, a
 * summary. The exit status as above.
 */
static inline int ktap_main(const char *suite)
{
	const struct ktap_test *t;
	size_t i = 0, n = 0, pass = 0, fail = 0, skip = 0;
	char about[256];

	for (t = ktap_first; t; t = t->next)
		n++;
	ktap_about(about, sizeof(about), suite);
	/* The plan right after the version line: kunit.py's parser wants it there. */
	printf("KTAP version 1\n1..%zu\n# %s\n", n, about);
	ktap_share_last_diag();
	for (t = ktap_first; t; t = t->next) {
		int r;

		ktap_last_diag[0] = '\0';
		r = ktap_run_one(t);
		i++;
		if (r == KTAP_PASS) {
			pass++;
			printf("ok %zu %s\n", i, t->name);
		} else if (r == KTAP_SKIP) {
			skip++;
			ktap_one_line(ktap_last_diag);
			printf("ok %zu %s # SKIP %s\n", i, t->name,
			       ktap_last_diag[0] ? ktap_last_diag : "(the test gave no reason)");
		} else {
			fail++;
			printf("not ok %zu %s\n", i, t->name);
		}
		/* out before the next test, which may end the program */
		fflush(stdout);
	}
	printf("# %s: %zu pass, %zu fail, %zu skip\n", suite, pass, fail, skip);
	if (fail)
		return 1;
	return pass ? 0 : 4;
}

/*
 * A program whose setup failed, so that none of its tests can run: a
 * document of one failed result, SUITE_setup, saying why.
 */
static inline int __attribute__((format(printf, 2, 3)))
ktap_setup_failed(const char *suite, const char *fmt, ...)
{
	va_list ap;

	printf("KTAP version 1\n1..1\nnot ok 1 %s_setup # ", suite);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
	return 1;
}

#define KTAP_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/*
 * The tests' one seeded generator, splitmix64: small, fast, and the same
 * sequence from the same seed on every machine, so that a failure a seed
 * found can be run again. @state is the seed, then the generator's state.
 */
static inline uint64_t ktap_rand(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/*
 * A test in steps over a fixture, as kselftest_harness.h's FIXTURE_SETUP()
 * and FIXTURE_TEARDOWN(): each step is a function of the test's own state
 * (@state), KTAP_PASS or what failed.
 */
typedef int (*ktap_step)(void *state);

/*
 * Run @setup, then @steps in order until one does not pass, then
 * @teardown whenever @setup passed, whatever the steps returned: a failed
 * step never leaves its device, context or mapping to the next test, where
 * one failure would show as several. @setup undoes what it did itself
 * when it fails.
 *
 * Return: the first result that is not KTAP_PASS (setup's, a step's, or
 * then teardown's), else KTAP_PASS.
 */
static inline int ktap_run_fixture(ktap_step setup, const ktap_step *steps,
				   size_t n, ktap_step teardown, void *state)
{
	int r = setup(state), t;
	size_t k;

	if (r != KTAP_PASS)
		return r;
	for (k = 0; r == KTAP_PASS && k < n; k++)
		r = steps[k](state);
	t = teardown(state);
	return r != KTAP_PASS ? r : t;
}

#endif /* IRQAIO_KTAP_H */
