//! The pipeline, one direction: discover, prefilter, parse, lower, group, check, report.

use crate::check::{CHECKS, CheckDef, Finding, ServerView, Verdict, VerdictKind};
use crate::config::Loaded;
use crate::discover::{self, Candidate, Skipped};
use crate::interp::Program;
use crate::model::{FileFacts, Span};
use crate::report::{
    CheckReport, FindingReport, Location, Report, ServerReport, SkippedFile, Stats, SuppressionReport, Tool,
};
use crate::settings::Knowledge;
use crate::stage::Packages;
use crate::suppress::{FileIgnore, Suppressor};
use crate::{group, lower, parse, prefilter};
use ignore::gitignore::Gitignore;
use rayon::prelude::*;
use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

pub struct ScanOptions {
    pub paths: Vec<PathBuf>,
    pub max_file_size: u64,
    pub parse_budget: Duration,
    /// Checks to run (ids), in catalog order.
    pub checks: Vec<&'static CheckDef>,
    /// What the configuration says about code the scan cannot see.
    pub knowledge: Knowledge,
    /// Files and folders never scanned (the configuration's `exclude`).
    pub exclude: Option<Gitignore>,
    /// The configuration's `per-file-ignores`: each glob's matcher and ids.
    pub per_file_ignores: Vec<(Gitignore, FileIgnore)>,
    /// The configuration file, as reports name it.
    pub config_name: Option<String>,
    /// Report each server's analysis time (`--timings`).
    pub timings: bool,
    /// Time for judging one server, a guard beside the work budget (`MAX_SERVER_STEPS`)
    /// that bounds it in steps; past either the server's unfinished checks skip.
    pub analysis_budget: Duration,
    /// Evaluation steps for judging one server (deterministic, unlike the time guard).
    pub analysis_steps: usize,
    /// Read generated and minified files too (the configuration's `include-generated`).
    pub include_generated: bool,
}

impl ScanOptions {
    pub fn new(paths: Vec<PathBuf>) -> Self {
        ScanOptions {
            paths,
            max_file_size: 2 * 1024 * 1024,
            parse_budget: Duration::from_secs(2),
            checks: CHECKS.iter().collect(),
            knowledge: Knowledge::default(),
            exclude: None,
            per_file_ignores: Vec::new(),
            config_name: None,
            timings: false,
            analysis_budget: Duration::from_millis(1500),
            analysis_steps: crate::interp::MAX_SERVER_STEPS,
            include_generated: false,
        }
    }

    /// Sets what a configuration decides (after checking its ids and globs); the
    /// command line's choices are applied after this.
    pub fn configure(&mut self, loaded: &Loaded) -> Result<(), String> {
        loaded.check_ids()?;
        let c = &loaded.config;
        let name = loaded.name();
        self.checks.retain(|k| {
            let named = |ids: &[String]| ids.iter().any(|id| k.is_named(id));
            c.select.as_deref().is_none_or(named) && !named(&c.ignore)
        });
        if let Some(max) = c.max_file_size {
            self.max_file_size = max;
        }
        let base = loaded.base();
        if !c.exclude.is_empty() {
            let globs: Vec<&str> = c.exclude.iter().map(String::as_str).collect();
            self.exclude = Some(crate::config::matcher(&base, &globs, "exclude", &name)?);
        }
        for (glob, ids) in &c.per_file_ignores {
            let m = crate::config::matcher(&base, &[glob], "per-file-ignores", &name)?;
            self.per_file_ignores.push((m, FileIgnore { glob: glob.clone(), ids: ids.clone() }));
        }
        self.include_generated = c.include_generated;
        self.knowledge = loaded.knowledge();
        self.config_name = loaded.file.as_ref().map(|_| name);
        Ok(())
    }

    /// The per-file ignores that match a file.
    fn ignores_for(&self, path: &Path) -> Vec<FileIgnore> {
        let abs = crate::settings::absolute(path);
        self.per_file_ignores
            .iter()
            .filter(|(m, _)| {
                abs.starts_with(m.path()) && m.matched_path_or_any_parents(&abs, false).is_ignore()
            })
            .map(|(_, rule)| rule.clone())
            .collect()
    }
}

enum FileResult {
    Facts(Box<FileFacts>),
    Skipped(String),
    /// Not parsed (yet): the file holds only weak evidence (`weak`) or none, and is
    /// parsed later only if a strong file needs a name it may define.
    Deferred {
        weak: bool,
    },
}

/// The folder report paths are relative to: the one folder scanned, else the working directory.
fn scan_root(paths: &[PathBuf]) -> PathBuf {
    match paths {
        [one] if one.is_dir() => one.clone(),
        _ => PathBuf::from("."),
    }
}

