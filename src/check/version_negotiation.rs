//! ab-001837/version-negotiation: initialize returns a protocolVersion the server supports.

use super::{Finding, ServerView, Verdict};
use crate::interp::{Probe, UNKNOWN_METHOD, Value};

enum Source {
    Fixed(String),
    Chosen,
    Negotiated,
    Echoed,
    Unreadable,
}

fn classify(v: &Value) -> Source {
    match v {
        Value::Str(s) => Source::Fixed(s.clone()),
        Value::ClientVersion { checked: true } => Source::Negotiated,
        Value::ClientVersion { checked: false } => Source::Echoed,
        Value::Unknown(parts) => {
            let inner: Vec<Source> = parts.iter().map(classify).collect();
            if inner.iter().any(|s| matches!(s, Source::Echoed)) {
                Source::Echoed
            } else if inner.iter().any(|s| matches!(s, Source::Negotiated)) {
                Source::Negotiated
            } else {
                Source::Chosen
            }
        }
        Value::Int(_) | Value::Bool(_) | Value::Null => Source::Unreadable,
        _ => Source::Chosen,
    }
}

fn protocol_version(result: &Value) -> Option<&Value> {
    match result {
        Value::Object(entries) => entries.iter().find(|(k, _)| k == "protocolVersion").map(|(_, v)| v),
        _ => None,
    }
}

pub fn run(v: &ServerView) -> Verdict {
    let run = match v.lifecycle_request("initialize") {
        Ok(run) => run,
        Err(skip) => return skip,
    };
    let replies = run.replies();
    if replies.is_empty() {
        return v.dropped(&run, "initialize", ", so no protocolVersion is declared");
    }
    // The way an unknown method goes: an invalid-params error there (a fallback that
    // runs a tool named by the method) refuses no version.
    let unknown = v.peek(Probe::request(UNKNOWN_METHOD));
    let fallback: Vec<&Vec<_>> = unknown.paths.iter().map(|p| &p.outcome.route).collect();
    let mut findings = Vec::new();
    let mut passes = Vec::new();
    let mut rejects = None;
    let mut not_found = None;
    let mut unreadable = None;
    for r in &replies {
        if let Some(code) = r.reply.error {
            match code {
                Some(-32602 | -32022) if !fallback.contains(&&r.path.outcome.route) => {
                    rejects = rejects.or(Some(r.reply.at()))
                }
                Some(-32601) => not_found = not_found.or(Some(r.reply.at())),
                _ => {}
            }
            continue;
        }
        let Some(result) = &r.reply.result else {
            continue;
        };
        match protocol_version(result).map(classify) {
            Some(Source::Echoed) => findings.push(Finding {
                span: r.reply.at(),
                message: "returns the client's protocolVersion without checking that the server supports it".into(),
            }),
            Some(Source::Fixed(s)) => passes.push((format!("initialize returns the fixed protocolVersion \"{s}\""), r.reply.at())),
            Some(Source::Negotiated) => passes.push((
                "initialize returns the client's protocolVersion only after checking it against a supported set".into(),
                r.reply.at(),
            )),
            Some(Source::Chosen) => passes.push(("initialize returns a protocolVersion chosen by the server".into(), r.reply.at())),
            Some(Source::Unreadable) => {
                unreadable.get_or_insert(r.reply.at());
            }
            None if matches!(result, Value::Object(_)) => findings.push(Finding {
                span: r.reply.at(),
                message: "the initialize result has no protocolVersion".into(),
            }),
            None => {
                unreadable.get_or_insert(r.reply.at());
            }
        }
    }
    if let Some(first) = findings.first() {
        let reason = format!("{} ({})", first.message, v.at(first.span));
        return Verdict::fail(reason, findings);
    }
    if let Some((reason, span)) = passes.first() {
        let note = match rejects {
            Some(s) => format!("; unsupported versions are rejected with an error at {}", v.at(s)),
            None => String::new(),
        };
        return Verdict::pass(format!("{reason} ({}){note}", v.at(*span)), Some(*span));
    }
    if let Some(span) = rejects {
        return Verdict::pass(
            format!("initialize rejects unsupported protocol versions with -32602 ({})", v.at(span)),
            Some(span),
        );
    }
    // A result on some path says initialize is handled there: the fallback on another
    // (a handler table the scan could not read) is no witness of a missing handler.
    if let (Some(span), None) = (not_found, unreadable) {
        let f = Finding {
            span,
            message: "`initialize` reaches the unknown-method fallback: there is no initialize handler"
                .into(),
        };
        return Verdict::fail(format!("initialize is not handled ({})", v.at(span)), vec![f]);
    }
    match unreadable {
        Some(span) => {
            Verdict::skip(format!("cannot tell what the initialize result at {} holds", v.at(span)))
        }
        None => Verdict::skip("no initialize result could be read"),
    }
}
