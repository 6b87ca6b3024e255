//! Grouping: which functions make up each MCP server.
//!
//! A *dispatcher* is a function that picks code by comparing the method name
//! with two or more MCP method names (a `match`, an `if` chain, a handler map).
//! Dispatchers connected by calls form one server; its *entries* are the
//! outermost functions that lead to it (a stdin loop, an HTTP route handler)
//! and to no other server. A file that imports an official SDK and holds no
//! hand-written dispatch becomes an SDK-based server.

use crate::interp::Program;
use crate::model::{
    Arm, Expr, FileFacts, FnId, Language, MCP_METHODS, MCP_SPECIFIC_METHODS, Pattern, Span, Stmt, walk_block,
};
use std::collections::{BTreeSet, HashMap, HashSet, VecDeque};

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Transport {
    Stdio,
    Http,
}

impl Transport {
    pub fn name(self) -> &'static str {
        match self {
            Transport::Stdio => "stdio",
            Transport::Http => "http",
        }
    }
}

#[derive(Debug, Clone)]
pub struct Entry {
    pub function: FnId,
    pub http: bool,
    /// Messages arrive here: an HTTP handler, or code that reads standard input. An
    /// entry that is not one is a dispatcher whose callers the scan could not see.
    pub transport: bool,
    /// Parameters the entry calls, bound to the function its caller hands it
    /// (`transport.run(self.handle)` into `def run(self, handler)`): by position.
    pub callbacks: Vec<(usize, FnId)>,
    /// Names the entry captures from the parameters of the function that made it
    /// (a callback handed to a library: `rl.on("line", (l) => handler(..))` in
    /// `startStdio(handler)`), bound to what that function's caller hands it.
    pub captured: Vec<(String, FnId)>,
}

#[derive(Debug, Clone)]
pub struct Server {
    pub language: Language,
    /// Where the server is located: its first dispatch site, or, for one dispatch
    /// behind a stdio loop and an HTTP handler, the entry of its transport.
    pub span: Span,
    /// The first dispatch site (none for a server an SDK runs).
    pub dispatch: Option<Span>,
    pub dispatchers: Vec<FnId>,
    pub entries: Vec<Entry>,
    /// Indexes of the files whose code takes part.
    pub files: BTreeSet<u32>,
    pub sdk: Option<String>,
    pub hand_written: bool,
    pub transports: Vec<Transport>,
    /// The MCP method names the dispatch compares against.
    pub methods: BTreeSet<String>,
    /// Why this is taken for an MCP server: the MCP-only methods it dispatches on, or
    /// where it answers with a `protocolVersion`, or the SDK it is built on.
    pub evidence: Evidence,
    /// The functions that lead to the dispatch (its callers, theirs, up to the entries).
    pub lead_in: std::sync::Arc<BTreeSet<FnId>>,
}

/// What shows a program speaks MCP (a JSON-RPC program without it is not judged).
#[derive(Debug, Clone, Default)]
pub struct Evidence {
    /// MCP-only methods the dispatch handles (see [`crate::model::MCP_SPECIFIC_METHODS`]).
    pub methods: Vec<String>,
    /// An object with a `protocolVersion` member the server builds.
    pub protocol_version: Option<Span>,
    /// For a dispatch with no MCP vocabulary of its own (a notification handler with
    /// only `initialized`): the MCP servers next to it in the same folder tree. It
    /// counts only while one of them does.
    pub beside: Vec<Span>,
    /// It answers `initialize` as another protocol does (the Agent Client Protocol's
    /// result, see [`ACP_INITIALIZE_MEMBERS`]): no MCP server, wherever it sits.
    pub other_protocol: bool,
}

impl Evidence {
    pub fn speaks_mcp(&self) -> bool {
        // `tasks/get` and `tasks/cancel` are also the Agent2Agent protocol's methods
        // (beside its `message/send`): alone they do not say MCP.
        self.methods.iter().any(|m| !m.starts_with(crate::model::SHARED_TASKS_PREFIX))
            || self.protocol_version.is_some()
    }
}

/// Whether one of the server's dispatchers reads a message's `method` itself.
pub fn reads_method(prog: &Program, server: &Server) -> bool {
    let mut found = false;
    for &d in &server.dispatchers {
        walk_block(&prog.function(d).body, &mut |e| {
            found |= matches!(e, Expr::Field { name: crate::model::FieldName::Method, .. });
        });
    }
    found
}

/// Members of the Agent Client Protocol's `initialize` result, which also carries a
/// `protocolVersion`: an editor's agent server, not an MCP server.
const ACP_INITIALIZE_MEMBERS: &[&str] = &["agentCapabilities", "agentInfo", "authMethods"];

/// Whether an object's members are those of the Agent Client Protocol's `initialize`
/// result (its Go struct fields, `AgentCapabilities`, named alike).
fn acp_initialize(entries: &[(String, Expr)]) -> bool {
    entries.iter().any(|(k, _)| ACP_INITIALIZE_MEMBERS.iter().any(|a| k.eq_ignore_ascii_case(a)))
}

/// Whether one of `members` builds the Agent Client Protocol's `initialize` result.
fn builds_acp_initialize(prog: &Program, members: &[FnId]) -> bool {
    let mut found = false;
    for &m in members {
        walk_block(&prog.function(m).body, &mut |e| {
            found |= matches!(e, Expr::Object { entries, .. } if acp_initialize(entries));
        });
    }
    found
}

/// The first object with a `protocolVersion` member built by one of `members` (not
/// the Agent Client Protocol's, see [`ACP_INITIALIZE_MEMBERS`]).
fn protocol_version_object(prog: &Program, members: &[FnId]) -> Option<Span> {
    let mut found: Option<Span> = None;
    for &m in members {
        walk_block(&prog.function(m).body, &mut |e| {
            let span = match e {
                Expr::Object { entries, span }
                    if entries.iter().any(|(k, _)| k == "protocolVersion") && !acp_initialize(entries) =>
                {
                    *span
                }
                _ => return,
            };
            if found.is_none_or(|f| (span.file, span.start) < (f.file, f.start)) {
                found = Some(span);
            }
        });
    }
    found
}

/// The object literal a function assigns to a local `name` (`const handlers = {...}`).
fn local_table<'b>(body: &'b crate::model::Block, name: &str) -> Option<&'b Expr> {
    let mut found = None;
    crate::model::walk_statements(body, &mut |s| {
        if let Stmt::Assign { target, value: value @ Expr::Object { .. }, .. } = s
            && target == name
        {
            found.get_or_insert(value);
        }
    });
    found
}

/// Whether a function is an Express/Connect middleware, `(req, res, next)`, that calls
/// `next()`: the request then goes on to a handler of the chain. `next(error)` hands
/// a failure to the error handlers instead (a handler's `catch`), which is no passing
/// on: only a call with no argument, or with `'route'`/`'router'`, is.
fn passes_on(prog: &Program, id: FnId) -> bool {
    let f = prog.function(id);
    let script = matches!(prog.file_of(id).language, Language::JavaScript | Language::TypeScript);
    let Some(next) = f.params.get(2).filter(|p| script && f.params.len() == 3 && p.as_str() == "next") else {
        return false;
    };
    let mut calls = false;
    walk_block(&f.body, &mut |e| {
        calls |= matches!(e, Expr::Call { callee, receiver: None, args, .. }
        if callee == next && match args.as_slice() {
            [] => true,
            [Expr::Str(skip)] => skip == "route" || skip == "router",
            _ => false,
        });
    });
    calls
}

/// The object literal a function returns (`return new Map([["ping", onPing], ...])`).
fn returned_table<'a>(prog: &Program<'a>, id: FnId) -> Option<&'a Expr> {
    let mut found = None;
    crate::model::walk_statements(&prog.function(id).body, &mut |s| {
        if let Stmt::Return { value: Some(value @ Expr::Object { .. }), .. } = s {
            found.get_or_insert(value);
        }
    });
    found
}

/// The table a parameter is handed by the code's callers: `dispatch(msg, handlers)`
/// called as `dispatch(m, buildHandlers())`, with a local bound to such a call or to a
/// literal, or with a parameter of its own handed on the same way (a few callers up).
fn param_table<'a>(prog: &Program<'a>, id: FnId, name: &str, depth: usize) -> Option<&'a Expr> {
    let index = prog.function(id).params.iter().position(|p| p == name)?;
    if depth == 0 {
        return None;
    }
    // A local of `here` bound to a table, or handed in by `here`'s own callers.
    let bound_in = |here: FnId, v: &str| {
        local_table(&prog.function(here).body, v)
            .or_else(|| local_made_table(prog, here, v))
            .or_else(|| param_table(prog, here, v, depth - 1))
    };
    callers_args(prog, id, index).find_map(|(caller, arg)| match arg {
        // A closure's captured local: bound in the function around it.
        Expr::Var(v) => bound_in(caller, v).or_else(|| bound_in(prog.enclosing_function(caller)?, v)),
        other => handed_table(prog, caller, other),
    })
}

