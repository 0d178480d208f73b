//! Tables held for a search: mapped from the page cache when the kernel backs the mapping with
//! huge pages, read into memory (on huge pages) otherwise.
//!
//! A search makes millions of random lookups, so its tables must sit on huge pages: on 4 KiB
//! pages nearly every lookup also misses the TLB (the K=20 Kalah(6,4) search took 0.5-0.9 s
//! longer on them). Reading the files into memory gives huge pages, but each process then takes
//! fresh memory for the whole set, and on a virtual machine whose host takes free memory back
//! that costs up to 10 ms per huge page (0.5-0.8 s for the 111 MB of a K=20 set; one of ours,
//! docs/performance.md). The page cache already holds the files, and a recent kernel keeps them
//! in large folios that a mapping advised for huge pages maps whole (ext4 from Linux 6.16, XFS):
//! then nothing is copied, the memory is shared by every process using the set, and a second
//! process opens it in milliseconds.
//!
//! Whether the kernel did so is read back (`FilePmdMapped` in `/proc/self/smaps`). A file cached
//! in small folios (read by another program with `read()`) is dropped from the cache and mapped
//! again, which faults it back in as large folios, but only when another file of the set shows
//! that this kernel and file system map files on huge pages at all: elsewhere every process
//! would drop and re-read the files for nothing. A file that still is not on huge pages is read
//! into memory, as before. Off Linux every file of at least one huge page is read.

use std::path::Path;

use memmap2::{Advice, Mmap};
use rayon::prelude::*;

use super::{Expected, Table};
use crate::error::TableError;

/// Bytes of a huge page (x86-64; aarch64 with 4 KiB base pages).
const HUGE: usize = 2 << 20;

impl Table {
    /// Memory-maps a table file for a search (see the module docs): the mapping is advised for
    /// huge pages before anything is read, and faulted in whole once its header was checked (a
    /// file whose length its header does not explain is refused without being read).
    ///
    /// # Safety
    /// As [`Table::map`].
    ///
    /// # Errors
    /// As [`Table::map_expecting`].
    pub(crate) unsafe fn map_resident_expecting(
        path: &Path,
        expected: Expected<'_>,
    ) -> Result<Self, TableError> {
        // SAFETY: forwarded to the caller.
        unsafe { Self::map_advised(path, Some(expected), advise_huge, fault_in_whole) }
    }

    /// A copy in memory of this table's file, which must still be the same layer.
    fn reread(&self) -> Result<Table, TableError> {
        let h = self.header();
        Table::read_expecting(
            self.path(),
            Expected {
                id: &h.id,
                layer: h.layer,
                entries: h.entries,
            },
        )
    }

    /// The same file mapped again after its pages were dropped from the page cache.
    ///
    /// # Safety
    /// As [`Table::map`].
    unsafe fn remap_fresh(self) -> Result<Table, TableError> {
        let h = self.header().clone();
        let path = self.path().to_path_buf();
        drop(self);
        forget_cached(&path);
        let x = Expected {
            id: &h.id,
            layer: h.layer,
            entries: h.entries,
        };
        // SAFETY: forwarded to the caller.
        unsafe { Table::map_resident_expecting(&path, x) }
    }
}

/// Huge pages for the mapping: a hint, which a kernel without it ignores.
fn advise_huge(map: &Mmap) {
    let _ = map.advise(Advice::HugePage);
}

/// Every page faulted in (the search reads all of them, and a fault in the search costs more
/// than one here): a hint too; without it pages are mapped on demand.
fn fault_in_whole(map: &Mmap) {
    #[cfg(target_os = "linux")]
    let _ = map.advise(Advice::PopulateRead);
    #[cfg(not(target_os = "linux"))]
    let _ = map;
}

/// How a mapped table came out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Backing {
    /// Not mapped (read into memory), or smaller than a whole huge page: nothing to decide.
    Settled,
    /// At least 90 % of its whole huge pages are mapped as huge pages.
    Huge,
    /// Mapped mostly on small pages; `some` when at least one huge page is.
    Small { some: bool },
}

