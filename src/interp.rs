//! An abstract interpreter over the language-neutral model.
//!
//! A *probe* is one hypothetical incoming message: a method name and whether it
//! carries an id. The interpreter runs a server's entry function with that
//! message, exploring every path whose conditions the probe does not decide,
//! and records what each path does: the JSON-RPC replies and HTTP responses it
//! emits or returns, and whether it marks the session initialized. Calls to
//! functions of the scanned code are followed through summaries keyed by
//! function and abstract arguments; recursive calls iterate to a fixpoint.

use crate::model::{Arm, Block, Expr, FnId, MessageField, Pattern, ReplyExpr, Span, Stmt};
pub use crate::program::Program;
use std::collections::{BTreeMap, HashMap, HashSet};
use std::rc::Rc;

/// At most this many paths are followed through one block.
const MAX_PATHS: usize = 48;
/// Calls nested deeper than this are not followed.
const MAX_CALL_DEPTH: usize = 24;
/// Work bound for one probe.
const MAX_STEPS: usize = 400_000;
/// Fixpoint rounds for recursive functions.
const MAX_ROUNDS: usize = 4;

/// Calls to functions outside the scanned code that write a message out.
const SINKS: &[&str] = &[
    "print",
    "put",
    "send_text",
    "send_bytes",
    "send_str",
    "println",
    "write",
    "writeln",
    "write_all",
    "send",
    "send_json",
    "sendall",
    "respond",
    "json",
    "end",
    "echo",
    "Encode",
    "write_message",
    "send_message",
    "sendMessage",
    "put_nowait",
];

const HTTP_VERBS: &[&str] = &["GET", "POST", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS"];

/// One hypothetical incoming message.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Probe {
    pub method: String,
    pub has_id: bool,
}

impl Probe {
    pub fn notification(method: &str) -> Probe {
        Probe {
            method: method.to_string(),
            has_id: false,
        }
    }
    pub fn request(method: &str) -> Probe {
        Probe {
            method: method.to_string(),
            has_id: true,
        }
    }
}

/// A method name no server handles, for the unknown-method fallback.
pub const UNKNOWN_METHOD: &str = "mcp-conform/unknown-method";

#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Value {
    Null,
    /// The id of a probe that has one.
    Id,
    /// The missing id of a probe without one: null, remembered as such.
    NoId,
    /// The probe's method name.
    Method(String),
    /// The `protocolVersion` the client sent; `checked` once tested against a supported set.
    ClientVersion {
        checked: bool,
    },
    Bool(bool),
    Int(i64),
    Str(String),
    Object(Rc<Vec<(String, Value)>>),
    Array(Rc<Vec<Value>>),
    Reply(Rc<Reply>),
    Http(Rc<HttpValue>),
    Func(FnId),
    Variant(String, Option<Rc<Value>>),
    /// Unknown, carrying the values of interest it was built from.
    Unknown(Rc<Vec<Value>>),
}

#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Reply {
    pub result: Option<Value>,
    /// The error code when the reply is an error and the code could be read.
    pub error: Option<Option<i64>>,
    pub span: Span,
    /// The call that first carried the reply out of the function that built it.
    pub site: Option<Span>,
    /// Sent by a dispatcher before it looked at the message (a parse error, an
    /// unknown tenant): an answer to every message alike, not a dispatch decision.
    pub pre_dispatch: bool,
}

