//! Discovery: which files to scan, walked in parallel with the `ignore` crate.

use crate::model::Language;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// Folders never entered unless named on the command line.
const SKIPPED_DIRS: &[&str] =
    &["node_modules", "target", "vendor", ".venv", "venv", "dist", "build", "__pycache__"];

/// A file to scan. A tree of 200,000 files keeps 200,000 of these until its report
/// is written: the path to read is rebuilt from the root and the name shown, and kept
/// apart only when that would not name the file (a name that is not UTF-8).
#[derive(Debug, Clone)]
pub struct Candidate {
    /// The path shown in reports: relative to the scan root, `/`-separated.
    pub display: Box<str>,
    own_path: Option<Box<Path>>,
    pub language: Language,
    pub size: u64,
}

impl Candidate {
    /// The path to read the file by.
    pub fn path(&self, root: &Path) -> std::borrow::Cow<'_, Path> {
        match &self.own_path {
            Some(p) => std::borrow::Cow::Borrowed(p),
            None => std::borrow::Cow::Owned(root.join(&*self.display)),
        }
    }
}

/// A file that was seen but not scanned, and why.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Skipped {
    pub display: String,
    pub reason: String,
}

#[derive(Debug, Default)]
pub struct Discovered {
    pub files: Vec<Candidate>,
    pub skipped: Vec<Skipped>,
    /// Go modules: the folder of each `go.mod` (relative to the root) and the
    /// module path it declares, by which the module's packages import each other.
    pub go_modules: Vec<(String, String)>,
    /// Rust crates: the folder of each `Cargo.toml` with a `[package]` and the name
    /// other crates of the workspace `use` it by (`kami-protocol` is `kami_protocol`).
    pub rust_crates: Vec<(String, String)>,
}

pub struct Options<'a> {
    pub max_file_size: u64,
    /// The configuration's `exclude` globs.
    pub exclude: Option<&'a ignore::gitignore::Gitignore>,
}

/// Whether the configuration excludes this path (or a folder above it).
fn excluded(exclude: Option<&ignore::gitignore::Gitignore>, path: &Path, is_dir: bool) -> bool {
    let Some(matcher) = exclude else { return false };
    let abs = crate::settings::absolute(path);
    abs.starts_with(matcher.path()) && matcher.matched_path_or_any_parents(&abs, is_dir).is_ignore()
}

/// The language of a file found in a folder: by its extension, or for a script
/// without one, by the interpreter its first line names.
fn language_found(path: &Path) -> Option<Language> {
    language_of(path).or_else(|| script_language(path))
}

/// A script without an extension whose first line names its interpreter
/// (`#!/usr/bin/env node`, `#!/usr/bin/python3`): a command installed as
/// `bin/server`. Only the first 128 bytes are read.
fn script_language(path: &Path) -> Option<Language> {
    use std::io::Read;
    let name = path.file_name()?.to_str()?;
    if name.contains('.') {
        return None;
    }
    let mut head = [0u8; 128];
    let n = std::fs::File::open(path).ok()?.read(&mut head).ok()?;
    interpreter_language(&head[..n])
}

/// The language a `#!` line's interpreter runs (`env`'s program, past its flags).
fn interpreter_language(head: &[u8]) -> Option<Language> {
    let line = head.split(|b| *b == b'\n').next()?;
    let line = std::str::from_utf8(line).ok()?.strip_prefix("#!")?;
    let mut words = line.split_whitespace();
    let mut program = words.next()?.rsplit('/').next()?;
    if program == "env" {
        program = words.find(|w| !w.starts_with('-'))?;
    }
    match program {
        "node" | "nodejs" | "bun" => Some(Language::JavaScript),
        "deno" | "ts-node" | "tsx" => Some(Language::TypeScript),
        p if p.starts_with("python") => Some(Language::Python),
        p if p.starts_with("php") => Some(Language::Php),
        _ => None,
    }
}

pub fn language_of(path: &Path) -> Option<Language> {
    match path.extension()?.to_str()? {
        "py" | "pyi" => Some(Language::Python),
        "rs" => Some(Language::Rust),
        "ts" | "tsx" | "mts" | "cts" => Some(Language::TypeScript),
        "js" | "jsx" | "mjs" | "cjs" => Some(Language::JavaScript),
        "go" => Some(Language::Go),
        "php" => Some(Language::Php),
        _ => None,
    }
}