/// Settles how each of `tables` (opened by [`Table::map_resident_expecting`]) is held for a
/// search, as the module docs say: kept mapped, mapped again after its cache was dropped, or
/// read into memory.
///
/// # Safety
/// As [`Table::map`]: the files may be mapped again.
///
/// # Errors
/// Any error of mapping or reading a file again (it may have been replaced or removed since).
pub(crate) unsafe fn settle(tables: Vec<Table>) -> Result<Vec<Table>, TableError> {
    let backing = backings(&tables);
    if backing.iter().all(|b| !matches!(b, Backing::Small { .. })) {
        return Ok(tables);
    }
    // The kernel maps this set's files on huge pages when their cache allows it.
    let able = backing
        .iter()
        .any(|b| matches!(b, Backing::Huge | Backing::Small { some: true }));
    let tables: Vec<Table> = tables
        .into_par_iter()
        .zip(backing.par_iter())
        .map(|(t, b)| match b {
            // SAFETY: forwarded to the caller.
            Backing::Small { .. } if able => unsafe { t.remap_fresh() },
            Backing::Small { .. } => t.reread(),
            _ => Ok(t),
        })
        .collect::<Result<_, _>>()?;
    if !able {
        return Ok(tables);
    }
    let again = backings(&tables);
    tables
        .into_par_iter()
        .zip(again.par_iter())
        .map(|(t, b)| match b {
            Backing::Small { .. } => t.reread(),
            _ => Ok(t),
        })
        .collect()
}

/// The backing of each table, from one reading of the kernel's account of this process's
/// mappings.
fn backings(tables: &[Table]) -> Vec<Backing> {
    let huge = pmd_mapped();
    tables
        .iter()
        .map(|t| {
            let Some(m) = t.mapping() else {
                return Backing::Settled;
            };
            let whole = whole_huge_pages(m.as_ptr() as usize, m.len());
            if whole == 0 {
                return Backing::Settled;
            }
            let on_huge = huge(m.as_ptr() as usize);
            if on_huge * 10 >= whole * 9 {
                Backing::Huge
            } else {
                Backing::Small { some: on_huge > 0 }
            }
        })
        .collect()
}

/// Bytes of the whole, aligned huge pages inside `len` bytes at `start`.
fn whole_huge_pages(start: usize, len: usize) -> u64 {
    let Some(first) = start.checked_next_multiple_of(HUGE) else {
        return 0;
    };
    let end = start.saturating_add(len) & !(HUGE - 1);
    end.saturating_sub(first) as u64
}

/// For the mapping that starts at an address, the bytes of it mapped as huge pages of a file
/// (0 for an address that starts no mapping, or where the kernel does not say).
fn pmd_mapped() -> impl Fn(usize) -> u64 {
    let text = if cfg!(target_os = "linux") {
        std::fs::read_to_string("/proc/self/smaps").unwrap_or_default()
    } else {
        String::new()
    };
    let found = parse_smaps(&text);
    move |start| {
        found
            .iter()
            .find(|&&(s, _)| s == start)
            .map_or(0, |&(_, b)| b)
    }
}

/// `(start, FilePmdMapped bytes)` of every mapping in the text of a `smaps` file.
fn parse_smaps(text: &str) -> Vec<(usize, u64)> {
    let mut found = Vec::new();
    let mut start = None;
    for line in text.lines() {
        if let Some(kb) = line.strip_prefix("FilePmdMapped:") {
            let kb = kb.trim().trim_end_matches("kB").trim();
            if let (Some(s), Ok(kb)) = (start, kb.parse::<u64>()) {
                found.push((s, kb * 1024));
            }
        } else if let Some(s) = mapping_start(line) {
            start = Some(s);
        }
    }
    found
}

/// The start address of a mapping's header line (`7f12c0000000-7f12c2000000 r--s ...`).
fn mapping_start(line: &str) -> Option<usize> {
    let range = line.split(' ').next()?;
    let (a, b) = range.split_once('-')?;
    usize::from_str_radix(b, 16).ok()?;
    usize::from_str_radix(a, 16).ok()
}