impl Reply {
    /// Where to point a reader: the call in the dispatch arm, else the literal.
    pub fn at(&self) -> Span {
        self.site.unwrap_or(self.span)
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct HttpValue {
    pub status: Option<u16>,
    pub body: Option<Value>,
    pub span: Span,
}

impl Value {
    fn unknown() -> Value {
        Value::Unknown(Rc::new(Vec::new()))
    }

    /// Values worth carrying through an unknown computation.
    fn interesting(&self) -> bool {
        match self {
            Value::Reply(_) | Value::Http(_) | Value::ClientVersion { .. } => true,
            // An error object whose code is known (`RpcError(-32601, ...)`).
            Value::Object(entries) => entries
                .iter()
                .any(|(k, v)| k == "code" && matches!(v, Value::Int(_))),
            Value::Unknown(parts) => !parts.is_empty(),
            Value::Array(items) => items.iter().any(Value::interesting),
            Value::Variant(_, Some(inner)) => inner.interesting(),
            _ => false,
        }
    }

    fn is_nullish(&self) -> Option<bool> {
        match self {
            Value::Null | Value::NoId => Some(true),
            Value::Variant(n, _) if n == "None" => Some(true),
            Value::Unknown(_) => None,
            _ => Some(false),
        }
    }

    fn truthy(&self) -> Option<bool> {
        match self {
            Value::Null | Value::NoId => Some(false),
            Value::Bool(b) => Some(*b),
            Value::Int(n) => Some(*n != 0),
            Value::Str(s) => Some(!s.is_empty()),
            Value::Object(e) => Some(!e.is_empty()),
            Value::Array(a) => Some(!a.is_empty()),
            Value::Variant(n, _) => Some(n != "None"),
            Value::Unknown(_) | Value::ClientVersion { .. } => None,
            _ => Some(true),
        }
    }

    /// The same value, with every reply it carries rewritten by `f`.
    fn map_replies(&self, f: &impl Fn(&Reply) -> Reply) -> Value {
        match self {
            Value::Reply(r) => Value::Reply(Rc::new(f(r))),
            Value::Http(h) => match &h.body {
                Some(b) => Value::Http(Rc::new(HttpValue {
                    body: Some(b.map_replies(f)),
                    ..(**h).clone()
                })),
                None => self.clone(),
            },
            Value::Array(items) => {
                Value::Array(Rc::new(items.iter().map(|v| v.map_replies(f)).collect()))
            }
            Value::Unknown(items) if !items.is_empty() => {
                Value::Unknown(Rc::new(items.iter().map(|v| v.map_replies(f)).collect()))
            }
            Value::Variant(n, Some(inner)) => {
                Value::Variant(n.clone(), Some(Rc::new(inner.map_replies(f))))
            }
            _ => self.clone(),
        }
    }

    /// The same value, with `site` set on the replies it carries that have none.
    fn with_site(&self, site: Span) -> Value {
        self.map_replies(&|r| Reply {
            site: r.site.or(Some(site)),
            ..r.clone()
        })
    }

    /// Every JSON-RPC reply this value is or contains.
    pub fn replies(&self, out: &mut Vec<Rc<Reply>>) {
        match self {
            Value::Reply(r) => out.push(r.clone()),
            // A 4xx/5xx answer rejects the input at the transport (auth, bad request): not a reply to it.
            Value::Http(h) if h.status.is_some_and(|s| s >= 400) => {}
            Value::Http(h) => {
                if let Some(b) = &h.body {
                    b.replies(out)
                }
            }
            Value::Array(items) => items.iter().for_each(|v| v.replies(out)),
            Value::Unknown(items) => items.iter().for_each(|v| v.replies(out)),
            Value::Variant(_, Some(v)) => v.replies(out),
            _ => {}
        }
    }
}

/// What a path did that the checks look at.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Effect {
    /// A value written out by a call such as `print`, `write_all`, `send`.
    Emit {
        value: Value,
        span: Span,
    },
    SetInitialized(Span),
}

#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
enum Status {
    Running,
    Returned(Value),
    Raised(Value),
    LeftLoop,
}

/// One path through the code, as far as it has run.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
struct State {
    env: BTreeMap<String, Value>,
    status: Status,
    yielded: Option<Value>,
    effects: Vec<Effect>,
    id_check: Option<Span>,
    method_branch: Option<Span>,
    prefix_check: Option<Span>,
    /// A decision on this path looked at the message (its method or id).
    saw_message: bool,
}

impl State {
    fn new(env: BTreeMap<String, Value>) -> State {
        State {
            env,
            status: Status::Running,
            yielded: None,
            effects: Vec::new(),
            id_check: None,
            method_branch: None,
            prefix_check: None,
            saw_message: false,
        }
    }
    fn running(&self) -> bool {
        self.status == Status::Running
    }
}

/// How one path through a function ended.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Outcome {
    pub value: Value,
    pub raised: bool,
    pub effects: Vec<Effect>,
    /// The last condition on this path that tested the message's id.
    pub id_check: Option<Span>,
    /// The last branch on this path chosen by the method name.
    pub method_branch: Option<Span>,
    /// The last `notifications/` prefix test on this path.
    pub prefix_check: Option<Span>,
    /// False for paths that answer whatever the message is (a parse error, a closed tenant).
    pub saw_message: bool,
}

/// Runs probes through a program.
pub struct Interp<'p, 'a> {
    prog: &'p Program<'a>,
    probe: Probe,
    memo: HashMap<(FnId, Vec<Value>), Rc<Vec<Outcome>>>,
    cut: HashMap<(FnId, Vec<Value>), Rc<Vec<Outcome>>>,
    cut_used: HashSet<(FnId, Vec<Value>)>,
    cut_changed: bool,
    in_progress: HashSet<(FnId, Vec<Value>)>,
    globals_cache: HashMap<(String, u32), Value>,
    /// Functions whose calls anchor a reply's `site` (the server's dispatchers).
    anchors: HashSet<FnId>,
    /// The functions being evaluated, innermost last.
    stack: Vec<FnId>,
    depth: usize,
    steps: usize,
    /// Set when a bound stopped the exploration early.
    pub incomplete: bool,
    touched_id: bool,
    touched_method: bool,
    touched_prefix: bool,
}

impl<'p, 'a> Interp<'p, 'a> {
    pub fn new(prog: &'p Program<'a>, probe: Probe, anchors: HashSet<FnId>) -> Self {
        Interp {
            anchors,
            stack: Vec::new(),
            prog,
            probe,
            memo: HashMap::new(),
            cut: HashMap::new(),
            cut_used: HashSet::new(),
            cut_changed: false,
            in_progress: HashSet::new(),
            globals_cache: HashMap::new(),
            depth: 0,
            steps: 0,
            incomplete: false,
            touched_id: false,
            touched_method: false,
            touched_prefix: false,
        }
    }

