//! ab-001835/http-notification-202: over HTTP a notification gets 202 with an empty body.

use super::{Finding, HttpAnswer, ServerView, Verdict};
use crate::group::Transport;
use crate::interp::{Probe, Value};
use crate::model::FnId;
use crate::value::{HttpStatus, HttpValue};

pub fn run(v: &ServerView) -> Verdict {
    if !v.serves_http() {
        return if v.server.transports.contains(&Transport::Stdio) {
            Verdict::skip("stdio-only server: no HTTP transport")
        } else {
            Verdict::skip("no HTTP transport found for this server")
        };
    }
    // Every client notification: a 202 arm for `notifications/initialized` does not
    // excuse a fallback that answers the others with 200 and a JSON body.
    let runs: Vec<_> =
        v.client_notifications().into_iter().map(|(m, _)| v.probe(Probe::notification(m))).collect();
    // Routes of the older HTTP+SSE transport answer POSTs without the reply (it goes out
    // on the stream): this check judges Streamable HTTP, so their answers are left out.
    let legacy = v.legacy_sse();
    let old_route = |entry: &FnId| legacy.as_ref().is_some_and(|(_, routes)| routes.contains(entry));
    let answers: Vec<HttpAnswer> = runs
        .iter()
        .flat_map(|run| run.http_answers_by_path())
        .filter(|(path, _)| !old_route(&path.entry))
        .map(|(_, a)| a)
        .collect();
    if answers.is_empty()
        && let Some((endpoint, routes)) = &legacy
    {
        let post = v.prog.function(routes[0]).span;
        return Verdict::skip(format!(
            "the HTTP transport is the 2024-11-05 HTTP+SSE transport (an `endpoint` event at {}; the POST route at {} sends its replies out on the stream): http-notification-202 judges Streamable HTTP",
            v.at(*endpoint),
            v.at(post)
        ));
    }
    let looked = runs.iter().any(|run| run.looked_at_message());
    let mut findings: Vec<Finding> = Vec::new();
    let mut good = None;
    let mut refused = None;
    let mut unknown = false;
    let mut unknown_body = None;
    let mut redirected = None;
    let mut upgraded = None;
    for answer in &answers {
        let mut note = |judged: Judged| match judged {
            Judged::Problem(span, message) => Some((span, message)),
            Judged::Good(span) => {
                good.get_or_insert(span);
                None
            }
            Judged::Refused(span) => {
                refused.get_or_insert(span);
                None
            }
            Judged::Redirected(span) => {
                redirected.get_or_insert(span);
                None
            }
            Judged::Upgraded(span) => {
                upgraded.get_or_insert(span);
                None
            }
            Judged::Unknown(body) => {
                unknown = true;
                if let Some(span) = body {
                    unknown_body.get_or_insert(span);
                }
                None
            }
        };
        let problem = match answer {
            HttpAnswer::Response(h) => note(judge(h)),
            HttpAnswer::Reply(r) => Some((r.at(), "answers a notification with HTTP 200 and a JSON-RPC body".to_string())),
            // A framework that sends nothing then (http.server): no answer to judge.
            HttpAnswer::Nothing(entry) if v.prog.function(*entry).http_silent_unanswered => None,
            HttpAnswer::Nothing(entry) => Some((
                v.prog.function(*entry).span,
                "returns nothing for a notification: the framework answers 200 (with a `null` or empty body), not 202".to_string(),
            )),
            HttpAnswer::Unknown => note(Judged::Unknown(None)),
        };
        if let Some((span, message)) = problem
            && !findings.iter().any(|f| f.span == span)
        {
            findings.push(Finding { span, message });
        }
    }
    // A batch of notifications only: answered by code that reads batches with a JSON
    // array (`[]` once every notification is dropped) instead of 202 and no body.
    if v.reads_batches() {
        for (m, _) in v.client_notifications() {
            let run = v.probe(Probe::notification(m).in_batch());
            for (path, answer) in run.http_answers_by_path() {
                let HttpAnswer::Response(h) = &answer else { continue };
                let status = match h.status {
                    HttpStatus::Code(s) => s,
                    HttpStatus::Unset => 200,
                    _ => continue,
                };
                // An array the scan knows every member of (an item it cannot compute may be
                // what the code keeps for a notification it meant to drop), or text it
                // knows is not empty (`JSON.stringify("")` sends `""`).
                let known_array = matches!(&h.body, Some(Value::Array(items))
                    if !items.iter().any(|i| matches!(i, Value::Unknown(_))));
                let known_text = matches!(&h.body, Some(Value::Str(s)) if !s.is_empty());
                if old_route(&path.entry)
                    || h.status.is_error()
                    || !(known_array || known_text)
                    || findings.iter().any(|f| f.span == h.span)
                {
                    continue;
                }
                let body = if known_array { "a JSON array body" } else { "a body" };
                findings.push(Finding {
                    span: h.span,
                    message: format!(
                        "answers a batch holding only notifications with HTTP {status} and {body}; it must be 202 Accepted with an empty body"
                    ),
                });
            }
        }
    }
    if let Some(first) = findings.first() {
        let reason = format!("{} ({})", first.message, v.at(first.span));
        return Verdict::fail(reason, findings);
    }
    match (good, refused) {
        // A WebSocket route beside no 202: an error status there refuses the upgrade,
        // not a notification.
        (None, _) if let Some(span) = upgraded => Verdict::skip(format!(
            "the HTTP handler upgrades the connection to a WebSocket ({}): messages then travel as WebSocket frames, not as HTTP POSTs, and http-notification-202 judges Streamable HTTP",
            v.at(span)
        )),
        (Some(span), _) if !unknown => Verdict::pass(
            format!("a notification gets 202 Accepted with an empty body ({})", v.at(span)),
            Some(span),
        ),
        // Error statuses only, all sent before the message is read (a server missing
        // its configuration): no witness of how a notification is taken.
        (None, Some(span)) if !unknown && !looked => Verdict::skip(format!(
            "the only HTTP answers found are error statuses sent before the message is read ({}): how a notification is answered is not visible",
            v.at(span)
        )),
        (None, Some(span)) if !unknown => Verdict::pass(
            format!(
                "notifications are refused with an HTTP error status ({}), which Streamable HTTP allows for input the server does not accept",
                v.at(span)
            ),
            Some(span),
        ),
        _ if answers.is_empty() => Verdict::skip("no path from the HTTP handler reaches the dispatch"),
        (None, None) if !unknown && let Some(span) = redirected => Verdict::skip(format!(
            "a notification is only redirected ({}): what the server it is sent to answers is not in this code",
            v.at(span)
        )),
        _ if let Some(span) = unknown_body => Verdict::skip(format!(
            "a notification gets 202 with a body the scan cannot compute ({}): whether it is empty is unknown",
            v.at(span)
        )),
        _ => Verdict::skip("cannot tell what the HTTP handler answers to a notification"),
    }
}

