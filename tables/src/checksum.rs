//! CRC-32 (the zlib / PNG / Ethernet polynomial, reflected, `0xEDB88320`).
//!
//! Why CRC-32 rather than a faster non-cryptographic hash: it is the checksum every tool already
//! has (`python3 -c 'import zlib; print(zlib.crc32(data))'`, `gzip`, `cksum -a crc32b`), so a
//! table's payload can be checked without this program; and it detects every error burst of up to
//! 32 bits with certainty, which covers the failure we care about (a flipped byte or word).
//!
//! The arithmetic is crc32fast's (carry-less multiplication where the CPU has it, chosen at run
//! time): every table is checksummed whole when it is opened, so its speed is the speed of opening
//! a table set (docs/performance.md). The standard check value and a bit-at-a-time reference
//! below pin the format: this is the one CRC-32 every table file was written with.

/// The CRC-32 of `data` (equal to zlib's `crc32(0, data)`).
pub fn crc32(data: &[u8]) -> u32 {
    crc32fast::hash(data)
}

/// Continues a CRC-32: `update(crc32(a), b) == crc32(a ++ b)`.
pub fn update(crc: u32, data: &[u8]) -> u32 {
    let mut h = crc32fast::Hasher::new_with_initial(crc);
    h.update(data);
    h.finalize()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The definition, one bit at a time.
    fn bitwise(data: &[u8]) -> u32 {
        let mut c = !0u32;
        for &b in data {
            c ^= u32::from(b);
            for _ in 0..8 {
                c = if c & 1 != 0 {
                    0xEDB8_8320 ^ (c >> 1)
                } else {
                    c >> 1
                };
            }
        }
        !c
    }

    #[test]
    fn check_value() {
        // The standard check value of CRC-32/ISO-HDLC.
        assert_eq!(crc32(b"123456789"), 0xCBF4_3926);
        assert_eq!(crc32(b""), 0);
    }

    #[test]
    fn agrees_with_the_definition_and_update_chains() {
        // Long enough for the vector path (it folds 64 bytes at a time), with every tail length.
        let data: Vec<u8> = (0..5000u32)
            .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
            .collect();
        for len in (0..200).chain([1000, 4095, 4096, 4097, 5000]) {
            assert_eq!(crc32(&data[..len]), bitwise(&data[..len]), "length {len}");
        }
        for split in [0, 1, 7, 8, 9, 63, 64, 65, 500, 4999, 5000] {
            assert_eq!(update(crc32(&data[..split]), &data[split..]), crc32(&data));
        }
    }
}