    /// Runs an entry function with unknown arguments; returns how each path ended.
    pub fn run(&mut self, entry: FnId) -> Vec<Outcome> {
        let params = self.prog.function(entry).params.len();
        let args = vec![Value::unknown(); params];
        let mut outcomes = Rc::new(Vec::new());
        for _ in 0..MAX_ROUNDS {
            self.memo.clear();
            self.in_progress.clear();
            self.cut_changed = false;
            self.steps = 0;
            outcomes = self.call_function(entry, args.clone());
            if !self.cut_changed {
                break;
            }
        }
        outcomes.as_ref().clone()
    }

    fn call_function(&mut self, id: FnId, args: Vec<Value>) -> Rc<Vec<Outcome>> {
        let key = (id, args);
        if let Some(done) = self.memo.get(&key) {
            return done.clone();
        }
        if self.in_progress.contains(&key) || self.depth >= MAX_CALL_DEPTH {
            if self.depth >= MAX_CALL_DEPTH {
                self.incomplete = true;
            }
            self.cut_used.insert(key.clone());
            return self.cut.get(&key).cloned().unwrap_or_default();
        }
        self.in_progress.insert(key.clone());
        self.depth += 1;
        self.stack.push(id);
        let f = self.prog.function(id);
        let mut env = BTreeMap::new();
        for (i, p) in f.params.iter().enumerate() {
            env.insert(
                p.clone(),
                key.1.get(i).cloned().unwrap_or_else(Value::unknown),
            );
        }
        let finals = self.exec_block(State::new(env), &f.body);
        let mut outcomes: Vec<Outcome> = finals
            .into_iter()
            .map(|st| {
                let (value, raised) = match st.status {
                    Status::Returned(v) => (v, false),
                    Status::Raised(v) => (v, true),
                    Status::Running => (st.yielded.unwrap_or(Value::Null), false),
                    Status::LeftLoop => (Value::Null, false),
                };
                Outcome {
                    value,
                    raised,
                    effects: st.effects,
                    id_check: st.id_check,
                    method_branch: st.method_branch,
                    prefix_check: st.prefix_check,
                    saw_message: st.saw_message,
                }
            })
            .collect();
        outcomes.sort();
        outcomes.dedup();
        if self.anchors.contains(&id) {
            let mark = |r: &Reply| Reply {
                pre_dispatch: true,
                ..r.clone()
            };
            for o in outcomes.iter_mut().filter(|o| !o.saw_message) {
                o.value = o.value.map_replies(&mark);
                for e in &mut o.effects {
                    if let Effect::Emit { value, .. } = e {
                        *value = value.map_replies(&mark);
                    }
                }
            }
        }
        let outcomes = Rc::new(outcomes);
        self.stack.pop();
        self.depth -= 1;
        self.in_progress.remove(&key);
        if self.cut_used.contains(&key) && self.cut.get(&key) != Some(&outcomes) {
            self.cut.insert(key.clone(), outcomes.clone());
            self.cut_changed = true;
        }
        self.memo.insert(key, outcomes.clone());
        outcomes
    }

    fn exec_block(&mut self, st: State, block: &Block) -> Vec<State> {
        let mut states = vec![st];
        for stmt in block {
            let mut next = Vec::new();
            for s in states {
                if s.running() {
                    next.extend(self.exec_stmt(s, stmt));
                } else {
                    next.push(s);
                }
            }
            states = limit(next, &mut self.incomplete);
            if states.iter().all(|s| !s.running()) {
                break;
            }
        }
        states
    }

    fn exec_stmt(&mut self, st: State, stmt: &Stmt) -> Vec<State> {
        match stmt {
            Stmt::Assign { target, value, .. } => self
                .eval(st, value)
                .into_iter()
                .map(|(mut s, v)| {
                    s.env.insert(target.clone(), v);
                    s
                })
                .collect(),
            Stmt::Expr(e) => self.eval(st, e).into_iter().map(|(s, _)| s).collect(),
            Stmt::Return { value, .. } => match value {
                Some(e) => self
                    .eval(st, e)
                    .into_iter()
                    .map(|(mut s, v)| {
                        if s.running() {
                            s.status = Status::Returned(v);
                        }
                        s
                    })
                    .collect(),
                None => {
                    let mut s = st;
                    s.status = Status::Returned(Value::Null);
                    vec![s]
                }
            },
            Stmt::Raise { value, .. } => self
                .eval(st, value)
                .into_iter()
                .map(|(mut s, v)| {
                    if s.running() {
                        s.status = Status::Raised(v);
                    }
                    s
                })
                .collect(),
            Stmt::Yield(e) => self
                .eval(st, e)
                .into_iter()
                .map(|(mut s, v)| {
                    if s.running() {
                        s.yielded = Some(v);
                    }
                    s
                })
                .collect(),
            Stmt::LeaveLoop => {
                let mut s = st;
                s.status = Status::LeftLoop;
                vec![s]
            }
            Stmt::SetInitialized { span } => {
                let mut s = st;
                s.effects.push(Effect::SetInitialized(*span));
                vec![s]
            }
        }
    }

