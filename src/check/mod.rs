//! Checks: one module per check, each a function from a server's facts to a verdict.
//!
//! A check asks the interpreter what a server does with a probe message and
//! judges the answer. It never passes without evidence: when nothing it needs
//! could be found, it skips and says why.

mod default_branch_guard;
mod http_notification_202;
mod initialized_handled;
mod notification_no_reply;
mod ping_support;
mod version_negotiation;

use crate::group::Server;
use crate::interp::{Cut, Effect, HttpValue, Interp, Outcome, Probe, Program, Reply, UNKNOWN_METHOD, Value};
use crate::model::{CLIENT_NOTIFICATIONS, FnId, Language, Span};
use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum VerdictKind {
    Pass,
    Fail,
    Skip,
}

impl VerdictKind {
    pub fn name(self) -> &'static str {
        match self {
            VerdictKind::Pass => "pass",
            VerdictKind::Fail => "fail",
            VerdictKind::Skip => "skip",
        }
    }
}

/// A place that decided a verdict, with what it shows.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Finding {
    pub span: Span,
    pub message: String,
}

#[derive(Debug, Clone)]
pub struct Verdict {
    pub kind: VerdictKind,
    pub reason: String,
    pub findings: Vec<Finding>,
    /// For a pass: the place that shows it (an id check, the arm that takes a message).
    pub evidence: Option<Span>,
    /// For a failure: other places that explain it (a guard that lets the message through).
    pub related: Vec<Finding>,
}

impl Verdict {
    pub fn skip(reason: impl Into<String>) -> Verdict {
        Verdict {
            kind: VerdictKind::Skip,
            reason: reason.into(),
            findings: Vec::new(),
            evidence: None,
            related: Vec::new(),
        }
    }
    pub fn pass(reason: impl Into<String>, evidence: Option<Span>) -> Verdict {
        Verdict {
            kind: VerdictKind::Pass,
            reason: reason.into(),
            findings: Vec::new(),
            evidence,
            related: Vec::new(),
        }
    }
    pub fn fail(reason: impl Into<String>, mut findings: Vec<Finding>) -> Verdict {
        findings.sort();
        findings.dedup_by(|a, b| a.span == b.span);
        Verdict {
            kind: VerdictKind::Fail,
            reason: reason.into(),
            findings,
            evidence: None,
            related: Vec::new(),
        }
    }

    /// Adds a place that explains a failure.
    pub fn with_related(mut self, span: Span, message: impl Into<String>) -> Verdict {
        self.related.push(Finding { span, message: message.into() });
        self
    }
}

/// A check's identity and implementation.
pub struct CheckDef {
    pub id: &'static str,
    pub run: fn(&ServerView) -> Verdict,
}

impl CheckDef {
    pub fn pattern(&self) -> &'static str {
        self.id.split('/').next().unwrap_or(self.id)
    }

    /// Whether `id` names this check: its own id, or its pattern's.
    pub fn is_named(&self, id: &str) -> bool {
        self.id == id || self.pattern() == id
    }
}

/// Every check, in report order.
pub const CHECKS: &[CheckDef] = &[
    CheckDef { id: "ab-001838/notification-no-reply", run: notification_no_reply::run },
    CheckDef { id: "ab-001838/default-branch-guard", run: default_branch_guard::run },
    CheckDef { id: "ab-001838/initialized-handled", run: initialized_handled::run },
    CheckDef { id: "ab-001837/version-negotiation", run: version_negotiation::run },
    CheckDef { id: "ab-001839/ping-support", run: ping_support::run },
    CheckDef { id: "ab-001835/http-notification-202", run: http_notification_202::run },
];

/// One path from an entry, as a probe ran it.
pub struct PathRun {
    pub entry: FnId,
    pub http: bool,
    /// The entry is where messages arrive (not a dispatcher whose callers are unseen).
    pub transport: bool,
    /// What the entry writes out is the HTTP response's body (a PHP script's output).
    pub output_is_body: bool,
    /// The entry writes its whole HTTP answer onto a connection by hand (a server on a
    /// bare socket): the status line and the body are what it writes, and a path that
    /// writes nothing sends no answer.
    pub writes_answer: bool,
    pub outcome: Outcome,
}

impl PathRun {
    /// The JSON-RPC replies this path sends. A path that never looked at the message
    /// answers every message alike (a parse error, an unknown tenant): that is server
    /// state, not dispatch, and so is an input refused with an HTTP error status.
    /// With `sure_only`, a reply in an HTTP answer whose status the scan cannot compute
    /// is left out (see [`Value::split_replies`]).
    pub(super) fn replies(&self, sure_only: bool) -> Vec<SentReply<'_>> {
        let (mut sure, unsure) = self.sent();
        if !sure_only {
            sure.extend(unsure);
        }
        sure.into_iter().map(|reply| SentReply { reply, path: self }).collect()
    }

    /// The replies a batch probe's path sends as members of an array: the answer to a
    /// batch (a single reply object is the answer of code that took the batch for one
    /// message, which says nothing of how it answers batches).
    fn batch_replies(&self) -> Vec<SentReply<'_>> {
        if !self.answers_message() {
            return Vec::new();
        }
        let mut found = Vec::new();
        for e in &self.outcome.effects {
            if let Effect::Emit { value, .. } = e {
                value.batch_replies(&mut found);
            }
        }
        self.outcome.value.batch_replies(&mut found);
        found.retain(|r| !r.pre_dispatch);
        found.into_iter().map(|reply| SentReply { reply, path: self }).collect()
    }

    /// The first reply whose HTTP status the scan cannot compute.
    fn unsure_reply(&self) -> Option<Span> {
        self.sent().1.iter().map(|r| r.at()).min()
    }

    /// The replies that count (see [`PathRun::replies`]), apart by whether the HTTP
    /// status they go out with is known.
    fn sent(&self) -> (Vec<Rc<Reply>>, Vec<Rc<Reply>>) {
        let (mut sure, mut unsure) = (Vec::new(), Vec::new());
        if !self.answers_message() {
            return (sure, unsure);
        }
        for e in &self.outcome.effects {
            if let Effect::Emit { value, .. } = e {
                value.split_replies(&mut sure, &mut unsure);
            }
        }
        // A returned body sent with a status set on the side that the scan cannot
        // compute ([`Effect::LentStatus`]): a reply in it is an unsure one.
        if lent_status(self).is_some_and(|(status, _)| status == crate::value::HttpStatus::Unknown) {
            let mut also_unsure = Vec::new();
            self.outcome.value.split_replies(&mut also_unsure, &mut unsure);
            unsure.extend(also_unsure);
        } else {
            self.outcome.value.split_replies(&mut sure, &mut unsure);
        }
        sure.retain(|r| !r.pre_dispatch);
        unsure.retain(|r| !r.pre_dispatch);
        (sure, unsure)
    }

    /// Whether what the path sends answers the message: it looked at it, decided on
    /// values the scan knows, ended normally and did not refuse the input.
    fn answers_message(&self) -> bool {
        !self.outcome.raised && self.outcome.saw_message && self.outcome.blind.is_none() && !self.rejected()
    }

    /// The path answered with an HTTP error status: it refused the input (no session,
    /// a bad header) rather than handling the message.
    fn rejected(&self) -> bool {
        self.outcome.effects.iter().any(|e| match e {
            Effect::Emit { value, .. } => value.http().is_some_and(|h| h.status.is_error()),
            _ => false,
        }) || lent_status(self).is_some_and(|(status, _)| status.is_error())
    }
}

