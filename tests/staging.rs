//! Staged parsing: files with only weak evidence are parsed when the strong
//! files' code may need them, and not otherwise.

use mcp_conform::check::VerdictKind;
use mcp_conform::scan::{ScanOptions, scan};
use std::path::Path;

fn write(root: &Path, rel: &str, text: &str) {
    let path = root.join(rel);
    std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
    std::fs::write(path, text).expect("write");
}

/// A dispatcher that returns its replies; the stdio loop lives in another file.
const SERVER: &str = r#"import json
from shared.logs import setup_logging

def dispatch_message(msg):
    setup_logging()
    method = msg.get("method")
    if method == "initialize":
        return {"jsonrpc": "2.0", "id": msg.get("id"), "result": {"protocolVersion": "2025-06-18"}}
    if method == "tools/list":
        return {"jsonrpc": "2.0", "id": msg.get("id"), "result": {"tools": []}}
    if method == "notifications/initialized":
        return None
    return {"jsonrpc": "2.0", "id": msg.get("id"), "error": {"code": -32601, "message": "unknown"}}
"#;

/// The transport: weak evidence only (it reads stdin), no MCP vocabulary; it
/// calls the dispatcher by name.
const TRANSPORT: &str = r#"import json, sys
from .server import dispatch_message

def main():
    for line in sys.stdin:
        out = dispatch_message(json.loads(line))
        if out is not None:
            print(json.dumps(out), flush=True)
"#;

/// A far-away file that mentions stdin and defines names nobody uses.
const FAR: &str = r#"import sys

def initialize_colours():
    return sys.stdin.isatty()
"#;

/// A far-away module the server imports; weak evidence only.
const LOGS: &str = r#"import sys

def setup_logging():
    return sys.stdin.isatty()
"#;

#[test]
fn a_weak_transport_next_to_the_server_is_parsed_and_a_far_file_is_not() {
    let dir = tempfile::tempdir().expect("temp dir");
    write(dir.path(), "pkg/server.py", SERVER);
    write(dir.path(), "pkg/__main__.py", TRANSPORT);
    write(dir.path(), "tools/scripts/colours.py", FAR);
    write(dir.path(), "docs/conf.py", "project = 'x'\n");
    let report = scan(&ScanOptions::new(vec![dir.path().to_path_buf()])).expect("scan runs");
    assert_eq!(report.stats.files_parsed, 2, "server and transport, not the far files");
    assert_eq!(report.servers.len(), 1);
    let nnr = report.servers[0]
        .checks
        .iter()
        .find(|c| c.id == "ab-001838/notification-no-reply")
        .expect("notification check");
    assert_eq!(nnr.verdict, VerdictKind::Fail, "{}", nnr.reason);
}

#[test]
fn a_far_weak_file_is_parsed_when_the_server_imports_it() {
    let dir = tempfile::tempdir().expect("temp dir");
    write(dir.path(), "pkg/server.py", SERVER);
    write(dir.path(), "shared/logs.py", LOGS);
    write(dir.path(), "tools/scripts/colours.py", FAR);
    let report = scan(&ScanOptions::new(vec![dir.path().to_path_buf()])).expect("scan runs");
    assert_eq!(report.stats.files_parsed, 2, "server and the module it imports");
}

#[test]
fn a_tree_with_only_weak_evidence_parses_nothing() {
    let dir = tempfile::tempdir().expect("temp dir");
    write(dir.path(), "pkg/__main__.py", TRANSPORT);
    write(dir.path(), "tools/scripts/colours.py", FAR);
    write(dir.path(), "src/mcp_names.ts", "export const mcpEnabled = process.stdin.isTTY;\n");
    let report = scan(&ScanOptions::new(vec![dir.path().to_path_buf()])).expect("scan runs");
    assert_eq!(report.stats.files_parsed, 0);
    assert!(report.servers.is_empty());
}

#[test]
fn the_envelope_alone_pulls_nothing_in() {
    let dir = tempfile::tempdir().expect("temp dir");
    // A JSON-RPC program of another protocol: envelope, no MCP vocabulary.
    write(
        dir.path(),
        "node/rpc.py",
        r#"import json

def handle_rpc(msg):
    if msg["method"] == "eth_blockNumber":
        return {"jsonrpc": "2.0", "id": msg["id"], "result": "0x1"}
"#,
    );
    write(dir.path(), "node/__main__.py", TRANSPORT.replace("dispatch_message", "handle_rpc").as_str());
    let report = scan(&ScanOptions::new(vec![dir.path().to_path_buf()])).expect("scan runs");
    assert!(report.servers.is_empty());
    assert_eq!(report.stats.files_parsed, 1, "only the envelope file; its neighbour stays unread");
}

/// A server whose handler methods are named as MCP methods (`initialize`).
const CLASS_SERVER: &str = r#"import json, sys

class Server:
    def initialize(self, msg):
        return {"jsonrpc": "2.0", "id": msg["id"], "result": {"protocolVersion": "2025-06-18"}}

    def handle(self, msg):
        if msg.get("method") == "initialize":
            return self.initialize(msg)
        return None
"#;

/// A neighbour with weak evidence: it defines and calls its own `initialize`
/// (a weak marker word) and calls `process` (a word too common to relate files).
const NEIGHBOUR: &str = r#"def initialize(config):
    return process(dict(config))
"#;

#[test]
fn a_weak_marker_word_or_a_common_word_does_not_relate_files() {
    let dir = tempfile::tempdir().expect("temp dir");
    write(dir.path(), "app/server.py", CLASS_SERVER);
    write(dir.path(), "app/settings.py", NEIGHBOUR);
    write(dir.path(), "app/jobs/process.py", "def process(items):\n    return items\n");
    let report = scan(&ScanOptions::new(vec![dir.path().to_path_buf()])).expect("scan runs");
    assert_eq!(report.stats.files_parsed, 1, "only the server: `initialize` and `process` say nothing");
}

/// A name needed only after a round (a helper of a helper) is looked for again in
/// the files an earlier round read and set aside: they were searched for other names.
#[test]
fn a_name_needed_in_a_later_round_is_looked_for_in_files_read_before() {
    let dir = tempfile::tempdir().expect("temp dir");
    write(
        dir.path(),
        "pkg/server.py",
        r#"import json, sys

def dispatch_message(msg):
    method = msg.get("method")
    if method == "tools/list":
        return reply_with(msg, {"tools": []})
    return None

def main():
    for line in sys.stdin:
        out = dispatch_message(json.loads(line))
"#,
    );
    // Holds no marker; defines the helper the server calls, which calls another.
    write(dir.path(), "pkg/replies.py", "def reply_with(msg, result):\n    return frame_out(msg, result)\n");
    // Holds no marker and none of the first round's names: only the second round's.
    write(
        dir.path(),
        "pkg/frames.py",
        "def frame_out(msg, result):\n    return {'id': msg.get('id'), 'result': result}\n",
    );
    // A neighbour holding none of the names, in any round.
    write(dir.path(), "pkg/colours.py", "def paint(text):\n    return text\n");
    let report = scan(&ScanOptions::new(vec![dir.path().to_path_buf()])).expect("scan runs");
    assert_eq!(report.stats.files_parsed, 3, "the server, its helper, and the helper's helper");
}