    /// Evaluates an expression on one path; control flow inside it may fork the path.
    fn eval(&mut self, st: State, e: &Expr) -> Vec<(State, Value)> {
        self.steps += 1;
        if self.steps > MAX_STEPS {
            self.incomplete = true;
            return vec![(st, Value::unknown())];
        }
        match e {
            Expr::Null => vec![(st, Value::Null)],
            Expr::Bool(b) => vec![(st, Value::Bool(*b))],
            Expr::Int(n) => vec![(st, Value::Int(*n))],
            Expr::Str(s) => vec![(st, Value::Str(s.clone()))],
            Expr::Field(f) => {
                let v = self.field(*f);
                vec![(st, v)]
            }
            Expr::Var(name) => {
                let v = self.var(&st, name);
                self.note_touch(&v);
                vec![(st, v)]
            }
            Expr::FnRef(name) => {
                let v = self
                    .prog
                    .resolve(name, self.here())
                    .map(Value::Func)
                    .unwrap_or_else(Value::unknown);
                vec![(st, v)]
            }
            Expr::Object { entries, .. } => {
                let exprs: Vec<&Expr> = entries.iter().map(|(_, v)| v).collect();
                self.eval_all(st, &exprs)
                    .into_iter()
                    .map(|(s, vals)| {
                        let obj = entries.iter().map(|(k, _)| k.clone()).zip(vals).collect();
                        (s, Value::Object(Rc::new(obj)))
                    })
                    .collect()
            }
            Expr::Array { items, .. } => {
                let exprs: Vec<&Expr> = items.iter().collect();
                self.eval_all(st, &exprs)
                    .into_iter()
                    .map(|(s, vals)| (s, Value::Array(Rc::new(vals))))
                    .collect()
            }
            Expr::Reply { kind, span } => {
                let (inner, is_error) = match kind {
                    ReplyExpr::Result(x) => (x.as_ref(), false),
                    ReplyExpr::Error(x) => (x.as_ref(), true),
                };
                self.eval(st, inner)
                    .into_iter()
                    .map(|(s, v)| {
                        let reply = if is_error {
                            Reply {
                                result: None,
                                error: Some(error_code(&v)),
                                span: *span,
                                site: None,
                                pre_dispatch: false,
                            }
                        } else {
                            Reply {
                                result: Some(v),
                                error: None,
                                span: *span,
                                site: None,
                                pre_dispatch: false,
                            }
                        };
                        (s, Value::Reply(Rc::new(reply)))
                    })
                    .collect()
            }
            Expr::Http { status, body, span } => match body {
                Some(b) => self
                    .eval(st, b)
                    .into_iter()
                    .map(|(s, v)| {
                        let h = HttpValue {
                            status: *status,
                            body: Some(v),
                            span: *span,
                        };
                        (s, Value::Http(Rc::new(h)))
                    })
                    .collect(),
                None => {
                    let h = HttpValue {
                        status: *status,
                        body: None,
                        span: *span,
                    };
                    vec![(st, Value::Http(Rc::new(h)))]
                }
            },
            Expr::Call {
                callee,
                receiver,
                args,
                span,
            } => self.eval_call(st, callee, receiver.as_deref(), args, *span),
            Expr::Eq {
                left,
                right,
                negated,
            } => {
                let negated = *negated;
                self.eval_pair(st, left, right, move |this, l, r| {
                    let v = this.equals(l, r);
                    match (v, negated) {
                        (Value::Bool(b), true) => Value::Bool(!b),
                        (v, _) => v,
                    }
                })
            }
            Expr::IsNull(x) => self
                .eval(st, x)
                .into_iter()
                .map(|(s, v)| {
                    (
                        s,
                        v.is_nullish()
                            .map(Value::Bool)
                            .unwrap_or_else(Value::unknown),
                    )
                })
                .collect(),
            Expr::HasKey { object, key } => self
                .eval(st, object)
                .into_iter()
                .map(|(s, obj)| {
                    let v = match (&obj, key.as_str()) {
                        (Value::Object(entries), k) => {
                            Value::Bool(entries.iter().any(|(ek, _)| ek == k))
                        }
                        (_, "id") => {
                            self.touched_id = true;
                            Value::Bool(self.probe.has_id)
                        }
                        (_, "method") => Value::Bool(true),
                        _ => Value::unknown(),
                    };
                    (s, v)
                })
                .collect(),
            Expr::Member { item, collection } => {
                self.eval_pair(st, item, collection, |this, i, c| this.member(i, c))
            }
            Expr::StartsWith { text, prefix } => {
                let prefix = prefix.clone();
                self.eval(st, text)
                    .into_iter()
                    .map(|(s, v)| {
                        let r = match &v {
                            Value::Method(m) => {
                                self.touched_prefix = true;
                                Value::Bool(m.starts_with(&prefix))
                            }
                            Value::Str(t) => Value::Bool(t.starts_with(&prefix)),
                            _ => Value::unknown(),
                        };
                        (s, r)
                    })
                    .collect()
            }
            Expr::Not(x) => self
                .eval(st, x)
                .into_iter()
                .map(|(s, v)| {
                    (
                        s,
                        v.truthy()
                            .map(|b| Value::Bool(!b))
                            .unwrap_or_else(Value::unknown),
                    )
                })
                .collect(),
            Expr::And(a, b) | Expr::Or(a, b) => {
                let is_and = matches!(e, Expr::And(..));
                let mut out = Vec::new();
                for (s, va) in self.eval(st, a) {
                    match (va.truthy(), is_and) {
                        (Some(false), true) => out.push((s, Value::Bool(false))),
                        (Some(true), false) => out.push((s, va)),
                        (known, _) => {
                            for (s2, vb) in self.eval(s, b) {
                                let v = match (known, vb.truthy()) {
                                    (_, Some(x)) if known.is_some() => Value::Bool(x),
                                    (None, Some(false)) if is_and => Value::Bool(false),
                                    (None, Some(true)) if !is_and => Value::Bool(true),
                                    _ => Value::unknown(),
                                };
                                let v =
                                    if !is_and && known.is_none() && !matches!(v, Value::Bool(_)) {
                                        join(&[va.clone(), vb])
                                    } else {
                                        v
                                    };
                                out.push((s2, v));
                            }
                        }
                    }
                }
                out
            }
            Expr::Lookup { collection, key } => self
                .eval_all(st, &[collection, key])
                .into_iter()
                .map(|(mut s, vals)| {
                    // A handler table looked up by method name is a dispatch decision.
                    s.saw_message |= matches!(vals[1], Value::Method(_));
                    let v = self.lookup(&vals[0], &vals[1]);
                    (s, v)
                })
                .collect(),
            Expr::If {
                cond,
                then,
                otherwise,
                span,
            } => self.eval_if(st, cond, then, otherwise, *span),
            Expr::Match {
                subject,
                arms,
                span,
            } => {
                let mut out = Vec::new();
                for (s, v) in self.eval(st, subject) {
                    out.extend(self.eval_match(s, &v, subject, arms, *span));
                }
                out
            }
            Expr::Loop { body } => self
                .exec_block(st, body)
                .into_iter()
                .map(|mut s| {
                    if s.status == Status::LeftLoop {
                        s.status = Status::Running;
                    }
                    (s, Value::Null)
                })
                .collect(),
            Expr::Try {
                body,
                handler,
                binding,
            } => {
                let mut out = Vec::new();
                for s in self.exec_block(st, body) {
                    if let Status::Raised(v) = &s.status {
                        let mut h = s.clone();
                        h.status = Status::Running;
                        if let Some(b) = binding {
                            h.env.insert(b.clone(), v.clone());
                        }
                        out.extend(
                            self.exec_block(h, handler)
                                .into_iter()
                                .map(|s| (s, Value::Null)),
                        );
                    } else {
                        out.push((s, Value::Null));
                    }
                }
                out
            }
            Expr::Block(b) => self
                .exec_block(st, b)
                .into_iter()
                .map(|mut s| {
                    let v = s.yielded.take().unwrap_or(Value::Null);
                    (s, v)
                })
                .collect(),
            Expr::Variant { name, inner } => match inner {
                Some(x) => self
                    .eval(st, x)
                    .into_iter()
                    .map(|(s, v)| (s, Value::Variant(name.clone(), Some(Rc::new(v)))))
                    .collect(),
                None => vec![(st, Value::Variant(name.clone(), None))],
            },
            Expr::Propagate(x) => self
                .eval(st, x)
                .into_iter()
                .map(|(mut s, v)| match v {
                    Value::Variant(ref n, ref inner) if n == "Ok" => {
                        let inner = inner.as_deref().cloned().unwrap_or_else(Value::unknown);
                        (s, inner)
                    }
                    Value::Variant(ref n, _) if n == "Err" => {
                        s.status = Status::Returned(v.clone());
                        (s, Value::unknown())
                    }
                    ref nullish if nullish.is_nullish() == Some(true) => {
                        s.status = Status::Returned(Value::Null);
                        (s, Value::unknown())
                    }
                    _ => (s, v),
                })
                .collect(),
            Expr::Opaque(parts) => {
                let exprs: Vec<&Expr> = parts.iter().collect();
                self.eval_all(st, &exprs)
                    .into_iter()
                    .map(|(s, vals)| (s, join(&vals)))
                    .collect()
            }
        }
    }

