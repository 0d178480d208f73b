//! The opening book: exact future values of the positions of the first plies of the standard
//! boards, built into the program so that a fresh process answers the openings at once.
//!
//! The book is a text file, `book.txt` beside this one, compiled in with `include_str!`:
//!
//! ```text
//! # mancala opening book, format 1
//! # made by: mancala book build kalah --depth 0
//! # crc32: 1c291ca3
//! kalah/6 4,4,0,5,5,5/4,4,4,4,4,4/1,0/S 0
//! ```
//!
//! Comment lines (`#`) say how it was made; the `crc32` line holds the CRC-32 of every entry
//! line (each with its newline), checked when the book is loaded. Each entry is the rules'
//! identity ([`rules_identity`]), a position and its exact **future** value: what the side to
//! move will still win from there, stores left out, the value the search computes and the
//! transposition table keeps. A position's entry so answers for every position of the same key
//! ([`solver::Game::key`]): the same pits and mover, whatever the stores. An entry is read with
//! the rules of the question, so a book line that no longer parses or whose identity disagrees
//! is an error, never a wrong answer. `mancala book build` makes the file (resumable: it keeps
//! the entries it finds) and `mancala book verify` re-solves every entry.

use std::collections::HashMap;
use std::fmt;
use std::sync::{Arc, Mutex, OnceLock};

use solver::Game;

use super::identity::rules_identity;
use crate::notation::Setup;
use crate::rules::Rules;
use crate::Position;

/// The book built into the program.
pub const EMBEDDED: &str = include_str!("book.txt");

/// The first line of a book file.
pub const MAGIC: &str = "# mancala opening book, format 1";

/// Why a book cannot be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BookError {
    /// The text does not start with [`MAGIC`]: not a book of this format.
    NotABook,
    /// No `# crc32:` line, or not a hexadecimal number.
    NoChecksum,
    /// The entries do not match the checksum: the book was damaged or edited.
    Checksum {
        /// The checksum the book states.
        stated: u32,
        /// The checksum of its entries.
        computed: u32,
    },
    /// An entry line is not `IDENTITY POSITION VALUE` with a valid position and value.
    BadEntry {
        /// Its line number (from 1).
        line: usize,
        /// What is wrong.
        why: String,
    },
}

impl fmt::Display for BookError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BookError::NotABook => write!(f, "the opening book does not start with `{MAGIC}`"),
            BookError::NoChecksum => f.write_str("the opening book has no `# crc32:` line"),
            BookError::Checksum { stated, computed } => write!(
                f,
                "the opening book is damaged: its entries' CRC-32 is {computed:08x}, it states \
                 {stated:08x}"
            ),
            BookError::BadEntry { line, why } => {
                write!(f, "the opening book's line {line} is not an entry: {why}")
            }
        }
    }
}

impl std::error::Error for BookError {}

/// One entry as the file has it, not yet read with any rules.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RawEntry {
    /// The rules' identity.
    pub identity: String,
    /// The position, in the notation of docs/rules.md §2.
    pub position: String,
    /// Its exact future value.
    pub future: i32,
    /// Its line number (from 1).
    pub line: usize,
}

/// A book's text checked and split into entries: its comment lines and its entries.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BookText {
    /// The comment lines after the first, without `# ` (how it was made), the checksum left
    /// out.
    pub notes: Vec<String>,
    /// Every entry, in file order.
    pub entries: Vec<RawEntry>,
}

/// The CRC-32 of entry lines, as the book states it: each line with its newline.
pub fn checksum<'a>(lines: impl IntoIterator<Item = &'a str>) -> u32 {
    let mut crc = 0;
    for l in lines {
        crc = tables::checksum::update(crc, l.as_bytes());
        crc = tables::checksum::update(crc, b"\n");
    }
    crc
}

impl BookText {
    /// Reads a book's text, its checksum checked.
    ///
    /// # Errors
    /// [`BookError`]: not a book, no or a wrong checksum, a malformed entry.
    pub fn parse(text: &str) -> Result<Self, BookError> {
        let mut lines = text.lines();
        if lines.next() != Some(MAGIC) {
            return Err(BookError::NotABook);
        }
        let mut notes = Vec::new();
        let mut stated = None;
        let mut entries = Vec::new();
        let mut body = Vec::new();
        for (i, l) in lines.enumerate() {
            let line = i + 2;
            if let Some(note) = l.strip_prefix('#') {
                let note = note.trim();
                match note.strip_prefix("crc32:") {
                    Some(hex) => {
                        stated = Some(
                            u32::from_str_radix(hex.trim(), 16)
                                .map_err(|_| BookError::NoChecksum)?,
                        )
                    }
                    None => notes.push(note.to_string()),
                }
                continue;
            }
            if l.trim().is_empty() {
                continue;
            }
            body.push(l);
            let bad = |why: &str| BookError::BadEntry {
                line,
                why: why.to_string(),
            };
            let mut f = l.split_whitespace();
            let (Some(identity), Some(position), Some(value), None) =
                (f.next(), f.next(), f.next(), f.next())
            else {
                return Err(bad("expected three fields: identity, position, value"));
            };
            let future = value
                .parse()
                .map_err(|_| bad("the value is not an integer"))?;
            entries.push(RawEntry {
                identity: identity.to_string(),
                position: position.to_string(),
                future,
                line,
            });
        }
        let stated = stated.ok_or(BookError::NoChecksum)?;
        let computed = checksum(body.iter().copied());
        if stated != computed {
            return Err(BookError::Checksum { stated, computed });
        }
        Ok(Self { notes, entries })
    }

