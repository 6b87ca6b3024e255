//! The report: what a scan found, independent of how it is printed.

pub mod human;
pub mod json;

use crate::check::VerdictKind;
use serde::Serialize;

#[derive(Debug, Serialize)]
pub struct Report {
    pub schema: u32,
    pub tool: Tool,
    pub servers: Vec<ServerReport>,
    pub checks: Vec<RunCheck>,
    pub skipped_files: Vec<SkippedFile>,
    /// Files that parsed with syntax errors: what parsed was still judged.
    pub syntax_errors: Vec<Location>,
    pub stats: Stats,
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
    pub checks: Vec<CheckReport>,
}

#[derive(Debug, Serialize)]
pub struct CheckReport {
    pub id: &'static str,
    pub pattern: &'static str,
    pub verdict: VerdictKind,
    pub reason: String,
    pub findings: Vec<FindingReport>,
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
}

#[derive(Debug, Clone, Serialize, PartialEq, Eq, PartialOrd, Ord)]
pub struct Location {
    pub path: String,
    pub line: u32,
    pub column: u32,
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
    pub fn failing(&self) -> bool {
        self.checks.iter().any(|c| c.verdict == VerdictKind::Fail)
    }
}

/// The whole run's verdict for one check: fail if any server fails, else pass
/// if any passes, else skip.
pub fn summarize(id: &'static str, servers: &[ServerReport]) -> RunCheck {
    let verdicts: Vec<(&ServerReport, &CheckReport)> =
        servers.iter().filter_map(|s| s.checks.iter().find(|c| c.id == id).map(|c| (s, c))).collect();
    let count = |k: VerdictKind| verdicts.iter().filter(|(_, c)| c.verdict == k).count();
    let (fails, passes) = (count(VerdictKind::Fail), count(VerdictKind::Pass));
    if fails > 0 {
        let names: Vec<&str> = verdicts
            .iter()
            .filter(|(_, c)| c.verdict == VerdictKind::Fail)
            .map(|(s, _)| s.id.as_str())
            .collect();
        RunCheck { id, verdict: VerdictKind::Fail, reason: format!("fails on {}", names.join(", ")) }
    } else if passes > 0 {
        RunCheck {
            id,
            verdict: VerdictKind::Pass,
            reason: format!("passes on {passes} of {} servers", verdicts.len()),
        }
    } else {
        let reason =
            verdicts.first().map(|(_, c)| c.reason.clone()).unwrap_or_else(|| "no MCP server found".into());
        RunCheck { id, verdict: VerdictKind::Skip, reason }
    }
}
