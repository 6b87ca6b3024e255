//! The terminal summary: a table of servers by checks, then findings and reasons.

use super::Report;
use crate::check::VerdictKind;
use std::fmt::Write;

pub fn render(report: &Report) -> String {
    let mut out = String::new();
    if report.servers.is_empty() {
        let _ = writeln!(out, "No MCP server found: every check skips.");
    } else {
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
        for c in &report.checks {
            let _ = write!(out, "{:width$}", c.id);
            for s in &report.servers {
                let v = s.checks.iter().find(|k| k.id == c.id).map(|k| k.verdict.name()).unwrap_or("-");
                let _ = write!(out, "  {v:>5}");
            }
            let _ = writeln!(out);
        }
        for (i, s) in report.servers.iter().enumerate() {
            let _ = writeln!(out, "\n[{}] {}", i + 1, s.id);
            for c in &s.checks {
                let _ = writeln!(out, "  {:<4}  {}: {}", c.verdict.name(), c.id, c.reason);
                for f in &c.findings {
                    let _ = writeln!(out, "        {}:{}:{}: {}", f.path, f.line, f.column, f.message);
                }
            }
        }
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
    let failing = report.checks.iter().filter(|c| c.verdict == VerdictKind::Fail).count();
    let _ = writeln!(
        out,
        "\n{} {}, {} failing {}, {} skipped {}",
        report.servers.len(),
        plural(report.servers.len(), "server", "servers"),
        failing,
        plural(failing, "check", "checks"),
        report.skipped_files.len(),
        plural(report.skipped_files.len(), "file", "files"),
    );
    out
}

fn plural(n: usize, one: &'static str, many: &'static str) -> &'static str {
    if n == 1 { one } else { many }
}