/// A table a closure reads from the function around it: `dispatch`, defined in
/// `serveStdio({ handlers })`, looks up `handlers[method]`.
fn captured_table<'a>(prog: &Program<'a>, id: FnId, name: &str) -> Option<&'a Expr> {
    let outer = prog.outer_function(id)?;
    local_table(&prog.function(outer).body, name)
        .or_else(|| local_made_table(prog, outer, name))
        .or_else(|| param_table(prog, outer, name, 3))
        .or_else(|| destructured_table(prog, outer, name))
}

/// The table an object's field is set to by a method of its class (the constructor's
/// `this.handlers = createHandlers(deps)`, or a literal), for `this.handlers[method]`.
fn field_table<'a>(prog: &Program<'a>, id: FnId, name: &str) -> Option<&'a Expr> {
    let field = name.strip_prefix("self.").or_else(|| name.strip_prefix("this."))?;
    let owner = prog.function(id).owner.as_deref()?;
    prog.class(owner, id)
        .into_iter()
        .flat_map(|class| prog.own_method_ids(class, id))
        .find_map(|m| {
            prog.assignments(m, name)
                .into_iter()
                .chain(prog.assignments(m, &format!("this.{field}")))
                .find_map(|value| handed_table(prog, m, value))
        })
        .or_else(|| {
            // Set by a factory function on the object it builds (Go's `New`).
            let (factory, value, _) = prog.factory_field(owner, field, id)?;
            handed_table(prog, factory, value)
        })
}

/// The table a destructured parameter is handed: `function serveStdio({ handlers })`
/// called as `serveStdio({ input, handlers: createHandlers(context) })`, or with the
/// table itself under that key.
fn destructured_table<'a>(prog: &Program<'a>, id: FnId, name: &str) -> Option<&'a Expr> {
    let (index, key) = prog.destructured_read(id, name)?;
    callers_args(prog, id, index).find_map(|(caller, arg)| {
        let Expr::Object { entries, .. } = arg else { return None };
        handed_table(prog, caller, &entries.iter().find(|(k, _)| k == key)?.1)
    })
}

/// The arguments the code's calls of `id` hand it at `index`, with the caller.
fn callers_args<'p, 'a>(
    prog: &'p Program<'a>,
    id: FnId,
    index: usize,
) -> impl Iterator<Item = (FnId, &'a Expr)> + 'p {
    prog.calls_named(&prog.function(id).name).iter().filter_map(move |&(caller, call)| {
        let Expr::Call { callee, args, .. } = call else { return None };
        if caller == id || prog.resolve(callee, caller) != Some(id) {
            return None;
        }
        Some((caller, args.get(index)?))
    })
}

/// A table written at a call site: the literal, or what the call that builds it returns.
fn handed_table<'a>(prog: &Program<'a>, caller: FnId, arg: &'a Expr) -> Option<&'a Expr> {
    match arg {
        table @ Expr::Object { .. } => Some(table),
        Expr::Call { callee: maker, receiver: None, .. } => {
            prog.resolve(maker, caller).and_then(|m| returned_table(prog, m))
        }
        _ => None,
    }
}

/// The table a local is bound to by a call that returns one (`const handlers =
/// buildHandlers(tools)`).
fn local_made_table<'a>(prog: &Program<'a>, here: FnId, name: &str) -> Option<&'a Expr> {
    prog.assignments(here, name).into_iter().find_map(|value| match value {
        Expr::Call { callee, receiver: None, .. } => {
            prog.resolve(callee, here).and_then(|m| returned_table(prog, m))
        }
        _ => None,
    })
}

/// MCP method names a function dispatches on, with the first place it does so.
fn dispatched_methods(prog: &Program, id: FnId) -> (BTreeSet<String>, Option<Span>) {
    let f = prog.function(id);
    let mut names = BTreeSet::new();
    let mut first: Option<Span> = None;
    let mut note = |s: &str, span: Option<Span>, names: &mut BTreeSet<String>| {
        if MCP_METHODS.contains(&s) {
            names.insert(s.to_string());
            if let Some(sp) = span
                && first.is_none_or(|f| sp.start < f.start)
            {
                first = Some(sp);
            }
        }
    };
    walk_block(&f.body, &mut |e| match e {
        Expr::Match { arms, .. } if labels_only(arms) => {}
        Expr::Match { arms, span, .. } => {
            for arm in arms {
                for p in &arm.patterns {
                    match p {
                        Pattern::Str(s) => note(s, Some(*span), &mut names),
                        Pattern::Const(c) => {
                            if let Some(Expr::Str(s)) = prog.constant(c, id) {
                                note(s, Some(*span), &mut names);
                            }
                        }
                        // `Inbound::Ping { id }` of an enum decoded by the message's method.
                        Pattern::Variant { name, .. } => {
                            for wire in prog.tagged_methods(name, id) {
                                note(wire, Some(*span), &mut names);
                            }
                        }
                        // `Some("initialize")` on `msg["method"].as_str()`.
                        Pattern::VariantOf { inner, .. } => {
                            if let Pattern::Str(s) = inner.as_ref() {
                                note(s, Some(*span), &mut names);
                            }
                        }
                        _ => {}
                    }
                }
            }
        }
        Expr::If { cond, span, .. } => {
            cond.walk(&mut |c| match c {
                Expr::Eq { left, right, .. } => {
                    for side in [left, right] {
                        match side.as_ref() {
                            Expr::Str(s) => note(s, Some(*span), &mut names),
                            Expr::Var(c) => {
                                if let Some(Expr::Str(s)) = prog.constant(c, id) {
                                    note(s, Some(*span), &mut names);
                                }
                            }
                            _ => {}
                        }
                    }
                }
                Expr::Member { collection, .. } => {
                    if let Expr::Array { items, .. } = collection.as_ref() {
                        for i in items {
                            if let Expr::Str(s) = i {
                                note(s, Some(*span), &mut names);
                            }
                        }
                    }
                }
                _ => {}
            });
        }
        // A loop over handler objects, or a search among them, each declaring the
        // method it takes (in a method's body or a field's default).
        Expr::ForEach { .. } | Expr::Call { .. } => {
            for class in strategy_classes(prog, e, id) {
                let defaults = class.fields.iter().filter_map(|(_, d)| d.as_ref());
                for d in defaults {
                    d.walk(&mut |e| {
                        if let Expr::Str(s) = e {
                            note(s, None, &mut names);
                        }
                    });
                }
                for m in prog.own_method_ids(class, id) {
                    walk_block(&prog.function(m).body, &mut |e| match e {
                        Expr::Str(s) => note(s, None, &mut names),
                        // `McpMethod::INITIALIZE`: a constant holding the name.
                        Expr::Var(c) => {
                            if let Some(Expr::Str(s)) = prog.constant(c, id) {
                                note(s, None, &mut names);
                            }
                        }
                        _ => {}
                    });
                }
            }
        }
        // The key is the method, or the method with a default (`$msg['method'] ?? ''`).
        Expr::Lookup { collection, key, .. }
            if matches!(key.as_ref(), Expr::Field { .. } | Expr::Var(_))
                || matches!(key.as_ref(), Expr::Or(k, _) | Expr::Coalesce(k, _) if matches!(k.as_ref(), Expr::Field { .. } | Expr::Var(_))) =>
        {
            if let Expr::Var(name) = collection.as_ref() {
                let table = prog
                    .global(name, id)
                    .or_else(|| local_table(&f.body, name))
                    .or_else(|| param_table(prog, id, name, 3))
                    .or_else(|| destructured_table(prog, id, name))
                    .or_else(|| captured_table(prog, id, name))
                    .or_else(|| field_table(prog, id, name))
                    .filter(|g| !matches!(g, Expr::Object { entries, .. } if entries.is_empty()))
                    // A table of labels (`"ping": "liveness"`) names methods for a log
                    // line; it dispatches nothing. A string that names a function or a
                    // class of the code is a handler (PHP's callables, `Ping::class`).
                    .filter(|g| {
                        let label = |v: &Expr| match v {
                            Expr::Str(text) => {
                                prog.resolve(text, id).is_none() && prog.class(text, id).is_none()
                            }
                            Expr::Int(_) | Expr::Bool(_) => true,
                            _ => false,
                        };
                        !matches!(g, Expr::Object { entries, .. } if entries.iter().all(|(_, v)| label(v)))
                    });
                if let Some(Expr::Object { entries, span }) = table {
                    for (k, _) in entries {
                        note(prog.table_key(k, id).unwrap_or(k), Some(*span), &mut names);
                    }
                } else if prog.reads_registry(name, key, id) {
                    for m in prog.registered_methods(id) {
                        note(m, None, &mut names);
                    }
                }
            }
        }
        _ => {}
    });
    (names, first.or(Some(f.span)))
}

