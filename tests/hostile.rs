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

/// A half-typed construct and an unclosed string appended to a failing server
/// in each language: the file is listed under syntax errors, and what parsed is
/// still judged (the server still fails notification-no-reply).
#[test]
fn syntax_errors_in_every_language_are_listed_and_what_parsed_is_judged() {
    let cases: &[(&str, &str, &str)] = &[
        (
            "fixtures/python/reply_to_everything/server.py",
            "server.py",
            "\ndef later(msg):\n    match msg[\"method\"]:\n        case \"ping\n",
        ),
        (
            "fixtures/rust/catch_all/src/main.rs",
            "main.rs",
            "\nfn later(m: &str) {\n    match m {\n        \"ping\" => \"unclosed\n",
        ),
        (
            "fixtures/typescript/reply_to_everything/server.ts",
            "server.ts",
            "\nfunction later(m: string) {\n  switch (m) {\n    case 'ping\n",
        ),
        (
            "fixtures/javascript/forward_everything/host.js",
            "host.js",
            "\nfunction later(m) {\n  switch (m) {\n    case \"ping\n",
        ),
        (
            "fixtures/go/ccvault_bug/internal/mcp/server.go",
            "server.go",
            "\nfunc later(m string) {\n\tswitch m {\n\tcase \"ping\n",
        ),
        (
            "fixtures/php/stdio_echo_everything/server.php",
            "server.php",
            "\nfunction later($m) {\n    return match ($m) {\n        'ping\n",
        ),
    ];
    for (fixture, name, tail) in cases {
        let dir = tempfile::tempdir().expect("temp dir");
        let mut text = std::fs::read_to_string(fixture).expect("fixture");
        text.push_str(tail);
        std::fs::write(dir.path().join(name), text).expect("write");
        let report =
            mcp_conform::scan::scan(&ScanOptions::new(vec![dir.path().to_path_buf()])).expect("scan runs");
        assert!(report.syntax_errors.iter().any(|l| l.path == *name), "{fixture}: no syntax error listed");
        assert_eq!(report.servers.len(), 1, "{fixture}: the server is still found");
        let nnr = &report.servers[0].checks[0];
        assert_eq!(nnr.id, "ab-001838/notification-no-reply");
        assert_eq!(nnr.verdict, mcp_conform::check::VerdictKind::Fail, "{fixture}: {}", nnr.reason);
    }
}

/// A 50 MB minified file on one line: skipped by the size cap, and read no
/// further than one byte past it.
#[test]
fn a_fifty_megabyte_minified_file_is_skipped_by_the_size_cap() {
    let dir = tempfile::tempdir().expect("temp dir");
    let chunk = "var a=function(b){return{jsonrpc:\"2.0\",id:b.id,result:{}}};";
    let line = chunk.repeat(50 * 1024 * 1024 / chunk.len());
    std::fs::write(dir.path().join("bundle.min.js"), line).expect("write");
    let report =
        mcp_conform::scan::scan(&ScanOptions::new(vec![dir.path().to_path_buf()])).expect("scan runs");
    assert_eq!(skipped(&report, "bundle.min.js").as_deref(), Some("larger than the 2097152-byte size cap"));
    assert_eq!(report.stats.files_parsed, 0);
}

/// A hand-written server in one 1.5 MB file (thousands of tool functions beside the
/// dispatch, as real single-file servers grow): under the default size cap, parsed
/// and judged like a small one.
#[test]
fn a_large_hand_written_server_file_is_judged() {
    let dir = tempfile::tempdir().expect("temp dir");
    let server = std::fs::read_to_string("fixtures/python/reply_to_everything/server.py").expect("read");
    let tools: String = (0..24_000)
        .map(|i| format!("def tool_{i}(arguments):\n    return {{'n': {i}, 'a': arguments}}\n\n"))
        .collect();
    let text = format!("{tools}{server}");
    assert!(text.len() > 3 * 512 * 1024, "{} bytes", text.len());
    std::fs::write(dir.path().join("server.py"), text).expect("write");
    let report =
        mcp_conform::scan::scan(&ScanOptions::new(vec![dir.path().to_path_buf()])).expect("scan runs");
    assert_eq!(skipped(&report, "server.py"), None);
    let server = report.servers.first().expect("the server is found");
    let nnr = server.checks.iter().find(|c| c.id == "ab-001838/notification-no-reply").expect("check");
    assert_eq!(nnr.verdict, mcp_conform::check::VerdictKind::Fail, "{}", nnr.reason);
}

/// A server whose analysis outruns its work budget skips what it could not finish,
/// the same way on any machine; the reason names the bound.
#[test]
fn an_analysis_over_its_work_budget_skips_what_it_could_not_finish() {
    let mut opts = ScanOptions::new(vec!["fixtures/rust/many_paths".into()]);
    opts.analysis_steps = 50;
    let report = mcp_conform::scan::scan(&opts).expect("scan runs");
    let server = report.servers.first().expect("the server is still found");
    assert!(server.checks.iter().all(|c| c.verdict != mcp_conform::check::VerdictKind::Pass), "no pass");
    assert!(
        server.checks.iter().any(|c| c.reason.contains("evaluation steps for one server")),
        "{:#?}",
        server.checks.iter().map(|c| &c.reason).collect::<Vec<_>>()
    );
}

