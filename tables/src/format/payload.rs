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
    let parity = (layer % 2) as i32;
    // One pass for both questions (two passes cost 20 ms more at Kalah's 6-hole layer 19).
    let (same_parity, fits_byte) = values
        .par_iter()
        .fold(
            || (true, true),
            |(p, b), &v| {
                (
                    p && (i32::from(v) - parity) % 2 == 0,
                    b && i8::try_from(v).is_ok(),
                )
            },
        )
        .reduce(|| (true, true), |x, y| (x.0 && y.0, x.1 && y.1));
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
                for (i, &v) in block.iter().enumerate() {
                    let at = b * BLOCK + i;
                    let code = nibble_code(v, step, base).unwrap_or_else(|| {
                        slots.push((c * CHUNK + at) as u64);
                        excs.push(v);
                        ESCAPE
                    });
                    bytes[at / 2] |= code << ((at & 1) * 4);
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
    // Most blocks fit one window whole: then the lowest value starts the best window (the
    // sort below would say the same), and sorting 256 values per block was 3% of a build.
    let (lo, hi) = block
        .iter()
        .fold((i16::MAX, i16::MIN), |(lo, hi), &x| (lo.min(x), hi.max(x)));
    if i32::from(hi) - i32::from(lo) <= span {
        return (i32::from(lo) + 7 * i32::from(step)).clamp(i8::MIN.into(), i8::MAX.into()) as i8;
    }
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
    (best_lo + 7 * i32::from(step)).clamp(i8::MIN.into(), i8::MAX.into()) as i8
}

/// The nibble code of `v`, when it has one.
#[inline]
fn nibble_code(v: i16, step: u8, offset: i8) -> Option<u8> {
    let d = v as i32 - offset as i32;
    let step = step as i32;
    if d % step != 0 {
        return None;
    }
    let c = d / step + 7;
    (0..ESCAPE as i32).contains(&c).then_some(c as u8)
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
        let mut b = [0u8; 8];
        b[..self.slot_width].copy_from_slice(&payload[at..at + self.slot_width]);
        u64::from_le_bytes(b)
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exception_widths_follow_the_header() {
        assert_eq!(exception_widths(84_672_315, 20), (4, 1));
        assert_eq!(exception_widths(1 << 32, 127), (4, 1));
        assert_eq!(exception_widths((1 << 32) + 1, 128), (8, 2));
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
