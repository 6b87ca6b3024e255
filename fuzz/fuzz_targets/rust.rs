//! Any bytes, read as `main.rs`, produce a report and never a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let report = mcp_conform::scan::scan_source("main.rs", data).expect("a supported file name");
    assert_eq!(report.stats.files_seen, 1);
});
