//! The payload: how a layer's entries are encoded (the smallest of the three [`Encoding`]s) and
//! decoded. The decoding lives here once, for the reader ([`crate::Table::get`]) and for the
//! validator ([`crate::validate`]) alike, so that what is checked is what is served: the nibble
//! code of an entry, the value a code stands for in its block, and where the exception list's
//! slots and values lie.
//!
//! ```text
//! Nibble payload of n entries, m exceptions:
//!
//!   0              ceil(n/2)        + ceil(n/256)      + sw·m             + vw·m
//!   | codes, 2 a byte | block bases (i8) | exception slots | exception values |
//!     entry 2j: low nibble of byte j     (sw, vw: exception_widths)
//! ```

use solver::AllocError;

use super::{Encoding, Header};

/// The nibble code that escapes to the exception list.
pub const ESCAPE: u8 = 15;

/// Entries per block of the nibble encoding (one base each).
pub const BLOCK: usize = 256;

/// The bytes of one exception's slot and of its value, for a layer `layer` of `entries` entries:
/// `(4 or 8, 1 or 2)` (see the module docs).
pub fn exception_widths(entries: u64, layer: u32) -> (usize, usize) {
    (
        if entries <= 1 << 32 { 4 } else { 8 },
        if layer <= i8::MAX as u32 { 1 } else { 2 },
    )
}

/// Chooses the smallest encoding of `values` (layer `layer`) and encodes them: the encoding, the
/// number of exceptions and the payload.
///
/// # Errors
/// [`AllocError`] when the payload (about half a byte per entry) cannot be allocated.
pub fn encode_entries(layer: u32, values: &[i16]) -> Result<(Encoding, u64, Vec<u8>), AllocError> {
    use rayon::prelude::*;
    let n = values.len() as u64;
    let parity = (layer % 2) as i16;
    // One pass for both questions, over chunks whose loops vectorize: whether every value has
    // the layer's parity (no low bit differs from it) and the range of the values.
    let (differs, lo, hi) = values
        .par_chunks(1 << 16)
        .map(|c| {
            c.iter()
                .fold((0i16, i16::MAX, i16::MIN), |(d, lo, hi), &v| {
                    (d | (v ^ parity), lo.min(v), hi.max(v))
                })
        })
        .reduce(
            || (0, i16::MAX, i16::MIN),
            |x, y| (x.0 | y.0, x.1.min(y.1), x.2.max(y.2)),
        );
    let same_parity = differs & 1 == 0;
    let fits_byte = values.is_empty() || (i8::try_from(lo).is_ok() && i8::try_from(hi).is_ok());
    let mut best: (u64, Encoding) = (2 * n, Encoding::Wide);
    if fits_byte {
        best = (n, Encoding::Byte);
    }
    // Step 2 covers twice the range when the parity holds, at no cost.
    let step: u8 = if same_parity { 2 } else { 1 };
    // The nibbles, block bases and exceptions, in parallel over chunks of whole blocks; each
    // chunk's exceptions come out in slot order, and so does their concatenation.
    const CHUNK: usize = 256 * BLOCK;
    // The payload is the layer's table in memory while the build goes on: random lookups.
    let what = || format!("layer {layer}'s encoded table");
    let mut nibbles = zeroed(n.div_ceil(2) as usize, what)?;
    solver::advise_huge_pages(nibbles.as_ptr(), nibbles.len());
    let mut bases = zeroed(n.div_ceil(BLOCK as u64) as usize, what)?;
    let parts: Vec<(Vec<u64>, Vec<i16>)> = nibbles
        .par_chunks_mut(CHUNK / 2)
        .zip(bases.par_chunks_mut(CHUNK / BLOCK))
        .zip(values.par_chunks(CHUNK))
        .enumerate()
        .map(|(c, ((bytes, bases), vals))| {
            let mut slots = Vec::new();
            let mut excs = Vec::new();
            for (b, block) in vals.chunks(BLOCK).enumerate() {
                let base = block_base(block, step);
                bases[b] = base as u8;
                let mut escape = |i: usize, v: i16| {
                    slots.push((c * CHUNK + b * BLOCK + i) as u64);
                    excs.push(v);
                };
                let codes = &mut bytes[b * BLOCK / 2..];
                // The step is a constant in each loop, so dividing by it is no division
                // (docs/performance.md, "Encoding, checking and copying a built layer").
                if step == 2 {
                    encode_block::<2>(block, base, codes, &mut escape);
                } else {
                    encode_block::<1>(block, base, codes, &mut escape);
                }
            }
            (slots, excs)
        })
        .collect();
    let exc = parts.iter().map(|p| p.0.len() as u64).sum::<u64>();
    let (sw, vw) = exception_widths(n, layer);
    let nibble_size = nibbles.len() as u64 + bases.len() as u64 + (sw + vw) as u64 * exc;
    if nibble_size < best.0 {
        let mut payload = nibbles;
        // Exactly what follows the nibbles: growing by doubling would ask for twice the
        // nibbles' memory here, and keep it for the rest of the build.
        let rest = bases.len() + (sw + vw) * exc as usize;
        payload.try_reserve_exact(rest).map_err(|_| AllocError {
            bytes: (payload.len() + rest) as u64,
            what: what(),
        })?;
        payload.extend_from_slice(&bases);
        for s in parts.iter().flat_map(|p| &p.0) {
            payload.extend_from_slice(&s.to_le_bytes()[..sw]);
        }
        for v in parts.iter().flat_map(|p| &p.1) {
            payload.extend_from_slice(&v.to_le_bytes()[..vw]);
        }
        return Ok((Encoding::Nibble { step }, exc, payload));
    }
    drop((nibbles, bases, parts));
    let mut payload = solver::try_vec(best.0 as usize, what)?;
    match best.1 {
        Encoding::Byte => {
            payload.extend(values.iter().map(|&v| v as i8 as u8));
            Ok((Encoding::Byte, 0, payload))
        }
        _ => {
            payload.extend(values.iter().flat_map(|v| v.to_le_bytes()));
            Ok((Encoding::Wide, 0, payload))
        }
    }
}