/// A router matching `(verb, path)` tuples ahead of the MCP endpoint: a probe is
/// POSTed to the endpoint, so the other routes' arms are not followed, and the server
/// is judged within a work bound that following them would exceed (7,676 steps when
/// they were followed, 1,904 now).
#[test]
fn routes_of_a_tuple_router_are_not_followed() {
    let mut opts = ScanOptions::new(vec!["fixtures/rust/tcp_router_tuple_routes".into()]);
    opts.analysis_steps = 4_000;
    let report = mcp_conform::scan::scan(&opts).expect("scan runs");
    let server = report.servers.first().expect("the server is found");
    for check in &server.checks {
        assert_eq!(check.verdict, mcp_conform::check::VerdictKind::Pass, "{}: {}", check.id, check.reason);
    }
}

/// A server whose analysis outruns its time budget is not a hang: the scan ends,
/// and no check passes on paths it did not finish following; the reason says so.
#[test]
fn an_analysis_over_its_time_budget_skips_what_it_could_not_finish() {
    let mut opts = ScanOptions::new(vec!["fixtures/rust/many_paths".into()]);
    opts.analysis_budget = Duration::ZERO;
    let report = mcp_conform::scan::scan(&opts).expect("scan runs");
    let server = report.servers.first().expect("the server is still found");
    assert!(server.checks.iter().all(|c| c.verdict != mcp_conform::check::VerdictKind::Pass), "no pass");
    assert!(
        server.checks.iter().any(|c| c.reason.contains("the time budget for one server ran out")),
        "{:#?}",
        server.checks.iter().map(|c| &c.reason).collect::<Vec<_>>()
    );
    // With the default budget the same server passes.
    let report =
        mcp_conform::scan::scan(&ScanOptions::new(vec!["fixtures/rust/many_paths".into()])).expect("scan");
    let passes =
        report.servers[0].checks.iter().filter(|c| c.verdict == mcp_conform::check::VerdictKind::Pass);
    assert_eq!(passes.count(), 5);
}

/// `--timings` reports the steps each server's analysis took: the same on every run
/// (unlike its milliseconds), and within the work bound.
#[test]
fn a_servers_analysis_steps_are_reported_and_repeat() {
    let steps = || {
        let mut opts = ScanOptions::new(vec!["fixtures/rust/many_paths".into()]);
        opts.timings = true;
        let report = mcp_conform::scan::scan(&opts).expect("scan runs");
        report.servers[0].analysis_steps.expect("steps reported under --timings")
    };
    let first = steps();
    assert!(first > 0 && first <= mcp_conform::interp::MAX_SERVER_STEPS as u64, "{first}");
    assert_eq!(steps(), first);
    let report =
        mcp_conform::scan::scan(&ScanOptions::new(vec!["fixtures/rust/many_paths".into()])).expect("scan");
    assert_eq!(report.servers[0].analysis_steps, None, "only with --timings");
}

/// Broken code whose local is assigned a call through itself (`const server = new
/// Mcpt server.connect(..)` parses so) beside a dispatcher that calls a method on
/// a local: resolving the call looked for the local's factory, which resolved the
/// same call again, until the stack overflowed. The scan ends and reports.
#[test]
fn a_local_assigned_a_call_through_itself_does_not_recurse_forever() {
    let dir = tempfile::tempdir().expect("temp dir");
    let broken = "import { McpServer } from \"@modelcontextprotocol/sdk/server/mcp.js\";\n\
import { StdioServerTransport } from \"@modelcontextprotocol/sdk/server/stdio.js\";\n\n\
const server = new Mcpt server.connect(new StdioServerTransport());\n";
    let router = r#"async function handleRpc(req, res) {
  const { method, id } = req.body;
  switch (method) {
    case 'ping':
      return res.json({ jsonrpc: '2.0', id, result: {} });
    default:
      return res.status(400).json({ jsonrpc: '2.0', id: id || null, error: { code: -32601, message: 'unknown' } });
  }
}
module.exports = { handleRpc };
"#;
    std::fs::write(dir.path().join("a.ts"), broken).expect("write");
    std::fs::write(dir.path().join("b.js"), router).expect("write");
    let report =
        mcp_conform::scan::scan(&ScanOptions::new(vec![dir.path().to_path_buf()])).expect("scan runs");
    assert_eq!(report.stats.files_seen, 2);
}

/// A class whose field default builds the class again: construction ends at the
/// call depth bound (an unknown value), not in a stack overflow.
#[test]
fn a_class_built_by_its_own_field_default_does_not_recurse_forever() {
    let dir = tempfile::tempdir().expect("temp dir");
    let server = r#"import * as readline from "node:readline";

class Node {
  child = new Node();
}

class Server {
  tree = new Node();
  handle(msg: any): unknown {
    if (msg.method === "initialize") return { jsonrpc: "2.0", id: msg.id, result: { protocolVersion: "2025-06-18" } };
    if (msg.method === "ping") return { jsonrpc: "2.0", id: msg.id, result: {} };
    return null;
  }
}

readline.createInterface({ input: process.stdin }).on("line", (line) => {
  const reply = new Server().handle(JSON.parse(line));
  if (reply !== null) process.stdout.write(JSON.stringify(reply) + "\n");
});
"#;
    std::fs::write(dir.path().join("server.ts"), server).expect("write");
    let report =
        mcp_conform::scan::scan(&ScanOptions::new(vec![dir.path().to_path_buf()])).expect("scan runs");
    assert_eq!(report.servers.len(), 1);
}
