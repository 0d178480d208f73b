//! CRC-32 (the zlib / PNG / Ethernet polynomial, reflected, `0xEDB88320`), slicing-by-8.
//!
//! Why CRC-32 rather than a faster non-cryptographic hash: it is the checksum every tool already
//! has (`python3 -c 'import zlib; print(zlib.crc32(data))'`, `gzip`, `cksum -a crc32b`), so a
//! table's payload can be checked without this program; and it detects every error burst of up to
//! 32 bits with certainty, which covers the failure we care about (a flipped byte or word). It is
//! written here (40 lines) rather than taken from a crate because the format must not change
//! under us, and slicing-by-8 runs at a few GB/s, well above what a build produces.

/// The eight lookup tables of slicing-by-8: `T[0]` is the classic byte table, `T[s][b]` is the
/// CRC of byte `b` followed by `s` zero bytes.
static TABLES: [[u32; 256]; 8] = make_tables();

const fn make_tables() -> [[u32; 256]; 8] {
    let mut t = [[0u32; 256]; 8];
    let mut i = 0;
    while i < 256 {
        let mut c = i as u32;
        let mut k = 0;
        while k < 8 {
            c = if c & 1 != 0 {
                0xEDB8_8320 ^ (c >> 1)
            } else {
                c >> 1
            };
            k += 1;
        }
        t[0][i] = c;
        i += 1;
    }
    let mut i = 0;
    while i < 256 {
        let mut s = 1;
        while s < 8 {
            let prev = t[s - 1][i];
            t[s][i] = (prev >> 8) ^ t[0][(prev & 0xff) as usize];
            s += 1;
        }
        i += 1;
    }
    t
}

/// The CRC-32 of `data` (equal to zlib's `crc32(0, data)`).
pub fn crc32(data: &[u8]) -> u32 {
    update(0, data)
}

/// Continues a CRC-32: `update(crc32(a), b) == crc32(a ++ b)`.
pub fn update(crc: u32, data: &[u8]) -> u32 {
    let t = &TABLES;
    let mut c = !crc;
    let mut chunks = data.chunks_exact(8);
    for ch in &mut chunks {
        let lo = u32::from_le_bytes([ch[0], ch[1], ch[2], ch[3]]) ^ c;
        let hi = u32::from_le_bytes([ch[4], ch[5], ch[6], ch[7]]);
        c = t[7][(lo & 0xff) as usize]
            ^ t[6][((lo >> 8) & 0xff) as usize]
            ^ t[5][((lo >> 16) & 0xff) as usize]
            ^ t[4][(lo >> 24) as usize]
            ^ t[3][(hi & 0xff) as usize]
            ^ t[2][((hi >> 8) & 0xff) as usize]
            ^ t[1][((hi >> 16) & 0xff) as usize]
            ^ t[0][(hi >> 24) as usize];
    }
    for &b in chunks.remainder() {
        c = t[0][((c ^ b as u32) & 0xff) as usize] ^ (c >> 8);
    }
    !c
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn check_value() {
        // The standard check value of CRC-32/ISO-HDLC.
        assert_eq!(crc32(b"123456789"), 0xCBF4_3926);
        assert_eq!(crc32(b""), 0);
    }

    #[test]
    fn slicing_agrees_with_bytewise_and_update_chains() {
        let data: Vec<u8> = (0..1000u32)
            .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
            .collect();
        let mut c = !0u32;
        for &b in &data {
            c = TABLES[0][((c ^ b as u32) & 0xff) as usize] ^ (c >> 8);
        }
        assert_eq!(crc32(&data), !c);
        for split in [0, 1, 7, 8, 9, 500, 999, 1000] {
            assert_eq!(update(crc32(&data[..split]), &data[split..]), crc32(&data));
        }
    }
}
