//! HTTP written by hand onto a connection: a server on a bare socket writes its
//! answer as text, `HTTP/1.1 202 Accepted\r\n`, headers, a blank line, then the
//! body (in the same text or in writes that follow). Such text is the HTTP answer
//! it spells: the status its line names, and the body after the blank line.

use super::Piece;
use crate::model::{Expr, Span};

/// Whether text opens an HTTP response: a status line (`HTTP/1.1 ` and what follows
/// up to the line's end). Text that only names the version (`"HTTP/1.1"`, a client
/// comparing a line it read) is not one.
pub fn opens_response(text: &str) -> bool {
    ["HTTP/1.0 ", "HTTP/1.1 ", "HTTP/2 "].iter().any(|v| text.starts_with(v)) && text.contains("\r\n")
}

/// The HTTP answer text spells, as written (`"HTTP/1.1 204 No Content\r\n\r\n"`) or
/// formatted with values put in (`format!("HTTP/1.1 {status}\r\n")`,
/// `fmt.Sprintf("HTTP/1.1 %d OK\r\n\r\n%s", code, body)`). The status is the line's
/// three digits or the value put in right after the version (whose text starts with
/// them: `"202 Accepted"`); the body is what follows the blank line: nothing when it
/// is empty, a value put in alone as that value, JSON text as what it encodes,
/// anything else unknown. Text without the blank line leaves the body to the writes
/// that follow it.
pub fn response(pieces: Vec<Piece>, span: Span) -> Option<Expr> {
    let Some(Piece::Text(first)) = pieces.first() else { return None };
    if !first.starts_with("HTTP/") {
        return None;
    }
    let text_so_far: String = pieces
        .iter()
        .map(|p| match p {
            Piece::Text(t) => t.as_str(),
            _ => "\u{0}",
        })
        .collect();
    if !opens_response(&text_so_far) {
        return None;
    }
    let after_version = first.split_once(' ').map_or("", |(_, rest)| rest);
    let status = match after_version.get(..3).and_then(|d| d.parse::<i64>().ok()) {
        Some(code) => Expr::Int(code),
        None if after_version.is_empty() => match pieces.get(1) {
            Some(Piece::Hole(e) | Piece::Quoted(e)) => e.clone(),
            _ => return None,
        },
        None => return None,
    };
    // The pieces after the first blank line.
    let mut body: Option<Vec<Piece>> = None;
    for piece in pieces {
        match (&mut body, piece) {
            (Some(rest), p) => rest.push(p),
            (None, Piece::Text(t)) => {
                if let Some((_, after)) = t.split_once("\r\n\r\n") {
                    body = Some(vec![Piece::Text(after.to_string())]);
                }
            }
            (None, _) => {}
        }
    }
    let (body, null_is_empty) = match body {
        None => (Expr::Null, true),
        Some(rest) => (body_of(rest, span), false),
    };
    Some(Expr::HttpWith { status: Box::new(status), body: Box::new(body), null_is_empty, span })
}

/// What the pieces after the blank line send.
fn body_of(pieces: Vec<Piece>, span: Span) -> Expr {
    let written: Vec<Piece> =
        pieces.into_iter().filter(|p| !matches!(p, Piece::Text(t) if t.is_empty())).collect();
    match written.as_slice() {
        [] => Expr::Str(String::new()),
        [Piece::Hole(e)] => e.clone(),
        [Piece::Text(t)] => super::json_text(t).unwrap_or_else(Expr::unknown),
        _ => super::json_template(written, span).unwrap_or_else(Expr::unknown),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(t: &str) -> Vec<Piece> {
        vec![Piece::Text(t.to_string())]
    }

    #[test]
    fn a_written_status_line_is_its_status_and_body() {
        let e = response(text("HTTP/1.1 202 Accepted\r\nContent-Length: 0\r\n\r\n"), Span::default());
        let Some(Expr::HttpWith { status, body, null_is_empty, .. }) = e else {
            panic!("not an answer: {e:?}")
        };
        assert!(matches!(*status, Expr::Int(202)));
        assert!(matches!(*body, Expr::Str(ref s) if s.is_empty()));
        assert!(!null_is_empty);
    }

    #[test]
    fn a_status_put_in_and_no_blank_line_leave_the_body_to_later_writes() {
        let pieces = vec![
            Piece::Text("HTTP/1.1 ".into()),
            Piece::Hole(Expr::Var("status".into())),
            Piece::Text("\r\n".into()),
        ];
        let Some(Expr::HttpWith { status, body, null_is_empty, .. }) = response(pieces, Span::default())
        else {
            panic!("not an answer")
        };
        assert!(matches!(*status, Expr::Var(ref v) if v == "status"));
        assert!(matches!(*body, Expr::Null) && null_is_empty);
    }

    #[test]
    fn the_body_put_in_after_the_blank_line_is_that_value() {
        let pieces = vec![
            Piece::Text("HTTP/1.1 200 OK\r\nContent-Length: ".into()),
            Piece::Hole(Expr::Var("n".into())),
            Piece::Text("\r\n\r\n".into()),
            Piece::Hole(Expr::Var("reply".into())),
        ];
        let Some(Expr::HttpWith { body, .. }) = response(pieces, Span::default()) else {
            panic!("not an answer")
        };
        assert!(matches!(*body, Expr::Var(ref v) if v == "reply"));
    }

    #[test]
    fn a_version_alone_is_no_answer() {
        assert!(response(text("HTTP/1.1"), Span::default()).is_none());
        assert!(response(text("HTTP/1.1 200"), Span::default()).is_none());
        assert!(!opens_response("HTTP/1.1 "));
    }
}
