#!/usr/bin/env bash
# Kalah endgame tables on a Slurm cluster with mancala-mpi (docs/scale-out.md): one MPI rank per
# node, its threads on the node's cores, rank 0 writing the files into a shared directory.
#
#   sbatch scripts/slurm-kalah-tables.sh                          # 6 holes, K=30, standard rule
#   sbatch --export=ALL,K=28,RULES=--empty-capture scripts/slurm-kalah-tables.sh
#   sbatch --nodes=16 --export=ALL,K=30,DIR=/scratch/$USER/kalah scripts/slurm-kalah-tables.sh
#
# Every rank holds every layer (docs/scale-out.md, "Memory per rank"): a node needs about 11 GiB
# at K=28, 21.5 GiB at K=30 and 72.5 GiB at K=34 (`--dry-run` prints it). Resubmitting the same
# job after a kill or a time limit resumes from the layers already written.
#
# The #SBATCH lines are an example: set the nodes, the time and the memory for your cluster.
#SBATCH --job-name=kalah-tables
#SBATCH --nodes=8
#SBATCH --ntasks-per-node=1
#SBATCH --cpus-per-task=32
#SBATCH --mem=0
#SBATCH --time=24:00:00
#SBATCH --output=kalah-tables-%j.log
set -euo pipefail

HOLES=${HOLES:-6}
K=${K:-30}
RULES=${RULES:-}
DIR=${DIR:-$PWD/tables}
# The binary, built with `cargo build --release --features mpi --bin mancala-mpi` against the
# cluster's MPI (load its module first, for example `module load openmpi`).
BIN=${BIN:-$PWD/target/release/mancala-mpi}

mkdir -p "$DIR"
THREADS=${SLURM_CPUS_PER_TASK:-$(nproc)}
# The memory each rank will need, before the job spends its allocation.
# shellcheck disable=SC2086
srun --ntasks=1 --nodes=1 "$BIN" tables build kalah --holes "$HOLES" $RULES --max-seeds "$K" \
  --dir "$DIR" --threads "$THREADS" --dry-run
# srun starts the ranks (with the cluster's PMI); `mpirun` works as well where srun is not wired
# to the MPI library.
# shellcheck disable=SC2086
srun "$BIN" tables build kalah --holes "$HOLES" $RULES --max-seeds "$K" --dir "$DIR" \
  --threads "$THREADS"
