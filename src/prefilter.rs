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

/// The SIMD searcher (Teddy) where the CPU has one, else the automaton.
enum Markers {
    Packed(aho_corasick::packed::Searcher),
    Automaton(AhoCorasick),
}

fn markers() -> &'static Markers {
    static SEARCHER: OnceLock<Markers> = OnceLock::new();
    SEARCHER.get_or_init(|| {
        let mut packed = aho_corasick::packed::Config::new().builder();
        match packed.extend(MARKERS).build() {
            Some(searcher) => Markers::Packed(searcher),
            None => Markers::Automaton(
                AhoCorasick::new(MARKERS).expect("the marker automaton is built from constant strings"),
            ),
        }
    })
}

/// True when the file contains any marker.
pub fn worth_parsing(src: &[u8]) -> bool {
    match markers() {
        Markers::Packed(searcher) => searcher.find(src).is_some(),
        Markers::Automaton(ac) => ac.is_match(src),
    }
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
