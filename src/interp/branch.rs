//! Branches: conditions decided by the probe, `match` arms, and what an
//! undecided condition tells about the values on each side.

use super::{Interp, State, Status};
use crate::model::{Arm, Block, Expr, Pattern, Span, Stmt};
use crate::value::{Effect, Value};

/// What a condition looked at: the message's id, its method, a `notifications/`
/// prefix, or an MCP method name compared with a value the scan could not compute.
#[derive(Clone, Copy)]
pub(super) struct Touched {
    id: bool,
    method: bool,
    prefix: bool,
    blind: bool,
}

impl<'p, 'a> Interp<'p, 'a> {
    /// The condition's truth on each path, and what it looked at (see [`Touched`]).
    pub(super) fn decide(&mut self, st: State, cond: &Expr) -> Vec<(State, Option<bool>, Touched)> {
        let saved = (self.touched_id, self.touched_method, self.touched_prefix, self.touched_blind);
        self.touched_id = false;
        self.touched_method = false;
        self.touched_prefix = false;
        self.touched_blind = false;
        // A test of the message stored ahead of the branch (`if is_notification`).
        let mut stored = (false, false);
        if !st.tests.is_empty() {
            cond.walk(&mut |e| {
                if let Expr::Var(name) = e
                    && let Some(&(id, method)) = st.tests.get(name)
                {
                    stored = (stored.0 | id, stored.1 | method);
                }
            });
        }
        let results = self.eval(st, cond);
        let touched = Touched {
            id: self.touched_id | stored.0,
            method: self.touched_method | stored.1,
            prefix: self.touched_prefix,
            blind: self.touched_blind,
        };
        self.touched_id = saved.0;
        self.touched_method = saved.1;
        self.touched_prefix = saved.2;
        self.touched_blind = saved.3;
        results.into_iter().map(|(s, v)| (s, v.truthy(), touched)).collect()
    }

    pub(super) fn eval_if(
        &mut self,
        st: State,
        cond: &Expr,
        then: &Block,
        otherwise: &Block,
        span: Span,
    ) -> Vec<(State, Value)> {
        let mut out = Vec::new();
        // `if (path === "/health") return health()` in a router above the server: the
        // probe is POSTed to the server's endpoint, not to a route that never reaches it.
        let mut elsewhere: Option<bool> = None;
        let mut mode: Option<Option<bool>> = None;
        for (s, truth, Touched { id, method, prefix, blind }) in self.decide(st, cond) {
            if truth.is_none() && mode.is_none() {
                mode = Some(self.command_mode(&s, then, otherwise));
            }
            // `if (path !== "/mcp") return notFound()`: the probe is at the route the
            // other side keeps.
            if truth.is_none() && elsewhere.is_none() {
                let other_route = is_other_route_test(cond)
                    && matches!(then.last(), Some(Stmt::Return { .. } | Stmt::Exit { .. }));
                // `if (url.pathname !== "/mcp") return false;` even inside a dispatch: a
                // plain value handed back says "not mine" to the router that called it.
                let declines = other_route && declines_only(then);
                elsewhere = Some(
                    (is_route_test(cond) || other_route)
                        && (declines || !self.leads_to_server(then))
                        && !self.hands_server_function(&s, then),
                );
            }
            let branches: &[bool] = match truth {
                Some(true) => &[true],
                Some(false) => &[false],
                None if elsewhere == Some(true) => &[false],
                None if let Some(Some(b)) = mode => {
                    if b {
                        &[true]
                    } else {
                        &[false]
                    }
                }
                None => &[true, false],
            };
            let mut taken: Vec<Vec<(State, Value)>> = Vec::with_capacity(branches.len());
            for &b in branches {
                let mut outs = Vec::new();
                let mut s2 = s.clone();
                if truth.is_some() {
                    s2.saw_message |= id || method;
                    if id {
                        s2.id_check = Some(span);
                    }
                    if method {
                        s2.method_branch = Some(span);
                        s2.note_route(span, b);
                    }
                    if prefix {
                        s2.prefix_check = Some(span);
                    }
                } else {
                    refine(&mut s2, cond, b);
                    stored_version_test(&mut s2, cond, b);
                    if blind {
                        s2.blind = s2.blind.or(Some(span));
                    }
                }
                self.refine_by_predicate(&mut s2, cond, b);
                let block = if b { then } else { otherwise };
                for mut s3 in self.exec_block(s2, block) {
                    let v = s3.yielded.take().unwrap_or(Value::Null);
                    outs.push((s3, v));
                }
                taken.push(outs);
            }
            if truth.is_none() {
                drop_refusal_of_valid_input(&s, &mut taken);
            }
            out.extend(taken.into_iter().flatten());
        }
        out
    }

    /// `if args.len() >= 2 { match args[1] { "setup" => { ..; return } .. _ => exit(1) } }`
    /// at the start of a program, before the message is read: a command-line mode that
    /// ends the run without reaching the server is one the probe never arrives in.
    /// The branch to take when one side is such a mode and the other is not.
    fn command_mode(&mut self, s: &State, then: &Block, otherwise: &Block) -> Option<bool> {
        let entry = match self.stack.as_slice() {
            [entry] => *entry,
            _ => return None,
        };
        // Only a program's start (`main`, a module's top level): a handler's branches
        // answer requests, and one that reaches the server through a callback it was
        // handed would look like a mode that never does.
        if s.saw_message || !self.prog.function(entry).starts_program() {
            return None;
        }
        let mut dead = |block: &Block| always_leaves(block) && !self.leads_to_server(block);
        match (dead(then), dead(otherwise)) {
            (true, false) => Some(false),
            (false, true) => Some(true),
            _ => None,
        }
    }