/// A JSON-RPC reply that leaves the server on some path.
pub struct SentReply<'r> {
    pub reply: Rc<Reply>,
    pub path: &'r PathRun,
}

/// What makes two probes' replies the same answer: the method decisions that led
/// to it, where it is sent, and its error code (see [`ServerView::lifecycle_gates`]).
pub type GateKey = (Vec<(Span, bool)>, Span, Option<Option<i64>>);

/// A failure whose witnesses are replies sent: one finding per reply, each with the
/// same message (the replies a batch's answer carries to one probe).
pub fn replies_fail(sent: &[SentReply<'_>], message: &str, reason: String) -> Verdict {
    let findings =
        sent.iter().map(|r| Finding { span: r.reply.at(), message: message.to_string() }).collect();
    Verdict::fail(reason, findings)
}

impl SentReply<'_> {
    pub fn gate_key(&self) -> GateKey {
        (self.path.outcome.route.clone(), self.reply.at(), self.reply.error)
    }
}

pub struct ProbeRun {
    pub paths: Vec<PathRun>,
    /// The bound that cut the exploration short, if one did.
    pub cut: Option<Cut>,
    /// The probe is a notification: a reply is what would be wrong.
    notification: bool,
    /// The code rewrote the method name into another one on some path.
    renamed_method: bool,
    /// The prefixes the code tested the method name against (`tools/`).
    pub method_prefixes: std::collections::BTreeSet<String>,
    /// The code tested whether the decoded body is a batch.
    pub tests_batch: bool,
    /// The probe was sent in a batch after a request ([`Probe::beside_request`]).
    beside_request: bool,
}