/// Whether every arm of a `match` or `switch` only yields a plain label (a string
/// that is not JSON text, a number, a boolean) or a member read by name (`'tools/call'
/// => $params['name'] ?? null`, null): a classifier of method names (`fn
/// category(method) -> &str` for a log view) or a picker of the parameter a method
/// names (a header check), not a dispatch. Arms with no body fall through to the
/// next; an arm that does anything else makes it a dispatch.
fn labels_only(arms: &[Arm]) -> bool {
    fn label(e: &Expr) -> bool {
        match e {
            Expr::Str(s) => !s.trim_start().starts_with(['{', '[']),
            Expr::Int(_) | Expr::Bool(_) | Expr::Null => true,
            Expr::Lookup { key, .. } => matches!(key.as_ref(), Expr::Str(_)),
            Expr::Or(a, b) | Expr::Coalesce(a, b) => label(a) && label(b),
            _ => false,
        }
    }
    let mut labelled = false;
    for arm in arms {
        let body: Vec<&Stmt> = arm
            .body
            .iter()
            .filter(|s| !matches!(s, Stmt::LeaveLoop | Stmt::Continue | Stmt::NextRound))
            .collect();
        match body.as_slice() {
            [] => {}
            [
                Stmt::Expr(e)
                | Stmt::Yield(e)
                | Stmt::Return { value: Some(e), .. }
                | Stmt::Assign { value: e, .. },
            ] if label(e) => {
                labelled = true;
            }
            _ => return false,
        }
    }
    labelled
}

/// The handler classes a loop (`for h in handlers: if h.supports(m): ...`) or a search
/// (`handlers.find(h => h.is(msg))`) over objects the scan cannot list stands for.
fn strategy_classes<'a>(prog: &Program<'a>, e: &Expr, id: FnId) -> Vec<&'a crate::model::ClassDef> {
    match e {
        Expr::ForEach { targets, iterable, body } => prog.loop_strategies(targets, iterable, body, id),
        Expr::Call { callee, args, .. } if crate::lower::last_segment(callee) == "find" => {
            let [Expr::FnRef(name)] = args.as_slice() else { return Vec::new() };
            let Some(pred) = prog.resolve(name, id) else { return Vec::new() };
            let f = prog.function(pred);
            let Some(param) = f.params.first() else { return Vec::new() };
            prog.implementers(&crate::model::methods_on(&f.body, param), id)
        }
        _ => Vec::new(),
    }
}

/// Whether an object literal has the member `key`.
fn has_key(entries: &[(String, Expr)], key: &str) -> bool {
    entries.iter().any(|(k, _)| k == key)
}

/// Whether a function builds a JSON-RPC reply: a reply, or the envelope of one that
/// gets its result or error later (`{"jsonrpc": "2.0", "id": id}`, no `method`).
fn builds_reply(prog: &Program, id: FnId) -> bool {
    let mut found = false;
    walk_block(&prog.function(id).body, &mut |e| {
        found |= match e {
            Expr::Reply { .. } => true,
            Expr::Object { entries, .. } => {
                let has = |k| has_key(entries, k);
                has("jsonrpc") && has("id") && !has("method") && !has("params")
            }
            // `JsonRpcSuccessResponse(jsonrpc=..., id=request.id, result=result)`: a
            // model built by keyword with an id and a result or an error.
            Expr::Call { args, .. } => {
                let named = |k: &str| args.iter().any(|a| matches!(a, Expr::Named { name, .. } if name == k));
                named("id") && (named("result") || named("error")) && !named("method")
            }
            _ => false,
        }
    });
    found
}

/// Whether a function reads the `result` or `error` member of a message whose
/// `method` it also reads (`incoming.result` beside `incoming.method`): it takes
/// responses as well as requests, as a client waiting for its response does.
fn reads_response(prog: &Program, id: FnId) -> bool {
    use crate::model::FieldName;
    let mut methods: Vec<&str> = Vec::new();
    let mut responses: Vec<&str> = Vec::new();
    walk_block(&prog.function(id).body, &mut |e| match e {
        Expr::Field { object: Some(object), name } => {
            if let Expr::Var(var) = object.as_ref() {
                match name {
                    FieldName::Method => methods.push(var),
                    FieldName::Result | FieldName::Error => responses.push(var),
                    _ => {}
                }
            }
        }
        // `"result" in msg`, `msg.hasOwnProperty("error")`.
        Expr::HasKey { object, key } if matches!(key.as_str(), "result" | "error") => {
            if let Expr::Var(var) = object.as_ref() {
                responses.push(var);
            }
        }
        _ => {}
    });
    responses.iter().any(|r| methods.contains(r))
}

/// Whether a Go call's receiver is a field of the caller's own type declared with an
/// interface of the code (`s.transport.Start(..)` with `transport Transport`, a type
/// owning no methods).
fn interface_field(prog: &Program, callee: &str, here: FnId) -> bool {
    if prog.file_of(here).language != Language::Go {
        return false;
    }
    let Some((qualifier, _)) = callee.rsplit_once('.') else { return false };
    let Some(field) = qualifier.strip_prefix("self.").filter(|f| !f.contains('.')) else { return false };
    let Some(owner) = prog.function(here).owner.as_deref() else { return false };
    prog.field_class(owner, field, here).is_some_and(|iface| !prog.has_methods(iface, here))
}

/// JSON-RPC's "method not found" error code.
const METHOD_NOT_FOUND: i64 = -32601;

/// Whether a function builds a JSON-RPC request or notification to send: an object
/// with a `method` and the envelope (`jsonrpc` or `id`).
fn builds_request(prog: &Program, id: FnId) -> bool {
    let mut found = false;
    walk_block(&prog.function(id).body, &mut |e| {
        if let Expr::Object { entries, .. } = e {
            found |= entries.iter().any(|(k, v)| k == "method" && !matches!(v, Expr::Null))
                && (has_key(entries, "jsonrpc") || has_key(entries, "id"));
        }
    });
    found
}

/// For each function: the functions it calls, and the functions it refers to
/// without calling them (handlers in a table, a callback handed to a router).
/// The positions of the parameters a function calls (`handler(msg)` in
/// `def run(self, handler)`), itself or in a closure it makes and calls, there or
/// as a goroutine (`step := func(i int) { .. tail() }; step(0)` in `run(mws, tail)`).
/// A closure it only hands on (an event listener) runs elsewhere, as its own entry.
fn called_params(prog: &Program, id: FnId, closures: &HashMap<FnId, Vec<FnId>>) -> Vec<usize> {
    let params = &prog.function(id).params;
    let mut out = Vec::new();
    let mut todo = vec![id];
    while let Some(g) = todo.pop() {
        let own = &prog.function(g).params;
        // What `g` calls by name: functions, closures, variables holding them.
        let mut called: Vec<&str> = Vec::new();
        walk_block(&prog.function(g).body, &mut |e| {
            let name = match e {
                Expr::Call { callee, receiver: None, .. } => callee.as_str(),
                Expr::Call { callee, receiver: Some(r), .. } if callee == "()" => match r.as_ref() {
                    Expr::Var(v) | Expr::FnRef(v) => v.as_str(),
                    _ => return,
                },
                _ => return,
            };
            called.push(name);
            if (g == id || !own.iter().any(|p| p == name))
                && let Some(i) = params.iter().position(|p| p == name)
                && !out.contains(&i)
            {
                out.push(i);
            }
        });
        let mut held: Vec<(&str, &str)> = Vec::new();
        crate::model::walk_statements(&prog.function(g).body, &mut |st| {
            if let crate::model::Stmt::Assign { target, value: Expr::FnRef(f), .. } = st {
                held.push((target.as_str(), f.as_str()));
            }
        });
        for &c in closures.get(&g).into_iter().flatten() {
            let name = prog.function(c).name.as_str();
            let runs = called.iter().any(|&n| n == name || held.iter().any(|&(v, f)| v == n && f == name));
            if runs {
                todo.push(c);
            }
        }
    }
    out
}