    fn field(&mut self, f: MessageField) -> Value {
        match f {
            MessageField::Method => {
                self.touched_method = true;
                Value::Method(self.probe.method.clone())
            }
            MessageField::Id => {
                self.touched_id = true;
                if self.probe.has_id {
                    Value::Id
                } else {
                    Value::NoId
                }
            }
            MessageField::ProtocolVersion => Value::ClientVersion { checked: false },
        }
    }

    fn note_touch(&mut self, v: &Value) {
        match v {
            Value::Id | Value::NoId => self.touched_id = true,
            Value::Method(_) => self.touched_method = true,
            _ => {}
        }
    }

    fn var(&mut self, st: &State, name: &str) -> Value {
        if let Some(v) = st.env.get(name) {
            return v.clone();
        }
        let scope = self.prog.function(self.here()).span.file;
        let key = (name.to_string(), scope);
        if let Some(v) = self.globals_cache.get(&key) {
            return v.clone();
        }
        if let Some(expr) = self.prog.global(name, self.here()) {
            // Guard against self-referential globals while evaluating.
            self.globals_cache.insert(key.clone(), Value::unknown());
            let vals: Vec<Value> = self
                .eval(State::new(BTreeMap::new()), expr)
                .into_iter()
                .map(|(_, v)| v)
                .collect();
            let v = if vals.len() == 1 {
                vals.into_iter().next().unwrap_or_else(Value::unknown)
            } else {
                join(&vals)
            };
            self.globals_cache.insert(key, v.clone());
            return v;
        }
        if let Some(id) = self
            .prog
            .resolve(name, self.here())
            .filter(|_| !name.contains('.') || name.starts_with("self."))
        {
            return Value::Func(id);
        }
        Value::unknown()
    }

