//! Mutated fixtures never crash the scanner: byte flips, truncations and splices
//! between languages always produce a report. Seeded, so a failure reproduces.

use mcp_conform::scan::{ScanOptions, scan};
use std::path::{Path, PathBuf};

/// A small deterministic generator (xorshift64*), enough to pick mutations.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).expect("read dir") {
        let p = e.expect("entry").path();
        if p.is_dir() {
            sources(&p, out);
        } else if p
            .extension()
            .and_then(|x| x.to_str())
            .is_some_and(|x| ["py", "rs", "ts", "tsx", "js", "jsx", "mjs", "cjs", "go", "php"].contains(&x))
        {
            out.push(p);
        }
    }
}

fn mutate(rng: &mut Rng, text: &[u8], other: &[u8]) -> Vec<u8> {
    let mut b = text.to_vec();
    match rng.below(4) {
        0 => {
            for _ in 0..1 + rng.below(8) {
                if !b.is_empty() {
                    let i = rng.below(b.len());
                    b[i] ^= 1 << rng.below(8);
                }
            }
        }
        1 => b.truncate(rng.below(b.len())),
        2 => {
            let at = rng.below(b.len());
            let from = rng.below(other.len());
            let len = rng.below(other.len() - from);
            b.splice(at..at, other[from..from + len].iter().copied());
        }
        _ => {
            let i = rng.below(b.len());
            let j = i + rng.below(b.len() - i);
            b.drain(i..j);
        }
    }
    b
}

#[test]
fn mutated_fixtures_always_produce_a_report() {
    let mut files = Vec::new();
    sources(Path::new("fixtures"), &mut files);
    files.sort();
    assert!(files.len() > 50, "fixtures are missing");
    let mut rng = Rng(0x5eed_1234_abcd_0001);
    let mut scans = 0;
    for round in 0..20 {
        let dir = tempfile::tempdir().expect("temp dir");
        for (i, f) in files.iter().enumerate() {
            let text = std::fs::read(f).expect("read fixture");
            let other = std::fs::read(&files[rng.below(files.len())]).expect("read fixture");
            let mutated = mutate(&mut rng, &text, &other);
            let name = format!("case{round}_{i}.{}", f.extension().and_then(|e| e.to_str()).unwrap_or("txt"));
            std::fs::write(dir.path().join(name), mutated).expect("write");
        }
        let report = scan(&ScanOptions::new(vec![dir.path().to_path_buf()]));
        let report = report.unwrap_or_else(|e| panic!("round {round}: the scan failed: {e}"));
        assert_eq!(report.stats.files_seen, files.len(), "round {round}: every file is seen");
        scans += 1;
    }
    // No bound on the time taken: speed is the benchmark's to measure, and a scan
    // that hung would never return here (the per-server budget bounds analysis).
    assert_eq!(scans, 20);
}
