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
use crate::model::{Expr, FileFacts, Language, dir_of, walk_block};
use aho_corasick::AhoCorasick;
use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};

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
    "process",
    "code",
];

/// Languages whose code calls each other's functions.
fn family(language: Language) -> Language {
    match language {
        Language::JavaScript => Language::TypeScript,
        other => other,
    }
}

/// A file not parsed yet: its index into the candidates, and whether it holds a
/// weak marker (`mcp`, `stdin`, `initialize`).
#[derive(Debug, Clone, Copy)]
pub struct Deferred {
    pub index: usize,
    pub weak: bool,
}

/// The repository's own packages, by which its files import each other: Go modules
/// and Rust crates, each as (folder, name) from their `go.mod` or `Cargo.toml`.
#[derive(Clone, Copy)]
pub struct Packages<'a> {
    pub go: &'a [(String, String)],
    pub rust: &'a [(String, String)],
}

/// What the rounds learnt of the deferred files they read: a later round reads a
/// file again only to look for names or spellings no earlier round looked for in
/// it, and decides from what was found before otherwise. Every name and spelling
/// gets an id the first time a round needs it; ids only grow.
#[derive(Default)]
pub struct Memo {
    names: Interner,
    spellings: Interner,
    files: HashMap<usize, Seen>,
}

#[derive(Default)]
struct Interner {
    ids: HashMap<String, u32>,
    all: Vec<String>,
}

impl Interner {
    fn intern(&mut self, s: &str) -> u32 {
        if let Some(&id) = self.ids.get(s) {
            return id;
        }
        let id = self.all.len() as u32;
        self.all.push(s.to_string());
        self.ids.insert(s.to_string(), id);
        id
    }

    fn len(&self) -> u32 {
        self.all.len() as u32
    }
}

/// One deferred file as read by earlier rounds: the names (whole words) and module
/// spellings found among those looked for (the ids below each `upto`), and whether
/// it declares a Go interface, once that was asked.
#[derive(Clone, Default)]
struct Seen {
    names_upto: u32,
    names: Vec<u32>,
    spellings_upto: u32,
    spellings: Vec<u32>,
    interface: Option<bool>,
}

/// Searchers over the ids from a starting id to the end, one per start a file needs.
struct Searchers {
    by_start: HashMap<u32, AhoCorasick>,
    len: u32,
}

impl Searchers {
    /// `None` when an automaton cannot be built (the round then looks for nothing).
    fn build(
        interner: &Interner,
        starts: impl Iterator<Item = u32>,
        kind: aho_corasick::MatchKind,
    ) -> Option<Searchers> {
        let mut by_start = HashMap::default();
        for start in starts {
            if start >= interner.len() || by_start.contains_key(&start) {
                continue;
            }
            let searcher = AhoCorasick::builder()
                .match_kind(kind)
                .kind(Some(aho_corasick::AhoCorasickKind::DFA))
                .build(&interner.all[start as usize..])
                .ok()?;
            by_start.insert(start, searcher);
        }
        Some(Searchers { by_start, len: interner.len() })
    }
}