    /// Whether a block leads to the server: it decodes the message, or calls a function
    /// that leads to a dispatcher. Inside a dispatcher, everything does.
    fn leads_to_server(&mut self, block: &Block) -> bool {
        if self.stack.last().is_some_and(|f| self.anchors.contains(f)) {
            return true;
        }
        let here = self.here();
        let mut decodes = false;
        crate::model::walk_block(block, &mut |e| decodes |= matches!(e, Expr::Message(_)));
        if decodes {
            return true;
        }
        let names = callee_names(block);
        // Looking is work the steps do not count: each name looked up counts as one.
        self.work += names.len();
        names
            .iter()
            .filter_map(|c| self.prog.resolve(c, here).or_else(|| self.prog.made_function(c, here)))
            .any(|f| self.toward(f, 0))
    }

    /// Whether a block calls, or hands to a call, a variable that holds on this path a
    /// function leading to the server (a handler the transport was handed:
    /// `handlePayload(handler, body)` where `handler` is the dispatcher).
    fn hands_server_function(&mut self, s: &State, block: &Block) -> bool {
        let mut held: Vec<crate::model::FnId> = Vec::new();
        crate::model::walk_block(block, &mut |e| {
            let Expr::Call { callee, args, .. } = e else { return };
            let names = args.iter().filter_map(|a| match a {
                Expr::Var(v) => Some(v.as_str()),
                _ => None,
            });
            for name in std::iter::once(callee.as_str()).chain(names) {
                if let Some(Value::Func(f)) = s.env.get(name)
                    && !held.contains(f)
                {
                    held.push(*f);
                }
            }
        });
        held.into_iter().any(|f| self.toward(f, 0))
    }

    /// The function a name a body calls or hands on stands for: one of the code's,
    /// or what a setter stored in a field of the instance (`($this->onMessage)($m)`).
    fn callee_function(&self, name: &str, from: crate::model::FnId) -> Option<crate::model::FnId> {
        self.prog.resolve(name, from).or_else(|| {
            let field = crate::model::own_field(name)?;
            self.prog.stored_callback(from, field)
        })
    }

    /// Whether function `id` is a dispatcher of the server or calls one, a few calls down
    /// (what it cannot resolve counts as not leading there). A "no" is remembered with
    /// how far down it looked, and holds for any search that may look no further.
    pub(super) fn toward(&mut self, id: crate::model::FnId, depth: usize) -> bool {
        if self.anchors.contains(&id) {
            return true;
        }
        let reach = TOWARD_DEPTH.saturating_sub(depth);
        match self.toward_memo.get(&id) {
            Some(&Toward::Yes) => return true,
            Some(&Toward::No { looked }) if looked >= reach => return false,
            _ => {}
        }
        if depth > TOWARD_DEPTH {
            return false;
        }
        // Provisionally not, so that a cycle ends.
        self.toward_memo.insert(id, Toward::No { looked: reach });
        let names = callee_names(&self.prog.function(id).body);
        self.work += names.len();
        let callees: Vec<crate::model::FnId> =
            names.iter().filter_map(|c| self.callee_function(c, id)).collect();
        let found = callees.into_iter().any(|f| self.toward(f, depth + 1));
        self.toward_memo.insert(id, if found { Toward::Yes } else { Toward::No { looked: reach } });
        found
    }

