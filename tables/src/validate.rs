//! Structural validation of a payload, when a table is opened and before any value is served.
//!
//! A CRC-32 protects against accidents (a flipped bit, a torn copy), not against a bad writer or
//! a crafted file: a payload with a valid checksum can still escape entries that have no
//! exception, or hold values no position of its layer can have. Every reader relies on three
//! properties, checked here in one parallel pass over the payload:
//!
//! - every entry decodes to a value within `-k..=k` for layer `k` (the seeds on the board bound
//!   what the side to move can still win or lose), so no reader serves a value that cannot be;
//! - the exception list is strictly increasing, in range (`slot < entries`), and every slot in it
//!   holds the escape code, with a value within `-k..=k`;
//! - the number of escape codes equals the number of exceptions: with the previous point, every
//!   escaped entry has exactly one exception, so [`crate::Table::get`] never looks for one in vain.
//!
//! The framing (lengths against the header and the file) is [`crate::format::parse`]'s job, done
//! before this runs.

use rayon::prelude::*;

use crate::error::PayloadError;
use crate::format::{byte_at, code_at, wide_at, Encoding, Header, Nibbles, BLOCK, ESCAPE};

/// Blocks of [`BLOCK`] entries per parallel task.
const TASK_BLOCKS: usize = 1024;

/// Checks `payload` (whose length is the header's `payload_len`, already checked) against
/// `header`.
///
/// # Errors
/// What is wrong, at the first bad entry or exception (the same one for any thread count).
pub fn check_structure(header: &Header, payload: &[u8]) -> Result<(), PayloadError> {
    let layer = header.layer;
    let n = usize::try_from(header.entries).map_err(|_| PayloadError::TooMany)?;
    // The first entry of `range` whose value `at` says is outside the layer.
    let scan = |range: std::ops::Range<usize>, at: &(dyn Fn(usize) -> i32 + Sync)| match range
        .clone()
        .find(|&i| !in_layer(i64::from(at(i)), layer))
    {
        Some(i) => Err(PayloadError::ValueOutOfRange {
            entry: i as u64,
            value: i64::from(at(i)),
            layer,
        }),
        None => Ok(0),
    };
    let task = BLOCK * TASK_BLOCKS;
    let tasks = n.div_ceil(task);
    let range = |t: usize| t * task..((t + 1) * task).min(n);
    match header.encoding {
        Encoding::Byte => first_error(
            (0..tasks)
                .into_par_iter()
                .map(|t| scan(range(t), &|i| byte_at(payload, i))),
        )
        .map(|_| ()),
        Encoding::Wide => first_error(
            (0..tasks)
                .into_par_iter()
                .map(|t| scan(range(t), &|i| wide_at(payload, i))),
        )
        .map(|_| ()),
        Encoding::Nibble { .. } => {
            let nib = Nibbles::of(header).ok_or(PayloadError::TooMany)?;
            check_nibbles(header, &nib, payload, n)
        }
    }
}

/// Whether `v` is a value a position of layer `k` can have: `-k..=k`.
fn in_layer(v: i64, k: u32) -> bool {
    (-i64::from(k)..=i64::from(k)).contains(&v)
}

/// The sum of the `Ok` counts, or the error of the lowest task (the same for any thread count).
fn first_error(
    results: impl IndexedParallelIterator<Item = Result<u64, PayloadError>>,
) -> Result<u64, PayloadError> {
    let all: Vec<Result<u64, PayloadError>> = results.collect();
    let mut sum = 0u64;
    for r in all {
        sum += r?;
    }
    Ok(sum)
}

/// Bytes per step of [`code_range`]: two SSE2 registers of lanes, each lane its own running
/// lowest, highest and escape count (a block's 128 bytes are 4 steps).
const LANES: usize = 32;