/// The deferred files to parse now, by index into `files`. `read` gives a file's
/// text (`None` when it cannot be read: it is left for the caller to report).
/// `memo` carries what earlier rounds of the same scan found in the files they read.
pub fn wanted(
    files: &[Candidate],
    parsed: &[&FileFacts],
    deferred: &[Deferred],
    packages: Packages,
    memo: &mut Memo,
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
    // Set lookups, not comparisons with every parsed file: a candidate is near when
    // its folder holds a parsed file's folder or sits inside one, or when a parsed
    // file imports it (its path, or its folder's, ends with an import hint).
    let mut parsed_dirs: HashSet<(Language, &str)> = HashSet::default();
    let mut holding: HashSet<(Language, &str)> = HashSet::default();
    for f in parsed {
        let family = family(f.language);
        let mut dir = dir_of(&f.path);
        parsed_dirs.insert((family, dir));
        loop {
            holding.insert((family, dir));
            if dir.is_empty() {
                break;
            }
            dir = dir_of(dir);
        }
    }
    let hints: HashSet<&str> = parsed
        .iter()
        .flat_map(|f| f.imports.iter().map(|i| i.strip_prefix(crate::lower::PATH_ALIAS).unwrap_or(i)))
        .collect();
    // Go's packages of one module call each other through interfaces, which need no
    // import of the implementation (a transport holding a `Handler` interface field):
    // a file of a module with a parsed file that declares an interface is near it.
    let go_modules: HashSet<&str> = parsed
        .iter()
        .filter(|f| f.language == Language::Go)
        .filter_map(|f| innermost(packages.go, &f.path))
        .collect();
    let near = |c: &Candidate| {
        let dir = dir_of(&c.display);
        let stem = c.display.rsplit_once('.').map(|(s, _)| s).unwrap_or(&c.display);
        let family = family(c.language);
        holding.contains(&(family, dir))
            || ancestors(dir).any(|d| parsed_dirs.contains(&(family, d)))
            || suffixes(stem).chain(suffixes(dir)).any(|s| hints.contains(s))
    };
    let same_go_module = |c: &Candidate| {
        c.language == Language::Go
            && innermost(packages.go, &c.display).is_some_and(|m| go_modules.contains(m))
    };
    let name_ids: HashSet<u32> = names.iter().map(|n| memo.names.intern(n)).collect();
    // A file elsewhere that imports a parsed module (an example app's route, a
    // command that runs the server) is read for its import spelling.
    let modules = module_spellings(parsed, packages);
    let module_ids: HashSet<u32> = modules.iter().map(|m| memo.spellings.intern(m)).collect();
    // A file in an unrelated folder is read only when it holds a weak marker (an
    // app using an MCP package names it), and must name a parsed module first.
    let importing = !modules.is_empty();
    use rayon::prelude::*;
    let candidates: Vec<Deferred> = deferred
        .par_iter()
        .copied()
        .filter(|d| near(&files[d.index]) || same_go_module(&files[d.index]) || (d.weak && importing))
        .collect();
    let starts = |upto: fn(&Seen) -> u32| {
        let memo = &*memo;
        candidates.iter().map(move |d| memo.files.get(&d.index).map_or(0, upto))
    };
    let Some(word_searchers) =
        Searchers::build(&memo.names, starts(|s| s.names_upto), aho_corasick::MatchKind::LeftmostLongest)
    else {
        return Vec::new();
    };
    let spelling_searchers = if importing {
        Searchers::build(&memo.spellings, starts(|s| s.spellings_upto), aho_corasick::MatchKind::Standard)
    } else {
        None
    };
    let judged: Vec<(usize, Option<Seen>, bool)> = candidates
        .par_iter()
        .map(|d| {
            let c = &files[d.index];
            let mut seen = memo.files.get(&d.index).cloned().unwrap_or_default();
            // Read at most once, and only when something must be looked for.
            let mut slot: Option<Vec<u8>> = None;
            let mut decide = || -> Option<bool> {
                let mut text = || -> Option<Vec<u8>> { read(d.index) };
                // The whole-word search first: it is the cheaper one, and most files
                // hold none of the names.
                if seen.names_upto < word_searchers.len {
                    let searcher = &word_searchers.by_start[&seen.names_upto];
                    let from = seen.names_upto;
                    seen.names.extend(words_held(searcher, loaded(&mut slot, &mut text)?).map(|i| from + i));
                    seen.names_upto = word_searchers.len;
                }
                if !seen.names.iter().any(|id| name_ids.contains(id)) {
                    return Some(false);
                }
                if near(c) {
                    return Some(true);
                }
                if same_go_module(c) {
                    if seen.interface.is_none() {
                        seen.interface = Some(declares_interface(loaded(&mut slot, &mut text)?));
                    }
                    if seen.interface == Some(true) {
                        return Some(true);
                    }
                }
                let Some(spelling_searchers) = &spelling_searchers else {
                    return Some(false);
                };
                if seen.spellings_upto < spelling_searchers.len {
                    let searcher = &spelling_searchers.by_start[&seen.spellings_upto];
                    let from = seen.spellings_upto;
                    seen.spellings
                        .extend(spellings_held(searcher, loaded(&mut slot, &mut text)?).map(|i| from + i));
                    seen.spellings_upto = spelling_searchers.len;
                }
                Some(seen.spellings.iter().any(|id| module_ids.contains(id)))
            };
            match decide() {
                Some(wanted) => (d.index, Some(seen), wanted),
                // Unreadable now: not parsed, and nothing learnt.
                None => (d.index, None, false),
            }
        })
        .collect();
    let mut out = Vec::new();
    for (index, seen, wanted) in judged {
        if let Some(seen) = seen {
            memo.files.insert(index, seen);
        }
        if wanted {
            out.push(index);
        }
    }
    out
}

/// The text in `slot`, read into it the first time.
fn loaded<'s>(slot: &'s mut Option<Vec<u8>>, read: &mut impl FnMut() -> Option<Vec<u8>>) -> Option<&'s [u8]> {
    if slot.is_none() {
        *slot = Some(read()?);
    }
    slot.as_deref()
}

/// Whether Go source declares an interface type (`interface {`, as gofmt writes it).
fn declares_interface(text: &[u8]) -> bool {
    text.windows(11).any(|w| w == b"interface {")
}

