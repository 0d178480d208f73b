use super::*;
use proptest::prelude::*;

fn entry(lower: i32, upper: i32, best: Option<u8>, work: u8) -> Entry {
    Entry {
        lower,
        upper,
        best,
        work,
    }
}

/// The value, move and work a test stores for key `k` (so that any hit can be checked).
fn entry_of(k: u128) -> Entry {
    let v = (k % 201) as i32 - 100;
    entry(v, v, Some((k % 32) as u8), (k % 16) as u8)
}

fn check_round_trip<W: Width>(q: W::Quotient, e: Entry) -> Result<(), TestCaseError> {
    let word = W::pack(q, e);
    prop_assert!(!W::is_empty(word));
    prop_assert!(W::stored_tag(word) == W::tag(q));
    prop_assert_eq!(W::unpack(word), e);
    prop_assert_eq!(W::work(word), e.work);
    Ok(())
}

proptest! {
    #[test]
    fn packing_round_trips(
        q in 0..=narrow::MAX_QUOTIENT,
        wq in 0..=wide::MAX_QUOTIENT,
        a in MIN_VALUE..=MAX_VALUE,
        b in MIN_VALUE..=MAX_VALUE,
        mv in proptest::option::of(0u8..crate::game::MAX_MOVES as u8),
        w in 0..=MAX_WORK,
    ) {
        let e = entry(a, b, mv, w);
        check_round_trip::<Narrow>(q, e)?;
        check_round_trip::<Wide>(wq, e)?;
        check_round_trip::<Wide>(wide::MAX_QUOTIENT, e)?;
        // Below the key, both widths hold the same fields.
        let fields = (1u64 << entry::PAYLOAD_BITS) - 1;
        prop_assert_eq!(Wide::pack(wq, e) as u64 & fields, Narrow::pack(q, e) & fields);
    }

    /// Keys that share a bucket never answer for one another, whatever the table size.
    #[test]
    fn distinct_keys_never_collide(
        buckets in 1usize..64,
        keys in proptest::collection::btree_set(0u128..5000, 1..200),
    ) {
        for tt in [
            TranspositionTable::new(buckets * 16, 5000, 100).unwrap(),
            TranspositionTable::wide(buckets * 32, 5000, 100).unwrap(),
        ] {
            for &k in &keys {
                tt.store(k, entry_of(k));
                for &j in &keys {
                    if let Some(e) = tt.probe(j) {
                        prop_assert_eq!(e.lower, entry_of(j).lower);
                        prop_assert_eq!(e.best, entry_of(j).best);
                    }
                }
                // The key just stored is always found.
                prop_assert!(tt.probe(k).is_some());
            }
        }
    }

    /// The same with keys all over the wide entry's range (up to 2^100 times the buckets): a wide
    /// table never returns a wrong hit, and keys that differ only in high bits stay apart.
    #[test]
    fn wide_keys_never_collide(
        buckets in 1usize..16,
        low in proptest::collection::vec(0u128..64, 1..40),
        high in proptest::collection::vec(0u128..(1 << 40), 1..40),
    ) {
        let bound = (wide::MAX_QUOTIENT + 1) * buckets as u128;
        let tt = TranspositionTable::wide(buckets * 32, bound, 100).unwrap();
        assert!(tt.is_wide());
        let mut keys: Vec<u128> = low
            .iter()
            .zip(high.iter().cycle())
            .map(|(&l, &h)| ((h << 59) | l) % bound)
            .collect();
        keys.push(bound - 1);
        keys.sort_unstable();
        keys.dedup();
        for &k in &keys {
            tt.store(k, entry_of(k));
            for &j in &keys {
                if let Some(e) = tt.probe(j) {
                    prop_assert_eq!(e, Entry { work: e.work, ..entry_of(j) });
                }
            }
            prop_assert!(tt.probe(k).is_some());
        }
    }
}

/// Writers race on a few buckets with keys that differ in both halves of the wide word; readers
/// probing meanwhile must only ever see an entry written for the very key they ask about. A torn
/// 16-byte entry (one half from each of two stores) would show as a key with another key's value.
#[test]
fn concurrent_wide_writers_never_yield_a_wrong_hit() {
    let buckets = 4u128;
    let bound = (wide::MAX_QUOTIENT + 1) * buckets;
    let tt = TranspositionTable::wide(buckets as usize * 32, bound, 100).unwrap();
    // Keys in the same buckets whose quotients differ in the low and the high 64 bits.
    let keys: Vec<u128> = (0..64u128)
        .map(|i| ((i * 0x9e37_79b9_7f4a_7c15 % (1 << 36)) << 64 | (i * 977)) % bound)
        .collect();
    let stop = std::sync::atomic::AtomicBool::new(false);
    std::thread::scope(|s| {
        for t in 0..2 {
            let (tt, keys) = (&tt, &keys);
            s.spawn(move || {
                for round in 0..20_000usize {
                    let k = keys[(round * 7 + t * 13) % keys.len()];
                    tt.store(k, entry_of(k));
                }
            });
        }
        let (tt, keys, stop) = (&tt, &keys, &stop);
        s.spawn(move || {
            let mut hits = 0u64;
            while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                for &k in keys {
                    if let Some(e) = tt.probe(k) {
                        let want = entry_of(k);
                        assert_eq!(
                            (e.lower, e.upper, e.best),
                            (want.lower, want.upper, want.best)
                        );
                        hits += 1;
                    }
                }
            }
            assert!(hits > 0);
        });
        std::thread::sleep(std::time::Duration::from_millis(300));
        stop.store(true, std::sync::atomic::Ordering::Relaxed);
    });
}

