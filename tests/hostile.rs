//! Hostile input through the library's seams: a parse that overruns its time
//! budget, and a file that disappears between discovery and reading.

use mcp_conform::scan::{ScanOptions, judge_found, walk};
use std::time::{Duration, Instant};

fn skipped(report: &mcp_conform::report::Report, name: &str) -> Option<String> {
    report.skipped_files.iter().find(|s| s.path == name).map(|s| s.reason.clone())
}

#[test]
fn a_parse_over_its_time_budget_is_skipped_and_the_scan_goes_on() {
    let dir = tempfile::tempdir().expect("temp dir");
    // About 500 KB of valid Python that mentions JSON-RPC: far more than a
    // millisecond of parsing on any machine.
    let slow: String = (0..15_000).map(|i| format!("v{i} = {{\"jsonrpc\": [{i}, ({i},)]}}\n")).collect();
    std::fs::write(dir.path().join("generated.py"), slow).expect("write");
    std::fs::copy("fixtures/python/reply_to_everything/server.py", dir.path().join("server.py"))
        .expect("copy");
    let mut opts = ScanOptions::new(vec![dir.path().to_path_buf()]);
    opts.parse_budget = Duration::from_millis(1);
    let report = mcp_conform::scan::scan(&opts).expect("scan runs");
    let reason = skipped(&report, "generated.py").expect("the slow file is skipped");
    assert_eq!(reason, "parsing took longer than the 1 ms budget");
    // The small server may or may not parse within a millisecond; with the
    // default budget it is judged and the big file is too.
    let report =
        mcp_conform::scan::scan(&ScanOptions::new(vec![dir.path().to_path_buf()])).expect("scan runs");
    assert_eq!(skipped(&report, "generated.py"), None);
    assert_eq!(report.servers.len(), 1);
}

#[test]
fn a_file_deleted_between_walk_and_read_is_reported() {
    let dir = tempfile::tempdir().expect("temp dir");
    for name in ["a.py", "b.py"] {
        std::fs::copy("fixtures/python/reply_to_everything/server.py", dir.path().join(name)).expect("copy");
    }
    let opts = ScanOptions::new(vec![dir.path().to_path_buf()]);
    let found = walk(&opts).expect("walk");
    assert_eq!(found.files.len(), 2);
    std::fs::remove_file(dir.path().join("a.py")).expect("delete");
    let report = judge_found(found, &opts, Instant::now()).expect("judged");
    assert_eq!(skipped(&report, "a.py").as_deref(), Some("cannot read: no such file or directory"));
    assert_eq!(report.servers.len(), 1, "b.py is still judged");
    assert_eq!(report.servers[0].path, "b.py");
}
