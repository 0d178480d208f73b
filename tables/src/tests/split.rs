//! `build_split` with 1 to 3 ranks (threads of a `LocalGroup`): the files of a single-process
//! build byte for byte, a resume that keeps the valid layers, and a failure on rank 0 that every
//! rank reports.

use super::*;
use solver::retro::split::LocalGroup;

fn files(dir: &std::path::Path, cyclic: bool, top: u32) -> Vec<Vec<u8>> {
    (0..=top)
        .map(|k| std::fs::read(dir.join(id(cyclic).file_name(k))).unwrap())
        .collect()
}

fn split_equals_one_process<const C: bool>(top: u32) {
    let one = temp_dir(&format!("split-one-{C}"));
    build(
        &Toy::<C>,
        &id(C),
        &one,
        top,
        &opts(2),
        &crate::Silent,
        |_| {},
    )
    .unwrap();
    for ranks in 1..=3 {
        let dir = temp_dir(&format!("split-{C}-{ranks}"));
        let built = LocalGroup::run(ranks, |g| {
            build_split(&Toy::<C>, &id(C), &dir, top, g, &crate::Silent, |_| {})
                .unwrap()
                .iter()
                .map(Table::file_bytes)
                .sum::<u64>()
        });
        assert!(built.iter().all(|&b| b == built[0]));
        assert!(files(&dir, C, top) == files(&one, C, top), "{ranks} ranks");
        std::fs::remove_dir_all(&dir).unwrap();
    }
    std::fs::remove_dir_all(&one).unwrap();
}

#[test]
fn split_build_writes_the_files_of_one_process() {
    split_equals_one_process::<false>(9);
    split_equals_one_process::<true>(7);
}

#[test]
fn split_build_resumes_and_fails_on_every_rank() {
    let dir = temp_dir("split-resume");
    build(
        &Toy::<false>,
        &id(false),
        &dir,
        5,
        &opts(1),
        &crate::Silent,
        |_| {},
    )
    .unwrap();
    let want = files(&dir, false, 5);
    std::fs::remove_file(dir.join(id(false).file_name(5))).unwrap();
    let p3 = dir.join(id(false).file_name(3));
    let mut b = std::fs::read(&p3).unwrap();
    let last = b.len() - 1;
    b[last] ^= 0x11;
    std::fs::write(&p3, b).unwrap();
    let reports = LocalGroup::run(3, |g| {
        let mut resumed = Vec::new();
        build_split(&Toy::<false>, &id(false), &dir, 5, g, &crate::Silent, |r| {
            if r.resumed {
                resumed.push(r.layer);
            }
        })
        .unwrap();
        resumed
    });
    assert!(reports.iter().all(|r| r == &[0, 1, 2, 4]), "{reports:?}");
    assert!(files(&dir, false, 5) == want);
    // Rank 0 cannot write (the directory is a file): every rank returns an error.
    std::fs::remove_dir_all(&dir).unwrap();
    std::fs::write(&dir, b"not a directory").unwrap();
    let errors = LocalGroup::run(3, |g| {
        build_split(
            &Toy::<false>,
            &id(false),
            &dir,
            2,
            g,
            &crate::Silent,
            |_| {},
        )
        .err()
        .map(|e| e.to_string())
    });
    assert!(
        errors[1].as_deref().unwrap().contains("rank 0 failed"),
        "{errors:?}"
    );
    assert!(errors.iter().all(Option::is_some), "{errors:?}");
    std::fs::remove_file(&dir).unwrap();
}
