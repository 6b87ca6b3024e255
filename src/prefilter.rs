//! Prefilter: one Aho-Corasick search decides how much a file's text says it can
//! matter, before anything is parsed.
//!
//! *Strong* evidence is what MCP dispatch or an MCP SDK import cannot be written
//! without: MCP method names, `protocolVersion`, the JSON-RPC envelope, SDK module
//! names. *Weak* evidence is what many unrelated files also hold (`stdin`,
//! `initialize`, `mcp` in a name). Strong files are parsed first; a weak file, or
//! one with no marker at all, is parsed only when a strong file's analysis needs a
//! name it may define (see `scan`).

use aho_corasick::AhoCorasick;
use std::sync::OnceLock;

/// Markers of MCP dispatch, its envelope and its SDKs, in the spellings code uses
/// (matched case-sensitively, which keeps the search vectorised).
pub const STRONG: &[&str] = &[
    "jsonrpc",
    "JSONRPC",
    "JsonRpc",
    "jsonRpc",
    "json_rpc",
    "tools/list",
    "tools/call",
    "notifications/",
    "resources/list",
    "prompts/list",
    "protocolVersion",
    "ProtocolVersion",
    "protocol_version",
    "modelcontextprotocol",
    "mcp.server",
    "fastmcp",
    "FastMCP",
    "rmcp",
    "rust_mcp_sdk",
    "mcp-go",
    "PhpMcp",
    "Mcp\\",
    "WP\\MCP",
];

/// Markers many files hold for other reasons.
pub const WEAK: &[&str] = &["mcp", "Mcp", "MCP", "stdin", "Stdin", "STDIN", "initialize", "Initialize"];

/// How much a file's text says it can matter.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Evidence {
    None,
    Weak,
    Strong,
}

/// The SIMD searcher (Teddy) where the CPU has one, else the automaton.
enum Markers {
    Packed(aho_corasick::packed::Searcher),
    Automaton(AhoCorasick),
}

fn markers() -> &'static Markers {
    static SEARCHER: OnceLock<Markers> = OnceLock::new();
    SEARCHER.get_or_init(|| {
        let all: Vec<&str> = STRONG.iter().chain(WEAK).copied().collect();
        let mut packed = aho_corasick::packed::Config::new().builder();
        match packed.extend(&all).build() {
            Some(searcher) => Markers::Packed(searcher),
            None => Markers::Automaton(
                AhoCorasick::new(&all).expect("the marker automaton is built from constant strings"),
            ),
        }
    })
}

/// The strongest evidence in the text: it stops at the first strong marker.
pub fn evidence(src: &[u8]) -> Evidence {
    let mut found = Evidence::None;
    let mut note = |pattern: usize| {
        if pattern < STRONG.len() {
            found = Evidence::Strong;
            return true;
        }
        found = Evidence::Weak;
        false
    };
    match markers() {
        Markers::Packed(searcher) => {
            for m in searcher.find_iter(src) {
                if note(m.pattern().as_usize()) {
                    break;
                }
            }
        }
        Markers::Automaton(ac) => {
            for m in ac.find_iter(src) {
                if note(m.pattern().as_usize()) {
                    break;
                }
            }
        }
    }
    found
}

/// True when the file holds any marker (strong or weak).
pub fn worth_parsing(src: &[u8]) -> bool {
    evidence(src) != Evidence::None
}

#[cfg(test)]
mod tests {
    use super::{Evidence, evidence};

    #[test]
    fn markers_match_the_spellings_code_uses() {
        assert_eq!(evidence(b"class McpServer: pass"), Evidence::Weak);
        assert_eq!(evidence(b"x = {'jsonrpc': '2.0'}"), Evidence::Strong);
        assert_eq!(evidence(b"line = sys.stdin.readline()  # then 'tools/list'"), Evidence::Strong);
        assert_eq!(evidence(b"from mcp.server.fastmcp import FastMCP"), Evidence::Strong);
        assert_eq!(evidence(b"def initialize(self): self.ready = True"), Evidence::Weak);
        assert_eq!(evidence(b"def add(a, b): return a + b"), Evidence::None);
    }
}
