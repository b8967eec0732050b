/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ktap.h - a small KTAP runner for the in-guest tests, in the manner of
 * tools/testing/selftests/kselftest_harness.h: every test runs in a forked
 * child with a timeout; a test returns KTAP_PASS, KTAP_FAIL or KTAP_SKIP and
 * explains itself with ktap_diag(). The program exits 0 when nothing failed,
 * 1 when something failed, 4 when everything was skipped. Also the waits the
 * tests share: for another task to be inside a system call, never for a
 * stretch of time that a loaded host may not honour.
 */
#ifndef IRQAIO_KTAP_H
#define IRQAIO_KTAP_H

#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

enum { KTAP_PASS = 0, KTAP_FAIL = 1, KTAP_SKIP = 4 };

struct ktap_test {
	const char *name;
	int (*fn)(void);
	unsigned int timeout_s;
};

static inline void ktap_diag(const char *fmt, ...)
{
	va_list ap;

	fputs("# ", stdout);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	fputc('\n', stdout);
	fflush(stdout);
}

/* Fail the current test with a message naming the place. */
#define KTAP_EXPECT(cond, ...)						\
	do {								\
		if (!(cond)) {						\
			ktap_diag("%s:%d: expected %s", __FILE__, __LINE__, #cond); \
			ktap_diag(__VA_ARGS__);				\
			return KTAP_FAIL;				\
		}							\
	} while (0)

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

static inline int ktap_run_one(const struct ktap_test *t)
{
	int status;
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid < 0)
		return KTAP_FAIL;
	if (pid == 0) {
		alarm(t->timeout_s ? t->timeout_s : 60);
		_exit(t->fn());
	}
	if (waitpid(pid, &status, 0) < 0)
		return KTAP_FAIL;
	if (WIFSIGNALED(status)) {
		ktap_diag("%s: killed by signal %d%s", t->name, WTERMSIG(status),
			  WTERMSIG(status) == SIGALRM ? " (timeout)" : "");
		return KTAP_FAIL;
	}
	return WEXITSTATUS(status);
}

static inline int ktap_main(const char *suite, const struct ktap_test *tests,
			    size_t n)
{
	size_t i, pass = 0, fail = 0, skip = 0;

	/* The plan right after the version line: kunit.py's parser wants it there. */
	printf("KTAP version 1\n1..%zu\n# %s on %s\n", n, suite, ktap_kernel());
	for (i = 0; i < n; i++) {
		int r = ktap_run_one(&tests[i]);

		if (r == KTAP_PASS) {
			pass++;
			printf("ok %zu %s\n", i + 1, tests[i].name);
		} else if (r == KTAP_SKIP) {
			skip++;
			printf("ok %zu %s # SKIP\n", i + 1, tests[i].name);
		} else {
			fail++;
			printf("not ok %zu %s\n", i + 1, tests[i].name);
		}
		fflush(stdout);
	}
	printf("# %s: %zu pass, %zu fail, %zu skip\n", suite, pass, fail, skip);
	if (fail)
		return 1;
	return pass ? 0 : 4;
}

#define KTAP_TEST(fn, timeout) { #fn, fn, timeout }
#define KTAP_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

#endif /* IRQAIO_KTAP_H */