/// The closures `id` makes (at any depth) that call a parameter of `id` they capture,
/// or hand it to a function of the code that calls it, with its position:
/// `startStdio(handler)` whose `rl.on("line", (l) => handler(..))` runs later, as an
/// entry of its own, and calls what `startStdio` was handed.
fn captured_param_calls(
    prog: &Program,
    id: FnId,
    closures: &HashMap<FnId, Vec<FnId>>,
    is_route: &(dyn Fn(FnId) -> bool + Sync),
) -> Vec<(FnId, usize)> {
    let params = &prog.function(id).params;
    let mut out = Vec::new();
    if params.is_empty() {
        return out;
    }
    // Only a callback a transport hands a library counts: one made where standard
    // input is read (`rl.on("line", ..)`), or one taking an HTTP request, and the
    // closures inside it (`req.on("end", ..)`); the binding goes to that outermost
    // callback, whose run reaches the inner ones. A socket's callback
    // (`net.createServer(sock => ..)`) may sit behind a bridge that drops what it
    // answers for a notification, so its answers are not the server's.
    let reads = |f: FnId| prog.function(f).reads_stdin;
    let anchor = |c: FnId, around: Option<FnId>, parent_reads: bool| {
        around.or_else(|| (parent_reads || reads(c) || is_route(c)).then_some(c))
    };
    let mut todo: Vec<(FnId, Option<FnId>)> =
        closures.get(&id).into_iter().flatten().map(|&c| (c, anchor(c, None, reads(id)))).collect();
    let mut seen: Vec<FnId> = todo.iter().map(|&(c, _)| c).collect();
    while let Some((c, around)) = todo.pop() {
        let f = prog.function(c);
        // A parameter of `id` as `c` sees it (not a name `c` binds itself).
        let captured_param = |name: &str| {
            if f.params.iter().any(|p| p == name) || prog.holds_value(c, name) {
                return None;
            }
            params.iter().position(|p| p == name)
        };
        if let Some(entry) = around {
            walk_block(&f.body, &mut |e| {
                let Expr::Call { callee, receiver, args, .. } = e else { return };
                if receiver.is_none()
                    && let Some(i) = captured_param(callee)
                    && !out.contains(&(entry, i))
                {
                    out.push((entry, i));
                }
                // Handed on to a function of the code that calls it (`handlePayload(handler, body)`).
                for (at, a) in args.iter().enumerate() {
                    if let Expr::Var(v) = a
                        && let Some(i) = captured_param(v)
                        && !out.contains(&(entry, i))
                        && let Some(t) = prog.resolve(callee, c)
                        && called_params(prog, t, closures).contains(&at)
                    {
                        out.push((entry, i));
                    }
                }
            });
        }
        for &inner in closures.get(&c).into_iter().flatten() {
            if !seen.contains(&inner) {
                seen.push(inner);
                todo.push((inner, anchor(inner, around, reads(c))));
            }
        }
    }
    out
}

/// The function an argument names (`self._handle`, `s.handle`, `handle`, a closure).
fn named_function(prog: &Program, arg: &Expr, here: FnId) -> Option<FnId> {
    match arg {
        Expr::FnRef(name) => prog.resolve(name, here),
        // `self.on_message` handed on: the function a setter stored in the field.
        Expr::Var(name) if let Some(field) = crate::model::own_field(name) => {
            prog.resolve(name, here).or_else(|| prog.stored_callback(here, field))
        }
        Expr::Var(name) if prog.holds_value(here, name) => local_function(prog, name, here, false),
        // A parameter of a function around `here`: what its caller hands (see
        // `Entry::captured`), not a function of that name elsewhere.
        Expr::Var(name) if prog.captured_parameter(name, here) => None,
        Expr::Var(name) => prog.resolve(name, here),
        _ => None,
    }
}

/// [`named_function`], and a name bound to what a factory makes (`const handler =
/// createRequestHandler(repo)`, local or the module's): the function the factory
/// returns. Taken only where a transport receives it (see [`callbacks`]).
fn named_or_made(prog: &Program, arg: &Expr, here: FnId) -> Option<FnId> {
    match arg {
        Expr::Var(name) if crate::model::own_field(name).is_none() && prog.holds_value(here, name) => {
            local_function(prog, name, here, true)
        }
        Expr::Var(name)
            if crate::model::own_field(name).is_none() && !prog.captured_parameter(name, here) =>
        {
            prog.resolve(name, here).or_else(|| prog.made_function(name, here))
        }
        _ => named_function(prog, arg, here),
    }
}

/// The function a local variable of `here` is bound to, when every binding of it
/// names the same one (`let on_msg = move |m| ...;`, `handler := func(..) {..}`).
fn local_function(prog: &Program, name: &str, here: FnId, made: bool) -> Option<FnId> {
    let mut found: Option<Option<FnId>> = None;
    crate::model::walk_statements(&prog.function(here).body, &mut |s| {
        if let crate::model::Stmt::Assign { target, value, .. } = s
            && target == name
        {
            let bound = match value {
                Expr::FnRef(f) => prog.resolve(f, here),
                // `handler = cast(Handler, self.on_message)`: the function a setter
                // stored in the field.
                Expr::Var(field) if let Some(field) = crate::model::own_field(field) => {
                    prog.stored_callback(here, field)
                }
                Expr::Block(b) => match b.last() {
                    Some(crate::model::Stmt::Yield(Expr::FnRef(f))) => prog.resolve(f, here),
                    _ => None,
                },
                // `const handler = createRequestHandler(repo)`: what the factory returns.
                Expr::Call { callee, receiver: None, .. } if made => prog.factory_made(callee, here),
                _ => None,
            };
            found = Some(crate::program::agreeing(found, bound));
        }
    });
    found.flatten()
}

/// The callbacks handed, the calls that hand something the scan cannot name, and the
/// callbacks closures reach through a parameter they capture: `(closure, the captured
/// parameter's name, callback, the caller that hands it)`.
type Handed = (Vec<(FnId, usize, FnId, FnId)>, Vec<(FnId, FnId)>, Vec<(FnId, String, FnId, FnId)>);

/// What [`captured_param_calls`] finds for a function, shared between threads.
type CapturedCalls = std::sync::Arc<Vec<(FnId, usize)>>;

/// Callbacks handed to a function of the code that calls them: `transport.run(self._handle)`
/// where `run(self, handler)` calls `handler(msg)`. The receiving function calls the
/// callback: `(receiver, parameter position, callback, the caller that hands it)`;
/// and `(receiver, caller)` where the caller hands it, at such a position, a function
/// the scan cannot name (a handler imported from a package).
fn callbacks(prog: &Program, is_route: &(dyn Fn(FnId) -> bool + Sync)) -> Handed {
    let n = prog.functions.len();
    let mut closures: HashMap<FnId, Vec<FnId>> = HashMap::new();
    for id in 0..n {
        if let Some(outer) = prog.capturing_function(id) {
            closures.entry(outer).or_default().push(id);
        }
    }
    // Which parameters a function calls, found once per function (on whichever thread
    // asks first; the answer depends on the function alone).
    let calling: std::sync::Mutex<HashMap<FnId, std::sync::Arc<Vec<usize>>>> = Default::default();
    let called = |m: FnId| -> std::sync::Arc<Vec<usize>> {
        if let Some(known) = calling.lock().ok().and_then(|c| c.get(&m).cloned()) {
            return known;
        }
        let found = std::sync::Arc::new(called_params(prog, m, &closures));
        if let Ok(mut c) = calling.lock() {
            c.entry(m).or_insert_with(|| found.clone());
        }
        found
    };
    // The closures a function makes that call a parameter of it they capture, with
    // the parameter's position (found once per function, as `called` is).
    let capturing: std::sync::Mutex<HashMap<FnId, CapturedCalls>> = Default::default();
    // A function where a transport receives messages: one that reads standard input
    // or answers HTTP, or a closure inside one.
    let transport = |f: FnId| {
        let mut at = Some(f);
        let mut depth = 0;
        while let Some(g) = at
            && depth < 64
        {
            if prog.function(g).reads_stdin || is_route(g) {
                return true;
            }
            at = prog.capturing_function(g);
            depth += 1;
        }
        false
    };
    let captured = |m: FnId| -> CapturedCalls {
        if let Some(known) = capturing.lock().ok().and_then(|c| c.get(&m).cloned()) {
            return known;
        }
        let found = std::sync::Arc::new(captured_param_calls(prog, m, &closures, is_route));
        if let Ok(mut c) = capturing.lock() {
            c.entry(m).or_insert_with(|| found.clone());
        }
        found
    };
    // Each function's calls on their own (a pair names its caller, so no two
    // functions find the same one), in the functions' order.
    let found = per_function(n, |id| {
        let (mut out, mut unnamed, mut caps) = (Vec::new(), Vec::new(), Vec::new());
        walk_block(&prog.function(id).body, &mut |e| {
            let Expr::Call { callee, args, .. } = e else { return };
            if args.is_empty() {
                return;
            }
            // The function the call names; on a value whose type the scan does not
            // know (`transport.run(..)`), the one method of that name in a related file
            // that calls a parameter.
            let mut targets: Vec<FnId> = prog
                .resolve(callee, id)
                .or_else(|| prog.made_function(callee, id))
                .filter(|&t| t != id)
                .into_iter()
                .collect();
            let name = crate::lower::last_segment(callee);
            if name.len() < callee.len() {
                let here = prog.file_of(id);
                let named: Vec<FnId> = prog
                    .named(name)
                    .iter()
                    .copied()
                    .filter(|&m| m != id && prog.function(m).owner.is_some())
                    .filter(|&m| prog.related(here, prog.file_of(m)))
                    .collect();
                let methods: Vec<FnId> = named.iter().copied().filter(|&m| !called(m).is_empty()).collect();
                if let [only] = methods.as_slice()
                    && !targets.contains(only)
                {
                    targets.push(*only);
                }
                // `s.transport.Start(ctx, info, s.handle)` on a field declared with a Go
                // interface of the code (a type owning no methods): every method of that
                // name that calls a parameter, itself or in a callback it makes, may be
                // the one run (the stdio, HTTP and SSE transports a configuration picks
                // between).
                if named.len() > 1 && interface_field(prog, callee, id) {
                    for m in named {
                        if !targets.contains(&m) && (!called(m).is_empty() || !captured(m).is_empty()) {
                            targets.push(m);
                        }
                    }
                }
            }
            for target in targets {
                // A handler a factory made is taken when a transport receives it: the
                // target reads standard input or answers HTTP (or this call sits in one
                // that does). Not a socket's callback, whose peer may be a bridge.
                let receives = transport(target) || transport(id);
                for &i in called(target).iter() {
                    let name = |a: &Expr| {
                        if receives { named_or_made(prog, a, id) } else { named_function(prog, a, id) }
                    };
                    match args.get(i).map(name) {
                        Some(Some(h)) if h != target && !out.contains(&(target, i, h, id)) => {
                            out.push((target, i, h, id))
                        }
                        Some(None) if !unnamed.contains(&(target, id)) => unnamed.push((target, id)),
                        _ => {}
                    }
                }
                // A callback the target makes and hands to a library (`rl.on("line",
                // async (line) => { await handler(..) })`) calls the parameter it
                // captures: what this call hands there.
                for &(c, i) in captured(target).iter() {
                    if let Some(Some(h)) = args.get(i).map(|a| named_or_made(prog, a, id))
                        && h != c
                        && let Some(name) = prog.function(target).params.get(i)
                        && !caps.iter().any(|(k, n, f, by)| *k == c && n == name && *f == h && *by == id)
                    {
                        caps.push((c, name.clone(), h, id));
                    }
                }
            }
        });
        (out, unnamed, caps)
    });
    let (mut out, mut unnamed, mut caps) = (Vec::new(), Vec::new(), Vec::new());
    for (o, u, c) in found {
        out.extend(o);
        unnamed.extend(u);
        caps.extend(c);
    }
    (out, unnamed, caps)
}