/// The lowest and highest code other than [`ESCAPE`] among the codes of `bytes` (two a byte),
/// and how many escaped. With none but escapes, the lowest is [`ESCAPE`] and the highest 0, so
/// that `lowest > highest`. Written lane by lane with no branch so that it vectorizes: opening a
/// table set is mostly this and the CRC (docs/performance.md).
#[inline]
fn code_range(bytes: &[u8]) -> (u8, u8, u32) {
    // ESCAPE is the largest code, so the lowest needs no mask; the highest masks escapes to 0.
    const _: () = assert!(ESCAPE == 0xf);
    let mut lo = [ESCAPE; LANES];
    let mut hi = [0u8; LANES];
    // At most 2 a byte per step: no lane overflows below 128 steps (4 KiB).
    let mut escaped = [0u8; LANES];
    debug_assert!(bytes.len() < 128 * LANES);
    let mut steps = bytes.chunks_exact(LANES);
    for step in &mut steps {
        for i in 0..LANES {
            let (a, b) = (step[i] & 0xf, step[i] >> 4);
            let (ea, eb) = (u8::from(a == ESCAPE), u8::from(b == ESCAPE));
            escaped[i] += ea + eb;
            lo[i] = lo[i].min(a.min(b));
            // `e - 1` is 0xff for a code, 0 for an escape.
            hi[i] = hi[i].max((a & ea.wrapping_sub(1)).max(b & eb.wrapping_sub(1)));
        }
    }
    let (mut l, mut h, mut e) = (ESCAPE, 0u8, 0u32);
    for &x in steps.remainder() {
        let (a, b) = (x & 0xf, x >> 4);
        e += u32::from(a == ESCAPE) + u32::from(b == ESCAPE);
        l = l.min(a).min(b);
        h = h
            .max(if a == ESCAPE { 0 } else { a })
            .max(if b == ESCAPE { 0 } else { b });
    }
    for i in 0..LANES {
        l = l.min(lo[i]);
        h = h.max(hi[i]);
        e += u32::from(escaped[i]);
    }
    (l, h, e)
}

fn check_nibbles(
    header: &Header,
    nib: &Nibbles,
    payload: &[u8],
    n: usize,
) -> Result<(), PayloadError> {
    let layer = header.layer;
    let blocks = n.div_ceil(BLOCK);
    // Per task: the escapes counted, each used code's value checked against the layer (through
    // the lowest and highest code of each block: the value rises with the code).
    let escapes = first_error((0..blocks.div_ceil(TASK_BLOCKS)).into_par_iter().map(|t| {
        let mut escapes = 0u64;
        for b in t * TASK_BLOCKS..((t + 1) * TASK_BLOCKS).min(blocks) {
            let entries = b * BLOCK..((b + 1) * BLOCK).min(n);
            let (lo, hi, escaped) = if entries.len() == BLOCK {
                code_range(&payload[b * BLOCK / 2..(b + 1) * BLOCK / 2])
            } else {
                let (mut lo, mut hi, mut escaped) = (ESCAPE, 0u8, 0u32);
                for i in entries.clone() {
                    let c = code_at(payload, i);
                    escaped += u32::from(c == ESCAPE);
                    lo = lo.min(c);
                    hi = hi.max(if c == ESCAPE { 0 } else { c });
                }
                (lo, hi, escaped)
            };
            escapes += u64::from(escaped);
            if lo > hi {
                continue; // every entry of the block escaped
            }
            let base = nib.base(payload, b * BLOCK);
            let value = |c: u8| i64::from(nib.value(c, base));
            if !in_layer(value(lo), layer) || !in_layer(value(hi), layer) {
                let i = entries
                    .clone()
                    .find(|&i| {
                        let c = code_at(payload, i);
                        c != ESCAPE && !in_layer(value(c), layer)
                    })
                    .expect("the block's lowest or highest code is out of range");
                return Err(PayloadError::ValueOutOfRange {
                    entry: i as u64,
                    value: value(code_at(payload, i)),
                    layer,
                });
            }
        }
        Ok(escapes)
    }))?;
    if escapes != header.exceptions {
        return Err(PayloadError::EscapeCount {
            escaped: escapes,
            exceptions: header.exceptions,
        });
    }
    // The exceptions in parallel runs (each one's slot against the one before it, also across
    // runs); the first error in list order, whatever the thread count.
    const RUN: usize = 1 << 16;
    first_error((0..nib.exceptions.div_ceil(RUN)).into_par_iter().map(|r| {
        let run = r * RUN..((r + 1) * RUN).min(nib.exceptions);
        let mut previous = run
            .start
            .checked_sub(1)
            .map(|j| nib.exception_slot(payload, j));
        for j in run {
            let index = j as u64;
            let slot = nib.exception_slot(payload, j);
            if let Some(previous) = previous.filter(|&p| slot <= p) {
                return Err(PayloadError::ExceptionOrder {
                    index,
                    slot,
                    previous,
                });
            }
            previous = Some(slot);
            if slot >= header.entries {
                return Err(PayloadError::ExceptionBeyond {
                    index,
                    slot,
                    entries: header.entries,
                });
            }
            if code_at(payload, slot as usize) != ESCAPE {
                return Err(PayloadError::ExceptionNotEscaped { index, slot });
            }
            let value = i64::from(nib.exception_value(payload, j));
            if !in_layer(value, layer) {
                return Err(PayloadError::ExceptionOutOfRange {
                    index,
                    slot,
                    value,
                    layer,
                });
            }
        }
        Ok(0)
    }))
    .map(|_| ())
}

