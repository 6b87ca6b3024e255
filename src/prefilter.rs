//! Prefilter: one Aho-Corasick automaton decides which files are worth parsing.

use aho_corasick::AhoCorasick;
use std::sync::OnceLock;

/// Strings without which a file cannot hold MCP dispatch, its transport or an SDK import,
/// in the spellings code uses (matched case-sensitively, which keeps the search vectorised).
pub const MARKERS: &[&str] = &[
    "jsonrpc",
    "JSONRPC",
    "JsonRpc",
    "jsonRpc",
    "json_rpc",
    "mcp",
    "Mcp",
    "MCP",
    "stdin",
    "Stdin",
    "STDIN",
    "tools/list",
    "tools/call",
    "notifications/",
    "protocolVersion",
    "ProtocolVersion",
    "protocol_version",
    "initialize",
    "Initialize",
];

fn automaton() -> &'static AhoCorasick {
    static AC: OnceLock<AhoCorasick> = OnceLock::new();
    AC.get_or_init(|| {
        AhoCorasick::builder().build(MARKERS).expect("the marker automaton is built from constant strings")
    })
}

/// True when the file contains any marker.
pub fn worth_parsing(src: &[u8]) -> bool {
    automaton().is_match(src)
}

#[cfg(test)]
mod tests {
    #[test]
    fn markers_match_the_spellings_code_uses() {
        assert!(super::worth_parsing(b"class McpServer: pass"));
        assert!(super::worth_parsing(b"x = {'jsonrpc': '2.0'}"));
        assert!(!super::worth_parsing(b"def add(a, b): return a + b"));
    }
}
