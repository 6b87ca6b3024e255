#!/usr/bin/env python3
"""Deterministic synthetic source trees for the benchmark.

typical: files in all five languages, of realistic sizes and shapes, about 1% of
them MCP servers (taken from the project's own fixtures), plus a few large
generated files. all-mcp: every file a dispatch-bearing server file.
The same seed gives the same bytes on every run.
"""
import argparse
import os
import random
import sys
from pathlib import Path

EXT = {"python": ".py", "rust": ".rs", "typescript": ".ts", "javascript": ".js", "go": ".go", "php": ".php"}


def plain_python(rng, n):
    out = ["import os", "import sys", ""]
    for i in range(n):
        out += [f"def compute_{i}(values, limit={rng.randint(1, 99)}):",
                "    total = 0",
                "    for v in values:",
                f"        if v > {rng.randint(0, 50)}:",
                "            total += v * 2",
                "        else:",
                "            total -= 1",
                "    return {'total': total, 'limit': limit}", ""]
    return "\n".join(out)


def plain_rust(rng, n):
    out = ["use std::collections::HashMap;", ""]
    for i in range(n):
        out += [f"pub fn compute_{i}(values: &[i64]) -> HashMap<&'static str, i64> {{",
                "    let mut total = 0;",
                "    for v in values {",
                f"        if *v > {rng.randint(0, 50)} {{ total += v * 2; }} else {{ total -= 1; }}",
                "    }",
                "    let mut m = HashMap::new();",
                "    m.insert(\"total\", total);",
                "    m", "}", ""]
    return "\n".join(out)


def plain_ts(rng, n):
    out = ["import { readFileSync } from 'node:fs';", ""]
    for i in range(n):
        out += [f"export function compute{i}(values: number[]): Record<string, number> {{",
                "  let total = 0;",
                "  for (const v of values) {",
                f"    if (v > {rng.randint(0, 50)}) {{ total += v * 2; }} else {{ total -= 1; }}",
                "  }",
                "  return { total };", "}", ""]
    return "\n".join(out)


def plain_go(rng, n):
    out = ["package util", "", "import \"fmt\"", ""]
    for i in range(n):
        out += [f"func Compute{i}(values []int) map[string]int {{",
                "\ttotal := 0",
                "\tfor _, v := range values {",
                f"\t\tif v > {rng.randint(0, 50)} {{\n\t\t\ttotal += v * 2\n\t\t}} else {{\n\t\t\ttotal--\n\t\t}}",
                "\t}",
                "\tfmt.Sprint(total)",
                "\treturn map[string]int{\"total\": total}", "}", ""]
    return "\n".join(out)


def plain_php(rng, n):
    out = ["<?php", ""]
    for i in range(n):
        out += [f"function compute_{i}(array $values) {{",
                "    $total = 0;",
                "    foreach ($values as $v) {",
                f"        if ($v > {rng.randint(0, 50)}) {{ $total += $v * 2; }} else {{ $total -= 1; }}",
                "    }",
                "    return ['total' => $total];", "}", ""]
    return "\n".join(out)


PLAIN = {"python": plain_python, "rust": plain_rust, "typescript": plain_ts, "javascript": plain_ts,
         "go": plain_go, "php": plain_php}


def servers(fixtures):
    """Server source files from the project's fixtures, by language."""
    out = {}
    for lang_dir in sorted(Path(fixtures).iterdir()):
        if not lang_dir.is_dir():
            continue
        for f in sorted(lang_dir.rglob("*")):
            if f.is_file() and f.suffix in (".py", ".rs", ".ts", ".js", ".go", ".php", ".mjs"):
                text = f.read_text(encoding="utf-8")
                if "jsonrpc" in text or "JSONRPC" in text:
                    out.setdefault(f.suffix, []).append(text)
    return out


def main():
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--kind", choices=["typical", "all-mcp"], required=True)
    p.add_argument("--files", type=int, required=True)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--out", required=True)
    p.add_argument("--fixtures", default=str(Path(__file__).resolve().parent.parent / "fixtures"))
    a = p.parse_args()
    rng = random.Random(a.seed)
    out = Path(a.out)
    if out.exists() and any(out.iterdir()):
        sys.exit(f"{out} is not empty")
    pool = servers(a.fixtures)
    suffixes = sorted(pool)
    langs = sorted(EXT)
    total = 0
    for i in range(a.files):
        d = out / f"pkg{i // 200:04d}" / f"mod{(i // 20) % 10}"
        d.mkdir(parents=True, exist_ok=True)
        if a.kind == "all-mcp" or rng.random() < 0.01:
            suffix = suffixes[i % len(suffixes)]
            text = pool[suffix][rng.randrange(len(pool[suffix]))]
            name = f"server{i}{suffix}"
        else:
            lang = langs[i % len(langs)]
            # Most files are small; a few are large generated files (about 500 KB).
            n = 2000 if i % 5000 == 4999 else rng.choice([3, 5, 8, 12, 20, 40])
            text = PLAIN[lang](rng, n)
            name = f"file{i}{EXT[lang]}"
        (d / name).write_text(text, encoding="utf-8")
        total += len(text.encode("utf-8"))
    print(f"{a.files} files, {total} bytes in {out}")


if __name__ == "__main__":
    main()
