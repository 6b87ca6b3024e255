#!/usr/bin/env bash
# The benchmark: builds the release binary, generates the trees (outside the
# repository), and times mcp-conform against ripgrep. Usage:
#   bench/run.sh [SIZE...]          (default sizes: 10000 50000 200000)
#   bench/run.sh --folder DIR...    (any folders, such as exported repositories)
set -euo pipefail
cd "$(dirname "$0")/.."
folders=()
if [ "${1:-}" = "--folder" ]; then
  shift
  folders=("$@")
  [ ${#folders[@]} -gt 0 ] || { echo "usage: bench/run.sh --folder DIR..." >&2; exit 2; }
fi
sizes=("$@")
[ $# -eq 0 ] && sizes=(10000 50000 200000)

if ! command -v rg >/dev/null 2>&1; then
  echo "installing ripgrep (the reference)" >&2
  if command -v apt-get >/dev/null 2>&1; then
    (apt-get install -y ripgrep >/dev/null 2>&1 || (apt-get update >/dev/null && apt-get install -y ripgrep >/dev/null))
  else
    cargo install ripgrep
  fi
fi

cargo build --release --quiet
if [ ${#folders[@]} -gt 0 ]; then
  exec python3 bench/bench.py "${folders[@]}"
fi
work="${BENCH_DIR:-${TMPDIR:-/tmp}/mcp-conform-bench}"
mkdir -p "$work"
trees=()
for n in "${sizes[@]}"; do
  dir="$work/typical-weak-$n"
  [ -d "$dir" ] || python3 bench/generate.py --kind typical --files "$n" --seed 7 --out "$dir" >&2
  trees+=("typical=$dir")
done
mcp="$work/all-mcp-2000"
[ -d "$mcp" ] || python3 bench/generate.py --kind all-mcp --files 2000 --seed 7 --out "$mcp" >&2
trees+=("all-mcp=$mcp")

python3 bench/bench.py "${trees[@]}"
