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

/// A last-level cache size set by [`assume_last_level_cache_bytes`] (0: none).
static ASSUMED_CACHE_BYTES: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

/// Makes [`last_level_cache_bytes`] answer `bytes` from now on, whatever the processor reports:
/// a front end uses it to emulate a machine with another cache (the table's growth rule reads
/// the size, docs/performance.md), so that a default can be checked for machines one does not
/// have. `0` goes back to what the processor reports.
pub fn assume_last_level_cache_bytes(bytes: usize) {
    ASSUMED_CACHE_BYTES.store(bytes, std::sync::atomic::Ordering::Relaxed);
}

/// The size in bytes of the largest cache the processor reports (its last level), read once;
/// `None` where the system does not say (Linux reports it in
/// `/sys/devices/system/cpu/cpu0/cache/index*/size`). A size set by
/// [`assume_last_level_cache_bytes`] comes first.
pub fn last_level_cache_bytes() -> Option<usize> {
    let assumed = ASSUMED_CACHE_BYTES.load(std::sync::atomic::Ordering::Relaxed);
    if assumed > 0 {
        return Some(assumed);
    }
    static BYTES: std::sync::OnceLock<Option<usize>> = std::sync::OnceLock::new();
    *BYTES.get_or_init(|| {
        let dir = std::fs::read_dir("/sys/devices/system/cpu/cpu0/cache").ok()?;
        dir.filter_map(|e| std::fs::read_to_string(e.ok()?.path().join("size")).ok())
            .filter_map(|s| cache_size(&s))
            .max()
    })
}

/// A cache size as sysfs writes it: `48K`, `2048K`, `32M` or a plain number of bytes.
pub fn cache_size(text: &str) -> Option<usize> {
    let t = text.trim();
    let (digits, unit) = match t.char_indices().last()? {
        (i, 'K') => (&t[..i], 1 << 10),
        (i, 'M') => (&t[..i], 1 << 20),
        (i, 'G') => (&t[..i], 1 << 30),
        _ => (t, 1),
    };
    digits.parse::<usize>().ok()?.checked_mul(unit)
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

#[cfg(test)]
mod tests {
    use super::cache_size;

    #[test]
    fn cache_sizes_read_as_sysfs_writes_them() {
        assert_eq!(cache_size("48K\n"), Some(48 << 10));
        assert_eq!(cache_size("491520K"), Some(480 << 20));
        assert_eq!(cache_size("32M"), Some(32 << 20));
        assert_eq!(cache_size("1G"), Some(1 << 30));
        assert_eq!(cache_size("65536"), Some(65536));
        for bad in ["", "K", "12Q", "-4K", "99999999999999999999G"] {
            assert_eq!(cache_size(bad), None, "{bad:?}");
        }
    }
}