    /// Evaluates expressions left to right, forking as each one forks.
    fn eval_all(&mut self, st: State, exprs: &[&Expr]) -> Vec<(State, Vec<Value>)> {
        let mut acc = vec![(st, Vec::new())];
        for e in exprs {
            let mut next = Vec::new();
            for (s, vals) in acc {
                for (s2, v) in self.eval(s, e) {
                    let mut vals = vals.clone();
                    vals.push(v);
                    next.push((s2, vals));
                }
            }
            if next.len() > MAX_PATHS {
                next.truncate(MAX_PATHS);
                self.incomplete = true;
            }
            acc = next;
        }
        acc
    }

    fn eval_pair(
        &mut self,
        st: State,
        a: &Expr,
        b: &Expr,
        f: impl Fn(&mut Self, &Value, &Value) -> Value,
    ) -> Vec<(State, Value)> {
        self.eval_all(st, &[a, b])
            .into_iter()
            .map(|(s, vals)| {
                let v = f(self, &vals[0], &vals[1]);
                (s, v)
            })
            .collect()
    }

    fn equals(&mut self, l: &Value, r: &Value) -> Value {
        match (l, r) {
            (Value::Method(m), Value::Str(s)) | (Value::Str(s), Value::Method(m)) => {
                // `request.method == "POST"` tests the HTTP verb; probes arrive by POST.
                if HTTP_VERBS.contains(&s.as_str()) {
                    Value::Bool(s == "POST")
                } else {
                    Value::Bool(m == s)
                }
            }
            (Value::Str(a), Value::Str(b)) => Value::Bool(a == b),
            (Value::Int(a), Value::Int(b)) => Value::Bool(a == b),
            (Value::ClientVersion { .. }, _) | (_, Value::ClientVersion { .. }) => Value::unknown(),
            (a, b) if a.is_nullish() == Some(true) && b.is_nullish() == Some(true) => {
                Value::Bool(true)
            }
            _ => Value::unknown(),
        }
    }

    fn member(&mut self, item: &Value, collection: &Value) -> Value {
        let key = match item {
            Value::Method(m) => m.as_str(),
            Value::Str(s) => s.as_str(),
            _ => return Value::unknown(),
        };
        match collection {
            Value::Object(entries) => Value::Bool(entries.iter().any(|(k, _)| k == key)),
            Value::Array(items) => {
                if items.iter().all(|i| matches!(i, Value::Str(_))) {
                    Value::Bool(items.iter().any(|i| matches!(i, Value::Str(s) if s == key)))
                } else {
                    Value::unknown()
                }
            }
            _ => Value::unknown(),
        }
    }

    fn lookup(&mut self, collection: &Value, key: &Value) -> Value {
        let k = match key {
            Value::Method(m) => m.clone(),
            Value::Str(s) => s.clone(),
            _ => return Value::unknown(),
        };
        // A table filled by registrations (`insert`, decorators) is empty where it is built.
        let here = self.here();
        let registered = matches!(key, Value::Method(_)) && self.prog.has_registrations(here);
        match collection {
            Value::Object(entries) if !(entries.is_empty() && registered) => {
                match entries.iter().find(|(ek, _)| *ek == k) {
                    Some((_, v)) => v.clone(),
                    None if matches!(key, Value::Method(_)) => Value::Null,
                    None => Value::unknown(),
                }
            }
            _ if registered => match self.prog.registration(&k, here) {
                Some(handler) => self
                    .prog
                    .resolve(handler, here)
                    .map(Value::Func)
                    .unwrap_or_else(Value::unknown),
                None => Value::Null,
            },
            _ => Value::unknown(),
        }
    }

