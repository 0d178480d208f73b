//! Every encoding read back, damage detected, and a table from parts equal to its file.

use super::*;
use crate::format::{encode_file, encode_parts, toy_id};

#[test]
fn every_encoding_reads_back() {
    let cases: Vec<(u32, Vec<i16>)> = vec![
        (20, (0..101).map(|i| (i % 15) * 2 - 14).collect()), // parity nibbles
        (
            21,
            (0..101)
                .map(|i| if i % 10 == 0 { 21 } else { (i % 15) * 2 - 13 })
                .collect(),
        ), // + exceptions
        (
            30,
            (0..101)
                .map(|i| if i == 100 { -30 } else { i % 15 - 7 })
                .collect(),
        ), // step-1 nibbles
        (
            21,
            (0..3 * 4096 + 17)
                .map(|i| match i % 97 {
                    0 => 21,
                    1 => -21,
                    _ => (i % 15) * 2 - 13,
                })
                .collect(),
        ), // exceptions in several fence blocks
        (
            200,
            (0..301)
                .map(|i| match i % 50 {
                    7 => 200,
                    8 => -199,
                    _ => i % 15 - 7,
                })
                .collect(),
        ), // exceptions with 16-bit values (layer above 127)
        (120, (0..50).map(|i| 100 - 4 * i).collect()),       // bytes
        (250, (0..50).map(|i| 250 - 10 * i).collect()),      // 16 bits
    ];
    for (layer, v) in cases {
        let t = Table::from_bytes("mem", encode_file(&toy_id(), layer, &v)).unwrap();
        t.check_payload().unwrap();
        t.expect(&toy_id(), layer, v.len() as u64).unwrap();
        let back: Vec<i16> = (0..v.len() as u64).map(|i| t.get(i) as i16).collect();
        assert_eq!(back, v, "layer {layer}, {:?}", t.header().encoding);
    }
}

#[test]
fn damage_is_detected() {
    let v: Vec<i16> = (0..64).map(|i| i % 7 - 3).collect();
    let good = encode_file(&toy_id(), 7, &v);
    let mut flipped = good.clone();
    let last = flipped.len() - 1;
    flipped[last] ^= 1;
    let t = Table::from_bytes("flipped", flipped).unwrap();
    assert!(matches!(
        t.check_payload(),
        Err(TableError::PayloadChecksum { .. })
    ));
    let t = Table::from_bytes("good", good).unwrap();
    let other = TableId {
        game: "toy".into(),
        options: vec![],
        holes: 3,
    };
    let e = t.expect(&other, 7, 64).unwrap_err().to_string();
    assert!(e.contains("not toy, 3 holes"), "{e}");
    assert!(t
        .expect(&toy_id(), 8, 64)
        .unwrap_err()
        .to_string()
        .contains("layer 7, not 8"));
}

#[test]
fn a_table_from_parts_is_the_table_of_the_file() {
    // A few values outside the blocks' windows, so that the payload holds exceptions too.
    let v: Vec<i16> = (0..600)
        .map(|i| if i % 50 == 0 { 41 } else { (i % 7) * 2 - 7 })
        .collect();
    let (head, payload) = encode_parts(&toy_id(), 41, &v).unwrap();
    let whole = encode_file(&toy_id(), 41, &v);
    assert_eq!([head.clone(), payload.clone()].concat(), whole);
    let a = Table::from_parts("a", &head, payload.clone()).unwrap();
    let b = Table::from_bytes("b", whole.clone()).unwrap();
    assert!(a.header().exceptions > 0);
    assert_eq!(a.header(), b.header());
    assert_eq!(a.file_bytes(), whole.len() as u64);
    a.check_payload().unwrap();
    for (i, &x) in v.iter().enumerate() {
        assert_eq!(a.get(i as u64), i32::from(x));
    }
    // A payload one byte short, or a head cut before its end, is caught.
    assert!(matches!(
        Table::from_parts("c", &head, payload[..payload.len() - 1].to_vec()),
        Err(TableError::Truncated { .. })
    ));
    assert!(Table::from_parts("d", &head[..head.len() - 1], payload).is_err());
}