    pub(super) fn eval_match(
        &mut self,
        st: State,
        subject: &Value,
        subject_expr: &Expr,
        arms: &[Arm],
        span: Span,
    ) -> Vec<(State, Value)> {
        let mut out = Vec::new();
        // A match with both a request and a notification variant on a value the scan
        // could not compute (a transport trait's `read_message()`): the incoming
        // message, decided by its kind as the decoded message is.
        let kinds = |has_id: bool| {
            arms.iter().any(|a| {
                a.patterns.iter().any(|p| {
                    // `Ok(Message::Request { .. })` of a stream of decoded messages.
                    let p = match p {
                        Pattern::VariantOf { name, inner } if matches!(name.as_str(), "Ok" | "Some") => inner,
                        p => p,
                    };
                    matches!(p, Pattern::Variant { name, .. } | Pattern::MessageFields { name, .. }
                        if super::message_kind_truth(name, has_id) == Some(true))
                })
            })
        };
        let message_enum = matches!(subject, Value::Unknown(_)) && kinds(true) && kinds(false);
        // `match cli.command { Some(Serve) => serve(), Some(Search { .. }) => .. }` before
        // the message is read: a mode whose arm never reaches the server is one the
        // probe never arrives in, when another arm reaches it.
        let modes: Option<Vec<bool>> =
            (matches!(subject, Value::Unknown(_)) && !message_enum && !st.saw_message && arms.len() > 1)
                .then(|| arms.iter().map(|a| self.leads_to_server(&a.body)).collect())
                .filter(|leads: &Vec<bool>| leads.contains(&true) && leads.contains(&false));
        // `(&Method::POST, "/mcp") => Route::Mcp, _ => Route::NotFound` in a function
        // that only names the route for its caller: which route the probe is on is
        // decided where that name is used (by the arm that leads to the server), so
        // the value is not known here.
        if arms.iter().any(|a| a.patterns.iter().any(|p| is_route_pattern(subject, p)))
            && arms.iter().all(|a| names_a_value(&a.body))
        {
            return vec![(st, Value::unknown())];
        }
        let mut pending = vec![st];
        for (index, arm) in arms.iter().enumerate() {
            if modes.as_ref().is_some_and(|leads| !leads[index]) {
                continue;
            }
            let mut still = Vec::new();
            let patterns = self.resolve_patterns(&arm.patterns);
            // `JsonRpcMessage::Notification(n)` on the decoded message: the kind of message
            // the variant names decides it, as a message guard does.
            // `Ok(Message::Request { .. })` on `serde_json::from_str::<Message>(..)`: the
            // decoded message in its `Ok`.
            let decoded = matches!(subject, Value::Variant(n, Some(inner))
                if matches!(n.as_str(), "Ok" | "Some") && matches!(inner.as_ref(), Value::Message));
            let kind = (matches!(subject, Value::Message) || message_enum || decoded)
                .then(|| {
                    let members = self.bound_members(&patterns);
                    let member = |f: &str| {
                        members
                            .iter()
                            .find(|(k, _)| k == f)
                            .map(|(_, v)| v.clone())
                            .unwrap_or_else(Value::unknown)
                    };
                    message_kind_arm(&patterns, self.probe.has_id, &member)
                })
                .flatten();
            // An arm for an MCP method on a subject the scan could not compute.
            let blind = matches!(subject, Value::Unknown(_))
                && patterns.iter().any(|p| matches!(p, Pattern::Str(m) if super::expr::names_a_method(m)));
            // `case "/health":` on the request's path, in a router above the server: the
            // probes are POSTed to the server's endpoint, not to a route that never
            // reaches it.
            // Also `("GET", "/status") =>` over `(method, path)`: a route in a tuple.
            let elsewhere = !patterns.is_empty()
                && patterns.iter().all(|p| is_route_pattern(subject, p))
                && !self.leads_to_server(&arm.body);
            if elsewhere {
                continue;
            }
            // `Incoming::Request(c)` of a `#[serde(untagged)]` enum on a value the scan
            // could not compute (received over a channel from the reader task): the
            // decoded message, its variant decided by whether its type takes the probe.
            let untagged = matches!(subject, Value::Unknown(_))
                && !patterns.is_empty()
                && patterns.iter().all(|p| matches!(p, Pattern::Untagged { .. }));
            let kind = kind.or_else(|| untagged.then(|| match_arm(&Value::Message, &patterns)));
            for mut s in pending {
                let (truth, binding) = kind
                    .clone()
                    .or_else(|| read_as_arm(&s, subject, &patterns))
                    .unwrap_or_else(|| match_arm(subject, &patterns));
                if truth == Some(false) {
                    // Passing an arm by the method's name, or by the message's kind, is a
                    // look at the message.
                    s.saw_message |= matches!(subject, Value::Method(_)) || kind.is_some();
                    still.push(s);
                    continue;
                }
                if truth.is_none() && blind {
                    s.blind = s.blind.or(Some(arm.span));
                }
                let mut taken = s.clone();
                for (name, v) in &binding {
                    taken.env.insert(name.clone(), v.clone());
                }
                // A variant holding the message was picked by its method (an enum tagged by `method`).
                let by_method = matches!(subject, Value::Method(_))
                    || matches!(subject, Value::Variant(name, Some(inner))
                        if !is_std_variant(name) && matches!(inner.as_ref(), Value::Message | Value::Method(_)));
                let method_decided = truth == Some(true) && by_method;
                // A variant named for a kind of message is decided by the message's id.
                let by_kind = kind.is_some();
                taken.saw_message |=
                    truth.is_some() && (by_method || by_kind || matches!(subject, Value::Id | Value::NoId));
                if (matches!(subject, Value::Id | Value::NoId) || by_kind) && truth.is_some() {
                    taken.id_check = Some(span);
                }
                if method_decided {
                    taken.method_branch = Some(arm.span);
                    taken.note_route(arm.span, true);
                }
                if truth.is_none() {
                    refine_variant(&mut taken, subject_expr, &patterns);
                    still.push(s);
                }
                let guarded: Vec<State> = match &arm.guard {
                    None => vec![taken],
                    Some(g) => {
                        let mut ok = Vec::new();
                        for (gs, gt, ..) in self.decide(taken, g) {
                            match gt {
                                Some(true) => ok.push(gs),
                                Some(false) => still.push(gs),
                                None => {
                                    ok.push(gs.clone());
                                    still.push(gs);
                                }
                            }
                        }
                        ok
                    }
                };
                for g in guarded {
                    for mut s3 in self.exec_block(g, &arm.body) {
                        let v = s3.yielded.take().unwrap_or(Value::Null);
                        out.push((s3, v));
                    }
                }
            }
            pending = self.limit(still);
            if pending.is_empty() {
                break;
            }
        }
        // A Rust `match` is exhaustive: a path no arm took (each was undecided for it)
        // was taken by one of them, so it does not go on as a match of nothing.
        let exhaustive = self.prog.file_of(self.here()).language == crate::model::Language::Rust;
        if !exhaustive || out.is_empty() {
            out.extend(pending.into_iter().map(|s| (s, Value::Null)));
        }
        out
    }
}

impl<'p, 'a> Interp<'p, 'a> {
    /// `if is_supported(requested):` holding, or `if !is_supported(requested) { reject }`
    /// failing: a predicate of the code's own whose body tests its parameter by
    /// membership or equality (`version in SUPPORTED`) checked the value it was given,
    /// as the test written in place would.
    /// The variables a test of the client's version marks checked when it holds
    /// (`isSupported(v)` marks `v`), for a variable that stores the test's answer.
    pub(super) fn version_marks(&self, st: &State, cond: &Expr) -> Vec<String> {
        // Only `initialize` carries the client's version (see `probe_params`): on other
        // probes nothing is there to check, and the trial below would be wasted work.
        if self.probe.method != "initialize"
            || !matches!(
                cond,
                Expr::Call { .. } | Expr::Member { .. } | Expr::Eq { .. } | Expr::And(..) | Expr::Or(..)
            )
        {
            return Vec::new();
        }
        let mut tried = st.clone();
        refine(&mut tried, cond, true);
        self.refine_by_predicate(&mut tried, cond, true);
        tried
            .env
            .iter()
            .filter(|(name, v)| st.env.get(*name) != Some(v))
            .map(|(name, _)| name.clone())
            .collect()
    }