impl ProbeRun {
    /// Replies written out on any path, or returned by an entry (a framework sends
    /// those). To a notification, a reply in an HTTP answer whose status the scan cannot
    /// compute is no witness (a 4xx would refuse the input): see [`ProbeRun::unsure`].
    pub fn replies(&self) -> Vec<SentReply<'_>> {
        let mut out: Vec<SentReply> = self.paths.iter().flat_map(|p| p.replies(self.notification)).collect();
        out.sort_by_key(|r| r.reply.at());
        out
    }

    /// Whether some path took a decision on the method name: the message reached a
    /// dispatch (a batch answered before it, a gate's 202 for a batch of notifications
    /// alone, did not).
    pub fn dispatched(&self) -> bool {
        self.paths.iter().any(|p| !p.outcome.route.is_empty())
    }

    /// For a batch probe: the replies sent as members of the batch's answer. In a batch
    /// that also holds a request ([`Probe::beside_request`]), only the replies without
    /// an id: the probe's, not the request's (one whose id is unknown witnesses nothing).
    /// Such a probe only adds failures: the checks run it with [`ServerView::peek`], so
    /// what the request's handling leaves unknown (cuts, blind branches) is not theirs.
    pub fn batch_replies(&self) -> Vec<SentReply<'_>> {
        let mut out: Vec<SentReply> = self
            .paths
            .iter()
            // Beside a request, a path that compared a method name with what the scan
            // cannot compute (the request's, maybe) witnesses nothing.
            .filter(|p| !self.beside_request || p.outcome.blind.is_none())
            .flat_map(PathRun::batch_replies)
            .filter(|r| !self.beside_request || matches!(r.reply.id, Value::Null | Value::NoId))
            .collect();
        out.sort_by_key(|r| r.reply.at());
        out
    }

    /// An HTTP answer written by a handler outside the scanned code (`inner.ServeHTTP(w,
    /// r)`), on a path that saw the message: its status and body are both unknown.
    pub fn opaque_answer(&self) -> Option<Span> {
        self.paths.iter().filter(|p| p.outcome.saw_message && !p.outcome.raised).find_map(|p| {
            p.outcome.effects.iter().find_map(|e| match e {
                Effect::Emit { value, span }
                    if value.http().is_some_and(|h| {
                        h.status == crate::value::HttpStatus::Unknown
                            && matches!(h.body, Some(Value::Unknown(ref parts)) if parts.is_empty())
                    }) =>
                {
                    Some(*span)
                }
                _ => None,
            })
        })
    }

    /// The first answer, on a path that looked at the message, the scan cannot read:
    /// an HTTP body built by code it cannot follow, or a JSON-RPC envelope written in
    /// a shape of its own (`{jsonrpc, id, result_json}`). It may hold a reply.
    pub fn unreadable_answer(&self) -> Option<Span> {
        // Written out: an envelope of its own shape, or an HTTP body the scan cannot
        // read (`res.end(JSON.stringify(response))` of a response it cannot follow).
        let written = |p: &PathRun| {
            p.outcome.effects.iter().find_map(|e| match e {
                Effect::Emit { value, span } if value.holds_foreign_envelope() => Some(*span),
                Effect::Emit { value, span }
                    if value.http().is_some_and(
                        |h| matches!(h.body, Some(Value::Unknown(ref parts)) if parts.is_empty()),
                    ) =>
                {
                    Some(*span)
                }
                _ => None,
            })
        };
        self.paths
            .iter()
            .filter(|p| p.outcome.saw_message && !p.outcome.raised)
            .filter_map(|p| {
                // `Ok(response)` from a route: the response it holds.
                let mut value = &p.outcome.value;
                while let Value::Variant(name, Some(inner)) = value
                    && name == "Ok"
                {
                    value = inner.as_ref();
                }
                match value {
                    Value::Http(h) if matches!(h.body, Some(Value::Unknown(ref parts)) if parts.is_empty()) => Some(h.span),
                    _ => written(p),
                }
            })
            .min()
    }

    /// Where the replies are built that go out in an HTTP answer whose status the scan
    /// cannot compute (an error status would make them a refusal), for any probe.
    pub fn unsure_replies(&self) -> Vec<Span> {
        self.paths.iter().flat_map(|p| p.sent().1).map(|r| r.at()).collect()
    }

    /// For a notification: the first reply left out of [`ProbeRun::replies`] because the
    /// HTTP status it goes out with cannot be computed.
    pub fn unsure(&self) -> Option<Span> {
        if !self.notification {
            return None;
        }
        self.paths.iter().filter_map(PathRun::unsure_reply).min()
    }

    /// Whether some path from an HTTP entry looked at the message (its id, its method):
    /// without one, what the HTTP layer answered, it answered whatever was sent.
    pub fn looked_at_message(&self) -> bool {
        self.paths.iter().any(|p| p.http && p.outcome.saw_message)
    }

    /// The first refusal and its status when every HTTP answer is an error status
    /// (400 and up): the transport refused the input on every path that answered it.
    /// None when no path looked at the message: an error answered whatever was sent
    /// (a server missing its configuration, a 500 before the body is read) says
    /// nothing of how this message is taken.
    pub fn refused(&self) -> Option<(u16, Span)> {
        if !self.looked_at_message() {
            return None;
        }
        let answers = self.http_answers();
        let mut first = None;
        for a in &answers {
            match a {
                HttpAnswer::Response(h) if h.status.is_error() => {
                    let status = match h.status {
                        crate::value::HttpStatus::Code(s) => s,
                        _ => 400,
                    };
                    first.get_or_insert((status, h.span));
                }
                _ => return None,
            }
        }
        first
    }

    /// The HTTP answers of the paths that start at an HTTP entry: the response
    /// returned or written, or the bare returned value when there is none.
    pub fn http_answers(&self) -> Vec<HttpAnswer> {
        self.http_answers_by_path().into_iter().map(|(_, a)| a).collect()
    }

    /// [`ProbeRun::http_answers`], each with the path that gave it.
    pub fn http_answers_by_path(&self) -> Vec<(&PathRun, HttpAnswer)> {
        let mut out = Vec::new();
        // Paths that never looked at the message, beside paths that did, are the
        // handler's own failures (a body it could not read): not the answer to it.
        let looked = self.paths.iter().any(|p| p.http && p.outcome.saw_message);
        // An HTTP answer raised (FastAPI's `raise HTTPException(400)`) is what the
        // framework sends.
        let answered = |p: &&PathRun| !p.outcome.raised || p.outcome.value.as_http().is_some();
        for path in self.paths.iter().filter(|p| p.http).filter(answered) {
            if (looked && !path.outcome.saw_message) || path.outcome.blind.is_some() {
                continue;
            }
            // A script run from the command line (`php_sapi_name() === 'cli'`) answers no
            // HTTP request on that path.
            if path.outcome.effects.contains(&Effect::CommandLine(true)) {
                continue;
            }
            if path.writes_answer {
                out.extend(written_answer(path).map(|a| (path, a)));
                continue;
            }
            // A status and a body may be written separately (`WriteHeader(202)`, then
            // `Write(body)`): the answer is the first status with the first body.
            // A PHP script's status is the last one set before its output starts, and
            // what it echoes after setting one is the body (`http_response_code(202)`
            // in a helper that does not end the request, then `echo json_encode($err)`).
            let mut emitted: Option<HttpValue> = None;
            for e in &path.outcome.effects {
                let Effect::Emit { value, .. } = e else { continue };
                let Some(h) = value.http() else {
                    if path.output_is_body
                        && let Some(first) = &mut emitted
                        && first.body.is_none()
                    {
                        first.body = Some(value.clone());
                    }
                    continue;
                };
                match &mut emitted {
                    None => emitted = Some((*h).clone()),
                    Some(first) if path.output_is_body && first.body.is_none() => {
                        first.status = h.status.or(first.status);
                        first.body = h.body.clone();
                        first.span = h.span;
                    }
                    Some(first) => {
                        first.status = first.status.or(h.status);
                        if first.body.is_none() {
                            first.body = h.body.clone();
                        }
                    }
                }
            }
            let emitted = emitted.map(Rc::new);
            // A Rust handler returning `Result<impl IntoResponse, E>`: `Ok(x)` answers x,
            // and so does `Err(x)` when x is an answer itself (`Err(StatusCode::ACCEPTED)`:
            // axum sends the error's own response).
            let value = match &path.outcome.value {
                Value::Variant(name, Some(inner)) if name == "Ok" => inner.as_ref(),
                Value::Variant(name, Some(inner)) if name == "Err" && inner.as_http().is_some() => {
                    inner.as_ref()
                }
                other => other,
            };
            let answer = match (value.as_http(), value, emitted.as_ref()) {
                (Some(h), _, _) => HttpAnswer::Response(h),
                (_, _, Some(h)) => HttpAnswer::Response(h.clone()),
                // A status set on the side (FastAPI's `response.status_code = 404`, see
                // [`Effect::LentStatus`]) and a body returned: the body goes out with
                // that status, `None` encoded as `null`.
                (_, body, None) if let Some((status, span)) = lent_status(path) => {
                    // No body goes out with 204 or 304, whatever is returned.
                    let bodiless = matches!(status, crate::value::HttpStatus::Code(204 | 304));
                    let body = (!bodiless).then(|| body.clone());
                    HttpAnswer::Response(Rc::new(HttpValue { status, body, span }))
                }
                (_, Value::Reply(r), None) => HttpAnswer::Reply(r.clone()),
                // A model object that serialises to a reply (FastAPI's route returning a
                // pydantic `MCPResponse(id=.., error=..)`): that reply, as the body.
                (_, Value::Instance(..), None) if let Value::Reply(r) = value.serialised() => {
                    HttpAnswer::Reply(r)
                }
                // A PHP script's output is the response's body: a reply it echoes is
                // the answer (with PHP's default 200).
                (_, Value::Null, None)
                    if path.output_is_body
                        && let Some(r) = echoed(path) =>
                {
                    HttpAnswer::Reply(r)
                }
                // A JSON array it echoes holding no reply (`echo json_encode($replies)`
                // once every member was a notification): that body, with PHP's 200.
                (_, Value::Null, None)
                    if path.output_is_body
                        && let Some((list, span)) = echoed_list(path) =>
                {
                    HttpAnswer::Response(Rc::new(HttpValue {
                        status: crate::value::HttpStatus::Unset,
                        body: Some(list),
                        span,
                    }))
                }
                (_, Value::Null, None) => HttpAnswer::Nothing(path.entry),
                _ => HttpAnswer::Unknown,
            };
            out.push((path, answer));
        }
        out
    }

    /// The first branch on a method name whose subject the scan could not compute
    /// (see [`crate::interp::Outcome::blind`]).
    pub fn blind(&self) -> Option<Span> {
        self.paths.iter().filter_map(|p| p.outcome.blind).min()
    }

    pub fn sets_initialized(&self) -> Option<Span> {
        self.paths.iter().flat_map(|p| p.outcome.effects.iter()).find_map(|e| match e {
            Effect::SetInitialized(span) => Some(*span),
            _ => None,
        })
    }

    /// The first place on any path that shows how the message was taken.
    pub fn evidence(&self) -> Option<Span> {
        let mut spans: Vec<Span> = self
            .paths
            .iter()
            .filter_map(|p| p.outcome.id_check.or(p.outcome.method_branch).or(p.outcome.prefix_check))
            .collect();
        spans.sort();
        spans.into_iter().next()
    }
}