/// Library functions and methods (of arrays, iterators, promises, options) that call
/// the function handed to them, across the languages.
const INVOKES_ARGUMENT: &[&str] = &[
    "map",
    "flatMap",
    "flat_map",
    "filter_map",
    "forEach",
    "for_each",
    "then",
    "and_then",
    "array_map",
    "array_walk",
    "call_user_func",
    "call_user_func_array",
];

/// `f` of every function, in order (see [`crate::program::per_item`]).
fn per_function<T: Send>(n: usize, f: impl Fn(FnId) -> T + Sync) -> Vec<T> {
    let ids: Vec<FnId> = (0..n).collect();
    crate::program::per_item(&ids, |&id| f(id))
}

fn call_graph(
    prog: &Program,
    handed: &[(FnId, usize, FnId, FnId)],
    captured: &[(FnId, String, FnId, FnId)],
) -> (Vec<Vec<FnId>>, Vec<Vec<FnId>>) {
    let n = prog.functions.len();
    let (mut calls, refs): (Vec<Vec<FnId>>, Vec<Vec<FnId>>) = per_function(n, |id| {
        let (mut calls, mut refs) = (Vec::new(), Vec::new());
        let f = prog.function(id);
        // A function both referred to (`filter_map(handle)`) and called (`handle(x)`)
        // is a callee: each list keeps its own targets.
        let add = |target: Option<FnId>, out: &mut Vec<FnId>| {
            if let Some(t) = target
                && t != id
                && !out.contains(&t)
            {
                out.push(t);
            }
        };
        let (c, r) = (&mut calls, &mut refs);
        walk_block(&f.body, &mut |e| match e {
            // `(function)(args)`: a callback invoked where it is handed over.
            Expr::Call { callee, receiver: Some(target), .. } if callee == "()" => {
                match target.as_ref() {
                    Expr::FnRef(name) => add(prog.resolve(name, id), c),
                    // `run_in_threadpool(dispatch, msg)`: a function named by a variable.
                    var @ Expr::Var(_) => add(named_function(prog, var, id), c),
                    _ => {}
                }
            }
            Expr::Call { callee, args, .. } => {
                // A parameter, of this function or of one around it that a closure
                // captures, shadows the functions of its name elsewhere: it holds what
                // the caller hands (see `handed`), named or not.
                let handed_param = f.params.iter().any(|p| p == callee)
                    || (!callee.contains(['.', ':', '[', '(']) && prog.captured_parameter(callee, id));
                let target = if handed_param { None } else { prog.resolve(callee, id) };
                add(target, c);
                if target.is_none() {
                    add(prog.made_function(callee, id), c);
                    // `handler = self.on_message; handler(m)`: the function a local holds.
                    // In a transport (a loop reading stdin, an HTTP handler), also what a
                    // factory made it (`handle := newSession()`, then `handle(req)`).
                    if !callee.contains(['.', ':', '[', '(']) && prog.holds_value(id, callee) {
                        let transport = f.reads_stdin || f.http_signature || f.http_route;
                        add(local_function(prog, callee, id, transport), c);
                    }
                    // `self.on_message(m)` on a field a setter filled with a function.
                    if let Some(field) = crate::model::own_field(callee) {
                        add(prog.stored_callback(id, field), c);
                    }
                }
                // `messages.map(handle)`, `map(handle, items)`, `.for_each(Self::handle)`:
                // a library's higher-order function calls the function it is handed.
                if target.is_none() && INVOKES_ARGUMENT.contains(&crate::lower::last_segment(callee)) {
                    for a in args {
                        add(named_function(prog, a, id), c);
                    }
                }
                // The methods of the handler classes a search stands for.
                for class in strategy_classes(prog, e, id) {
                    for m in prog.own_method_ids(class, id) {
                        add(Some(m), c);
                    }
                }
            }
            // The methods of the handler classes a loop stands for.
            Expr::ForEach { .. } => {
                for class in strategy_classes(prog, e, id) {
                    for m in prog.own_method_ids(class, id) {
                        add(Some(m), c);
                    }
                }
            }
            Expr::FnRef(name) => add(prog.resolve(name, id), r),
            Expr::Var(name) => {
                if let Some(global) = prog.global(name, id) {
                    global.walk(&mut |g| {
                        if let Expr::Var(v) = g {
                            add(prog.resolve(v, id), r);
                        }
                    });
                } else if (!name.contains('.') || name.starts_with("self.")) && !prog.holds_value(id, name) {
                    // A parameter or variable of the function is its value, not a
                    // function of the same name elsewhere (`handle_request(request)`).
                    add(prog.resolve(name, id), r);
                }
            }
            Expr::Lookup { collection, key } if matches!(collection.as_ref(), Expr::Var(t) if prog.reads_registry(t, key, id)) => {
                for m in prog.registered_methods(id) {
                    add(prog.registered_function(m, id), r);
                }
            }
            _ => {}
        });
        (calls, refs)
    })
    .into_iter()
    .unzip();
    let links = handed.iter().map(|&(t, _, h, _)| (t, h)).chain(captured.iter().map(|&(c, _, h, _)| (c, h)));
    for (target, h) in links {
        if !calls[target].contains(&h) {
            calls[target].push(h);
        }
    }
    (calls, refs)
}

/// The group a dispatcher of group `g` now belongs to (groups move when merged; an
/// emptied group's members point to where they went).
fn resolve_group(group_of: &HashMap<FnId, usize>, groups: &[Vec<FnId>], g: usize) -> usize {
    match groups[g].first() {
        Some(d) => group_of.get(d).copied().unwrap_or(g),
        None => g,
    }
}

/// Up from a server's dispatchers through their callers. A function that calls the
/// callbacks it is handed (a gate in front of several services, a transport's run
/// loop), reached from one of those callbacks, leads up only to the callers that
/// handed it that one (or hand it nothing): a middleware shared by two services does
/// not make one service's routes the other's entries.
fn reach_up(
    start: &[FnId],
    callers: &[Vec<FnId>],
    takers: &HashMap<FnId, Vec<(Option<FnId>, FnId)>>,
) -> HashSet<FnId> {
    let mut seen: HashSet<FnId> = start.iter().copied().collect();
    // Each function with the callback it was reached through, if it takes one.
    let mut expanded: HashSet<(FnId, Option<FnId>)> = HashSet::new();
    let mut queue: VecDeque<(FnId, Option<FnId>)> = start.iter().map(|&f| (f, None)).collect();
    while let Some((f, via)) = queue.pop_front() {
        if !expanded.insert((f, via)) {
            continue;
        }
        let takes = takers.get(&f).map(Vec::as_slice).unwrap_or(&[]);
        for &c in &callers[f] {
            if let Some(h) = via {
                let mut hands = takes.iter().filter(|&&(_, by)| by == c).peekable();
                if hands.peek().is_some() && !hands.any(|&(handed, _)| handed == Some(h)) {
                    continue;
                }
            }
            let takes_f = takers.get(&c).is_some_and(|t| t.iter().any(|&(handed, _)| handed == Some(f)));
            seen.insert(c);
            queue.push_back((c, takes_f.then_some(f)));
        }
    }
    seen
}

