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

/// Searchers over the ids from a starting id to the end, one per start a file needs,
/// each built the first time a file needs it (most files are ruled out before
/// their module spellings are looked for).
struct Searchers<'i, S> {
    by_start: HashMap<u32, std::sync::OnceLock<Option<S>>>,
    len: u32,
    patterns: &'i [String],
    make: fn(&[String]) -> Option<S>,
}

impl<'i, S> Searchers<'i, S> {
    fn new(
        interner: &'i Interner,
        starts: impl Iterator<Item = u32>,
        make: fn(&[String]) -> Option<S>,
    ) -> Self {
        let by_start =
            starts.filter(|&start| start < interner.len()).map(|start| (start, Default::default())).collect();
        Searchers { by_start, len: interner.len(), patterns: &interner.all, make }
    }

    /// The searcher over the ids from `start`; `None` when it cannot be built.
    fn from(&self, start: u32) -> Option<&S> {
        self.by_start.get(&start)?.get_or_init(|| (self.make)(&self.patterns[start as usize..])).as_ref()
    }
}

/// Names made of word characters, looked up word by word: a text's words are its
/// longest runs of word characters, and a name is held as a whole word when one of
/// them is the name. Most words are ruled out by their length, then by a bit
/// table of the names' first two bytes, last byte and length, before any lookup.
struct Words {
    ids: HashMap<Box<[u8]>, u32>,
    /// One bit per `Words::sketch` of a name.
    sketches: Vec<u64>,
    shortest: usize,
    longest: usize,
}

/// The bytes of a word: letters, digits, `_` and `$` (identifiers in the languages read).
const WORD: [bool; 256] = {
    let mut t = [false; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        t[b] = c.is_ascii_alphanumeric() || c == b'_' || c == b'$';
        b += 1;
    }
    t
};

impl Words {
    fn new(names: &[String]) -> Words {
        let mut w =
            Words { ids: HashMap::default(), sketches: vec![0; 1024], shortest: usize::MAX, longest: 0 };
        for (i, name) in names.iter().enumerate() {
            let b = name.as_bytes();
            debug_assert!(b.len() >= 2 && b.iter().all(|&c| WORD[c as usize]), "{name}");
            let sketch = Words::sketch(b);
            w.sketches[sketch / 64] |= 1 << (sketch % 64);
            w.shortest = w.shortest.min(b.len());
            w.longest = w.longest.max(b.len());
            w.ids.entry(b.into()).or_insert(i as u32);
        }
        w
    }

    /// A word's first two bytes, last byte and length, mixed into 16 bits.
    fn sketch(word: &[u8]) -> usize {
        let (first, last) = (word.first().copied().unwrap_or(0), word.last().copied().unwrap_or(0));
        let second = word.get(1).copied().unwrap_or(0);
        let key =
            u32::from(first) | u32::from(second) << 8 | u32::from(last) << 16 | (word.len() as u32) << 24;
        (key.wrapping_mul(0x9E37_79B1) >> 16) as usize
    }

    /// The names the text holds as whole words, by index, each once, in the order
    /// of their first occurrence.
    fn held(&self, text: &[u8]) -> Vec<u32> {
        let mut found = Vec::new();
        let mut once: HashSet<u32> = HashSet::default();
        let mut i = 0;
        while i < text.len() {
            if !WORD[text[i] as usize] {
                i += 1;
                continue;
            }
            let start = i;
            i += 1;
            while i < text.len() && WORD[text[i] as usize] {
                i += 1;
            }
            let word = &text[start..i];
            if word.len() < self.shortest || word.len() > self.longest {
                continue;
            }
            let sketch = Words::sketch(word);
            if self.sketches[sketch / 64] & (1 << (sketch % 64)) != 0
                && let Some(&id) = self.ids.get(word)
                && once.insert(id)
            {
                found.push(id);
            }
        }
        found
    }
}