    fn refine_by_predicate(&self, st: &mut State, cond: &Expr, holds: bool) {
        if let Expr::Not(inner) = cond {
            return self.refine_by_predicate(st, inner, !holds);
        }
        if !holds {
            return;
        }
        // `typeof v === 'string' && isSupported(v)`: each part holds.
        if let Expr::And(a, b) = cond {
            self.refine_by_predicate(st, a, true);
            return self.refine_by_predicate(st, b, true);
        }
        let Expr::Call { callee, args, .. } = cond else { return };
        let Some(f) = self.prog.resolve(callee, self.here()) else { return };
        let f = self.prog.function(f);
        let tests_param = |param: &str| {
            let mut found = false;
            crate::model::walk_block(&f.body, &mut |e| {
                let is_param = |x: &Expr| matches!(x, Expr::Var(v) if v == param);
                match e {
                    Expr::Member { item, .. } => found |= is_param(item),
                    // `s == version` over a list of supported versions, either side.
                    Expr::Eq { left, right, .. } => found |= is_param(left) || is_param(right),
                    // `matches!(version, "2025-06-18" | LATEST)`: arms of listed values.
                    Expr::Match { subject, arms, .. } => {
                        found |= is_param(subject)
                            && arms
                                .iter()
                                .flat_map(|a| &a.patterns)
                                .any(|p| matches!(p, Pattern::Str(_) | Pattern::Const(_)))
                    }
                    _ => {}
                }
            });
            found
        };
        for (param, arg) in f.params.iter().zip(args) {
            if tests_param(param) {
                mark_checked(st, arg);
            }
        }
    }

    /// An arm's patterns with named constants replaced by their literals.
    fn resolve_patterns(&mut self, patterns: &[Pattern]) -> Vec<Pattern> {
        patterns
            .iter()
            .map(|p| match p {
                Pattern::Const(name) => match self.prog.constant(name, self.here()) {
                    Some(Expr::Str(s)) => Pattern::Str(s.clone()),
                    Some(Expr::Int(n)) => Pattern::Int(*n),
                    _ => Pattern::Unknown,
                },
                Pattern::Variant { name, binding }
                    if !matches!(name.as_str(), "Ok" | "Err" | "Some" | "None") =>
                {
                    self.untagged(name, binding).unwrap_or_else(|| p.clone())
                }
                Pattern::VariantOf { name, inner } => Pattern::VariantOf {
                    name: name.clone(),
                    inner: Box::new(self.resolve_patterns(std::slice::from_ref(inner)).remove(0)),
                },
                other => other.clone(),
            })
            .collect()
    }
}

impl Interp<'_, '_> {
    /// The members of the incoming message that struct patterns of a message kind
    /// bind (`Message::Request { id, method, params, .. }`).
    fn bound_members(&mut self, patterns: &[Pattern]) -> Vec<(String, Value)> {
        let mut out = Vec::new();
        for p in patterns {
            let p = match p {
                Pattern::VariantOf { inner, .. } => inner.as_ref(),
                p => p,
            };
            if let Pattern::MessageFields { fields, .. } = p {
                for (f, _) in fields {
                    let v = match crate::lower::message_field(f) {
                        Some(name) => self.field(name),
                        None if f == "params" => self.probe_params(),
                        None => Value::unknown(),
                    };
                    out.push((f.clone(), v));
                }
            }
        }
        out
    }

    /// A variant of a `#[serde(untagged)]` enum: whether the type it holds takes the
    /// probe. A type that requires `id` does not take a notification; serde tries the
    /// variants in order, as the arms are tried.
    fn untagged(&self, name: &str, binding: &Option<String>) -> Option<Pattern> {
        let held = self.prog.untagged_variant(name, self.here())?;
        let held = held.split('<').next().unwrap_or(held);
        let fits = self.probe.has_id || !self.prog.requires_id(held, self.here());
        Some(Pattern::Untagged { name: name.to_string(), binding: binding.clone(), fits })
    }
}

type Bindings = Vec<(String, Value)>;

/// `case JSONRPCInitializeRequest():` on a message this path read into a model class
/// (`Model.model_validate(payload)`): the class it was read as decides.
fn read_as_arm(st: &State, subject: &Value, patterns: &[Pattern]) -> Option<(Option<bool>, Bindings)> {
    if !matches!(subject, Value::Message) || patterns.is_empty() {
        return None;
    }
    let read_as = st.effects.iter().rev().find_map(|e| match e {
        crate::value::Effect::ReadAs(class) => Some(class.clone()),
        _ => None,
    })?;
    let mut holds = false;
    for p in patterns {
        match p {
            Pattern::Type(class) => holds |= crate::lower::last_segment(class) == &*read_as,
            _ => return None,
        }
    }
    Some((Some(holds), Vec::new()))
}