/// The last status a path set on a response that lends it to the returned body
/// ([`Effect::LentStatus`]), with where.
fn lent_status(path: &PathRun) -> Option<(crate::value::HttpStatus, Span)> {
    path.outcome.effects.iter().rev().find_map(|e| match e {
        Effect::LentStatus { status, span } => Some((*status, *span)),
        _ => None,
    })
}

/// The HTTP answer a path writes onto a connection by hand: the first status line it
/// writes, with the body written with it or, when none was, the next thing it writes.
/// A reply written without a status line the scan can read is an answer it cannot
/// tell; a path that writes nothing answers nothing (the connection ends).
fn written_answer(path: &PathRun) -> Option<HttpAnswer> {
    let writes: Vec<&Value> = path
        .outcome
        .effects
        .iter()
        .filter_map(|e| match e {
            Effect::Emit { value, .. } => Some(value),
            _ => None,
        })
        .collect();
    let Some((at, head)) = writes.iter().enumerate().find_map(|(i, w)| w.http().map(|h| (i, h))) else {
        return (!writes.is_empty()).then_some(HttpAnswer::Unknown);
    };
    if head.body.is_some() {
        return Some(HttpAnswer::Response(head));
    }
    let body = writes.get(at + 1).map(|w| (*w).clone());
    Some(HttpAnswer::Response(Rc::new(HttpValue { body, ..(*head).clone() })))
}

/// The first JSON-RPC reply a path writes out.
fn echoed(path: &PathRun) -> Option<Rc<Reply>> {
    path.outcome.effects.iter().find_map(|e| match e {
        Effect::Emit { value, .. } => value.first_reply(),
        _ => None,
    })
}

/// The first JSON array a path echoes (see [`echoed`]), and where.
fn echoed_list(path: &PathRun) -> Option<(Value, Span)> {
    path.outcome.effects.iter().find_map(|e| match e {
        Effect::Emit { value: list @ Value::Array(_), span } => Some((list.clone(), *span)),
        _ => None,
    })
}

/// A path that ends by raising, or by returning a Go-style `(value, err)` with an error.
fn hands_off_error(o: &Outcome) -> bool {
    o.raised
        || matches!(&o.value, Value::Array(items) if items.len() >= 2
            && items.last().is_some_and(|e| e.is_nullish() == Some(false)))
}

pub enum HttpAnswer {
    Response(Rc<HttpValue>),
    Reply(Rc<Reply>),
    /// The handler returned nothing.
    Nothing(FnId),
    Unknown,
}

/// A server, with its probes run on demand and kept.
pub struct ServerView<'p, 'a> {
    pub prog: &'p Program<'a>,
    pub server: &'p Server,
    pub paths: &'p [String],
    cache: RefCell<HashMap<Probe, Rc<ProbeRun>>>,
    /// When the analysis of this server must stop.
    deadline: std::time::Instant,
    /// Evaluation steps left for this server's probes.
    work_left: std::cell::Cell<usize>,
    /// The steps given ([`ServerView::with_steps`]).
    work_given: usize,
    /// The first cut seen by the check running now, and the probe it cut.
    cut_seen: RefCell<Option<(Cut, Probe)>>,
    /// Some path of some probe decided something on the message.
    saw_message: std::cell::Cell<bool>,
    /// The first path seen by the check running now that hands an error to callers
    /// the scan cannot see, and its probe.
    unseen_error: RefCell<Option<(Span, Probe)>>,
    /// The first notification reply seen by the check running now whose HTTP status
    /// cannot be computed, and its probe.
    unsure_status: RefCell<Option<(Span, Probe)>>,
    /// The first branch on a method name the scan could not compute, met by a probe
    /// of the check running now, and that probe.
    blind_seen: RefCell<Option<(Span, Probe)>>,
    /// An id-less probe answered by a handler outside the scanned code (see
    /// [`ProbeRun::opaque_answer`]): its silence is no witness.
    opaque_seen: RefCell<Option<(Span, Probe)>>,
}

impl<'p, 'a> ServerView<'p, 'a> {
    /// A server to judge, with `budget` for all of its analysis.
    pub fn new(
        prog: &'p Program<'a>,
        server: &'p Server,
        paths: &'p [String],
        budget: std::time::Duration,
    ) -> Self {
        ServerView {
            prog,
            server,
            paths,
            cache: RefCell::new(HashMap::new()),
            deadline: std::time::Instant::now() + budget,
            work_left: std::cell::Cell::new(crate::interp::MAX_SERVER_STEPS),
            work_given: crate::interp::MAX_SERVER_STEPS,
            cut_seen: RefCell::new(None),
            saw_message: std::cell::Cell::new(false),
            unseen_error: RefCell::new(None),
            unsure_status: RefCell::new(None),
            blind_seen: RefCell::new(None),
            opaque_seen: RefCell::new(None),
        }
    }

