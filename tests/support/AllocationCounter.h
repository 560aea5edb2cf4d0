#pragma once
// Counts heap allocations in a test program: the program interposes glibc's malloc family (the
// technique of Drake's LimitMalloc) and forwards to glibc's own allocator, so memory from
// memalign & co. stays compatible. Eigen allocates with malloc, not operator new, which is why
// malloc itself is replaced. Sanitizers own malloc themselves: there kCountsAllocations is
// false and a test skips its allocation checks.
//
// Include from exactly one source file of a test program (it defines malloc, calloc, realloc
// and free for the whole program).

#include <atomic>
#include <cstddef>

#if defined(__SANITIZE_ADDRESS__)
#define CLAB_COUNT_MALLOC 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(memory_sanitizer)
#define CLAB_COUNT_MALLOC 0
#endif
#endif
#if !defined(CLAB_COUNT_MALLOC) && defined(__GLIBC__)
#define CLAB_COUNT_MALLOC 1
#endif
#if !defined(CLAB_COUNT_MALLOC)
#define CLAB_COUNT_MALLOC 0
#endif

namespace clab::testing {

/// True when this build counts allocations (glibc, no sanitizer).
inline constexpr bool kCountsAllocations = CLAB_COUNT_MALLOC != 0;
/// While true, every malloc, calloc and realloc on any thread adds one to g_allocations.
inline std::atomic<bool> g_countAllocations{false};
inline std::atomic<long> g_allocations{0};

/// Allocations made on any thread while `work` runs.
template <typename Work> long allocationsDuring(Work&& work)
{
    const bool wasCounting = g_countAllocations.exchange(true);
    const long before = g_allocations.load();
    work();
    const long count = g_allocations.load() - before;
    g_countAllocations.store(wasCounting);
    return count;
}

} // namespace clab::testing

#if CLAB_COUNT_MALLOC
// NOLINTBEGIN(bugprone-reserved-identifier): glibc's own allocator entry points
extern "C" {
void* __libc_malloc(std::size_t size);
void* __libc_calloc(std::size_t count, std::size_t size);
void* __libc_realloc(void* p, std::size_t size);
void __libc_free(void* p);

void* malloc(std::size_t size)
{
    if (clab::testing::g_countAllocations.load(std::memory_order_relaxed))
        clab::testing::g_allocations.fetch_add(1, std::memory_order_relaxed);
    return __libc_malloc(size);
}
void* calloc(std::size_t count, std::size_t size)
{
    if (clab::testing::g_countAllocations.load(std::memory_order_relaxed))
        clab::testing::g_allocations.fetch_add(1, std::memory_order_relaxed);
    return __libc_calloc(count, size);
}
void* realloc(void* p, std::size_t size)
{
    if (clab::testing::g_countAllocations.load(std::memory_order_relaxed))
        clab::testing::g_allocations.fetch_add(1, std::memory_order_relaxed);
    return __libc_realloc(p, size);
}
void free(void* p)
{
    __libc_free(p);
}
}
// NOLINTEND(bugprone-reserved-identifier)
#endif
