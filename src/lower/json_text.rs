//! JSON written as text: literals (`json.RawMessage(`{..}`)`), and text built by
//! formatting with values put in (`format!("{{\"id\":{}}}", id)`, `fmt.Sprintf`),
//! read as the values they encode.

use super::object;
use crate::model::{Expr, Span};

/// A JSON literal written as text (`json.RawMessage(`{"protocolVersion": "2025-03-26"}`)`,
/// `serde_json::from_str(r#"{}"#)`): the value it encodes, objects that carry a reply's
/// members as a reply. Text that is not JSON (or nests deeper than a reply does) is none.
pub fn raw_json(text: &str, span: Span) -> Option<Expr> {
    let text = text.trim();
    if !(text.starts_with('{') || text.starts_with('[') || text == "null") {
        return None;
    }
    json_expr(&serde_json::from_str(text).ok()?, &|s| Some(Expr::Str(s.to_string())), 0, span)
}

/// Any JSON text as the value it encodes (`"pong"`, `42`, `{"tools": []}`): what a
/// value put bare into formatted JSON stands for.
pub fn json_text(text: &str) -> Option<Expr> {
    json_expr(
        &serde_json::from_str(text.trim()).ok()?,
        &|s| Some(Expr::Str(s.to_string())),
        0,
        Span::default(),
    )
}

/// A decoded JSON value as an expression, each string made by `string` (None when a
/// string cannot be one, or the value nests deeper than a reply does). Its objects and
/// lists are located where the text is written.
fn json_expr(
    v: &serde_json::Value,
    string: &dyn Fn(&str) -> Option<Expr>,
    depth: usize,
    span: Span,
) -> Option<Expr> {
    const MAX_DEPTH: usize = 32;
    if depth > MAX_DEPTH {
        return None;
    }
    Some(match v {
        serde_json::Value::Null => Expr::Null,
        serde_json::Value::Bool(b) => Expr::Bool(*b),
        serde_json::Value::Number(n) => n.as_i64().map(Expr::Int).unwrap_or_else(Expr::unknown),
        serde_json::Value::String(s) => string(s)?,
        serde_json::Value::Array(items) => Expr::Array {
            items: items.iter().map(|i| json_expr(i, string, depth + 1, span)).collect::<Option<Vec<_>>>()?,
            span,
        },
        serde_json::Value::Object(members) => object(
            members
                .iter()
                .map(|(k, v)| match k.contains(HOLE) {
                    true => None,
                    false => json_expr(v, string, depth + 1, span).map(|e| (k.clone(), e)),
                })
                .collect::<Option<Vec<_>>>()?,
            span,
        ),
    })
}

/// A piece of text a formatting call builds: text as written, a value put in as its
/// text, or a value put in as a quoted string (Go's `%q`).
pub enum Piece {
    Text(String),
    Hole(Expr),
    Quoted(Expr),
}

/// JSON text built by a printf-style format (Go `fmt.Sprintf(`{"id":%s}`, id)`): `%%`
/// is a percent sign, every other verb takes the next argument (`%q` quoted).
pub fn printf_template(format: &str, args: Vec<Expr>, span: Span) -> Option<Expr> {
    json_template(printf_pieces(format, args)?, span)
}

/// The pieces a printf-style format builds (see [`printf_template`]); none when it
/// names more values than it is given.
pub fn printf_pieces(format: &str, args: Vec<Expr>) -> Option<Vec<Piece>> {
    let mut args = args.into_iter();
    let mut pieces = Vec::new();
    let mut literal = String::new();
    let mut chars = format.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '%' {
            literal.push(c);
            continue;
        }
        if chars.peek() == Some(&'%') {
            chars.next();
            literal.push('%');
            continue;
        }
        // Flags, width and precision, then the verb.
        let mut verb = None;
        for d in chars.by_ref() {
            if d.is_ascii_alphabetic() {
                verb = Some(d);
                break;
            }
        }
        let value = args.next()?;
        pieces.push(Piece::Text(std::mem::take(&mut literal)));
        pieces.push(if verb? == 'q' { Piece::Quoted(value) } else { Piece::Hole(value) });
    }
    pieces.push(Piece::Text(literal));
    Some(pieces)
}

/// The text a string literal's backslash escapes stand for (`\"` is `"`), in the
/// languages that write them so (Rust, Go, JavaScript, PHP's double quotes).
pub fn unescape(text: &str) -> String {
    if !text.contains('\\') {
        return text.to_string();
    }
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('n') => out.push('\n'),
            Some('t') => out.push('\t'),
            Some('r') => out.push('\r'),
            Some(other) => out.push(other),
            None => {}
        }
    }
    out
}

/// Marks where a value goes in formatted text while it is read as JSON (a character
/// of Unicode's private use area, which no JSON-RPC text of the code holds).
const HOLE: char = '\u{E000}';