#[test]
fn u128_keys_locate_like_u64_keys() {
    // Keys above 2^64 need a table of 2^28+ buckets to be accepted; check the arithmetic alone.
    let tt = Table::<Narrow>::zeroed(1000).unwrap();
    let wt = Table::<Wide>::zeroed(1000).unwrap();
    for k in [
        0u128,
        999,
        1000,
        12345,
        u64::MAX as u128,
        (1u128 << 64) + 7,
        (1u128 << 90) + 3,
    ] {
        assert_eq!(
            tt.slot(k),
            Slot {
                index: (k % 1000) as usize,
                quotient: (k / 1000) as u64
            }
        );
        assert_eq!(
            wt.slot(k),
            Slot {
                index: (k % 1000) as usize,
                quotient: k / 1000
            }
        );
    }
}

#[test]
fn chooses_the_width_and_rejects_keys_beyond_the_wide_entry_and_big_stakes() {
    // 1 bucket: quotient = key, narrow while key_bound - 1 <= MAX_QUOTIENT, then wide.
    let narrow_max = narrow::MAX_QUOTIENT as u128;
    assert!(!TranspositionTable::new(16, narrow_max + 1, 10)
        .unwrap()
        .is_wide());
    let t = TranspositionTable::new(16, narrow_max + 2, 10).unwrap();
    assert!(t.is_wide());
    assert_eq!(t.bytes(), 32, "at least one wide bucket");
    assert!(!TranspositionTable::new(32, narrow_max + 2, 10)
        .unwrap()
        .is_wide());
    let t = TranspositionTable::new(1 << 16, (1u128 << 50) + 12345, 10).unwrap();
    assert!(t.is_wide());
    assert_eq!(t.capacity(), 2 * (1 << 16) / 32);

    // Beyond the wide entry: refused, with the size that would do.
    let wide_max = wide::MAX_QUOTIENT;
    assert!(TranspositionTable::new(32, wide_max + 1, 10).is_ok());
    let err = TranspositionTable::new(32, wide_max + 2, 10).unwrap_err();
    match err {
        TtError::KeyTooLarge { min_bytes, .. } => {
            assert_eq!(min_bytes, 64);
            assert!(TranspositionTable::new(64, wide_max + 2, 10).is_ok());
        }
        e => panic!("unexpected {e:?}"),
    }
    let err = TranspositionTable::new(1 << 16, u128::MAX, 10).unwrap_err();
    let TtError::KeyTooLarge { min_bytes, .. } = err else {
        panic!("{err:?}")
    };
    assert_eq!(min_bytes, (u128::MAX - 1) / (wide_max + 1) * 32 + 32);
    assert!(err.to_string().contains("too small"));

    assert!(TranspositionTable::new(1024, 100, MAX_STAKE).is_ok());
    for bound in [100, u128::MAX] {
        let err = TranspositionTable::new(1024, bound, MAX_STAKE + 1).unwrap_err();
        assert_eq!(
            err,
            TtError::StakeTooLarge {
                stake: MAX_STAKE + 1,
                max: MAX_STAKE
            }
        );
    }
}

#[test]
fn allocation_failure_is_an_error() {
    let err = TranspositionTable::new(usize::MAX / 2, 100, 10).unwrap_err();
    assert!(matches!(err, TtError::Alloc { .. }), "{err:?}");
    let err = TranspositionTable::wide(usize::MAX / 2, 100, 10).unwrap_err();
    assert!(matches!(err, TtError::Alloc { .. }), "{err:?}");
}

