//! Rule options (docs/rules.md §2.12): how a game declares them, once, as an enum.

use std::fmt::Debug;
use std::hash::Hash;

/// A rule option of one game (docs/rules.md §2.12).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RuleOption {
    /// Its name: the command-line flag without the dashes (`--empty-capture`), and the word in a
    /// variant's name (`kalah+empty-capture`) and in table identities.
    pub name: &'static str,
    /// What it changes, in one line (the flag's help).
    pub help: &'static str,
}

/// A game's rule options as an enum, a variant each (docs/rules.md §2.12).
pub trait GameOption: Copy + Eq + Hash + Debug + Send + Sync + 'static {
    /// Every option, in a fixed order: the order of the command-line flags, of the options in
    /// a variant's name (`kalah+empty-capture+end-when-mover-empty`) and in table identities.
    const ALL: &'static [Self];

    /// Its name and help: the one place they are spelled. The command line makes a flag of
    /// each, the run-time variants parse and print them, and table identities list them.
    fn declaration(self) -> RuleOption;
}

/// The options of a game without any: no value exists.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NoOption {}

impl GameOption for NoOption {
    const ALL: &'static [Self] = &[];

    fn declaration(self) -> RuleOption {
        match self {}
    }
}
