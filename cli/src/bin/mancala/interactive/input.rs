//! Where the commands come from: a line editor with history on a terminal (rustyline), plain
//! lines from anything else. From a pipe nothing is prompted, so a script's stdout holds only
//! the game.

use anyhow::Result;
use rustyline::error::ReadlineError;
use std::io::{BufRead, IsTerminal};

/// One read.
pub(super) enum Read {
    /// A line, without its end of line.
    Line(String),
    /// End of input (Ctrl-D on a terminal).
    Eof,
    /// Ctrl-C at the prompt (a terminal only: the editor reads it as a key).
    Interrupted,
}

/// The source of commands.
pub(super) enum Input {
    /// stdin is a terminal: prompts, line editing, history (kept for the session).
    Terminal(Box<rustyline::DefaultEditor>),
    /// stdin is a pipe or a file: one command per line, no prompt.
    Pipe(std::io::StdinLock<'static>),
}

impl Input {
    /// A line editor when stdin is a terminal, plain lines otherwise.
    pub(super) fn new() -> Result<Input> {
        if std::io::stdin().is_terminal() {
            let ed = rustyline::DefaultEditor::new()
                .map_err(|e| anyhow::anyhow!("cannot set up the terminal's line editor: {e}"))?;
            Ok(Input::Terminal(Box::new(ed)))
        } else {
            Ok(Input::Pipe(std::io::stdin().lock()))
        }
    }

    /// The next command, after `prompt` on a terminal.
    pub(super) fn read(&mut self, prompt: &str) -> Result<Read> {
        match self {
            Input::Terminal(ed) => match ed.readline(prompt) {
                Ok(line) => {
                    if !line.trim().is_empty() {
                        // A history that cannot take the line only loses the up-arrow recall.
                        let _ = ed.add_history_entry(line.as_str());
                    }
                    Ok(Read::Line(line))
                }
                Err(ReadlineError::Eof) => Ok(Read::Eof),
                Err(ReadlineError::Interrupted) => Ok(Read::Interrupted),
                Err(e) => Err(anyhow::anyhow!("cannot read from the terminal: {e}")),
            },
            Input::Pipe(lines) => {
                // Bytes, not a String: a line that is not UTF-8 is one bad command, not the end.
                let mut buf = Vec::new();
                if lines.read_until(b'\n', &mut buf)? == 0 {
                    return Ok(Read::Eof);
                }
                let text = String::from_utf8_lossy(&buf);
                Ok(Read::Line(text.trim_end_matches(['\n', '\r']).to_string()))
            }
        }
    }
}