/// The deferred files to parse now, by index into `files`. `read` puts a file's
/// text into the buffer it is given (`false` when it cannot be read: it is left for
/// the caller to report).
/// `memo` carries what earlier rounds of the same scan found in the files they read.
pub fn wanted(
    files: &[Candidate],
    parsed: &[&FileFacts],
    deferred: &[Deferred],
    packages: Packages,
    memo: &mut Memo,
    read: impl Fn(usize, &mut Vec<u8>) -> bool + Sync,
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
    // What the folder decides, then what the file's own name does.
    let folder_near = |family: Language, dir: &str| {
        holding.contains(&(family, dir))
            || ancestors(dir).any(|d| parsed_dirs.contains(&(family, d)))
            || suffixes(dir).any(|s| hints.contains(s))
    };
    // Every tail of a file's path ends with its name: a name that ends no hint rules
    // out all of them at once.
    let hint_names: HashSet<&str> = hints.iter().map(|h| h.rsplit('/').next().unwrap_or(h)).collect();
    let imported = |c: &Candidate| {
        let stem = c.display.rsplit_once('.').map(|(s, _)| s).unwrap_or(&c.display);
        hint_names.contains(stem.rsplit('/').next().unwrap_or(stem))
            && suffixes(stem).any(|s| hints.contains(s))
    };
    let near = |c: &Candidate| folder_near(family(c.language), dir_of(&c.display)) || imported(c);
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
    // Files come sorted by path, so a folder's files are neighbours: the folder's
    // part of the test is made once for each run of them.
    let candidates: Vec<Deferred> = deferred
        .par_chunks(1024)
        .flat_map_iter(|chunk| {
            let mut last: Option<(Language, &str, bool)> = None;
            chunk.iter().copied().filter(move |d| {
                let c = &files[d.index];
                let (family, dir) = (family(c.language), dir_of(&c.display));
                let folder = match last {
                    Some((f, d, near)) if f == family && d == dir => near,
                    _ => {
                        let near = folder_near(family, dir);
                        last = Some((family, dir, near));
                        near
                    }
                };
                folder || imported(c) || same_go_module(c) || (d.weak && importing)
            })
        })
        .collect();
    let starts = |upto: fn(&Seen) -> u32| {
        let memo = &*memo;
        candidates.iter().map(move |d| memo.files.get(&d.index).map_or(0, upto))
    };
    let word_searchers =
        Searchers::new(&memo.names, starts(|s| s.names_upto), |names| Some(Words::new(names)));
    let spelling_searchers = importing.then(|| {
        Searchers::new(&memo.spellings, starts(|s| s.spellings_upto), |spellings| {
            AhoCorasick::builder()
                .match_kind(aho_corasick::MatchKind::Standard)
                .kind(Some(aho_corasick::AhoCorasickKind::DFA))
                .build(spellings)
                .ok()
        })
    });
    let judged: Vec<(usize, Option<Seen>, bool)> = candidates
        .par_iter()
        .map_init(Vec::new, |buf, d| {
            let c = &files[d.index];
            let mut seen = memo.files.get(&d.index).cloned().unwrap_or_default();
            // Read at most once, and only when something must be looked for.
            let mut read_yet = false;
            let mut decide = || -> Option<bool> {
                let mut text = |buf: &mut Vec<u8>| read(d.index, buf);
                // The whole-word search first: it is the cheaper one, and most files
                // hold none of the names.
                if seen.names_upto < word_searchers.len {
                    let searcher = word_searchers.from(seen.names_upto)?;
                    let from = seen.names_upto;
                    seen.names.extend(
                        searcher.held(loaded(&mut read_yet, buf, &mut text)?).into_iter().map(|i| from + i),
                    );
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
                        seen.interface = Some(declares_interface(loaded(&mut read_yet, buf, &mut text)?));
                    }
                    if seen.interface == Some(true) {
                        return Some(true);
                    }
                }
                let Some(spelling_searchers) = &spelling_searchers else {
                    return Some(false);
                };
                if seen.spellings_upto < spelling_searchers.len {
                    // An automaton too large to build: the file names no module.
                    let Some(searcher) = spelling_searchers.from(seen.spellings_upto) else {
                        return Some(false);
                    };
                    let from = seen.spellings_upto;
                    seen.spellings.extend(
                        spellings_held(searcher, loaded(&mut read_yet, buf, &mut text)?).map(|i| from + i),
                    );
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

/// The text in `buf`, read into it the first time (`None` when it cannot be read).
fn loaded<'b>(
    read_yet: &mut bool,
    buf: &'b mut Vec<u8>,
    read: &mut impl FnMut(&mut Vec<u8>) -> bool,
) -> Option<&'b [u8]> {
    if !*read_yet {
        if !read(buf) {
            return None;
        }
        *read_yet = true;
    }
    Some(buf)
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
            // `use App\Rpc\Dispatcher;` (PSR-4: the class's folder and file name), and
            // `require __DIR__ . '/../src/Dispatcher.php';` (the file by its name).
            Language::Php if parts.len() >= 2 => {
                out.insert(parts[parts.len() - 2..].join("\\"));
                out.insert(format!("/{}.php", parts[parts.len() - 1]));
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

/// The searcher's patterns (module spellings, which may hold `.` or `/`) that the
/// text holds as whole words, by pattern index, each once: every overlapping match
/// is tried.
fn spellings_held<'t>(searcher: &'t AhoCorasick, text: &'t [u8]) -> impl Iterator<Item = u32> + 't {
    let word = |b: u8| WORD[b as usize];
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

#[cfg(test)]
mod tests {
    use super::*;

    /// What the word lookup replaced: an automaton over the names, its matches kept
    /// when no word character is on either side.
    fn by_automaton(names: &[String], text: &[u8]) -> Vec<u32> {
        let searcher = AhoCorasick::builder()
            .match_kind(aho_corasick::MatchKind::LeftmostLongest)
            .build(names)
            .expect("an automaton");
        let word = |b: u8| b.is_ascii_alphanumeric() || b == b'_' || b == b'$';
        let mut found = Vec::new();
        for m in searcher.find_iter(text) {
            let before = m.start().checked_sub(1).map(|i| text[i]);
            let after = text.get(m.end()).copied();
            let id = m.pattern().as_u32();
            if !before.is_some_and(word) && !after.is_some_and(word) && !found.contains(&id) {
                found.push(id);
            }
        }
        found
    }

    fn names(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn a_name_is_held_only_as_a_whole_word() {
        let list = names(&["dispatch", "handle_rpc", "Router", "dispatch_all"]);
        let words = Words::new(&list);
        let held = |text: &str| words.held(text.as_bytes());
        assert_eq!(held("x = dispatch(msg)"), [0]);
        assert_eq!(held("redispatch(msg); dispatcher; $dispatch; dispatch$"), Vec::<u32>::new());
        assert_eq!(held("dispatch_all(); handle_rpc"), [3, 1]);
        assert_eq!(held("new Router() // Router again, dispatch"), [2, 0]);
        // Bytes of other scripts are not word characters, as for the automaton.
        assert_eq!(held("étéRouter"), [2]);
        assert_eq!(held(""), Vec::<u32>::new());
    }

    #[test]
    fn words_find_what_the_automaton_found() {
        // Names that are prefixes and suffixes of each other and share first bytes,
        // in texts made of their pieces and of separators.
        let list =
            names(&["send", "send_reply", "reply", "sendReply", "reply_to", "to_send", "Server", "Serve"]);
        let pieces: &[&str] = &[
            "send", "_reply", "reply", "Reply", "_to", "to_", "Serve", "r", " ", ".", "(", "$", "é", "\n",
            "x",
        ];
        let words = Words::new(&list);
        let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
        for _ in 0..2000 {
            let mut text = String::new();
            for _ in 0..12 {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                text.push_str(pieces[(state % pieces.len() as u64) as usize]);
            }
            let mut expected = by_automaton(&list, text.as_bytes());
            let mut got = words.held(text.as_bytes());
            expected.sort();
            got.sort();
            assert_eq!(got, expected, "{text:?}");
        }
    }
}
