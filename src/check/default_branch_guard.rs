//! ab-001838/default-branch-guard: the unknown-method fallback checks for an id before replying.

use super::{Finding, ServerView, Verdict};
use crate::interp::{Probe, UNKNOWN_METHOD, UNKNOWN_NOTIFICATION};

/// The name under a prefix the code tests that no handler knows.
const FAMILY_MEMBER: &str = "mcp-conform-unknown";

pub fn run(v: &ServerView) -> Verdict {
    let run = v.probe(Probe::notification(UNKNOWN_METHOD));
    if run.paths.is_empty() {
        return Verdict::skip("no path from the server's entry reaches its dispatch");
    }
    let gates = v.lifecycle_gates();
    let replies: Vec<_> = run
        .replies()
        .into_iter()
        .filter(|r| !gates.contains(&r.gate_key()) && !v.idless_branch_reply(r))
        .collect();
    if let Some(first) = replies.first() {
        let prefix = first.path.outcome.prefix_check;
        let hint = match prefix {
            Some(span) => format!(
                "; the `notifications/` prefix test at {} lets other id-less methods through",
                v.at(span)
            ),
            None => String::new(),
        };
        let findings = replies
            .iter()
            .map(|r| Finding {
                span: r.reply.at(),
                message: format!(
                    "the unknown-method fallback replies to a message without an id{}",
                    if prefix.is_some() { " that is not under `notifications/`" } else { "" }
                ),
            })
            .collect();
        let reason = format!(
            "an id-less message with an unknown method gets a reply at {}{hint}",
            v.at(first.reply.at())
        );
        let verdict = Verdict::fail(reason, findings);
        return match prefix {
            Some(span) => verdict
                .with_related(span, "this `notifications/` prefix test lets other id-less methods through"),
            None => verdict,
        };
    }
    // An id-less message under `notifications/` that no handler knows: where only
    // id-less messages outside the prefix are dropped, it reaches the fallback, which
    // answers it at the same place it answers an unknown request.
    let fallback: Vec<_> =
        v.peek(Probe::request(UNKNOWN_METHOD)).replies().iter().map(|r| r.reply.at()).collect();
    // The fallback's answers to an id-less message of a given name.
    let fallback_answers = |name: &str, message: &str| -> Vec<Finding> {
        v.probe(Probe::notification(name))
            .replies()
            .iter()
            .filter(|r| fallback.contains(&r.reply.at()))
            .filter(|r| !gates.contains(&r.gate_key()))
            .map(|r| Finding { span: r.reply.at(), message: message.to_string() })
            .collect()
    };
    let answered = fallback_answers(
        UNKNOWN_NOTIFICATION,
        "the unknown-method fallback replies to an id-less message under `notifications/`",
    );
    if let Some(first) = answered.first() {
        let reason = format!(
            "an id-less `notifications/` message no handler knows gets a reply from the unknown-method fallback at {}; only id-less methods outside the prefix are dropped",
            v.at(first.span)
        );
        return Verdict::fail(reason, answered);
    }
    // A family of names the code tests the method against on the way (`if id is None
    // and not method.startswith("tools/")`): an id-less name of that family no handler
    // knows may pass the guard the probe met and reach the fallback.
    for prefix in run.method_prefixes.iter().filter(|p| !UNKNOWN_METHOD.starts_with(p.as_str())) {
        if UNKNOWN_NOTIFICATION.starts_with(prefix.as_str()) {
            continue;
        }
        let answered = fallback_answers(
            &format!("{prefix}{FAMILY_MEMBER}"),
            &format!("the unknown-method fallback replies to an id-less `{prefix}` message no handler knows"),
        );
        if let Some(first) = answered.first() {
            let reason = format!(
                "an id-less `{prefix}` message no handler knows (`{prefix}{FAMILY_MEMBER}`) gets a reply from the unknown-method fallback at {}; the code tests the `{prefix}` prefix on the way and drops other id-less methods",
                v.at(first.span)
            );
            return Verdict::fail(reason, answered);
        }
    }
    // An id-less unknown method sent in a batch: the batch's answer carries the
    // fallback's reply to it. Alone in the batch, then after a request where the
    // batch alone was answered before any method decision (see notification-no-reply).
    if v.reads_batches() {
        let mut gated = false;
        for beside in [false, true] {
            let (batch, how) = match beside {
                false => (v.probe(Probe::notification(UNKNOWN_METHOD).in_batch()), "in a batch"),
                true if gated => (
                    v.peek(Probe::notification(UNKNOWN_METHOD).in_batch_beside_request()),
                    "in a batch after a request",
                ),
                true => continue,
            };
            gated |= !beside && !batch.dispatched();
            let sent: Vec<_> =
                batch.batch_replies().into_iter().filter(|r| !gates.contains(&r.gate_key())).collect();
            if let Some(first) = sent.first() {
                let message =
                    format!("the unknown-method fallback replies to a message without an id sent {how}");
                let reason = format!(
                    "an id-less message with an unknown method, sent {how}, gets a reply in the batch's answer at {}",
                    v.at(first.reply.at())
                );
                return super::replies_fail(&sent, &message, reason);
            }
        }
    }
    let evidence = run.evidence();
    let how = match evidence {
        Some(span) => format!(" (decided at {})", v.at(span)),
        None => String::new(),
    };
    v.silent_pass(format!("an id-less message with an unknown method gets no reply{how}"), evidence)
}
