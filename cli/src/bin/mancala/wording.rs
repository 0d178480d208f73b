//! Whose words an error about the game's settings uses: the command line's flags (`--position`)
//! or the fields of a web request's JSON body (`"position"`, `mancala serve`). The settings
//! are the same ([`crate::PositionArgs`]), read from either place; a message must name the one
//! the user wrote, or a page's user is told to fix a flag they never saw.

/// How messages name a setting.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Wording {
    /// The command line's flags: `--position`, `--holes`, `--fill-from-move-1`.
    #[default]
    Flags,
    /// A JSON body's fields: `"position"`, `"holes"`, `"fill_from_move_1"`.
    Fields,
}

impl Wording {
    /// The setting `name` (in the flags' spelling, `fill-from-move-1`) as this wording writes it.
    pub fn name(self, name: &str) -> String {
        match self {
            Wording::Flags => format!("--{name}"),
            Wording::Fields => format!("\"{}\"", name.replace('-', "_")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flags_and_fields_are_spelt_as_each_place_spells_them() {
        assert_eq!(Wording::Flags.name("position"), "--position");
        assert_eq!(Wording::Fields.name("position"), "\"position\"");
        assert_eq!(
            Wording::Flags.name("fill-from-move-1"),
            "--fill-from-move-1"
        );
        assert_eq!(
            Wording::Fields.name("fill-from-move-1"),
            "\"fill_from_move_1\""
        );
    }
}
