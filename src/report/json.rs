//! The JSON report (a contract: fields may be added, never renamed).

use super::Report;

pub fn render(report: &Report) -> String {
    let mut s = serde_json::to_string_pretty(report).unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}"));
    s.push('\n');
    s
}