    /// At most `steps` evaluation steps for all of this server's probes.
    pub fn with_steps(mut self, steps: usize) -> Self {
        self.work_left.set(steps);
        self.work_given = steps;
        self
    }

    /// Evaluation steps the probes run so far took.
    pub fn work_used(&self) -> usize {
        self.work_given - self.work_left.get()
    }

    /// Whether the probes run so far reached a decision on the message.
    pub fn saw_message(&self) -> bool {
        self.saw_message.get()
    }

    /// Runs a check. A pass needs every path followed: when a bound cut short a
    /// probe the check looked at, its pass becomes a skip that says so, and so does
    /// a skip (the cut is the likelier reason). A failure stands: it rests on a path
    /// that was followed to its reply.
    pub fn judge(&self, check: &CheckDef) -> Verdict {
        self.cut_seen.borrow_mut().take();
        self.unseen_error.borrow_mut().take();
        self.unsure_status.borrow_mut().take();
        self.blind_seen.borrow_mut().take();
        self.opaque_seen.borrow_mut().take();
        let verdict = (check.run)(self);
        // A failure rests on a path whose method was known; a pass beside a path where
        // it was not proves nothing.
        if verdict.kind == VerdictKind::Pass
            && let Some((at, probe)) = self.blind_seen.borrow_mut().take()
        {
            return Verdict::skip(blind_reason(self, at, &probe));
        }
        match (verdict.kind, self.cut_seen.borrow_mut().take()) {
            (VerdictKind::Pass | VerdictKind::Skip, Some((cut, probe))) => Verdict::skip(format!(
                "cannot pass: the analysis of `{}`{} was cut short ({}); no reply on the paths followed proves nothing about the others",
                probe.method,
                if probe.has_id { "" } else { " without an id" },
                cut.describe()
            )),
            _ => verdict,
        }
    }

    /// Runs a probe only to compare with another (its cuts, unseen errors and unsure
    /// statuses are not what the check judges).
    pub fn peek(&self, probe: Probe) -> Rc<ProbeRun> {
        self.run_probe(probe)
    }

    pub fn probe(&self, probe: Probe) -> Rc<ProbeRun> {
        let run = self.run_probe(probe.clone());
        if let Some(cut) = run.cut {
            self.cut_seen.borrow_mut().get_or_insert((cut, probe.clone()));
        }
        // An error escaping a program's top level (module code, `main`) ends the
        // program: no caller the scan cannot see is there to answer it.
        let top_level = |id: FnId| self.prog.function(id).starts_program();
        // An error thrown out of a handler that answers HTTP by what it returns (a
        // Lambda or Forge function, a route module's `POST`): the platform hosting it
        // answers with an error status, which refuses a notification rather than
        // replying to it.
        let answers_by_return = |id: FnId| {
            run.paths
                .iter()
                .any(|p| p.entry == id && !p.outcome.raised && matches!(p.outcome.value, Value::Http(_)))
        };
        if let Some(path) = run.paths.iter().find(|p| {
            !p.transport
                && p.outcome.saw_message
                && hands_off_error(&p.outcome)
                && !top_level(p.entry)
                && !(p.outcome.raised && !probe.has_id && answers_by_return(p.entry))
        }) {
            let at = self.prog.function(path.entry).span;
            self.unseen_error.borrow_mut().get_or_insert((at, probe.clone()));
        }
        if let Some(at) = run.unsure() {
            self.unsure_status.borrow_mut().get_or_insert((at, probe.clone()));
        }
        if !probe.has_id
            && let Some(at) = run.opaque_answer()
        {
            self.opaque_seen.borrow_mut().get_or_insert((at, probe.clone()));
        }
        if let Some(at) = run.blind() {
            self.blind_seen.borrow_mut().get_or_insert((at, probe));
        }
        run
    }

    /// Whether the code reads JSON-RPC batches: a probe's path tested whether the
    /// decoded body is an array (or its text opens one). Batch probes are sent only
    /// then.
    pub fn reads_batches(&self) -> bool {
        [Probe::notification("notifications/initialized"), Probe::request("initialize")]
            .into_iter()
            .any(|p| self.run_probe(p).tests_batch)
    }

    /// Whether the handshake a client performs before sending `method` sets the
    /// server's initialized state: its `initialize` does, or (for what follows it) its
    /// `notifications/initialized` does.
    fn handshake_sets_state(&self, method: &str) -> bool {
        const INITIALIZED: &str = "notifications/initialized";
        if method == "initialize" {
            return false;
        }
        let sets = |p: Probe| self.run_probe(p).sets_initialized().is_some();
        sets(Probe::request("initialize"))
            || (method != INITIALIZED && sets(Probe::notification(INITIALIZED)))
    }

    fn run_probe(&self, probe: Probe) -> Rc<ProbeRun> {
        if let Some(r) = self.cache.borrow().get(&probe) {
            return r.clone();
        }
        let handshake = self.handshake_sets_state(&probe.method);
        let mut paths = Vec::new();
        let mut cut = None;
        let mut renamed_method = false;
        let mut tests_batch = false;
        let mut method_prefixes = std::collections::BTreeSet::new();
        for entry in &self.server.entries {
            let anchors = self.server.dispatchers.iter().copied().collect();
            let php = self.prog.file_of(entry.function).language == Language::Php;
            let mut interp = Interp::new(self.prog, probe.clone(), anchors)
                .with_handshake(handshake)
                .with_http_entry(entry.http && !php)
                .with_lead_in(self.server.lead_in.clone())
                .with_deadline(self.deadline)
                .with_allowance(self.work_left.get());
            let outs = interp.run_with(entry.function, &entry.callbacks, &entry.captured);
            self.work_left.set(self.work_left.get().saturating_sub(interp.work()));
            if std::env::var_os("MCP_CONFORM_DEBUG").is_some_and(|v| !v.is_empty()) {
                self.print_outcomes(&probe, entry.function, &interp, &outs);
            }
            // An entry nothing in the scan calls that answers with HTTP responses is an
            // HTTP handler of a host the scan cannot see (a plugin's web endpoint). In a
            // file of a web framework the scan knows, what is served is mounted where the
            // scan sees it: an unmounted handler there is not served.
            let answers_http = entry.http
                || (!entry.transport
                    && !self.prog.file_of(entry.function).web_framework
                    && outs.iter().any(|o| {
                        o.saw_message
                            && !o.raised
                            && (o.value.as_http().is_some() || (php && sets_http_status(o)))
                    }));
            let output_is_body = answers_http && php;
            let writes_answer = entry.http && self.prog.function(entry.function).http_connection;
            for outcome in outs {
                paths.push(PathRun {
                    entry: entry.function,
                    http: answers_http,
                    transport: entry.transport,
                    output_is_body,
                    writes_answer,
                    outcome,
                });
            }
            cut = cut.or(interp.cut);
            renamed_method |= interp.renamed_method;
            tests_batch |= interp.tested_batch;
            method_prefixes.append(&mut interp.method_prefixes);
        }
        if paths.iter().any(|p| p.outcome.saw_message) {
            self.saw_message.set(true);
        }
        let run = Rc::new(ProbeRun {
            paths,
            cut,
            notification: !probe.has_id,
            renamed_method,
            method_prefixes,
            tests_batch,
            beside_request: probe.beside_request,
        });
        self.cache.borrow_mut().insert(probe, run.clone());
        run
    }