/// An arm whose patterns are variants named for a kind of JSON-RPC message
/// (`Message::Request(r)`, `JsonRpcMessage::Notification(n)`, `Incoming::Response(_)`),
/// matched against the decoded message: a request has an id, a notification has none,
/// and no probe is a response. The variant's content is the message.
/// A struct variant (`Message::Request { id, method, .. }`) binds the message's fields;
/// `Ok(..)` around one (a stream of decoded messages) is looked through.
fn message_kind_arm(
    patterns: &[Pattern],
    has_id: bool,
    field: &dyn Fn(&str) -> Value,
) -> Option<(Option<bool>, Bindings)> {
    let mut out: Option<(Option<bool>, Bindings)> = None;
    for p in patterns {
        let p = match p {
            Pattern::VariantOf { name, inner } if matches!(name.as_str(), "Ok" | "Some") => inner.as_ref(),
            p => p,
        };
        let (name, bindings): (&str, Bindings) = match p {
            Pattern::Variant { name, binding } => {
                (name.as_str(), binding.clone().map(|b| (b, Value::Message)).into_iter().collect())
            }
            Pattern::MessageFields { name, fields } => {
                (name.as_str(), fields.iter().map(|(f, local)| (local.clone(), field(f))).collect())
            }
            _ => return None,
        };
        let truth = super::message_kind_truth(name, has_id)?;
        if truth {
            return Some((Some(true), bindings));
        }
        out = Some((Some(false), Vec::new()));
    }
    out
}

/// The kind a variant of serde_json's `Value` names (`Value::Array`, `serde_json::Value::Object`).
fn json_value_kind(name: &str) -> Option<&str> {
    let mut segments = name.rsplit("::");
    let kind = segments.next()?;
    (segments.next() == Some("Value")
        && matches!(kind, "Object" | "Array" | "String" | "Number" | "Bool" | "Null"))
    .then_some(kind)
}

/// Whether a value matches one of an arm's patterns, and what it binds.
fn match_arm(subject: &Value, patterns: &[Pattern]) -> (Option<bool>, Bindings) {
    let mut unknown = None;
    for p in patterns {
        let (t, b) = match_pattern(subject, p);
        match t {
            Some(true) => return (Some(true), b),
            None if unknown.is_none() => unknown = Some(b),
            _ => {}
        }
    }
    match unknown {
        Some(binding) => (None, binding),
        None if patterns.is_empty() => (None, Vec::new()),
        None => (Some(false), Vec::new()),
    }
}

fn match_pattern(v: &Value, p: &Pattern) -> (Option<bool>, Bindings) {
    let bind =
        |binding: &Option<String>, inner: Value| binding.clone().map(|b| (b, inner)).into_iter().collect();
    match p {
        Pattern::Any(binding) => (Some(true), bind(binding, v.clone())),
        Pattern::Str(s) => match v {
            // `switch (req.method) { case "POST": ... }` tests the HTTP verb; probes arrive by POST.
            Value::Method(_) if crate::model::HTTP_VERBS.contains(&s.as_str()) => {
                (Some(s == "POST"), Vec::new())
            }
            Value::Method(m) | Value::Str(m) => (Some(m == s), Vec::new()),
            _ => (None, Vec::new()),
        },
        Pattern::Int(n) => match v {
            Value::Int(m) => (Some(m == n), Vec::new()),
            _ => (None, Vec::new()),
        },
        Pattern::Variant { name, binding } => match (name.as_str(), v) {
            // A variant of the code's own enum (`Outcome::Answer(x)`) against its pattern.
            (n, Value::Variant(vn, inner)) if !is_std_variant(n) && !is_std_variant(vn) => {
                let inner = inner.as_deref().cloned().unwrap_or_else(Value::unknown);
                (Some(n == vn), bind(binding, inner))
            }
            (n, Value::Variant(vn, inner)) if is_std_variant(n) => {
                // `Some(Ok(x))` lowers to `Ok(x)`, `Some(Wire::Reply(x))` to the code's own
                // variant: `Some(_)` matches it.
                if n == "Some" && !matches!(vn.as_str(), "Some" | "None") {
                    return (Some(true), bind(binding, v.clone()));
                }
                let inner = inner.as_deref().cloned().unwrap_or_else(Value::unknown);
                (Some(n == vn), bind(binding, inner))
            }
            // `Value::Object(map)`, `Value::Array(items)` of serde_json on the decoded
            // message: a message is one JSON object.
            (n, Value::Message) if json_value_kind(n).is_some() => match json_value_kind(n) {
                Some("Object") => (Some(true), bind(binding, Value::Message)),
                _ => (Some(false), Vec::new()),
            },
            ("None", x) => (x.is_nullish(), Vec::new()),
            ("Some", x) => (x.is_nullish().map(|b| !b), bind(binding, x.clone())),
            // `match serde_json::to_string(&reply) { Ok(text) => ..`: the unknown result may be Ok(value).
            _ => (None, bind(binding, v.clone())),
        },
        Pattern::MessageFields { name, .. } => {
            match_pattern(v, &Pattern::Variant { name: name.clone(), binding: None })
        }
        Pattern::Untagged { name, binding, fits } => match v {
            Value::Message => (Some(*fits), bind(binding, Value::Message)),
            // Built by the code as a variant (`Ok(IncomingMessage::Notification(n))`
            // after testing for an id): its name decides.
            Value::Variant(vn, inner) if !is_std_variant(vn) => {
                let inner = inner.as_deref().cloned().unwrap_or_else(Value::unknown);
                let same = crate::lower::last_segment(vn) == crate::lower::last_segment(name);
                (Some(same), bind(binding, inner))
            }
            _ => (None, bind(binding, v.clone())),
        },
        // `Some("initialize")`: the variant, then its inner pattern.
        Pattern::VariantOf { name, inner } => {
            let (outer, _) = match_pattern(v, &Pattern::Variant { name: name.clone(), binding: None });
            let value = match (name.as_str(), v) {
                (_, Value::Variant(_, Some(x))) => x.as_ref().clone(),
                ("Some", x) => x.clone(),
                _ => Value::unknown(),
            };
            match outer {
                Some(false) => (Some(false), Vec::new()),
                outer => {
                    let (t, b) = match_pattern(&value, inner);
                    (if outer == Some(true) { t } else { t.filter(|t| !t) }, b)
                }
            }
        }
        // `(Some(a), Some(b))`: element by element against a tuple.
        Pattern::Tuple(parts) => match v {
            Value::Array(items) if items.len() == parts.len() => {
                let mut truth = Some(true);
                let mut bindings = Vec::new();
                for (item, part) in items.iter().zip(parts) {
                    let (t, b) = match_pattern(item, part);
                    truth = match (truth, t) {
                        (Some(false), _) | (_, Some(false)) => Some(false),
                        (Some(true), Some(true)) => Some(true),
                        _ => None,
                    };
                    bindings.extend(b);
                }
                (truth, bindings)
            }
            _ => (None, Vec::new()),
        },
        Pattern::Type(t) => match v {
            v if v.is_nullish() == Some(true) => (Some(false), Vec::new()),
            Value::Str(_) | Value::Method(_) => (Some(t == "string"), Vec::new()),
            Value::Bool(_) => (Some(t == "bool"), Vec::new()),
            _ => (None, Vec::new()),
        },
        // Resolved to its value before matching (see `eval_match`); one left is unknown.
        Pattern::Const(_) | Pattern::Unknown => (None, Vec::new()),
    }
}

