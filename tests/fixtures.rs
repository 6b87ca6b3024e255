//! Runs the scanner on every fixture and compares with its `expected.toml`.
//!
//! A fixture is a folder `fixtures/<language>/<case>/` with source files and an
//! `expected.toml`: one `[[server]]` table per server the scan must find (by
//! `path` of the file that dispatches, and optionally `kind`, `files`, `sdk` and
//! `transports`), giving every
//! check's verdict. No `[[server]]` table means no server may be found.

use mcp_conform::check::CHECKS;
use mcp_conform::scan::{ScanOptions, scan};
use std::path::{Path, PathBuf};

fn cases() -> Vec<PathBuf> {
    let mut out = Vec::new();
    for lang in std::fs::read_dir("fixtures").expect("fixtures folder") {
        let lang = lang.expect("entry").path();
        if !lang.is_dir() {
            continue;
        }
        for case in std::fs::read_dir(&lang).expect("language folder") {
            let case = case.expect("entry").path();
            if case.join("expected.toml").is_file() {
                out.push(case);
            }
        }
    }
    out.sort();
    out
}

fn expected(case: &Path) -> toml::Table {
    toml::from_str(&std::fs::read_to_string(case.join("expected.toml")).expect("read"))
        .unwrap_or_else(|e| panic!("{}: bad expected.toml: {e}", case.display()))
}

fn check_case(case: &Path) -> Vec<String> {
    let expected = expected(case);
    let report = scan(&ScanOptions::new(vec![case.to_path_buf()])).expect("scan");
    let mut problems = Vec::new();
    let servers = expected.get("server").and_then(|s| s.as_array()).cloned().unwrap_or_default();
    if servers.len() != report.servers.len() {
        let found: Vec<&str> = report.servers.iter().map(|s| s.id.as_str()).collect();
        problems.push(format!(
            "expected {} servers, found {}: {:?}",
            servers.len(),
            report.servers.len(),
            found
        ));
        return problems;
    }
    for (want, got) in servers.iter().zip(&report.servers) {
        let want = want.as_table().expect("[[server]] is a table");
        let path = want.get("path").and_then(|p| p.as_str()).expect("[[server]] needs a path");
        if got.path != path {
            problems.push(format!("server at {} where {} was expected", got.id, path));
        }
        if let Some(kind) = want.get("kind").and_then(|k| k.as_str())
            && got.kind != kind
        {
            problems.push(format!("{}: kind {} where {} was expected", got.id, got.kind, kind));
        }
        // `files = [..]`: the server's own files, exactly (sorted as reported).
        if let Some(files) = want.get("files").and_then(|f| f.as_array()) {
            let files: Vec<&str> = files.iter().filter_map(|f| f.as_str()).collect();
            if got.files != files {
                problems.push(format!("{}: files {:?} where {:?} were expected", got.id, got.files, files));
            }
        }
        // `transports = [..]`: the transports the server is reached by, exactly.
        if let Some(transports) = want.get("transports").and_then(|t| t.as_array()) {
            let transports: Vec<&str> = transports.iter().filter_map(|t| t.as_str()).collect();
            if got.transports != transports {
                problems.push(format!(
                    "{}: transports {:?} where {:?} were expected",
                    got.id, got.transports, transports
                ));
            }
        }
        // `sdk = ".."` (or `"none"`): the SDK the server's own files import.
        if let Some(sdk) = want.get("sdk").and_then(|s| s.as_str()) {
            let got_sdk = got.sdk.as_deref().unwrap_or("none");
            if got_sdk != sdk {
                problems.push(format!("{}: sdk {} where {} was expected", got.id, got_sdk, sdk));
            }
        }
        for check in CHECKS {
            let Some(verdict) = want.get(check.id).and_then(|v| v.as_str()) else {
                problems.push(format!("{}: expected.toml gives no verdict for {}", got.id, check.id));
                continue;
            };
            let actual = got.checks.iter().find(|c| c.id == check.id).expect("every check runs");
            if actual.verdict.name() != verdict {
                problems.push(format!(
                    "{}: {} is {} ({}), expected {}",
                    got.id,
                    check.id,
                    actual.verdict.name(),
                    actual.reason,
                    verdict
                ));
            }
            if actual.verdict.name() == "fail" && actual.findings.is_empty() {
                problems.push(format!("{}: {} fails without a finding", got.id, check.id));
            }
        }
    }
    if servers.is_empty() {
        for c in &report.checks {
            if c.verdict.name() != "skip" || c.reason != "no MCP server found" {
                problems.push(format!(
                    "{}: expected a skip for no server, got {} ({})",
                    c.id,
                    c.verdict.name(),
                    c.reason
                ));
            }
        }
    }
    problems
}

#[test]
fn every_fixture_matches_its_expected_verdicts() {
    let cases = cases();
    assert!(cases.len() >= 10, "fixtures are missing: found {}", cases.len());
    let mut failures = Vec::new();
    for case in &cases {
        for p in check_case(case) {
            failures.push(format!("{}: {p}", case.display()));
        }
    }
    assert!(failures.is_empty(), "{} fixture problems:\n{}", failures.len(), failures.join("\n"));
}

/// Servers in one repository must not borrow each other's helpers or handler tables:
/// scanning every fixture at once gives each server the verdicts it gets alone.
#[test]
fn scanning_all_fixtures_together_changes_no_verdict() {
    let report = scan(&ScanOptions::new(vec![PathBuf::from("fixtures")])).expect("scan");
    let mut failures = Vec::new();
    for case in cases() {
        let rel = case.strip_prefix("fixtures").expect("under fixtures").to_string_lossy().replace('\\', "/");
        let rel = rel.trim_start_matches('/');
        let servers = expected(&case).get("server").and_then(|s| s.as_array()).cloned().unwrap_or_default();
        // Two servers of one file (a stdio loop and an HTTP route) are listed in the
        // order the report gives them: the n-th entry of a path is its n-th server.
        let mut seen: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
        for want in servers {
            let want = want.as_table().expect("table");
            let path = format!("{rel}/{}", want.get("path").and_then(|p| p.as_str()).expect("path"));
            let nth = seen.entry(path.clone()).or_insert(0);
            let Some(got) = report.servers.iter().filter(|s| s.path == path).nth(*nth) else {
                failures.push(format!("{path}: not found when scanning all fixtures"));
                continue;
            };
            *nth += 1;
            for check in CHECKS {
                let want = want.get(check.id).and_then(|v| v.as_str()).unwrap_or("?");
                let actual = got.checks.iter().find(|c| c.id == check.id).expect("check ran");
                if actual.verdict.name() != want {
                    failures.push(format!(
                        "{path}: {} is {} ({}), expected {want}",
                        check.id,
                        actual.verdict.name(),
                        actual.reason
                    ));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