#[test]
fn merge_replace_and_clear() {
    // One bucket, everything collides; the same story in both widths.
    for tt in [
        TranspositionTable::new(16, 1000, 50).unwrap(),
        TranspositionTable::wide(32, 1 << 99, 50).unwrap(),
    ] {
        // Wide keys that differ from each other only in their low bits.
        let base = if tt.is_wide() { 1u128 << 90 } else { 0 };
        let k = |i: u128| base + i;
        tt.store(k(7), entry(-50, 10, Some(1), 9));
        tt.store(k(7), entry(3, 50, None, 2));
        assert_eq!(tt.probe(k(7)), Some(entry(3, 10, Some(1), 9)));
        // Less work than the keeper: goes to slot 1, keeper stays.
        tt.store(k(8), entry(0, 0, None, 1));
        tt.store(k(9), entry(1, 1, None, 1));
        assert_eq!(tt.probe(k(8)), None);
        assert!(tt.probe(k(7)).is_some() && tt.probe(k(9)).is_some());
        // More work: takes slot 0, old keeper is demoted to slot 1.
        tt.store(k(10), entry(2, 2, None, 12));
        assert_eq!(tt.probe(k(7)).map(|e| e.work), Some(9));
        assert_eq!(tt.probe(k(10)).map(|e| e.lower), Some(2));
        assert_eq!(tt.probe(k(9)), None);
        assert!(tt.hashfull() > 0);
        tt.clear();
        assert_eq!(tt.probe(k(7)), None);
        assert_eq!(tt.probe(k(10)), None);
        assert_eq!(tt.hashfull(), 0);
    }
}

#[test]
fn work_scale() {
    assert_eq!(Entry::work_of(0), 0);
    assert_eq!(Entry::work_of(1), 1);
    assert_eq!(Entry::work_of(1000), 10);
    assert_eq!(Entry::work_of(u64::MAX), MAX_WORK);
}

/// Stores `entry_of(k)` for every key of `keys` in `tt`; returns the keys the table then holds.
fn store_all(tt: &TranspositionTable, keys: &[u128]) -> Vec<u128> {
    for &k in keys {
        tt.store(k, entry_of(k));
    }
    keys.iter()
        .copied()
        .filter(|&k| tt.probe(k).is_some())
        .collect()
}

#[test]
fn a_grown_table_keeps_every_entry() {
    for wide in [false, true] {
        let bound = 1u128 << 40;
        let small = if wide {
            TranspositionTable::wide(1 << 12, bound, 200).unwrap()
        } else {
            TranspositionTable::new(1 << 12, bound, 200).unwrap()
        };
        // Keys far apart, fewer than the small table's buckets hold: all of them stay stored.
        let keys: Vec<u128> = (0..100u128).map(|i| i * 7_919_993 + 11).collect();
        let kept = store_all(&small, &keys);
        assert!(kept.len() > 50);
        let big = small.grown(1 << 16, bound, 200).unwrap();
        assert_eq!(big.bytes(), 1 << 16);
        for k in kept {
            assert_eq!(big.probe(k), Some(entry_of(k)), "key {k}");
        }
    }
}

/// Calls `chunk` until it says there is nothing left, and asserts it faulted `want` chunks in
/// where the system can fault memory in (Linux 5.14 and later), none elsewhere; returns whether
/// it can.
fn assert_faults_in_chunks(mut chunk: impl FnMut() -> bool, want: usize) -> bool {
    let mut chunks = 0;
    while chunk() {
        chunks += 1;
        assert!(chunks <= want, "more than {want} chunks");
    }
    let page = vec![0u8; 1 << 16];
    let supported = crate::memory::fault_in(page.as_ptr(), page.len());
    assert_eq!(chunks, if supported { want } else { 0 });
    supported
}

#[test]
fn faulting_in_keeps_the_entries_and_ends() {
    // 20 MiB of narrow buckets: three chunks, the last one short.
    let n = (20 << 20) / Table::<Narrow>::BUCKET_BYTES;
    let t = Table::<Narrow>::zeroed(n).unwrap();
    let keys: Vec<u128> = (0..2000u128).map(|i| i * 10_007 + 3).collect();
    for &k in &keys {
        t.store(k, entry_of(k));
    }
    assert_faults_in_chunks(|| t.fault_in_chunk(), 3);
    assert!(!t.fault_in_chunk());
    for &k in &keys {
        assert_eq!(t.probe(k), Some(entry_of(k)));
    }
    assert_eq!(t.probe(1), None);
}

/// Whether `a` and `b`, of the same length, hold the same words in every bucket.
fn same_words<W: Width>(a: &Table<W>, b: &Table<W>) -> bool {
    assert_eq!(a.bytes(), b.bytes());
    let n = a.bytes() / Table::<W>::BUCKET_BYTES;
    (0..n).all(|i| (0..2).all(|j| a.word_at(i, j) == b.word_at(i, j)))
}