/// `len` zero bytes, allocated as by [`solver::try_vec`] (zeroed pages from the allocator).
fn zeroed(len: usize, what: impl FnOnce() -> String) -> Result<Vec<u8>, AllocError> {
    let mut v = solver::try_vec(len, what)?;
    v.resize(len, 0);
    Ok(v)
}

/// The base (value of code 7) for a block: the window of 15 codes `base + step * (-7..=7)` that
/// holds the most of the block's values; ties go to the lowest window. Clamped to `i8`.
fn block_base(block: &[i16], step: u8) -> i8 {
    let span = 14 * i32::from(step);
    let (lo, hi) = block
        .iter()
        .fold((i16::MAX, i16::MIN), |(lo, hi), &x| (lo.min(x), hi.max(x)));
    let (lo, hi) = (i32::from(lo), i32::from(hi));
    let best_lo = if hi - lo <= span {
        // Most blocks fit one window whole: the lowest value starts the best one.
        lo
    } else if hi - lo < HISTOGRAM as i32 {
        best_window_counted(block, lo, hi, span)
    } else {
        best_window_sorted(block, span)
    };
    (best_lo + 7 * i32::from(step)).clamp(i8::MIN.into(), i8::MAX.into()) as i8
}

/// Values a block may spread over for [`best_window_counted`] (table values are within a few
/// hundred of 0 in practice; wider blocks are sorted).
const HISTOGRAM: usize = 1024;

/// The lowest value `x` of the block (from `lo` to `hi`) whose window `x..=x + span` holds the
/// most of its values, by counting, which is cheaper than sorting the block (docs/performance.md,
/// "Figures behind comments").
fn best_window_counted(block: &[i16], lo: i32, hi: i32, span: i32) -> i32 {
    let width = (hi - lo + 1) as usize;
    let mut count = [0u16; HISTOGRAM];
    for &x in block {
        count[(i32::from(x) - lo) as usize] += 1;
    }
    // The window starting at 0 (the lowest value, always present), then slid one value up at a
    // time: it gains the value entering on the right and loses the one leaving on the left.
    let span = span as usize;
    let mut inside: u32 = count[..=span.min(width - 1)]
        .iter()
        .map(|&c| u32::from(c))
        .sum();
    let (mut best, mut best_at) = (inside, 0);
    for x in 1..width {
        inside -= u32::from(count[x - 1]);
        if x + span < width {
            inside += u32::from(count[x + span]);
        }
        if count[x] > 0 && inside > best {
            (best, best_at) = (inside, x);
        }
    }
    lo + best_at as i32
}

/// As [`best_window_counted`], for blocks too wide to count: sorts a copy.
fn best_window_sorted(block: &[i16], span: i32) -> i32 {
    let mut v = [0i16; BLOCK];
    let v = &mut v[..block.len()];
    v.copy_from_slice(block);
    v.sort_unstable();
    let (mut best, mut best_lo, mut j) = (0, i32::from(v[0]), 0);
    for i in 0..v.len() {
        let lo = i32::from(v[i]);
        while j < v.len() && i32::from(v[j]) - lo <= span {
            j += 1;
        }
        if j - i > best {
            (best, best_lo) = (j - i, lo);
        }
    }
    best_lo
}