/// Stack for each worker: lowering and the interpreter recurse (both depth-bounded).
const WORKER_STACK: usize = 64 * 1024 * 1024;

pub fn scan(opts: &ScanOptions) -> Result<Report, String> {
    let started = Instant::now();
    let found = walk(opts)?;
    judge_found(found, opts, started)
}

/// The files a scan would read, and those it will not (discovery alone).
pub fn walk(opts: &ScanOptions) -> Result<discover::Discovered, String> {
    let root = scan_root(&opts.paths);
    discover::discover(
        &opts.paths,
        &root,
        &discover::Options { max_file_size: opts.max_file_size, exclude: opts.exclude.as_ref() },
    )
}

/// Reads, parses and judges discovered files (the rest of [`scan`]). A file that
/// vanished or changed since discovery is reported as skipped with the reason.
pub fn judge_found(
    found: discover::Discovered,
    opts: &ScanOptions,
    started: Instant,
) -> Result<Report, String> {
    let pool = rayon::ThreadPoolBuilder::new()
        .stack_size(WORKER_STACK)
        .build()
        .map_err(|e| format!("cannot start worker threads: {e}"))?;
    Ok(pool.install(|| judge_in_pool(found, opts, started)))
}

fn judge_in_pool(found: discover::Discovered, opts: &ScanOptions, started: Instant) -> Report {
    let root = scan_root(&opts.paths);
    // Strong files first; then, in rounds, the deferred files that hold a name the
    // parsed ones define or call (a transport calling the dispatcher, a helper).
    let mut results: Vec<FileResult> = found
        .files
        .par_iter()
        .enumerate()
        .map_init(Vec::new, |buf, (i, c)| process(i as u32, c, &root, opts, false, buf))
        .collect();
    let mut memo = crate::stage::Memo::default();
    for _ in 0..MAX_ROUNDS {
        let read = |i: usize, buf: &mut Vec<u8>| {
            let c = &found.files[i];
            read_capped(&c.path(&root), c.size, opts.max_file_size, buf).is_ok()
                && buf.len() as u64 <= opts.max_file_size
        };
        let wanted = crate::stage::wanted(
            &found.files,
            &results_facts(&results),
            &deferred(&results),
            Packages { go: &found.go_modules, rust: &found.rust_crates },
            &mut memo,
            read,
        );
        if wanted.is_empty() {
            break;
        }
        let more: Vec<(usize, FileResult)> = wanted
            .par_iter()
            .map_init(Vec::new, |buf, &i| (i, process(i as u32, &found.files[i], &root, opts, true, buf)))
            .collect();
        for (i, r) in more {
            results[i] = match r {
                // Read again, it no longer holds what it did: leave it.
                FileResult::Deferred { .. } => FileResult::Skipped("changed while being scanned".into()),
                other => other,
            };
        }
    }
    // By file index; empty (no allocation per file) when the configuration has none.
    let per_file: Vec<Vec<FileIgnore>> = if opts.per_file_ignores.is_empty() {
        Vec::new()
    } else {
        found.files.iter().map(|c| opts.ignores_for(&c.path(&root))).collect()
    };
    // The names of the files the report can point at (parsed or skipped) move into it;
    // the others are only counted.
    let mut paths: Vec<String> = Vec::with_capacity(found.files.len());
    for (c, r) in found.files.into_iter().zip(&results) {
        paths.push(match r {
            FileResult::Deferred { .. } => String::new(),
            _ => c.display.into(),
        });
    }
    let mut report = report(
        paths,
        results,
        found.skipped,
        Packages { go: &found.go_modules, rust: &found.rust_crates },
        opts,
        &per_file,
        started,
    );
    report.root = root;
    report
}

/// Rounds of parsing deferred files on demand.
const MAX_ROUNDS: usize = 3;

fn results_facts(results: &[FileResult]) -> Vec<&FileFacts> {
    results
        .iter()
        .filter_map(|r| match r {
            FileResult::Facts(f) => Some(f.as_ref()),
            _ => None,
        })
        .collect()
}

fn deferred(results: &[FileResult]) -> Vec<crate::stage::Deferred> {
    results
        .iter()
        .enumerate()
        .filter_map(|(index, r)| match r {
            FileResult::Deferred { weak } => Some(crate::stage::Deferred { index, weak: *weak }),
            _ => None,
        })
        .collect()
}