/// The names a block calls, or hands on as functions (`batch.map(answer)`).
fn callee_names(block: &Block) -> Vec<String> {
    let mut names = Vec::new();
    crate::model::walk_block(block, &mut |e| match e {
        Expr::Call { callee, .. } => names.push(callee.clone()),
        Expr::FnRef(name) | Expr::Var(name) => names.push(name.clone()),
        _ => {}
    });
    names
}

/// What [`Interp::toward`] found for a function: it leads to a dispatcher, or it
/// does not within `looked` calls down.
#[derive(Clone, Copy)]
pub(super) enum Toward {
    Yes,
    No { looked: usize },
}

/// How many calls down [`Interp::toward`] looks for a dispatcher.
const TOWARD_DEPTH: usize = 6;

/// Whether a condition tests the request's URL path against a route (`path === "/health"`,
/// `url.pathname == "/oauth/token" && request.method === "POST"`).
fn is_route_test(cond: &Expr) -> bool {
    match cond {
        Expr::Eq { left, right, negated: false } => {
            let route = |e: &Expr| matches!(e, Expr::Str(s) if s.starts_with('/'));
            route(left) != route(right)
        }
        Expr::And(a, b) => is_route_test(a) || is_route_test(b),
        // `path === "/login" || path === "/callback"`: every side a route test.
        Expr::Or(a, b) => is_route_test(a) && is_route_test(b),
        // `path.startsWith("/api")`.
        Expr::StartsWith { prefix, .. } => prefix.starts_with('/'),
        _ => false,
    }
}

/// Whether an arm's pattern names a route of the request's URL path the scan could
/// not compute: `"/health"` on an unknown subject, or a tuple with such an element
/// (`("GET", "/status")` over `(method, path)`).
fn is_route_pattern(subject: &Value, pattern: &Pattern) -> bool {
    let route = |p: &Pattern| matches!(p, Pattern::Str(r) if r.starts_with('/'));
    match (subject, pattern) {
        (Value::Unknown(_), Pattern::Str(_)) => route(pattern),
        (Value::Unknown(_), Pattern::Tuple(parts)) => parts.iter().any(route),
        (Value::Array(items), Pattern::Tuple(parts)) if items.len() == parts.len() => {
            items.iter().zip(parts).any(|(item, part)| is_route_pattern(item, part))
        }
        _ => false,
    }
}

/// Whether every way through a block ends the run where it is: a `return` or an exit
/// last, or a choice (an `if` with both sides, a `match` with a catch-all arm) whose
/// every branch does.
fn always_leaves(block: &Block) -> bool {
    let leaves = |e: &Expr| match e {
        Expr::Block(b) => always_leaves(b),
        Expr::If { then, otherwise, .. } => always_leaves(then) && always_leaves(otherwise),
        Expr::Match { arms, .. } => {
            arms.iter().any(|a| a.guard.is_none() && a.patterns.iter().any(|p| matches!(p, Pattern::Any(_))))
                && arms.iter().all(|a| always_leaves(&a.body))
        }
        _ => false,
    };
    match block.last() {
        Some(Stmt::Return { .. } | Stmt::Exit { .. }) => true,
        Some(Stmt::Expr(e) | Stmt::Yield(e)) => leaves(e),
        _ => false,
    }
}

/// Whether a block only yields a value it writes out (`Route::Health`, `"health"`,
/// `3`): nothing is called, read from the message, returned or stored.
fn names_a_value(block: &Block) -> bool {
    if !matches!(block.as_slice(), [Stmt::Yield(_)]) {
        return false;
    }
    let mut plain = true;
    crate::model::walk_block(block, &mut |e| {
        plain &= matches!(
            e,
            Expr::Null | Expr::Bool(_) | Expr::Int(_) | Expr::Str(_) | Expr::Var(_) | Expr::Variant { .. }
        )
    });
    plain
}

/// Whether a condition holds for every path but one route (`path !== "/mcp"`,
/// `uri != "/mcp" || verb != "POST"`): taken as a route test only where its branch
/// ends the request (a 404 and a return), not where it computes a value.
/// Whether a block does nothing but hand back a plain value (`return false`,
/// `return null`, `return`): no call, no answer, no reply.
fn declines_only(block: &Block) -> bool {
    match block.as_slice() {
        [Stmt::Return { value: None, .. }] => true,
        [Stmt::Return { value: Some(v), .. }] => {
            matches!(v, Expr::Bool(_) | Expr::Null | Expr::Int(_) | Expr::Str(_))
        }
        _ => false,
    }
}