#[cfg(test)]
mod tests {
    use crate::checksum::crc32;
    use crate::error::TableError;
    use crate::format::{encode_file, encode_head, parse, toy_id, Encoding, Header, ESCAPE};
    use crate::table::Table;
    use std::path::Path;

    /// A file with `header`'s fields and this payload, its checksums recomputed: what a bad
    /// writer or a crafted file looks like.
    fn recrc(header: &Header, payload: &[u8]) -> Vec<u8> {
        let h = Header {
            payload_crc: crc32(payload),
            payload_len: payload.len() as u64,
            ..header.clone()
        };
        [encode_head(&h), payload.to_vec()].concat()
    }

    fn split(file: &[u8]) -> (Header, Vec<u8>) {
        let (h, at) = parse(Path::new("x"), file).unwrap();
        (h, file[at..].to_vec())
    }

    fn bad(file: Vec<u8>, says: &str) {
        match Table::from_bytes("crafted", file) {
            Err(TableError::BadPayload { reason, .. }) => {
                let reason = reason.to_string();
                assert!(reason.contains(says), "{reason} (expected {says:?})")
            }
            other => panic!("expected a BadPayload about {says:?}, got {other:?}"),
        }
    }

    /// Layer 21, 600 entries, exceptions 21 at every 50th slot.
    fn with_exceptions() -> (Header, Vec<u8>) {
        let v: Vec<i16> = (0..600)
            .map(|i| if i % 50 == 0 { 21 } else { (i % 15) * 2 - 13 })
            .collect();
        let (h, p) = split(&encode_file(&toy_id(), 21, &v));
        assert_eq!(
            (h.encoding, h.exceptions),
            (Encoding::Nibble { step: 2 }, 12)
        );
        (h, p)
    }

    #[test]
    fn code_range_is_the_codes_lowest_highest_and_escapes() {
        use super::code_range;
        let reference = |bytes: &[u8]| {
            let codes = bytes.iter().flat_map(|&x| [x & 0xf, x >> 4]);
            let used = || codes.clone().filter(|&c| c != ESCAPE);
            (
                codes.clone().min().unwrap_or(ESCAPE),
                used().max().unwrap_or(0),
                codes.clone().filter(|&c| c == ESCAPE).count() as u32,
            )
        };
        let mut s = 0x9e37_79b9_7f4a_7c15u64;
        let mut byte = || {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            (s >> 32) as u8
        };
        for len in [0, 1, 31, 32, 33, 64, 127, 128, 200] {
            for density in [0u8, 1, 8, 15, 16] {
                // `density` in 16 nibbles escaped (all of them at 16), the others random codes.
                let mut nibble = || {
                    let x = byte();
                    if x >> 4 < density {
                        ESCAPE
                    } else {
                        x % ESCAPE
                    }
                };
                let bytes: Vec<u8> = (0..len).map(|_| nibble() | nibble() << 4).collect();
                assert_eq!(
                    code_range(&bytes),
                    reference(&bytes),
                    "{len} bytes, {density}"
                );
            }
        }
        // One code of a block of escapes, at every place, high and low nibble.
        for at in 0..128 {
            for (x, c) in [(0xf0, 0), (0x3f, 3), (0xef, 0xe), (0xfe, 0xe)] {
                let mut bytes = [0xffu8; 128];
                bytes[at] = x;
                assert_eq!(code_range(&bytes), (c, c, 255), "{x:#x} at {at}");
            }
        }
    }