/// Judges source held in memory as if it were one file named `path` (for fuzzing
/// and embedding); `None` when the name has no supported extension.
pub fn scan_source(path: &str, bytes: &[u8]) -> Option<Report> {
    let language = discover::language_of(Path::new(path))?;
    let started = Instant::now();
    let opts = ScanOptions::new(Vec::new());
    let grammar = parse::Grammar::of(language, Path::new(path));
    // One file alone: weak evidence is enough to parse it.
    let result = match analyse(0, language, grammar, path, bytes, &opts, false) {
        FileResult::Deferred { weak: true } => analyse(0, language, grammar, path, bytes, &opts, true),
        other => other,
    };
    Some(report(
        vec![path.to_string()],
        vec![result],
        Vec::new(),
        Packages { go: &[], rust: &[] },
        &opts,
        &[],
        started,
    ))
}

/// From the files' results to the report: group, judge, summarise.
fn report(
    paths: Vec<String>,
    results: Vec<FileResult>,
    mut skipped: Vec<Skipped>,
    packages: Packages,
    opts: &ScanOptions,
    per_file: &[Vec<FileIgnore>],
    started: Instant,
) -> Report {
    let checks = &opts.checks;
    let mut facts = Vec::new();
    // By file index: where its facts are in `facts`.
    let mut index: Vec<Option<usize>> = Vec::with_capacity(paths.len());
    for (display, r) in paths.iter().zip(results) {
        index.push(None);
        match r {
            FileResult::Facts(f) => {
                *index.last_mut().expect("pushed") = Some(facts.len());
                facts.push(*f);
            }
            FileResult::Skipped(reason) => skipped.push(Skipped { display: display.clone(), reason }),
            FileResult::Deferred { .. } => {}
        }
    }
    crate::stage::mark_sdk_packages(&mut facts, &packages);
    let syntax_errors = facts.iter().filter_map(|f| f.syntax_error.map(|s| location(&paths, s))).collect();
    let files_parsed = facts.len();
    let inline = index
        .iter()
        .enumerate()
        .filter_map(|(file, i)| i.map(|i| (file as u32, facts[i].suppressions.as_slice())))
        .filter(|(_, s)| !s.is_empty())
        .collect();
    let suppressor = Suppressor::new(per_file, inline, opts.config_name.clone());
    let mut prog = Program::new(&facts);
    prog.knowledge = opts.knowledge.clone();
    prog.with_go_modules(packages.go);
    prog.with_rust_crates(packages.rust);
    let servers = group::servers(&prog);
    let judged = |server: &group::Server| {
        let started = Instant::now();
        let mut report =
            judge(&prog, server, &paths, checks, &suppressor, (opts.analysis_budget, opts.analysis_steps))?;
        if !opts.timings {
            report.analysis_steps = None;
        }
        report.analysis_ms = opts.timings.then(|| started.elapsed().as_millis() as u64);
        Some((server.span, server.evidence.beside.clone(), report))
    };
    // In the worker pool servers are judged in parallel; elsewhere on the caller's thread.
    let judged: Vec<(Span, Vec<Span>, ServerReport)> = if rayon::current_thread_index().is_some() {
        servers.par_iter().filter_map(judged).collect()
    } else {
        servers.iter().filter_map(judged).collect()
    };
    // A dispatch without MCP vocabulary stays only beside an MCP server that stayed.
    let kept: Vec<Span> =
        judged.iter().filter(|(_, beside, _)| beside.is_empty()).map(|(s, _, _)| *s).collect();
    let mut reports: Vec<ServerReport> = judged
        .into_iter()
        .filter(|(_, beside, _)| beside.is_empty() || beside.iter().any(|b| kept.contains(b)))
        .map(|(_, _, report)| report)
        .collect();
    reports.sort_by(|a, b| (&a.path, a.line).cmp(&(&b.path, b.line)));
    let run_checks = checks.iter().map(|c| crate::report::summarize(c.id, &reports)).collect();
    let mut skipped_files: Vec<SkippedFile> =
        skipped.into_iter().map(|s| SkippedFile { path: s.display, reason: s.reason }).collect();
    skipped_files.sort();
    let warnings = suppressor.warnings(CHECKS, checks, &paths);
    // The text of the files the report points into (only parsed files can be).
    let parsed: HashMap<&str, &FileFacts> = facts.iter().map(|f| (f.path.as_str(), f)).collect();
    let mut sources = BTreeMap::new();
    for c in reports.iter().flat_map(|s| &s.checks) {
        let places =
            c.findings.iter().chain(&c.related).map(|f| &f.path).chain(c.evidence.iter().map(|e| &e.path));
        for path in places {
            if let Some(f) = parsed.get(path.as_str()) {
                sources.entry(path.clone()).or_insert_with(|| Arc::clone(&f.source));
            }
        }
    }
    Report {
        schema: 1,
        tool: Tool { name: "mcp-conform", version: env!("CARGO_PKG_VERSION") },
        servers: reports,
        checks: run_checks,
        skipped_files,
        syntax_errors,
        warnings,
        stats: Stats {
            files_seen: paths.len(),
            files_parsed,
            elapsed_ms: started.elapsed().as_millis() as u64,
        },
        sources,
        root: PathBuf::from("."),
    }
}

