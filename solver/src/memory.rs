//! The large arrays of the search and the builders: fallible allocation (a size that comes from
//! a layer's length or a build's estimate is an error when the machine cannot meet it, never an
//! abort), cache-line prefetches and huge pages.

use std::fmt;

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

/// Makes the allocator hand freed large blocks back to the system at once. glibc raises its mmap
/// threshold each time a large block is freed, so later blocks below the new threshold come from
/// its arenas, which keep freed memory resident: a table build, which frees and allocates a
/// layer's arrays in turn, then peaks at whatever the threads' timing left behind, 10 % and more
/// above what it holds at any moment, and differently from run to run. With a fixed threshold
/// (128 KiB, glibc's initial one) its peak is what it holds. Elsewhere (other C libraries) nothing.
pub fn return_freed_blocks() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt only sets an allocator parameter; a failure leaves the default in place.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, 128 << 10);
    }
}

/// Asks the kernel to back the 2 MiB-aligned part of `bytes` bytes at `ptr` with huge pages
/// (Linux `madvise(MADV_HUGEPAGE)`; elsewhere nothing). Call it before the memory is first
/// touched. Random accesses over a large array otherwise miss the TLB on nearly every access, and
/// the page walk costs as much as the cache miss.
pub fn advise_huge_pages(ptr: *const u8, bytes: usize) {
    #[cfg(target_os = "linux")]
    {
        let (start, end) = whole_units(ptr, bytes, 2 << 20);
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

/// The part of `bytes` bytes at `ptr` made of whole `unit`-aligned units (`unit` a power of
/// two), as addresses `start..end` (empty when `end <= start`).
#[cfg(target_os = "linux")]
fn whole_units(ptr: *const u8, bytes: usize, unit: usize) -> (usize, usize) {
    let start = (ptr as usize).next_multiple_of(unit);
    let end = (ptr as usize).saturating_add(bytes) & !(unit - 1);
    (start, end)
}

/// Faults in the whole pages of `bytes` bytes at `ptr` for writing, without changing what they
/// hold (Linux `madvise(MADV_POPULATE_WRITE)`, kernel 5.14 and later), so that it is safe beside
/// threads writing to the same memory. The first write to a fresh page costs a fault in which
/// the kernel zeroes it; this lets an idle thread pay for it. Returns false when the kernel
/// cannot do it (an older kernel, another system), and then nothing was done.
pub fn fault_in(ptr: *const u8, bytes: usize) -> bool {
    #[cfg(target_os = "linux")]
    {
        let (start, end) = whole_units(ptr, bytes, 4096);
        if end <= start {
            return true;
        }
        // SAFETY: MADV_POPULATE_WRITE only maps the range's pages in, never changes their
        // contents, and the caller owns the range.
        unsafe {
            libc::madvise(
                start as *mut libc::c_void,
                end - start,
                libc::MADV_POPULATE_WRITE,
            ) == 0
        }
    }
    #[cfg(not(target_os = "linux"))]
    {
        let _ = (ptr, bytes);
        false
    }
}

/// Memory that could not be allocated: how much, and what for.
///
/// The sizes of a build's arrays come from its layers' lengths, so a request the machine cannot
/// meet (not enough memory, a `ulimit -v`) is reported with its size and purpose instead of
/// aborting the process, as `Vec::with_capacity` would.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AllocError {
    /// The bytes asked for (saturated at `u64::MAX` when the size itself overflows).
    pub bytes: u64,
    /// What the memory was for, e.g. "layer 27's values".
    pub what: String,
}

impl fmt::Display for AllocError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "cannot allocate {} bytes ({:.1} MiB) for {}: not enough memory",
            self.bytes,
            self.bytes as f64 / (1u64 << 20) as f64,
            self.what
        )
    }
}

impl std::error::Error for AllocError {}

/// An empty vector with room for exactly `n` elements, or an [`AllocError`] naming the bytes and
/// `what()` they were for.
pub fn try_vec<T>(n: usize, what: impl FnOnce() -> String) -> Result<Vec<T>, AllocError> {
    let mut v = Vec::new();
    v.try_reserve_exact(n).map_err(|_| AllocError {
        bytes: (n as u64).saturating_mul(std::mem::size_of::<T>() as u64),
        what: what(),
    })?;
    Ok(v)
}

/// A vector of `n` elements made by `make`, filled in parallel, on huge pages where possible (see
/// [`advise_huge_pages`]); allocated as by [`try_vec`].
pub fn huge_vec<T: Send>(
    n: usize,
    what: impl FnOnce() -> String,
    make: impl Fn() -> T + Sync + Send,
) -> Result<Vec<T>, AllocError> {
    use rayon::prelude::*;
    let mut v: Vec<T> = try_vec(n, what)?;
    advise_huge_pages(v.as_ptr().cast::<u8>(), n * std::mem::size_of::<T>());
    v.par_extend((0..n).into_par_iter().map(|_| make()));
    Ok(v)
}
