//! `mancala-mpi solve`: the top `--split-depth` plies of the tree expanded into jobs (every
//! distinct position there: its exact value), placed on the worker ranks by a hash of the
//! position, solved there with the ordinary search (threads, transposition table, tables), and
//! backed up to the root's value and best moves (`solver::search::split`). Rank 0 manages: it
//! journals every finished job and prints the result; ranks 1.. work (on one rank, rank 0 works
//! too).
//!
//! The jobs go in rounds: in each round every worker solves its next job, then all ranks
//! exchange the round's results (an all-gather), and rank 0 journals them. A round waits for its
//! slowest job, which a finer split (a larger depth: more, smaller jobs) evens out.

use crate::args::SolveArgs;
use crate::comm::{self, World};
use anyhow::{bail, Context, Result};
use mancala::endgame::open_for_search;
use mancala::rules::Rules;
use mancala::Position;
use solver::search::split::{back_up, frontier, owner, Journal};
use solver::{Collective, Game, Oracle, SearchConfig, Solver};
use std::collections::HashMap;
use std::time::Instant;

/// Runs the solve on every rank.
pub fn run(a: &SolveArgs, world: &World) -> Result<()> {
    let v = a.variant()?;
    mancala::with_rules!(v, r => solve(a, r, world))
}

fn solve<R: Rules>(a: &SolveArgs, rules: R, world: &World) -> Result<()> {
    let kind = R::KIND;
    let (min, max) = kind.holes_range();
    let holes = a.holes.unwrap_or(kind.default_holes() as u32);
    if holes < min as u32 || holes > max as u32 {
        bail!(
            "{} is played with {min} to {max} holes per row, not {holes}",
            kind.name()
        );
    }
    let seeds = a
        .seeds
        .unwrap_or(u32::from(kind.default_seeds(holes as u8)));
    let seeds = u8::try_from(seeds).context("--seeds is too large")?;
    if a.split_depth == 0 {
        bail!("--split-depth must be at least 1 (the root's moves)");
    }
    let root = Position::start(rules, holes as u8, seeds).map_err(|e| anyhow::anyhow!("{e}"))?;
    let threads = match a.threads {
        Some(0) => bail!("--threads must be at least 1"),
        Some(t) => t,
        None => std::thread::available_parallelism().map_or(1, |n| n.get()),
    };
    let started = Instant::now();
    let is_root = world.rank() == 0;
    let jobs = frontier(&root, a.split_depth);
    // The journal's first line names the solve, so that a journal of another one is refused.
    let header = format!(
        "mancala-mpi solve {root} {kind:?} {:?} depth {}",
        a.rules_names(),
        a.split_depth
    );
    let opened = match (&a.journal, is_root) {
        (Some(path), true) => Journal::open(path, &header)
            .map(|(j, d)| (Some(j), d))
            .map_err(anyhow::Error::msg),
        _ => Ok((None, HashMap::new())),
    };
    let (mut journal, mut done) = comm::agree(world, opened)?;
    let reused = share_done(world, &jobs, &mut done);
    let workers = if world.ranks() == 1 {
        1
    } else {
        world.ranks() - 1
    };
    let me = if world.ranks() == 1 {
        Some(0)
    } else {
        world.rank().checked_sub(1)
    };
    // Every rank works out every worker's queue, so that all agree on the number of rounds.
    let mut queues: Vec<Vec<usize>> = vec![Vec::new(); workers];
    for (i, p) in jobs.iter().enumerate() {
        if !done.contains_key(&p.key()) {
            queues[owner(p.key(), workers)].push(i);
        }
    }
    let rounds = queues.iter().map(Vec::len).max().unwrap_or(0);
    if is_root {
        eprintln!(
            "solving {root} ({}): {} jobs at depth {} ({reused} from the journal), {workers} worker rank{} x {threads} thread{}, {} MiB table each",
            kind.name(),
            jobs.len(),
            a.split_depth,
            if workers == 1 { "" } else { "s" },
            if threads == 1 { "" } else { "s" },
            a.hash_mb
        );
    }
    let tables = match (&a.tables, me) {
        (Some(dir), Some(_)) => open_for_search(dir, &root)
            .map(Some)
            .with_context(|| format!("opening the tables in {}", dir.display())),
        _ => Ok(None),
    };
    let tables = comm::agree(world, tables)?;
    let oracle = tables.as_ref().map(|t| t as &dyn Oracle<Position<R>>);
    let cfg = SearchConfig {
        threads,
        tt_bytes: usize::try_from(a.hash_mb << 20).context("--hash-mb is too large")?,
        ..SearchConfig::default()
    };
    let search = match me {
        Some(_) => Solver::new(&root, cfg, oracle)
            .map(Some)
            .map_err(|e| anyhow::anyhow!("{e}")),
        None => Ok(None),
    };
    let mut search = comm::agree(world, search)?;
    for round in 0..rounds {
        let job = me.and_then(|w| queues[w].get(round).copied());
        let mine = match (job, search.as_mut()) {
            (Some(i), Some(s)) => {
                let v = s.value(&jobs[i]).map_err(|e| anyhow::anyhow!("{e}"))?;
                // The job's index and value, in one word: the index in the high half.
                (i as u64) << 32 | u64::from(v as u32)
            }
            _ => u64::MAX,
        };
        for w in world.gather(mine) {
            if w == u64::MAX {
                continue;
            }
            let (i, v) = ((w >> 32) as usize, w as u32 as i32);
            let key = jobs[i].key();
            done.insert(key, v);
            if let Some(j) = journal.as_mut() {
                j.append(key, v).context("writing the journal")?;
            }
        }
    }
    let (future, best) = back_up(&root, a.split_depth, &|p: &Position<R>| done[&p.key()]);
    let nodes = world.gather(search.as_ref().map_or(0, Solver::nodes));
    if is_root {
        let best: Vec<String> = best.iter().map(|m| m.0.to_string()).collect();
        println!("value {:+}", root.final_value(future));
        println!("best {}", best.join(" "));
        println!(
            "{} jobs ({reused} from the journal), {} nodes, {:.3} s on {} rank{}",
            jobs.len(),
            nodes.iter().sum::<u64>(),
            started.elapsed().as_secs_f64(),
            world.ranks(),
            if world.ranks() == 1 { "" } else { "s" }
        );
    }
    Ok(())
}

/// Hands rank 0's journaled jobs of this solve to every rank; returns how many there were.
fn share_done<G: Game>(world: &World, jobs: &[G], done: &mut HashMap<u128, i32>) -> usize {
    let mine: Vec<u8> = jobs
        .iter()
        .enumerate()
        .filter_map(|(i, p)| {
            done.get(&p.key())
                .map(|&v| (i as u64) << 32 | u64::from(v as u32))
        })
        .flat_map(u64::to_le_bytes)
        .collect();
    let counts: Vec<usize> = world
        .gather(mine.len() as u64)
        .iter()
        .map(|&c| c as usize)
        .collect();
    let mut all = vec![0u8; counts.iter().sum()];
    world.gather_bytes(&mine, &counts, &mut all);
    done.clear();
    for w in all.chunks_exact(8) {
        let w = u64::from_le_bytes(w.try_into().expect("8 bytes"));
        done.insert(jobs[(w >> 32) as usize].key(), w as u32 as i32);
    }
    done.len()
}