/// Room made for a file of unknown length: most source files are smaller.
const TYPICAL_SOURCE: u64 = 16 * 1024;

/// Reads a file into `buf` (emptied first), at most one byte past the size cap. Room
/// for its length (and one byte more, to see the end) makes the read two system
/// calls instead of a dozen growing ones; `size` is the length seen at discovery, 0
/// when not known. The buffer is the caller's to use again: a scan reads every file
/// once, and a fresh buffer per file cost an allocation and new pages each time.
fn read_capped(path: &Path, size: u64, cap: u64, buf: &mut Vec<u8>) -> std::io::Result<()> {
    use std::io::Read;
    buf.clear();
    let file = std::fs::File::open(path)?;
    // A folder walk does not stat its files, and asking the open file costs a system
    // call per file: room for a typical source file instead (a larger one grows).
    let size = if size > 0 { size } else { TYPICAL_SOURCE };
    let room = size.min(cap).saturating_add(1);
    buf.reserve(usize::try_from(room).unwrap_or(0));
    file.take(cap.saturating_add(1)).read_to_end(buf)?;
    Ok(())
}

/// Reads and analyses one file; `wanted` parses it whatever its evidence (a strong
/// file needs a name it may define).
fn process(
    index: u32,
    c: &Candidate,
    root: &Path,
    opts: &ScanOptions,
    wanted: bool,
    bytes: &mut Vec<u8>,
) -> FileResult {
    if let Err(e) = read_capped(&c.path(root), c.size, opts.max_file_size, bytes) {
        return FileResult::Skipped(format!("cannot read: {}", discover::plain_io(&e)));
    }
    if bytes.len() as u64 > opts.max_file_size {
        return FileResult::Skipped(format!("larger than the {}-byte size cap", opts.max_file_size));
    }
    let grammar = parse::Grammar::of(c.language, Path::new(&*c.display));
    analyse(index, c.language, grammar, &c.display, bytes, opts, wanted)
}

/// Prefilter, parse and lower one file's bytes.
fn analyse(
    index: u32,
    language: crate::model::Language,
    grammar: parse::Grammar,
    display: &str,
    bytes: &[u8],
    opts: &ScanOptions,
    wanted: bool,
) -> FileResult {
    // Cheap tests first; the full UTF-8 check only for files worth parsing.
    let src = match undecorated(bytes) {
        Ok(t) => t,
        Err(reason) => return FileResult::Skipped(reason),
    };
    if !wanted {
        match file_evidence(src, &opts.knowledge) {
            prefilter::Evidence::Strong => {}
            other => return FileResult::Deferred { weak: other == prefilter::Evidence::Weak },
        }
    }
    if !opts.include_generated
        && let Some(reason) = prefilter::machine_made(src)
    {
        return FileResult::Skipped(reason);
    }
    if std::str::from_utf8(src).is_err() {
        return FileResult::Skipped("not valid UTF-8".into());
    }
    let tree = match parse::parse(grammar, src, opts.parse_budget) {
        Ok(t) => t,
        Err(reason) => return FileResult::Skipped(reason),
    };
    match lower::lower(language, display, src, &tree, index, &opts.knowledge) {
        Ok(f) => FileResult::Facts(Box::new(f)),
        Err(lower::LowerError::TooDeep) => {
            FileResult::Skipped(format!("nested more than {} levels deep: not analysed", lower::MAX_DEPTH))
        }
    }
}

/// How much a file's text says it can matter: strong evidence is a marker of MCP
/// dispatch or an SDK, or an SDK module the configuration names.
fn file_evidence(src: &[u8], knowledge: &Knowledge) -> prefilter::Evidence {
    match prefilter::evidence(src) {
        prefilter::Evidence::Weak
            if knowledge.sdk_imports.iter().any(|m| memchr::memmem::find(src, m.as_bytes()).is_some()) =>
        {
            prefilter::Evidence::Strong
        }
        other => other,
    }
}

