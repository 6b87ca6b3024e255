//! Staged parsing: which deferred files a scan parses after the strong ones.
//!
//! A file with only weak evidence or none is parsed when the strong files' code
//! needs a name it may define or use: it sits in a related folder (one folder
//! inside the other, as name resolution sees them) or is imported by a strong file,
//! and it holds, as a whole word, a name a parsed file defines (a transport that
//! calls the dispatcher) or calls without defining it (a helper that sends replies).
//! A tree with no strong file, or whose strong files hold only the JSON-RPC
//! envelope and none of MCP's vocabulary, parses nothing more.

use crate::discover::Candidate;
use crate::model::{Expr, FileFacts, Language, walk_block};
use aho_corasick::AhoCorasick;
use rustc_hash::FxHashSet as HashSet;

/// Names too common to say anything about where code lives.
const COMMON: &[&str] = &[
    "self",
    "this",
    "main",
    "json",
    "print",
    "send",
    "write",
    "read",
    "init",
    "error",
    "result",
    "value",
    "data",
    "dumps",
    "loads",
    "string",
    "format",
    "append",
    "push",
    "get",
    "set",
    "log",
    "info",
    "debug",
    "warn",
    "then",
    "catch",
    "keys",
    "items",
    "values",
    "split",
    "join",
    "trim",
    "clone",
    "unwrap",
    "expect",
    "into",
    "from",
    "new",
    "len",
    "map",
    "filter",
    "parse",
    "stringify",
    "flush",
    "close",
    "open",
    "next",
    "call",
    "apply",
    "bind",
    "end",
    "json_encode",
    "json_decode",
    "isset",
    "empty",
    "Println",
    "Printf",
    "Sprintf",
    "Errorf",
    "Error",
    "Marshal",
    "Unmarshal",
    "make",
    "append",
];

/// Languages whose code calls each other's functions.
fn family(language: Language) -> Language {
    match language {
        Language::JavaScript => Language::TypeScript,
        other => other,
    }
}

fn dir_of(path: &str) -> &str {
    path.rfind('/').map(|i| &path[..i]).unwrap_or("")
}

/// `inner` is `outer` or inside it.
fn inside(outer: &str, inner: &str) -> bool {
    outer.is_empty()
        || inner == outer
        || (inner.starts_with(outer) && inner.as_bytes().get(outer.len()) == Some(&b'/'))
}

/// The deferred files to parse now, by index into `files`. `read` gives a file's
/// text (`None` when it cannot be read: it is left for the caller to report).
pub fn wanted(
    files: &[Candidate],
    parsed: &[&FileFacts],
    deferred: &[usize],
    read: impl Fn(usize) -> Option<Vec<u8>> + Sync,
) -> Vec<usize> {
    if parsed.is_empty() || deferred.is_empty() {
        return Vec::new();
    }
    // Without MCP's vocabulary (a method name, `protocolVersion`, an SDK) in some
    // parsed file, no dispatch can be an MCP server, and deferred files cannot
    // bring it: they hold no strong marker. A language server's files stay unread.
    let vocabulary = |f: &&FileFacts| {
        !f.sdk_imports.is_empty()
            || f.sdk_library.is_some()
            || crate::prefilter::speaks_mcp(f.source.as_bytes())
    };
    if !parsed.iter().any(vocabulary) {
        return Vec::new();
    }
    let names = needed_names(parsed);
    if names.is_empty() {
        return Vec::new();
    }
    let dirs: Vec<(Language, &str)> = parsed.iter().map(|f| (family(f.language), dir_of(&f.path))).collect();
    let hints: Vec<&str> = parsed.iter().flat_map(|f| f.imports.iter().map(String::as_str)).collect();
    let near = |c: &Candidate| {
        let dir = dir_of(&c.display);
        let stem = c.display.rsplit_once('.').map(|(s, _)| s).unwrap_or(&c.display);
        let family = family(c.language);
        dirs.iter().any(|(l, d)| *l == family && (inside(d, dir) || inside(dir, d)))
            || hints.iter().any(|h| ends_with_segments(stem, h) || ends_with_segments(dir, h))
    };
    let Ok(searcher) = AhoCorasick::new(&names) else { return Vec::new() };
    // A file elsewhere that imports a parsed module (an example app's route, a
    // command that runs the server) is read for its import spelling.
    let modules = module_spellings(parsed);
    let importers = AhoCorasick::new(&modules).ok().filter(|_| !modules.is_empty());
    use rayon::prelude::*;
    deferred
        .par_iter()
        .copied()
        .filter(|&i| {
            let close = near(&files[i]);
            if !close && importers.is_none() {
                return false;
            }
            read(i).is_some_and(|text| {
                holds_word(&searcher, &text)
                    && (close || importers.as_ref().is_some_and(|m| holds_word(m, &text)))
            })
        })
        .collect()
}

