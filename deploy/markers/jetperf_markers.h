/* Phase markers for jetperf command jobs: jp_begin("load"); ... jp_end("load"); jp_mark("step", "i=3").
 * Sends "begin NAME", "end NAME" or "mark NAME [key=value ...]" to $JETPERF_MARKERS (a unix datagram
 * socket the daemon owns for the job), with the CLOCK_MONOTONIC time as ts=. Outside a job it does
 * nothing. Header-only C (and C++); include it in one program and call the three functions. */
#ifndef JETPERF_MARKERS_H
#define JETPERF_MARKERS_H
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
static int jp_fd_ = -2;
static struct sockaddr_un jp_addr_;
static void jp_send(const char *what, const char *name, const char *attrs) {
  if (jp_fd_ == -2) {
    const char *path = getenv("JETPERF_MARKERS");
    jp_fd_ = path && strlen(path) < sizeof jp_addr_.sun_path ? socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0) : -1;
    if (jp_fd_ >= 0) { jp_addr_.sun_family = AF_UNIX; strcpy(jp_addr_.sun_path, path); }
  }
  if (jp_fd_ < 0) return;
  struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t);
  char line[1024];
  int n = snprintf(line, sizeof line, "%s %s%s%s ts=%lld", what, name, attrs ? " " : "", attrs ? attrs : "",
                   (long long)t.tv_sec * 1000000000LL + t.tv_nsec);
  if (n > 0 && n < (int)sizeof line) sendto(jp_fd_, line, (size_t)n, 0, (struct sockaddr *)&jp_addr_, sizeof jp_addr_);
}
static inline void jp_begin(const char *name) { jp_send("begin", name, NULL); }
static inline void jp_end(const char *name) { jp_send("end", name, NULL); }
static inline void jp_mark(const char *name, const char *attrs) { jp_send("mark", name, attrs); }
#endif
