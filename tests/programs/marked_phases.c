/* The researcher's program that the command-job tests run (C, through deploy/markers/jetperf_markers.h):
 *   marked_phases CYCLES BUSY_MS SLEEP_MS [EXIT_CODE]  each cycle: phase "busy" spinning, then "sleep"
 *   marked_phases --hang                               sleeps until killed (timeouts, cancel)
 *   marked_phases --orphan PIDFILE                     leaves a child running, writes its pid, exits 0
 *   marked_phases --env                                prints its environment and its uid, exits 0
 *   marked_phases --marks N                            N `mark step` markers of 8 attributes each, exits 0
 *   marked_phases --bytes                              writes 3000 x "é" then bytes that are not UTF-8
 *       to stdout and stderr, and marks with such bytes in an attribute and in a name
 *   marked_phases --trace FILE CYCLES BUSY_MS SLEEP_MS the cycles, also written as a Chrome trace as
 *       torch.profiler would with record_function("busy") around the marked phase: events named
 *       like the phases (and a "spin" op inside each busy one), ts in CLOCK_MONOTONIC us */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "jetperf_markers.h"

extern char **environ;

static double now_s(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static void trace_event(FILE *f, int *first, const char *name, const char *cat, double t0, double t1) {
  fprintf(f, "%s\n  {\"ph\": \"X\", \"cat\": \"%s\", \"name\": \"%s\", \"pid\": 1, \"tid\": 1, "
             "\"ts\": %.3f, \"dur\": %.3f}",
          *first ? "" : ",", cat, name, t0 * 1e6, (t1 - t0) * 1e6);
  *first = 0;
}

static int traced_cycles(const char *path, int cycles, double busy_s, double sleep_s) {
  FILE *f = fopen(path, "w");
  if (!f) return 3;
  int first = 1;
  volatile unsigned long spin = 0;
  fprintf(f, "{\"traceEvents\": [");
  for (int i = 0; i < cycles; ++i) {
    jp_begin("busy");
    const double b0 = now_s();
    const double s0 = now_s();
    for (double end = s0 + busy_s; now_s() < end;) spin = spin + 1;
    const double s1 = now_s();
    const double b1 = now_s();
    jp_end("busy");
    trace_event(f, &first, "busy", "user_annotation", b0, b1);
    trace_event(f, &first, "spin", "cpu_op", s0, s1);
    jp_begin("sleep");
    const double z0 = now_s();
    usleep((useconds_t)(sleep_s * 1e6));
    const double z1 = now_s();
    jp_end("sleep");
    trace_event(f, &first, "sleep", "user_annotation", z0, z1);
  }
  fprintf(f, "\n]}\n");
  fclose(f);
  printf("traced %d cycles\n", cycles);
  return 0;
}

int main(int argc, char **argv) {
  if (argc >= 2 && strcmp(argv[1], "--hang") == 0) {
    for (;;) pause();
  }
  if (argc >= 3 && strcmp(argv[1], "--orphan") == 0) {
    pid_t child = fork();
    if (child == 0) {
      for (;;) pause();
    }
    FILE *f = fopen(argv[2], "w");
    if (!f) return 3;
    fprintf(f, "%d\n", (int)child);
    fclose(f);
    return 0;
  }
  if (argc >= 6 && strcmp(argv[1], "--trace") == 0)
    return traced_cycles(argv[2], atoi(argv[3]), atof(argv[4]) / 1000, atof(argv[5]) / 1000);
  if (argc >= 3 && strcmp(argv[1], "--marks") == 0) {
    const long n = atol(argv[2]);
    char attrs[256];
    for (long i = 0; i < n; ++i) {
      snprintf(attrs, sizeof attrs, "i=%ld epoch=%ld batch=128 loss=%.6f lr=0.001 acc=%.4f device=cpu:0 run=seed-001",
               i, i / 1000, 1.0 / (double)(i + 1), (double)(i % 10000) / 10000.0);
      jp_mark("step", attrs);
    }
    printf("sent %ld marks\n", n);
    return 0;
  }
  if (argc >= 2 && strcmp(argv[1], "--bytes") == 0) {
    for (int i = 0; i < 3000; ++i) fputs("\xC3\xA9", stdout);
    fputs(" \xFF\xFE\xC3 end\n", stdout);
    fputs("err \x80\x81\n", stderr);
    jp_mark("step", "k=\xFF\xFE");
    jp_mark("bad\xFFname", NULL);
    return 0;
  }
  if (argc >= 2 && strcmp(argv[1], "--env") == 0) {
    for (char **e = environ; *e; ++e) printf("%s\n", *e);
    printf("uid=%d\n", (int)getuid());
    return 0;
  }
  if (argc < 4) {
    fprintf(stderr, "usage: marked_phases CYCLES BUSY_MS SLEEP_MS [EXIT_CODE]\n");
    return 2;
  }
  const int cycles = atoi(argv[1]);
  const double busy_s = atof(argv[2]) / 1000, sleep_s = atof(argv[3]) / 1000;
  volatile unsigned long spin = 0;
  for (int i = 0; i < cycles; ++i) {
    char attrs[32];
    snprintf(attrs, sizeof attrs, "cycle=%d", i);
    jp_mark("cycle", attrs);
    jp_begin("busy");
    for (double end = now_s() + busy_s; now_s() < end;) spin = spin + 1;
    jp_end("busy");
    jp_begin("sleep");
    usleep((useconds_t)(sleep_s * 1e6));
    jp_end("sleep");
  }
  printf("done %d cycles\n", cycles);
  fprintf(stderr, "a line on stderr\n");
  return argc >= 5 ? atoi(argv[4]) : 0;
}
