/*
 * The watchdog's wait (vq_gpu_event_sync) polls instead of blocking. Its
 * pause schedule (vq_wait_pause) is checked here on a simulated clock: work
 * that ends within the first 2 ms is seen at the first query after it ends
 * (no added latency at 3000 frames/s, 0.33 ms per frame); a longer wait is
 * prolonged by at most 1/64 of its length and 1 ms; a minute-long wait
 * (the watchdog's default) takes a bounded number of queries.
 */

#include "gpu/fault.h"
#include "../common/unit_check.h"

/* Simulated wait for work that ends `t_end` seconds in, each query taking
 * `query` seconds: returns when the wait saw the end; counts queries. */
static double simulate(double t_end, double query, unsigned long *n_query)
{
    double t = 0.0;
    *n_query = 0;
    for (;;) {
        t += query;
        ++*n_query;
        if (t >= t_end)
            return t;
        t += vq_wait_pause(t);
    }
}

int main(void)
{
    CHECK(vq_wait_pause(0.0) == 0.0);
    CHECK(vq_wait_pause(0.00033) == 0.0);
    CHECK(vq_wait_pause(VQ_WAIT_SPIN * 0.999) == 0.0);
    for (double w = VQ_WAIT_SPIN; w < 120.0; w *= 1.01) {
        double p = vq_wait_pause(w);
        CHECK_MSG(p > 0.0 && p <= w / 64.0 && p <= VQ_WAIT_MAX_NAP,
                  "waited %g s: pause %g s", w, p);
    }
    const double query = 1e-6; /* an event query, about a microsecond */
    /* frames at 3000 fps and up to the spin limit: seen within one query */
    for (double t_end = 1e-5; t_end < VQ_WAIT_SPIN; t_end += 1.7e-5) {
        unsigned long n;
        double seen = simulate(t_end, query, &n);
        CHECK_MSG(seen - t_end <= query * 1.0001, "work of %g s seen at %g s",
                  t_end, seen);
    }
    /* longer waits: late by at most 1/64 of the wait (and 1 ms) */
    for (double t_end = VQ_WAIT_SPIN; t_end < 10.0; t_end *= 1.07) {
        unsigned long n;
        double seen = simulate(t_end, query, &n);
        double late = seen - t_end;
        CHECK_MSG(late <= t_end / 64.0 + query &&
                  late <= VQ_WAIT_MAX_NAP + query,
                  "work of %g s seen at %g s", t_end, seen);
    }
    /* the default watchdog's minute: about one query per millisecond after
     * the spin, not a busy loop */
    unsigned long n;
    simulate(60.0, query, &n);
    CHECK_MSG(n < 2500 + 61000, "%lu queries in 60 s", n);
    TEST_END();
}