/// The text of a file without its byte-order mark, or why it is not source text.
fn undecorated(bytes: &[u8]) -> Result<&[u8], String> {
    if bytes.starts_with(&[0xFF, 0xFE]) || bytes.starts_with(&[0xFE, 0xFF]) {
        return Err("UTF-16 text: only UTF-8 source is read".into());
    }
    let text = bytes.strip_prefix(&[0xEF, 0xBB, 0xBF]).unwrap_or(bytes);
    if memchr::memchr(0, &text[..text.len().min(8192)]).is_some() {
        return Err("binary file (contains NUL bytes)".into());
    }
    Ok(text)
}

fn location(paths: &[String], span: Span) -> Location {
    Location {
        path: paths.get(span.file as usize).cloned().unwrap_or_default(),
        line: span.line,
        column: span.column,
        offset: span.start,
    }
}

/// A finding as the report shows it.
fn finding(paths: &[String], f: Finding, suppression: Option<SuppressionReport>) -> FindingReport {
    let l = location(paths, f.span);
    FindingReport {
        path: l.path,
        line: l.line,
        column: l.column,
        message: f.message,
        suppressed: suppression.is_some(),
        suppression,
        bytes: (f.span.start, f.span.end),
    }
}

/// Why a server was taken for an MCP server, in sentences a reader can check.
fn evidence(server: &group::Server, paths: &[String]) -> Vec<String> {
    let at = |span: Span| {
        format!("{}:{}", paths.get(span.file as usize).map(String::as_str).unwrap_or("?"), span.line)
    };
    let mut out = Vec::new();
    if !server.evidence.methods.is_empty() {
        let names: Vec<String> = server.evidence.methods.iter().map(|m| format!("`{m}`")).collect();
        let noun = if names.len() == 1 { "the MCP method" } else { "the MCP methods" };
        out.push(format!(
            "handles {noun} {} ({})",
            names.join(", "),
            at(server.dispatch.unwrap_or(server.span))
        ));
    }
    if let Some(span) = server.evidence.protocol_version {
        out.push(format!("answers with a `protocolVersion` ({})", at(span)));
    }
    if let Some(span) = server.evidence.beside.first() {
        out.push(format!("dispatches next to the MCP server at {}", at(*span)));
    }
    if let Some(sdk) = &server.sdk {
        out.push(format!("imports the MCP SDK {sdk}"));
    }
    out
}

fn judge(
    prog: &Program,
    server: &group::Server,
    paths: &[String],
    checks: &[&'static CheckDef],
    suppressor: &Suppressor,
    budget: (Duration, usize),
) -> Option<ServerReport> {
    let path = paths.get(server.span.file as usize).cloned().unwrap_or_default();
    let view = ServerView::new(prog, server, paths, budget.0).with_steps(budget.1);
    let checks = checks
        .iter()
        .map(|c| {
            let verdict = if server.hand_written {
                view.judge(c)
            } else {
                Verdict::skip(format!("handled by {}", server.sdk.as_deref().unwrap_or("an SDK")))
            };
            let failed = verdict.kind == VerdictKind::Fail;
            let findings: Vec<FindingReport> = verdict
                .findings
                .into_iter()
                .map(|f| {
                    let suppression = if failed { suppressor.suppression(c, f.span) } else { None };
                    finding(paths, f, suppression)
                })
                .collect();
            let suppressed = failed && !findings.is_empty() && findings.iter().all(|f| f.suppressed);
            let related = verdict.related.into_iter().map(|f| finding(paths, f, None)).collect();
            CheckReport {
                id: c.id,
                pattern: c.pattern(),
                verdict: verdict.kind,
                reason: verdict.reason,
                findings,
                suppressed,
                related,
                evidence: verdict.evidence.map(|s| location(paths, s)),
            }
        })
        .collect();
    // A dispatch that no message reaches, and that does not read a message's method
    // itself, routes something else (a client picking what to send, a test driver).
    if server.hand_written && !view.saw_message() && !group::reads_method(prog, server) {
        return None;
    }
    Some(ServerReport {
        id: format!("{}:{}", path, server.span.line),
        language: server.language.name(),
        path,
        line: server.span.line,
        files: server.files.iter().filter_map(|f| paths.get(*f as usize).cloned()).collect(),
        kind: if server.hand_written { "hand-written" } else { "sdk" },
        sdk: server.sdk.clone(),
        transports: server.transports.iter().map(|t| t.name()).collect(),
        dispatch: server.dispatch.map(|span| location(paths, span)),
        evidence: evidence(server, paths),
        checks,
        analysis_ms: None,
        analysis_steps: Some(view.work_used() as u64),
    })
}
