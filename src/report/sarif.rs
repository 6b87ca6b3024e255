//! SARIF 2.1.0 for GitHub code scanning, with hand-written structs.
//!
//! Failures are `results` (suppressed ones carry `suppressions`). Passes and
//! skips are not results: GitHub's supported subset does not document
//! `result.kind`, and it requires a location on every result, which a skip does
//! not have; they are kept in `run.properties.verdicts` so nothing is lost.

use super::{FindingReport, Report, ServerReport};
use crate::catalog;
use crate::check::{CHECKS, VerdictKind};
use serde::Serialize;
use std::collections::BTreeMap;

const SCHEMA: &str = "https://json.schemastore.org/sarif-2.1.0.json";
const INFORMATION_URI: &str = "https://auditbuffet.com/patterns";

#[derive(Serialize)]
struct Log<'a> {
    #[serde(rename = "$schema")]
    schema: &'static str,
    version: &'static str,
    runs: Vec<Run<'a>>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Run<'a> {
    tool: Tool,
    invocations: Vec<Invocation>,
    original_uri_base_ids: BTreeMap<&'static str, ArtifactLocation>,
    column_kind: &'static str,
    results: Vec<SarifResult>,
    properties: RunProperties<'a>,
}

#[derive(Serialize)]
struct Tool {
    driver: Driver,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Driver {
    name: &'static str,
    version: &'static str,
    semantic_version: &'static str,
    information_uri: &'static str,
    rules: Vec<Rule>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Rule {
    id: String,
    name: String,
    short_description: Text,
    full_description: Text,
    help: Help,
    help_uri: String,
    default_configuration: Configuration,
    properties: RuleProperties,
}

#[derive(Serialize)]
struct Text {
    text: String,
}

#[derive(Serialize)]
struct Message {
    text: String,
}

#[derive(Serialize)]
struct Help {
    text: String,
    markdown: String,
}

#[derive(Serialize)]
struct Configuration {
    level: &'static str,
}

#[derive(Serialize)]
struct RuleProperties {
    tags: Vec<String>,
    precision: &'static str,
    #[serde(rename = "problem.severity")]
    problem_severity: &'static str,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Invocation {
    execution_successful: bool,
    tool_execution_notifications: Vec<Notification>,
}

#[derive(Serialize)]
struct Notification {
    level: &'static str,
    message: Message,
    locations: Vec<SarifLocation>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct SarifResult {
    rule_id: &'static str,
    rule_index: usize,
    level: &'static str,
    message: Message,
    locations: Vec<SarifLocation>,
    partial_fingerprints: BTreeMap<&'static str, String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    related_locations: Vec<SarifLocation>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    suppressions: Vec<Suppression>,
}

#[derive(Serialize)]
struct Suppression {
    kind: &'static str,
    justification: String,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct SarifLocation {
    #[serde(skip_serializing_if = "Option::is_none")]
    id: Option<usize>,
    physical_location: PhysicalLocation,
    #[serde(skip_serializing_if = "Option::is_none")]
    message: Option<Message>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct PhysicalLocation {
    artifact_location: ArtifactLocation,
    #[serde(skip_serializing_if = "Option::is_none")]
    region: Option<Region>,
    #[serde(skip_serializing_if = "Option::is_none")]
    context_region: Option<Region>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ArtifactLocation {
    uri: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    uri_base_id: Option<&'static str>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Region {
    start_line: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    start_column: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    end_line: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    end_column: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    snippet: Option<Message>,
}

impl Region {
    /// One line, from a column to the next one.
    fn at(line: u32, column: u32) -> Region {
        Region {
            start_line: line,
            start_column: Some(column),
            end_line: Some(line),
            end_column: Some(column + 1),
            snippet: None,
        }
    }
}

#[derive(Serialize)]
struct RunProperties<'a> {
    /// Every server's verdict on every check, passes and skips included.
    verdicts: Vec<VerdictRecord<'a>>,
    #[serde(rename = "skippedFiles")]
    skipped_files: &'a [super::SkippedFile],
}

#[derive(Serialize)]
struct VerdictRecord<'a> {
    server: &'a str,
    check: &'static str,
    verdict: VerdictKind,
    reason: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    evidence: Option<&'a super::Location>,
}

/// A rule's catalog severity as SARIF's level: every failure fails the run, so
/// every rule is an error.
fn rule(index: usize) -> Rule {
    let check = &CHECKS[index];
    let entry = catalog::check(check.id);
    let short = check.id.rsplit('/').next().unwrap_or(check.id);
    let (title, summary, help, markdown, url, severity) = match entry {
        Some((p, c)) => (
            c.title.clone(),
            c.summary.split_whitespace().collect::<Vec<_>>().join(" "),
            super::explain::text(p, c),
            super::explain::markdown(p, c),
            p.url.clone(),
            p.severity.clone(),
        ),
        None => (
            check.id.into(),
            String::new(),
            String::new(),
            String::new(),
            INFORMATION_URI.into(),
            "medium".into(),
        ),
    };
    Rule {
        id: check.id.to_string(),
        name: pascal(short),
        short_description: Text { text: title },
        full_description: Text { text: summary },
        help: Help { text: help, markdown },
        help_uri: url,
        default_configuration: Configuration { level: "error" },
        properties: RuleProperties {
            tags: vec![
                "mcp".into(),
                "json-rpc".into(),
                "correctness".into(),
                format!("catalog-severity-{severity}"),
            ],
            precision: "high",
            problem_severity: "error",
        },
    }
}

/// `notification-no-reply` → `NotificationNoReply`.
fn pascal(s: &str) -> String {
    s.split('-')
        .map(|w| {
            let mut c = w.chars();
            c.next().map(|f| f.to_uppercase().chain(c).collect::<String>()).unwrap_or_default()
        })
        .collect()
}

/// FNV-1a, 64 bits: a small, stable hash for fingerprints.
fn fnv1a(parts: &[&str]) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for p in parts {
        for b in p.bytes().chain(std::iter::once(0)) {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
    }
    format!("{h:016x}")
}

/// Line and UTF-16 column (both 1-based) of a byte offset in a text.
fn utf16_position(text: &str, offset: usize) -> (u32, u32) {
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    let before = &text[..offset];
    let line = before.matches('\n').count() as u32 + 1;
    let line_start = before.rfind('\n').map(|i| i + 1).unwrap_or(0);
    let column = text[line_start..offset].encode_utf16().count() as u32 + 1;
    (line, column)
}

fn location(report: &Report, path: &str, region: Option<Region>) -> SarifLocation {
    located(report, path, region, None)
}

fn located(report: &Report, path: &str, region: Option<Region>, context: Option<Region>) -> SarifLocation {
    let uri = report.workspace_path(path);
    let relative = !uri.starts_with('/');
    SarifLocation {
        id: None,
        message: None,
        physical_location: PhysicalLocation {
            artifact_location: ArtifactLocation {
                uri: if relative { percent_encode(&uri) } else { format!("file://{}", percent_encode(&uri)) },
                uri_base_id: relative.then_some("%SRCROOT%"),
            },
            region,
            context_region: context,
        },
    }
}

/// Encodes what may not appear in a URI path.
fn percent_encode(path: &str) -> String {
    let mut out = String::new();
    for b in path.bytes() {
        if b.is_ascii_alphanumeric() || b"/-._~".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// The finding's region (its first line, with the text as snippet) and two
/// lines of context either side.
fn finding_region(report: &Report, f: &FindingReport) -> (Region, Option<Region>) {
    let Some(text) = report.sources.get(&f.path) else {
        return (Region::at(f.line, f.column), None);
    };
    let Some(range) = f.first_line(text) else {
        return (Region::at(f.line, f.column), None);
    };
    let piece = &text[range.clone()];
    let (start, end) = (range.start, range.end);
    let (start_line, start_column) = utf16_position(text, start);
    let (_, end_column) = utf16_position(text, end);
    let region = Region {
        start_line,
        start_column: Some(start_column),
        end_line: Some(start_line),
        end_column: Some(end_column.max(start_column + 1)),
        snippet: (!piece.is_empty()).then(|| Message { text: piece.to_string() }),
    };
    let lines: Vec<&str> = text.split('\n').collect();
    let first = start_line.saturating_sub(2).max(1);
    let last = (start_line + 2).min(lines.len() as u32);
    let context_text: Vec<&str> =
        (first..=last).filter_map(|l| lines.get(l as usize - 1)).map(|l| l.trim_end_matches('\r')).collect();
    let context = Region {
        start_line: first,
        start_column: None,
        end_line: Some(last),
        end_column: None,
        snippet: Some(Message { text: context_text.join("\n") + "\n" }),
    };
    (region, Some(context))
}

fn results(report: &Report, server: &ServerReport) -> Vec<SarifResult> {
    let mut out = Vec::new();
    for c in server.checks.iter().filter(|c| c.verdict == VerdictKind::Fail) {
        let Some(rule_index) = CHECKS.iter().position(|k| k.id == c.id) else { continue };
        let title = catalog::check(c.id).map(|(_, e)| e.title.as_str()).unwrap_or(c.id);
        let server_place = FindingReport {
            path: server.path.clone(),
            line: server.line,
            column: 1,
            message: c.reason.clone(),
            suppressed: false,
            suppression: None,
            bytes: (0, 0),
        };
        let findings: Vec<&FindingReport> =
            if c.findings.is_empty() { vec![&server_place] } else { c.findings.iter().collect() };
        for f in findings {
            let (region, context) =
                if c.findings.is_empty() { (Region::at(f.line, 1), None) } else { finding_region(report, f) };
            let uri = report.workspace_path(&f.path);
            out.push(SarifResult {
                rule_id: c.id,
                rule_index,
                level: "error",
                message: Message {
                    text: format!("{title}: {} (server {}).", f.message, report.server_name(server)),
                },
                locations: vec![located(report, &f.path, Some(region), context)],
                related_locations: c
                    .related
                    .iter()
                    .enumerate()
                    .map(|(i, r)| {
                        let mut l = located(report, &r.path, Some(finding_region(report, r).0), None);
                        l.id = Some(i);
                        l.message = Some(Message { text: r.message.clone() });
                        l
                    })
                    .collect(),
                partial_fingerprints: BTreeMap::from([(
                    "mcpConformFinding/v1",
                    fnv1a(&[c.id, &uri, &f.message, &report.workspace_path(&server.path)]),
                )]),
                suppressions: f
                    .suppression
                    .iter()
                    .map(|s| Suppression {
                        kind: if s.kind == "inline" { "inSource" } else { "external" },
                        justification: s.reason.clone(),
                    })
                    .collect(),
            });
        }
    }
    out
}

pub fn render(report: &Report) -> String {
    let cwd = std::env::current_dir().unwrap_or_default();
    let mut root = format!("file://{}", percent_encode(&cwd.to_string_lossy()));
    if !root.ends_with('/') {
        root.push('/');
    }
    let mut notifications: Vec<Notification> = report
        .warnings
        .iter()
        .map(|w| Notification {
            level: "warning",
            message: Message { text: w.message.clone() },
            locations: vec![location(report, &w.path, Some(Region::at(w.line, w.column)))],
        })
        .collect();
    notifications.extend(report.skipped_files.iter().filter(|s| !s.path.is_empty()).map(|s| Notification {
        level: "note",
        message: Message { text: format!("skipped: {}", s.reason) },
        locations: vec![location(report, &s.path, None)],
    }));
    let run = Run {
        tool: Tool {
            driver: Driver {
                name: "mcp-conform",
                version: env!("CARGO_PKG_VERSION"),
                semantic_version: env!("CARGO_PKG_VERSION"),
                information_uri: INFORMATION_URI,
                rules: (0..CHECKS.len()).map(rule).collect(),
            },
        },
        invocations: vec![Invocation {
            execution_successful: true,
            tool_execution_notifications: notifications,
        }],
        original_uri_base_ids: BTreeMap::from([(
            "%SRCROOT%",
            ArtifactLocation { uri: root, uri_base_id: None },
        )]),
        column_kind: "utf16CodeUnits",
        results: report.servers.iter().flat_map(|s| results(report, s)).collect(),
        properties: RunProperties {
            verdicts: report
                .servers
                .iter()
                .flat_map(|s| {
                    s.checks.iter().map(move |c| VerdictRecord {
                        server: &s.id,
                        check: c.id,
                        verdict: c.verdict,
                        reason: &c.reason,
                        evidence: c.evidence.as_ref(),
                    })
                })
                .collect(),
            skipped_files: &report.skipped_files,
        },
    };
    let log = Log { schema: SCHEMA, version: "2.1.0", runs: vec![run] };
    let mut s = serde_json::to_string_pretty(&log).unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}"));
    s.push('\n');
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_count_utf16_code_units() {
        // `é` is two bytes and one UTF-16 unit; `𝄞` is four bytes and two units.
        let text = "ab\né𝄞x";
        let x = text.find('x').unwrap();
        assert_eq!(utf16_position(text, x), (2, 4));
        assert_eq!(utf16_position(text, 0), (1, 1));
    }

    #[test]
    fn fingerprints_are_stable_and_distinct() {
        assert_eq!(fnv1a(&["a", "b"]), fnv1a(&["a", "b"]));
        assert_ne!(fnv1a(&["ab", ""]), fnv1a(&["a", "b"]));
        assert_eq!(pascal("notification-no-reply"), "NotificationNoReply");
    }
}