/// Drops the clean, unmapped pages of `path` from the page cache (a hint; nothing on failure
/// or off Linux).
fn forget_cached(path: &Path) {
    #[cfg(target_os = "linux")]
    if let Ok(f) = std::fs::File::open(path) {
        use std::os::unix::io::AsRawFd;
        // SAFETY: a hint about a file descriptor this function holds open; it changes no data.
        unsafe {
            libc::posix_fadvise(f.as_raw_fd(), 0, 0, libc::POSIX_FADV_DONTNEED);
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = path;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::{encode_parts, toy_id};

    /// A layer of `n` byte-coded entries written to `dir` as one file, and its entries.
    fn big_layer(dir: &Path, layer: u32, n: usize) -> (std::path::PathBuf, Vec<i16>) {
        let v: Vec<i16> = (0..n).map(|i| (i % 201) as i16 - 100).collect();
        let (head, payload) = encode_parts(&toy_id(), layer, &v).unwrap();
        let path = dir.join(format!("layer{layer}.mtb"));
        crate::atomic_write::write_atomic(&path, &[&head, &payload]).unwrap();
        (path, v)
    }

    /// Whatever the kernel did with them, the files settled for a search all end up either on
    /// huge pages or read into memory, and answer every entry as written; one of them was put
    /// in the page cache on small pages first (dropped, then read by `read()` in small pieces).
    #[test]
    fn settled_tables_sit_on_huge_pages_or_in_memory_and_answer_alike() {
        let dir = std::env::temp_dir().join(format!("tables-resident-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let (a, va) = big_layer(&dir, 120, 5 << 20);
        let (b, vb) = big_layer(&dir, 121, 7 << 20);
        forget_cached(&b);
        let mut f = std::fs::File::open(&b).unwrap();
        let mut buf = [0u8; 4096];
        while std::io::Read::read(&mut f, &mut buf).unwrap() > 0 {}
        let id = toy_id();
        let open = |p: &Path, layer: u32, n: usize| {
            let x = Expected {
                id: &id,
                layer,
                entries: n as u64,
            };
            // SAFETY: this test's files are not changed while mapped.
            unsafe { Table::map_resident_expecting(p, x) }.unwrap()
        };
        let tables = vec![open(&a, 120, va.len()), open(&b, 121, vb.len())];
        // SAFETY: as above.
        let tables = unsafe { settle(tables) }.unwrap();
        for b in backings(&tables) {
            assert!(!matches!(b, Backing::Small { .. }), "{b:?}");
        }
        for (t, v) in tables.iter().zip([&va, &vb]) {
            t.check_payload().unwrap();
            for i in (0..v.len()).step_by(4099) {
                assert_eq!(t.get(i as u64), i32::from(v[i]));
            }
        }
        drop(tables);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn smaps_text_gives_each_mapping_its_huge_bytes() {
        let text = "\
7f0000000000-7f0002a00000 r--s 00000000 fd:01 42 /t/kalah_6h_k020.mtb
Size:              43008 kB
FilePmdMapped:     40960 kB
VmFlags: rd mr mw me hg
7f0003000000-7f0003001000 rw-p 00000000 00:00 0 
Size:                  4 kB
FilePmdMapped:         0 kB
";
        assert_eq!(
            parse_smaps(text),
            vec![(0x7f00_0000_0000, 40960 << 10), (0x7f00_0300_0000, 0)]
        );
    }

    #[test]
    fn only_whole_aligned_huge_pages_count() {
        assert_eq!(whole_huge_pages(0, HUGE - 1), 0);
        assert_eq!(whole_huge_pages(4096, 2 * HUGE), HUGE as u64);
        assert_eq!(whole_huge_pages(HUGE, 3 * HUGE + 5), 3 * HUGE as u64);
        assert_eq!(whole_huge_pages(usize::MAX - 10, 100), 0);
    }
}
