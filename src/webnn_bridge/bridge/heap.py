"""Memory given back to the OS: glibc's heap (malloc_trim, the mmap threshold) and the shared
caches' idle sizes. The session trims after a page leaves; the server tunes the allocator once
and calls idle() when no page is left."""

from __future__ import annotations

from webnn_bridge.backends.cache import memory_pressure
from webnn_bridge.backends.compiler import COMPILER, glibc

M_TRIM_THRESHOLD, M_MMAP_THRESHOLD = -1, -3  # mallopt's parameters (glibc malloc.h)
MMAP_THRESHOLD_BYTES = 2 << 20
TRIM_THRESHOLD_BYTES = 4 << 20


def tune_malloc() -> bool:
    """Process-wide, for a host that owns its process: buffers of MMAP_THRESHOLD_BYTES and more
    (tensors, big frames, a runtime's big values) are mapped on their own and unmapped when freed.
    glibc's default threshold grows with the largest buffer freed (up to 32 MiB), after which such
    buffers come from its heaps, whose freed space fragments and stays with the process. The
    threshold sits above a big message's fragment (protocol.FRAGMENT_BYTES: the frames websockets
    builds for each, freed as soon as sent), and a heap keeps up to TRIM_THRESHOLD_BYTES of free
    space at its top (glibc's default, 128 KiB, once the threshold is set): such short-lived buffers
    reuse the same pages instead of faulting fresh ones in each time (a 16 MiB read sent 32 MiB of
    fresh pages through the kernel). idle() still gives all of it back. Whether it could."""
    libc = glibc()
    if libc is None:
        return False
    return bool(libc.mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD_BYTES)) and bool(
        libc.mallopt(M_TRIM_THRESHOLD, TRIM_THRESHOLD_BYTES))


def big_buffer(n: int):
    """A zeroed, writable buffer of ``n`` bytes for a big message's payload: on Linux an anonymous
    mapping of its own, its pages faulted in at once (MAP_POPULATE: one call, not a fault per
    page) and unmapped when the last view of it goes; elsewhere a bytearray."""
    import mmap

    populate = getattr(mmap, "MAP_POPULATE", None)
    if n >= MMAP_THRESHOLD_BYTES and populate is not None:
        try:
            return mmap.mmap(-1, n, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS | populate)
        except (OSError, ValueError):
            pass
    return bytearray(n)


def trim_heap() -> bool:
    """Hand the C heap's free memory back to the OS (glibc keeps the free space of its heaps,
    fragmented by runtimes' small allocations, for the process; the compile thread's reserve is
    held, not free: backends/compiler.py). Whether it could."""
    libc = glibc()
    if libc is None:
        return False
    libc.malloc_trim(0)
    return True


def idle(ml) -> None:
    """The host (``ml``, its bridge.api.ML) has no page left: shared caches keep what they may keep
    while idle (the compile cache's warm sessions: CompileCache.idle_bytes; the build memo's and the
    constant store's memory: their idle_bytes, the disk keeps the rest), and freed memory goes back
    to the OS."""
    ml.compile_cache.trim()
    ml.build_memo.trim()
    ml.constant_store.trim()
    trim_heap()
    # the compile thread's reserve (backends/compiler.py), made again now that nothing waits for
    # the host, if a compile used it; freed when the machine is short of memory
    if memory_pressure():
        COMPILER.release()
    else:
        COMPILER.refill_soon()
