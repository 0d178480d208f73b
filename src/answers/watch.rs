//! The timer beside a search: one helper, [`watched`], for every caller that runs a search
//! under a time limit or a stop token from outside (the [`Analyzer`](super::Analyzer), the
//! review's [`SolverSource`](crate::review::SolverSource)).

use crate::stop::StopToken;
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// How often the timer looks at the outside token: a stop asked for is seen within this.
const POLL: Duration = Duration::from_millis(2);

/// Runs `job` with the search's token `stop` lowered, and raises it once `time` has passed or
/// `outside` is raised, whichever comes first. Without either, `job` runs on the calling thread
/// with no timer. The timer ends the moment the job does; `stop` is left as the job left it
/// (raised when the timer stopped it), for the caller to tell a stopped search from a finished
/// one and to lower it again.
pub(crate) fn watched<T>(
    stop: &StopToken,
    time: Option<Duration>,
    outside: Option<&StopToken>,
    job: impl FnOnce() -> T,
) -> T {
    stop.reset();
    if time.is_none() && outside.is_none() {
        return job();
    }
    let deadline = time.map(|t| Instant::now() + t);
    let (done, wait) = mpsc::channel::<()>();
    std::thread::scope(|scope| {
        scope.spawn(move || loop {
            let pause = deadline.map_or(POLL, |d| {
                d.saturating_duration_since(Instant::now()).min(POLL)
            });
            match wait.recv_timeout(pause) {
                Err(mpsc::RecvTimeoutError::Timeout) => {}
                // The job ended (its sender dropped).
                _ => return,
            }
            let late = deadline.is_some_and(|d| Instant::now() >= d);
            if late || outside.is_some_and(StopToken::is_stopped) {
                stop.stop();
                return;
            }
        });
        let answer = job();
        drop(done);
        answer
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_time_limit_and_the_outside_token_raise_the_stop() {
        let stop = StopToken::new();
        // A job that waits for its stop: the limit raises it.
        let began = Instant::now();
        let raised = watched(&stop, Some(Duration::from_millis(30)), None, || {
            while !stop.is_stopped() {
                std::thread::sleep(Duration::from_millis(1));
            }
            true
        });
        assert!(raised && began.elapsed() >= Duration::from_millis(30));
        // The outside token, raised before: the stop follows within a poll.
        let outside = StopToken::new();
        outside.stop();
        watched(&stop, None, Some(&outside), || {
            while !stop.is_stopped() {
                std::thread::sleep(Duration::from_millis(1));
            }
        });
        // A job that ends first leaves the stop lowered; none at all runs with no timer.
        let quick = watched(&stop, Some(Duration::from_secs(60)), None, || 7);
        assert_eq!(quick, 7);
        assert!(!stop.is_stopped());
        assert_eq!(watched(&stop, None, None, || 8), 8);
    }
}
