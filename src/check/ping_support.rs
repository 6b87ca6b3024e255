//! ab-001839/ping-support: `ping` is answered with an empty result object.

use super::{Finding, ServerView, Verdict};
use crate::interp::{Probe, UNKNOWN_METHOD, Value};

pub fn run(v: &ServerView) -> Verdict {
    let run = match v.lifecycle_request("ping") {
        Ok(run) => run,
        Err(skip) => return skip,
    };
    let replies = run.replies();
    if replies.is_empty() {
        return v.dropped(&run, "ping", ": the dispatch drops it");
    }
    let mut findings = Vec::new();
    let mut unreadable = None;
    let mut good = None;
    for r in &replies {
        let problem = match (&r.reply.error, &r.reply.result) {
            (Some(code), _) => Some(match code {
                Some(-32601) => {
                    "`ping` reaches the unknown-method fallback (-32601): there is no ping handler"
                        .to_string()
                }
                Some(c) => format!("`ping` is answered with an error ({c})"),
                None => "`ping` is answered with an error".to_string(),
            }),
            // The spec's empty result may carry `_meta` (a ping that sent `_meta` and
            // gets it back is answered with an empty result).
            (None, Some(Value::Object(entries))) if entries.iter().all(|(k, _)| k == "_meta") => {
                good.get_or_insert(r.reply.at());
                None
            }
            (None, Some(Value::Object(_))) => {
                Some("`ping` is answered with a non-empty object, not `{}`".into())
            }
            (None, Some(Value::Array(_))) => {
                Some("`ping` is answered with an array `[]`, not an empty object `{}`".into())
            }
            (None, Some(Value::Str(s))) => {
                Some(format!("`ping` is answered with the string {s:?}, not an empty object `{{}}`"))
            }
            (None, Some(Value::Null | Value::NoId)) | (None, None) => {
                Some("`ping` is answered with `null`, not an empty object `{}`".into())
            }
            (None, Some(_)) => {
                unreadable.get_or_insert(r.reply.at());
                None
            }
        };
        if let Some(message) = problem {
            findings.push(Finding { span: r.reply.at(), message });
        }
    }
    // A server error on some paths (an inactive tenant, a closed backend) beside a correct
    // answer on others is the server's state, not a missing ping handler.
    let conditional = |f: &Finding| f.message.starts_with("`ping` is answered with an error");
    if good.is_some() && findings.iter().all(conditional) {
        findings.clear();
    }
    // Nor is the unknown-method fallback on one path beside an answer on another (a
    // handler table the scan could not read): ping is handled there.
    let at_fallback = |f: &Finding| f.message.contains("unknown-method fallback");
    if (good.is_some() || unreadable.is_some()) && findings.iter().all(|f| conditional(f) || at_fallback(f)) {
        findings.clear();
    }
    // Errors only, each sent with an HTTP status the scan cannot compute (`status ||
    // 400` of a session check it could not follow): an error status there refuses the
    // request before any handler (no session yet), which says nothing of how ping is
    // answered once it is accepted.
    let unsure = run.unsure_replies();
    if good.is_none()
        && unreadable.is_none()
        && let Some(first) = findings.first()
        && findings.iter().all(|f| conditional(f) && unsure.contains(&f.span))
    {
        return Verdict::skip(format!(
            "`ping` gets an error only in HTTP answers whose status the scan cannot compute ({}): an error status would refuse the request, not answer ping",
            v.at(first.span)
        ));
    }
    // An internal or server error (-32603, -32000..-32099), or an envelope refused
    // (-32600) for a well-formed probe, says the server failed on the paths followed (a
    // response a middleware chain was to fill, a backend), not how ping is answered:
    // no witness either way, when another path's answer cannot be read (`return
    // ctx.response` after the chain). Not so for the fallback that unknown methods
    // reach (a server that answers them with -32603): that is ping unhandled.
    let server_error =
        |r: &&super::SentReply| matches!(r.reply.error, Some(Some(-32600 | -32603 | -32099..=-32000)));
    let unknown = v.peek(Probe::request(UNKNOWN_METHOD));
    // (A reply sent before any decision on the method, on an empty route, is no fallback's.)
    let reaches_fallback = |r: &super::SentReply| {
        !r.path.outcome.route.is_empty()
            && unknown.paths.iter().any(|p| p.outcome.route == r.path.outcome.route)
    };
    let unread_answer = run.paths.iter().any(|p| {
        p.outcome.saw_message
            && !p.outcome.raised
            && match &p.outcome.value {
                Value::Unknown(_) => true,
                Value::Http(h) => matches!(h.body, Some(Value::Unknown(_))),
                _ => false,
            }
            && p.replies(false).is_empty()
    });
    if good.is_none()
        && unreadable.is_none()
        && unread_answer
        && !findings.is_empty()
        && replies.iter().all(|r| server_error(&r) && !reaches_fallback(r))
    {
        let at = replies.iter().map(|r| r.reply.at()).min().unwrap_or(findings[0].span);
        return Verdict::skip(format!(
            "`ping` gets only an internal or server error on the paths followed ({}): that says the server failed there, not how it answers ping",
            v.at(at)
        ));
    }
    // "Server not initialized" (-32002) says the server wants its handshake first; the
    // probe sends `ping` alone, and where the state lives in a local of the read loop
    // the scan cannot run the handshake before it. Beside other refusals that judge
    // the message's context, not its method (an envelope the scan could not validate),
    // it witnesses nothing about how ping is answered after the handshake, when the
    // dispatch has a `ping` arm (without one, ping meets the fallback after it).
    let not_initialized = |r: &super::SentReply| r.reply.error == Some(Some(-32002));
    if v.handles("ping")
        && good.is_none()
        && unreadable.is_none()
        // (The gate stands before the dispatch: an unknown method meets it too.)
        && replies.iter().all(|r| server_error(&r) && (not_initialized(r) || !reaches_fallback(r)))
        && let Some(at) = replies.iter().filter(|r| not_initialized(r)).map(|r| r.reply.at()).min()
    {
        return Verdict::skip(format!(
            "`ping` is refused as \"server not initialized\" (-32002) at {}: the scan sends it without the handshake the server waits for, so how it is answered after that is not known",
            v.at(at)
        ));
    }
    // A generic server error (-32000 to -32003: "server error", "not initialized") that a
    // handled request such as `tools/list` meets just as ping does, at the same place
    // with the same code: a gate every request meets before its handler (a session that
    // must be initialized first, which the probe sent alone cannot open), not how ping
    // is answered when ping has an arm. An internal error from a catch-all beside it
    // counts alike (tools/list meets it too); a refusal that names what the message
    // lacks (-32022, an unsupported revision) is an answer to that ping.
    let gate = |r: &super::SentReply| matches!(r.reply.error, Some(Some(-32003..=-32000 | -32603)));
    if v.handles("ping")
        && good.is_none()
        && unreadable.is_none()
        && !replies.is_empty()
        && replies.iter().all(gate)
        && let Some(other) =
            ["tools/list", "resources/list", "prompts/list"].into_iter().find(|m| v.handles(m))
    {
        let theirs = v.peek(Probe::request(other));
        let key = |r: &super::SentReply| (r.reply.at(), r.reply.error);
        let their_keys: Vec<_> = theirs.replies().iter().map(key).collect();
        if !their_keys.is_empty() && replies.iter().all(|r| their_keys.contains(&key(r))) {
            let at = replies.iter().map(|r| r.reply.at()).min().unwrap_or_default();
            return Verdict::skip(format!(
                "`ping` is refused with a server error at {} as `{other}` is, before either's handler: a gate every request meets (a session the probe cannot open), not how ping is answered",
                v.at(at)
            ));
        }
    }
    if !v.handles("ping")
        && good.is_none()
        && unreadable.is_none()
        && !findings.iter().any(|f| f.message.contains("unknown-method fallback"))
        && let Some(gate) = replies.iter().find(|r| not_initialized(r))
    {
        return Verdict::fail(
            format!(
                "`ping` is refused as \"server not initialized\" (-32002) at {}, and the dispatch has no `ping` arm to answer it after the handshake",
                v.at(gate.reply.at())
            ),
            findings,
        );
    }
    // The missing handler says the most: lead with it.
    findings.sort_by_key(|f| !f.message.contains("unknown-method fallback"));
    if let Some(first) = findings.first() {
        let reason = format!("{} ({})", first.message, v.at(first.span));
        return Verdict::fail(reason, findings);
    }
    match (good, unreadable) {
        (Some(span), None) => {
            Verdict::pass(format!("`ping` is answered with an empty object ({})", v.at(span)), Some(span))
        }
        (_, Some(span)) => {
            Verdict::skip(format!("cannot tell what the `ping` reply at {} holds", v.at(span)))
        }
        (None, None) => Verdict::skip("no reply to `ping` could be read"),
    }
}