fn reach(start: &[FnId], edges: &[Vec<FnId>]) -> HashSet<FnId> {
    let mut seen: HashSet<FnId> = start.iter().copied().collect();
    let mut queue: VecDeque<FnId> = start.iter().copied().collect();
    while let Some(f) = queue.pop_front() {
        for &t in &edges[f] {
            if seen.insert(t) {
                queue.push_back(t);
            }
        }
    }
    seen
}

pub fn servers(prog: &Program) -> Vec<Server> {
    let n = prog.functions.len();
    // A function handed to a router in the same language, in a related folder.
    // A handler is named by itself or, a method, with its class (`McpView.post`).
    // The routers' handler names by their last segment: each function looks only at
    // the names that can be its own.
    let mut handlers: HashMap<&str, Vec<(&FileFacts, &String)>> = HashMap::new();
    // Handlers a factory makes (`app.post("/mcp", createHandler())`): the functions the
    // factory of that name returns, in a file the mounting one reaches, as mounted there.
    let made: Vec<(&FileFacts, String)> = prog
        .files()
        .flat_map(|file| {
            file.http_handlers
                .iter()
                .filter_map(move |h| Some((file, h.strip_prefix(crate::lower::MADE_BY)?)))
        })
        .flat_map(|(file, factory)| {
            prog.named(factory)
                .iter()
                .copied()
                .filter(|&id| prog.function(id).owner.is_none())
                .filter(|&id| {
                    prog.related(file, prog.file_of(id)) || prog.imports(file, &prog.file_of(id).path)
                })
                .flat_map(|id| {
                    crate::model::returned_functions(&prog.function(id).body)
                        .into_iter()
                        .map(move |name| (prog.file_of(id), name.to_string()))
                })
                .collect::<Vec<_>>()
        })
        .collect();
    for file in prog.files() {
        for h in &file.http_handlers {
            handlers.entry(crate::lower::last_segment(h)).or_default().push((file, h));
        }
    }
    for (file, name) in &made {
        handlers.entry(name.as_str()).or_default().push((file, name));
    }
    let mounted = |id: FnId| {
        let f = prog.function(id);
        if f.http_route {
            return true;
        }
        // A bare name mounts a Rust function, never a method (`post(handle)` cannot name
        // `Dispatcher::handle`); `Self.handle` a method of the mounting impl's type.
        let rust_method = f.owner.is_some() && prog.file_of(id).language == Language::Rust;
        let named = |h: &String| {
            (*h == f.name && !rust_method)
                || f.owner.as_deref().is_some_and(|o| {
                    let rest = h.strip_prefix(o).or_else(|| h.strip_prefix("Self").filter(|_| rust_method));
                    rest.and_then(|rest| rest.strip_prefix('.')) == Some(f.name.as_str())
                })
        };
        let home = prog.file_of(id);
        // Of two functions the mounted name can be (Go's method value `e.Handle`, taken
        // by its last name, beside a dispatcher's `Handle(msg)`), the one with a
        // handler's signature, or mounted by a decorator, is the handler.
        if !f.http_signature
            && prog.named(&f.name).iter().any(|&o| {
                let other = prog.function(o);
                o != id && (other.http_signature || other.http_route) && prog.related(prog.file_of(o), home)
            })
        {
            return false;
        }
        // `router.post("/", controller.handle)` with `controller` a module the router's
        // file imports: the module's function.
        let imported = |file: &FileFacts, h: &String| {
            f.owner.is_none() && h.contains('.') && prog.imports(file, &home.path)
        };
        // `app.post("/mcp", this.handle)` in a class's own code: its method.
        let own_method = |file: &FileFacts, h: &String| {
            f.owner.is_some()
                && file.path == home.path
                && ["this.", "self."].iter().any(|p| h.strip_prefix(p) == Some(f.name.as_str()))
        };
        handlers.get(f.name.as_str()).is_some_and(|named_here| {
            // A function the mounting file imports by name is mounted wherever it sits
            // (`exports.handler = netlifyHandler` with `netlifyHandler` required).
            named_here.iter().any(|(file, h)| {
                (named(h) && (prog.related(file, home) || prog.imports(file, &home.path)))
                    || (imported(file, h) && prog.related(file, home))
                    || own_method(file, h)
            })
        })
    };
    // A handler by its signature alone counts too, unless another carrier calls it
    // (then it is that handler's helper; see `outermost` below).
    // A function taking a connection, in a file that writes HTTP answers by hand, is
    // a server on a bare socket: where its requests arrive.
    let is_route = |id: FnId| {
        let f = prog.function(id);
        f.http_signature || (f.http_connection && prog.file_of(id).writes_http) || mounted(id)
    };
    let (handed, unnamed, captured_handed) = callbacks(prog, &is_route);
    let (mut calls, mut refs) = call_graph(prog, &handed, &captured_handed);
    // A vendored SDK's code was written without the repository's: a call there that
    // resolves by name into the repository's own code (`$handler->handle(..)` meeting
    // the plugin's `handle`) is a guess, not a caller, and puts the SDK above no server.
    let vendored = |id: FnId| prog.file_of(id).sdk_library.is_some();
    for from in (0..n).filter(|&f| vendored(f)) {
        calls[from].retain(|&t| vendored(t));
        refs[from].retain(|&t| vendored(t));
    }
    // Down from a dispatcher: what it calls and what it refers to. Up: only real calls,
    // so a function that merely mounts a route handler is not a caller of it.
    let edges: Vec<Vec<FnId>> =
        calls.iter().zip(&refs).map(|(c, r)| c.iter().chain(r).copied().collect()).collect();
    let mut callers = vec![Vec::new(); n];
    for (from, tos) in calls.iter().enumerate() {
        for &t in tos {
            callers[t].push(from);
        }
    }

    let dispatchers = per_function(n, |id| {
        let callees = &edges[id];
        let (names, span) = dispatched_methods(prog, id);
        // One method name is enough when the function, or one it calls, builds the JSON-RPC reply.
        let replies_near = builds_reply(prog, id) || callees.iter().any(|&c| builds_reply(prog, c));
        // A vendored SDK's own dispatch is the SDK's business.
        if prog.file_of(id).sdk_library.is_some() {
            return None;
        }
        // A middleware hands what it does not answer itself to the next handler: a
        // layer in front of a server, not one.
        if passes_on(prog, id) {
            return None;
        }
        // A loop waiting for the response to a request it sent (it reads the `result`
        // or `error` of what arrives) that answers one method on the way (a child
        // server's `ping`) is a client's, not a dispatch.
        if names.len() == 1 && reads_response(prog, id) {
            return None;
        }
        (names.len() >= 2 || (names.len() == 1 && replies_near)).then(|| (names, span.unwrap_or_default()))
    });
    let dispatch: HashMap<FnId, (BTreeSet<String>, Span)> =
        dispatchers.into_iter().enumerate().filter_map(|(id, d)| Some((id, d?))).collect();
    // Dispatchers connected by calls are one server: union by reachability.
    let mut ids: Vec<FnId> = dispatch.keys().copied().collect();
    ids.sort();
    let mut group_of: HashMap<FnId, usize> = HashMap::new();
    let mut groups: Vec<Vec<FnId>> = Vec::new();
    let down_of: HashMap<FnId, HashSet<FnId>> = ids.iter().map(|&d| (d, reach(&[d], &edges))).collect();
    for &d in &ids {
        let down = &down_of[&d];
        let up = reach(&[d], &callers);
        // The groups of the dispatchers this one calls or is called by (walking the
        // two reach sets, not every dispatcher: that was quadratic in servers).
        let joined: BTreeSet<usize> = down
            .iter()
            .chain(up.iter())
            .filter(|o| **o != d)
            .filter_map(|o| group_of.get(o).copied())
            .collect();
        match joined.iter().next() {
            Some(&g) => {
                groups[g].push(d);
                group_of.insert(d, g);
                for &other in joined.iter().skip(1) {
                    let moved = std::mem::take(&mut groups[other]);
                    for m in &moved {
                        group_of.insert(*m, g);
                    }
                    groups[g].extend(moved);
                }
            }
            None => {
                group_of.insert(d, groups.len());
                groups.push(vec![d]);
            }
        }
    }
    // Sibling dispatchers: a function that calls two (requests to one, notifications to
    // the other) routes between them, so they are one server, entered above both.
    for callees in &calls {
        let joined: BTreeSet<usize> = callees.iter().filter_map(|c| group_of.get(c).copied()).collect();
        let mut it = joined.into_iter();
        let Some(g) = it.next() else { continue };
        let g = resolve_group(&group_of, &groups, g);
        for other in it {
            let other = resolve_group(&group_of, &groups, other);
            if other == g {
                continue;
            }
            let moved = std::mem::take(&mut groups[other]);
            for m in &moved {
                group_of.insert(*m, g);
            }
            groups[g].extend(moved);
        }
    }
    // A gate that tests one method name (`initialize` spared a session or version
    // check: `if any(m.get("method") == "initialize" for m in messages): return True`)
    // called by a transport that goes on to reach one other server's dispatch is part
    // of that server, not a server of its own.
    for (f, callees) in calls.iter().enumerate() {
        let gates: Vec<FnId> = callees
            .iter()
            .copied()
            .filter(|c| dispatch.get(c).is_some_and(|(names, _)| names.len() == 1))
            .collect();
        if gates.is_empty() {
            continue;
        }
        let gate_groups: BTreeSet<usize> = gates
            .iter()
            .filter_map(|g| group_of.get(g))
            .map(|&g| resolve_group(&group_of, &groups, g))
            .collect();
        let rest: Vec<FnId> = callees.iter().copied().filter(|c| !gates.contains(c) && *c != f).collect();
        let below: BTreeSet<usize> = reach(&rest, &edges)
            .into_iter()
            .filter_map(|d| group_of.get(&d))
            .map(|&g| resolve_group(&group_of, &groups, g))
            .filter(|g| !gate_groups.contains(g))
            .collect();
        let [target] = below.into_iter().collect::<Vec<_>>()[..] else { continue };
        for g in gate_groups {
            // Only a group made of such gates alone moves.
            if groups[g].iter().any(|d| dispatch[d].0.len() != 1) {
                continue;
            }
            let moved = std::mem::take(&mut groups[g]);
            for m in &moved {
                group_of.insert(*m, target);
            }
            groups[target].extend(moved);
        }
    }
    groups.retain(|g| !g.is_empty());
    // A dispatch of some methods only (`tools/list`, `tools/call` on a route of their
    // own), in a file that also carries a server taking the lifecycle (`initialize`)
    // to its dispatch (the app mounting both routes), is an auxiliary endpoint of that
    // server, not an MCP server whose handshake could be judged. (A script of its own
    // that dispatches tools alone is still judged.)
    let lifecycle = |g: &Vec<FnId>| {
        g.iter().any(|d| {
            dispatch[d]
                .0
                .iter()
                .any(|m| matches!(m.as_str(), "initialize" | "ping" | "notifications/initialized"))
        })
    };
    let lifecycle_files: HashSet<u32> = groups
        .iter()
        .filter(|g| g.iter().any(|d| dispatch[d].0.contains("initialize")))
        .flat_map(|g| reach(g, &callers))
        .map(|f| prog.function(f).span.file)
        .collect();
    groups.retain(|g| {
        lifecycle(g) || !g.iter().any(|&d| lifecycle_files.contains(&prog.function(d).span.file))
    });

    let mut takers: HashMap<FnId, Vec<(Option<FnId>, FnId)>> = HashMap::new();
    let links = handed.iter().map(|&(t, _, h, by)| (t, h, by));
    for (t, h, by) in links.chain(captured_handed.iter().map(|&(c, _, h, by)| (c, h, by))) {
        takers.entry(t).or_default().push((Some(h), by));
    }
    for &(t, by) in &unnamed {
        takers.entry(t).or_default().push((None, by));
    }
    let ancestors: Vec<HashSet<FnId>> = groups.iter().map(|g| reach_up(g, &callers, &takers)).collect();
    // For each function, the servers (groups) it leads to.
    let mut reaches_map: HashMap<FnId, Vec<usize>> = HashMap::new();
    for (g, anc) in ancestors.iter().enumerate() {
        for &f in anc {
            reaches_map.entry(f).or_default().push(g);
        }
    }
    let reaches = |f: FnId| -> &[usize] { reaches_map.get(&f).map(Vec::as_slice).unwrap_or(&[]) };

    // Test code calls the dispatcher too, but it is not how messages arrive.
    let is_test = |f: FnId| prog.function(f).name.starts_with("test_");
    // Each group's servers are found apart from the others': on the worker threads.
    let group_ids: Vec<usize> = (0..groups.len()).collect();
    let mut out: Vec<Server> = crate::program::per_item(&group_ids, |&gi| {
        let group = &groups[gi];
        let mut out = Vec::new();
        let only_this = |f: FnId| reaches(f) == [gi];
        let near = |f: FnId| group.iter().any(|&d| prog.nested(prog.file_of(f), prog.file_of(d)));
        let mut entries: Vec<FnId> = ancestors[gi]
            .iter()
            .copied()
            // Entries sit in the server's own folder tree: a `main` in another package that
            // imports it configures and starts the server, it does not carry messages.
            .filter(|&a| only_this(a) && !is_test(a))
            .filter(|&a| near(a))
            .filter(|&a| mounted(a) || callers[a].iter().all(|&c| !only_this(c) || !near(c)))
            .collect();
        // Where messages arrive: a function that reads standard input or answers HTTP.
        // A `main` above it configures and starts the server; it carries no message.
        // A carrier elsewhere that imports the server's files (an example app's
        // route, a CLI's stdin loop) brings it messages too.
        // A command importing the module's or package's code reaches the dispatch through it.
        let linked = |f: FnId| {
            group.iter().any(|&d| {
                prog.related(prog.file_of(f), prog.file_of(d))
                    || prog.imports_package_of(prog.file_of(f), &prog.file_of(d).path)
            })
        };
        let reads_itself = |a: FnId| is_route(a) || prog.function(a).reads_stdin;
        let carriers: Vec<FnId> = ancestors[gi]
            .iter()
            .copied()
            // An HTTP route reaching the dispatch carries messages wherever it sits (a
            // router module handed the server object by the app that mounts it).
            .filter(|&a| only_this(a) && !is_test(a) && (near(a) || linked(a) || is_route(a)))
            // A loop that reads through a helper of its own (`request = self._read()`)
            // reads too; a function calling a carrier above the dispatch does not. Nor
            // does one that reaches the dispatch only through a carrier of its own below
            // it (a CLI's `main` whose `observe` command reads its input and whose `mcp`
            // command starts the server's loop): that reader is another command's.
            .filter(|&a| {
                reads_itself(a)
                    || (calls[a].iter().any(|&c| prog.function(c).reads_stdin && !ancestors[gi].contains(&c))
                        && !reach(&[a], &edges)
                            .iter()
                            .any(|&d| d != a && ancestors[gi].contains(&d) && reads_itself(d)))
            })
            .collect();
        // A carrier the dispatch itself calls (a handler typed as an HTTP answer, reached
        // back through a call the scan could not pin down) is below the server, not its
        // entry, when a carrier above or at the dispatch exists.
        let called = |a: &FnId| group.iter().any(|&d| calls[d].contains(a));
        let above: Vec<FnId> = carriers.iter().copied().filter(|a| group.contains(a) || !called(a)).collect();
        let carriers = if above.is_empty() || above.len() == carriers.len() { carriers } else { above };
        let outermost: Vec<FnId> = carriers
            .iter()
            .copied()
            .filter(|&a| mounted(a) || callers[a].iter().all(|c| !carriers.contains(c)))
            .collect();
        if std::env::var_os("MCP_CONFORM_DEBUG").is_some_and(|v| !v.is_empty()) {
            let names = |ids: &[FnId]| -> Vec<String> {
                ids.iter().map(|&i| format!("{}@{}", prog.function(i).name, prog.file_of(i).path)).collect()
            };
            let ancestors: Vec<FnId> = ancestors[gi].iter().copied().collect();
            eprintln!(
                "group {:?}\n  ancestors {:?}\n  carriers {:?}\n  entries {:?}",
                names(group),
                names(&ancestors),
                names(&carriers),
                names(&entries)
            );
        }
        if !outermost.is_empty() {
            entries = outermost;
        }
        // A script that hands the dispatcher a message it writes itself (an example
        // sending `{jsonrpc, method: "resources/read"}` and printing the answer), and
        // reads no input anywhere below it, is not where messages arrive.
        let sends_own =
            |a: FnId| builds_request(prog, a) && !reach(&[a], &edges).iter().any(|&d| reads_itself(d));
        if entries.iter().any(|&a| !sends_own(a)) {
            entries.retain(|&a| !sends_own(a));
        }
        if entries.is_empty() {
            entries = group.clone();
        }
        entries.sort();
        // The dispatcher the server is located at: one no other calls; of several, not
        // a one-name gate beside the dispatch (an `initialize` exemption), then the first.
        let top = group
            .iter()
            .copied()
            .filter(|d| !group.iter().any(|o| o != d && down_of[o].contains(d)))
            .min_by_key(|d| (dispatch[d].0.len() == 1, *d))
            .unwrap_or(group[0]);
        let mut members: Vec<FnId> = reach(group, &edges).into_iter().collect();
        members.extend(ancestors[gi].iter().copied());
        // An MCP client switching on the method of what it sends (building requests,
        // never a reply) is not a server. Code above the entries (a script that starts
        // the server, an example sending it requests) is not the server's own.
        let below_entries = reach(&entries, &edges);
        let own: Vec<FnId> = members.iter().copied().filter(|m| below_entries.contains(m)).collect();
        // (A reply built beside the dispatch counts too, by a helper the code above it
        // calls: a server whose tool handlers send progress notifications, its replies
        // built by the message loop's own helper.)
        let beside = ancestors[gi]
            .iter()
            .filter(|a| below_entries.contains(a))
            .flat_map(|&a| calls[a].iter().copied())
            .filter(|c| below_entries.contains(c));
        if !own.iter().copied().chain(beside).any(|m| builds_reply(prog, m))
            && own.iter().any(|&m| builds_request(prog, m))
        {
            return out;
        }
        // A vendored SDK's code that the server calls is the SDK's, as an installed
        // one's would be: not among the server's files.
        let own_file = |f: &u32| prog.file_by_index(*f).is_some_and(|file| file.sdk_library.is_none());
        let files: BTreeSet<u32> =
            members.iter().map(|&m| prog.function(m).span.file).filter(own_file).collect();
        let mut methods = BTreeSet::new();
        for d in group {
            methods.extend(dispatch[d].0.iter().cloned());
        }
        // A language server's `initialize`/`initialized`, a debug adapter's or another
        // JSON-RPC protocol's dispatch is not an MCP server.
        let evidence = Evidence {
            methods: methods.iter().filter(|m| MCP_SPECIFIC_METHODS.contains(&m.as_str())).cloned().collect(),
            protocol_version: protocol_version_object(prog, &members),
            beside: Vec::new(),
            other_protocol: builds_acp_initialize(prog, &members),
        };
        let entries: Vec<Entry> = entries
            .into_iter()
            .map(|e| Entry {
                function: e,
                http: is_route(e),
                transport: is_route(e) || reach(&[e], &edges).iter().any(|&f| prog.function(f).reads_stdin),
                callbacks: handed
                    .iter()
                    .filter(|(t, _, h, _)| *t == e && members.contains(h))
                    .map(|&(_, i, h, _)| (i, h))
                    .collect(),
                captured: captured_handed
                    .iter()
                    .filter(|(c, _, h, _)| *c == e && members.contains(h))
                    .map(|(_, name, h, _)| (name.clone(), *h))
                    .collect(),
            })
            .collect();
        let mut transports = Vec::new();
        let entry_reads =
            |e: &Entry| reach(&[e.function], &edges).iter().any(|&f| prog.function(f).reads_stdin);
        if members.iter().any(|&m| prog.function(m).reads_stdin) || entries.iter().any(entry_reads) {
            transports.push(Transport::Stdio);
        }
        if entries.iter().any(|e| e.http) {
            transports.push(Transport::Http);
        }
        let sdk = files
            .iter()
            .filter_map(|f| prog.file_by_index(*f))
            .flat_map(|f| f.sdk_imports.iter())
            .map(|i| i.sdk.clone())
            .next();
        let mut dispatchers = group.clone();
        dispatchers.sort();
        let server = Server {
            language: prog.file_of(top).language,
            span: dispatch[&top].1,
            dispatch: Some(dispatch[&top].1),
            dispatchers,
            entries,
            files,
            sdk,
            hand_written: true,
            transports,
            methods,
            evidence,
            lead_in: std::sync::Arc::new(ancestors[gi].iter().copied().collect()),
        };
        // One dispatch behind a stdio loop and an HTTP handler is two servers to a
        // client: each transport is judged on its own, located at its entry.
        let (http, other): (Vec<Entry>, Vec<Entry>) = server.entries.iter().cloned().partition(|e| e.http);
        let reads_stdin =
            |e: &Entry| reach(&[e.function], &edges).iter().any(|&f| prog.function(f).reads_stdin);
        let stdio: Vec<Entry> = other.into_iter().filter(reads_stdin).collect();
        if http.is_empty() || stdio.is_empty() {
            out.push(server);
            return out;
        }
        for (entries, transport) in [(stdio, Transport::Stdio), (http, Transport::Http)] {
            let starts: Vec<FnId> = entries.iter().map(|e| e.function).collect();
            let mut files: BTreeSet<u32> =
                reach(&starts, &edges).iter().map(|&m| prog.function(m).span.file).filter(own_file).collect();
            files.extend(server.dispatchers.iter().map(|&d| prog.function(d).span.file));
            let transports = server.transports.iter().copied().filter(|t| *t == transport).collect();
            out.push(Server {
                span: prog.function(starts[0]).span,
                entries,
                files,
                transports,
                ..server.clone()
            });
        }
        out
    })
    .into_iter()
    .flatten()
    .collect();
    // A dispatch without MCP vocabulary counts only beside an MCP server in the same
    // folder tree (its notification handler, its lifecycle half); alone it is some
    // other JSON-RPC program.
    let speaking: Vec<(Span, BTreeSet<u32>, Language)> = out
        .iter()
        .filter(|s| s.evidence.speaks_mcp())
        .map(|s| (s.span, s.files.clone(), s.language))
        .collect();
    let related = |a: &BTreeSet<u32>, b: &BTreeSet<u32>| {
        a.iter().any(|x| {
            b.iter().any(|y| match (prog.file_by_index(*x), prog.file_by_index(*y)) {
                (Some(fx), Some(fy)) => prog.nested(fx, fy),
                _ => false,
            })
        })
    };
    for server in out.iter_mut().filter(|s| !s.evidence.speaks_mcp()) {
        server.evidence.beside = speaking
            .iter()
            .filter(|(_, files, _)| related(files, &server.files))
            .map(|(span, _, _)| *span)
            .collect();
    }
    // A dispatch on task methods alone is the Agent2Agent protocol's (`tasks/get`
    // beside `message/send`), even next to an MCP server.
    let tasks_only = |s: &Server| {
        !s.methods.is_empty() && s.methods.iter().all(|m| m.starts_with(crate::model::SHARED_TASKS_PREFIX))
    };
    out.retain(|s| {
        s.evidence.speaks_mcp()
            || (!s.evidence.beside.is_empty() && !tasks_only(s) && !s.evidence.other_protocol)
    });
    // A route that takes `tools/call` alone and refuses every other method itself (its
    // dispatch writes "method not found", a legacy `POST /mcp/call` kept beside the MCP
    // endpoint) is a side door of the server whose endpoint handles `initialize` in the
    // same files, not a server of its own: its refusal of the handshake says nothing
    // about the server. A route that only checks for `tools/call` before handing every
    // message on (a permission check in front of the dispatch) is that server's
    // transport, and stays.
    let lifecycle: Vec<BTreeSet<u32>> =
        out.iter().filter(|s| s.methods.contains("initialize")).map(|s| s.files.clone()).collect();
    let refuses_others = |s: &Server| {
        s.dispatchers.iter().any(|&d| {
            let mut found = false;
            walk_block(&prog.function(d).body, &mut |e| found |= matches!(e, Expr::Int(METHOD_NOT_FOUND)));
            found
        })
    };
    out.retain(|s| {
        let tool_calls_only = s.methods.len() == 1 && s.methods.contains("tools/call");
        !(tool_calls_only && refuses_others(s) && lifecycle.iter().any(|files| !files.is_disjoint(&s.files)))
    });
    let claimed_files: HashSet<u32> = out.iter().flat_map(|s| s.files.iter().copied()).collect();
    for file in prog.files() {
        // The SDK's own vendored code is not a server of the repository's.
        if file.sdk_library.is_some() {
            continue;
        }
        let (Some(import), Some(start)) = (file.sdk_imports.first(), file.sdk_server) else {
            continue;
        };
        let index = import.span.file;
        if claimed_files.contains(&index) {
            continue;
        }
        out.push(Server {
            language: file.language,
            span: start,
            dispatch: None,
            dispatchers: Vec::new(),
            entries: Vec::new(),
            files: BTreeSet::from([index]),
            sdk: Some(import.sdk.clone()),
            hand_written: false,
            transports: Vec::new(),
            methods: BTreeSet::new(),
            evidence: Evidence::default(),
            lead_in: std::sync::Arc::default(),
        });
    }
    out.sort_by_key(|s| (s.span.file, s.span.start));
    out
}
