//! ab-001838/initialized-handled: `notifications/initialized` is accepted without an error.

use super::{Finding, ServerView, Verdict};
use crate::interp::{Probe, UNKNOWN_METHOD};

const NAME: &str = "notifications/initialized";

pub fn run(v: &ServerView) -> Verdict {
    if v.discover_only() {
        return Verdict::skip(
            "the server implements revision 2026-07-28 (server/discover), which has no initialized notification",
        );
    }
    let run = v.probe(Probe::notification(NAME));
    if run.paths.is_empty() {
        return Verdict::skip("no path from the server's entry reaches its dispatch");
    }
    let bare_only = v.handles("initialized") && !v.handles(NAME);
    let hint = if bare_only { "; only the bare name `initialized` is matched" } else { "" };
    // A gate that refuses every method alike (no session yet) is not a refusal of
    // this notification: a client that completed the handshake passes it.
    let gates = v.lifecycle_gates();
    let findings: Vec<Finding> = run
        .replies()
        .iter()
        .filter(|r| r.reply.error.is_some())
        .filter(|r| !gates.contains(&r.gate_key()))
        .map(|r| Finding { span: r.reply.at(), message: format!("`{NAME}` reaches this error reply{hint}") })
        .collect();
    if let Some(first) = findings.first() {
        let reason = format!("`{NAME}` is rejected with an error at {}{hint}", v.at(first.span));
        return Verdict::fail(reason, findings);
    }
    // Over HTTP, refused with an error status on every path that looked at it: not accepted.
    if let Some((status, at)) = run.refused() {
        let reason =
            format!("`{NAME}` is refused with HTTP {status} ({}): the lifecycle never completes", v.at(at));
        let finding = Finding { span: at, message: format!("`{NAME}` is refused here with HTTP {status}") };
        return Verdict::fail(reason, vec![finding]);
    }
    // Taken the way an unknown method is, by a fallback that answers it: not accepted.
    let unknown = v.peek(Probe::notification(UNKNOWN_METHOD));
    let fallback_routes: Vec<&Vec<_>> = unknown.paths.iter().map(|p| &p.outcome.route).collect();
    let fallback: Vec<Finding> = run
        .replies()
        .iter()
        .filter(|r| fallback_routes.contains(&&r.path.outcome.route))
        .filter(|r| !gates.contains(&r.gate_key()) && !v.idless_branch_reply(r))
        .map(|r| Finding {
            span: r.reply.at(),
            message: format!("`{NAME}` reaches the unknown-method fallback, which answers it{hint}"),
        })
        .collect();
    if let Some(first) = fallback.first() {
        let reason = format!(
            "`{NAME}` is not handled: it falls to the unknown-method fallback ({}){hint}",
            v.at(first.span)
        );
        return Verdict::fail(reason, fallback);
    }
    // State that only the bare name sets never completes the real handshake. State
    // that any method sets on its way (a lazy start-up in the fallback) is no
    // handshake state of the bare name's.
    if run.sets_initialized().is_none() && unknown.sets_initialized().is_none() {
        let bare = v.peek(Probe::notification("initialized"));
        if let Some(span) = bare.sets_initialized() {
            let reason = format!(
                "the initialized state is set only for the bare name `initialized` ({}); `{NAME}` never sets it",
                v.at(span)
            );
            let finding = Finding {
                span,
                message: format!("set only under the bare name `initialized`, not `{NAME}`"),
            };
            return Verdict::fail(reason, vec![finding]);
        }
    }
    let evidence = run.evidence();
    let how = match evidence {
        Some(span) => format!(" (taken at {})", v.at(span)),
        None => String::new(),
    };
    v.silent_pass(format!("`{NAME}` is accepted without an error{how}"), evidence)
}