    #[test]
    fn a_sound_file_passes_and_its_recomputed_copy_too() {
        let (h, p) = with_exceptions();
        let t = Table::from_bytes("ok", recrc(&h, &p)).unwrap();
        assert_eq!(t.get(50), 21);
    }

    #[test]
    fn an_escape_without_exception_is_refused() {
        // Entry 1 (code in the high nibble of byte 0) escaped: 13 escapes, 12 exceptions.
        let (h, mut p) = with_exceptions();
        p[0] |= ESCAPE << 4;
        bad(
            recrc(&h, &p),
            "13 entries are escaped, but the exception list holds 12",
        );
        // The same damage without recomputing the checksum is reported as damage.
        let (h, mut p) = with_exceptions();
        let mut file = recrc(&h, &p);
        p[0] |= ESCAPE << 4;
        let at = file.len() - p.len();
        file[at..].copy_from_slice(&p);
        assert!(matches!(
            Table::from_bytes("damaged", file),
            Err(TableError::PayloadChecksum { .. })
        ));
    }

    #[test]
    fn exception_lists_out_of_order_range_or_place_are_refused() {
        let (h, p) = with_exceptions();
        let slots = 300 + 3; // nibbles, then 3 bases, then the 4-byte slots
        let slot = |p: &mut Vec<u8>, j: usize, s: u32| {
            p[slots + 4 * j..slots + 4 * j + 4].copy_from_slice(&s.to_le_bytes())
        };
        let mut q = p.clone();
        slot(&mut q, 1, 0); // 0, 0, 100, ...
        bad(
            recrc(&h, &q),
            "exception 1 is for entry 0, not after the previous one's 0",
        );
        let mut q = p.clone();
        slot(&mut q, 11, 600);
        bad(
            recrc(&h, &q),
            "exception 11 is for entry 600, beyond the 600 entries",
        );
        let mut q = p.clone();
        slot(&mut q, 0, 1);
        bad(
            recrc(&h, &q),
            "exception 0 is for entry 1, which is not escaped",
        );
        let mut q = p.clone();
        let values = slots + 4 * 12;
        q[values + 3] = 22;
        bad(
            recrc(&h, &q),
            "exception 3 (entry 150) is 22, outside -21..=21",
        );
        // One exception fewer in the header (and the payload): an escape without exception.
        let mut q = p.clone();
        q.remove(values + 11);
        q.drain(slots + 44..slots + 48);
        let h2 = Header {
            exceptions: 11,
            ..h.clone()
        };
        bad(
            recrc(&h2, &q),
            "12 entries are escaped, but the exception list holds 11",
        );
    }

    #[test]
    fn values_outside_the_layer_are_refused() {
        // A nibble block whose base puts a used code beyond the layer.
        let (h, mut p) = with_exceptions();
        p[300] = 20; // block 0's base: code 14 would be 34 > 21
        bad(recrc(&h, &p), "outside -21..=21");
        // Bytes and 16-bit entries: the 32767 of the damaged file served as it was.
        let v: Vec<i16> = (0..50).map(|i| 100 - 4 * i).collect();
        let (h, mut p) = split(&encode_file(&toy_id(), 120, &v));
        assert_eq!(h.encoding, Encoding::Byte);
        p[7] = 121;
        bad(recrc(&h, &p), "entry 7 is 121, outside -120..=120");
        let v: Vec<i16> = (0..50).map(|i| 250 - 10 * i).collect();
        let (h, mut p) = split(&encode_file(&toy_id(), 250, &v));
        assert_eq!(h.encoding, Encoding::Wide);
        p[2 * 9..2 * 9 + 2].copy_from_slice(&32767i16.to_le_bytes());
        bad(recrc(&h, &p), "entry 9 is 32767, outside -250..=250");
    }
}
