//! The terminal report: a graphical diagnostic per failing check (the source
//! with the deciding lines labelled, and the fix), then the servers × checks
//! table, each server's reasons, what was skipped, and a one-line summary.

use super::{CheckReport, FindingReport, Report, ServerReport};
use crate::check::VerdictKind;
use miette::{Diagnostic, GraphicalReportHandler, GraphicalTheme, LabeledSpan, NamedSource, SourceCode};
use std::fmt::{self, Write};

/// How to print.
#[derive(Debug, Clone, Copy)]
pub struct Style {
    pub color: bool,
    /// Columns to wrap at.
    pub width: usize,
    /// Failures only.
    pub quiet: bool,
}

impl Default for Style {
    fn default() -> Self {
        Style { color: false, width: 100, quiet: false }
    }
}

/// One failing check's findings in one file.
#[derive(Debug)]
struct Failure {
    code: String,
    message: String,
    help: String,
    source: Option<NamedSource<String>>,
    labels: Vec<LabeledSpan>,
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Failure {}

impl Diagnostic for Failure {
    fn code<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        Some(Box::new(&self.code))
    }
    fn help<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        Some(Box::new(&self.help))
    }
    fn source_code(&self) -> Option<&dyn SourceCode> {
        self.source.as_ref().map(|s| s as &dyn SourceCode)
    }
    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        Some(Box::new(self.labels.iter().cloned()))
    }
}

fn failures(report: &Report, server: &ServerReport, c: &CheckReport) -> Vec<Failure> {
    let entry = crate::catalog::check(c.id).map(|(_, e)| e);
    let title = entry.map(|e| e.title.as_str()).unwrap_or(c.id);
    let fix = entry.map(|e| e.fix.split_whitespace().collect::<Vec<_>>().join(" ")).unwrap_or_default();
    let help = format!("{fix}\nRun `mcp-conform explain {}` for examples.", c.id);
    // The header names the check and what it asks for; the message says what was found.
    let code = format!("{} · {title}", c.id);
    let message = format!("{} (server {})", c.reason, server.id);
    let open: Vec<&FindingReport> = c.findings.iter().filter(|f| !f.suppressed).collect();
    if open.is_empty() {
        return vec![Failure { code: code.clone(), message, help, source: None, labels: Vec::new() }];
    }
    let mut files: Vec<&str> = open.iter().map(|f| f.path.as_str()).collect();
    files.sort();
    files.dedup();
    files
        .into_iter()
        .map(|path| {
            let here: Vec<&&FindingReport> = open.iter().filter(|f| f.path == path).collect();
            match report.sources.get(path) {
                Some(text) => {
                    let related = c.related.iter().filter(|f| f.path == path);
                    let labels = here
                        .iter()
                        .map(|f| &***f)
                        .chain(related)
                        .filter_map(|f| {
                            // An empty range still gets a one-character mark.
                            f.first_line(text)
                                .map(|r| LabeledSpan::at(r.start..r.end.max(r.start + 1), f.message.clone()))
                        })
                        .collect();
                    Failure {
                        code: code.clone(),
                        message: message.clone(),
                        help: help.clone(),
                        source: Some(NamedSource::new(path, text.to_string())),
                        labels,
                    }
                }
                None => {
                    // No text to show: the places as plain lines.
                    let places: Vec<String> = here
                        .iter()
                        .map(|f| format!("{}:{}:{}: {}", f.path, f.line, f.column, f.message))
                        .collect();
                    Failure {
                        code: code.clone(),
                        message: format!("{message}\n{}", places.join("\n")),
                        help: help.clone(),
                        source: None,
                        labels: Vec::new(),
                    }
                }
            }
        })
        .collect()
}

