//! The report: what a scan found, independent of how it is printed.

pub mod explain;
pub mod github;
pub mod human;
pub mod json;
pub mod sarif;

use crate::check::VerdictKind;
use serde::Serialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

#[derive(Debug, Serialize)]
pub struct Report {
    pub schema: u32,
    pub tool: Tool,
    pub servers: Vec<ServerReport>,
    pub checks: Vec<RunCheck>,
    pub skipped_files: Vec<SkippedFile>,
    /// Files that parsed with syntax errors: what parsed was still judged.
    pub syntax_errors: Vec<Location>,
    /// Problems with suppression comments (malformed, unknown check, no reason, unused).
    pub warnings: Vec<WarningReport>,
    pub stats: Stats,
    /// The text of every file a finding or evidence points into (for snippets and
    /// UTF-16 columns), by report path.
    #[serde(skip)]
    pub sources: BTreeMap<String, Arc<str>>,
    /// The folder report paths are relative to.
    #[serde(skip)]
    pub root: PathBuf,
}

#[derive(Debug, Serialize)]
pub struct Tool {
    pub name: &'static str,
    pub version: &'static str,
}

#[derive(Debug, Serialize)]
pub struct ServerReport {
    pub id: String,
    pub language: &'static str,
    pub path: String,
    pub line: u32,
    pub files: Vec<String>,
    pub kind: &'static str,
    pub sdk: Option<String>,
    pub transports: Vec<&'static str>,
    /// The first place the code picks a handler by the method name (none for a server an
    /// SDK runs). One dispatch reached by stdio and by HTTP is two servers, located at
    /// their entries, with one dispatch.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dispatch: Option<Location>,
    /// Why this was taken for an MCP server.
    pub evidence: Vec<String>,
    pub checks: Vec<CheckReport>,
    /// Milliseconds spent judging this server (only with `--timings`: it varies run to run).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub analysis_ms: Option<u64>,
    /// Evaluation steps spent judging this server, against the work bound (only with
    /// `--timings`; the same on every run and machine).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub analysis_steps: Option<u64>,
}

#[derive(Debug, Serialize)]
pub struct CheckReport {
    pub id: &'static str,
    pub pattern: &'static str,
    pub verdict: VerdictKind,
    pub reason: String,
    pub findings: Vec<FindingReport>,
    /// A failure whose every finding is suppressed: reported, but it does not fail the run.
    pub suppressed: bool,
    /// For a failure: other places that explain it.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub related: Vec<FindingReport>,
    /// Where a pass was decided.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub evidence: Option<Location>,
}

#[derive(Debug, Clone, Serialize, PartialEq, Eq, PartialOrd, Ord)]
pub struct FindingReport {
    pub path: String,
    pub line: u32,
    pub column: u32,
    pub message: String,
    pub suppressed: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub suppression: Option<SuppressionReport>,
    /// Byte range in the file.
    #[serde(skip)]
    pub bytes: (u32, u32),
}

impl FindingReport {
    /// The finding's byte range in `text`, cut at the end of its first line and
    /// without trailing blanks (what a label or a SARIF region shows); `None` when
    /// the range is not in the text.
    pub fn first_line(&self, text: &str) -> Option<std::ops::Range<usize>> {
        let start = self.bytes.0 as usize;
        if start >= text.len() || !text.is_char_boundary(start) {
            return None;
        }
        let line_end = text[start..].find('\n').map_or(text.len(), |i| start + i);
        let mut end = (self.bytes.1 as usize).clamp(start, line_end);
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        Some(start..start + text[start..end].trim_end().len())
    }
}

/// Why a finding is suppressed.
#[derive(Debug, Clone, Serialize, PartialEq, Eq, PartialOrd, Ord)]
pub struct SuppressionReport {
    /// `inline` or `per-file-ignores`.
    pub kind: &'static str,
    pub reason: String,
    /// The line of the inline comment (0 for `per-file-ignores`).
    #[serde(skip_serializing_if = "is_zero")]
    pub line: u32,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

/// A problem in the scanned code's suppression comments.
#[derive(Debug, Clone, Serialize, PartialEq, Eq, PartialOrd, Ord)]
pub struct WarningReport {
    pub path: String,
    pub line: u32,
    pub column: u32,
    pub message: String,
}

#[derive(Debug, Clone, Serialize, PartialEq, Eq, PartialOrd, Ord)]
pub struct Location {
    pub path: String,
    pub line: u32,
    pub column: u32,
    /// Byte offset in the file.
    #[serde(skip)]
    pub offset: u32,
}

#[derive(Debug, Serialize)]
pub struct RunCheck {
    pub id: &'static str,
    pub verdict: VerdictKind,
    pub reason: String,
}

#[derive(Debug, Serialize, PartialEq, Eq, PartialOrd, Ord)]
pub struct SkippedFile {
    pub path: String,
    pub reason: String,
}

#[derive(Debug, Serialize)]
pub struct Stats {
    pub files_seen: usize,
    pub files_parsed: usize,
    pub elapsed_ms: u64,
}

impl Report {
    /// Whether some check fails and is not suppressed: the run's exit status.
    pub fn failing(&self) -> bool {
        self.checks.iter().any(|c| c.verdict == VerdictKind::Fail)
    }