/// Folder names too common to name a module by.
const COMMON_DIRS: &[&str] = &[
    "src", "lib", "app", "core", "utils", "util", "server", "servers", "internal", "pkg", "cmd", "python",
    "mcp",
];

/// How other files import the parsed modules: Python's dotted module paths
/// (`pkg.core`) and package names, JavaScript's relative paths (`src/handler`),
/// Go's import path tails (`pkg/mcp`).
fn module_spellings(parsed: &[&FileFacts]) -> Vec<String> {
    let mut out: HashSet<String> = HashSet::default();
    for f in parsed {
        let stem = f.path.rsplit_once('.').map(|(s, _)| s).unwrap_or(&f.path);
        let parts: Vec<&str> = stem.split('/').collect();
        match f.language {
            Language::Python => {
                let dirs = &parts[..parts.len().saturating_sub(1)];
                if parts.len() >= 2 {
                    out.insert(parts[parts.len() - 2..].join("."));
                }
                if let Some(package) = dirs.last().filter(|d| d.len() >= 4 && !COMMON_DIRS.contains(d)) {
                    out.insert(package.to_string());
                }
            }
            // `import { Handler } from "../src/handler"`.
            Language::TypeScript | Language::JavaScript if parts.len() >= 2 => {
                out.insert(parts[parts.len() - 2..].join("/"));
            }
            Language::Go => {
                let dirs = &parts[..parts.len().saturating_sub(1)];
                if dirs.len() >= 2 {
                    out.insert(dirs[dirs.len() - 2..].join("/"));
                }
            }
            _ => {}
        }
    }
    let mut out: Vec<String> = out.into_iter().collect();
    out.sort();
    out
}

/// `path` is `hint` or ends with `/hint`.
fn ends_with_segments(path: &str, hint: &str) -> bool {
    path == hint
        || (path.len() > hint.len()
            && path.ends_with(hint)
            && path.as_bytes()[path.len() - hint.len() - 1] == b'/')
}

/// Whether the text holds one of the names as a whole word.
fn holds_word(searcher: &AhoCorasick, text: &[u8]) -> bool {
    let word = |b: u8| b.is_ascii_alphanumeric() || b == b'_' || b == b'$';
    searcher.find_overlapping_iter(text).any(|m| {
        let before = m.start().checked_sub(1).map(|i| text[i]);
        let after = text.get(m.end()).copied();
        !before.is_some_and(word) && !after.is_some_and(word)
    })
}

/// Names the parsed files define (functions, classes) or call without defining.
fn needed_names(parsed: &[&FileFacts]) -> Vec<String> {
    let mut defined: HashSet<&str> = HashSet::default();
    for f in parsed {
        for function in &f.functions {
            defined.insert(function.name.as_str());
            if let Some(owner) = &function.owner {
                defined.insert(owner.as_str());
            }
        }
    }
    let mut names: HashSet<String> = HashSet::default();
    for f in parsed {
        for function in &f.functions {
            walk_block(&function.body, &mut |e| {
                let called = match e {
                    Expr::Call { callee, .. } => crate::lower::last_segment(callee),
                    Expr::FnRef(name) => crate::lower::last_segment(name),
                    _ => return,
                };
                if !defined.contains(called) {
                    names.insert(called.to_string());
                }
            });
        }
    }
    names.extend(defined.iter().map(|n| n.to_string()));
    let mut names: Vec<String> = names
        .into_iter()
        .filter(|n| {
            n.len() >= 4 && !n.starts_with("__fn_") && !n.starts_with('<') && !COMMON.contains(&n.as_str())
        })
        .filter(|n| n.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_'))
        .collect();
    names.sort();
    names
}