fn diagnostics(report: &Report, style: &Style) -> String {
    let theme = if style.color { GraphicalTheme::unicode() } else { GraphicalTheme::unicode_nocolor() };
    let handler = GraphicalReportHandler::new_themed(theme).with_width(style.width).with_links(false);
    let mut out = String::new();
    for server in &report.servers {
        for c in server.checks.iter().filter(|c| c.verdict == VerdictKind::Fail && !c.suppressed) {
            for failure in failures(report, server, c) {
                let mut text = String::new();
                if handler.render_report(&mut text, &failure).is_err() {
                    text = format!("{}: {}\n", failure.code, failure.message);
                }
                out.push_str(&text);
                out.push('\n');
            }
        }
    }
    out
}

fn table(out: &mut String, report: &Report) {
    let _ = writeln!(out, "Servers");
    for (i, s) in report.servers.iter().enumerate() {
        let mut traits = vec![s.language.to_string(), s.kind.to_string()];
        if let Some(sdk) = &s.sdk {
            traits.push(format!("sdk {sdk}"));
        }
        if !s.transports.is_empty() {
            traits.push(s.transports.join("+"));
        }
        let _ = writeln!(out, "  [{}] {}  ({})", i + 1, s.id, traits.join(", "));
    }
    let _ = writeln!(out);
    let width = report.checks.iter().map(|c| c.id.len()).max().unwrap_or(5).max(5);
    let _ = write!(out, "{:width$}", "check");
    for i in 0..report.servers.len() {
        let _ = write!(out, "  {:>5}", format!("[{}]", i + 1));
    }
    let _ = writeln!(out);
    let mut any_suppressed = false;
    for c in &report.checks {
        let _ = write!(out, "{:width$}", c.id);
        for s in &report.servers {
            let cell = match s.checks.iter().find(|k| k.id == c.id) {
                Some(k) if k.suppressed => {
                    any_suppressed = true;
                    "fail*"
                }
                Some(k) => k.verdict.name(),
                None => "-",
            };
            let _ = write!(out, "  {cell:>5}");
        }
        let _ = writeln!(out);
    }
    if any_suppressed {
        let _ = writeln!(out, "(* failure suppressed)");
    }
    for (i, s) in report.servers.iter().enumerate() {
        let _ = writeln!(out, "\n[{}] {}", i + 1, s.id);
        for c in &s.checks {
            let _ = writeln!(out, "  {:<4}  {}: {}", c.verdict.name(), c.id, c.reason);
            for f in &c.findings {
                let _ = write!(out, "        {}:{}:{}: {}", f.path, f.line, f.column, f.message);
                match &f.suppression {
                    Some(s) => {
                        let _ = writeln!(out, " [suppressed: {}]", s.reason);
                    }
                    None => out.push('\n'),
                }
            }
            if let Some(e) = &c.evidence {
                let _ = writeln!(out, "        evidence: {}:{}:{}", e.path, e.line, e.column);
            }
        }
    }
}

pub fn render(report: &Report, style: &Style) -> String {
    let mut out = diagnostics(report, style);
    if style.quiet {
        return out;
    }
    if report.servers.is_empty() {
        let _ = writeln!(out, "No MCP server found: every check skips.");
    } else {
        table(&mut out, report);
    }
    if !report.skipped_files.is_empty() {
        let _ = writeln!(out, "\nSkipped files");
        for f in &report.skipped_files {
            let _ = writeln!(out, "  {}: {}", f.path, f.reason);
        }
    }
    if !report.syntax_errors.is_empty() {
        let _ = writeln!(out, "\nFiles with syntax errors (judged on what parsed)");
        for l in &report.syntax_errors {
            let _ = writeln!(out, "  {}:{}:{}", l.path, l.line, l.column);
        }
    }
    if !report.warnings.is_empty() {
        let _ = writeln!(out, "\nWarnings");
        for w in &report.warnings {
            let _ = writeln!(out, "  {}:{}:{}: {}", w.path, w.line, w.column, w.message);
        }
    }
    let _ = writeln!(out, "\n{}", report.summary());
    out
}