    /// The book's text: [`MAGIC`], the notes, the checksum, then the entries.
    pub fn render(&self) -> String {
        let lines: Vec<String> = self
            .entries
            .iter()
            .map(|e| format!("{} {} {}", e.identity, e.position, e.future))
            .collect();
        let mut out = format!("{MAGIC}\n");
        for n in &self.notes {
            out.push_str(&format!("# {n}\n"));
        }
        out.push_str(&format!(
            "# crc32: {:08x}\n",
            checksum(lines.iter().map(String::as_str))
        ));
        for l in lines {
            out.push_str(&l);
            out.push('\n');
        }
        out
    }

    /// The entries of `rules` on `holes` holes, read as positions.
    ///
    /// # Errors
    /// [`BookError::BadEntry`] for an entry of these rules whose position is not valid under
    /// them.
    pub fn positions<R: Rules>(
        &self,
        rules: R,
        holes: u8,
    ) -> Result<Vec<(Position<R>, i32)>, BookError> {
        let id = rules_identity(&rules, holes);
        self.entries
            .iter()
            .filter(|e| e.identity == id)
            .map(|e| {
                let bad = |why: String| BookError::BadEntry { line: e.line, why };
                let setup: Setup = e.position.parse().map_err(|x| bad(format!("{x}")))?;
                let p = Position::from_setup(rules, &setup).map_err(|x| bad(format!("{x}")))?;
                if p.board().holes != holes {
                    return Err(bad(format!("{} holes, not {holes}", p.board().holes)));
                }
                Ok((p, e.future))
            })
            .collect()
    }
}

/// The future values of one game's book positions, by key.
type Values = Arc<HashMap<u128, i32>>;

/// The embedded book, checked once per process, and each game's entries read once.
struct Loaded {
    text: Result<BookText, BookError>,
    by_identity: Mutex<HashMap<String, Values>>,
}

fn loaded() -> &'static Loaded {
    static LOADED: OnceLock<Loaded> = OnceLock::new();
    LOADED.get_or_init(|| Loaded {
        text: BookText::parse(EMBEDDED),
        by_identity: Mutex::new(HashMap::new()),
    })
}

/// The embedded book's text, checked.
///
/// # Errors
/// [`BookError`] when the book built into the program is damaged (a build fault).
pub fn embedded() -> Result<&'static BookText, BookError> {
    loaded().text.as_ref().map_err(Clone::clone)
}

/// The embedded book's values for the rules and board of `p`, by position key.
///
/// # Errors
/// [`BookError`] when the book is damaged or one of these rules' entries is not valid.
pub fn values_for<R: Rules>(p: &Position<R>) -> Result<Values, BookError> {
    let id = rules_identity(p.rules(), p.board().holes);
    let l = loaded();
    let mut map = l.by_identity.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(v) = map.get(&id) {
        return Ok(v.clone());
    }
    let text = l.text.as_ref().map_err(Clone::clone)?;
    let values: HashMap<u128, i32> = text
        .positions(*p.rules(), p.board().holes)?
        .into_iter()
        .map(|(q, f)| (q.key(), f))
        .collect();
    let values = Arc::new(values);
    map.insert(id, values.clone());
    Ok(values)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Kalah;

    const SAMPLE: &str = "kalah/4 3,3,3,3/3,3,3,3/0,0/S 6\n";

    fn sample() -> String {
        let text = BookText {
            notes: vec!["made by: a test".into()],
            entries: vec![RawEntry {
                identity: "kalah/4".into(),
                position: "3,3,3,3/3,3,3,3/0,0/S".into(),
                future: 6,
                line: 0,
            }],
        };
        text.render()
    }

    #[test]
    fn a_rendered_book_reads_back() {
        let s = sample();
        assert!(s.ends_with(SAMPLE));
        let b = BookText::parse(&s).unwrap();
        assert_eq!(b.notes, vec!["made by: a test".to_string()]);
        let ps = b.positions(Kalah::default(), 4).unwrap();
        assert_eq!(ps.len(), 1);
        assert_eq!(ps[0].1, 6);
        assert!(b.positions(Kalah::default(), 6).unwrap().is_empty());
    }

    #[test]
    fn a_damaged_book_is_refused() {
        let s = sample().replace("S 6", "S 7");
        assert!(matches!(
            BookText::parse(&s),
            Err(BookError::Checksum { .. })
        ));
        assert_eq!(BookText::parse("hello"), Err(BookError::NotABook));
        let no_sum = sample().replace("# crc32", "# sum");
        assert_eq!(BookText::parse(&no_sum), Err(BookError::NoChecksum));
    }

    #[test]
    fn the_embedded_book_checks_out() {
        let b = embedded().unwrap();
        assert!(!b.entries.is_empty());
    }
}
