#!/usr/bin/env bash
# Measure the bot ladder of docs/strength.md: every level against the level below, over
# mirrored deals, for the four settings of issue 5. Results (JSON and PNG charts) go to
# results/ladder/. Usage: scripts/ladder.sh [DEALS] [WORKERS]   (defaults: 1000, 2)
# Each step goes on from its JSON file if there is one (--resume): games already played are
# kept, so an interrupted run continues where it stopped, and a larger DEALS extends a step.
# Games played at another commit stay as they were played: delete a file to replay a step.
# The JSON files are kept in git (the charts are not): commit a long step's checkpoint to go
# on with it in another checkout. `kill` (SIGTERM) stops a step cleanly, as Ctrl-C does.
set -euo pipefail
cd "$(dirname "$0")/.."
DEALS="${1:-1000}"
WORKERS="${2:-2}"
OUT=results/ladder
mkdir -p "$OUT"
run() {  # name game bots [options...]
  local name=$1 game=$2 bots=$3
  shift 3
  echo "== $name: $game $bots ($DEALS deals)"
  .venv/bin/rummy simulate --game "$game" --bots "$bots" --deals "$DEALS" --workers "$WORKERS" \
    --seed 1 --out "$OUT/$name.json" --chart "$OUT/$name.png" --resume "$@"
}
# Robbers' Rummy, 4 players: two of each level, alternating seats.
run robbers-greedy-random     robbers greedy,random,greedy,random
run robbers-strategic-greedy  robbers strategic,greedy,strategic,greedy
run robbers-expert-strategic  robbers expert,strategic,expert,strategic
# Rummikub, 2 players.
run rummikub-greedy-random    rummikub greedy,random
run rummikub-strategic-greedy rummikub strategic,greedy
run rummikub-expert-strategic rummikub expert,strategic
run rummikub-expert-greedy    rummikub expert,greedy
# For scale against rummi's ladder, whose greedy never rearranges (our simple bot's kind).
run rummikub-greedy-simple    rummikub greedy,simple
run rummikub-expert-simple    rummikub expert,simple
# Indian Rummy 13 cards, points, 2 players (judged by points).
run indian-greedy-random      indian13 greedy,random
run indian-strategic-greedy   indian13 strategic,greedy
run indian-expert-strategic   indian13 expert,strategic
# Pool 101, 4 players, whole matches.
run pool-greedy-random        indian13 greedy,random,greedy,random --unit match -o match.format=POOL -o pool.threshold=101
run pool-strategic-greedy     indian13 strategic,greedy,strategic,greedy --unit match -o match.format=POOL -o pool.threshold=101
run pool-expert-strategic     indian13 expert,strategic,expert,strategic --unit match -o match.format=POOL -o pool.threshold=101
# The difficulty levels easy < medium < hard < expert (openrummy.bots.levels): the steps not
# measured above. `scripts/ladder_report.py --levels` prints the four-level tables.
run rummikub-simple-handonly  rummikub simple,hand-only
run rummikub-onemeld-simple   rummikub one-meld,simple
run rummikub-expert-onemeld   rummikub expert,one-meld
run robbers-greedy-simple     robbers greedy,simple,greedy,simple
run indian-simple-careless    indian13 simple,careless
run indian-strategic-simple   indian13 strategic,simple
