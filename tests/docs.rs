//! The README's and `docs/`'s command examples, run as they are written (trycmd): every
//! ```` ```console ```` block's `$ mancala ...` lines are executed and their output compared, with
//! `[..]` for timings and node counts and `...` for progress lines. `TRYCMD=overwrite` rewrites the
//! blocks from real runs (review the diff: wildcards that matched are kept).

#[test]
fn command_examples_in_the_docs() {
    // Tables go to a fresh directory, not the user's cache: the examples use the default one.
    let dir = crate::util::temp_dir("docs-tables");
    // The examples name files from the repository's root (`--batch tests/data/...`), where a
    // reader runs them; the tests run from `cli/` (the package that owns the binary), and no
    // test reads a relative path but these examples.
    std::env::set_current_dir(crate::util::repo()).unwrap();
    trycmd::TestCases::new()
        .register_bin(
            "mancala",
            std::path::Path::new(env!("CARGO_BIN_EXE_mancala")),
        )
        .env("MANCALA_TABLES", dir.to_str().unwrap())
        // No memory of proven positions: an answer must not depend on an earlier run.
        .env("MANCALA_MEMORY", "off")
        .case("README.md")
        .case("docs/*.md");
}