    /// Whether a reply to an id-less message is an acknowledgement a branch for
    /// id-less messages sends: a result, not an error; its path tested the message's
    /// id (not only to choose the reply's own id); and it is built where no unknown
    /// request is answered (`if (!("id" in msg)) { route(msg); return {id: "", result:
    /// null} }`, a transport turning a handler's "no reply" into `{"result": "ok"}`).
    /// Such a reply is notification-no-reply's finding: the unknown-method fallback
    /// did not send it, and the message was accepted without an error. An error sent
    /// there (`else sendError(..)` for id-less names it does not know) is the
    /// fallback's refusal all the same.
    pub fn idless_branch_reply(&self, r: &SentReply) -> bool {
        let tested = r.path.outcome.id_check.is_some_and(|test| !r.reply.span.contains(test));
        r.reply.error.is_none()
            && tested
            && !self
                .peek(Probe::request(crate::interp::UNKNOWN_METHOD))
                .replies()
                .iter()
                .any(|u| u.reply.at() == r.reply.at())
    }

    /// Replies that a handled `notifications/initialized` (or `ping`) gets exactly as
    /// an unknown method does (the same method decisions, the same reply site and
    /// error code; see [`GateKey`]): a gate in front of the dispatch (no session yet, not
    /// initialized) that answers every method alike. Replying to a notification there
    /// is notification-no-reply's finding; it is not the unknown-method fallback, nor
    /// a refusal of the initialized notification in particular. Only in front of the
    /// dispatch that handles the notification: another of its paths goes on from the
    /// gate's route to an arm of its own (the fallback of a second dispatcher that
    /// lacks the arm is no gate).
    pub fn lifecycle_gates(&self) -> Vec<GateKey> {
        let unknown = self.peek(Probe::notification(UNKNOWN_METHOD));
        let unknown_routes: Vec<&Vec<(Span, bool)>> =
            unknown.paths.iter().map(|p| &p.outcome.route).collect();
        let sent =
            |run: &ProbeRun| -> Vec<GateKey> { run.replies().iter().map(SentReply::gate_key).collect() };
        // A reply the unknown method gets because it has no id is for id-less messages
        // in particular, not every method alike; a test of the id inside the reply
        // itself (its id chosen by whether there is one) decides no such thing.
        let to_unknown: Vec<GateKey> = unknown
            .replies()
            .iter()
            .filter(|r| r.path.outcome.id_check.is_none_or(|test| r.reply.span.contains(test)))
            .map(SentReply::gate_key)
            .collect();
        let mut gates = Vec::new();
        // A reply both the initialized notification and `ping` get, on the same route
        // and from the same site, refuses them alike (a session check after an allow-list
        // that refuses unknown methods first): a gate too, when it stands in front of
        // both arms.
        let both: Vec<GateKey> = if self.handles("notifications/initialized") && self.handles("ping") {
            let ping = sent(&self.peek(Probe::request("ping")));
            sent(&self.peek(Probe::notification("notifications/initialized")))
                .into_iter()
                .filter(|g| g.2.is_some() && ping.contains(g))
                .collect()
        } else {
            Vec::new()
        };
        // Methods with arms of their own show where the dispatch is: the initialized
        // notification, `ping` (a server that knows only the bare `initialized` still
        // has its gate in front of `ping`), and `tools/list`, which every server with
        // tools has (a server that takes the lifecycle's messages in an id-less branch
        // behind its gate has no arm for either of the others).
        let arms = [
            Probe::notification("notifications/initialized"),
            Probe::request("ping"),
            Probe::request("tools/list"),
        ];
        for probe in arms {
            if !self.handles(&probe.method) {
                continue;
            }
            let known = self.peek(probe);
            let armed: Vec<&Vec<(Span, bool)>> = known
                .paths
                .iter()
                .map(|p| &p.outcome.route)
                .filter(|route| !unknown_routes.contains(route))
                .collect();
            let in_front = |route: &Vec<(Span, bool)>| {
                armed.iter().any(|a| a.len() > route.len() && a.starts_with(route))
            };
            gates.extend(
                sent(&known)
                    .into_iter()
                    .filter(|g| (to_unknown.contains(g) || both.contains(g)) && in_front(&g.0)),
            );
        }
        gates.sort();
        gates.dedup();
        gates
    }

    /// Whether the server answers over HTTP: an entry mounted as an HTTP handler, or
    /// one that answers `initialize` with HTTP responses (see [`ServerView::run_probe`]).
    pub fn serves_http(&self) -> bool {
        self.server.entries.iter().any(|e| e.http)
            || [Probe::request("initialize"), Probe::notification("notifications/initialized")]
                .into_iter()
                .any(|probe| self.probe(probe).paths.iter().any(|p| p.http))
    }