/// Test code: it drives the server with fake messages and builds mock servers,
/// so it is not read (files named on the command line still are).
pub fn is_test_path(display: &str) -> bool {
    let name = display.rsplit('/').next().unwrap_or(display);
    display.split('/').any(|c| matches!(c, "tests" | "test" | "__tests__" | "testdata"))
        || name.starts_with("test_")
        || name.ends_with("_test.go")
        || name.ends_with("_test.py")
        // pytest-spec and mamba name test modules `*_spec.py`.
        || name.ends_with("_spec.py")
        // `.test.` or `.spec.` in the name (`str::contains` would set up a searcher
        // per call, for every file of the tree).
        || name.match_indices('.').any(|(i, _)| {
            let rest = &name[i + 1..];
            rest.starts_with("test.") || rest.starts_with("spec.")
        })
}

/// The path as reports show it.
pub fn display_path(path: &Path, root: &Path) -> String {
    plain_tail(path, root).map_or_else(|| display_by_components(path, root), str::to_string)
}

/// The common case without parsing components (which cost a few thousand
/// instructions per file): on Unix, a path that is the root, a `/` and a tail
/// already in the form `display_by_components` gives, the tail.
#[cfg(unix)]
fn plain_tail<'p>(path: &'p Path, root: &Path) -> Option<&'p str> {
    use std::os::unix::ffi::OsStrExt;
    let tail = path.as_os_str().as_bytes().strip_prefix(root.as_os_str().as_bytes())?.strip_prefix(b"/")?;
    let tail = std::str::from_utf8(tail).ok()?;
    let plain = !tail.is_empty()
        && tail != "."
        && !tail.starts_with('/')
        && !tail.starts_with("./")
        && !tail.ends_with('/')
        && !tail.ends_with("/.")
        && !tail.contains("//")
        && !tail.contains("/./");
    plain.then_some(tail)
}

#[cfg(not(unix))]
fn plain_tail<'p>(_: &'p Path, _: &Path) -> Option<&'p str> {
    None
}

fn display_by_components(path: &Path, root: &Path) -> String {
    let rel = path.strip_prefix(root).unwrap_or(path);
    let rel = rel.strip_prefix(".").unwrap_or(rel);
    // A path outside the root keeps its own form (`/tmp/x/server.ts`, not `//tmp/...`).
    if rel.has_root() {
        return rel.to_string_lossy().replace('\\', "/");
    }
    let mut out = String::new();
    for c in rel.components() {
        if !out.is_empty() {
            out.push('/');
        }
        out.push_str(&c.as_os_str().to_string_lossy());
    }
    if out.is_empty() {
        path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default()
    } else {
        out
    }
}

/// Walks the given paths. Errors name a path that does not exist.
pub fn discover(paths: &[PathBuf], root: &Path, opts: &Options) -> Result<Discovered, String> {
    let out = Mutex::new(Discovered::default());
    let mut dirs = Vec::new();
    for p in paths {
        let meta =
            std::fs::metadata(p).map_err(|e| format!("cannot read `{}`: {}", p.display(), plain_io(&e)))?;
        if meta.is_dir() {
            dirs.push(p.clone());
        } else if !excluded(opts.exclude, p, false) {
            // A file named on the command line is scanned, unless the configuration excludes it.
            let mut d = out.lock().unwrap_or_else(|e| e.into_inner());
            let language = if meta.is_file() { language_found(p) } else { language_of(p) };
            consider(p, language, display_path(p, root), root, meta.len(), meta.is_file(), opts, &mut d);
        }
    }
    if let Some((first, rest)) = dirs.split_first() {
        let exclude = opts.exclude.cloned();
        let mut builder = ignore::WalkBuilder::new(first);
        for d in rest {
            builder.add(d);
        }
        builder
            .hidden(true)
            .git_ignore(true)
            .git_exclude(true)
            .git_global(false)
            .require_git(false)
            .ignore(true)
            .parents(true)
            .follow_links(false)
            .filter_entry(move |e| {
                let is_dir = e.file_type().is_some_and(|t| t.is_dir());
                let skipped = is_dir
                    && e.depth() > 0
                    && SKIPPED_DIRS.contains(&e.file_name().to_string_lossy().as_ref());
                let ignored = e.depth() > 0 && excluded(exclude.as_ref(), e.path(), is_dir);
                !(skipped || ignored)
            });
        builder.build_parallel().run(|| {
            // Each walker thread fills its own batch, merged when the thread is done:
            // no lock taken per file.
            let mut batch = Batch { found: Discovered::default(), into: &out };
            Box::new(move |entry| {
                let d = &mut batch.found;
                let entry = match entry {
                    Ok(e) => e,
                    Err(err) => {
                        // An unreadable folder or a broken entry: say so, and walk on.
                        let display =
                            walk_error_path(&err).map(|p| display_path(p, root)).unwrap_or_default();
                        d.skipped.push(Skipped {
                            display,
                            reason: format!("cannot read: {}", walk_error_text(&err)),
                        });
                        return ignore::WalkState::Continue;
                    }
                };
                let Some(ft) = entry.file_type() else {
                    return ignore::WalkState::Continue;
                };
                // Package manifests: the folder they sit in and the name code imports it by.
                if ft.is_file() {
                    let manifest = match entry.file_name().to_str() {
                        Some("go.mod") => go_module_path(entry.path()).map(|m| (true, m)),
                        Some("Cargo.toml") => cargo_package_name(entry.path()).map(|n| (false, n)),
                        _ => None,
                    };
                    if let Some((go, name)) = manifest {
                        let folder = display_path(entry.path(), root);
                        let folder = folder.rsplit_once('/').map(|(f, _)| f.to_string()).unwrap_or_default();
                        if go { &mut d.go_modules } else { &mut d.rust_crates }.push((folder, name));
                        return ignore::WalkState::Continue;
                    }
                }
                if ft.is_dir() {
                    return ignore::WalkState::Continue;
                }
                let language =
                    if ft.is_file() { language_found(entry.path()) } else { language_of(entry.path()) };
                if language.is_none() {
                    return ignore::WalkState::Continue;
                }
                let display = display_path(entry.path(), root);
                if ft.is_symlink() {
                    d.skipped.push(Skipped { display, reason: "symbolic link: not followed".into() });
                } else if !is_test_path(&display) {
                    // The size cap is applied while reading: no stat per file here.
                    consider(entry.path(), language, display, root, 0, ft.is_file(), opts, d);
                }
                ignore::WalkState::Continue
            })
        });
    }
    let mut d = out.into_inner().unwrap_or_else(|e| e.into_inner());
    d.files.sort_by(|a, b| a.display.cmp(&b.display));
    d.files.dedup_by(|a, b| a.display == b.display);
    d.files.shrink_to_fit();
    d.skipped.sort();
    d.skipped.dedup();
    d.go_modules.sort();
    d.go_modules.dedup();
    d.rust_crates.sort();
    d.rust_crates.dedup();
    Ok(d)
}