fn is_other_route_test(cond: &Expr) -> bool {
    match cond {
        Expr::Eq { left, right, negated: true } => {
            is_route_test(&Expr::Eq { left: left.clone(), right: right.clone(), negated: false })
        }
        Expr::Not(inner) => is_route_test(inner),
        Expr::Or(a, b) => is_other_route_test(a) || is_other_route_test(b),
        _ => false,
    }
}

/// `Ok`, `Err`, `Some`, `None`: the standard library's variants, which the lowering
/// also makes of values it reads as results.
fn is_std_variant(name: &str) -> bool {
    matches!(name, "Ok" | "Err" | "Some" | "None")
}

/// On a path where an undecided condition held (or failed), records what it tells:
/// a client version tested against a set is checked from then on.
/// JSON-RPC's codes for a malformed envelope: a parse error and an invalid request.
const ENVELOPE_ERRORS: &[i64] = &[-32700, -32600];

/// A condition the scan cannot decide, one side of which only refuses the message as
/// malformed (every path there builds a parse error or an invalid request that was
/// not there before) while the other goes on: envelope validation. The probes are
/// well-formed messages, so validation lets them through; the refusal is no witness
/// of how the server answers them (a known test, such as a missing id, still is, and
/// so is a refusal built before the condition that only decides whether to send it).
fn drop_refusal_of_valid_input(before: &State, taken: &mut Vec<Vec<(State, Value)>>) {
    if taken.len() != 2 {
        return;
    }
    let mut held = Vec::new();
    for v in before.env.values().chain(before.yielded.iter()) {
        v.replies(&mut held);
    }
    let refuses: Vec<bool> = taken
        .iter()
        .map(|outs| !outs.is_empty() && outs.iter().all(|(st, v)| refuses_envelope(before, &held, st, v)))
        .collect();
    if refuses[0] != refuses[1] {
        let drop = usize::from(refuses[1]);
        if !taken[1 - drop].is_empty() {
            taken.remove(drop);
        }
    }
}

/// Whether a path, from `before` on, built a reply with an envelope error code that
/// `before` did not hold: written out, returned, raised, yielded, or stored in a
/// variable it changed.
fn refuses_envelope(
    before: &State,
    held: &[std::rc::Rc<crate::value::Reply>],
    after: &State,
    yielded: &Value,
) -> bool {
    let envelope_error = |v: &Value| {
        let mut replies = Vec::new();
        v.replies(&mut replies);
        replies.iter().any(|r| {
            matches!(r.error, Some(Some(code)) if ENVELOPE_ERRORS.contains(&code))
                && !held.iter().any(|h| h.span == r.span && h.error == r.error)
        })
    };
    let emitted = after.effects.iter().skip(before.effects.len()).any(|e| match e {
        Effect::Emit { value, .. } => envelope_error(value),
        _ => false,
    });
    let ended = match &after.status {
        Status::Returned(v) | Status::Raised(v) => envelope_error(v),
        _ => false,
    };
    let stored = after.env.iter().any(|(k, v)| before.env.get(k) != Some(v) && envelope_error(v));
    emitted || ended || envelope_error(yielded) || stored
}

fn refine(st: &mut State, cond: &Expr, holds: bool) {
    match cond {
        Expr::Not(inner) => refine(st, inner, !holds),
        Expr::Member { item, .. } if holds => mark_checked(st, item),
        // `version == requested` holding, whichever side the client's version is on
        // (`for _, version := range supported { if version == requested {..} }`).
        Expr::Eq { left, right, negated } if holds ^ negated => {
            mark_checked(st, left);
            mark_checked(st, right);
        }
        // `if supported[v]` (a table of supported values, Go's `map[string]bool`) holding:
        // `v` is a key of the table.
        Expr::Lookup { key, .. } if holds => mark_checked(st, key),
        // `isset($supported[$v])` holding: the entry is there, so `v` is a key.
        Expr::IsNull(inner) if !holds => {
            if let Expr::Lookup { key, .. } = inner.as_ref() {
                mark_checked(st, key)
            }
        }
        Expr::And(a, b) if holds => {
            refine(st, a, true);
            refine(st, b, true);
        }
        Expr::Or(a, b) if !holds => {
            refine(st, a, false);
            refine(st, b, false);
        }
        // `SUPPORTED.contains(&v) || v == MODERN` holding: whichever part holds tests
        // the same value against what the server supports.
        Expr::Or(..) if holds => {
            let mut disjuncts = Vec::new();
            flatten(cond, false, &mut disjuncts);
            let items: Vec<Option<&Expr>> = disjuncts.iter().map(|d| tested_when_true(st, d)).collect();
            if let Some(Some(first)) = items.first()
                && items.iter().all(|i| i.is_some_and(|i| same_place(i, first)))
            {
                mark_checked(st, first);
            }
        }
        // `v != "2025-06-18" && v != "2024-11-05"` failing: some `!=` is false, so
        // `v` is one of the listed values, whichever it was.
        Expr::And(..) if !holds => {
            let mut conjuncts = Vec::new();
            flatten(cond, true, &mut conjuncts);
            let items: Vec<&Expr> = conjuncts.iter().filter_map(|c| equal_when_false(st, c)).collect();
            if items.len() == conjuncts.len()
                && let Some(first) = items.first()
                && items.iter().all(|i| same_place(i, first))
            {
                mark_checked(st, first);
            }
            // `v and v not in SUPPORTED` failing: `v` is empty, or one of the supported
            // values; either way not an arbitrary version handed back.
            let tested: Vec<&Expr> = conjuncts
                .iter()
                .filter_map(|c| match c {
                    Expr::Not(inner) => match inner.as_ref() {
                        Expr::Member { item, .. } => Some(item.as_ref()),
                        _ => None,
                    },
                    _ => None,
                })
                .collect();
            if let [item] = tested.as_slice()
                && conjuncts.iter().all(|c| matches!(c, Expr::Not(_)) || tests_presence(c, item))
            {
                mark_checked(st, item);
            }
        }
        _ => {}
    }
}