    /// The 2024-11-05 HTTP+SSE transport: where the server sends its `endpoint` event,
    /// and the HTTP entries whose answers to `initialize` carry no reply or that write
    /// the reply out apart from the answer (it goes out on the stream). Streamable
    /// HTTP answers `initialize` in the POST's own response, so only those entries
    /// are the older transport's; a route that carries the reply alone (or whose
    /// answer the scan cannot read) stays Streamable HTTP.
    pub fn legacy_sse(&self) -> Option<(Span, Vec<FnId>)> {
        // The event is sent by the GET route, which may live in another file of the
        // folder (or name the event by a constant declared there).
        let entry_files = self.server.entries.iter().map(|e| self.prog.function(e.function).span.file);
        let folders: std::collections::BTreeSet<&str> = self
            .server
            .files
            .iter()
            .copied()
            .chain(entry_files)
            .filter_map(|f| self.prog.file_by_index(f))
            .map(|f| crate::model::dir_of(&f.path))
            .collect();
        let endpoint = self
            .prog
            .files()
            // The field first: few files send the event, and every server asks.
            .filter(|f| f.sse_endpoint.is_some() && folders.contains(crate::model::dir_of(&f.path)))
            .filter_map(|f| f.sse_endpoint)
            .min()?;
        // Per entry: whether some path answers `initialize` in its own response only
        // (Streamable HTTP's way). An entry with such a path is judged; one whose every
        // answer carries no reply, or that also writes the reply out onto a stream,
        // is the older transport's route.
        let mut inline: std::collections::BTreeMap<FnId, bool> = std::collections::BTreeMap::new();
        let run = self.probe(Probe::request("initialize"));
        for (path, answer) in run.http_answers_by_path() {
            let carries = match &answer {
                // A refusal (auth, a bad header) says nothing about where replies go.
                HttpAnswer::Response(h) if h.status.is_error() => continue,
                HttpAnswer::Response(h) if h.status == crate::value::HttpStatus::Unknown => true,
                HttpAnswer::Response(h) => h
                    .body
                    .as_ref()
                    .is_some_and(|b| b.first_reply().is_some() || matches!(b, Value::Unknown(_))),
                HttpAnswer::Nothing(_) => false,
                HttpAnswer::Reply(_) | HttpAnswer::Unknown => true,
            };
            let streams = !path.output_is_body
                && path.outcome.effects.iter().any(|e| match e {
                    Effect::Emit { value, .. } => value.http().is_none() && value.first_reply().is_some(),
                    _ => false,
                });
            *inline.entry(path.entry).or_insert(false) |= carries && !streams;
        }
        let legacy: Vec<FnId> = inline.into_iter().filter(|(_, inline)| !inline).map(|(e, _)| e).collect();
        (!legacy.is_empty()).then_some((endpoint, legacy))
    }

    /// `MCP_CONFORM_DEBUG=1`: a probe's outcomes from one entry, one line each.
    fn print_outcomes(&self, probe: &Probe, entry: FnId, interp: &Interp, outs: &[Outcome]) {
        let f = self.prog.function(entry);
        eprintln!(
            "probe {:?} entry {} ({}) -> {} outcomes, cut {:?}, {} steps",
            probe,
            f.name,
            f.span.line,
            outs.len(),
            interp.cut,
            interp.work()
        );
        for o in outs {
            let line = |s: Option<Span>| s.map_or(0, |s| s.line);
            let route: Vec<String> =
                o.route.iter().map(|(s, t)| format!("{}{}", s.line, if *t { "+" } else { "-" })).collect();
            let compact = |x: String| x.split_whitespace().collect::<Vec<_>>().join(" ");
            eprintln!(
                "  saw={} raised={} id_check={} method={} route=[{}] blind={}\n    value {}\n    effects {}",
                o.saw_message,
                o.raised,
                line(o.id_check),
                line(o.method_branch),
                route.join(" "),
                o.blind.map_or(String::new(), |s| format!("{}:{}", s.file, s.line)),
                compact(format!("{:?}", o.value)),
                compact(format!("{:?}", o.effects)),
            );
        }
    }

    /// The client notifications worth probing, each with the notifications it stands
    /// for: every one the server's code names stands for itself; the first it never
    /// names stands for all those it never names (code that never spells a method
    /// cannot tell two such notifications apart, so probing each would only repeat
    /// the work) unless the code rewrites the name it is given into another
    /// (`method.replace("/", ".")`), when each is probed.
    pub fn client_notifications(&self) -> Vec<(&'static str, Vec<&'static str>)> {
        let grouped = self.grouped_notifications();
        let renames = grouped.iter().any(|(m, stands_for)| {
            stands_for.len() > 1 && self.run_probe(Probe::notification(m)).renamed_method
        });
        if renames {
            return CLIENT_NOTIFICATIONS.iter().map(|&m| (m, vec![m])).collect();
        }
        grouped
    }

    fn grouped_notifications(&self) -> Vec<(&'static str, Vec<&'static str>)> {
        let named = |m: &str| {
            self.server.methods.contains(m)
                || self
                    .server
                    .files
                    .iter()
                    .any(|&i| self.prog.file_by_index(i).is_some_and(|f| f.source.contains(m)))
        };
        let mut out: Vec<(&'static str, Vec<&'static str>)> = Vec::new();
        let mut unnamed: Option<usize> = None;
        for &m in CLIENT_NOTIFICATIONS {
            match unnamed {
                Some(i) if !named(m) => out[i].1.push(m),
                _ => {
                    if !named(m) {
                        unnamed = Some(out.len());
                    }
                    out.push((m, vec![m]));
                }
            }
        }
        out
    }

    /// `path:line` of a span, for reasons.
    pub fn at(&self, span: Span) -> String {
        let path = self.paths.get(span.file as usize).map(String::as_str).unwrap_or("?");
        format!("{}:{}", path, span.line)
    }

    pub fn handles(&self, method: &str) -> bool {
        self.server.methods.contains(method)
    }

    /// Runs a request for a lifecycle method (`ping`, `initialize`), or says why
    /// the check must skip: the server has no such method in its revision, no
    /// path reaches the dispatch, or no reply can be seen.
    pub fn lifecycle_request(&self, method: &str) -> Result<Rc<ProbeRun>, Verdict> {
        if self.discover_only() {
            return Err(Verdict::skip(format!(
                "the server implements revision 2026-07-28 (server/discover), which has no {method}"
            )));
        }
        let run = self.probe(Probe::request(method));
        if run.paths.is_empty() {
            return Err(Verdict::skip("no path from the server's entry reaches its dispatch"));
        }
        if run.replies().is_empty()
            && let Some(at) = run.blind()
        {
            return Err(Verdict::skip(blind_reason(self, at, &Probe::request(method))));
        }
        if run.replies().is_empty() && !self.replies_visible() {
            return Err(Verdict::skip(format!(
                "no reply to `{method}` could be found (the code that sends replies is not visible)"
            )));
        }
        Ok(run)
    }

