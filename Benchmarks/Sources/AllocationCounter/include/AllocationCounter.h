#ifndef SYRINGE_BENCH_ALLOCATION_COUNTER_H
#define SYRINGE_BENCH_ALLOCATION_COUNTER_H

#include <stdbool.h>
#include <stdint.h>

/// Whether this build counts heap allocations (Linux with glibc); elsewhere the
/// functions below are no-ops and the count stays 0.
bool allocation_counter_is_available(void);

/// Starts counting allocation calls (malloc, calloc, realloc, memalign and friends)
/// on every thread, from zero.
void allocation_counter_start(void);

/// Stops counting and returns the number of allocation calls since the last start.
int64_t allocation_counter_stop(void);

#endif