/// How one response answers a notification.
enum Judged {
    Problem(crate::model::Span, String),
    Good(crate::model::Span),
    /// An error status: the server could not accept the input.
    Refused(crate::model::Span),
    Redirected(crate::model::Span),
    /// The connection was upgraded to a WebSocket.
    Upgraded(crate::model::Span),
    /// Not computed: the status, or (with where) a 202's body.
    Unknown(Option<crate::model::Span>),
}

fn judge(h: &HttpValue) -> Judged {
    match (h.status, &h.body) {
        // An error status means the server could not accept the input (auth, a bad request): allowed.
        (status, _) if status.is_error() => Judged::Refused(h.span),
        // A redirect (a middleware sending other hosts to the canonical one) answers
        // no message: the request is sent elsewhere.
        (HttpStatus::Code(300..=399), _) => Judged::Redirected(h.span),
        // 101 Switching Protocols: the request became a WebSocket.
        (HttpStatus::Code(101), _) => Judged::Upgraded(h.span),
        // A status computed from what the scan cannot resolve may be an error status.
        (HttpStatus::Unknown, _) => Judged::Unknown(None),
        (HttpStatus::Code(202), None) => Judged::Good(h.span),
        (HttpStatus::Code(202), Some(Value::Str(s))) if s.is_empty() => Judged::Good(h.span),
        (HttpStatus::Code(202), Some(Value::Null)) => Judged::Problem(
            h.span,
            "answers a notification with 202 and the body `null`; the body must be empty".to_string(),
        ),
        // A body the scan cannot compute may be empty (`res.json(undefined)`).
        (HttpStatus::Code(202), Some(Value::Unknown(parts))) if parts.is_empty() => {
            Judged::Unknown(Some(h.span))
        }
        (HttpStatus::Code(202), Some(_)) => Judged::Problem(
            h.span,
            "answers a notification with 202 and a body; the body must be empty".to_string(),
        ),
        (status, body) => Judged::Problem(
            h.span,
            format!(
                "answers a notification with HTTP {}{}; it must be 202 Accepted with an empty body",
                match status {
                    HttpStatus::Code(s) => s,
                    _ => 200,
                },
                describe(body.as_ref())
            ),
        ),
    }
}

fn describe(body: Option<&Value>) -> &'static str {
    match body {
        None => "",
        Some(b) if b.first_reply().is_some() => " and a JSON-RPC body",
        Some(Value::Null | Value::NoId) => " and the body `null`",
        Some(Value::Str(s)) if s.is_empty() => " and an empty body",
        Some(_) => " and a body",
    }
}