    /// Whether any method the server dispatches on gets a reply the scanner can see.
    /// `initialize` and `ping` are asked first: the checks probe them anyway.
    fn replies_visible(&self) -> bool {
        let methods = &self.server.methods;
        let first = ["initialize", "ping"].into_iter().filter(|m| methods.contains(*m));
        let rest = methods.iter().map(String::as_str).filter(|m| !matches!(*m, "initialize" | "ping"));
        let mut order: Vec<String> = first.chain(rest).map(str::to_string).collect();
        order.dedup();
        order.iter().any(|m| !self.probe(Probe::request(m)).replies().is_empty())
    }

    /// A pass for a message that gets no reply: silence proves something only
    /// when the scan can see the server reply to something else.
    pub fn silent_pass(&self, reason: String, evidence: Option<Span>) -> Verdict {
        if let Some((at, probe)) = self.unsure_status.borrow().clone() {
            return Verdict::skip(format!(
                "`{}` without an id is answered at {} with an HTTP status the scan cannot compute: an error status would refuse the input, any other would be a reply",
                probe.method,
                self.at(at)
            ));
        }
        // An error handed back to callers the scan cannot see may become a reply there.
        if let Some((span, probe)) = self.unseen_error.borrow().clone() {
            return Verdict::skip(format!(
                "`{}`{} ends in an error handed back by {} to callers the scan cannot see, which may answer it",
                probe.method,
                if probe.has_id { "" } else { " without an id" },
                self.at(span)
            ));
        }
        if let Some((at, probe)) = self.blind_seen.borrow().clone() {
            return Verdict::skip(blind_reason(self, at, &probe));
        }
        if let Some((at, probe)) = self.opaque_seen.borrow().clone() {
            return Verdict::skip(format!(
                "`{}` without an id is answered at {} with a body the scan cannot read, which may hold a reply",
                probe.method,
                self.at(at)
            ));
        }
        if !self.replies_visible() {
            return Verdict::skip(
                "no reply the server sends could be found, so silence proves nothing (name the function \
                 that sends replies in the configuration's `reply-functions`)",
            );
        }
        Verdict::pass(reason, evidence)
    }

    /// The verdict for a lifecycle request that no path answers.
    /// Silence is a witness only when every path was followed: a cut one may answer.
    pub fn dropped(&self, run: &ProbeRun, method: &str, consequence: &str) -> Verdict {
        if let Some(cut) = run.cut {
            return Verdict::skip(format!(
                "no reply to `{method}` on the paths followed, but the analysis was cut short ({})",
                cut.describe()
            ));
        }
        if let Some(at) = run.unreadable_answer() {
            return Verdict::skip(format!(
                "`{method}` is answered at {} with a body the scan cannot read, so whether it holds a reply is unknown",
                self.at(at)
            ));
        }
        // An error handed back to callers the scan cannot see may become the reply there.
        if let Some((span, probe)) = self.unseen_error.borrow().clone()
            && probe.method == method
        {
            return Verdict::skip(format!(
                "`{method}` ends in an error handed back by {} to callers the scan cannot see, which may answer it",
                self.at(span)
            ));
        }
        // Over HTTP, refused with an error status on every path: no reply, said as it is.
        if let Some((status, at)) = run.refused() {
            return Verdict::fail(
                format!("`{method}` is refused with HTTP {status} ({}), so it gets no reply", self.at(at)),
                vec![Finding { span: at, message: format!("`{method}` is refused here with HTTP {status}") }],
            );
        }
        Verdict::fail(
            format!("`{method}` gets no reply{consequence}"),
            vec![Finding {
                span: run.evidence().unwrap_or(self.server.span),
                message: format!("`{method}` is dropped here without a reply"),
            }],
        )
    }

    /// Revision 2026-07-28 servers have no handshake: they answer `server/discover` instead.
    pub fn discover_only(&self) -> bool {
        self.handles("server/discover") && !self.handles("initialize")
    }
}

/// Why a probe that met a branch on an uncomputable method name, or on whether the
/// id is there, decides nothing.
fn blind_reason(v: &ServerView, at: Span, probe: &Probe) -> String {
    format!(
        "the method name or the id's presence is tested at {} on a value the scan cannot compute (it goes through code the scan cannot follow), so the branch {} takes cannot be told",
        v.at(at),
        if probe.method == crate::interp::UNKNOWN_METHOD {
            "an unknown method".to_string()
        } else {
            format!("`{}`", probe.method)
        }
    )
}

/// Whether a PHP path sets the status of the HTTP response being sent
/// (`http_response_code(202)` before the body is returned or echoed): PHP's status is
/// the script's, whoever calls it.
fn sets_http_status(o: &crate::interp::Outcome) -> bool {
    o.effects.iter().any(|e| match e {
        crate::value::Effect::Emit { value: Value::Unknown(parts), .. } => {
            parts.iter().any(|p| matches!(p, Value::Http(h) if h.status != crate::value::HttpStatus::Unset))
        }
        crate::value::Effect::Emit { value: Value::Http(h), .. } => {
            h.status != crate::value::HttpStatus::Unset
        }
        _ => false,
    })
}

#[cfg(test)]
mod tests {
    use super::{PathRun, ProbeRun};
    use crate::interp::Outcome;
    use crate::model::Span;
    use crate::value::{HttpStatus, HttpValue, Value};
    use std::rc::Rc;

    fn answered(status: u16, saw_message: bool) -> PathRun {
        let http = HttpValue { status: HttpStatus::Code(status), body: None, span: Span::default() };
        PathRun {
            entry: 0,
            http: true,
            transport: true,
            output_is_body: false,
            writes_answer: false,
            outcome: Outcome { value: Value::Http(Rc::new(http)), saw_message, ..Outcome::unknown() },
        }
    }

    fn run(paths: Vec<PathRun>) -> ProbeRun {
        ProbeRun {
            paths,
            cut: None,
            notification: true,
            renamed_method: false,
            tests_batch: false,
            method_prefixes: Default::default(),
            beside_request: false,
        }
    }

    #[test]
    fn a_refusal_on_every_path_that_read_the_message_is_a_refusal() {
        let refused = run(vec![answered(500, false), answered(401, true)]).refused();
        assert_eq!(refused.map(|(status, _)| status), Some(401));
    }

    #[test]
    fn an_error_sent_before_the_message_is_read_refuses_nothing() {
        // A server missing its configuration answers 500 to every request; with no
        // path that read the message, that is no witness of how it is taken.
        let unread = run(vec![answered(500, false)]);
        assert!(!unread.looked_at_message());
        assert_eq!(unread.refused(), None);
    }
}