    /// A report path relative to the working directory (as CI annotations and
    /// SARIF want them), or absolute when the scan root is elsewhere.
    pub fn workspace_path(&self, path: &str) -> String {
        let joined = self.root.join(path);
        let cwd = std::env::current_dir().unwrap_or_default();
        let rel = joined.strip_prefix(&cwd).unwrap_or(&joined);
        normalize(rel)
    }

    /// A server's name for CI logs and code scanning: its workspace path and line.
    pub fn server_name(&self, server: &ServerReport) -> String {
        format!("{}:{}", self.workspace_path(&server.path), server.line)
    }

    /// `3 servers, 2 failing checks, 1 skipped file`.
    pub fn summary(&self) -> String {
        let failing = self.checks.iter().filter(|c| c.verdict == VerdictKind::Fail).count();
        let mut parts = vec![
            count(self.servers.len(), "server", "servers"),
            format!("{failing} failing {}", plural(failing, "check", "checks")),
            format!(
                "{} skipped {}",
                self.skipped_files.len(),
                plural(self.skipped_files.len(), "file", "files")
            ),
        ];
        let suppressed = self
            .servers
            .iter()
            .flat_map(|s| &s.checks)
            .flat_map(|c| &c.findings)
            .filter(|f| f.suppressed)
            .count();
        if suppressed > 0 {
            parts.push(format!("{} suppressed", count(suppressed, "finding", "findings")));
        }
        if !self.warnings.is_empty() {
            parts.push(count(self.warnings.len(), "warning", "warnings"));
        }
        parts.join(", ")
    }
}

/// `a/./b/../c` → `a/c`, `/`-separated.
fn normalize(path: &Path) -> String {
    use std::path::Component;
    let mut parts: Vec<String> = Vec::new();
    let mut absolute = false;
    for c in path.components() {
        match c {
            Component::RootDir => absolute = true,
            Component::CurDir | Component::Prefix(_) => {}
            Component::ParentDir => {
                if parts.last().is_some_and(|p| p != "..") {
                    parts.pop();
                } else {
                    parts.push("..".into());
                }
            }
            Component::Normal(p) => parts.push(p.to_string_lossy().into_owned()),
        }
    }
    let joined = parts.join("/");
    if absolute { format!("/{joined}") } else { joined }
}

/// The whole run's verdict for one check: fail if any server fails, else pass
/// if any passes, else skip.
pub fn summarize(id: &'static str, servers: &[ServerReport]) -> RunCheck {
    let verdicts: Vec<(&ServerReport, &CheckReport)> =
        servers.iter().filter_map(|s| s.checks.iter().find(|c| c.id == id).map(|c| (s, c))).collect();
    let failing = |c: &CheckReport| c.verdict == VerdictKind::Fail && !c.suppressed;
    let fails = verdicts.iter().filter(|(_, c)| failing(c)).count();
    let passes = verdicts.iter().filter(|(_, c)| c.verdict == VerdictKind::Pass).count();
    let suppressed = verdicts.iter().filter(|(_, c)| c.suppressed).count();
    if fails > 0 {
        let names: Vec<&str> =
            verdicts.iter().filter(|(_, c)| failing(c)).map(|(s, _)| s.id.as_str()).collect();
        RunCheck { id, verdict: VerdictKind::Fail, reason: format!("fails on {}", names.join(", ")) }
    } else if passes > 0 || suppressed > 0 {
        let n = verdicts.len();
        let reason = match (passes, suppressed) {
            (p, 0) => format!("passes on {p} of {n} servers"),
            (0, s) => format!("failures suppressed on {s} of {n} servers"),
            (p, s) => format!("passes on {p} of {n} servers, failures suppressed on {s}"),
        };
        RunCheck { id, verdict: VerdictKind::Pass, reason }
    } else {
        let reason =
            verdicts.first().map(|(_, c)| c.reason.clone()).unwrap_or_else(|| "no MCP server found".into());
        RunCheck { id, verdict: VerdictKind::Skip, reason }
    }
}

fn count(n: usize, one: &'static str, many: &'static str) -> String {
    format!("{n} {}", plural(n, one, many))
}

fn plural(n: usize, one: &'static str, many: &'static str) -> &'static str {
    if n == 1 { one } else { many }
}
