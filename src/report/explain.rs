//! The catalog as text: `mcp-conform checks`, `mcp-conform explain <id>`, and the
//! rule help that SARIF carries (plain text and Markdown).

use crate::catalog::{self, CheckEntry, PatternEntry};
use std::fmt::Write;

/// One line per check: id, severity, title.
pub fn list() -> String {
    let mut out = String::new();
    let width = catalog::patterns().iter().flat_map(|p| &p.checks).map(|c| c.id.len()).max().unwrap_or(0);
    for p in catalog::patterns() {
        for c in &p.checks {
            let _ = writeln!(out, "{:<width$}  {:<6}  {}", c.id, p.severity, c.title);
        }
    }
    let _ = writeln!(out, "\nRun `mcp-conform explain <id>` for what a check looks at and how to fix it.");
    out
}

/// The entries an id names: a check id, a check's short name, or a pattern id.
pub fn lookup(id: &str) -> Vec<(&'static PatternEntry, &'static CheckEntry)> {
    if let Some(p) = catalog::pattern(id) {
        return p.checks.iter().map(|c| (p, c)).collect();
    }
    catalog::patterns()
        .iter()
        .flat_map(|p| p.checks.iter().map(move |c| (p, c)))
        .filter(|(_, c)| c.id == id || c.id.rsplit('/').next() == Some(id))
        .collect()
}

/// The explanation of every check an id names, or `None` for an unknown id.
pub fn explain(id: &str) -> Option<String> {
    let entries = lookup(id);
    if entries.is_empty() {
        return None;
    }
    Some(entries.iter().map(|(p, c)| text(p, c)).collect::<Vec<_>>().join("\n"))
}

fn indent(text: &str, by: &str) -> String {
    text.trim_end()
        .lines()
        .map(|l| if l.is_empty() { String::new() } else { format!("{by}{l}") })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Catalog text is written with TOML line continuations; the spaces they leave are single.
fn prose(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// A check's entry as plain text.
pub fn text(p: &PatternEntry, c: &CheckEntry) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "{}: {}", c.id, c.title);
    let _ = writeln!(out, "Pattern {} ({}): {} [severity {}]", p.id, p.slug, p.title, p.severity);
    let _ = writeln!(out, "\nWhat it checks\n{}", indent(&wrap(&prose(&c.summary), 88), "  "));
    let _ = writeln!(out, "\nWhy it matters\n{}", indent(&wrap(&prose(&c.why), 88), "  "));
    let _ = writeln!(out, "\nFails\n{}", indent(&c.fail_example, "    "));
    let _ = writeln!(out, "\nPasses\n{}", indent(&c.pass_example, "    "));
    let _ = writeln!(out, "\nHow to fix\n{}", indent(&wrap(&prose(&c.fix), 88), "  "));
    let _ = writeln!(out, "\nReferences");
    for r in c.references.iter().chain(std::iter::once(&p.url)) {
        let _ = writeln!(out, "  - {r}");
    }
    out
}

/// A check's entry as Markdown (SARIF `help.markdown`).
pub fn markdown(p: &PatternEntry, c: &CheckEntry) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "**{}** (pattern [{}]({}), severity {})\n", c.title, p.id, p.url, p.severity);
    let _ = writeln!(out, "{}\n", prose(&c.summary));
    let _ = writeln!(out, "## Why it matters\n\n{}\n", prose(&c.why));
    let _ = writeln!(out, "## Fails\n\n```\n{}\n```\n", c.fail_example.trim_end());
    let _ = writeln!(out, "## Passes\n\n```\n{}\n```\n", c.pass_example.trim_end());
    let _ = writeln!(out, "## How to fix\n\n{}\n", prose(&c.fix));
    let _ = writeln!(out, "## References\n");
    for r in c.references.iter().chain(std::iter::once(&p.url)) {
        let _ = writeln!(out, "- <{r}>");
    }
    out
}

/// Greedy word wrap.
fn wrap(text: &str, width: usize) -> String {
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        if !line.is_empty() && line.len() + 1 + word.len() > width {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines.join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_short_names_and_patterns() {
        assert_eq!(lookup("ab-001838/notification-no-reply").len(), 1);
        assert_eq!(lookup("notification-no-reply").len(), 1);
        assert_eq!(lookup("ab-001838").len(), 3);
        assert!(explain("no-such-check").is_none());
        let text = explain("ping-support").unwrap();
        for part in ["What it checks", "Why it matters", "Fails", "Passes", "How to fix", "References"] {
            assert!(text.contains(part), "{part} missing:\n{text}");
        }
        assert!(text.contains("https://auditbuffet.com/patterns/ab-001839"));
    }
}
