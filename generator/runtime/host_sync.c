/* kgen host-threads hand-off (generator/runtime/host_threads.py): a one-poster, one-waiter binary
 * semaphore per direction that the waiter spins on before it sleeps, called through ctypes, which
 * releases the GIL for the whole call.
 *
 * Why native: on a KVM guest whose idle vCPUs halt at once (cpuidle haltpoll with guest_halt_poll_ns
 * = 0), every futex wake-up of a sleeping thread costs tens of microseconds (measured:
 * docs/performance.md, Tuned constants). A Python lock sleeps, and so does a thread waiting for the GIL; a Python loop that
 * spins holds the GIL the other thread needs. Spinning here, with the GIL released, costs neither.
 *
 * Word states: 0 empty, 1 posted, 2 empty with the waiter asleep in futex_wait.
 * Built on first use by host_threads.py into the kernel cache ($KGEN_CACHE_DIR/native/). */
#include <stdatomic.h>
#include <stdint.h>
#include <linux/futex.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static int64_t now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

static inline void relax(void) {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  __asm__ __volatile__("yield");
#endif
}

/* Post the word; wake its waiter if it went to sleep. */
void kgen_post(atomic_int *w) {
  if (atomic_exchange_explicit(w, 1, memory_order_release) == 2)
    syscall(SYS_futex, w, FUTEX_WAKE_PRIVATE, 1, 0, 0, 0);
}

/* Take the word's post: spin up to spin_ns (none at 0), then sleep until it comes. Once taken, spin
 * grace_ns more before returning: the thread then takes the GIL, and the poster, which posted just
 * before entering its own kernel, has released it by then (a thread that finds the GIL held sleeps). */
void kgen_wait(atomic_int *w, int64_t spin_ns, int64_t grace_ns) {
  if (spin_ns > 0) {
    int64_t end = now_ns() + spin_ns;
    for (unsigned i = 0;; i++) {
      int v = atomic_load_explicit(w, memory_order_acquire);
      if (v == 1 && atomic_compare_exchange_strong(w, &v, 0)) goto taken;
      if ((i & 255) == 255 && now_ns() > end) break;
      relax();
    }
  }
  for (;;) {
    int v = 1;
    if (atomic_compare_exchange_strong(w, &v, 0)) goto taken;
    v = 0;
    atomic_compare_exchange_strong(w, &v, 2);
    syscall(SYS_futex, w, FUTEX_WAIT_PRIVATE, 2, 0, 0, 0);     /* EINTR, spurious: look again */
  }
taken:
  if (grace_ns > 0) {
    int64_t until = now_ns() + grace_ns;
    while (now_ns() < until) relax();
  }
}

/* Take the word's post if it is there, without waiting: 1 if taken, else 0. */
int kgen_try_take(atomic_int *w) {
  int v = 1;
  return atomic_compare_exchange_strong(w, &v, 0);
}

/* The caller starts a helper's call: marks it busy, then posts its `go`, in one native call (a signal
 * handled in Python cannot fall between the two: the caller's clean-up after Ctrl-C waits for busy). */
void kgen_start(atomic_int *busy, atomic_int *go) {
  atomic_store_explicit(busy, 1, memory_order_release);
  kgen_post(go);
}

/* A helper's call is over: not busy, its `done` posted, and the next `go` awaited, in one native call
 * (the helper never takes the GIL in between; the caller, woken by the post, takes it instead). */
void kgen_finish_wait(atomic_int *busy, atomic_int *done, atomic_int *go, int64_t spin_ns, int64_t grace_ns) {
  atomic_store_explicit(busy, 0, memory_order_release);
  kgen_post(done);
  kgen_wait(go, spin_ns, grace_ns);
}
