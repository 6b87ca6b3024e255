//! Expressions: values, comparisons, lookups and calls on one path.

use super::{Interp, MAX_PATHS, SINKS, State, Status};
use crate::model::HTTP_VERBS;
use crate::model::{Expr, FieldName, FnId, ReplyExpr, Span};
use crate::value::{Effect, HttpStatus, HttpValue, Reply, Value, error_code, join};
use std::collections::BTreeMap;
use std::rc::Rc;

/// The name a method's instance is bound to (see [`Interp::apply_with`]).
const SELF: &str = "self";

impl<'p, 'a> Interp<'p, 'a> {
    /// Evaluates an expression on one path; control flow inside it may fork the path.
    pub(super) fn eval(&mut self, st: State, e: &Expr) -> Vec<(State, Value)> {
        if self.out_of_budget() {
            return vec![(st, Value::unknown())];
        }
        match e {
            Expr::Null => vec![(st, Value::Null)],
            Expr::Bool(b) => vec![(st, Value::Bool(*b))],
            Expr::Int(n) => vec![(st, Value::Int(*n))],
            Expr::Str(s) => vec![(st, Value::Str(s.clone()))],
            Expr::Field { object: None, name } => {
                let v = checked_version(&st, self.field(*name));
                vec![(st, v)]
            }
            // `s.protocolVersion` of a Go receiver its factory builds with that member
            // (`&Server{protocolVersion: "2025-03-26"}`): the factory's value, not the
            // message's member of that name.
            Expr::Field { object: Some(object), name }
                if matches!(object.as_ref(), Expr::Var(v) if v == "self")
                    && !matches!(st.env.get("self"), Some(Value::Message | Value::Instance(..)))
                    && self.prog.file_of(self.here()).language == crate::model::Language::Go
                    && let Some(v) = crate::lower::field_spellings(*name)
                        .iter()
                        .find_map(|spelling| self.factory_member(spelling)) =>
            {
                vec![(st, v)]
            }
            Expr::Field { object: Some(object), name } => self
                .eval(st, object)
                .into_iter()
                .map(|(s, o)| {
                    // A protocol version read by name off the module's state (a
                    // configuration object: `cfg.mcp.protocol_version`, `cfg` neither a
                    // parameter nor a local of the function) whose value holds nothing of
                    // the message is not the client's. (Go and Rust decode the message
                    // into typed values the scan does not follow, so there such a value
                    // may still be it.)
                    if matches!(name, FieldName::ProtocolVersion)
                        && matches!(&o, Value::Unknown(parts) if parts.is_empty())
                        && matches!(object.as_ref(), Expr::Var(v) if v.split_once('.').is_some_and(|(base, _)| {
                            !matches!(base, "self" | "this") && !self.prog.holds_value(self.here(), base)
                        }))
                        && matches!(
                            self.prog.file_of(self.here()).language,
                            crate::model::Language::Python
                                | crate::model::Language::JavaScript
                                | crate::model::Language::TypeScript
                        )
                    {
                        return (s, Value::unknown());
                    }
                    let v = checked_version(&s, self.field_of(&o, *name));
                    // The method or id kept in an object built from the message (a request
                    // class filled by a parser) is the message's: deciding on it looks at it.
                    self.note_touch(&v);
                    (s, v)
                })
                .collect(),
            Expr::Var(name) => {
                let v = self.var(&st, name);
                self.note_touch(&v);
                // `event.Request.hasID` on a value the scan could not follow (a message
                // passed through a channel): whether the id is there, unknown here.
                if matches!(v, Value::Unknown(_))
                    && name
                        .rsplit_once('.')
                        .is_some_and(|(_, member)| crate::lower::names_id_presence(member))
                {
                    self.touched_blind = true;
                }
                vec![(st, v)]
            }
            Expr::FnRef(name) => {
                let id = self.prog.resolve(name, self.here());
                if let Some(id) = id {
                    self.note_closure_made(&st, id);
                }
                vec![(st, id.map(Value::Func).unwrap_or_else(Value::unknown))]
            }
            Expr::Object { entries, span } => {
                let exprs: Vec<&Expr> = entries.iter().map(|(_, v)| v).collect();
                self.eval_all(st, &exprs)
                    .into_iter()
                    .map(|(s, vals)| {
                        // Struct fields go out under their JSON names (serde renames, Go tags).
                        let language = self.prog.file_of(self.here()).language;
                        let rename =
                            matches!(language, crate::model::Language::Rust | crate::model::Language::Go);
                        let named = entries.iter().map(|(k, _)| {
                            // A key written as a constant (`[METHODS.PING]`) is its value.
                            if let Some(key) = self.prog.table_key(k, self.here()) {
                                return key.to_string();
                            }
                            match self.prog.json_name(k, self.here()).filter(|_| rename) {
                                Some(member) => member.to_string(),
                                // `InitializeResult { protocol_version, .. }` of a library's
                                // MCP schema types (no struct here declares the field):
                                // they serialise in the protocol's camelCase.
                                None if language == crate::model::Language::Rust
                                    && k.contains('_')
                                    && !self.prog.declares_field(k) =>
                                {
                                    crate::lower::renamed(k, "camelCase")
                                }
                                None => k.clone(),
                            }
                        });
                        let mut obj: Vec<(String, Value)> = Vec::new();
                        let mut open = false;
                        let mut spread_reply = None;
                        for (k, v) in named.zip(vals.into_iter().map(shallow)) {
                            if k == crate::model::SPREAD {
                                // A spread of a known object writes its members in order;
                                // of anything else, members the scan cannot list.
                                match v {
                                    Value::Object(members) | Value::Instance(_, members, _) => {
                                        for (mk, mv) in members.iter() {
                                            obj.retain(|(ok, _)| ok != mk);
                                            obj.push((mk.clone(), mv.clone()));
                                        }
                                    }
                                    // `{ jsonrpc: "2.0", ...body }` where `body` is `{ id, result }`.
                                    reply @ Value::Reply(_) => spread_reply = Some(reply),
                                    Value::Null => {}
                                    _ => open = true,
                                }
                                continue;
                            }
                            obj.retain(|(ok, _)| *ok != k);
                            obj.push((k, v));
                        }
                        // The members spread from a reply make the object that reply, unless
                        // it writes its own result or error.
                        if let Some(reply) = spread_reply
                            && !obj.iter().any(|(k, _)| k == "result" || k == "error")
                        {
                            return (s, reply);
                        }
                        let value = crate::value::promote(Value::Object(Rc::new(obj)), *span);
                        // An object with members the scan cannot list is not a value it can judge.
                        if open {
                            return (s, Value::Unknown(Rc::new(vec![value])));
                        }
                        (s, value)
                    })
                    .collect()
            }
            Expr::Array { items, .. } => {
                let exprs: Vec<&Expr> = items.iter().collect();
                self.eval_all(st, &exprs)
                    .into_iter()
                    .map(|(s, vals)| (s, Value::Array(Rc::new(vals.into_iter().map(shallow).collect()))))
                    .collect()
            }
            Expr::Reply { kind, id, span } => {
                let (inner, is_error) = match kind {
                    ReplyExpr::Result(x) => (x.as_ref(), false),
                    ReplyExpr::Error(x) => (x.as_ref(), true),
                };
                let null = Expr::Null;
                let id = id.as_deref().unwrap_or(&null);
                self.eval_all(st, &[inner, id])
                    .into_iter()
                    .map(|(s, mut vals)| {
                        let id = vals.pop().unwrap_or(Value::Null);
                        let v = vals.pop().unwrap_or(Value::Null);
                        let (result, error) =
                            if is_error { (None, Some(error_code(&v))) } else { (Some(v), None) };
                        let reply = Reply { id, result, error, span: *span, site: None, pre_dispatch: false };
                        (s, Value::Reply(Rc::new(reply)))
                    })
                    .collect()
            }
            Expr::Http { status, body, span } => match body {
                Some(b) => self
                    .eval(st, b)
                    .into_iter()
                    .map(|(s, v)| {
                        let h =
                            HttpValue { status: HttpStatus::from_code(*status), body: Some(v), span: *span };
                        (s, Value::Http(Rc::new(h)))
                    })
                    .collect(),
                None => {
                    let h = HttpValue { status: HttpStatus::from_code(*status), body: None, span: *span };
                    vec![(st, Value::Http(Rc::new(h)))]
                }
            },
            Expr::HttpWith { status, body, null_is_empty, span } => self
                .eval_all(st, &[status, body])
                .into_iter()
                .map(|(s, vals)| {
                    let status = match &vals[0] {
                        Value::Int(n) => u16::try_from(*n).map_or(HttpStatus::Unknown, HttpStatus::Code),
                        // A status value (`StatusCode::OK` held in a variable).
                        Value::Http(h) if h.body.is_none() => h.status,
                        // A status line's text after the version (`"202 Accepted"`).
                        Value::Str(t) => t
                            .get(..3)
                            .filter(|_| t.len() == 3 || t[3..].starts_with(' '))
                            .and_then(|d| d.parse().ok())
                            .map_or(HttpStatus::Unknown, HttpStatus::Code),
                        _ => HttpStatus::Unknown,
                    };
                    let body = match &vals[1] {
                        Value::Null if *null_is_empty => None,
                        other => Some(other.clone()),
                    };
                    (s, Value::Http(Rc::new(HttpValue { status, body, span: *span })))
                })
                .collect(),
            Expr::Call { callee, receiver, args, span } => {
                self.eval_call(st, callee, receiver.as_deref(), args, *span)
            }
            Expr::Eq { left, right, negated } => {
                let negated = *negated;
                let before = self.touched_method;
                let mut verb = false;
                let mut out = Vec::new();
                for (s, vals) in self.eval_all(st, &[left, right]) {
                    let (l, r) = (&vals[0], &vals[1]);
                    if is_php_sapi(l) || is_php_sapi(r) {
                        out.extend(command_line_test(s, l, r, negated));
                        continue;
                    }
                    verb |= is_verb_test(l, r);
                    let v = self.equals(l, r);
                    if !matches!(v, Value::Bool(_)) && names_method_blindly(l, r) {
                        self.touched_blind = true;
                    }
                    out.push((
                        s,
                        match (v, negated) {
                            (Value::Bool(b), true) => Value::Bool(!b),
                            (v, _) => v,
                        },
                    ));
                }
                // `req.method !== "POST"` tests the HTTP verb: no decision on the message.
                if verb {
                    self.touched_method = before;
                }
                out
            }
            Expr::Compare { op, left, right } => {
                let op = *op;
                self.eval_pair(st, left, right, move |_, l, r| match (l, r) {
                    (Value::Int(a), Value::Int(b)) => Value::Bool(op.holds(*a, *b)),
                    _ => Value::unknown(),
                })
            }
            Expr::IsA { value, class } => self
                .eval(st, value)
                .into_iter()
                .map(|(s, v)| {
                    let is = match &v {
                        Value::Instance(..) if class == crate::lower::STRICT_NULL => Some(false),
                        Value::Instance(own, ..) => self.instance_of(own, class),
                        other => other.is_a(class),
                    };
                    (s, is.map(Value::Bool).unwrap_or_else(Value::unknown))
                })
                .collect(),
            Expr::IsEmpty(x) => {
                let out = self.eval(st, x);
                out.into_iter()
                    .map(|(s, v)| {
                        self.note_touch(&v);
                        (s, v.is_empty().map(Value::Bool).unwrap_or_else(Value::unknown))
                    })
                    .collect()
            }
            Expr::IsNull(x) => self
                .eval(st, x)
                .into_iter()
                .map(|(s, v)| (s, v.is_nullish().map(Value::Bool).unwrap_or_else(Value::unknown)))
                .collect(),
            Expr::HasKey { object, key } => self
                .eval(st, object)
                .into_iter()
                .map(|(s, obj)| {
                    let v = self.has_key(&obj, key);
                    (s, v)
                })
                .collect(),
            Expr::Member { item, collection } => {
                let mut out = Vec::new();
                for (s, vals) in self.eval_all(st, &[item, collection]) {
                    let (i, c) = (&vals[0], &vals[1]);
                    match sapi_names(i, c) {
                        Some(name) => out.extend(command_line_test(s, i, &Value::Str(name), false)),
                        None => {
                            let v = self.member(i, c);
                            out.push((s, v));
                        }
                    }
                }
                out
            }
            Expr::StartsWith { text, prefix } => {
                let prefix = prefix.clone();
                self.eval(st, text)
                    .into_iter()
                    .map(|(s, v)| {
                        let r = match &v {
                            Value::Method(m) => {
                                self.touched_prefix = true;
                                if prefix.len() > 1 && prefix.ends_with('/') {
                                    self.method_prefixes.insert(prefix.clone());
                                }
                                Value::Bool(m.starts_with(&prefix))
                            }
                            Value::Str(t) => Value::Bool(t.starts_with(&prefix)),
                            Value::Encoded => {
                                self.tested_batch |= prefix.starts_with(['[', '{']);
                                crate::value::encoded_starts_with(&prefix, self.probe.batch)
                            }
                            _ => Value::unknown(),
                        };
                        (s, r)
                    })
                    .collect()
            }
            Expr::Not(x) => self
                .eval(st, x)
                .into_iter()
                .map(|(s, v)| (s, v.truthy().map(|b| Value::Bool(!b)).unwrap_or_else(Value::unknown)))
                .collect(),
            // `a && b` and `a || b` / `a ?? b` yield one of their operands (Python, JavaScript, PHP).
            Expr::And(a, b) | Expr::Or(a, b) => {
                let is_and = matches!(e, Expr::And(..));
                let mut out = Vec::new();
                for (s, va) in self.eval(st, a) {
                    match (va.truthy(), is_and) {
                        (Some(false), true) | (Some(true), false) => out.push((s, va)),
                        (Some(true), true) | (Some(false), false) => out.extend(self.eval(s, b)),
                        (None, _) => {
                            for (s2, vb) in self.eval(s, b) {
                                let v = match vb.truthy() {
                                    Some(false) if is_and => Value::Bool(false),
                                    _ => join(&[va.clone(), vb]),
                                };
                                out.push((s2, v));
                            }
                        }
                    }
                }
                out
            }
            Expr::Coalesce(a, b) => {
                let mut out = Vec::new();
                for (s, va) in self.eval(st, a) {
                    match va.is_nullish() {
                        Some(false) => out.push((s, va)),
                        Some(true) => out.extend(self.eval(s, b)),
                        None => {
                            for (s2, vb) in self.eval(s, b) {
                                out.push((s2, join(&[va.clone(), vb])));
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
                    // `routes[request.method]` on a table keyed by HTTP verbs: the verb,
                    // POST as probes arrive; no look at the message.
                    if let (Value::Object(entries), Value::Method(_)) = (&vals[0], &vals[1])
                        && !entries.is_empty()
                        && entries.iter().all(|(k, _)| HTTP_VERBS.contains(&k.as_str()))
                    {
                        let post = entries.iter().find(|(k, _)| k == "POST").map(|(_, v)| v.clone());
                        return (s, post.unwrap_or(Value::Null));
                    }
                    // A handler table looked up by method name is a dispatch decision.
                    s.saw_message |= matches!(vals[1], Value::Method(_));
                    let v = self.lookup(&vals[0], &vals[1]);
                    if matches!(vals[1], Value::Method(_)) {
                        s.note_route(Span::default(), !matches!(v, Value::Null));
                    }
                    (s, v)
                })
                .collect(),
            Expr::If { cond, then, otherwise, span } => self.eval_if(st, cond, then, otherwise, *span),
            Expr::Match { subject, arms, span } => {
                let mut out = Vec::new();
                for (s, v) in self.eval(st, subject) {
                    out.extend(self.eval_match(s, &v, subject, arms, *span));
                }
                out
            }
            // The body is followed once. A path that leaves the loop goes on after it; one
            // that starts the next round waits there for more input: for the message
            // followed, nothing more happens (it does not go on after the loop).
            Expr::Loop { body } => self
                .exec_block(st, body)
                .into_iter()
                .map(|mut s| {
                    match s.status {
                        Status::LeftLoop => s.status = Status::Running,
                        Status::NextRound => s.status = Status::Exited,
                        _ => {}
                    }
                    (s, Value::Null)
                })
                .collect(),
            Expr::ForEach { targets, iterable, body } => {
                let mut out = Vec::new();
                for (s, items) in self.eval(st, iterable) {
                    out.extend(self.for_each(s, targets, &items, body).into_iter().map(|s| (s, Value::Null)));
                }
                out
            }
            Expr::Try { body, handler, binding } => {
                let mut out = Vec::new();
                let before = (!st.saw_message).then(|| st.clone());
                let done = self.exec_block(st, body);
                // A body that ends every path before the message is read (`try { return
                // serveStaticFile(path) } catch { .. }`) leaves the message to its handler:
                // what throws there (a file not found) is outside the scanned code, so
                // the handler runs too, from the state the body began with.
                // (Not a body that returns what it built from the message, a reply encoded
                // before its id was ever tested.)
                let static_answer = |s: &State| match &s.status {
                    Status::Returned(v) => v.first_reply().is_none() && (v.as_http().is_some() || !v.interesting()),
                    _ => false,
                };
                if let Some(mut h) = before
                    && done.iter().any(|s| matches!(s.status, Status::Returned(_)))
                    && done.iter().all(|s| !s.saw_message && !s.running())
                    && done.iter().all(static_answer)
                {
                    if let Some(b) = binding {
                        h.env.insert(b.clone(), Value::unknown());
                    }
                    out.extend(self.exec_block(h, handler).into_iter().map(|s| (s, Value::Null)));
                }
                for s in done {
                    if let Status::Raised(v) = &s.status {
                        let mut h = s.clone();
                        h.status = Status::Running;
                        if let Some(b) = binding {
                            h.env.insert(b.clone(), v.clone());
                        }
                        out.extend(self.exec_block(h, handler).into_iter().map(|s| (s, Value::Null)));
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
            Expr::Required(x) => self
                .eval(st, x)
                .into_iter()
                .map(|(mut s, v)| {
                    if v == Value::NoId {
                        // The message decided this path.
                        s.saw_message = true;
                        s.status = Status::Raised(Value::unknown());
                    }
                    (s, v)
                })
                .collect(),
            Expr::Named { value, .. } | Expr::Spread(value) => self.eval(st, value),
            Expr::Message(parts) => {
                // Decoding one member of the message (`json.Unmarshal(fields["method"],
                // &method)`, `serde_json::from_value(v["id"].clone())`) gives that member.
                let member = parts.first().is_some_and(decodes_member);
                let exprs: Vec<&Expr> = parts.iter().collect();
                self.eval_all(st, &exprs)
                    .into_iter()
                    .map(|(s, vals)| {
                        let v = match vals.into_iter().next() {
                            Some(v) if member => v,
                            // The method's name decoded as JSON text (a string of an enum
                            // of methods): that name, not the message.
                            Some(v @ Value::Method(_)) => v,
                            // Decoding what the code itself encoded (`json.loads(reply.json())`,
                            // `JSON.parse(JSON.stringify(reply))`) gives that value back.
                            Some(v @ (Value::Reply(_) | Value::Object(_) | Value::Instance(..))) => v,
                            // A batch probe: the array that holds the message.
                            _ if self.probe.batch => Value::Array(Rc::new(match self.probe.beside_request {
                                true => vec![crate::value::companion_request(), Value::Message],
                                false => vec![Value::Message],
                            })),
                            _ => Value::Message,
                        };
                        (s, v)
                    })
                    .collect()
            }
            Expr::Opaque(parts) => {
                let exprs: Vec<&Expr> = parts.iter().collect();
                self.eval_all(st, &exprs).into_iter().map(|(s, vals)| (s, join(&vals))).collect()
            }
        }
    }

    /// A field of the incoming message.
    pub(super) fn field(&mut self, f: FieldName) -> Value {
        match f {
            FieldName::Method => {
                self.touched_method = true;
                Value::Method(self.probe.method.clone())
            }
            FieldName::Id => {
                self.touched_id = true;
                if self.probe.has_id { Value::Id } else { Value::NoId }
            }
            FieldName::ProtocolVersion => Value::ClientVersion { checked: false },
            // Probes are well-formed: their envelope says `"jsonrpc": "2.0"`.
            FieldName::Jsonrpc => Value::Str("2.0".into()),
            FieldName::Result | FieldName::Error => Value::unknown(),
        }
    }

    /// A field of a value: a reply's own members, an object's entry, else the message's field.
    pub(super) fn field_of(&mut self, object: &Value, f: FieldName) -> Value {
        let key = match f {
            FieldName::Method => "method",
            FieldName::Id => "id",
            FieldName::Jsonrpc => "jsonrpc",
            FieldName::ProtocolVersion => "protocolVersion",
            FieldName::Result => "result",
            FieldName::Error => "error",
        };
        match object {
            Value::Reply(r) => match f {
                FieldName::Id => r.id.clone(),
                FieldName::Result => r.result.clone().unwrap_or(Value::Null),
                FieldName::Error => match r.error {
                    Some(code) => Value::Object(Rc::new(vec![(
                        "code".to_string(),
                        code.map(Value::Int).unwrap_or_else(Value::unknown),
                    )])),
                    None => Value::Null,
                },
                _ => Value::unknown(),
            },
            Value::Object(entries) | Value::Instance(_, entries, _)
                if entries.iter().any(|(k, _)| k == key) =>
            {
                entries.iter().find(|(k, _)| k == key).map(|(_, v)| v.clone()).unwrap_or_else(Value::unknown)
            }
            // An object of the scanned code's own class is not the message: a member its
            // class never declares is PHP's null (JavaScript's undefined); one it declares
            // but the path did not set is unknown.
            Value::Instance(class, ..) => {
                let here = self.here();
                let declared =
                    self.prog.class(class, here).is_none_or(|c| c.fields.iter().any(|(k, _)| k == key));
                let language = self.prog.file_of(here).language;
                let dynamic = matches!(
                    language,
                    crate::model::Language::Php
                        | crate::model::Language::JavaScript
                        | crate::model::Language::TypeScript
                );
                if !declared && dynamic { Value::Null } else { Value::unknown() }
            }
            // `$result['error']` of a PHP list (`return [];`), `list.error` in JavaScript:
            // no such member.
            Value::Array(_)
                if matches!(
                    self.prog.file_of(self.here()).language,
                    crate::model::Language::Php
                        | crate::model::Language::JavaScript
                        | crate::model::Language::TypeScript
                ) =>
            {
                Value::Null
            }
            _ => self.field(f),
        }
    }

    pub(super) fn note_touch(&mut self, v: &Value) {
        match v {
            Value::Id | Value::NoId => self.touched_id = true,
            Value::Method(_) => self.touched_method = true,
            _ => {}
        }
    }

    /// A member of an object or instance by the name code reads it with. A Go or
    /// Rust struct literal holds its fields under their JSON names (tags, serde
    /// renames), so `t.Name` of `ToolDef{Name: "x"}` (tagged `json:"name"`) is found
    /// under `name`.
    fn own_member(&self, fields: &[(String, Value)], key: &str, class: Option<&str>) -> Option<Value> {
        let find = |name: &str| fields.iter().find(|(k, _)| k == name).map(|(_, v)| v.clone());
        if let Some(v) = find(key) {
            return Some(v);
        }
        let here = self.here();
        if !matches!(
            self.prog.file_of(here).language,
            crate::model::Language::Go | crate::model::Language::Rust
        ) {
            return None;
        }
        class
            .and_then(|c| self.prog.struct_json_name(c, key, here))
            .or_else(|| self.prog.json_name(key, here))
            .and_then(find)
    }

    /// A member of the receiver as the factory that builds its type sets it (Go: see
    /// [`Program::factory_field`]): read with the factory's local standing for the
    /// instance, so `s.ping` is its method. A table, a method or a constant text.
    fn factory_member(&mut self, field: &str) -> Option<Value> {
        let here = self.here();
        let owner = self.prog.function(here).owner.as_deref()?;
        let (_, expr, local) = self.prog.factory_field(owner, field, here)?;
        let key = (format!("self.{field}@factory"), here as u32);
        if let Some(v) = self.globals_cache.get(&key) {
            return Some(v.clone()).filter(|v| !matches!(v, Value::Unknown(_)));
        }
        self.globals_cache.insert(key.clone(), Value::unknown());
        let this = Value::Instance(owner.into(), Rc::new(Vec::new()), self.prog.function(here).span);
        let v = match self.eval_aside_in(BTreeMap::from([(local.to_string(), this)]), expr).as_deref() {
            Some([v @ (Value::Object(_) | Value::Func(_) | Value::Str(_))]) => v.clone(),
            _ => Value::unknown(),
        };
        self.globals_cache.insert(key, v.clone());
        Some(v).filter(|v| !matches!(v, Value::Unknown(_)))
    }

    pub(super) fn var(&mut self, st: &State, name: &str) -> Value {
        if let Some(v) = st.env.get(name) {
            // A handshake flag still unset where this path reads it (`let initialized =
            // false` of the read loop or of the closure's maker): a probe comes after
            // the handshake, which sets it.
            if matches!(v, Value::Bool(false) | Value::Null)
                && let Some(after) = self.handshake_state(name)
            {
                return after;
            }
            return v.clone();
        }
        // `replies.length` of a list the path knows.
        if let Some(base) = name.strip_suffix(".length")
            && let Some(Value::Array(items)) = st.env.get(base)
        {
            return Value::Int(items.len() as i64);
        }
        // `msg.params`, `$msg['params']` of the decoded message: the probe's params.
        let params_of = |suffix: &str| name.strip_suffix(suffix).filter(|b| !b.contains(['.', '[']));
        if let Some(base) =
            params_of(".params").or_else(|| params_of("['params']")).or_else(|| params_of("[\"params\"]"))
            && matches!(st.env.get(base), Some(Value::Message))
        {
            return self.probe_params();
        }
        // `req.hasID` on the decoded message: a flag its own decoding (a custom
        // `UnmarshalJSON`, a validator) set from whether the id member is there.
        if let Some((base, rest)) = name.split_once('.')
            && matches!(st.env.get(base), Some(Value::Message))
            && crate::lower::names_id_presence(rest)
        {
            self.touched_id = true;
            return Value::Bool(self.probe.has_id);
        }
        // `self.id` in a method of the message's own type (`impl Request { fn
        // is_notification(&self) }`): the message's field.
        if let Some((base, rest)) = name.split_once('.')
            && matches!(st.env.get(base), Some(Value::Message))
            && let Some(f) = crate::lower::message_field(rest)
        {
            let v = self.field(f);
            self.note_touch(&v);
            return v;
        }
        // `exc.status_code` of an HTTP answer raised and caught (`except HTTPException
        // as exc`), `res.status` of a response: its status.
        if let Some((base, rest)) = name.split_once('.')
            && let Some(Value::Http(h)) = st.env.get(base)
            && matches!(rest, "status_code" | "status")
        {
            return match h.status {
                crate::value::HttpStatus::Code(code) => Value::Int(i64::from(code)),
                // The framework's default.
                crate::value::HttpStatus::Unset => Value::Int(200),
                crate::value::HttpStatus::Unknown => Value::unknown(),
            };
        }
        // `self.version`, `reply.result`: a field of an instance or object the path
        // holds; `self.initialize` without such a field is the class's method.
        if let Some((base, rest)) = name.split_once('.')
            && let Some(value) = st.env.get(base)
            && matches!(value, Value::Instance(..) | Value::Object(_))
        {
            // JavaScript reads a member an object literal describing an HTTP answer
            // (`{ status: 202 }`) was built without as `undefined`, unless code somewhere
            // assigns a member of that name (another reference may have added it). Other
            // objects' missing members stay unknown: deciding them all sent the analysis
            // of large programs down far more paths. A router's result for its caller
            // (`{ response: reply }`, or `{}` for a notification) is read the same way
            // (`if (result.httpError) return result.httpError`).
            let script = matches!(
                self.prog.file_of(self.here()).language,
                crate::model::Language::JavaScript | crate::model::Language::TypeScript
            );
            let mut current = Some(value.clone());
            for key in rest.split('.') {
                current = match &current {
                    Some(instance @ Value::Instance(class, fields, _)) => {
                        match self.own_member(fields, key, Some(class)) {
                            Some(v) => Some(v),
                            None => match self.getter(instance, class, key) {
                                Some(v) => Some(v),
                                None => self.prog.method(class, key, self.here()).map(Value::Func),
                            },
                        }
                    }
                    Some(Value::Object(fields)) => self.own_member(fields, key, None).or_else(|| {
                        (script
                            && (fields.is_empty()
                                || crate::value::describes_answer(fields)
                                || crate::value::carries_answer(fields))
                            && !self.prog.member_written(key))
                        .then_some(Value::Null)
                    }),
                    _ => None,
                };
            }
            if let Some(v) = current {
                // A flag the instance starts with (`private bool $initialized = false`)
                // is the state before the handshake, not after it.
                if matches!(v, Value::Bool(false) | Value::Null | Value::Unknown(_))
                    && let Some(after) = self.handshake_state(name)
                {
                    return after;
                }
                return v;
            }
        }
        // `r.value` in a method of the Go type that wraps the message's id (`func (r
        // RequestID) IsEmpty() bool { return r.value == nil }`): the id itself, and for
        // an absent id the zero value's nil.
        if let Some(("self", rest)) = name.split_once('.')
            && !rest.contains('.')
            && let Some(id @ (Value::Id | Value::NoId)) = st.env.get("self")
            && self.prog.file_of(self.here()).language == crate::model::Language::Go
        {
            return id.clone();
        }
        // `response.status`, `response.body` of an HTTP answer the path holds (a
        // wrapper that copies it: `new Response(response.body, { status: response.status })`).
        if let Some((base, field)) = name.split_once('.')
            && let Some(Value::Http(http)) = st.env.get(base)
            && let Some(v) = crate::value::http_member(http, field)
        {
            return v;
        }
        // A function written inside this one, handed on by name (`run_layers(ctx, tail)`).
        if !name.contains('.')
            && let Some(&id) =
                self.prog.named(name).iter().find(|&&id| self.prog.outer_function(id) == Some(self.here()))
        {
            self.note_closure_made(st, id);
            return Value::Func(id);
        }
        // A closure's captured local: what the function around it bound it to.
        if !name.contains('.') && self.prog.in_closure(self.here()) {
            let key = (format!("{name}@{}", self.here()), u32::MAX);
            if let Some(v) = self.globals_cache.get(&key) {
                return v.clone();
            }
            if !self.not_captured.contains(&key.0)
                && let Some(expr) = self.prog.captured(name, self.here())
            {
                self.globals_cache.insert(key.clone(), Value::unknown());
                let v = self.eval_aside(expr).map(|vals| match vals.len() {
                    1 => vals.into_iter().next().unwrap_or_else(Value::unknown),
                    _ => join(&vals),
                });
                // An instance is left to the resolution of its method calls by name, as
                // before captures were followed: following a constructed object's own
                // calls from the closure takes the analysis through the whole program
                // (a library behind it) and past the call depth it can follow.
                match v {
                    Some(v) if !matches!(v, Value::Instance(..)) => {
                        self.globals_cache.insert(key, v.clone());
                        // A handshake flag the maker starts unset (`let initialized =
                        // false` beside the closure that sets it on `initialize`): the
                        // probe comes after the handshake, which sets it.
                        if matches!(v, Value::Bool(false) | Value::Null)
                            && let Some(after) = self.handshake_state(name)
                        {
                            return after;
                        }
                        return v;
                    }
                    _ => {
                        self.globals_cache.remove(&key);
                        self.not_captured.insert(key.0);
                    }
                }
            }
        }
        // `handler = self.on_message` where the instance is not known: the function a
        // setter of the class stored there (`set_message_handler(server.handle)`), as a
        // call of `self.on_message(..)` calls it.
        if let Some((base @ ("self" | "this"), field)) = name.split_once('.')
            && !field.contains('.')
            && !matches!(st.env.get(base), Some(Value::Instance(..)))
            && let Some(id) = self.prog.stored_callback(self.here(), field)
        {
            return Value::Func(id);
        }
        // `this.handlers` where the instance is not known (a method resolved by name):
        // the table or function the constructor alone sets it to.
        if let Some((base @ ("self" | "this"), field)) = name.split_once('.')
            && !field.contains('.')
            && !matches!(st.env.get(base), Some(Value::Instance(..)))
            && let Some(expr) = self.prog.constructor_field(self.here(), field)
        {
            let key = (format!("{name}@constructor"), self.here() as u32);
            if let Some(v) = self.globals_cache.get(&key) {
                return v.clone();
            }
            self.globals_cache.insert(key.clone(), Value::unknown());
            // Read with `this` standing for an instance of the class, so that the
            // table's `this.onPing.bind(this)` is the class's method.
            let env = match self.prog.function(self.here()).owner.as_deref() {
                Some(owner) => {
                    let span = self.prog.function(self.here()).span;
                    let this = Value::Instance(owner.into(), Rc::new(Vec::new()), span);
                    BTreeMap::from([("this".to_string(), this.clone()), ("self".to_string(), this)])
                }
                None => BTreeMap::new(),
            };
            let v = match self.eval_aside_in(env, expr).as_deref() {
                Some([v @ (Value::Object(_) | Value::Func(_))]) => v.clone(),
                _ => Value::unknown(),
            };
            self.globals_cache.insert(key, v.clone());
            if !matches!(v, Value::Unknown(_)) {
                return v;
            }
        }
        // The same, set by a factory function on the object it builds (Go's `s :=
        // &Server{}; s.handlers = map[string]handler{"ping": s.ping}`): read with the
        // factory's local standing for the instance, so `s.ping` is its method.
        if let Some((base @ ("self" | "this"), field)) = name.split_once('.')
            && !field.contains('.')
            && !matches!(st.env.get(base), Some(Value::Instance(..)))
            && let Some(v) = self.factory_member(field)
        {
            return v;
        }
        let scope = self.prog.function(self.here()).span.file;
        let key = (name.to_string(), scope);
        if let Some(v) = self.globals_cache.get(&key) {
            return v.clone();
        }
        if let Some(expr) = self.prog.global(name, self.here()) {
            // Guard against self-referential globals while evaluating.
            self.globals_cache.insert(key.clone(), Value::unknown());
            let vals: Vec<Value> =
                self.eval(State::new(BTreeMap::new()), expr).into_iter().map(|(_, v)| v).collect();
            let v = if vals.len() == 1 {
                vals.into_iter().next().unwrap_or_else(Value::unknown)
            } else {
                join(&vals)
            };
            self.globals_cache.insert(key, v.clone());
            return v;
        }
        if (name.contains('.') || name.contains("::"))
            && let Some(literal) = self.prog.constant(name, self.here())
        {
            let mut results = self.eval(State::new(BTreeMap::new()), literal);
            if let Some((_, v)) = results.pop() {
                return v;
            }
        }
        if let Some(id) =
            self.prog.resolve(name, self.here()).filter(|_| !name.contains('.') || name.starts_with("self."))
        {
            return Value::Func(id);
        }
        self.handshake_state(name).unwrap_or_else(Value::unknown)
    }

    /// What a read of the session's handshake state (`self.initialized`,
    /// `isSessionInitialized($id)`) gives where the scan cannot compute it: a probe
    /// comes after the handshake a client performs, so when that handshake sets the
    /// state (see [`Interp::with_handshake`]), it is set.
    pub(super) fn handshake_state(&self, name: &str) -> Option<Value> {
        let after = self.handshake && self.probe.method != "initialize";
        (after && crate::lower::reads_initialized_state(name)).then_some(Value::Bool(true))
    }

    /// The values of an expression evaluated on its own, beside the probe's paths (a
    /// captured local's binding, an entry's argument): `None` when that evaluation
    /// hits a limit, which then cuts nothing of the probe's own analysis.
    pub(super) fn eval_aside(&mut self, expr: &Expr) -> Option<Vec<Value>> {
        self.eval_aside_in(BTreeMap::new(), expr)
    }

    /// [`Interp::eval_aside`] with some names bound (a factory's local standing for
    /// the object it builds).
    fn eval_aside_in(&mut self, env: BTreeMap<String, Value>, expr: &Expr) -> Option<Vec<Value>> {
        let outer_cut = self.cut.take();
        let values: Vec<Value> = self.eval(State::new(env), expr).into_iter().map(|(_, v)| v).collect();
        let cut_here = std::mem::replace(&mut self.cut, outer_cut).is_some();
        (!cut_here).then_some(values)
    }

    /// `items.map(f)` (or, with `keep`, `items.filter(f)`) over a known list, path by
    /// path: the list of what `f` returns, or of the items it is known to keep (unknown
    /// where its truth is).
    fn each_item(
        &mut self,
        s: State,
        f: FnId,
        items: &[Value],
        keep: bool,
        span: Span,
    ) -> Vec<(State, Value)> {
        let mut paths = vec![(s, Some(Vec::new()))];
        for item in items {
            let mut next = Vec::new();
            for (s, done) in paths {
                for (s2, v) in self.apply(s, f, vec![item.clone()], span) {
                    let kept = match (keep, v.truthy()) {
                        (false, _) => Some(Some(v)),
                        (true, Some(t)) => Some(t.then(|| item.clone())),
                        (true, None) => None,
                    };
                    let done = done.clone().zip(kept).map(|(mut d, k)| {
                        d.extend(k);
                        d
                    });
                    next.push((s2, done));
                }
            }
            paths = next;
        }
        paths
            .into_iter()
            .map(|(s, done)| (s, done.map_or_else(Value::unknown, |d| Value::Array(Rc::new(d)))))
            .collect()
    }

    /// Evaluates expressions left to right, forking as each one forks.
    pub(super) fn eval_all(&mut self, st: State, exprs: &[&Expr]) -> Vec<(State, Vec<Value>)> {
        let mut acc = vec![(st, Vec::new())];
        for e in exprs {
            let mut next = Vec::new();
            for (s, mut vals) in acc {
                let mut results = self.eval(s, e);
                // The common case, one result, needs no copy of the values so far.
                if results.len() == 1 {
                    let (s2, v) = results.pop().expect("one result");
                    vals.push(v);
                    next.push((s2, vals));
                    continue;
                }
                for (s2, v) in results {
                    let mut vals = vals.clone();
                    vals.push(v);
                    next.push((s2, vals));
                }
            }
            if next.len() > super::join::JOIN_AT {
                next = super::join::join_valued(next);
            }
            if next.len() > MAX_PATHS {
                next.truncate(MAX_PATHS);
                self.cut_short(super::Cut::Paths);
            }
            acc = next;
        }
        acc
    }

    pub(super) fn eval_pair(
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

    pub(super) fn equals(&mut self, l: &Value, r: &Value) -> Value {
        match (l, r) {
            (Value::Method(m), Value::Str(s)) | (Value::Str(s), Value::Method(m)) => {
                // `request.method == "POST"` tests the HTTP verb; probes arrive by POST.
                if is_verb_test(l, r) { Value::Bool(s == "POST") } else { Value::Bool(m == s) }
            }
            (Value::Str(a), Value::Str(b)) => Value::Bool(a == b),
            // The message's text is never empty.
            (Value::Encoded, Value::Str(s)) | (Value::Str(s), Value::Encoded) if s.is_empty() => {
                Value::Bool(false)
            }
            // A request's id (a number or a non-empty string) is never the text of nothing.
            (Value::Id, Value::Str(s)) | (Value::Str(s), Value::Id)
                if matches!(s.as_str(), "" | "null" | "None" | "undefined") =>
            {
                Value::Bool(false)
            }
            (Value::Int(a), Value::Int(b)) => Value::Bool(a == b),
            (Value::Bool(a), Value::Bool(b)) => Value::Bool(a == b),
            // `[] === $response->result`: an empty list equals only an empty list.
            (Value::Array(a), Value::Array(b)) if a.is_empty() || b.is_empty() => {
                Value::Bool(a.len() == b.len())
            }
            // The probe's `initialize` names a version: its text is never empty.
            (Value::ClientVersion { .. }, Value::Str(s)) | (Value::Str(s), Value::ClientVersion { .. })
                if s.is_empty() =>
            {
                Value::Bool(false)
            }
            (Value::ClientVersion { .. }, _) | (_, Value::ClientVersion { .. }) => Value::unknown(),
            (a, b) if a.is_nullish() == Some(true) && b.is_nullish() == Some(true) => Value::Bool(true),
            // A value of a known kind against a scalar of another kind (`true !== $response`,
            // `$result === null` on a reply): not equal.
            (a, b)
                if known_kind(a)
                    && known_kind(b)
                    && std::mem::discriminant(a) != std::mem::discriminant(b) =>
            {
                Value::Bool(false)
            }
            _ => Value::unknown(),
        }
    }

    /// Whether a value has a member of that name (`"id" in msg`, Go's `_, ok :=
    /// msg["id"]`): the decoded message has the members of a well-formed request or
    /// notification.
    pub(super) fn has_key(&mut self, obj: &Value, key: &str) -> Value {
        match (obj, key) {
            (Value::Object(entries), k) => Value::Bool(entries.iter().any(|(ek, _)| ek == k)),
            (Value::Reply(r), "error") => Value::Bool(r.error.is_some()),
            (Value::Reply(r), "result") => Value::Bool(r.result.is_some()),
            (Value::Reply(_), "id" | "jsonrpc") => Value::Bool(true),
            // The decoded message has the members of a well-formed request or
            // notification: an id only when the probe has one, never a result.
            (Value::Message, "id") => {
                self.touched_id = true;
                Value::Bool(self.probe.has_id)
            }
            // `"notifications/" in method` (Python's `in` with a text on its
            // left reads as a key test): a substring of a known text.
            (Value::Method(text), part) => {
                self.touched_prefix = true;
                Value::Bool(text.contains(part))
            }
            (Value::Str(text), part) => Value::Bool(text.contains(part)),
            (Value::Message, "method" | "jsonrpc" | "params") => Value::Bool(true),
            (Value::Message, "result" | "error") => Value::Bool(false),
            (_, "id") => {
                self.touched_id = true;
                Value::Bool(self.probe.has_id)
            }
            (_, "method") => Value::Bool(true),
            _ => Value::unknown(),
        }
    }

    pub(super) fn member(&mut self, item: &Value, collection: &Value) -> Value {
        // `_, ok := msg["id"]` on the decoded message: whether it has that member.
        if let (Value::Str(key), Value::Message | Value::Reply(_)) = (item, collection) {
            return self.has_key(collection, key);
        }
        // `exc.code in [UNAUTHORIZED, FORBIDDEN]`: a number among numbers.
        if let (Value::Int(n), Value::Array(items)) = (item, collection)
            && items.iter().all(|i| matches!(i, Value::Int(_)))
        {
            return Value::Bool(items.iter().any(|i| matches!(i, Value::Int(m) if m == n)));
        }
        let key = match item {
            Value::Method(m) => m.as_str(),
            Value::Str(s) => s.as_str(),
            _ => return Value::unknown(),
        };
        // `method.includes("notifications/")`, `"notifications/" in method`,
        // `strings.Contains(method, "/")`: a substring of a known text.
        if let (Value::Str(part), Value::Method(text) | Value::Str(text)) = (item, collection) {
            if matches!(collection, Value::Method(_)) {
                self.touched_prefix = true;
            }
            return Value::Bool(text.contains(part.as_str()));
        }
        // A table filled by registrations is empty where it is built (as in `lookup`).
        let here = self.here();
        if matches!(item, Value::Method(_))
            && matches!(collection, Value::Object(e) if e.is_empty())
            && self.prog.has_registrations(here)
        {
            return Value::Bool(self.prog.registration(key, here).is_some());
        }
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

    /// The params of a well-formed probe: initialize's carry the client's version, its
    /// capabilities and its name; the lifecycle probes carry none (an empty object).
    pub(super) fn probe_params(&self) -> Value {
        if self.probe.method != "initialize" {
            return Value::Object(Rc::new(Vec::new()));
        }
        let info = vec![
            ("name".to_string(), Value::Str("client".into())),
            ("version".to_string(), Value::Str("1.0.0".into())),
        ];
        Value::Object(Rc::new(vec![
            ("protocolVersion".to_string(), Value::ClientVersion { checked: false }),
            ("capabilities".to_string(), Value::Object(Rc::new(Vec::new()))),
            ("clientInfo".to_string(), Value::Object(Rc::new(info))),
        ]))
    }

    /// Whether a list the running code writes out is JSON text's array: in PHP,
    /// Python and JavaScript; a Rust or Go list written out is bytes (`&[]`,
    /// `[]byte{}`: nothing).
    fn lists_are_json(&self) -> bool {
        use crate::model::Language;
        matches!(
            self.prog.file_of(self.here()).language,
            Language::Php | Language::Python | Language::JavaScript | Language::TypeScript
        )
    }

    pub(super) fn lookup(&mut self, collection: &Value, key: &Value) -> Value {
        // `init.status` of a response handed as the options of another
        // (`new Response(resp.body, resp)`).
        if let (Value::Http(http), Value::Str(k)) = (collection, key)
            && let Some(v) = crate::value::http_member(http, k)
        {
            return v;
        }
        if let (Value::Message, Value::Str(k)) = (collection, key)
            && k == "params"
        {
            return self.probe_params();
        }
        // `body[0] == '['`: the message's text opens a JSON object. Go's bytes index to
        // a number; PHP's and JavaScript's strings to a one-letter string; Python's
        // bytes to a number and its strings to a string, which the value cannot tell.
        if let (Value::Encoded, Value::Int(0)) = (collection, key) {
            use crate::model::Language;
            self.tested_batch = true;
            let (byte, text) = if self.probe.batch { (b'[', "[") } else { (b'{', "{") };
            return match self.prog.file_of(self.here()).language {
                Language::Go => Value::Int(i64::from(byte)),
                Language::Php | Language::JavaScript | Language::TypeScript => Value::Str(text.into()),
                Language::Python | Language::Rust => Value::unknown(),
            };
        }
        // `isset($input[0])`, `body[0] === undefined`: whether the decoded body is a
        // list (a batch). A probe's message is one JSON object, with no element 0:
        // PHP's and JavaScript's reads give null, serde_json's `Value` index too.
        // (Python's dict raises; Go's map cannot be indexed by a number.)
        if let (Value::Message, Value::Int(0)) = (collection, key) {
            use crate::model::Language;
            if let Language::Php | Language::JavaScript | Language::TypeScript | Language::Rust =
                self.prog.file_of(self.here()).language
            {
                self.tested_batch = true;
                return Value::Null;
            }
        }
        if let (Value::Array(items), Value::Int(i)) = (collection, key) {
            return usize::try_from(*i)
                .ok()
                .and_then(|i| items.get(i).cloned())
                .unwrap_or_else(Value::unknown);
        }
        // `meta?.[key]` on `undefined` or `null` in JavaScript: `undefined`. (Written
        // without `?.` it throws; the scan does not tell the two apart, so such a
        // read adds a path the program would not take, never drops one it would.)
        if matches!(collection, Value::Null | Value::NoId)
            && matches!(
                self.prog.file_of(self.here()).language,
                crate::model::Language::JavaScript | crate::model::Language::TypeScript
            )
        {
            return Value::Null;
        }
        // An element of a list the scan could not follow is one of the values it carries.
        if let (Value::Unknown(parts), Value::Int(_)) = (collection, key) {
            return Value::Unknown(parts.clone());
        }
        let k = match key {
            Value::Method(m) => m.clone(),
            Value::Str(s) => s.clone(),
            _ => return Value::unknown(),
        };
        let here = self.here();
        // `ctx.Value(key)`: the value put under the key, here or in a parent context.
        if k.starts_with(crate::model::CONTEXT_SLOT) {
            let mut current = collection.clone();
            for _ in 0..16 {
                let Value::Object(entries) = &current else { break };
                if let Some((_, v)) = entries.iter().find(|(ek, _)| *ek == k) {
                    return v.clone();
                }
                match entries.iter().find(|(ek, _)| ek == crate::model::CONTEXT_SLOT) {
                    Some((_, parent)) => current = parent.clone(),
                    None => break,
                }
            }
            return Value::unknown();
        }
        // `server[method]` on an object of the code's own class: its field, or its
        // method of that name (a class whose methods are named as MCP methods is a
        // handler table); a method name it lacks is undefined.
        if let Value::Instance(class, fields, _) = collection {
            if let Some((_, v)) = fields.iter().find(|(f, _)| *f == k) {
                return v.clone();
            }
            if let Some(m) =
                self.prog.method(class, &k, here).or_else(|| self.prog.empty_method(class, &k, here))
            {
                return Value::Func(m);
            }
            if matches!(key, Value::Method(_)) && self.prog.class(class, here).is_some() {
                return Value::Null;
            }
            return Value::unknown();
        }
        // A table filled by registrations (`insert`, decorators) is empty where it is built.
        let registered = matches!(key, Value::Method(_)) && self.prog.has_registrations(here);
        match collection {
            Value::Object(entries) if !(entries.is_empty() && registered) => {
                // An object the path built lists all its members (one spread from what
                // the scan cannot list is no object): in JavaScript a member it lacks
                // is `undefined`.
                let script = matches!(
                    self.prog.file_of(here).language,
                    crate::model::Language::JavaScript | crate::model::Language::TypeScript
                );
                match entries.iter().find(|(ek, _)| *ek == k) {
                    Some((_, v)) => v.clone(),
                    // The probes carry no `_meta` (the protocol's reserved member, which
                    // only the 2026 revision requires on every request).
                    None if matches!(key, Value::Method(_)) || script || k == "_meta" => Value::Null,
                    None => Value::unknown(),
                }
            }
            _ if registered => match self.prog.registration(&k, here) {
                Some(_) => {
                    self.prog.registered_function(&k, here).map(Value::Func).unwrap_or_else(Value::unknown)
                }
                None => Value::Null,
            },
            // `params[key]` with the key known only when the call runs (a `getParam(params,
            // 'protocolVersion')` helper) reads what `params.protocolVersion` reads.
            Value::Message | Value::Unknown(_) if matches!(key, Value::Str(_)) => {
                match crate::lower::message_field(&k) {
                    Some(f) => self.field_of(collection, f),
                    None => Value::unknown(),
                }
            }
            _ => Value::unknown(),
        }
    }

    pub(super) fn eval_call(
        &mut self,
        st: State,
        callee: &str,
        receiver: Option<&Expr>,
        args: &[Expr],
        span: Span,
    ) -> Vec<(State, Value)> {
        // A message guard the scan cannot compute (`isJSONRPCRequest(msg)` over a
        // schema library, or from a library it cannot see) says what its name says of
        // the message it is given.
        let guard = super::guard_truth(callee, &self.probe).filter(|_| {
            let subject = args.first().map(|a| match a {
                Expr::Named { value, .. } => value.as_ref(),
                other => other,
            });
            // The message, or a value the scan cannot tell from it (an entry's parameter).
            subject.or(receiver).is_some_and(|e| {
                self.eval(st.clone(), e).iter().all(|(_, v)| matches!(v, Value::Message | Value::Unknown(_)))
            })
        });
        // `schema.validate(message.params)`, `Params.safeParse(msg.params)`: a probe's
        // params are well-formed, so they pass the server's own schema.
        if SCHEMA_CHECKS.contains(&crate::lower::last_segment(callee)) && args.iter().any(reads_params) {
            let ok = ["valid", "success"].map(|k| (k.to_string(), Value::Bool(true)));
            return vec![(st, Value::Object(Rc::new(ok.into_iter().collect())))];
        }
        let touched = (self.touched_id, self.touched_method);
        self.touched_id = false;
        self.touched_method = false;
        let mut out = self.eval_call_inner(st, callee, receiver, args, span);
        // `isSessionInitialized($id)` over a store the scan cannot fill: after the handshake.
        if let Some(after) = self.handshake_state(crate::lower::last_segment(callee)) {
            for (s, v) in out.iter_mut() {
                if !matches!(s.status, Status::Raised(_)) {
                    *v = after.clone();
                }
            }
        }
        // A body that read the message's id or method is the code's own test: its answer
        // stands even where the scan could not finish it.
        let read_message = self.touched_id || self.touched_method;
        self.touched_id |= touched.0;
        self.touched_method |= touched.1;
        // The body's answer rests on what the scan cannot see when any path of it is
        // unknown: then every path that returns gives the name's answer (a `false` from
        // a catch around the unseen validator is as unknown as the rest).
        let undecided = out.iter().any(|(_, v)| matches!(v, Value::Unknown(_)));
        match guard.filter(|_| !read_message && undecided) {
            Some(truth) => out
                .into_iter()
                .map(|(mut s, v)| {
                    if matches!(s.status, Status::Raised(_)) {
                        return (s, v);
                    }
                    s.saw_message = true;
                    self.touched_id = true;
                    (s, Value::Bool(truth))
                })
                .collect(),
            None => out,
        }
    }

    fn eval_call_inner(
        &mut self,
        st: State,
        callee: &str,
        receiver: Option<&Expr>,
        args: &[Expr],
        span: Span,
    ) -> Vec<(State, Value)> {
        if callee == crate::lower::DETACHED {
            let Some(inner) = args.first() else { return vec![(st, Value::unknown())] };
            return self
                .eval(st, inner)
                .into_iter()
                .map(|(mut s, _)| {
                    if s.status == Status::Exited {
                        s.status = Status::Running;
                    }
                    (s, Value::unknown())
                })
                .collect();
        }
        // `const write = process.stdout.write.bind(process.stdout)`, `_write =
        // sys.stdout.write` at module level: a method taken off an object outside the
        // scanned code and called by another name is a call of that method.
        if receiver.is_none()
            && !callee.contains(['.', '(', '['])
            && !st.env.get(callee).is_some_and(|v| matches!(v, Value::Func(_)))
            && self.resolve_callee(callee).is_none()
            && let Some(Expr::Var(method)) = self.prog.global(callee, self.here())
            && method.contains('.')
            && !method.starts_with("self.")
            && !method.starts_with("this.")
            && self.resolve_callee(method).is_none()
        {
            // (`process.stdout.write` by another name writes to standard output.)
            let method = if crate::lower::writes_stdout(method) {
                crate::lower::PRINT.to_string()
            } else {
                method.clone()
            };
            return self.eval_call_inner(st, &method, None, args, span);
        }
        if self.prog.knowledge.is_notification_test(callee) {
            // Configured: `is_notification(msg)` is `msg` without an id.
            let object = args.first().or(receiver).cloned().map(Box::new);
            let test = Expr::IsNull(Box::new(Expr::Field { object, name: FieldName::Id }));
            return self.eval(st, &test);
        }
        let mut exprs: Vec<&Expr> = Vec::new();
        if let Some(r) = receiver {
            exprs.push(r);
        }
        // Named arguments bind by name; their values are evaluated in place.
        let names: Vec<Option<&str>> = args
            .iter()
            .map(|a| match a {
                Expr::Named { name, .. } => Some(name.as_str()),
                _ => None,
            })
            .collect();
        exprs.extend(args.iter().map(|a| match a {
            Expr::Named { value, .. } => value.as_ref(),
            other => other,
        }));
        let hidden = self.hidden_writes(&st, args);
        let spread: Vec<bool> = args.iter().map(|a| matches!(a, Expr::Spread(_))).collect();
        let spreads = spread.contains(&true);
        let mut out = Vec::new();
        for (mut s, mut vals) in self.eval_all(st, &exprs) {
            // What a closure passed to the call writes on the caller's variables is
            // not carried back: from here on it is unknown.
            for target in &hidden {
                super::assign(&mut s.env, target, Value::unknown(), span);
            }
            let recv = if receiver.is_some() { Some(vals.remove(0)) } else { None };
            let spread_names;
            self.open_call =
                spreads && vals.iter().zip(&spread).any(|(v, s)| *s && !matches!(v, Value::Array(_)));
            let (vals, names) = if spreads {
                let (v, n) = spread_out(vals, &names, &spread);
                spread_names = n;
                (v, &spread_names)
            } else {
                (vals, &names)
            };
            // `this.events.emit("message", reply)`: the listeners registered for it run.
            if let Some(emitter) = callee.strip_suffix(".emit")
                && let Some(Value::Str(event)) = vals.first()
            {
                let class = match s.env.get("self") {
                    Some(Value::Instance(c, ..)) => Some(c.to_string()),
                    _ => None,
                };
                let handlers = self.prog.listeners_for(emitter, event, self.here(), class.as_deref());
                if !handlers.is_empty() {
                    out.extend(self.run_listeners(s, &handlers, &vals[1..], span));
                    continue;
                }
            }
            // An output buffer read: empty when the path wrote nothing since it was made;
            // else what was written may be in it.
            if let Some(Value::Captured(made)) = recv {
                let name = crate::lower::last_segment(callee);
                let written: Vec<Value> = s.effects[made.min(s.effects.len())..]
                    .iter()
                    .filter_map(|e| match e {
                        Effect::Emit { value, .. } | Effect::Printed { value, .. } => Some(value.clone()),
                        _ => None,
                    })
                    .collect();
                let empty = written.is_empty();
                let value = if crate::lower::CAPTURE_LENGTH.contains(&name) || name == "len" {
                    Some(if empty { Value::Int(0) } else { Value::unknown() })
                } else if crate::lower::CAPTURE_EMPTINESS.contains(&name) {
                    Some(if empty { Value::Bool(true) } else { Value::unknown() })
                } else if crate::lower::CAPTURE_CONTENTS.contains(&name) {
                    Some(match written.as_slice() {
                        [] => Value::Str(String::new()),
                        // One write: the buffer holds what it wrote.
                        [one] => one.clone(),
                        _ => Value::Unknown(Rc::new(written)),
                    })
                } else {
                    None
                };
                if let Some(value) = value {
                    out.push((s, value));
                    continue;
                }
            }
            // `responses.is_empty()`, `responses.len()` on a list the path holds (Rust's
            // methods; the other languages' builtins are `len(xs)`, `count($xs)`).
            if let Some(Value::Array(items)) = &recv
                && args.is_empty()
            {
                let value = match crate::lower::last_segment(callee) {
                    "is_empty" => Some(Value::Bool(items.is_empty())),
                    "len" => Some(Value::Int(items.len() as i64)),
                    _ => None,
                };
                if let Some(value) = value {
                    out.push((s, value));
                    continue;
                }
            }
            // Other changes to a list or buffer in place (`responses.extend(more)`): what
            // it holds then is unknown, carrying what it held and what was added.
            if let Some(list @ (Value::Array(_) | Value::Captured(_))) = &recv
                && let Some(Expr::Var(name)) = receiver
                && LIST_MUTATORS.contains(&crate::lower::last_segment(callee))
            {
                let mut parts = match list {
                    Value::Array(items) => items.as_ref().clone(),
                    _ => Vec::new(),
                };
                parts.extend(vals.iter().cloned());
                let mut s = s;
                super::assign(&mut s.env, name, Value::Unknown(Rc::new(parts)), span);
                out.push((s, Value::Null));
                continue;
            }
            // `payload.as_array()` on the decoded message: a probe is one object, not a
            // batch (as `Array.isArray(body)` and `isinstance(body, list)` say).
            if matches!(recv, Some(Value::Message)) {
                match crate::lower::last_segment(callee) {
                    "as_array" | "as_array_mut" => {
                        out.push((s, Value::Null));
                        continue;
                    }
                    "is_array" => {
                        self.tested_batch = true;
                        out.push((s, Value::Bool(false)));
                        continue;
                    }
                    "is_object" => {
                        out.push((s, Value::Bool(true)));
                        continue;
                    }
                    _ => {}
                }
            }
            // `strings.TrimSpace(string(req.ID))`, `trim(strval($id))`: the id as text. A
            // present id's text is never empty nor `null`; an absent one's is what the
            // language makes of nothing (Go's empty raw JSON, PHP's null: "").
            if recv.is_none()
                && let Some(id @ (Value::Id | Value::NoId | Value::Null)) = vals.first()
                && crate::lower::string_fold(callee).is_some()
                && self.resolve_callee(callee).is_none()
            {
                use crate::model::Language;
                let language = self.prog.file_of(self.here()).language;
                let text = match (id, language) {
                    (Value::Id, _) => Value::Id,
                    (_, Language::Go | Language::Php) => Value::Str(String::new()),
                    (_, Language::Python) => Value::Str("None".to_string()),
                    // `String(null)`; a missing id may be `undefined` as well.
                    (Value::Null, Language::JavaScript | Language::TypeScript) => {
                        Value::Str("null".to_string())
                    }
                    _ => Value::unknown(),
                };
                out.push((s, text));
                continue;
            }
            // `method.replace("/", "_")`, `str_replace('.', '/', $method)`: the known text
            // with the pattern replaced.
            if let Some(replaced) = self.replaced(callee, recv.as_ref(), &vals) {
                out.push((s, replaced));
                continue;
            }
            // `method.split("/")`, `explode('/', $method)`: the known text's parts.
            if let Some(parts) = self.split(callee, recv.as_ref(), &vals) {
                out.push((s, parts));
                continue;
            }
            // `strtolower(trim($method))`, `strings.ToLower(req.Method)`: the same name.
            if recv.is_none()
                && let Some(fold) = crate::lower::string_fold(callee)
                && let Some(name @ (Value::Method(_) | Value::Str(_) | Value::Encoded)) = vals.first()
                && self.resolve_callee(callee).is_none()
            {
                use crate::lower::Fold;
                let name = match (name, fold) {
                    (Value::Str(text), Fold::Lower) => Value::Str(text.to_lowercase()),
                    (Value::Str(text), Fold::Trim) => Value::Str(text.trim().to_string()),
                    (other, _) => other.clone(),
                };
                out.push((s, name));
                continue;
            }
            // `ProtocolVersion::try_from(offered)`: a conversion into a type of the
            // protocol's versions succeeds only for a version it lists, so what comes
            // out of it is a checked version (whether it succeeds is not known here).
            if version_conversion(callee) {
                let checked = vals.iter().map(super::branch::checked).collect();
                out.push((s, Value::Unknown(Rc::new(checked))));
                continue;
            }
            // `result.model_dump()` on a model built from its fields (see the lowering's
            // `model_types`): those fields, less the ones left out as None when asked.
            if let Some(Value::Object(fields)) = &recv
                && SERIALISERS.contains(&crate::lower::last_segment(callee))
            {
                let drop_none = args.iter().any(|a| matches!(a, Expr::Named { name, value } if name == "exclude_none" && matches!(value.as_ref(), Expr::Bool(true))));
                let kept: Vec<(String, Value)> = fields
                    .iter()
                    .filter(|(_, v)| !(drop_none && matches!(v, Value::Null)))
                    .cloned()
                    .collect();
                out.push((s, Value::Object(Rc::new(kept))));
                continue;
            }
            // `t.Start(h)` on one of several instances of the code's classes (a transport
            // chosen at run time, the paths that chose joined): each runs its class's method.
            if let Some(held @ Value::Unknown(_)) = &recv
                && let Some(targets) = self.instance_methods(held, crate::lower::last_segment(callee))
            {
                for (this, id) in targets {
                    let mut bound = self.bind(id, vals.clone(), names);
                    self.push_self(id, &mut bound, this);
                    out.extend(self.apply(s.clone(), id, bound, span));
                }
                continue;
            }
            // `obj.method(...)` on an instance: its class's method, with `self` bound.
            if let Some(Value::Instance(class, _, _)) = &recv {
                let name = crate::lower::last_segment(callee);
                if let Some(id) = self.prog.method(class, name, self.here()) {
                    let mut bound = self.bind(id, vals, names);
                    self.push_self(id, &mut bound, recv.clone().unwrap_or_else(Value::unknown));
                    out.extend(self.apply(s, id, bound, span));
                    continue;
                }
                if SERIALISERS.contains(&name) {
                    out.push((s, recv.as_ref().map(Value::serialised).unwrap_or_else(Value::unknown)));
                    continue;
                }
            }
            // `Model(id=..., result=...)`, `new Handler(...)`: an instance of a class of the scanned code.
            // `new self(...)`, `new static(...)`, `cls(...)`: the class the caller belongs to.
            let own_class = matches!(callee, "self" | "static" | "cls")
                .then(|| self.prog.function(self.here()).owner.clone())
                .flatten();
            let class_name = own_class.as_deref().unwrap_or(callee);
            // (Not an enum's member looked up by value: see below.)
            let here = self.here();
            let enum_lookup =
                self.prog.global(&format!("{class_name}.{}", crate::lower::ENUM_VALUES), here).is_some();
            if recv.is_none()
                && !enum_lookup
                && (own_class.is_some() || self.resolve_callee(callee).is_none())
                && let Some(class) = self.prog.class(class_name, self.here())
            {
                out.extend(self.construct(s, class, vals, names, span));
                continue;
            }
            // `super().to_dict()` in an override: the base's method on the same instance;
            // a serialiser no base of the scanned code defines is the library's (pydantic's
            // `model_dump`), which writes the instance's fields.
            if recv.is_none()
                && let Some(name) = callee.strip_prefix(crate::lower::SUPER_CALL)
                && let Some(this @ Value::Instance(..)) = s.env.get("self").cloned()
            {
                let owner = self.prog.function(self.here()).owner.clone();
                let bases = owner
                    .and_then(|o| self.prog.class(&o, self.here()))
                    .map(|c| c.bases.clone())
                    .unwrap_or_default();
                let base = bases.iter().find_map(|b| self.prog.method(b, name, self.here()));
                match base {
                    Some(id) => {
                        let mut bound = self.bind(id, vals, names);
                        self.push_self(id, &mut bound, this);
                        out.extend(self.apply(s, id, bound, span));
                    }
                    None if SERIALISERS.contains(&name) => out.push((s, this.serialised())),
                    // `super().__init__(id=id, result=result)` in a model's own constructor
                    // whose bases define none in the scanned code (pydantic's `BaseModel`):
                    // the library's, which sets the declared fields named.
                    None if name == "__init__"
                        && let Value::Instance(class, fields, at) = &this
                        && let Some(def) = self.prog.class(class, self.here()) =>
                    {
                        let (_, declared) = self.declared_fields(def, &Value::Null);
                        let mut fields = fields.as_ref().clone();
                        for (v, n) in vals.into_iter().zip(names.iter().copied()) {
                            let Some(n) = n.filter(|n| declared.contains(n)) else { continue };
                            match fields.iter_mut().find(|(k, _)| k == n) {
                                Some((_, slot)) => *slot = v,
                                None => fields.push((n.to_string(), v)),
                            }
                        }
                        let mut s = s;
                        s.env.insert(SELF.into(), Value::Instance(class.clone(), Rc::new(fields), *at));
                        out.push((s, Value::Null));
                    }
                    None => out.push((s, Value::unknown())),
                }
                continue;
            }
            // `$this->supportedMethod()` run on an instance: its class's method (a
            // subclass's override of a base's), with the instance as its `self`, so that
            // what the instance holds (`this.process`, set or not) decides there too.
            if recv.is_none()
                && let Some(name) = callee.strip_prefix("self.").or_else(|| callee.strip_prefix("this."))
                && !name.contains(['.', '['])
                && let Some(Value::Instance(class, ..)) = s.env.get("self")
                && let Some(id) = self.prog.method(class, name, self.here())
            {
                let this = s.env.get("self").cloned().unwrap_or_else(Value::unknown);
                let mut bound = self.bind(id, vals, names);
                self.push_self(id, &mut bound, this);
                out.extend(self.apply_with(s, id, bound, span, &[(SELF.into(), SELF.into())]));
                continue;
            }
            // `self.model_dump_json()` in a method of a model whose class does not define
            // it: the library's serialiser, which writes the instance's fields.
            if recv.is_none()
                && let Some(name) = callee.strip_prefix("self.").or_else(|| callee.strip_prefix("this."))
                && SERIALISERS.contains(&name)
                && let Some(this @ Value::Instance(..)) = s.env.get("self").cloned()
            {
                out.push((s, this.serialised()));
                continue;
            }
            // `Method::tryFrom($name)` on a backed enum of the scanned code: the case with
            // that value (the value itself), else null (`from` raises instead).
            // Python's `Method(name)` on an `Enum` subclass: the member of that value, or
            // a `ValueError` (as PHP's `from`).
            let python_enum = (!callee.contains(['.', '(', '['])
                && self.prog.file_of(self.here()).language == crate::model::Language::Python)
                .then_some((callee, "from"));
            if let Some((class, op @ ("tryFrom" | "from"))) = callee.rsplit_once('.').or(python_enum)
                && let Some(values) =
                    self.prog.global(&format!("{class}.{}", crate::lower::ENUM_VALUES), self.here())
                && let Expr::Array { items, .. } = values
            {
                let wanted = vals.first().cloned().unwrap_or_else(Value::unknown);
                let mut s = s;
                let found = match &wanted {
                    Value::Method(m) | Value::Str(m) => {
                        Some(items.iter().any(|i| matches!(i, Expr::Str(v) if v == m)))
                    }
                    _ => None,
                };
                let v = match found {
                    Some(true) => wanted,
                    Some(false) if op == "from" => {
                        s.status = Status::Raised(Value::unknown());
                        Value::unknown()
                    }
                    Some(false) => Value::Null,
                    None => Value::unknown(),
                };
                out.push((s, v));
                continue;
            }
            // `messages.map(handle)` over a list the path knows: each item handed to the
            // function, the list of what it returns; `replies.filter(r => r !== null)`:
            // the items the predicate is known to keep.
            let each = crate::lower::last_segment(callee);
            if let Some(Value::Array(items)) = &recv
                && matches!(each, "map" | "filter")
                && (1..=MAPPED_ITEMS).contains(&items.len())
                && let [Value::Func(f)] = vals.as_slice()
            {
                out.extend(self.each_item(s, *f, items, each == "filter", span));
                continue;
            }
            // `replies.filter(Boolean)` over a list whose items' truth the path knows.
            if let Some(Value::Array(items)) = &recv
                && crate::lower::last_segment(callee) == "filter"
                && matches!(args, [Expr::Var(b)] if b == "Boolean")
                && let Some(kept) =
                    items.iter().map(|i| i.truthy().map(|t| t.then(|| i.clone()))).collect::<Option<Vec<_>>>()
            {
                out.push((s, Value::Array(Rc::new(kept.into_iter().flatten().collect()))));
                continue;
            }
            if crate::lower::last_segment(callee) == "find"
                && recv.as_ref().is_some_and(|r| !matches!(r, Value::Array(items) if !items.is_empty()))
                && let [Value::Func(pred)] = vals.as_slice()
                && let Some(found) = self.find_strategy(&s, *pred, span)
            {
                out.extend(found);
                continue;
            }
            // `InitParams::from($data)`, `Config.load()`: a static method of a class the
            // scanned code defines, by the class written (not any method of that name).
            if receiver.is_some()
                && let Some((class, _)) = callee.rsplit_once('.')
                && !class.contains(['.', '(', '$'])
                && !s.env.contains_key(class)
                && let Some(def) = self.prog.class(class, self.here())
                && let Some(id) = self.prog.method(&def.name, crate::lower::last_segment(callee), self.here())
            {
                let vals = self.bind(id, vals, names);
                let renames = self.arg_names(id, args);
                out.extend(self.apply_with(s, id, vals, span, &renames));
                continue;
            }
            // `$this->system->ping()`, `self.connection.send(r)` on a field the path does not
            // hold: the method of the class the field is declared with (see `fields.rs`).
            if let Some((id, class)) = self.field_method(receiver, recv.as_ref(), callee) {
                let mut bound = self.bind(id, vals, names);
                let this = self.field_instance(class, span);
                self.push_self(id, &mut bound, this);
                out.extend(self.call_on_field(s, id, bound, span));
                continue;
            }
            // `msg.ID.IsEmpty()` on the message's id, whose Go type (`ID RequestID`) the
            // scanned code declares with that method: the method, on the id.
            if let Some(id_value @ (Value::Id | Value::NoId)) = &recv
                && self.prog.file_of(self.here()).language == crate::model::Language::Go
                && let Some(id) = self.prog.id_wrapper_method(crate::lower::last_segment(callee), self.here())
            {
                let mut bound = self.bind(id, vals, names);
                self.push_self(id, &mut bound, id_value.clone());
                out.extend(self.apply(s, id, bound, span));
                continue;
            }
            // `$this->result()` in a base class's method, on an instance of a subclass:
            // the subclass's override (the base may only declare it, abstract).
            let overridden = match (callee.split_once('.'), s.env.get("self")) {
                (Some(("self" | "this", name)), Some(Value::Instance(class, ..))) if !name.contains('.') => {
                    self.prog.method(class, name, self.here())
                }
                _ => None,
            };
            let target = match (callee, &recv) {
                _ if overridden.is_some() => overridden,
                ("()", Some(Value::Func(id))) => Some(*id),
                // PHP names a function by a string: `$handlers[$m]()` holding `'on_ping'`.
                ("()", Some(Value::Str(name)))
                    if self.prog.file_of(self.here()).language == crate::model::Language::Php =>
                {
                    self.prog.resolve(name, self.here())
                }
                // PHP's callable arrays: `[$this, 'onPing']` names a method of the
                // instance, `[Handlers::class, 'onPing']` a static method of the class.
                ("()", Some(Value::Array(items)))
                    if self.prog.file_of(self.here()).language == crate::model::Language::Php =>
                {
                    self.callable_array(&s, items)
                }
                ("()", _) => None,
                _ => match s.env.get(callee) {
                    Some(Value::Func(id)) => Some(*id),
                    Some(_) => None,
                    None => self.resolve_callee(callee).or_else(|| self.object_function(&s, callee)),
                },
            };
            // `const mcp = makeEndpoint(opts)` at module level, then `mcp(req, res)`: the
            // function the factory returned.
            let target = match target {
                None if receiver.is_none()
                    && !callee.contains(['.', '(', '['])
                    && !s.env.contains_key(callee)
                    && matches!(self.prog.global(callee, self.here()), Some(Expr::Call { .. })) =>
                {
                    match self.var(&s, callee) {
                        Value::Func(id) => Some(id),
                        _ => None,
                    }
                }
                // `const gate = makeGate(opts)` in the function around a named handler,
                // then `gate(req, res, dispatch)`: the function the factory returns.
                None if receiver.is_none()
                    && !callee.contains(['.', '(', '['])
                    && !s.env.contains_key(callee)
                    && let Some(made) = self.prog.made_function(callee, self.here()) =>
                {
                    Some(made)
                }
                // `self.on_message(m)`: the function a setter of the class stored there
                // (Go's `t.handler(req)` has its receiver written, `self`).
                None if receiver.is_none_or(|r| matches!(r, Expr::Var(v) if v == "self" || v == "this"))
                    && !matches!(recv, Some(Value::Instance(..)))
                    && let Some(field) = crate::model::own_field(callee) =>
                {
                    self.prog.stored_callback(self.here(), field)
                }
                t => t,
            };
            // Rust has no default or variadic arguments: `path.join("x")` on a value is
            // never the code's own `fn join(self)`; and `line.trim().is_empty()` or
            // `header.to_str()` on a value not of the code's own making (an instance, a
            // struct or object it built, an enum's variant) is the standard library's.
            let target = target.filter(|&id| {
                let f = self.prog.function(id);
                let rust_on_value = recv.is_some()
                    && callee.contains('.')
                    && !callee.starts_with("self.")
                    && self.prog.file_of(id).language == crate::model::Language::Rust;
                !rust_on_value
                    || (f.params.iter().filter(|p| p.as_str() != "self").count() == vals.len()
                        && (matches!(
                            recv,
                            Some(Value::Instance(..) | Value::Variant(..) | Value::Object(_))
                        ) || !crate::lower::rust_std_method(crate::lower::last_segment(callee))))
            });
            if let Some(id) = target {
                let mut vals = self.bind(id, vals, names);
                // `[$this, 'onPing']($params)`: the method runs on that instance.
                if let Some(Value::Array(items)) = &recv
                    && callee == "()"
                    && self.prog.function(id).owner.is_some()
                {
                    let this = match items.first() {
                        Some(v @ Value::Instance(..)) => Some(v.clone()),
                        _ => s.env.get("self").filter(|v| matches!(v, Value::Instance(..))).cloned(),
                    };
                    if let Some(this) = this {
                        self.push_self(id, &mut vals, this);
                    }
                }
                // `request.is_notification()` on the message: the method's `self` is the
                // message (as an instance's methods get the instance).
                if let Some(Value::Message) = &recv
                    && self.prog.function(id).owner.is_some()
                {
                    self.push_self(id, &mut vals, Value::Message);
                }
                // `outcome.encode()` on a variant of the code's own enum: `self` is it.
                if let Some(this @ Value::Variant(..)) = &recv
                    && self.prog.function(id).owner.is_some()
                {
                    self.push_self(id, &mut vals, this.clone());
                }
                // `req.is_notification()` on a Rust struct value (`Request { id, .. }`,
                // built as an object of its fields): the method's `self` is that value.
                if let Some(this @ (Value::Object(_) | Value::Reply(_))) = &recv
                    && self.prog.function(id).owner.is_some()
                    && self.prog.file_of(id).language == crate::model::Language::Rust
                {
                    self.push_self(id, &mut vals, this.clone());
                }
                let renames = self.arg_names(id, args);
                out.extend(self.apply_with(s, id, vals, span, &renames));
                continue;
            }
            // `result()` on a parameter handed a closure (`with_session(.., || json!({}))`):
            // a Rust closure is lowered as its body where it is written, so the parameter
            // holds the closure's value, which calling it gives.
            if recv.is_none()
                && vals.is_empty()
                && self.prog.file_of(self.here()).language == crate::model::Language::Rust
                && self.prog.function(self.here()).params.iter().any(|p| p == callee)
                && let Some(v) = s.env.get(callee).filter(|v| !matches!(v, Value::Func(_)))
            {
                let v = v.clone();
                out.push((s, v));
                continue;
            }
            let name = crate::lower::last_segment(callee);
            // `result.model_dump(exclude_none=True)` on an object built from a library's
            // model: its members, as the serialiser writes them.
            if SERIALISERS.contains(&name)
                && let Some(obj @ (Value::Object(_) | Value::Reply(_))) = &recv
            {
                out.push((s, obj.clone()));
                continue;
            }
            // `RpcError(-32601, "...")`, `ErrorObject::new(-32601, ...)` from code the
            // scan cannot see: an error object with its code. (A constructor of the
            // scanned code was followed above and builds what it builds.)
            if (name == "new" || name.starts_with(|c: char| c.is_ascii_uppercase()))
                && let Some(code) = vals.iter().find_map(|v| match v {
                    Value::Int(n) if (-32768..=-32000).contains(n) => Some(*n),
                    _ => None,
                })
            {
                out.push((s, Value::Object(Rc::new(vec![("code".to_string(), Value::Int(code))]))));
                continue;
            }
            // `InitializeResult(protocolVersion=v, capabilities=c)`: a model of a library
            // the scan cannot see (pydantic, the SDK's types) built from its fields by
            // keyword is an object with those members (a reply when shaped as one).
            if name.starts_with(|c: char| c.is_ascii_uppercase())
                && !vals.is_empty()
                && names.len() == vals.len()
                && names.iter().all(Option::is_some)
            {
                let entries: Vec<(String, Value)> = names
                    .iter()
                    .zip(vals.iter())
                    .map(|(n, v)| (n.unwrap_or_default().to_string(), v.clone()))
                    .collect();
                out.push((s, crate::value::promote(Value::Object(Rc::new(entries)), span)));
                continue;
            }
            // `new $class(...)`: the class the value names, when it is one of the code's own.
            if callee == crate::lower::NEW_DYNAMIC {
                let class = match vals.first() {
                    Some(Value::Str(name)) => self.prog.class(name, self.here()),
                    _ => None,
                };
                match class {
                    Some(class) => {
                        let args: Vec<Value> = vals[1..].to_vec();
                        let names = vec![None; args.len()];
                        out.extend(self.construct(s, class, args, &names, span));
                    }
                    None => out.push((s, Value::unknown())),
                }
                continue;
            }
            if callee == crate::lower::STRUCT_LITERAL
                && let [Value::Str(ty), built] = vals.as_slice()
            {
                // Fields renamed by the struct's own serde names; a literal the general
                // renames already made a reply stays that reply.
                let value = match built {
                    Value::Object(fields) => {
                        let mut renamed: Vec<(String, Value)> = Vec::with_capacity(fields.len());
                        for (k, v) in fields.iter() {
                            let member = self.prog.struct_json_name(ty, k, self.here()).unwrap_or(k);
                            match (member, v) {
                                // A flattened field's members are the struct's own.
                                (crate::lower::FLATTENED, Value::Object(inner)) => {
                                    renamed.extend(inner.iter().cloned())
                                }
                                (crate::lower::FLATTENED, _) => renamed.push((k.clone(), v.clone())),
                                _ => renamed.push((member.to_string(), v.clone())),
                            }
                        }
                        crate::value::promote(Value::Object(Rc::new(renamed)), span)
                    }
                    other => other.clone(),
                };
                out.push((s, value));
                continue;
            }
            if callee == crate::lower::ENCODED_MESSAGE {
                out.push((s, Value::Encoded));
                continue;
            }
            // JSON text put into formatted JSON as it is: its value.
            if callee == crate::lower::JSON_TEXT {
                let value = match vals.first() {
                    Some(Value::Str(text)) => crate::lower::json_text(text)
                        .and_then(|e| self.eval_aside(&e))
                        .and_then(|mut v| v.pop())
                        .unwrap_or_else(Value::unknown),
                    Some(other) => other.clone(),
                    None => Value::unknown(),
                };
                out.push((s, value));
                continue;
            }
            if callee == crate::lower::SERIALISED {
                let encoded = match vals.first() {
                    Some(Value::Str(text)) => {
                        Value::Str(serde_json::to_string(text).unwrap_or_else(|_| text.clone()))
                    }
                    // `wp_json_encode($data)` of data that is null: the text `null`.
                    Some(Value::Null) => Value::Str("null".into()),
                    Some(v) => v.clone(),
                    None => Value::unknown(),
                };
                out.push((s, encoded));
                continue;
            }
            if callee == crate::lower::READ_ALL {
                let read = match vals.first() {
                    Some(Value::Encoded) => Value::Encoded,
                    _ => Value::unknown(),
                };
                out.push((s, read));
                continue;
            }
            // `var resp Response` of a struct of the package, `&Sender{}`, `T{..}`: a value of
            // the type (an instance when it has methods); another type's zero value is unknown.
            let built = match vals.as_slice() {
                [Value::Str(ty)] if callee == crate::lower::ZERO_OF => {
                    Some((ty, self.prog.package_struct(ty, self.here()).then(|| Rc::new(Vec::new()))))
                }
                [Value::Str(ty), rest @ ..] if callee == crate::lower::NEW_OBJECT => match rest {
                    [] => Some((ty, Some(Rc::new(Vec::new())))),
                    [Value::Object(fields)] => Some((ty, Some(fields.clone()))),
                    _ => None,
                },
                _ => None,
            };
            if let Some((ty, fields)) = built {
                let value = match fields {
                    None => Value::unknown(),
                    Some(fields) if self.prog.has_methods(ty, self.here()) => {
                        Value::Instance(ty.as_str().into(), fields, span)
                    }
                    Some(fields) => Value::Object(fields),
                };
                out.push((s, value));
                continue;
            }
            // The message decoded into a type of the scanned code: a type whose `id`
            // is required does not take a notification.
            if callee == crate::lower::DECODE_AS
                && let [Value::Str(ty), Value::Str(how), decoded] = vals.as_slice()
            {
                let mut s = s;
                // A framework's extractor: refused with this status (see `DECODE_REJECTS`).
                let rejects: Option<u16> =
                    how.strip_prefix(crate::lower::DECODE_REJECTS).and_then(|status| status.parse().ok());
                // An enum tagged by `method`: the variant the probe's method names, or a
                // decoding error when none does (and no `#[serde(other)]` variant).
                if let Some(Expr::Object { entries, .. }) = self.prog.global(
                    &format!("{}.{}", crate::lower::last_segment(ty), crate::lower::TAGGED_BY_METHOD),
                    self.here(),
                ) {
                    let method = self.probe.method.as_str();
                    let variant = entries
                        .iter()
                        .find(|(wire, _)| wire == method)
                        .or_else(|| entries.iter().find(|(wire, _)| wire.is_empty()));
                    s.saw_message = true;
                    self.touched_method = true;
                    let v = match variant {
                        Some((_, Expr::Str(name))) => {
                            let variant = Value::Variant(name.clone(), Some(Rc::new(Value::Message)));
                            if rejects.is_some() {
                                variant
                            } else {
                                Value::Variant("Ok".into(), Some(Rc::new(variant)))
                            }
                        }
                        _ if let Some(status) = rejects => {
                            s.status = Status::Returned(refused_by_extractor(status, span));
                            Value::unknown()
                        }
                        _ => Value::Variant("Err".into(), Some(Rc::new(Value::unknown()))),
                    };
                    out.push((s, v));
                    continue;
                }
                // An enum of unit variants decoded from the method's name
                // (`from_value::<Method>(Value::String(method))`): the variant that
                // name is, or a decoding error when none is.
                if let Value::Variant(ok, Some(inner)) = decoded
                    && ok == "Ok"
                    && let Value::Method(m) = inner.as_ref()
                    && let Some(Expr::Object { entries, .. }) = self.prog.global(
                        &format!("{}.{}", crate::lower::last_segment(ty), crate::lower::UNIT_BY_NAME),
                        self.here(),
                    )
                {
                    let variant = entries
                        .iter()
                        .find(|(wire, _)| wire == m)
                        .or_else(|| entries.iter().find(|(wire, _)| wire.is_empty()));
                    // (The variant keeps the name it was decoded from: a branch on it
                    // is a branch on the method.)
                    let mut s = s;
                    s.saw_message = true;
                    self.touched_method = true;
                    let v = match variant {
                        Some((_, Expr::Str(name))) => {
                            let named = Value::Variant(name.clone(), Some(Rc::new(Value::Method(m.clone()))));
                            Value::Variant("Ok".into(), Some(Rc::new(named)))
                        }
                        _ => Value::Variant("Err".into(), Some(Rc::new(Value::unknown()))),
                    };
                    out.push((s, v));
                    continue;
                }
                if !self.probe.has_id && self.prog.requires_id(ty, self.here()) {
                    s.saw_message = true;
                    self.touched_id = true;
                    if let Some(status) = rejects {
                        s.status = Status::Returned(refused_by_extractor(status, span));
                        out.push((s, Value::unknown()));
                    } else if how == "raise" {
                        s.status = Status::Raised(Value::unknown());
                        out.push((s, Value::unknown()));
                    } else {
                        out.push((s, Value::Variant("Err".into(), Some(Rc::new(Value::unknown())))));
                    }
                } else {
                    out.push((s, decoded.clone()));
                }
                continue;
            }
            if callee == crate::lower::CAPTURE {
                let made = s.effects.len();
                out.push((s, Value::Captured(made)));
                continue;
            }
            // `[dispatch(m) for m in batch if m]`: over a list the path knows, the kept
            // items each handed to the item function; else what the item function makes
            // of an unknown item, as part of a value the scan does not know.
            if callee == crate::lower::COMPREHENSION
                && let [source, Value::Func(item), test] = vals.as_slice()
            {
                let (item, test) = (*item, test.clone());
                match source {
                    Value::Array(items) if (1..=MAPPED_ITEMS).contains(&items.len()) => {
                        let kept = match test {
                            Value::Func(t) => self.each_item(s, t, items, true, span),
                            _ => vec![(s, source.clone())],
                        };
                        for (s2, list) in kept {
                            match list {
                                Value::Array(ref kept) if kept.is_empty() => out.push((s2, list)),
                                Value::Array(kept) => {
                                    out.extend(self.each_item(s2, item, &kept, false, span))
                                }
                                other => out.push((s2, other)),
                            }
                        }
                    }
                    Value::Array(items) if items.is_empty() => out.push((s, source.clone())),
                    _ => {
                        for (s2, v) in self.apply(s, item, vec![Value::unknown()], span) {
                            out.push((s2, Value::Unknown(Rc::new(vec![v]))));
                        }
                    }
                }
                continue;
            }
            // `Array.isArray(body)`, `isinstance(data, list)` on the decoded message: the
            // code reads batches, which a batch probe then follows.
            if callee == crate::lower::IS_KIND && matches!(vals.first(), Some(Value::Message)) {
                self.tested_batch = true;
            }
            if let Some(v) = builtin(callee, &vals, span) {
                out.push((s, v));
                continue;
            }
            if callee == crate::lower::EXCEPTION
                && let Some(Value::Str(class)) = vals.first()
            {
                let fields = match vals.get(1) {
                    Some(Value::Object(fields)) => fields.clone(),
                    _ => Rc::new(Vec::new()),
                };
                out.push((s, Value::Instance(class.as_str().into(), fields, span)));
                continue;
            }
            if callee == crate::lower::CATCHES
                && let Some((raised, classes)) = vals.split_first()
            {
                out.push((s, Value::Bool(self.catches(raised, classes))));
                continue;
            }
            // Maps merged (PHP `array_merge($base, $attributes)`): their members, the later
            // ones winning; what they make together may be a reply (`jsonrpc`, `id`, `result`).
            if callee == crate::lower::MERGE
                && vals.len() >= 2
                && vals.iter().all(|v| matches!(v, Value::Object(_)))
            {
                let mut merged: Vec<(String, Value)> = Vec::new();
                for v in &vals {
                    let Value::Object(entries) = v else { continue };
                    for (k, e) in entries.iter() {
                        match merged.iter_mut().find(|(mk, _)| mk == k) {
                            Some((_, slot)) => *slot = e.clone(),
                            None => merged.push((k.clone(), e.clone())),
                        }
                    }
                }
                out.push((s, crate::value::promote(Value::Object(Rc::new(merged)), span)));
                continue;
            }
            // `Request.model_validate(msg)`, `RequestSchema.parse(msg)`: the message read
            // into a model by a library (a well-formed probe validates): the message.
            if MODEL_READERS.contains(&name) && vals.iter().any(|v| matches!(v, Value::Message)) {
                let mut s = s;
                let qualifier = callee.strip_suffix(name).unwrap_or("").trim_end_matches(['.', ':']);
                let class = crate::lower::last_segment(qualifier);
                // A model whose `id` is required does not take a notification: the
                // library raises its validation error.
                if class.starts_with(|c: char| c.is_ascii_uppercase())
                    && !self.probe.has_id
                    && self.prog.requires_id(class, self.here())
                {
                    s.saw_message = true;
                    self.touched_id = true;
                    s.status = Status::Raised(Value::unknown());
                    out.push((s, Value::unknown()));
                    continue;
                }
                if class.starts_with(|c: char| c.is_ascii_uppercase()) {
                    s.effects.push(Effect::ReadAs(class.into()));
                }
                out.push((s, Value::Message));
                continue;
            }
            // A response's getters (`$response->get_data()` of WordPress, `getStatusCode()`,
            // `getContent()`): what it holds; data given as null is null.
            if let Some(Value::Http(h)) = &recv
                && vals.is_empty()
            {
                let got = match name {
                    "get_data" | "getData" => Some(h.body.clone().unwrap_or(Value::Null)),
                    "get_status" | "getStatus" | "getStatusCode" | "get_status_code" => {
                        crate::value::http_member(h, "status")
                    }
                    "getContent" | "get_content" | "getBody" | "get_body" => {
                        crate::value::http_member(h, "body")
                    }
                    _ => None,
                };
                if let Some(v) = got {
                    out.push((s, v));
                    continue;
                }
            }
            // `builder.status(code)`, `.header(..)`, `.body(bytes)` on a response held in a
            // variable (`let mut builder = Response::builder().status(status)`): the
            // response as the builder leaves it.
            if let Some(Value::Http(h)) = &recv
                && let Some(built) = build_http(name, h, &vals)
            {
                out.push((s, built));
                continue;
            }
            if let Some(v) = recv.as_ref().and_then(|r| unwrap_with_default(name, r, &vals)) {
                out.push((s, v));
                continue;
            }
            let mut all = vals;
            all.extend(recv);
            // Text written into a writer of the code's own type (`serde_json::to_writer(&mut
            // counter, &v)` into a byte counter implementing `Write`, `print(x, file=self.log)`):
            // it goes where that type's `write` method sends it, which may be nowhere.
            if WRITES_INTO_DESTINATION.contains(&name)
                && let Some((at, writer)) = self.own_writer(args, receiver, &all)
            {
                let text = join(
                    &all.iter()
                        .enumerate()
                        .filter(|&(i, _)| i != at)
                        .map(|(_, v)| v.clone())
                        .collect::<Vec<_>>(),
                );
                let mut bound = self.bind(writer, vec![text], &[]);
                self.push_self(writer, &mut bound, all[at].clone());
                out.extend(
                    self.apply(s, writer, bound, span).into_iter().map(|(s2, _)| (s2, Value::unknown())),
                );
                continue;
            }
            let mut s = s;
            if name == crate::lower::LEND_STATUS {
                if let Some(Value::Http(h)) = all.first() {
                    s.effects.push(Effect::LentStatus { status: h.status, span });
                }
                out.push((s, Value::unknown()));
                continue;
            }
            // `inner.ServeHTTP(w, r)` on a handler from outside the scanned code (an SDK's
            // streamable-HTTP handler behind a hand-written front): it answers the request
            // with a status and body the scan cannot see.
            if name == "ServeHTTP"
                && args.len() == 2
                && self.prog.file_of(self.here()).language == crate::model::Language::Go
            {
                let answer = HttpValue { status: HttpStatus::Unknown, body: Some(Value::unknown()), span };
                s.effects.push(Effect::Emit { value: Value::Http(Rc::new(answer)), span });
                out.push((s, Value::unknown()));
                continue;
            }
            // `print(reply)`, `println!("{reply:?}")` in an HTTP handler: a log line on
            // the server's terminal.
            if self.http_entry && name == crate::lower::PRINT {
                let value = join(&all);
                if value.interesting() {
                    s.effects.push(Effect::Printed { value, span });
                }
                out.push((s, Value::unknown()));
                continue;
            }
            if self.is_sink(name) {
                let value = join(&all);
                // What goes out is a reply, or an envelope in a shape of its own (a
                // reply converted for another wire): a written answer the scan cannot read.
                if value.interesting() {
                    s.effects.push(Effect::Emit { value, span });
                } else if let Some(envelope) = all.iter().find(|v| v.foreign_envelope()) {
                    s.effects.push(Effect::Emit { value: envelope.clone(), span });
                } else if let Some(list) =
                    all.iter().find(|v| matches!(v, Value::Array(items) if items.is_empty()))
                    && self.lists_are_json()
                {
                    // An empty JSON array written out (`echo json_encode([])` for a batch
                    // of notifications): a batch's answer all the same. (A list holding
                    // other things is no answer the checks read.)
                    s.effects.push(Effect::Emit { value: list.clone(), span });
                } else if name == crate::lower::EMIT
                    && self.prog.file_of(self.here()).language == crate::model::Language::Php
                    && let [text @ Value::Str(t)] = all.as_slice()
                    && !t.is_empty()
                {
                    // Text a PHP script echoes (`echo wp_json_encode(null)`, the text
                    // `null`) is its answer's body.
                    s.effects.push(Effect::Emit { value: text.clone(), span });
                }
                out.push((s, Value::unknown()));
            } else {
                out.push((s, join(&all)));
            }
        }
        out
    }

    /// The caller's members a call may write without the caller seeing it: those a
    /// closure passed to it writes on variables it shares with the caller
    /// (`runMiddlewares(ctx, () => { ctx.response = r })`). A callee's writes on its
    /// own parameters come back on its paths (`apply_with`).
    fn hidden_writes(&mut self, st: &State, args: &[Expr]) -> Vec<String> {
        let mut out = Vec::new();
        for arg in args.iter().filter(|a| !matches!(a, Expr::Named { .. })) {
            let closure = match arg {
                Expr::FnRef(n) => self.prog.resolve(n, self.here()),
                Expr::Var(n) => match st.env.get(n.as_str()) {
                    Some(Value::Func(id)) => Some(*id),
                    Some(_) => None,
                    None => self.prog.resolve(n, self.here()),
                },
                _ => None,
            };
            if let Some(id) = closure {
                let params = &self.prog.function(id).params;
                out.extend(
                    self.prog
                        .member_writes(id)
                        .iter()
                        .filter(|t| !params.iter().any(|p| p == target_base(t)))
                        .map(|t| t.to_string()),
                );
            }
        }
        out.sort_unstable();
        out.dedup();
        out
    }

    /// The caller's variables passed for the parameters of `id`: (parameter, variable).
    fn arg_names(&self, id: FnId, args: &[Expr]) -> Vec<(String, String)> {
        let params = &self.prog.function(id).params;
        let plain = |e: &Expr| match e {
            Expr::Var(v) if !v.contains(['.', '[']) => Some(v.clone()),
            _ => None,
        };
        let mut out = Vec::new();
        let mut position = 0;
        for a in args {
            match a {
                Expr::Named { name, value } => {
                    if let Some(v) = plain(value) {
                        out.push((name.clone(), v));
                    }
                }
                other => {
                    if let (Some(p), Some(v)) = (params.get(position), plain(other)) {
                        out.push((p.clone(), v));
                    }
                    position += 1;
                }
            }
        }
        out
    }

    /// Calls a function with bound arguments and carries each outcome back onto the path.
    /// An `emit`: each listener runs in turn with the emitted values, on every path the
    /// one before it left. `emit` itself answers `true` (listeners were called).
    fn run_listeners(
        &mut self,
        s: State,
        handlers: &[FnId],
        args: &[Value],
        span: Span,
    ) -> Vec<(State, Value)> {
        let mut states = vec![s];
        for &h in handlers {
            let mut next = Vec::new();
            for st in states {
                next.extend(self.apply(st, h, args.to_vec(), span).into_iter().map(|(st, _)| st));
            }
            states = next;
        }
        states.into_iter().map(|st| (st, Value::Bool(true))).collect()
    }

    pub(super) fn apply(&mut self, s: State, id: FnId, args: Vec<Value>, span: Span) -> Vec<(State, Value)> {
        self.apply_with(s, id, args, span, &[])
    }

    /// `apply`, with the caller's variables passed for the callee's parameters: a
    /// member the callee writes on a parameter is written on the caller's variable.
    /// `(self, self)` among them: the callee runs on the caller's own instance.
    fn apply_with(
        &mut self,
        s: State,
        id: FnId,
        args: Vec<Value>,
        span: Span,
        renames: &[(String, String)],
    ) -> Vec<(State, Value)> {
        if self.beyond_prelude(s.saw_message, id) && !args.iter().any(|a| a.carries_message(4)) {
            if self.trace {
                let f = self.prog.function(id);
                eprintln!("  not followed before the message: {} ({})", f.name, self.prog.file_of(id).path);
            }
            return vec![(s, Value::unknown())];
        }
        let anchored = self.stack.last().is_some_and(|caller| self.anchors.contains(caller));
        let site = |v: &Value| if anchored { v.with_site(span) } else { v.clone() };
        // A function written inside the caller sees the caller's variables.
        if self.prog.capturing_function(id) == Some(self.here()) {
            self.closure_env = Some(self.captures(&s, id));
        } else if let Some(Some(made)) = self.closure_made.get(&id) {
            self.closure_env = Some(made.clone());
        }
        let outcomes = self.call_function(id, args);
        if outcomes.is_empty() {
            return vec![(s, Value::unknown())];
        }
        let callee_params = &self.prog.function(id).params;
        let caller = self.prog.function(self.here());
        let mut out = Vec::new();
        for o in outcomes.iter() {
            let mut s2 = s.clone();
            // Where the callee first looked at the message, among the caller's effects.
            let mut heard = None;
            for (i, e) in o.effects.iter().enumerate() {
                if o.heard == Some(i) {
                    heard = Some(s2.effects.len());
                }
                match e {
                    Effect::Emit { value, span: at } => {
                        s2.effects.push(Effect::Emit { value: site(value), span: *at })
                    }
                    // A closure's write on its outer function's variable: taken where
                    // that function is, passed on up until then.
                    Effect::Wrote { target, value, span: at }
                        if target.starts_with(super::CAPTURED_WRITE) =>
                    {
                        let rest = &target[super::CAPTURED_WRITE.len()..];
                        match rest.split_once(':') {
                            Some((owner, inner)) if owner.parse::<FnId>().ok() == Some(self.here()) => {
                                super::assign(&mut s2.env, inner, value.clone(), *at);
                            }
                            _ => s2.effects.push(e.clone()),
                        }
                    }
                    Effect::Wrote { target, value, span: at } => {
                        let write = (target.as_str(), value, *at);
                        super::take_write(&mut s2, write, callee_params, renames, caller)
                    }
                    other => s2.effects.push(other.clone()),
                }
            }
            // A method run on the caller's own instance (`$this->init()`) leaves it as the
            // method left it: the fields it set are set for the caller too.
            if renames.iter().any(|(p, v)| p == SELF && v == SELF)
                && let Some(this @ Value::Instance(..)) = &o.this
            {
                s2.env.insert(SELF.to_string(), this.clone());
                s2.env.insert("this".to_string(), this.clone());
            }
            s2.id_check = o.id_check.or(s2.id_check);
            s2.method_branch = o.method_branch.or(s2.method_branch);
            s2.prefix_check = o.prefix_check.or(s2.prefix_check);
            if o.heard == Some(o.effects.len()) {
                heard = Some(s2.effects.len());
            }
            s2.heard = s2.heard.or(heard);
            s2.saw_message |= o.saw_message;
            s2.blind = s2.blind.or(o.blind);
            for &(span, taken) in &o.route {
                s2.note_route(span, taken);
            }
            let value = site(&o.value);
            if o.raised {
                s2.status = Status::Raised(value.clone());
            } else if o.exited {
                s2.status = Status::Exited;
            }
            out.push((s2, value));
        }
        out
    }

    /// A new instance of `class`: the declared defaults (bases first), then the
    /// constructor run with `self` bound, or, without one, the arguments bound to the
    /// declared fields by position and name (dataclasses, pydantic models).
    pub(super) fn construct(
        &mut self,
        s: State,
        class: &crate::model::ClassDef,
        args: Vec<Value>,
        names: &[Option<&str>],
        span: Span,
    ) -> Vec<(State, Value)> {
        // A field whose default builds the class again (or a cycle of classes
        // doing so) ends at the call depth bound, as calls do: the value is unknown.
        if self.depth >= super::MAX_CALL_DEPTH {
            return vec![(s, Value::unknown())];
        }
        self.depth += 1;
        let out = self.construct_inner(s, class, args, names, span);
        self.depth -= 1;
        out
    }

    /// A class's declared fields with their defaults, bases first (a subclass's
    /// default overrides its base's), and their names.
    pub(super) fn declared_fields<'c>(
        &mut self,
        class: &'c crate::model::ClassDef,
        unset: &Value,
    ) -> (Vec<(String, Value)>, Vec<&'c str>)
    where
        'p: 'c,
    {
        let mut chain = vec![class];
        while let Some(base) =
            chain.last().and_then(|c| c.bases.first()).and_then(|b| self.prog.class(b, self.here()))
        {
            if chain.iter().any(|c| std::ptr::eq(*c, base)) || chain.len() > 8 {
                break;
            }
            chain.push(base);
        }
        let mut fields: Vec<(String, Value)> = Vec::new();
        let mut declared: Vec<&str> = Vec::new();
        for c in chain.iter().rev() {
            for (name, default) in &c.fields {
                let value = match default {
                    Some(e) => self
                        .eval(State::new(BTreeMap::new()), e)
                        .pop()
                        .map(|(_, v)| v)
                        .unwrap_or_else(Value::unknown),
                    None => unset.clone(),
                };
                declared.push(name.as_str());
                match fields.iter_mut().find(|(k, _)| k == name) {
                    Some((_, v)) => *v = value,
                    None => fields.push((name.clone(), value)),
                }
            }
        }
        (fields, declared)
    }

    fn construct_inner(
        &mut self,
        s: State,
        class: &crate::model::ClassDef,
        args: Vec<Value>,
        names: &[Option<&str>],
        span: Span,
    ) -> Vec<(State, Value)> {
        let (mut fields, declared) = self.declared_fields(class, &Value::Null);
        let this = Value::Instance(class.name.as_str().into(), Rc::new(fields.clone()), span);
        let ctor = self.prog.constructor(class, self.here());
        match ctor {
            Some(id) => {
                let mut bound = self.bind(id, args, names);
                self.push_self(id, &mut bound, this);
                let paths: Vec<State> =
                    self.apply(s, id, bound.clone(), span).into_iter().map(|(s2, _)| s2).collect();
                // The instance as the constructor left it, on each of its paths.
                let outcomes = self.call_function(id, bound);
                let finals: Vec<Value> = outcomes.iter().filter_map(|o| o.this.clone()).collect();
                match finals.as_slice() {
                    [] => {
                        let value = Value::Instance(class.name.as_str().into(), Rc::new(fields), span);
                        paths.into_iter().map(|s2| (s2, value.clone())).collect()
                    }
                    [first, rest @ ..] if rest.iter().all(|f| f == first) => {
                        paths.into_iter().map(|s2| (s2, first.clone())).collect()
                    }
                    // Instances that differ by the constructor's path go with their paths.
                    many if many.len() == paths.len() => {
                        paths.into_iter().zip(many.iter().cloned()).collect()
                    }
                    _ => paths.into_iter().map(|s2| (s2, Value::unknown())).collect(),
                }
            }
            None => {
                let mut position = 0;
                for (v, name) in args.into_iter().zip(names.iter().copied().chain(std::iter::repeat(None))) {
                    let key = match name {
                        Some(n) => n.to_string(),
                        None => {
                            let k = declared.get(position).map(|d| d.to_string());
                            position += 1;
                            match k {
                                Some(k) => k,
                                None => continue,
                            }
                        }
                    };
                    match fields.iter_mut().find(|(k, _)| *k == key) {
                        Some((_, slot)) => *slot = v,
                        None => fields.push((key, v)),
                    }
                }
                vec![(s, Value::Instance(class.name.as_str().into(), Rc::new(fields), span))]
            }
        }
    }

    /// Runs a loop body per item of a known list (up to a few, in order), binding the
    /// targets; an empty list runs it not at all; anything else runs it once with the
    /// targets bound to an element of unknown value.
    fn for_each(
        &mut self,
        st: State,
        targets: &[String],
        items: &Value,
        body: &crate::model::Block,
    ) -> Vec<State> {
        const MAX_ITEMS: usize = 4;
        // A longer list of known items (a table of tool definitions that a name is
        // looked up in) is walked item by item too while the walk stays cheap, the
        // paths joined after each item; past the allowance it is walked once over
        // the join of its items.
        const MAX_EXACT: usize = 64;
        const EXACT_STEPS: usize = 4_000;
        if let Value::Array(list) = items
            && list.len() > MAX_ITEMS
            && list.len() <= MAX_EXACT
            && let Some(states) = self.for_each_exact(st.clone(), targets, list, body, EXACT_STEPS)
        {
            return states;
        }
        let elements: Vec<Value> = match items {
            Value::Array(list) if list.len() <= MAX_ITEMS => list.as_ref().clone(),
            Value::Array(list) => vec![join(list)],
            Value::Unknown(parts) => {
                self.strategies(targets, body).unwrap_or_else(|| vec![Value::Unknown(parts.clone())])
            }
            _ => vec![Value::unknown()],
        };
        let mut states = vec![st];
        for element in elements {
            states = self.loop_item(states, targets, &element, body);
        }
        states
    }

    /// The loop's body run on each running path with the targets bound to `item`.
    fn loop_item(
        &mut self,
        states: Vec<State>,
        targets: &[String],
        item: &Value,
        body: &crate::model::Block,
    ) -> Vec<State> {
        let mut next = Vec::new();
        for mut s in states {
            if !s.running() {
                next.push(s);
                continue;
            }
            bind_targets(&mut s, targets, item);
            for mut after in self.exec_block(s, body) {
                if matches!(after.status, Status::LeftLoop | Status::NextRound) {
                    after.status = Status::Running;
                }
                next.push(after);
            }
        }
        next
    }

    /// The body run once per item of `list`, the paths joined after each item; `None`
    /// when that takes more than `allowance` steps.
    fn for_each_exact(
        &mut self,
        st: State,
        targets: &[String],
        list: &[Value],
        body: &crate::model::Block,
        allowance: usize,
    ) -> Option<Vec<State>> {
        let (start, cut) = (self.steps, self.cut);
        let mut states = vec![st];
        for element in list {
            let next = self.loop_item(states, targets, element, body);
            states = self.limit(next);
            if self.steps.saturating_sub(start) > allowance || states.iter().all(|s| !s.running()) {
                break;
            }
        }
        if self.steps.saturating_sub(start) > allowance {
            self.cut = cut;
            return None;
        }
        Some(states)
    }

    /// Appends a method's `self` after its bound arguments, the parameters a call
    /// leaves out (optional ones, `**kwargs`) unknown, so that `self` is where the
    /// callee looks for it.
    pub(super) fn push_self(&self, id: FnId, bound: &mut Vec<Value>, this: Value) {
        let params = self.prog.function(id).params.len();
        if bound.len() < params {
            bound.resize(params, Value::unknown());
        }
        bound.push(this);
    }

    /// The arguments of a call as the callee's parameters see them: positional ones
    /// in order, named ones by name, and a parameter left out takes its default.
    fn bind(&mut self, id: FnId, vals: Vec<Value>, names: &[Option<&str>]) -> Vec<Value> {
        let f = self.prog.function(id);
        // JavaScript binds a parameter a call leaves out to `undefined`. Taken where it
        // decides something the scan could not know otherwise: options spread into an
        // object (`{ ...init, headers }`), whose members then are the object's own.
        let open_call = std::mem::take(&mut self.open_call);
        let undefined = !open_call
            && matches!(
                self.prog.file_of(id).language,
                crate::model::Language::JavaScript | crate::model::Language::TypeScript
            );
        if names.iter().all(Option::is_none)
            && (vals.len() >= f.params.len() || (f.defaults.is_empty() && !undefined))
        {
            return vals;
        }
        let mut bound: Vec<Option<Value>> = vec![None; f.params.len().max(vals.len())];
        let mut position = 0;
        for (v, name) in vals.into_iter().zip(names.iter().copied().chain(std::iter::repeat(None))) {
            match name {
                None => {
                    if position < bound.len() {
                        bound[position] = Some(v);
                    }
                    position += 1;
                }
                Some(n) => {
                    if let Some(i) = f.params.iter().position(|p| p == n) {
                        bound[i] = Some(v);
                    }
                }
            }
        }
        bound
            .into_iter()
            .enumerate()
            .map(|(i, v)| {
                v.unwrap_or_else(|| {
                    let default = f.params.get(i).and_then(|p| f.defaults.iter().find(|(n, _)| n == p));
                    match default {
                        Some((_, e)) => {
                            let mut results = self.eval(State::new(BTreeMap::new()), e);
                            match results.len() {
                                1 => results.pop().map(|(_, v)| v).unwrap_or_else(Value::unknown),
                                _ => Value::unknown(),
                            }
                        }
                        None if undefined && i < f.params.len() && spreads_param(self.prog, id, i, 3) => {
                            Value::Null
                        }
                        None => Value::unknown(),
                    }
                })
            })
            .collect()
    }

    pub(super) fn resolve_callee(&mut self, callee: &str) -> Option<FnId> {
        // `self.initialize()` means the caller's own class when it has such a method;
        // `self.transport.Write()` is a method of the field, never the caller's own.
        let prefix = ["self.", "this.", "Self::", "$this->"].iter().find(|p| callee.starts_with(**p));
        let own = prefix.is_some_and(|p| !callee[p.len()..].contains(['.', '-', ':']));
        if callee.contains('.') && !own {
            // `obj.method()` on a value we cannot see: only follow unambiguous method names,
            // or any on a value whose class the code declares (`c *Conn`, `new Conn()`).
            let name = crate::lower::last_segment(callee);
            let head = callee.split(['.', '-']).next().unwrap_or("").trim_start_matches('$');
            let own_class = self
                .prog
                .declared_class(self.here(), head)
                .is_some_and(|class| self.prog.method(class, name, self.here()).is_some());
            if self.is_sink(name) && !own_class {
                return None;
            }
        }
        if own {
            let owner = self.stack.last().and_then(|f| self.prog.function(*f).owner.clone());
            let name = crate::lower::last_segment(callee);
            if let Some(found) = self.prog.resolve_owned(name, owner.as_deref(), self.here()) {
                return Some(found);
            }
            // Rust names the impl's own type: `Self::new` in `impl A` is never `B::new`.
            let rust = self.prog.file_of(self.here()).language == crate::model::Language::Rust;
            if rust && owner.is_some() {
                return None;
            }
        }
        self.prog.resolve(callee, self.here())
    }

    /// Whether an instance of the code's class `own` is a `class`: its own class or one
    /// it extends, a map where the language makes objects maps; not a class of the
    /// code it does not extend, unless that class is a protocol (typed by shape, as
    /// Python's `runtime_checkable` protocols are); unknown for a library's class.
    fn instance_of(&self, own: &str, class: &str) -> Option<bool> {
        let target = crate::lower::last_segment(class);
        if Value::Instance(own.into(), Rc::default(), Span::default()).is_a(class) == Some(true) {
            return Some(true);
        }
        let here = self.here();
        let mut seen: Vec<String> = Vec::new();
        let mut frontier = vec![own.to_string()];
        // Whether a class up the chain is a library's, whose own bases are not known.
        let mut open = false;
        while let Some(name) = frontier.pop() {
            if name.eq_ignore_ascii_case(target) {
                return Some(true);
            }
            if seen.contains(&name) || seen.len() > 32 {
                continue;
            }
            match self.prog.class(&name, here) {
                Some(def) => frontier.extend(def.bases.iter().cloned()),
                None => open |= name != "object",
            }
            seen.push(name);
        }
        match self.prog.class(target, here) {
            Some(def) if def.bases.iter().any(|b| b == "Protocol") => None,
            Some(_) => Some(false),
            None if open => None,
            None => Some(false),
        }
    }

    /// Whether a `catch`/`except` clause naming `classes` catches `raised` (see
    /// [`crate::lower::CATCHES`]): not when the raised value's class chain and every
    /// class named are known and none of them meet, nor when a library's exception
    /// meets a clause naming only the code's own classes.
    fn catches(&self, raised: &Value, classes: &[Value]) -> bool {
        let language = self.prog.file_of(self.here()).language;
        let here = self.here();
        let own_class = |c: &Value| matches!(c, Value::Str(name) if self.prog.class(name, here).is_some());
        // A framework's HTTP answer raised (`raise HTTPException(401)`) is the
        // framework's exception, no instance of a class of the code's own.
        if matches!(raised, Value::Http(_)) {
            return classes.is_empty() || !classes.iter().all(own_class);
        }
        let Value::Instance(own, ..) = raised else { return true };
        // The raised value's class and its bases, through the code's classes and the
        // language's own; complete when it reaches the language's root class.
        let mut chain = vec![own.to_string()];
        let mut complete = false;
        while let Some(last) = chain.last().cloned() {
            if chain.len() > 16 {
                break;
            }
            let base = match crate::lower::exception_base(language, &last) {
                Some("") => {
                    complete = true;
                    break;
                }
                Some(base) => base.to_string(),
                None => match self.prog.class(&last, here).and_then(|d| d.bases.first()) {
                    Some(b) => crate::lower::last_segment(b).to_string(),
                    None => break,
                },
            };
            chain.push(base);
        }
        // A library's exception (FastAPI's `HTTPException`) is no instance of a class
        // of the code's own: the library cannot extend the code.
        let library =
            crate::lower::exception_base(language, own).is_none() && self.prog.class(own, here).is_none();
        let mut all_known = true;
        let mut all_own = true;
        for c in classes {
            let Value::Str(name) = c else { return true };
            if chain.iter().any(|k| k == name) {
                return true;
            }
            let own_class = own_class(c);
            all_own &= own_class;
            all_known &= crate::lower::exception_base(language, name).is_some() || own_class;
        }
        let unrelated = complete && all_known;
        let library_past_own = library && all_own && !classes.is_empty();
        !(unrelated || library_past_own)
    }

    /// The outer function's variables closure `id` reads, as they stand in `st`.
    fn captures(&mut self, st: &State, id: FnId) -> Vec<(String, Value)> {
        let names = self.free_names(id);
        names.iter().filter_map(|n| st.env.get(n).map(|v| (n.clone(), v.clone()))).collect()
    }

    /// A closure made as a value where it is written: what it sees then is what it
    /// sees when called from elsewhere (a middleware chain calling the handler it
    /// was handed). Where two makings see different values, it sees only what they
    /// agree on (the same handler, made twice with different contexts); a name whose
    /// value differs, or that only one of them sees, it does not.
    fn note_closure_made(&mut self, st: &State, id: FnId) {
        if self.prog.capturing_function(id) != Some(self.here()) {
            return;
        }
        let seen = self.captures(st, id);
        match self.closure_made.get(&id) {
            None => {
                self.closure_made.insert(id, Some(seen));
            }
            Some(Some(before)) if *before != seen => {
                let merged: Vec<(String, Value)> = before
                    .iter()
                    .filter(|&(name, old)| seen.iter().any(|(n, new)| n == name && new == old))
                    .cloned()
                    .collect();
                self.closure_made.insert(id, (!merged.is_empty()).then_some(merged));
            }
            Some(_) => {}
        }
    }

    /// The variables a function reads (by the first segment of the name read: `w` of
    /// `w.Write`) that are not its parameters: those a closure may take from the
    /// function it is written in.
    fn free_names(&mut self, id: FnId) -> Rc<Vec<String>> {
        if let Some(names) = self.free_names.get(&id) {
            return names.clone();
        }
        let f = self.prog.function(id);
        let mut names: Vec<String> = Vec::new();
        let mut note = |name: &str| {
            let base = name.split(['.', '[']).next().unwrap_or(name);
            if !base.is_empty() && !f.params.iter().any(|p| p == base) && !names.iter().any(|n| n == base) {
                names.push(base.to_string());
            }
        };
        crate::model::walk_block(&f.body, &mut |e| match e {
            Expr::Var(v) => note(v),
            Expr::Call { callee, .. } => note(callee),
            _ => {}
        });
        for n in ["self", "this"] {
            if !names.iter().any(|x| x == n) {
                names.push(n.to_string());
            }
        }
        names.sort();
        let names = Rc::new(names);
        self.free_names.insert(id, names.clone());
        names
    }

    /// The instances of the code's classes an unknown value holds (the several a join
    /// left), each with its class's method `name`; `None` unless it holds only such
    /// instances and every one has the method.
    fn instance_methods(&self, held: &Value, name: &str) -> Option<Vec<(Value, FnId)>> {
        let Value::Unknown(parts) = held else { return None };
        if parts.is_empty() || !parts.iter().all(|p| matches!(p, Value::Instance(..))) {
            return None;
        }
        parts
            .iter()
            .cloned()
            .map(|this| {
                let Value::Instance(class, ..) = &this else { return None };
                let id = self.prog.method(class, name, self.here())?;
                Some((this, id))
            })
            .collect()
    }

    /// The writer of the code's own type among a write's values: its position and the
    /// method of its type that takes the bytes (`write`, Go's `Write`).
    /// `all` is the call's argument values then its receiver's, if any.
    fn own_writer(&self, args: &[Expr], receiver: Option<&Expr>, all: &[Value]) -> Option<(usize, FnId)> {
        let exprs = args.iter().map(Some).chain([receiver]);
        all.iter().zip(exprs).enumerate().find_map(|(i, (v, e))| {
            let class: &str = match (v, e) {
                (Value::Instance(class, ..), _) => class,
                // A local made by a struct literal of the code's type (Rust's values of
                // structs are plain objects): the type it was made as.
                (_, Some(Expr::Var(name))) => self.prog.declared_class(self.here(), name)?,
                _ => return None,
            };
            ["write", "Write"].iter().find_map(|m| self.prog.method(class, m, self.here())).map(|id| (i, id))
        })
    }

    /// A call to a function outside the scanned code that writes a message out:
    /// a known name, or one the configuration lists.
    fn is_sink(&self, name: &str) -> bool {
        SINKS.contains(&name) || self.prog.knowledge.reply_functions.iter().any(|n| n == name)
    }

    /// Whether a function's own body writes out: a sink, the lowerings' writes, or an
    /// HTTP answer built.
    pub(super) fn writes_out(&self, id: crate::model::FnId) -> bool {
        let mut writes = false;
        crate::model::walk_block(&self.prog.function(id).body, &mut |e| match e {
            Expr::Call { callee, .. } => {
                writes |= self.is_sink(crate::lower::last_segment(callee))
                    || callee == crate::lower::EMIT
                    || callee == crate::lower::PRINT
            }
            Expr::Http { .. } | Expr::HttpWith { .. } => writes = true,
            _ => {}
        });
        writes
    }

    /// A property getter of `class` read on `instance`: what it returns (joined over
    /// its paths).
    fn getter(&mut self, instance: &Value, class: &str, key: &str) -> Option<Value> {
        let id = self.prog.method(class, &format!("{}{key}", crate::model::GETTER_PREFIX), self.here())?;
        let mut bound = self.bind(id, Vec::new(), &[]);
        self.push_self(id, &mut bound, instance.clone());
        let outcomes = self.call_function(id, bound);
        let values: Vec<Value> = outcomes.iter().filter(|o| !o.raised).map(|o| o.value.clone()).collect();
        match values.as_slice() {
            [one] => Some(one.clone()),
            [] => None,
            many => Some(join(many)),
        }
    }

    /// `Formats.error` where `Formats` is an object literal (a module's constant, or
    /// a variable the path holds) whose member is a function: that function.
    fn object_function(&mut self, st: &State, callee: &str) -> Option<FnId> {
        let (base, rest) = callee.split_once('.')?;
        let mut current = self.var(st, base);
        // On `self`, only a field of the object (its methods resolve before this).
        if matches!(base, "self" | "this") && !matches!(current, Value::Instance(..)) {
            return None;
        }
        for key in rest.split('.') {
            current = match &current {
                Value::Object(entries) => entries.iter().find(|(k, _)| k == key)?.1.clone(),
                // A callback kept in a field of the code's own object (`s.fn(m)`).
                Value::Instance(_, fields, _) => fields.iter().find(|(k, _)| k == key)?.1.clone(),
                _ => return None,
            };
        }
        match current {
            Value::Func(id) => Some(id),
            _ => None,
        }
    }

    /// The method a PHP callable array names: `[$obj, 'name']` on the instance's class
    /// (the caller's own class when the instance is `$this` the path does not hold),
    /// `['Class', 'name']` (as `Class::class` is written) on that class.
    fn callable_array(&self, s: &State, items: &[Value]) -> Option<FnId> {
        let [owner, Value::Str(name)] = items else { return None };
        let class = match owner {
            Value::Instance(class, ..) => class.to_string(),
            Value::Str(class) => class.clone(),
            _ => match s.env.get("self") {
                Some(Value::Instance(class, ..)) => class.to_string(),
                _ => self.prog.function(self.here()).owner.clone()?,
            },
        };
        self.prog.method(&class, name, self.here())
    }

    /// The function being evaluated.
    pub(super) fn here(&self) -> FnId {
        self.stack.last().copied().unwrap_or(0)
    }
}

/// A builder method called on an HTTP response the path holds: `status(code)` sets
/// the status (unknown when the code is), `body(b)`/`json(b)` the body, and
/// `header(..)`-like methods keep it as it is. Anything else is not a builder call.
fn build_http(name: &str, h: &crate::value::HttpValue, args: &[Value]) -> Option<Value> {
    use crate::value::{HttpStatus, HttpValue};
    let mut built = HttpValue { status: h.status, body: h.body.clone(), span: h.span };
    match (name, args) {
        ("status" | "status_code" | "with_status_code" | "with_status", [code]) => {
            built.status = match code {
                Value::Int(n) => u16::try_from(*n).map_or(HttpStatus::Unknown, HttpStatus::Code),
                Value::Http(other) => other.status,
                _ => HttpStatus::Unknown,
            };
        }
        // `Body::empty()` is no body (as the lowering reads it on a literal builder).
        ("body", [Value::Null]) => built.body = None,
        // `.body(AppBody::Full(bytes))`: a body enum of the code's own carries the bytes
        // it holds.
        ("body", [body]) => {
            let mut body = body;
            while let Value::Variant(name, Some(inner)) = body
                && !matches!(name.as_str(), "Ok" | "Err" | "Some" | "None")
            {
                body = inner;
            }
            built.body = if matches!(body, Value::Null) { None } else { Some(body.clone()) };
        }
        ("json", [body]) => built.body = Some(body.clone()),
        (
            "header" | "headers" | "insert_header" | "append_header" | "with_header" | "with_headers"
            | "content_type"
            // Laravel's and PSR-7's (`response()->json($body)->withHeaders($cors)`).
            | "withHeaders" | "withHeader" | "withAddedHeader" | "withoutHeader" | "withCookie" | "cookie",
            _,
        ) => {}
        // actix's `resp.finish()` on a builder held in a variable: the answer as built so
        // far, with no body.
        ("finish", []) => {}
        _ => return None,
    }
    Some(Value::Http(Rc::new(built)))
}

/// Whether a function spreads its parameter into an object literal, itself or by
/// handing it on to a function that does (a few calls down).
fn spreads_param(prog: &crate::program::Program, id: FnId, index: usize, depth: usize) -> bool {
    let f = prog.function(id);
    let Some(param) = f.params.get(index) else { return false };
    let is_param = |v: &Expr| matches!(v, Expr::Var(n) if n == param);
    let mut found = false;
    crate::model::walk_block(&f.body, &mut |e| match e {
        Expr::Object { entries, .. } => {
            found |= entries.iter().any(|(k, v)| k == crate::model::SPREAD && is_param(v));
        }
        Expr::Call { callee, receiver: None, args, .. } if depth > 0 && !found => {
            if let Some(j) = args.iter().position(is_param)
                && let Some(next) = prog.resolve(callee, id)
                && next != id
            {
                found = spreads_param(prog, next, j, depth - 1);
            }
        }
        _ => {}
    });
    found
}

/// Arguments with the spread ones (`f(*pair)`) laid out position by position: a
/// known array or tuple gives its items; anything else stays one unknown argument.
fn spread_out<'n>(
    vals: Vec<Value>,
    names: &[Option<&'n str>],
    spread: &[bool],
) -> (Vec<Value>, Vec<Option<&'n str>>) {
    let mut out = Vec::with_capacity(vals.len());
    let mut out_names = Vec::with_capacity(vals.len());
    for (i, v) in vals.into_iter().enumerate() {
        match v {
            Value::Array(items) if spread.get(i) == Some(&true) => {
                out.extend(items.iter().cloned());
                out_names.extend(std::iter::repeat_n(None, items.len()));
            }
            other => {
                out.push(other);
                out_names.push(names.get(i).copied().flatten());
            }
        }
    }
    (out, out_names)
}

/// Binds a loop's targets to one item: one target takes it whole, several take its
/// elements (`for key, value in pairs`).
fn bind_targets(st: &mut State, targets: &[String], item: &Value) {
    match (targets, item) {
        ([one], v) => {
            st.env.insert(one.clone(), v.clone());
        }
        (many, Value::Array(parts)) => {
            for (i, t) in many.iter().enumerate() {
                st.env.insert(t.clone(), parts.get(i).cloned().unwrap_or_else(Value::unknown));
            }
        }
        (many, _) => {
            for t in many {
                st.env.insert(t.clone(), Value::unknown());
            }
        }
    }
}

/// Values whose kind is known (an unknown value, the probe's method and id, and the
/// client's version can be anything the comparison needs).
fn known_kind(v: &Value) -> bool {
    matches!(
        v,
        Value::Null
            | Value::Bool(_)
            | Value::Int(_)
            | Value::Str(_)
            | Value::Object(_)
            | Value::Array(_)
            | Value::Reply(_)
            | Value::Http(_)
    )
}

/// The most items of a known list that `map` hands to a function one by one (a batch
/// the path built is short: `[message]`).
const MAPPED_ITEMS: usize = 4;

/// Methods that turn an instance into its JSON fields when its class does not define
/// them (pydantic `model_dump`, `to_dict`, `jsonSerialize`, `toJSON`).
const SERIALISERS: &[&str] = &[
    "model_dump",
    "dict",
    "to_dict",
    "model_dump_json",
    "json",
    "to_json",
    "jsonSerialize",
    "toJSON",
    "toArray",
    "serialize",
    "as_dict",
    // Python's `obj.__dict__` and `vars(obj)`: the instance's attributes.
    "__dict__",
];

/// A fallible conversion into a type named for the protocol's versions:
/// `ProtocolVersion::try_from(v)`, `ProtocolVersion::from_str(v)`.
fn version_conversion(callee: &str) -> bool {
    let name = crate::lower::last_segment(callee);
    let qualifier = callee.strip_suffix(name).unwrap_or("").trim_end_matches([':', '.']);
    matches!(name, "try_from" | "from_str")
        && crate::lower::last_segment(qualifier).ends_with("ProtocolVersion")
}

/// The client's version read on a path where it was already found supported is checked.
fn checked_version(st: &State, v: Value) -> Value {
    match v {
        Value::ClientVersion { checked: false } if st.version_checked => {
            Value::ClientVersion { checked: true }
        }
        other => other,
    }
}

/// `x.unwrap_or(d)` and its relatives on an option the path knows: the value it holds,
/// or the default when it holds none (`Some`/`Ok` unwrap; null, `None`, `Err` default).
fn unwrap_with_default(name: &str, receiver: &Value, args: &[Value]) -> Option<Value> {
    if !matches!(
        name,
        "unwrap_or" | "unwrap_or_else" | "unwrap_or_default" | "unwrap_or_null" | "unwrap" | "expect"
    ) {
        return None;
    }
    // `unwrap()` and `expect(..)` have no default: on `Err` or `None` they panic.
    if matches!(name, "unwrap" | "expect") {
        return match receiver {
            Value::Variant(n, inner) if n == "Some" || n == "Ok" => inner.as_deref().cloned(),
            Value::Variant(..) | Value::Unknown(_) => None,
            other => Some(other.clone()),
        };
    }
    let default = || args.first().cloned().unwrap_or_else(Value::unknown);
    Some(match receiver {
        Value::Variant(n, inner) if n == "Some" || n == "Ok" => {
            inner.as_deref().cloned().unwrap_or_else(Value::unknown)
        }
        Value::Variant(..) | Value::Null | Value::NoId => default(),
        Value::Unknown(_) => return None,
        other => other.clone(),
    })
}

/// Library calls that read a decoded message into a model of it (pydantic, zod,
/// dataclass helpers), called on the model's class or schema.
const MODEL_READERS: &[&str] = &[
    "model_validate",
    "model_validate_json",
    "parse_raw",
    "parse_obj",
    "validate_python",
    "from_dict",
    "parse",
    "fromArray",
    "fromJson",
    "from_json",
];

/// Writes that take their destination as an argument or receiver (`to_writer(w, v)`,
/// `write!(w, ..)`, `json.dump(v, fp)`, `print(x, file=fp)`, `w.write_all(b)` on a type
/// defining only `write`).
const WRITES_INTO_DESTINATION: &[&str] = &[
    "to_writer",
    "to_writer_pretty",
    "write",
    "writeln",
    "write_all",
    "dump",
    "print",
    "Write",
    "WriteString",
];

/// Schema validations whose result says `valid` / `success`.
const SCHEMA_CHECKS: &[&str] = &["validate", "safeParse", "safeValidate"];

/// A read of one of the envelope's scalar members (`method`, `id`, `jsonrpc`) or of
/// the client's `protocolVersion`, perhaps copied (`.clone()`): what a decoder given
/// it returns is that member.
fn decodes_member(e: &Expr) -> bool {
    match e {
        Expr::Field { name, .. } => !matches!(name, FieldName::Result | FieldName::Error),
        Expr::Lookup { key, .. } => matches!(key.as_ref(), Expr::Str(k)
            if crate::lower::message_field(k).is_some_and(|f| !matches!(f, FieldName::Result | FieldName::Error))),
        Expr::Call { callee, receiver: Some(r), args, .. }
            if args.is_empty() && matches!(crate::lower::last_segment(callee), "clone" | "to_owned") =>
        {
            decodes_member(r)
        }
        _ => false,
    }
}

/// Methods that change a list in place other than by one `push` (which the lowering
/// makes a statement of its own): Rust's `Vec` and `VecDeque`.
const LIST_MUTATORS: &[&str] = &[
    // A task set's: a task spawned into it (`join_set.spawn(fut)`) or pushed
    // (`FuturesUnordered::push`, listed with the statement form).
    "spawn",
    "spawn_blocking",
    "spawn_local",
    "extend",
    "extend_from_slice",
    "append",
    "insert",
    "resize",
    "splice",
    "retain",
    "truncate",
    "push_front",
];

/// `message.params`, `msg["params"]`: the message's params.
fn reads_params(e: &Expr) -> bool {
    match e {
        Expr::Var(v) => v.ends_with(".params") || v.ends_with("['params']") || v.ends_with("[\"params\"]"),
        Expr::Lookup { key, .. } => matches!(key.as_ref(), Expr::Str(k) if k == "params"),
        Expr::Named { value, .. } => reads_params(value),
        _ => false,
    }
}

/// Whether a value is PHP's server API name (see [`crate::lower::PHP_SAPI`]).
fn is_php_sapi(v: &Value) -> bool {
    matches!(v, Value::Str(s) if s == crate::lower::PHP_SAPI)
}

/// `in_array(PHP_SAPI, ['cli', 'phpdbg'], true)`: the name the test turns on, `cli`
/// when the list holds it (the script runs from the command line), else the list's
/// first name (under a web server, which one the scan does not know). `None` when
/// the item is not the server API name or the list is not a list of names.
fn sapi_names(item: &Value, collection: &Value) -> Option<String> {
    if !is_php_sapi(item) {
        return None;
    }
    let Value::Array(names) = collection else { return None };
    let names: Vec<&str> = names
        .iter()
        .map(|n| match n {
            Value::Str(s) => Some(s.as_str()),
            _ => None,
        })
        .collect::<Option<_>>()?;
    let first = names.first()?;
    Some(if names.contains(&"cli") { "cli" } else { first }.to_string())
}

/// `php_sapi_name() === 'cli'` on a path: decided by what the path decided before
/// ([`Effect::CommandLine`]); else both ways, each path noting its way. Under a web
/// server the name is not `cli`, and which one it is the scan does not know.
fn command_line_test(mut s: State, l: &Value, r: &Value, negated: bool) -> Vec<(State, Value)> {
    let sapi = crate::lower::PHP_SAPI;
    let other = match (l, r) {
        (Value::Str(a), Value::Str(b)) if a == sapi && b != sapi => b.clone(),
        (Value::Str(a), Value::Str(b)) if b == sapi && a != sapi => a.clone(),
        _ => return vec![(s, Value::unknown())],
    };
    let decided = s.effects.iter().rev().find_map(|e| match e {
        Effect::CommandLine(cli) => Some(*cli),
        _ => None,
    });
    let answer = |cli: bool| match (cli, other == "cli") {
        (true, is_cli) => Value::Bool(is_cli != negated),
        (false, true) => Value::Bool(negated),
        (false, false) => Value::unknown(),
    };
    match decided {
        Some(cli) => vec![(s, answer(cli))],
        None if other == "cli" => {
            let mut web = s.clone();
            web.effects.push(Effect::CommandLine(false));
            s.effects.push(Effect::CommandLine(true));
            vec![(s, answer(true)), (web, answer(false))]
        }
        None => vec![(s, Value::unknown())],
    }
}

/// The value of a call to a language builtin on lists, when it is not a function of
/// the scanned code: Go's `append(xs, v...)` and `len(xs)`.
fn builtin(callee: &str, args: &[Value], span: Span) -> Option<Value> {
    match (callee, args) {
        // Appending to a nil slice makes one.
        ("append", [Value::Null, rest @ ..]) => Some(Value::Array(Rc::new(rest.to_vec()))),
        ("append", [Value::Array(items), rest @ ..]) => {
            let mut items = items.as_ref().clone();
            items.extend(rest.iter().cloned());
            Some(Value::Array(Rc::new(items)))
        }
        ("len" | "count" | "sizeof", [Value::Array(items)]) => Some(Value::Int(items.len() as i64)),
        // `len(req.ID)`: no id has no bytes; an id has some.
        ("len", [Value::NoId | Value::Null]) => Some(Value::Int(0)),
        ("len", [Value::Id]) => Some(Value::Int(1)),
        ("len", [Value::Str(s)]) => Some(Value::Int(s.len() as i64)),
        // PHP `array_keys`/`array_values` of an array the path built.
        ("array_keys", [Value::Array(items)]) => {
            Some(Value::Array(Rc::new((0..items.len()).map(|i| Value::Int(i as i64)).collect())))
        }
        ("array_keys", [Value::Object(entries)]) => {
            Some(Value::Array(Rc::new(entries.iter().map(|(k, _)| Value::Str(k.clone())).collect())))
        }
        ("array_values", [Value::Array(items)]) => Some(Value::Array(items.clone())),
        ("array_values", [Value::Object(entries)]) => {
            Some(Value::Array(Rc::new(entries.iter().map(|(_, v)| v.clone()).collect())))
        }
        (crate::lower::FORCE_OBJECT, [v]) => Some(v.forced_objects()),
        (crate::lower::OBJECT_CAST, [Value::Array(items)]) => Some(Value::Object(Rc::new(
            items.iter().enumerate().map(|(i, v)| (i.to_string(), v.clone())).collect(),
        ))),
        (crate::lower::OBJECT_CAST, [v]) => Some(v.clone()),
        (crate::lower::IS_ERR, [v]) => Some(Value::Bool(matches!(v, Value::Variant(n, _) if n == "Err"))),
        // `is_array($params['_meta'] ?? null)`: a probe's members have the types a
        // server expects, and null is none of them.
        (crate::lower::IS_KIND, [v, Value::Str(kind)]) if kind == crate::lower::PRESENT => {
            Some(Value::Bool(!matches!(v, Value::Null | Value::NoId)))
        }
        (crate::lower::IS_KIND, [v, Value::Str(kind)]) => {
            // A value the scan does not know that is tested so is taken for the
            // incoming message (a helper's parameter): one object, as every probe is.
            let kind_of = match v {
                Value::Array(_) => "list",
                Value::Message
                | Value::Object(_)
                | Value::Reply(_)
                | Value::Instance(..)
                | Value::Unknown(_) => "object",
                _ => "scalar",
            };
            Some(Value::Bool(kind_of == kind))
        }
        // `(status, headers)`: a status and headers (`HeaderMap`, a list of pairs), no
        // body: a JSON value is no response body of its own (it goes out as `Json(v)`).
        (crate::lower::STATUS_TUPLE, [Value::Http(status), Value::Array(_) | Value::Object(_)])
            if status.body.is_none() =>
        {
            Some(Value::Http(status.clone()))
        }
        (crate::lower::STATUS_TUPLE, [Value::Http(status), .., body]) if status.body.is_none() => {
            Some(Value::Http(Rc::new(HttpValue {
                status: status.status,
                body: Some(body.clone()),
                span: status.span,
            })))
        }
        // A status the scan cannot compute in front of a JSON-RPC body
        // (`(error_status(&e), Json(reply))`): an answer with an unknown status, which
        // an error status would make a refusal.
        (crate::lower::STATUS_TUPLE, [Value::Unknown(_), .., body]) if body.interesting() => {
            Some(Value::Http(Rc::new(HttpValue {
                status: HttpStatus::Unknown,
                body: Some(body.clone()),
                span,
            })))
        }
        (crate::lower::STATUS_TUPLE, items) => {
            Some(Value::Array(Rc::new(items.iter().cloned().map(shallow).collect())))
        }
        (crate::lower::CONCAT, [Value::Null, Value::Array(items)]) => Some(Value::Array(items.clone())),
        (crate::lower::CONCAT, [Value::Array(items), Value::Null]) => Some(Value::Array(items.clone())),
        (crate::lower::CONCAT, [Value::Array(head), Value::Array(tail)]) => {
            Some(Value::Array(Rc::new(head.iter().chain(tail.iter()).cloned().collect())))
        }
        // Lists not known item by item: unknown, holding what either carries.
        (crate::lower::CONCAT, [head, tail]) => Some(Value::Unknown(Rc::new(
            [head, tail].into_iter().filter(|v| v.interesting()).cloned().collect(),
        ))),
        _ => None,
    }
}

/// A member of an object or array literal, kept only as deep as the checks look:
/// objects inside objects lose their own members unless they carry something of
/// interest (a reply, a client version). Large literals (tool schemas) stay cheap.
fn shallow(v: Value) -> Value {
    match &v {
        // The outcome half of a reply (`{"result": ..}` in a field its struct flattens)
        // keeps its members.
        Value::Object(entries) if entries.iter().any(|(k, _)| k == "result" || k == "error") => v,
        Value::Object(entries)
            if entries.iter().any(|(_, e)| matches!(e, Value::Object(_) | Value::Array(_))) =>
        {
            let kept: Vec<(String, Value)> = entries
                .iter()
                .map(|(k, e)| match e {
                    Value::Object(_) | Value::Array(_) if !e.interesting() => (k.clone(), Value::unknown()),
                    other => (k.clone(), other.clone()),
                })
                .collect();
            Value::Object(Rc::new(kept))
        }
        Value::Array(items) if items.len() > 4 => {
            if items.iter().any(Value::interesting) {
                join(items)
            } else {
                Value::Array(Rc::new(items[..4].to_vec()))
            }
        }
        _ => v,
    }
}

/// The variable a member write starts from: `ctx` in `ctx.response`, `a` in `a["b"]`.
fn target_base(target: &str) -> &str {
    target.split(['.', '[']).next().unwrap_or(target)
}

/// Whether a comparison tests the HTTP verb (`request.method == "POST"`).
fn is_verb_test(l: &Value, r: &Value) -> bool {
    matches!((l, r), (Value::Method(_), Value::Str(s)) | (Value::Str(s), Value::Method(_)) if HTTP_VERBS.contains(&s.as_str()))
}

/// An MCP method name that is not also a word for a state: `initialized` is the bare
/// notification some servers match, and as often the name of a lifecycle state.
pub(super) fn names_a_method(name: &str) -> bool {
    crate::model::is_mcp_method(name) && name != "initialized"
}

/// One side is an MCP method name and the other a value the scan could not compute.
fn names_method_blindly(l: &Value, r: &Value) -> bool {
    let method = |v: &Value| matches!(v, Value::Str(m) if names_a_method(m));
    let unknown = |v: &Value| matches!(v, Value::Unknown(_));
    method(l) && unknown(r) || method(r) && unknown(l)
}

/// What a framework's JSON extractor answers a body it cannot decode into the
/// handler's type (axum's 422, actix-web's 400): the handler never runs.
fn refused_by_extractor(status: u16, span: Span) -> Value {
    Value::Http(Rc::new(crate::value::HttpValue {
        status: crate::value::HttpStatus::Code(status),
        body: Some(Value::Str("Failed to deserialize the JSON body into the target type".into())),
        span,
    }))
}