/// Folder names too common to name a module by.
const COMMON_DIRS: &[&str] = &[
    "src", "lib", "app", "core", "utils", "util", "server", "servers", "internal", "pkg", "cmd", "python",
    "mcp",
];

/// How other files import the parsed modules: Python's dotted module paths
/// (`pkg.core`), package names and any import of the file's top-level package,
/// JavaScript's relative paths (`src/handler`),
/// Go's import path tails (`pkg/mcp`) and any import of the parsed file's own module
/// (`"example.com/app/`: a command that imports the module's packages may reach the
/// dispatcher through one of them), PHP's namespaced class names (`Rpc\\Dispatcher`).
/// `packages` are the `go.mod` and `Cargo.toml` files found: (folder, name).
fn module_spellings(parsed: &[&FileFacts], packages: Packages) -> Vec<String> {
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
                // Any import of the file's top-level package (`from acme.app import App`):
                // a script using the package may reach the dispatcher through it.
                for top in crate::model::python_packages(&f.path).filter(|d| !COMMON_DIRS.contains(d)) {
                    out.insert(format!("from {top}."));
                    out.insert(format!("from {top} import"));
                    out.insert(format!("import {top}."));
                }
            }
            // `import { Handler } from "../src/handler"`; `from "../services"`: the
            // folder, through the index that re-exports its files.
            Language::TypeScript | Language::JavaScript if parts.len() >= 2 => {
                out.insert(parts[parts.len() - 2..].join("/"));
                let folder = parts[parts.len() - 2];
                out.insert(format!("/{folder}'"));
                out.insert(format!("/{folder}\""));
            }
            Language::Go => {
                if let Some(module) = innermost(packages.go, &f.path) {
                    out.insert(format!("\"{module}/"));
                }
                let dirs = &parts[..parts.len().saturating_sub(1)];
                if dirs.len() >= 2 {
                    out.insert(dirs[dirs.len() - 2..].join("/"));
                } else if let [only] = dirs {
                    // A package at the module's root: `"example.com/app/server"` ends
                    // with `/server"`.
                    out.insert(format!("/{only}\""));
                }
            }
            // `shelf_rpc::answer(..)`, `use shelf_rpc::..`: the crate holding the file,
            // by its name as Rust code spells it.
            Language::Rust => {
                if let Some(name) = innermost(packages.rust, &f.path) {
                    out.insert(format!("{}::", name.replace('-', "_")));
                }
            }
            // `use App\Rpc\Dispatcher;` (PSR-4: the class's folder and file name).
            Language::Php if parts.len() >= 2 => {
                out.insert(parts[parts.len() - 2..].join("\\"));
            }
            _ => {}
        }
    }
    let mut out: Vec<String> = out.into_iter().collect();
    out.sort();
    out
}

/// Marks the files of a copy of an MCP SDK kept in the repository as its own Go
/// module (a `go.mod` naming `github.com/mark3labs/mcp-go`) or Rust crate (a
/// `Cargo.toml` naming `rmcp`): the SDK's code, as a PHP file declaring the SDK's
/// namespace is (see `FileFacts::sdk_library`), never a server of the repository's.
pub fn mark_sdk_packages(files: &mut [FileFacts], packages: &Packages) {
    for f in files.iter_mut().filter(|f| f.sdk_library.is_none()) {
        let sdk = match f.language {
            Language::Go => innermost(packages.go, &f.path)
                .and_then(|module| crate::lower::sdk_for_import(Language::Go, module)),
            Language::Rust => innermost(packages.rust, &f.path)
                .and_then(|name| crate::lower::sdk_for_import(Language::Rust, &name.replace('-', "_"))),
            _ => None,
        };
        if let Some(sdk) = sdk {
            f.sdk_library = Some(sdk.to_string());
        }
    }
}

/// The name of the innermost package (a `go.mod` module, a `Cargo.toml` crate) whose
/// folder holds the file at `path`.
fn innermost<'p>(packages: &'p [(String, String)], path: &str) -> Option<&'p str> {
    let inside = |folder: &str| {
        folder.is_empty() || path.strip_prefix(folder).is_some_and(|rest| rest.starts_with('/'))
    };
    packages
        .iter()
        .filter(|(folder, _)| inside(folder))
        .max_by_key(|(folder, _)| folder.len())
        .map(|(_, name)| name.as_str())
}

/// A folder and the folders above it, up to the root (`""`).
fn ancestors(dir: &str) -> impl Iterator<Item = &str> {
    let mut next = Some(dir);
    std::iter::from_fn(move || {
        let d = next?;
        next = (!d.is_empty()).then(|| dir_of(d));
        Some(d)
    })
}

/// A path and its tails at segment boundaries: `a/b/c`, `b/c`, `c`.
fn suffixes(path: &str) -> impl Iterator<Item = &str> {
    std::iter::once(path)
        .chain(path.match_indices('/').map(move |(i, _)| &path[i + 1..]))
        .filter(|s| !s.is_empty())
}