/// A branch on a variable that stores a test of the client's version (`if ok`), taken
/// the way in which the test held: the values it tested are checked.
fn stored_version_test(st: &mut State, cond: &Expr, holds: bool) {
    match cond {
        Expr::Not(inner) => stored_version_test(st, inner, !holds),
        Expr::Var(name) if holds => {
            for tested in st.version_tests.get(name).cloned().unwrap_or_default() {
                mark_checked(st, &Expr::Var(tested));
            }
        }
        _ => {}
    }
}

/// Whether a condition only says a value is there (`v`, `$v !== ''`, `v != null`), so
/// that a path on which it is false holds no version to hand back.
fn tests_presence(c: &Expr, item: &Expr) -> bool {
    match c {
        Expr::Eq { left, right, negated: true } => {
            let empty = |e: &Expr| matches!(e, Expr::Null) || matches!(e, Expr::Str(s) if s.is_empty());
            (same_place(left, item) && empty(right)) || (same_place(right, item) && empty(left))
        }
        other => same_place(other, item),
    }
}

/// The value a condition tests against known values when it holds: `v` in `v in
/// SUPPORTED`, `SUPPORTED.contains(&v)`, `v == MODERN`, `v == "2025-06-18"`.
fn tested_when_true<'e>(st: &State, c: &'e Expr) -> Option<&'e Expr> {
    match c {
        Expr::Member { item, .. } => Some(item),
        Expr::Eq { left, right, negated: false } => match (left.as_ref(), right.as_ref()) {
            (item, Expr::Str(_)) | (Expr::Str(_), item) => Some(item),
            // Two names: the one holding the client's version is the one tested.
            (a, b) if client_version(st, a) && !client_version(st, b) => Some(a),
            (a, b) if client_version(st, b) && !client_version(st, a) => Some(b),
            _ => None,
        },
        _ => None,
    }
}

/// The parts of a chain of `&&` (or, `and` false, of `||`), in order.
fn flatten<'e>(e: &'e Expr, and: bool, out: &mut Vec<&'e Expr>) {
    match e {
        Expr::And(a, b) if and => {
            flatten(a, and, out);
            flatten(b, and, out);
        }
        Expr::Or(a, b) if !and => {
            flatten(a, and, out);
            flatten(b, and, out);
        }
        other => out.push(other),
    }
}

/// The value a condition compares with a literal when the condition is false:
/// `v` in `v != "x"` (false: `v` is `"x"`), and the client's version in
/// `params.ProtocolVersion != SupportedVersion` (a named constant).
fn equal_when_false<'e>(st: &State, c: &'e Expr) -> Option<&'e Expr> {
    let pair = match c {
        Expr::Eq { left, right, negated: true } => (left.as_ref(), right.as_ref()),
        Expr::Not(inner) => match inner.as_ref() {
            Expr::Eq { left, right, negated: false } => (left.as_ref(), right.as_ref()),
            _ => return None,
        },
        _ => return None,
    };
    match pair {
        (item, Expr::Str(_)) | (Expr::Str(_), item) => Some(item),
        (item, Expr::Var(_)) | (Expr::Var(_), item) if client_version(st, item) => Some(item),
        _ => None,
    }
}

/// Whether an expression reads the client's `protocolVersion`: the field, or a name
/// the path bound to it.
fn client_version(st: &State, e: &Expr) -> bool {
    match e {
        Expr::Field { name: crate::model::FieldName::ProtocolVersion, .. } => true,
        Expr::Var(name) => matches!(st.env.get(name), Some(Value::ClientVersion { .. })),
        _ => false,
    }
}

/// Whether two expressions name the same variable or message field.
fn same_place(a: &Expr, b: &Expr) -> bool {
    match (a, b) {
        (Expr::Var(x), Expr::Var(y)) => x == y,
        (Expr::Field { name: x, object: ox }, Expr::Field { name: y, object: oy }) => {
            x == y && ox.as_deref().map(|o| format!("{o:?}")) == oy.as_deref().map(|o| format!("{o:?}"))
        }
        _ => false,
    }
}

fn refine_variant(st: &mut State, subject: &Expr, patterns: &[Pattern]) {
    if patterns.iter().any(|p| matches!(p, Pattern::Str(_))) {
        mark_checked(st, subject);
    }
}

fn mark_checked(st: &mut State, e: &Expr) {
    // The field itself (`params.ProtocolVersion in SUPPORTED`): re-reads are checked too.
    if let Expr::Field { name: crate::model::FieldName::ProtocolVersion, .. } = e {
        st.version_checked = true;
    }
    // `String(params.protocolVersion)`, `str(v)`, `v.trim()`: a conversion that keeps
    // the text tests the value converted.
    if let Expr::Call { callee, receiver, args, .. } = e
        && crate::lower::string_fold(callee).is_some()
        && let Some(inner) = args.first().or(receiver.as_deref())
    {
        mark_checked(st, inner);
    }
    if let Expr::Var(name) = e
        && let Some(v) = st.env.get_mut(name)
    {
        if matches!(v, Value::ClientVersion { .. }) {
            st.version_checked = true;
        }
        *v = checked(v);
    }
}

/// The value with every client version in it marked as checked.
pub(super) fn checked(v: &Value) -> Value {
    match v {
        Value::ClientVersion { .. } => Value::ClientVersion { checked: true },
        Value::Unknown(items) => Value::Unknown(std::rc::Rc::new(items.iter().map(checked).collect())),
        other => other.clone(),
    }
}