/// The nibble codes of a block whose base (code 7) is `base`, into `codes` (entry `2j` in the
/// low nibble of byte `j`); every value without a code is passed to `escape` with its
/// index in the block and coded [`ESCAPE`].
#[inline(always)]
fn encode_block<const STEP: i32>(
    block: &[i16],
    base: i8,
    codes: &mut [u8],
    escape: &mut impl FnMut(usize, i16),
) {
    for ((j, pair), byte) in block.chunks(2).enumerate().zip(codes) {
        let mut b = 0;
        for (h, &v) in pair.iter().enumerate() {
            let code = nibble_code::<STEP>(v, base).unwrap_or_else(|| {
                escape(2 * j + h, v);
                ESCAPE
            });
            b |= code << (4 * h);
        }
        *byte = b;
    }
}

/// The nibble code of `v` in a block whose base (code 7) is `offset`, when it has one.
#[inline(always)]
fn nibble_code<const STEP: i32>(v: i16, offset: i8) -> Option<u8> {
    let d = i32::from(v) - i32::from(offset);
    if d % STEP != 0 {
        return None;
    }
    let c = d / STEP + 7;
    (0..i32::from(ESCAPE)).contains(&c).then_some(c as u8)
}

/// The nibble code of entry `i`: entry `2j` in the low nibble of byte `j`, `2j + 1` in the high.
///
/// # Panics
/// When `i / 2` lies beyond `codes`.
#[inline(always)]
pub fn code_at(codes: &[u8], i: usize) -> u8 {
    (codes[i >> 1] >> ((i & 1) << 2)) & 0xf
}

/// Entry `i` of a byte payload.
#[inline(always)]
pub fn byte_at(payload: &[u8], i: usize) -> i32 {
    i32::from(payload[i] as i8)
}

/// Entry `i` of a 16-bit payload.
#[inline(always)]
pub fn wide_at(payload: &[u8], i: usize) -> i32 {
    i32::from(i16::from_le_bytes([payload[2 * i], payload[2 * i + 1]]))
}

/// Where the parts of a nibble payload lie (see the module docs), from its header: the one
/// description of the layout that the reader and the validator share.
#[derive(Clone, Copy, Debug, Default)]
pub struct Nibbles {
    /// The step between codes: 1, or 2 when every value has the layer's parity.
    pub step: u8,
    /// Where the block bases start: after `ceil(entries / 2)` bytes of codes.
    pub bases_at: usize,
    /// Where the exception slots start: after one base per block.
    pub slots_at: usize,
    /// Where the exception values start: after the slots.
    pub values_at: usize,
    /// Entries in the exception list.
    pub exceptions: usize,
    /// Bytes of one exception slot (4 or 8).
    pub slot_width: usize,
    /// Bytes of one exception value (1 or 2).
    pub value_width: usize,
}

impl Nibbles {
    /// The layout of `header`'s payload; `None` when its encoding is not [`Encoding::Nibble`]
    /// or an offset overflows `usize`.
    pub fn of(header: &Header) -> Option<Self> {
        let Encoding::Nibble { step } = header.encoding else {
            return None;
        };
        let (slot_width, value_width) = exception_widths(header.entries, header.layer);
        let exceptions = usize::try_from(header.exceptions).ok()?;
        let bases_at = usize::try_from(header.entries.div_ceil(2)).ok()?;
        let slots_at =
            bases_at.checked_add(usize::try_from(header.entries.div_ceil(BLOCK as u64)).ok()?)?;
        let values_at = slots_at.checked_add(slot_width.checked_mul(exceptions)?)?;
        Some(Self {
            step,
            bases_at,
            slots_at,
            values_at,
            exceptions,
            slot_width,
            value_width,
        })
    }

    /// The base (value of code 7) of entry `i`'s block.
    #[inline(always)]
    pub fn base(&self, payload: &[u8], i: usize) -> i32 {
        i32::from(payload[self.bases_at + i / BLOCK] as i8)
    }

    /// The value that a code other than [`ESCAPE`] stands for in a block of base `base`.
    #[inline(always)]
    pub fn value(&self, code: u8, base: i32) -> i32 {
        i32::from(self.step) * (i32::from(code) - 7) + base
    }

    /// The slot of exception `j`.
    #[inline]
    pub fn exception_slot(&self, payload: &[u8], j: usize) -> u64 {
        let at = self.slots_at + self.slot_width * j;
        // One load of a known width, not a copy of a variable length (a call to memmove).
        if self.slot_width == 4 {
            u64::from(u32::from_le_bytes(le_bytes(payload, at)))
        } else {
            u64::from_le_bytes(le_bytes(payload, at))
        }
    }