/// The module path a `go.mod` declares (`module github.com/acme/tool`), read from
/// at most its first 64 KiB.
fn go_module_path(path: &Path) -> Option<String> {
    use std::io::Read;
    let mut text = String::new();
    std::fs::File::open(path).ok()?.take(64 * 1024).read_to_string(&mut text).ok()?;
    text.lines().find_map(|line| {
        let rest = line.trim().strip_prefix("module")?;
        let module = rest.split("//").next()?.trim().trim_matches('"');
        (!module.is_empty() && rest.starts_with([' ', '\t'])).then(|| module.to_string())
    })
}

/// The name a `Cargo.toml`'s `[package]` gives its library, as code spells it in
/// paths (`-` is `_`; a `[lib] name` wins), read from at most its first 256 KiB.
fn cargo_package_name(path: &Path) -> Option<String> {
    use std::io::Read;
    let mut text = String::new();
    std::fs::File::open(path).ok()?.take(256 * 1024).read_to_string(&mut text).ok()?;
    let manifest: toml::Table = text.parse().ok()?;
    let name_in = |section: &str| manifest.get(section)?.get("name")?.as_str().map(str::to_string);
    let name = name_in("lib").or_else(|| name_in("package"))?;
    Some(name.replace('-', "_"))
}

#[allow(clippy::too_many_arguments)]
fn consider(
    path: &Path,
    language: Option<Language>,
    display: String,
    root: &Path,
    size: u64,
    regular: bool,
    opts: &Options,
    d: &mut Discovered,
) {
    let Some(language) = language else {
        d.skipped.push(Skipped {
            display,
            reason: "not a supported source file (.py, .rs, .ts, .tsx, .js, .jsx, .mjs, .cjs, .go, .php, \
                     or a script whose #! line runs node, deno, python or php)"
                .into(),
        });
        return;
    };
    if !regular {
        d.skipped.push(Skipped { display, reason: "not a regular file".into() });
    } else if size > opts.max_file_size {
        d.skipped.push(Skipped {
            display,
            reason: format!("{} bytes, over the {}-byte size cap", size, opts.max_file_size),
        });
    } else {
        let rebuilt = root.join(&display);
        let same = rebuilt == path || rebuilt.strip_prefix(".").is_ok_and(|r| r == path);
        let own_path = (!same).then(|| path.into());
        d.files.push(Candidate { display: display.into_boxed_str(), own_path, language, size });
    }
}

/// One walker thread's findings, added to the shared ones when the thread drops it.
struct Batch<'a> {
    found: Discovered,
    into: &'a Mutex<Discovered>,
}

