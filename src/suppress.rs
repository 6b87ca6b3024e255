//! Suppression, between checking and reporting: a failing finding is suppressed
//! by an inline `mcp-conform: ignore[...]` comment on its line or the line above,
//! or by the configuration's `per-file-ignores`. Suppressed findings stay in the
//! report, marked, with the reason; they do not fail the run.

use crate::check::CheckDef;
use crate::model::{Span, Suppression};
use crate::report::{SuppressionReport, WarningReport};
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Mutex;

/// A `per-file-ignores` entry that matches a file: its glob and the ids it ignores.
#[derive(Debug, Clone)]
pub struct FileIgnore {
    pub glob: String,
    pub ids: Vec<String>,
}

pub struct Suppressor<'a> {
    /// By file index: the per-file ignores that match the file.
    pub per_file: &'a [Vec<FileIgnore>],
    /// By file index: the directives of the files that have any.
    pub inline: BTreeMap<u32, &'a [Suppression]>,
    /// The configuration file, as reports name it.
    pub config: Option<String>,
    used: Mutex<BTreeSet<(u32, usize)>>,
}

impl<'a> Suppressor<'a> {
    pub fn new(
        per_file: &'a [Vec<FileIgnore>],
        inline: BTreeMap<u32, &'a [Suppression]>,
        config: Option<String>,
    ) -> Self {
        Suppressor { per_file, inline, config, used: Mutex::new(BTreeSet::new()) }
    }

    /// Whether a finding of `check` at `span` is suppressed, and by what.
    pub fn suppression(&self, check: &CheckDef, span: Span) -> Option<SuppressionReport> {
        let file = span.file as usize;
        let inline = self.inline.get(&span.file).copied().unwrap_or(&[]);
        let hit = inline.iter().enumerate().find(|(_, s)| {
            !s.malformed
                && (s.span.line == span.line || s.span.line + 1 == span.line)
                && s.ids.iter().any(|id| check.is_named(id))
        });
        if let Some((i, s)) = hit {
            self.used.lock().unwrap_or_else(|e| e.into_inner()).insert((span.file, i));
            return Some(SuppressionReport {
                kind: "inline",
                reason: s.reason.clone().unwrap_or_else(|| "no reason given".into()),
                line: s.span.line,
            });
        }
        let rule = self.per_file.get(file)?.iter().find(|r| r.ids.iter().any(|id| check.is_named(id)))?;
        let from = self.config.as_deref().unwrap_or("the configuration");
        Some(SuppressionReport {
            kind: "per-file-ignores",
            reason: format!("per-file-ignores `{}` in {from}", rule.glob),
            line: 0,
        })
    }

    /// Directives that are malformed, name no known check, give no reason, or
    /// suppressed nothing (among the checks that ran).
    pub fn warnings(&self, all: &[CheckDef], ran: &[&CheckDef], paths: &[String]) -> Vec<WarningReport> {
        let used = self.used.lock().unwrap_or_else(|e| e.into_inner());
        let mut out = Vec::new();
        for (&file, directives) in &self.inline {
            for (i, s) in directives.iter().enumerate() {
                let mut warn = |message: String| {
                    out.push(WarningReport {
                        path: paths.get(file as usize).cloned().unwrap_or_default(),
                        line: s.span.line,
                        column: s.span.column,
                        message,
                    })
                };
                if s.malformed {
                    warn(
                        "malformed suppression: write `mcp-conform: ignore[<check-or-pattern>] <reason>`"
                            .into(),
                    );
                    continue;
                }
                let unknown: Vec<&str> = s
                    .ids
                    .iter()
                    .filter(|id| !all.iter().any(|c| c.is_named(id)))
                    .map(String::as_str)
                    .collect();
                if !unknown.is_empty() {
                    warn(format!("suppression names unknown check `{}`", unknown.join("`, `")));
                }
                if s.reason.is_none() {
                    warn("suppression without a reason: say why after the `]`".into());
                }
                let ran_any = s.ids.iter().any(|id| ran.iter().any(|c| c.is_named(id)));
                if ran_any && !used.contains(&(file, i)) {
                    warn(format!("unused suppression: no failing finding of `{}` here", s.ids.join("`, `")));
                }
            }
        }
        out.sort();
        out
    }
}
