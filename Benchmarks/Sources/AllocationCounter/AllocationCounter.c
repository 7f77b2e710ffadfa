// Counts heap allocations without LD_PRELOAD: on Linux an executable's own definition of
// `malloc` wins over libc's for the whole process (libswiftCore, Foundation and every other
// library included), so defining the allocation entry points here and forwarding to glibc's
// `__libc_*` functions sees every allocation. `free` is left to libc (pointers are libc's own).
// Counting costs one relaxed load while off, so timed runs are not disturbed.

#include "AllocationCounter.h"

#include <errno.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdlib.h>

#if defined(__linux__) && defined(__GLIBC__)

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *pointer, size_t size);
extern void *__libc_memalign(size_t alignment, size_t size);
extern void *__libc_valloc(size_t size);
extern void *__libc_pvalloc(size_t size);

static atomic_bool counting = false;
static atomic_llong allocations = 0;

static inline void note_allocation(void) {
  if (atomic_load_explicit(&counting, memory_order_relaxed)) {
    atomic_fetch_add_explicit(&allocations, 1, memory_order_relaxed);
  }
}

void *malloc(size_t size) {
  note_allocation();
  return __libc_malloc(size);
}

void *calloc(size_t count, size_t size) {
  note_allocation();
  return __libc_calloc(count, size);
}

void *realloc(void *pointer, size_t size) {
  note_allocation();
  return __libc_realloc(pointer, size);
}

void *memalign(size_t alignment, size_t size) {
  note_allocation();
  return __libc_memalign(alignment, size);
}

void *aligned_alloc(size_t alignment, size_t size) {
  note_allocation();
  return __libc_memalign(alignment, size);
}

int posix_memalign(void **result, size_t alignment, size_t size) {
  if (alignment % sizeof(void *) != 0 || (alignment & (alignment - 1)) != 0) {
    return EINVAL;
  }
  note_allocation();
  void *pointer = __libc_memalign(alignment, size);
  if (pointer == NULL && size != 0) {
    return ENOMEM;
  }
  *result = pointer;
  return 0;
}

void *valloc(size_t size) {
  note_allocation();
  return __libc_valloc(size);
}

void *pvalloc(size_t size) {
  note_allocation();
  return __libc_pvalloc(size);
}

bool allocation_counter_is_available(void) { return true; }

void allocation_counter_start(void) {
  atomic_store_explicit(&allocations, 0, memory_order_relaxed);
  atomic_store_explicit(&counting, true, memory_order_seq_cst);
}

int64_t allocation_counter_stop(void) {
  atomic_store_explicit(&counting, false, memory_order_seq_cst);
  return atomic_load_explicit(&allocations, memory_order_relaxed);
}

#else

bool allocation_counter_is_available(void) { return false; }
void allocation_counter_start(void) {}
int64_t allocation_counter_stop(void) { return 0; }

#endif
