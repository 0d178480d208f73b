//! The ranks of `mpirun` as a [`solver::Collective`]: the all-gathers that the split layer
//! solve and build need, on `MPI_COMM_WORLD`; the point-to-point messages of the distributed
//! solve (three words each, with a tag); and the check that every rank runs the same command.

use anyhow::{bail, Result};
use mpi::datatype::PartitionMut;
use mpi::point_to_point::{Destination, Source};
use mpi::topology::SimpleCommunicator;
use mpi::traits::{Communicator, CommunicatorCollectives};
use mpi::{Count, Tag};

/// A point-to-point message of the distributed solve: three words.
pub type Message = [u64; 3];

/// `MPI_COMM_WORLD` for the split solve.
pub struct World {
    comm: SimpleCommunicator,
    rank: usize,
    ranks: usize,
    /// The most bytes one all-gather may receive. MPI counts are C `int`s, so an exchange larger
    /// than `i32::MAX` bytes (a layer of over a billion values) goes in rounds.
    max_message: usize,
}

impl World {
    /// The world communicator of an initialised MPI.
    pub fn new(comm: SimpleCommunicator) -> Self {
        // The round size can be lowered to test the rounds on small layers (tests/mpi.rs).
        let max_message = std::env::var("MANCALA_MPI_MAX_MESSAGE")
            .ok()
            .and_then(|s| s.parse::<usize>().ok())
            .unwrap_or(i32::MAX as usize)
            .clamp(1, i32::MAX as usize);
        World {
            rank: comm.rank() as usize,
            ranks: comm.size() as usize,
            comm,
            max_message,
        }
    }

    /// Sends `msg` to `rank` with `tag` (a standard send: small messages are buffered, so it
    /// returns at once).
    pub fn send(&self, rank: usize, tag: Tag, msg: Message) {
        self.comm
            .process_at_rank(rank as mpi::Rank)
            .send_with_tag(&msg[..], tag);
    }

    /// The next message from `rank`, of any tag, with its tag: `None` when none has arrived.
    pub fn try_receive_from(&self, rank: usize) -> Option<(Tag, Message)> {
        let p = self.comm.process_at_rank(rank as mpi::Rank);
        p.immediate_probe()?;
        let mut msg = [0u64; 3];
        let status = p.receive_into(&mut msg[..]);
        Some((status.tag(), msg))
    }

    /// The next message with `tag` from any rank: waits for one when `wait`, else `None` when
    /// none has arrived.
    pub fn receive_any(&self, tag: Tag, wait: bool) -> Option<Message> {
        let p = self.comm.any_process();
        if !wait {
            p.immediate_probe_with_tag(tag)?;
        }
        let mut msg = [0u64; 3];
        p.receive_into_with_tag(&mut msg[..], tag);
        Some(msg)
    }

    /// The ranks' all-gather of varying counts, into `out`, in one call (`counts` sum to at
    /// most `i32::MAX`).
    fn gather_once(&self, mine: &[u8], counts: &[usize], out: &mut [u8]) {
        let counts: Vec<Count> = counts.iter().map(|&c| c as Count).collect();
        let displs: Vec<Count> = counts
            .iter()
            .scan(0, |at, &c| {
                let d = *at;
                *at += c;
                Some(d)
            })
            .collect();
        let mut part = PartitionMut::new(out, counts, displs);
        self.comm.all_gather_varcount_into(mine, &mut part);
    }
}

impl solver::Collective for World {
    fn rank(&self) -> usize {
        self.rank
    }

    fn ranks(&self) -> usize {
        self.ranks
    }

    fn gather(&self, mine: u64) -> Vec<u64> {
        let mut all = vec![0u64; self.ranks];
        self.comm.all_gather_into(&[mine][..], &mut all[..]);
        all
    }

    fn gather_bytes(&self, mine: &[u8], counts: &[usize], out: &mut [u8]) {
        assert_eq!(mine.len(), counts[self.rank], "this rank's part and count");
        // Nothing to exchange (every rank sees the same counts, so all skip): Open MPI rejects an
        // all-gather of empty buffers (MPI_ERR_ARG).
        if counts.iter().all(|&c| c == 0) {
            return;
        }
        if counts.iter().sum::<usize>() <= self.max_message {
            self.gather_once(mine, counts, out);
            return;
        }
        // Rounds: each rank sends at most `step` bytes of its part per round, so that a round
        // receives at most `max_message` in all; every rank works out the same rounds from the
        // same counts, into a buffer that is then copied to the parts' places.
        let step = (self.max_message / self.ranks).max(1);
        let starts: Vec<usize> = counts
            .iter()
            .scan(0, |at, &c| {
                let s = *at;
                *at += c;
                Some(s)
            })
            .collect();
        let longest = counts.iter().copied().max().unwrap_or(0);
        let mut buf = Vec::new();
        let mut done = 0;
        while done < longest {
            let now: Vec<usize> = counts
                .iter()
                .map(|&c| c.saturating_sub(done).min(step))
                .collect();
            buf.resize(now.iter().sum(), 0);
            let me = now[self.rank];
            let from = done.min(mine.len());
            self.gather_once(&mine[from..from + me], &now, &mut buf);
            let mut at = 0;
            for (r, &n) in now.iter().enumerate() {
                // A part already sent in full (n == 0) has nothing at `done`, which may lie past
                // its end.
                if n > 0 {
                    out[starts[r] + done..starts[r] + done + n].copy_from_slice(&buf[at..at + n]);
                }
                at += n;
            }
            done += step;
        }
    }
}

/// Whether every rank computed the same `value` (for instance a checksum of its arguments): an
/// error on every rank that names the ranks that differ from rank 0, else `Ok`.
pub fn same_everywhere(world: &World, what: &str, value: u64) -> Result<()> {
    let all = solver::Collective::gather(world, value);
    let differ: Vec<String> = (1..all.len())
        .filter(|&r| all[r] != all[0])
        .map(|r| r.to_string())
        .collect();
    if !differ.is_empty() {
        bail!(
            "the ranks were started with different {what}: rank{} {} differ{} from rank 0 (every rank must run the same command)",
            if differ.len() == 1 { "" } else { "s" },
            differ.join(", "),
            if differ.len() == 1 { "s" } else { "" }
        );
    }
    Ok(())
}

/// `result` on this rank once every rank has said how its own went: an error on any rank is an
/// error on all (this rank's own, or one that names the first rank that failed), so that no rank
/// goes on to a collective that the failed one will never join.
pub fn agree<T>(world: &World, result: Result<T>) -> Result<T> {
    let failed = solver::Collective::gather(world, u64::from(result.is_err()));
    let v = result?;
    match failed.iter().position(|&f| f != 0) {
        None => Ok(v),
        Some(r) => bail!("rank {r} failed (see its message)"),
    }
}