    /// The value of exception `j`.
    #[inline]
    pub fn exception_value(&self, payload: &[u8], j: usize) -> i32 {
        let at = self.values_at + self.value_width * j;
        if self.value_width == 1 {
            i32::from(payload[at] as i8)
        } else {
            i32::from(i16::from_le_bytes([payload[at], payload[at + 1]]))
        }
    }
}

/// The `N` bytes of `payload` from `at`.
#[inline(always)]
fn le_bytes<const N: usize>(payload: &[u8], at: usize) -> [u8; N] {
    payload[at..at + N].try_into().expect("a slice of N bytes")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exception_widths_follow_the_header() {
        assert_eq!(exception_widths(84_672_315, 20), (4, 1));
        assert_eq!(exception_widths(1 << 32, 127), (4, 1));
        assert_eq!(exception_widths((1 << 32) + 1, 128), (8, 2));
    }

    /// Counting finds the window that sorting finds (the lowest of the fullest), on blocks of
    /// every spread: clustered, tied, spread past the histogram, short.
    #[test]
    fn counted_windows_are_the_sorted_ones() {
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        let mut wide = 0;
        for round in 0..20_000 {
            let len = if round % 7 == 0 {
                1 + next() % BLOCK as u64
            } else {
                BLOCK as u64
            };
            let spread = [3, 16, 29, 30, 60, 200, 1500][round % 7] as u64;
            let centre = (next() % 400) as i64 - 200;
            let block: Vec<i16> = (0..len)
                .map(|_| (centre + (next() % spread) as i64 - spread as i64 / 2) as i16)
                .collect();
            for step in [1u8, 2] {
                let span = 14 * i32::from(step);
                let (lo, hi) = (*block.iter().min().unwrap(), *block.iter().max().unwrap());
                let (lo, hi) = (i32::from(lo), i32::from(hi));
                let sorted = best_window_sorted(&block, span);
                if hi - lo < HISTOGRAM as i32 {
                    assert_eq!(
                        best_window_counted(&block, lo, hi, span),
                        sorted,
                        "{block:?}"
                    );
                } else {
                    wide += 1;
                }
                assert_eq!(
                    block_base(&block, step),
                    (sorted + 7 * i32::from(step)).clamp(-128, 127) as i8
                );
            }
        }
        assert!(wide > 0, "no block was spread past the histogram");
    }

    #[test]
    fn encodings_are_chosen_by_size() {
        // Parity holds, values in -14..=14 of layer 20: 4 bits, no exception.
        let v: Vec<i16> = (0..100).map(|i| (i % 15) * 2 - 14).collect();
        let (e, exc, p) = encode_entries(20, &v).unwrap();
        assert_eq!((e, exc, p.len()), (Encoding::Nibble { step: 2 }, 0, 50 + 1));
        // No parity, small values: 4 bits, step 1, two exceptions.
        let mut v: Vec<i16> = (0..100).map(|i| i % 15 - 7).collect();
        v[3] = 30;
        v[98] = -9;
        let (e, exc, p) = encode_entries(30, &v).unwrap();
        assert_eq!(
            (e, exc, p.len()),
            (Encoding::Nibble { step: 1 }, 2, 50 + 1 + 2 * (4 + 1))
        );
        // Values clustered away from 0: the window moves there (the lowest window holding them
        // all: 91..=105, base 98, after the 5 bytes of nibbles).
        let v: Vec<i16> = (0..10).map(|i| 100 - i).collect();
        let (e, exc, p) = encode_entries(120, &v).unwrap();
        assert_eq!(
            (e, exc, p.len(), p[5] as i8),
            (Encoding::Nibble { step: 1 }, 0, 6, 98)
        );
        // Each block gets its own window: two clusters 60 apart, no exception.
        let v: Vec<i16> = (0..2 * BLOCK as i16)
            .map(|i| {
                if (i as usize) < BLOCK {
                    i % 15 - 7
                } else {
                    60 + i % 15
                }
            })
            .collect();
        let (e, exc, p) = encode_entries(100, &v).unwrap();
        assert_eq!((e, exc), (Encoding::Nibble { step: 1 }, 0));
        assert_eq!((p[BLOCK] as i8, p[BLOCK + 1] as i8), (0, 67));
        // Values spread wide: bytes; beyond i8: 16 bits.
        let v: Vec<i16> = (0..10).map(|i| 100 - 20 * i).collect();
        assert_eq!(encode_entries(120, &v).unwrap().0, Encoding::Byte);
        let v: Vec<i16> = (0..10).map(|i| 250 - 40 * i).collect();
        assert_eq!(encode_entries(250, &v).unwrap().0, Encoding::Wide);
    }
}