    fn eval_call(
        &mut self,
        st: State,
        callee: &str,
        receiver: Option<&Expr>,
        args: &[Expr],
        span: Span,
    ) -> Vec<(State, Value)> {
        let mut exprs: Vec<&Expr> = Vec::new();
        if let Some(r) = receiver {
            exprs.push(r);
        }
        exprs.extend(args.iter());
        let mut out = Vec::new();
        for (s, mut vals) in self.eval_all(st, &exprs) {
            let recv = if receiver.is_some() {
                Some(vals.remove(0))
            } else {
                None
            };
            let target = match (callee, &recv) {
                ("()", Some(Value::Func(id))) => Some(*id),
                ("()", _) => None,
                _ => match s.env.get(callee) {
                    Some(Value::Func(id)) => Some(*id),
                    Some(_) => None,
                    None => self.resolve_callee(callee),
                },
            };
            if let Some(id) = target {
                let anchored = self
                    .stack
                    .last()
                    .is_some_and(|caller| self.anchors.contains(caller));
                let site = |v: &Value| {
                    if anchored {
                        v.with_site(span)
                    } else {
                        v.clone()
                    }
                };
                let outcomes = self.call_function(id, vals);
                if outcomes.is_empty() {
                    // Nothing known yet (a recursive call on its first round): go on with an unknown value.
                    out.push((s, Value::unknown()));
                    continue;
                }
                for o in outcomes.iter() {
                    let mut s2 = s.clone();
                    s2.effects.extend(o.effects.iter().map(|e| match e {
                        Effect::Emit { value, span: at } => Effect::Emit {
                            value: site(value),
                            span: *at,
                        },
                        other => other.clone(),
                    }));
                    s2.id_check = o.id_check.or(s2.id_check);
                    s2.method_branch = o.method_branch.or(s2.method_branch);
                    s2.prefix_check = o.prefix_check.or(s2.prefix_check);
                    s2.saw_message |= o.saw_message;
                    let value = site(&o.value);
                    if o.raised {
                        s2.status = Status::Raised(value.clone());
                    }
                    out.push((s2, value));
                }
                continue;
            }
            let name = crate::lower::last_segment(callee);
            let mut all = vals;
            all.extend(recv);
            let mut s = s;
            if SINKS.contains(&name) {
                let value = join(&all);
                if value.interesting() {
                    s.effects.push(Effect::Emit { value, span });
                }
                out.push((s, Value::unknown()));
            } else {
                out.push((s, join(&all)));
            }
        }
        out
    }

    fn resolve_callee(&mut self, callee: &str) -> Option<FnId> {
        if callee.contains('.') && !callee.starts_with("self.") && !callee.starts_with("this.") {
            // `obj.method()` on a value we cannot see: only follow unambiguous method names.
            let name = crate::lower::last_segment(callee);
            if SINKS.contains(&name) {
                return None;
            }
        }
        // `self.initialize()` means the caller's own class when it has such a method.
        let own = ["self.", "this.", "Self::", "$this->"]
            .iter()
            .any(|p| callee.starts_with(p));
        if own {
            let owner = self
                .stack
                .last()
                .and_then(|f| self.prog.function(*f).owner.clone());
            let name = crate::lower::last_segment(callee);
            if let Some(found) = self.prog.resolve_owned(name, owner.as_deref(), self.here()) {
                return Some(found);
            }
        }
        self.prog.resolve(callee, self.here())
    }

    /// The function being evaluated.
    fn here(&self) -> FnId {
        self.stack.last().copied().unwrap_or(0)
    }

    fn decide(&mut self, st: State, cond: &Expr) -> Vec<(State, Option<bool>, bool, bool, bool)> {
        let saved = (self.touched_id, self.touched_method, self.touched_prefix);
        self.touched_id = false;
        self.touched_method = false;
        self.touched_prefix = false;
        let results = self.eval(st, cond);
        let touched = (self.touched_id, self.touched_method, self.touched_prefix);
        self.touched_id = saved.0;
        self.touched_method = saved.1;
        self.touched_prefix = saved.2;
        results
            .into_iter()
            .map(|(s, v)| (s, v.truthy(), touched.0, touched.1, touched.2))
            .collect()
    }

    fn eval_if(
        &mut self,
        st: State,
        cond: &Expr,
        then: &Block,
        otherwise: &Block,
        span: Span,
    ) -> Vec<(State, Value)> {
        let mut out = Vec::new();
        for (s, truth, id, method, prefix) in self.decide(st, cond) {
            let branches: &[bool] = match truth {
                Some(true) => &[true],
                Some(false) => &[false],
                None => &[true, false],
            };
            for &b in branches {
                let mut s2 = s.clone();
                if truth.is_some() {
                    s2.saw_message |= id || method;
                    if id {
                        s2.id_check = Some(span);
                    }
                    if method && b {
                        s2.method_branch = Some(span);
                    }
                    if prefix {
                        s2.prefix_check = Some(span);
                    }
                } else {
                    refine(&mut s2, cond, b);
                }
                let block = if b { then } else { otherwise };
                for mut s3 in self.exec_block(s2, block) {
                    let v = s3.yielded.take().unwrap_or(Value::Null);
                    out.push((s3, v));
                }
            }
        }
        out
    }

