//! Inline suppressions: `mcp-conform: ignore[<check-or-pattern>] <reason>` in a
//! comment of any language. Comments are found as the parser's comment nodes,
//! so the marker inside a string or in HTML around PHP is not a directive.

use super::{Ctx, Walk};
use crate::model::{Span, Suppression};
use tree_sitter::Node;

/// The text that starts a directive.
pub const MARKER: &str = "mcp-conform:";

/// Every directive in the file, in source order. The walk is iterative: deep
/// trees cannot overflow the stack.
pub fn suppressions(ctx: &Ctx, root: Node) -> Vec<Suppression> {
    let mut out = Vec::new();
    super::walk_tree(root, |node| {
        if node.kind().contains("comment") {
            out.extend(directives(ctx, node));
            Walk::Skip
        } else {
            Walk::Descend
        }
    });
    out
}

fn directives(ctx: &Ctx, node: Node) -> Vec<Suppression> {
    let text = ctx.text(node);
    let base = ctx.span(node);
    let mut out = Vec::new();
    for (at, _) in text.match_indices(MARKER) {
        let before = &text[..at];
        let newlines = before.matches('\n').count() as u32;
        let column = match before.rfind('\n') {
            Some(i) => (at - i) as u32,
            None => base.column + at as u32,
        };
        let start = base.start + at as u32;
        let span = Span {
            file: base.file,
            line: base.line + newlines,
            column,
            start,
            end: start + MARKER.len() as u32,
        };
        let rest = text[at + MARKER.len()..].lines().next().unwrap_or("");
        out.push(parse(rest, span));
    }
    out
}

/// Parses what follows the marker: ` ignore[a, b] reason`.
fn parse(rest: &str, span: Span) -> Suppression {
    let malformed = Suppression { span, ids: Vec::new(), reason: None, malformed: true };
    let Some(list) = rest.trim_start().strip_prefix("ignore[") else { return malformed };
    let Some((ids, reason)) = list.split_once(']') else { return malformed };
    let ids: Vec<String> =
        ids.split(',').map(str::trim).filter(|s| !s.is_empty()).map(str::to_string).collect();
    if ids.is_empty() {
        return malformed;
    }
    // Comment closers are not part of the reason.
    let reason = reason.trim();
    let reason = ["*/", "-->", "?>"].iter().fold(reason, |r, end| r.strip_suffix(end).unwrap_or(r)).trim();
    let reason = reason.trim_start_matches([':', '-', '—']).trim();
    Suppression { span, ids, reason: (!reason.is_empty()).then(|| reason.to_string()), malformed: false }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn span() -> Span {
        Span { file: 0, line: 1, column: 1, start: 0, end: 0 }
    }

    #[test]
    fn parses_ids_and_reason() {
        let s = parse(" ignore[ab-001839/ping-support, ab-001837] ping is served by the proxy */", span());
        assert_eq!(s.ids, vec!["ab-001839/ping-support", "ab-001837"]);
        assert_eq!(s.reason.as_deref(), Some("ping is served by the proxy"));
        assert!(!s.malformed);
    }

    #[test]
    fn missing_reason_and_malformed() {
        let s = parse(" ignore[ab-001837]", span());
        assert_eq!(s.reason, None);
        assert!(!s.malformed);
        assert!(parse(" ignore ab-001837 because", span()).malformed);
        assert!(parse(" ignore[] x", span()).malformed);
        assert!(parse(" ignore[ab-001837 x", span()).malformed);
    }
}
