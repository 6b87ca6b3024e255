//! Prefilter: one Aho-Corasick automaton decides which files are worth parsing.

use aho_corasick::AhoCorasick;
use std::sync::OnceLock;

/// Strings without which a file cannot hold MCP dispatch, its transport or an SDK import.
pub const MARKERS: &[&str] = &[
    "jsonrpc",
    "json_rpc",
    "mcp",
    "stdin",
    "tools/list",
    "tools/call",
    "notifications/",
    "protocolVersion",
    "protocol_version",
    "initialize",
];

fn automaton() -> &'static AhoCorasick {
    static AC: OnceLock<AhoCorasick> = OnceLock::new();
    AC.get_or_init(|| {
        AhoCorasick::builder()
            .ascii_case_insensitive(true)
            .build(MARKERS)
            .expect("the marker automaton is built from constant strings")
    })
}

/// True when the file contains any marker.
pub fn worth_parsing(src: &[u8]) -> bool {
    automaton().is_match(src)
}

#[cfg(test)]
mod tests {
    #[test]
    fn markers_match_case_insensitively() {
        assert!(super::worth_parsing(b"class McpServer: pass"));
        assert!(super::worth_parsing(b"x = {'jsonrpc': '2.0'}"));
        assert!(!super::worth_parsing(b"def add(a, b): return a + b"));
    }
}