/// The searcher's patterns (names made of word characters only) that the text
/// holds as whole words, by pattern index, each once. A match cannot span the
/// non-word character that starts a whole-word occurrence, so leftmost-longest
/// matching finds every one.
fn words_held<'t>(searcher: &'t AhoCorasick, text: &'t [u8]) -> impl Iterator<Item = u32> + 't {
    let word = |b: u8| b.is_ascii_alphanumeric() || b == b'_' || b == b'$';
    let mut found: HashSet<u32> = HashSet::default();
    searcher
        .find_iter(text)
        .filter(move |m| {
            let before = m.start().checked_sub(1).map(|i| text[i]);
            let after = text.get(m.end()).copied();
            !before.is_some_and(word) && !after.is_some_and(word)
        })
        .map(|m| m.pattern().as_u32())
        .filter(move |p| found.insert(*p))
}

/// The searcher's patterns (module spellings, which may hold `.` or `/`) that the
/// text holds as whole words, by pattern index, each once: every overlapping match
/// is tried.
fn spellings_held<'t>(searcher: &'t AhoCorasick, text: &'t [u8]) -> impl Iterator<Item = u32> + 't {
    let word = |b: u8| b.is_ascii_alphanumeric() || b == b'_' || b == b'$';
    let mut found: HashSet<u32> = HashSet::default();
    // A spelling that starts or ends with punctuation (`/server"`) is bounded by it.
    searcher
        .find_overlapping_iter(text)
        .filter(move |m| {
            let before = m.start().checked_sub(1).map(|i| text[i]).filter(|_| word(text[m.start()]));
            let after = text.get(m.end()).copied().filter(|_| word(text[m.end() - 1]));
            !before.is_some_and(word) && !after.is_some_and(word)
        })
        .map(|m| m.pattern().as_u32())
        .filter(move |p| found.insert(*p))
}

/// Names the strong files define (functions, classes: what a transport calls) and
/// names any parsed file calls without a parsed file defining them (helpers). A
/// file parsed for a name adds what it calls, not what it defines: its own
/// definitions are needed by no one yet, and following them would pull in every
/// file that happens to share a name.
fn needed_names(parsed: &[&FileFacts]) -> Vec<String> {
    let mut defined: HashSet<&str> = HashSet::default();
    let mut wanted_defined: HashSet<&str> = HashSet::default();
    for f in parsed {
        let strong = crate::prefilter::evidence(f.source.as_bytes()) == crate::prefilter::Evidence::Strong;
        for function in &f.functions {
            defined.insert(function.name.as_str());
            if strong {
                wanted_defined.insert(function.name.as_str());
            }
            if let Some(owner) = &function.owner {
                defined.insert(owner.as_str());
                if strong {
                    wanted_defined.insert(owner.as_str());
                }
            }
        }
    }
    let mut names: HashSet<String> = HashSet::default();
    for f in parsed {
        for function in &f.functions {
            walk_block(&function.body, &mut |e| {
                let called = match e {
                    Expr::Call { callee, .. } => {
                        // `InitParams::from(..)`: the class is a name too (its method may
                        // be too common a word to look for).
                        if let Some((class, _)) = callee.rsplit_once('.')
                            && class.starts_with(|c: char| c.is_ascii_uppercase())
                            && !defined.contains(class)
                        {
                            names.insert(class.to_string());
                        }
                        crate::lower::last_segment(callee)
                    }
                    Expr::FnRef(name) => crate::lower::last_segment(name),
                    // `MessageType::NOTIFICATION`, `Method.Ping`: a constant of a class or
                    // enum declared elsewhere; the class is the name to look for.
                    Expr::Var(name) => {
                        if let Some((class, _)) = name.split_once('.')
                            && class.starts_with(|c: char| c.is_ascii_uppercase())
                            && !defined.contains(class)
                        {
                            names.insert(class.to_string());
                        }
                        return;
                    }
                    _ => return,
                };
                if !defined.contains(called) {
                    names.insert(called.to_string());
                }
            });
        }
    }
    names.extend(wanted_defined.iter().map(|n| n.to_string()));
    let mut names: Vec<String> = names
        .into_iter()
        // A weak marker word (`initialize`) is in every weak file by definition: it
        // cannot say that one of them is related.
        .filter(|n| {
            n.len() >= 4
                && !crate::lower::is_anonymous(n)
                && !n.starts_with('<')
                && !COMMON.contains(&n.as_str())
                && !crate::prefilter::WEAK.contains(&n.as_str())
        })
        .filter(|n| n.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_'))
        .collect();
    names.sort();
    names
}
