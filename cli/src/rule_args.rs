//! The rule options (docs/rules.md §2.12) of every game, a flag each, made from the games' own
//! declarations ([`GameOption`](mancala::rules::GameOption)); each belongs to one game.

use anyhow::Result;
use clap::Args;
use mancala::rules::GameKind;
use mancala::variant::Variant;

/// The rule options given on the command line.
#[derive(Debug, Clone, Default)]
pub struct RuleArgs {
    /// The options given, by name.
    pub on: Vec<&'static str>,
}

impl RuleArgs {
    /// `game` with these options (an option of another game is an error).
    pub fn variant(&self, game: GameKind) -> Result<Variant> {
        Variant::new(game, &self.on).map_err(crate::args::variant_error)
    }
}

impl clap::FromArgMatches for RuleArgs {
    fn from_arg_matches(m: &clap::ArgMatches) -> Result<Self, clap::Error> {
        let all = GameKind::ALL.into_iter().flat_map(|g| g.options());
        let on = all.filter(|o| m.get_flag(o.name)).map(|o| o.name).collect();
        Ok(Self { on })
    }

    fn update_from_arg_matches(&mut self, m: &clap::ArgMatches) -> Result<(), clap::Error> {
        *self = Self::from_arg_matches(m)?;
        Ok(())
    }
}

impl Args for RuleArgs {
    fn augment_args(mut cmd: clap::Command) -> clap::Command {
        for g in GameKind::ALL {
            for o in g.options() {
                cmd = cmd.arg(
                    clap::Arg::new(o.name)
                        .long(o.name)
                        .action(clap::ArgAction::SetTrue)
                        .help(format!("{}: {}", g.title(), o.help)),
                );
            }
        }
        cmd
    }

    fn augment_args_for_update(cmd: clap::Command) -> clap::Command {
        Self::augment_args(cmd)
    }
}
