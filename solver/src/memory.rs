//! Memory hints for the large arrays of the search and the builders: cache-line prefetches and
//! huge pages.

/// Asks the CPU to start loading the cache line holding `*x`, so that several loads can wait for
/// memory at the same time. Only a hint: it never faults and has no visible effect.
#[inline(always)]
pub fn prefetch<T>(x: &T) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        // SAFETY: a prefetch of a valid reference's address; prefetches never fault. (`unsafe`
        // is needed before Rust 1.87.)
        #[allow(unused_unsafe)]
        unsafe {
            _mm_prefetch::<_MM_HINT_T0>((x as *const T).cast::<i8>())
        };
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = x;
}

/// Asks the kernel to back the 2 MiB-aligned part of `bytes` bytes at `ptr` with huge pages
/// (Linux `madvise(MADV_HUGEPAGE)`; elsewhere nothing). Call it before the memory is first
/// touched. Random accesses over a large array otherwise miss the TLB on nearly every access, and
/// the page walk costs as much as the cache miss.
pub fn advise_huge_pages(ptr: *const u8, bytes: usize) {
    #[cfg(target_os = "linux")]
    {
        const HUGE: usize = 2 << 20;
        let start = (ptr as usize).next_multiple_of(HUGE);
        let end = (ptr as usize).saturating_add(bytes) & !(HUGE - 1);
        if end > start {
            // SAFETY: MADV_HUGEPAGE changes only how the kernel backs the range, never its
            // contents, and the caller owns it; failure is harmless and ignored.
            unsafe {
                libc::madvise(start as *mut libc::c_void, end - start, libc::MADV_HUGEPAGE);
            }
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = (ptr, bytes);
}

/// A vector of `n` elements made by `make`, filled in parallel, on huge pages where possible (see
/// [`advise_huge_pages`]).
pub fn huge_vec<T: Send>(n: usize, make: impl Fn() -> T + Sync + Send) -> Vec<T> {
    use rayon::prelude::*;
    let mut v: Vec<T> = Vec::with_capacity(n);
    advise_huge_pages(v.as_ptr().cast::<u8>(), n * std::mem::size_of::<T>());
    v.par_extend((0..n).into_par_iter().map(|_| make()));
    v
}