impl Drop for Batch<'_> {
    fn drop(&mut self) {
        let mut d = self.into.lock().unwrap_or_else(|e| e.into_inner());
        d.files.append(&mut self.found.files);
        d.skipped.append(&mut self.found.skipped);
        d.go_modules.append(&mut self.found.go_modules);
        d.rust_crates.append(&mut self.found.rust_crates);
    }
}

/// An I/O error as a lower-case phrase without the OS error number.
pub use crate::settings::plain_io;

/// The path an error of the walker is about, when it names one.
fn walk_error_path(err: &ignore::Error) -> Option<&Path> {
    match err {
        ignore::Error::WithPath { path, .. } => Some(path),
        ignore::Error::WithDepth { err, .. } | ignore::Error::WithLineNumber { err, .. } => {
            walk_error_path(err)
        }
        ignore::Error::Loop { child, .. } => Some(child),
        _ => None,
    }
}

/// The walker's error as a phrase, without the path it is about.
fn walk_error_text(err: &ignore::Error) -> String {
    match err {
        ignore::Error::WithPath { err, .. }
        | ignore::Error::WithDepth { err, .. }
        | ignore::Error::WithLineNumber { err, .. } => walk_error_text(err),
        ignore::Error::Io(e) => plain_io(e),
        ignore::Error::Loop { .. } => "a symbolic link loop".into(),
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_plain_tail_is_what_the_components_give() {
        use super::{display_by_components, display_path};
        use std::path::Path;
        let cases = [
            ("/tmp/x", "/tmp/x/a.py"),
            ("/tmp/x", "/tmp/x/pkg/mod/a.py"),
            ("/tmp/x", "/tmp/xy/a.py"),
            ("/tmp/x/", "/tmp/x/a.py"),
            ("/tmp/x", "/tmp/x//a.py"),
            ("/tmp/x", "/tmp/x/./a.py"),
            ("/tmp/x", "/tmp/x/b/./a.py"),
            ("/tmp/x", "/tmp/x/b//a.py"),
            ("/tmp/x", "/tmp/x/b/"),
            ("/tmp/x", "/tmp/x/b/."),
            ("/tmp/x", "/tmp/x/."),
            ("/tmp/x", "/tmp/x"),
            ("/tmp/x", "/elsewhere/a.py"),
            (".", "./a/b.py"),
            (".", "a/b.py"),
            (".", "./a.py"),
            ("src", "src/a b/c\\d.ts"),
            ("src", "src/../a.ts"),
            ("/r", "/r/é/ü.go"),
        ];
        for (root, path) in cases {
            let (root, path) = (Path::new(root), Path::new(path));
            assert_eq!(
                display_path(path, root),
                display_by_components(path, root),
                "{path:?} under {root:?}"
            );
        }
        assert_eq!(display_path(Path::new("/tmp/x/pkg/a.py"), Path::new("/tmp/x")), "pkg/a.py");
    }

    #[test]
    fn a_scripts_first_line_names_its_language() {
        assert_eq!(interpreter_language(b"#!/usr/bin/env node\nconst a = 1"), Some(Language::JavaScript));
        assert_eq!(interpreter_language(b"#!/usr/bin/env -S deno run -A\n"), Some(Language::TypeScript));
        assert_eq!(interpreter_language(b"#!/usr/bin/python3.12\nimport sys"), Some(Language::Python));
        assert_eq!(interpreter_language(b"#!/usr/local/bin/php\n<?php"), Some(Language::Php));
        assert_eq!(interpreter_language(b"#!/bin/sh\necho notifications/initialized"), None);
        assert_eq!(interpreter_language(b"#!/usr/bin/env bash\n"), None);
        assert_eq!(interpreter_language(b"MIT License\n"), None);
        assert_eq!(interpreter_language(b""), None);
    }

    use super::{Language, interpreter_language, is_test_path};

    #[test]
    fn test_code_is_recognised_by_its_name_and_folder() {
        for test in [
            "tests/server.py",
            "pkg/test_server.py",
            "pkg/server_test.py",
            "pkg/server_spec.py",
            "a/b_test.go",
            "src/x.spec.ts",
            "src/x.test.mjs",
            "src/a.b.test.d.ts",
            "src/..spec.js",
            "src/__tests__/x.js",
        ] {
            assert!(is_test_path(test), "{test} is test code");
        }
        for code in [
            "pkg/server.py",
            "pkg/spec.py",
            "pkg/mcp_spec_types.py",
            "src/inspector.ts",
            "cmd/testserver/main.go",
            "src/x.test",
            "src/x.testing.ts",
            "src/test.ts",
            "src/latest.spec",
            "src.test.d/x.ts",
        ] {
            assert!(!is_test_path(code), "{code} is not test code");
        }
    }
}
