//! GitHub Actions workflow commands: one `::error` annotation per failing
//! finding, one `::warning` per suppression problem, then a summary line.

use super::Report;
use crate::check::VerdictKind;
use std::fmt::Write;

/// Escapes a command's message.
fn data(s: &str) -> String {
    s.replace('%', "%25").replace('\r', "%0D").replace('\n', "%0A")
}

/// Escapes a command's property value.
fn property(s: &str) -> String {
    data(s).replace(':', "%3A").replace(',', "%2C")
}

pub fn render(report: &Report) -> String {
    let mut out = String::new();
    for server in &report.servers {
        for c in server.checks.iter().filter(|c| c.verdict == VerdictKind::Fail) {
            let title = crate::catalog::check(c.id).map(|(_, e)| e.title.as_str()).unwrap_or(c.id);
            let places: Vec<(&str, u32, u32, String)> = if c.findings.is_empty() {
                vec![(server.path.as_str(), server.line, 1, c.reason.clone())]
            } else {
                c.findings
                    .iter()
                    .filter(|f| !f.suppressed)
                    .map(|f| (f.path.as_str(), f.line, f.column, f.message.clone()))
                    .collect()
            };
            for (path, line, col, message) in places {
                let _ = writeln!(
                    out,
                    "::error file={},line={line},col={col},title={}::{}",
                    property(&report.workspace_path(path)),
                    property(&format!("{}: {title}", c.id)),
                    data(&format!(
                        "{message} (server {}). Run `mcp-conform explain {}`.",
                        report.server_name(server),
                        c.id
                    )),
                );
            }
        }
    }
    for w in &report.warnings {
        let _ = writeln!(
            out,
            "::warning file={},line={},col={},title=mcp-conform suppression::{}",
            property(&report.workspace_path(&w.path)),
            w.line,
            w.column,
            data(&w.message),
        );
    }
    let _ = writeln!(out, "mcp-conform: {}", report.summary());
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn escapes_as_the_runner_expects() {
        assert_eq!(super::data("50% a\nb\r"), "50%25 a%0Ab%0D");
        assert_eq!(super::property("a:b,c"), "a%3Ab%2Cc");
    }
}