    fn eval_match(
        &mut self,
        st: State,
        subject: &Value,
        subject_expr: &Expr,
        arms: &[Arm],
        span: Span,
    ) -> Vec<(State, Value)> {
        let mut out = Vec::new();
        // Paths still looking for an arm.
        let mut pending = vec![st];
        for arm in arms {
            let mut still = Vec::new();
            for s in pending {
                let (truth, binding) = match_arm(subject, &arm.patterns);
                if truth == Some(false) {
                    still.push(s);
                    continue;
                }
                let mut taken = s.clone();
                if let Some((name, v)) = &binding {
                    taken.env.insert(name.clone(), v.clone());
                }
                let method_decided = truth == Some(true) && matches!(subject, Value::Method(_));
                taken.saw_message |= truth.is_some()
                    && matches!(subject, Value::Method(_) | Value::Id | Value::NoId);
                if matches!(subject, Value::Id | Value::NoId) && truth.is_some() {
                    taken.id_check = Some(span);
                }
                if method_decided {
                    taken.method_branch = Some(arm.span);
                }
                if truth.is_none() {
                    refine_variant(&mut taken, subject_expr, &arm.patterns);
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
            pending = limit(still, &mut self.incomplete);
            if pending.is_empty() {
                break;
            }
        }
        out.extend(pending.into_iter().map(|s| (s, Value::Null)));
        out
    }
}

/// Whether a value matches one of an arm's patterns, and what it binds.
fn match_arm(subject: &Value, patterns: &[Pattern]) -> (Option<bool>, Option<(String, Value)>) {
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
        None if patterns.is_empty() => (None, None),
        None => (Some(false), None),
    }
}

fn match_pattern(v: &Value, p: &Pattern) -> (Option<bool>, Option<(String, Value)>) {
    match p {
        Pattern::Any(binding) => (Some(true), binding.clone().map(|b| (b, v.clone()))),
        Pattern::Str(s) => match v {
            Value::Method(m) | Value::Str(m) => (Some(m == s), None),
            _ => (None, None),
        },
        Pattern::Int(n) => match v {
            Value::Int(m) => (Some(m == n), None),
            _ => (None, None),
        },
        Pattern::Variant { name, binding } => {
            let bind = |inner: Value| binding.clone().map(|b| (b, inner));
            match (name.as_str(), v) {
                (n, Value::Variant(vn, inner)) if matches!(n, "Ok" | "Err" | "Some" | "None") => {
                    let inner = inner.as_deref().cloned().unwrap_or_else(Value::unknown);
                    (Some(n == vn), bind(inner))
                }
                ("None", x) => (x.is_nullish(), None),
                ("Some", x) => (x.is_nullish().map(|b| !b), bind(x.clone())),
                // `match serde_json::to_string(&reply) { Ok(text) => ..`: the unknown result may be Ok(value).
                _ => (None, bind(v.clone())),
            }
        }
        Pattern::Unknown => (None, None),
    }
}

/// On a path where an undecided condition held (or failed), records what it tells:
/// a client version tested against a set is checked from then on.
fn refine(st: &mut State, cond: &Expr, holds: bool) {
    match cond {
        Expr::Not(inner) => refine(st, inner, !holds),
        Expr::Member { item, .. } | Expr::Eq { left: item, .. }
            if holds ^ matches!(cond, Expr::Eq { negated: true, .. }) =>
        {
            mark_checked(st, item)
        }
        Expr::And(a, b) if holds => {
            refine(st, a, true);
            refine(st, b, true);
        }
        Expr::Or(a, b) if !holds => {
            refine(st, a, false);
            refine(st, b, false);
        }
        _ => {}
    }
}

fn refine_variant(st: &mut State, subject: &Expr, patterns: &[Pattern]) {
    if patterns.iter().any(|p| matches!(p, Pattern::Str(_))) {
        mark_checked(st, subject);
    }
}

fn mark_checked(st: &mut State, e: &Expr) {
    if let Expr::Var(name) = e
        && let Some(v @ Value::ClientVersion { .. }) = st.env.get_mut(name)
    {
        *v = Value::ClientVersion { checked: true };
    }
}

fn error_code(v: &Value) -> Option<i64> {
    match v {
        Value::Int(n) => Some(*n),
        Value::Object(entries) => entries
            .iter()
            .find(|(k, _)| k == "code")
            .and_then(|(_, c)| match c {
                Value::Int(n) => Some(*n),
                _ => None,
            }),
        Value::Unknown(parts) => parts.iter().find_map(error_code),
        _ => None,
    }
}

/// An unknown value built from others: keeps the ones the checks care about.
fn join(vals: &[Value]) -> Value {
    let kept: Vec<Value> = vals.iter().filter(|v| v.interesting()).cloned().collect();
    if kept.len() == 1
        && !matches!(kept[0], Value::Array(_))
        && let Value::Unknown(_) = kept[0]
    {
        return kept[0].clone();
    }
    Value::Unknown(Rc::new(kept))
}

fn limit(mut states: Vec<State>, incomplete: &mut bool) -> Vec<State> {
    if states.len() > 1 {
        states.sort();
        states.dedup();
    }
    if states.len() > MAX_PATHS {
        states.truncate(MAX_PATHS);
        *incomplete = true;
    }
    states
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unknown_values_keep_replies() {
        let r = Value::Reply(Rc::new(Reply {
            result: Some(Value::Null),
            error: None,
            span: Span::default(),
            site: None,
            pre_dispatch: false,
        }));
        let j = join(&[Value::Int(1), r.clone()]);
        let mut out = Vec::new();
        j.replies(&mut out);
        assert_eq!(out.len(), 1);
    }
}