/// A built-in: the JSON value of text put into formatted JSON as it is (`{"id":{}}`
/// with the id's JSON text): text is decoded, any other value is itself.
pub const JSON_TEXT: &str = "mcp-conform/json-text";

/// JSON text built by formatting (`format!("{{\"id\":{},\"result\":{}}}", id, body)`,
/// `fmt.Sprintf`): the value it encodes, with each value put in where the text has it
/// (inside quotes, as a string; bare, as the JSON its text is). None when the text is
/// not JSON, or nothing is put in (plain text is [`raw_json`]'s).
pub fn json_template(pieces: Vec<Piece>, span: Span) -> Option<Expr> {
    use std::fmt::Write;
    let mut text = String::new();
    let mut holes = Vec::new();
    let (mut in_string, mut escaped) = (false, false);
    for piece in pieces {
        match piece {
            Piece::Text(t) => {
                for c in t.chars() {
                    match c {
                        _ if escaped => escaped = false,
                        '\\' if in_string => escaped = true,
                        '"' => in_string = !in_string,
                        _ => {}
                    }
                }
                text.push_str(&t);
            }
            Piece::Hole(e) => {
                let i = holes.len();
                holes.push(e);
                let _ = match in_string {
                    true => write!(text, "{HOLE}{i}{HOLE}"),
                    false => write!(text, "\"{HOLE}R{i}{HOLE}\""),
                };
            }
            Piece::Quoted(e) => {
                let i = holes.len();
                holes.push(e);
                let _ = write!(text, "\"{HOLE}{i}{HOLE}\"");
            }
        }
    }
    let trimmed = text.trim();
    if holes.is_empty() || !(trimmed.starts_with('{') || trimmed.starts_with('[')) {
        return None;
    }
    let value: serde_json::Value = serde_json::from_str(trimmed).ok()?;
    let string = |s: &str| -> Option<Expr> {
        if !s.contains(HOLE) {
            return Some(Expr::Str(s.to_string()));
        }
        let inner = s.strip_prefix(HOLE).and_then(|r| r.strip_suffix(HOLE));
        Some(match inner {
            Some(raw) if raw.starts_with('R') => {
                let hole = holes.get(raw[1..].parse::<usize>().ok()?)?.clone();
                Expr::Call { callee: JSON_TEXT.into(), receiver: None, args: vec![hole], span }
            }
            Some(i) if !i.contains(HOLE) => holes.get(i.parse::<usize>().ok()?)?.clone(),
            // Text around a value put in: a string the scan does not know.
            _ => Expr::unknown(),
        })
    };
    json_expr(&value, &string, 0, span)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn member<'e>(e: &'e Expr, key: &str) -> Option<&'e Expr> {
        match e {
            Expr::Object { entries, .. } => entries.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    #[test]
    fn printf_verbs_put_values_in_as_text_or_quoted() {
        let built = printf_template(
            r#"{"ref":%s,"detail":{"code":%d,"message":%q}}"#,
            vec![Expr::Var("id".into()), Expr::Int(-32601), Expr::Var("msg".into())],
            Span::default(),
        )
        .expect("JSON text");
        let id = member(&built, "ref").expect("ref");
        assert!(matches!(id, Expr::Call { callee, args, .. }
            if callee == JSON_TEXT && matches!(args.as_slice(), [Expr::Var(v)] if v == "id")));
        let error = member(&built, "detail").expect("detail");
        assert!(matches!(member(error, "message"), Some(Expr::Var(v)) if v == "msg"));
        assert!(matches!(member(error, "code"), Some(Expr::Call { callee, .. }) if callee == JSON_TEXT));
    }

    #[test]
    fn text_around_a_value_in_a_string_is_unknown_and_plain_text_is_no_template() {
        let pieces = vec![
            Piece::Text(r#"{"protocolVersion":"v"#.into()),
            Piece::Hole(Expr::Var("n".into())),
            Piece::Text(r#""}"#.into()),
        ];
        let built = json_template(pieces, Span::default()).expect("JSON text");
        assert!(matches!(member(&built, "protocolVersion"), Some(Expr::Opaque(parts)) if parts.is_empty()));
        assert!(json_template(vec![Piece::Text("{}".into())], Span::default()).is_none());
        assert!(printf_template("plain %s text", vec![Expr::Null], Span::default()).is_none());
    }

    #[test]
    fn escapes_and_scalars() {
        assert_eq!(unescape(r#"{\"a\":\"b\\c\"}"#), r#"{"a":"b\c"}"#);
        assert!(matches!(json_text(r#" "pong" "#), Some(Expr::Str(s)) if s == "pong"));
        assert!(matches!(json_text("42"), Some(Expr::Int(42))));
        assert!(raw_json("42", Span::default()).is_none());
    }
}
