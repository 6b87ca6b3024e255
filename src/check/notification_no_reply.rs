//! ab-001838/notification-no-reply: no client notification gets a JSON-RPC reply.

use super::{Finding, ServerView, Verdict};
use crate::interp::Probe;

pub fn run(v: &ServerView) -> Verdict {
    let mut findings: Vec<Finding> = Vec::new();
    let mut first_failing = None;
    let mut judged = false;
    let mut evidence = None;
    for (method, stands_for) in v.client_notifications() {
        let run = v.probe(Probe::notification(method));
        if run.paths.is_empty() {
            continue;
        }
        judged = true;
        for sent in run.replies() {
            let kind = if sent.reply.error.is_some() { "an error" } else { "a result" };
            first_failing.get_or_insert((method, kind, sent.reply.at()));
            let finding = match findings.iter_mut().find(|f| f.span == sent.reply.at()) {
                Some(f) => f,
                None => {
                    findings.push(Finding {
                        span: sent.reply.at(),
                        message: format!(
                            "replies to `{method}` with {kind}: a notification must get no response"
                        ),
                    });
                    findings.last_mut().expect("just pushed")
                }
            };
            for m in &stands_for {
                if !finding.message.contains(&format!("`{m}`")) {
                    finding.message = finding.message.replacen("` with", &format!("`, `{m}` with"), 1);
                }
            }
        }
        evidence = evidence.or(run.evidence());
    }
    if let Some((method, kind, span)) = first_failing {
        let reason = format!("the notification `{method}` gets {kind} reply (built at {})", v.at(span));
        return Verdict::fail(reason, findings);
    }
    // In a batch (JSON-RPC: "including those that are within a batch request"): the
    // answer to a batch holding the notification carries a reply to it. Sent alone
    // in the batch, then, where that batch was answered before any method decision
    // (a 202 for notifications only), after a request: such code may dispatch every
    // member, and answer each, once one of them is a request.
    if judged && v.reads_batches() {
        let mut gated = Vec::new();
        for beside in [false, true] {
            for (method, _) in v.client_notifications() {
                let (run, how) = match beside {
                    false => (v.probe(Probe::notification(method).in_batch()), "in a batch"),
                    true if gated.contains(&method) => (
                        v.peek(Probe::notification(method).in_batch_beside_request()),
                        "in a batch after a request",
                    ),
                    true => continue,
                };
                if !beside && !run.dispatched() {
                    gated.push(method);
                }
                let sent = run.batch_replies();
                let Some(first) = sent.first() else { continue };
                let kind = if first.reply.error.is_some() { "an error" } else { "a result" };
                let message = format!(
                    "replies to `{method}` sent {how} with {kind}: a notification in a batch must get no response"
                );
                let reason = format!(
                    "the notification `{method}`, sent {how}, gets {kind} reply in the batch's answer (built at {})",
                    v.at(first.reply.at())
                );
                return super::replies_fail(&sent, &message, reason);
            }
        }
    }
    if !judged {
        return Verdict::skip("no path from the server's entry reaches its dispatch");
    }
    let how = match evidence {
        Some(span) => format!(" (decided at {})", v.at(span)),
        None => String::new(),
    };
    v.silent_pass(format!("client notifications get no JSON-RPC reply{how}"), evidence)
}
