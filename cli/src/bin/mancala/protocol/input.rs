//! The engine's input, read on a thread of its own: one command a line, at most [`MAX_LINE`]
//! bytes, UTF-8. A line that breaks either rule is reported as such and the conversation goes
//! on; the bytes of an over-long line are skipped as they arrive, never kept, so a line of any
//! length costs at most [`MAX_LINE`] bytes of memory.
//!
//! Reading on a thread lets the command loop look at other things while it waits: the Ctrl-C
//! flag of an idle engine, and a `position` whose moves are still sowing.

use std::io::{BufRead, ErrorKind};
use std::sync::mpsc;

/// The longest command line the engine reads, in bytes (the line end excluded): 64 KiB, far
/// more than the longest `position` with a whole game's moves (a Kalah game is ~100 moves).
pub(super) const MAX_LINE: usize = 64 * 1024;

/// What the reader saw.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Input {
    /// A command line, its line end removed.
    Line(String),
    /// A line that is not UTF-8 (the line number, from 1).
    NotUtf8(u64),
    /// A line longer than [`MAX_LINE`] bytes (the line number), skipped unread.
    TooLong(u64),
    /// The end of input (or an input that cannot be read).
    End,
}

/// Starts the reader on the thread's own `source()` (stdin's lock, which stays on the thread
/// that took it); its inputs arrive in order on the receiver, the last one [`Input::End`].
pub(super) fn spawn<S: BufRead>(
    source: impl FnOnce() -> S + Send + 'static,
) -> mpsc::Receiver<Input> {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || read_all(source(), &tx));
    rx
}

/// Reads `source` line by line until its end, sending each line's [`Input`].
fn read_all(mut source: impl BufRead, tx: &mpsc::Sender<Input>) {
    let mut number = 0u64;
    loop {
        number += 1;
        let input = match read_line(&mut source) {
            Ok(Some(Read::Line(bytes))) => match String::from_utf8(bytes) {
                Ok(text) => Input::Line(text),
                Err(_) => Input::NotUtf8(number),
            },
            Ok(Some(Read::TooLong)) => Input::TooLong(number),
            Ok(None) | Err(_) => {
                let _ = tx.send(Input::End);
                return;
            }
        };
        if tx.send(input).is_err() {
            return;
        }
    }
}

/// One line as read.
enum Read {
    Line(Vec<u8>),
    TooLong,
}

/// The next line of `source` without its line end (`\n`, `\r\n`); `None` at the end of input.
/// Past [`MAX_LINE`] bytes the rest of the line is consumed and dropped.
fn read_line(source: &mut impl BufRead) -> std::io::Result<Option<Read>> {
    let mut line = Vec::new();
    let mut too_long = false;
    let mut seen_any = false;
    loop {
        let buf = match source.fill_buf() {
            Ok(b) => b,
            Err(e) if e.kind() == ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if buf.is_empty() {
            // The end of input: a last line without its line end still counts.
            return Ok(seen_any.then(|| finish(line, too_long)));
        }
        seen_any = true;
        let (chunk, found) = match buf.iter().position(|&b| b == b'\n') {
            Some(i) => (&buf[..i], Some(i + 1)),
            None => (buf, None),
        };
        if !too_long {
            if line.len() + chunk.len() > MAX_LINE + 1 {
                // One byte of slack for the `\r` of a `\r\n` line end.
                too_long = true;
                line = Vec::new();
            } else {
                line.extend_from_slice(chunk);
            }
        }
        let used = found.unwrap_or(buf.len());
        source.consume(used);
        if found.is_some() {
            return Ok(Some(finish(line, too_long)));
        }
    }
}

/// A line read whole: its `\r` removed, its length checked.
fn finish(mut line: Vec<u8>, too_long: bool) -> Read {
    if line.last() == Some(&b'\r') {
        line.pop();
    }
    if too_long || line.len() > MAX_LINE {
        Read::TooLong
    } else {
        Read::Line(line)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn inputs(bytes: &[u8]) -> Vec<Input> {
        let bytes = bytes.to_vec();
        let rx = spawn(move || std::io::Cursor::new(bytes));
        rx.iter().collect()
    }

    #[test]
    fn lines_bad_bytes_and_long_lines_each_get_their_input() {
        let mut bytes = b"isready\r\n\xff\xfe go\n".to_vec();
        bytes.extend(std::iter::repeat_n(b'x', MAX_LINE + 1));
        bytes.extend_from_slice(b"\nquit");
        assert_eq!(
            inputs(&bytes),
            vec![
                Input::Line("isready".into()),
                Input::NotUtf8(2),
                Input::TooLong(3),
                Input::Line("quit".into()),
                Input::End
            ]
        );
    }

    #[test]
    fn a_line_of_exactly_the_limit_is_read() {
        let mut bytes = vec![b'y'; MAX_LINE];
        bytes.push(b'\n');
        assert_eq!(
            inputs(&bytes),
            vec![Input::Line("y".repeat(MAX_LINE)), Input::End]
        );
        assert_eq!(inputs(b""), vec![Input::End]);
    }
}
