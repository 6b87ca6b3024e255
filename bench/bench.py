#!/usr/bin/env python3
"""Times mcp-conform against ripgrep on the same trees, alternating runs.

The reference is `rg --files-with-matches` with the scanner's own marker strings,
restricted to the same file extensions, under the same ignore rules (both honour
.gitignore and skip hidden files; the generated trees have no ignored folders).
Prints per tree: median wall time of each, the ratio, files/s, MB/s, peak
resident memory, and for all-MCP trees the MB/s per CPU-second.
"""
import argparse
import os
import re
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def markers():
    """The prefilter's marker strings (envelope, vocabulary, weak), as the scanner has them."""
    src = (ROOT / "src" / "prefilter.rs").read_text()
    found = []
    for name in ("pub const ENVELOPE", "pub const VOCABULARY", "pub const WEAK"):
        start = src.index(name)
        block = src[start:src.index("];", start)]
        found += [m.replace("\\\\", "\\") for m in re.findall(r'"([^"]+)"', block)]
    return found


def run(cmd):
    """Wall seconds, CPU seconds and peak RSS (KiB) of one run."""
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    code = os.waitstatus_to_exitcode(status)
    if code not in (0, 1):
        sys.exit(f"{cmd[0]} exited with {code}")
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss


def tree_stats(path):
    files = 0
    size = 0
    for dirpath, _, names in os.walk(path):
        for n in names:
            files += 1
            # lstat: a dangling symbolic link counts as a file of its own size.
            size += os.lstat(os.path.join(dirpath, n)).st_size
    return files, size


def main():
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--scanner", default=str(ROOT / "target" / "release" / "mcp-conform"))
    p.add_argument("--runs", type=int, default=5)
    p.add_argument("--single", default=str(ROOT / "fixtures" / "python" / "correct_stdio" / "server.py"),
                   help="the file timed alone, as a pre-commit hook names it")
    p.add_argument("trees", nargs="+", help="KIND=PATH (KIND: typical or all-mcp), or any folder (typical)")
    a = p.parse_args()
    rg = ["rg", "--files-with-matches", "--ignore-case", "--fixed-strings"]
    for m in markers():
        rg += ["-e", m]
    for g in ("*.py", "*.pyi", "*.rs", "*.ts", "*.tsx", "*.mts", "*.cts", "*.js", "*.jsx", "*.mjs", "*.cjs", "*.go", "*.php"):
        rg += ["-g", g]
    print(f"machine: {os.cpu_count()} cores; {a.runs} alternating runs per tool, warm cache (one untimed run each first)")
    print(f"{'tree':<28} {'files':>8} {'MB':>7} {'scanner s':>10} {'rg s':>8} {'ratio':>6} {'files/s':>9} {'MB/s':>7} {'peak MiB':>9} {'MB/cpu-s':>9}")
    for spec in a.trees:
        kind, path = spec.split("=", 1) if "=" in spec else ("typical", spec)
        files, size = tree_stats(path)
        scan_cmd = [a.scanner, "--format", "json", path]
        ref_cmd = rg + [path]
        run(scan_cmd)
        run(ref_cmd)
        scans, refs = [], []
        for _ in range(a.runs):
            scans.append(run(scan_cmd))
            refs.append(run(ref_cmd))
        s_wall = statistics.median(w for w, _, _ in scans)
        r_wall = statistics.median(w for w, _, _ in refs)
        s_cpu = statistics.median(c for _, c, _ in scans)
        peak = max(m for _, _, m in scans) / 1024
        mb = size / 1e6
        per_core = f"{mb / s_cpu:9.1f}" if kind == "all-mcp" else f"{'-':>9}"
        print(f"{kind + ' ' + Path(path).name:<28} {files:>8} {mb:>7.1f} {s_wall:>10.3f} {r_wall:>8.3f} {s_wall / r_wall:>6.2f} "
              f"{files / s_wall:>9.0f} {mb / s_wall:>7.1f} {peak:>9.1f} {per_core}")
    # The pre-commit case: one file named on the command line.
    single = [a.scanner, a.single]
    run(single)
    times = [run(single)[0] for _ in range(20)]
    print(f"single file (pre-commit case): median {statistics.median(times) * 1000:.1f} ms over 20 runs")


if __name__ == "__main__":
    main()