/// Growing in place makes, word for word, the table that storing every entry into a new table
/// makes (what growth did before), for several growth factors and crowded buckets.
#[test]
fn a_table_grown_in_place_is_the_table_grown_by_copying() {
    let n = 1000;
    for factor in [2, 4, 7] {
        let in_place = Table::<Narrow>::zeroed_with_room(n, 4 * n + 3 * n).unwrap();
        let old = Table::<Narrow>::zeroed(n).unwrap();
        // Keys in a few hundred buckets, several per bucket, in an order that mixes them.
        for i in 0..20_000u128 {
            let k = (i * 7_919) % 600_000 + (i % 3) * 1000;
            in_place.store(k, entry_of(k));
            old.store(k, entry_of(k));
        }
        let copied = Table::<Narrow>::zeroed(factor * n).unwrap();
        old.for_each_entry(|k, e| copied.store(k, e));
        let mut in_place = in_place;
        assert!(in_place.grow_in_place(factor * n));
        assert!(same_words(&in_place, &copied), "factor {factor}");
    }
}

/// Faulting the room in ahead touches neither the table nor what growth makes of it: the same
/// words as a table grown by copying, and it stops at the bound asked, the room's end and where
/// nothing is left.
#[test]
fn faulting_the_room_in_ahead_changes_nothing_and_ends() {
    // 4 MiB of narrow buckets in 20 MiB of room: the next size (16 MiB) is six huge pages past it.
    let n = (4 << 20) / Table::<Narrow>::BUCKET_BYTES;
    let ahead = Table::<Narrow>::zeroed_with_room(n, 5 * n).unwrap();
    let old = Table::<Narrow>::zeroed(n).unwrap();
    for i in 0..50_000u128 {
        let k = i * 104_729 + 17;
        ahead.store(k, entry_of(k));
        old.store(k, entry_of(k));
    }
    let next = 4 * n * Table::<Narrow>::BUCKET_BYTES;
    assert!(ahead.room_to_fault(next));
    let supported = assert_faults_in_chunks(|| ahead.fault_ahead_chunk(next), 6);
    assert!(!ahead.room_to_fault(next));
    // Past the next size only the room's end bounds it: two more huge pages, then nothing.
    let past = 100 * next;
    assert_eq!(ahead.room_to_fault(past), supported);
    assert_faults_in_chunks(|| ahead.fault_ahead_chunk(past), 2);
    assert!(!ahead.room_to_fault(past));
    assert!(same_words(&ahead, &old));
    let copied = Table::<Narrow>::zeroed(4 * n).unwrap();
    old.for_each_entry(|k, e| copied.store(k, e));
    let mut ahead = ahead;
    assert!(ahead.grow_in_place(4 * n));
    assert!(same_words(&ahead, &copied));
    // A table without room has nothing to fault in ahead.
    let fixed = Table::<Narrow>::zeroed(n).unwrap();
    assert!(!fixed.room_to_fault(next));
    assert!(!fixed.fault_ahead_chunk(next));
}

#[test]
fn a_table_grows_in_place_only_by_whole_factors_within_its_room() {
    let mut t = Table::<Narrow>::zeroed_with_room(100, 400).unwrap();
    t.store(12_345, entry_of(12_345));
    assert!(!t.grow_in_place(150), "not a multiple");
    assert!(!t.grow_in_place(500), "past the room");
    assert!(!t.grow_in_place(100), "not larger");
    assert_eq!(t.bytes(), 100 * Table::<Narrow>::BUCKET_BYTES);
    assert!(t.grow_in_place(400));
    assert_eq!(t.capacity(), 800);
    assert_eq!(t.probe(12_345), Some(entry_of(12_345)));
    let mut fixed = Table::<Narrow>::zeroed(100).unwrap();
    assert!(!fixed.grow_in_place(200), "no room");
}

/// `grow` keeps every entry, in place (narrow, with room) as by copying (wide, or no room).
#[test]
fn a_table_grows_keeping_every_entry_with_room_or_without() {
    let bound = 1u128 << 30;
    // The width a new table of the grown size takes (narrow: its quotients fit).
    let wide = TranspositionTable::new(1 << 16, bound, 200)
        .unwrap()
        .is_wide();
    for mut tt in [
        TranspositionTable::with_room(1 << 12, 1 << 16, bound, 200).unwrap(),
        TranspositionTable::new(1 << 12, bound, 200).unwrap(),
        TranspositionTable::wide(1 << 12, bound, 200).unwrap(),
    ] {
        let keys: Vec<u128> = (0..3000u128).map(|i| i * 104_729 % bound).collect();
        let kept = store_all(&tt, &keys);
        assert!(kept.len() > 100);
        tt.grow(1 << 16, bound, 200).unwrap();
        assert_eq!(tt.bytes(), 1 << 16);
        assert_eq!(tt.is_wide(), wide);
        for k in kept {
            assert_eq!(tt.probe(k), Some(entry_of(k)), "key {k}");
        }
    }
}
