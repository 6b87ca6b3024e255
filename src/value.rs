//! The abstract values the interpreter computes, and the effects a path has.

use crate::model::{FnId, Span};
use std::rc::Rc;

/// One hypothetical incoming message.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Probe {
    pub method: String,
    pub has_id: bool,
    /// Sent as the one member of a JSON-RPC batch (`[{..}]`): the decoded body is an
    /// array holding the message, and its text opens with `[`.
    pub batch: bool,
    /// In the batch, a request comes first ([`companion_request`]): code that answers
    /// a batch of notifications alone with 202 may still answer each member once one
    /// of them is a request.
    pub beside_request: bool,
}

impl Probe {
    pub fn notification(method: &str) -> Probe {
        Probe { method: method.to_string(), has_id: false, batch: false, beside_request: false }
    }
    pub fn request(method: &str) -> Probe {
        Probe { method: method.to_string(), has_id: true, batch: false, beside_request: false }
    }
    /// The same message sent alone in a batch.
    pub fn in_batch(self) -> Probe {
        Probe { batch: true, ..self }
    }
    /// The same message sent in a batch after a request ([`companion_request`]).
    pub fn in_batch_beside_request(self) -> Probe {
        Probe { batch: true, beside_request: true, ..self }
    }
}

/// The id of the request a [`Probe::beside_request`] batch holds: a reply with it
/// answers that request, not the probe.
pub const COMPANION_ID: &str = "mcp-conform/companion";

/// The well-formed `ping` request sent before the probe in a
/// [`Probe::beside_request`] batch, as the code decodes it: a plain JSON object.
pub fn companion_request() -> Value {
    let text = |s: &str| Value::Str(s.to_string());
    Value::Object(Rc::new(vec![
        ("jsonrpc".to_string(), text("2.0")),
        ("id".to_string(), text(COMPANION_ID)),
        ("method".to_string(), text("ping")),
        ("params".to_string(), Value::Object(Rc::new(Vec::new()))),
    ]))
}

/// A method name no server handles, for the unknown-method fallback.
pub const UNKNOWN_METHOD: &str = "mcp-conform/unknown-method";
/// A notification name no server handles: under `notifications/`, where a guard on
/// the prefix lets it through to the fallback.
pub const UNKNOWN_NOTIFICATION: &str = "notifications/mcp-conform-unknown";

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
    /// An instance of a class of the scanned code, with its fields and where it was built.
    Instance(Rc<str>, Rc<Vec<(String, Value)>>, crate::model::Span),
    /// The incoming message as its decoder returns it (`json.loads(line)`,
    /// `json_decode($body)`): a JSON object, never null, whose members are the probe's.
    Message,
    /// The incoming message as the bytes it arrived in (Go `io.ReadAll(r.Body)`): the
    /// text of one JSON object, never empty, which decodes to the message.
    Encoded,
    /// An output buffer (Go `bytes.Buffer`, Python `io.StringIO()`) made when the path
    /// had this many effects: what the path wrote since may be in it (see
    /// [`crate::lower::CAPTURE`]).
    Captured(usize),
}

#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Reply {
    /// The reply's `id` member (Null when it has none).
    pub id: Value,
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

/// The status of an HTTP answer as the scan knows it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum HttpStatus {
    /// Not given here: the framework's default (200) unless set elsewhere.
    Unset,
    Code(u16),
    /// Given, but computed from something the scan cannot resolve.
    Unknown,
}

impl HttpStatus {
    pub fn from_code(code: Option<u16>) -> HttpStatus {
        code.map_or(HttpStatus::Unset, HttpStatus::Code)
    }

    /// An error status (4xx/5xx): the input was refused at the transport.
    pub fn is_error(self) -> bool {
        matches!(self, HttpStatus::Code(s) if s >= 400)
    }

    /// This status, or `other` when this one was not given.
    pub fn or(self, other: HttpStatus) -> HttpStatus {
        if self == HttpStatus::Unset { other } else { self }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct HttpValue {
    pub status: HttpStatus,
    pub body: Option<Value>,
    pub span: Span,
}

impl Value {
    pub(crate) fn unknown() -> Value {
        Value::Unknown(Rc::new(Vec::new()))
    }

    /// A JSON-RPC envelope that is neither a result nor an error the scan can read:
    /// `{jsonrpc, id, result_json}` made from a reply to travel in another shape. A
    /// request or notification the server sends (it has a `method`) is no reply.
    pub(crate) fn foreign_envelope(&self) -> bool {
        match self {
            Value::Object(entries) | Value::Instance(_, entries, _) => {
                entries.iter().any(|(k, _)| k == "jsonrpc")
                    && !entries.iter().any(|(k, _)| k == "method")
                    && !matches!(promote(Value::Object(entries.clone()), Default::default()), Value::Reply(_))
            }
            _ => false,
        }
    }

    /// A [`Value::foreign_envelope`], or an unknown value carrying one.
    pub(crate) fn holds_foreign_envelope(&self) -> bool {
        match self {
            Value::Unknown(parts) => parts.iter().any(Value::holds_foreign_envelope),
            other => other.foreign_envelope(),
        }
    }

    /// Whether a value is or holds the decoded message itself (not a member read
    /// off a value the scan took for it), looking `depth` levels in.
    pub(crate) fn holds_message(&self, depth: usize) -> bool {
        self.holds_where(depth, false, &|v| matches!(v, Value::Message | Value::Encoded))
    }

    /// Whether the value or one of its parts, `depth` levels into objects, lists and
    /// instances (and the values variants hold, with `variants`), is one `leaf` accepts.
    fn holds_where(&self, depth: usize, variants: bool, leaf: &dyn Fn(&Value) -> bool) -> bool {
        if leaf(self) {
            return true;
        }
        match self {
            _ if depth == 0 => false,
            Value::Object(entries) | Value::Instance(_, entries, _) => {
                entries.iter().any(|(_, e)| e.holds_where(depth - 1, variants, leaf))
            }
            Value::Array(items) | Value::Unknown(items) => {
                items.iter().any(|i| i.holds_where(depth - 1, variants, leaf))
            }
            Value::Variant(_, Some(inner)) if variants => inner.holds_where(depth - 1, variants, leaf),
            _ => false,
        }
    }

    /// Whether the value is, or holds, the incoming message or a part of it (its bytes,
    /// its id, its method), looking `depth` levels into objects, lists and instances.
    pub(crate) fn carries_message(&self, depth: usize) -> bool {
        self.holds_where(depth, true, &|v| {
            matches!(
                v,
                Value::Message
                    | Value::Encoded
                    | Value::Id
                    | Value::NoId
                    | Value::Method(_)
                    | Value::ClientVersion { .. }
            )
        })
    }

    /// Values worth carrying through an unknown computation.
    pub(crate) fn interesting(&self) -> bool {
        match self {
            Value::Reply(_) | Value::Http(_) | Value::ClientVersion { .. } => true,
            Value::Instance(_, fields, span) => {
                matches!(promote(Value::Object(fields.clone()), *span), Value::Reply(_))
                    || fields.iter().any(|(_, v)| v.interesting())
            }
            // An error object whose code is known (`RpcError(-32601, ...)`); an envelope
            // in a shape of its own (what is written then is an answer the scan cannot read).
            Value::Object(entries) => {
                entries.iter().any(|(k, v)| k == "code" && matches!(v, Value::Int(_)))
                    || self.foreign_envelope()
            }
            Value::Unknown(parts) => !parts.is_empty(),
            Value::Array(items) => items.iter().any(Value::interesting),
            Value::Variant(_, Some(inner)) => inner.interesting(),
            _ => false,
        }
    }

    pub(crate) fn is_nullish(&self) -> Option<bool> {
        match self {
            Value::Null | Value::NoId => Some(true),
            Value::Message | Value::Instance(..) => Some(false),
            Value::Variant(n, _) if n == "None" => Some(true),
            Value::Unknown(_) => None,
            _ => Some(false),
        }
    }

    /// Whether the value is an instance of `class` (last segment of its name), where
    /// the value's kind says: an HTTP response is a `*Response`, a literal map is a
    /// `dict`/`array` and no class's instance, a string is a `str`.
    pub(crate) fn is_a(&self, class: &str) -> Option<bool> {
        let class = crate::lower::last_segment(class);
        let lower = class.to_ascii_lowercase();
        let map_like = matches!(lower.as_str(), "dict" | "mapping" | "array" | "object" | "map" | "stdclass");
        if class == crate::lower::STRICT_NULL {
            return match self {
                Value::Null => Some(true),
                // The id a notification does not have is absent, not null.
                Value::NoId => Some(false),
                Value::Unknown(_) | Value::Captured(_) => None,
                _ => Some(false),
            };
        }
        match self {
            // A framework's error class is lowered as the error status it is answered
            // with (`WP_Error` as 400): an error answer is one, a response is not.
            Value::Http(http) => {
                Some(lower.ends_with("response") || (lower.ends_with("error") && http.status.is_error()))
            }
            Value::Object(_) | Value::Array(_) => {
                Some(map_like || (lower == "list" && matches!(self, Value::Array(_))))
            }
            Value::Message => Some(map_like),
            Value::Instance(own, ..) => Some(map_like || own.eq_ignore_ascii_case(class)),
            Value::Str(_) | Value::Method(_) | Value::ClientVersion { .. } => {
                Some(matches!(lower.as_str(), "str" | "string"))
            }
            Value::Func(_) => Some(matches!(lower.as_str(), "function" | "callable" | "closure")),
            Value::Int(_) => Some(matches!(lower.as_str(), "int" | "integer" | "number")),
            Value::Bool(_) => Some(matches!(lower.as_str(), "bool" | "boolean")),
            Value::Null | Value::NoId => Some(false),
            // A request's id as clients send it: a number (`"id": 1`).
            Value::Id => {
                Some(matches!(lower.as_str(), "number" | "int" | "integer" | "numeric" | "float" | "long"))
            }
            _ => None,
        }
    }

    /// Whether the value has no items: an empty list, object or string, or no value.
    pub(crate) fn is_empty(&self) -> Option<bool> {
        match self {
            Value::Null | Value::NoId => Some(true),
            Value::Array(items) => Some(items.is_empty()),
            Value::Object(entries) => Some(entries.is_empty()),
            Value::Str(s) => Some(s.is_empty()),
            Value::Id
            | Value::Method(_)
            | Value::Reply(_)
            | Value::Message
            | Value::Encoded
            | Value::Instance(..) => Some(false),
            _ => None,
        }
    }

    pub(crate) fn truthy(&self) -> Option<bool> {
        match self {
            Value::Null | Value::NoId => Some(false),
            Value::Bool(b) => Some(*b),
            Value::Int(n) => Some(*n != 0),
            Value::Str(s) => Some(!s.is_empty()),
            Value::Object(e) => Some(!e.is_empty()),
            Value::Array(a) => Some(!a.is_empty()),
            Value::Variant(n, _) => Some(n != "None"),
            Value::Unknown(_) => None,
            // A well-formed `initialize` names its version: a non-empty string.
            Value::Message | Value::ClientVersion { .. } => Some(true),
            _ => Some(true),
        }
    }

    /// The same value, with every reply it carries rewritten by `f`.
    pub(crate) fn map_replies(&self, f: &impl Fn(&Reply) -> Reply) -> Value {
        match self {
            Value::Reply(r) => Value::Reply(Rc::new(f(r))),
            Value::Http(h) => match &h.body {
                Some(b) => Value::Http(Rc::new(HttpValue { body: Some(b.map_replies(f)), ..(**h).clone() })),
                None => self.clone(),
            },
            Value::Array(items) => Value::Array(Rc::new(items.iter().map(|v| v.map_replies(f)).collect())),
            Value::Unknown(items) if !items.is_empty() => {
                Value::Unknown(Rc::new(items.iter().map(|v| v.map_replies(f)).collect()))
            }
            Value::Variant(n, Some(inner)) => Value::Variant(n.clone(), Some(Rc::new(inner.map_replies(f)))),
            _ => self.clone(),
        }
    }

    /// The same value, with `site` set on the replies it carries that have none.
    pub(crate) fn with_site(&self, site: Span) -> Value {
        self.map_replies(&|r| Reply { site: r.site.or(Some(site)), ..r.clone() })
    }

    /// The HTTP response this value is or carries, if any.
    pub fn http(&self) -> Option<Rc<HttpValue>> {
        match self {
            Value::Unknown(items) | Value::Array(items) => items.iter().find_map(Value::http),
            other => other.as_http(),
        }
    }

    /// The HTTP response this value is: a framework's, or an object of the code's own
    /// response class (`class Response` with a `status` and a `body`, as a web
    /// framework written in the project has it), read by its fields.
    pub fn as_http(&self) -> Option<Rc<HttpValue>> {
        match self {
            Value::Http(h) => Some(h.clone()),
            Value::Instance(class, fields, span) => response_instance(class, fields, *span).map(Rc::new),
            _ => None,
        }
    }

    /// The value as JSON text would carry it: an instance's fields as an object (a
    /// reply when they make one).
    pub fn serialised(&self) -> Value {
        match self {
            Value::Instance(_, fields, span) => {
                let fields = fields.iter().map(|(k, v)| (k.clone(), v.serialised())).collect();
                promote(Value::Object(Rc::new(fields)), *span)
            }
            other => other.clone(),
        }
    }

    /// The value as PHP's `json_encode(.., JSON_FORCE_OBJECT)` writes it: every
    /// empty array an empty object.
    pub fn forced_objects(&self) -> Value {
        match self.serialised() {
            Value::Array(items) if items.is_empty() => Value::Object(Rc::new(Vec::new())),
            Value::Array(items) => Value::Array(Rc::new(items.iter().map(Value::forced_objects).collect())),
            Value::Object(entries) => {
                Value::Object(Rc::new(entries.iter().map(|(k, v)| (k.clone(), v.forced_objects())).collect()))
            }
            Value::Reply(r) => Value::Reply(Rc::new(Reply {
                result: r.result.as_ref().map(Value::forced_objects),
                ..(*r).clone()
            })),
            other => other,
        }
    }

    /// The first JSON-RPC reply this value is or contains.
    pub fn first_reply(&self) -> Option<Rc<Reply>> {
        let mut out = Vec::new();
        self.replies(&mut out);
        out.into_iter().next()
    }

    /// Every JSON-RPC reply this value is or contains.
    pub fn replies(&self, out: &mut Vec<Rc<Reply>>) {
        let mut unsure = Vec::new();
        self.split_replies(out, &mut unsure);
        out.extend(unsure);
    }

    /// This value with every object that is `before` itself (the same shared map, not
    /// an equal one) replaced by `after`; None when it holds none.
    pub fn replace_shared(&self, before: &Rc<Vec<(String, Value)>>, after: &Value) -> Option<Value> {
        match self {
            Value::Object(o) if Rc::ptr_eq(o, before) => Some(after.clone()),
            Value::Object(o) => {
                let values: Vec<Value> = o.iter().map(|(_, v)| v.clone()).collect();
                let updated = replace_each(&values, before, after)?;
                let keys = o.iter().map(|(k, _)| k.clone());
                Some(Value::Object(Rc::new(keys.zip(updated).collect())))
            }
            Value::Array(items) => replace_each(items, before, after).map(|u| Value::Array(Rc::new(u))),
            Value::Reply(r) => {
                let result = r.result.as_ref()?.replace_shared(before, after)?;
                Some(Value::Reply(Rc::new(Reply { result: Some(result), ..(**r).clone() })))
            }
            _ => None,
        }
    }

    /// The replies this value holds as members of an array (a batch's answer): in an
    /// array written out, returned, or sent as an HTTP body with a status the scan
    /// knows and that is no error.
    pub fn batch_replies(&self, out: &mut Vec<Rc<Reply>>) {
        match self {
            Value::Array(items) => items.iter().for_each(|v| v.replies(out)),
            Value::Http(h)
                if matches!(h.status, HttpStatus::Code(_) | HttpStatus::Unset) && !h.status.is_error() =>
            {
                if let Some(b) = &h.body {
                    b.batch_replies(out)
                }
            }
            Value::Instance(..) => {
                if let Some(h) = self.as_http() {
                    Value::Http(h).batch_replies(out)
                }
            }
            Value::Variant(_, Some(v)) => v.batch_replies(out),
            Value::Unknown(items) => items.iter().for_each(|v| v.batch_replies(out)),
            _ => {}
        }
    }

    /// The replies this value is or contains, apart: those sent in an HTTP answer whose
    /// status the scan cannot compute go to `unsure` (an error status would make the
    /// answer a refusal of the input, not a reply to it).
    pub fn split_replies(&self, sure: &mut Vec<Rc<Reply>>, unsure: &mut Vec<Rc<Reply>>) {
        match self {
            Value::Reply(r) => sure.push(r.clone()),
            Value::Instance(..) if self.as_http().is_some() => {
                if let Some(h) = self.as_http() {
                    Value::Http(h).split_replies(sure, unsure)
                }
            }
            Value::Instance(..) => {
                if let Value::Reply(r) = self.serialised() {
                    sure.push(r);
                }
            }
            // A 4xx/5xx answer rejects the input at the transport (auth, bad request): not a reply to it.
            Value::Http(h) if h.status.is_error() => {}
            Value::Http(h) => {
                if let Some(b) = &h.body {
                    if h.status == HttpStatus::Unknown {
                        b.replies(unsure)
                    } else {
                        b.split_replies(sure, unsure)
                    }
                }
            }
            Value::Array(items) => items.iter().for_each(|v| v.split_replies(sure, unsure)),
            Value::Unknown(items) => items.iter().for_each(|v| v.split_replies(sure, unsure)),
            Value::Variant(_, Some(v)) => v.split_replies(sure, unsure),
            // A server-sent event written as its fields (sse-starlette's `{"event":
            // "message", "data": json.dumps(reply)}`): the reply is its data.
            Value::Object(entries)
                if entries.iter().all(|(k, _)| SSE_EVENT_FIELDS.contains(&k.as_str()))
                    && let Some((_, data)) = entries.iter().find(|(k, _)| k == "data") =>
            {
                data.split_replies(sure, unsure)
            }
            _ => {}
        }
    }
}

/// The fields of a server-sent event written as a mapping (sse-starlette, Hono's
/// `writeSSE`): `event`, `data`, `id`, `retry`, `comment`.
const SSE_EVENT_FIELDS: &[&str] = &["event", "data", "id", "retry", "comment"];

/// The items with `before` replaced by `after` in each (see [`Value::replace_shared`]);
/// None when no item holds it.
fn replace_each(items: &[Value], before: &Rc<Vec<(String, Value)>>, after: &Value) -> Option<Vec<Value>> {
    let replaced: Vec<Option<Value>> = items.iter().map(|v| v.replace_shared(before, after)).collect();
    replaced
        .iter()
        .any(Option::is_some)
        .then(|| replaced.into_iter().zip(items).map(|(r, v)| r.unwrap_or_else(|| v.clone())).collect())
}

/// Fields that hold an HTTP response's status, and its body, in response classes.
const RESPONSE_STATUS_FIELDS: &[&str] = &["status", "status_code", "statusCode", "StatusCode"];
const RESPONSE_BODY_FIELDS: &[&str] = &["body", "content", "data", "text", "Body"];

/// Whether an object describes an HTTP answer: it has a status member
/// (`{ status: 202 }`, `{ statusCode: 200, body }`).
pub(crate) fn describes_answer(members: &[(String, Value)]) -> bool {
    members.iter().any(|(k, _)| RESPONSE_STATUS_FIELDS.contains(&k.as_str()))
}

/// Whether an object carries an answer: a member holds a JSON-RPC reply or an HTTP
/// answer (a router's `{ response: reply }` or `{ httpError: res }` for its caller).
pub(crate) fn carries_answer(members: &[(String, Value)]) -> bool {
    let answer = |v: &Value| matches!(v, Value::Reply(_) | Value::Http(_));
    members.iter().any(|(_, v)| answer(v) || matches!(v, Value::Unknown(parts) if parts.iter().any(answer)))
}

/// A member of an HTTP answer read back: `response.status` (200 when the answer was
/// built without one), `response.body` (nothing is the empty text, JSON `null` the
/// text `null`).
pub(crate) fn http_member(http: &HttpValue, field: &str) -> Option<Value> {
    if RESPONSE_STATUS_FIELDS.contains(&field) {
        return Some(match http.status {
            HttpStatus::Code(code) => Value::Int(i64::from(code)),
            HttpStatus::Unset => Value::Int(200),
            _ => Value::unknown(),
        });
    }
    (field == "body").then(|| match &http.body {
        None => Value::Str(String::new()),
        Some(Value::Null) => Value::Str("null".to_string()),
        Some(other) => other.clone(),
    })
}

/// An object of a class named as an HTTP response (`Response`, `HttpResponse`,
/// `JsonResponse`) that carries a status: the answer it describes. Without a status
/// field it is not taken for one (a `ToolResponse` is a payload).
fn response_instance(class: &str, fields: &[(String, Value)], span: Span) -> Option<HttpValue> {
    let last = class.rsplit(['.', ':', '\\']).next().unwrap_or(class);
    if !last.ends_with("Response") {
        return None;
    }
    let field = |names: &[&str]| fields.iter().find(|(k, _)| names.contains(&k.as_str())).map(|(_, v)| v);
    let status = match field(RESPONSE_STATUS_FIELDS)? {
        Value::Int(n) => u16::try_from(*n).map_or(HttpStatus::Unknown, HttpStatus::Code),
        Value::Null => HttpStatus::Unset,
        _ => HttpStatus::Unknown,
    };
    let body = match field(RESPONSE_BODY_FIELDS) {
        None | Some(Value::Null) => None,
        Some(Value::Str(s)) if s.is_empty() => None,
        Some(v) => Some(v.clone()),
    };
    Some(HttpValue { status, body, span })
}

/// What a path did that the checks look at.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Effect {
    /// A value written out by a call such as `print`, `write_all`, `send`.
    Emit {
        value: Value,
        span: Span,
    },
    /// A value an HTTP handler printed to standard output (see
    /// [`crate::lower::PRINT`]): a log line, not an answer; an output buffer made
    /// before it holds it (`contextlib.redirect_stdout(buffer)`).
    Printed {
        value: Value,
        span: Span,
    },
    SetInitialized(Span),
    /// The message was read into this model class on the path
    /// (`JSONRPCInitializeRequest.model_validate(payload)`): a later `case
    /// JSONRPCInitializeRequest():` on it is decided by the class.
    ReadAs(std::rc::Rc<str>),
    /// The path decided whether the program runs from the command line (PHP's
    /// `php_sapi_name() === 'cli'`): on `true` its output is standard output, and
    /// no HTTP request is being answered.
    CommandLine(bool),
    /// A status set on a response the handler does not return, which the framework
    /// gives the body the handler returns (FastAPI's `response.status_code = 404`
    /// on a `response: Response` parameter).
    LentStatus {
        status: HttpStatus,
        span: Span,
    },
    /// A member a function wrote on one of its parameters (`ctx.response = r` in
    /// `def on_ping(ctx)`): the caller takes it onto the variable it passed.
    Wrote {
        target: String,
        value: Value,
        span: Span,
    },
}

pub(crate) fn error_code(v: &Value) -> Option<i64> {
    match v {
        Value::Int(n) => Some(*n),
        Value::Object(entries) => entries.iter().find(|(k, _)| k == "code").and_then(|(_, c)| match c {
            Value::Int(n) => Some(*n),
            _ => None,
        }),
        // A struct of the code's own (`&Error{Code: code}`): its field as encoded.
        Value::Instance(_, fields, _) => {
            fields.iter().find(|(k, _)| k.eq_ignore_ascii_case("code")).and_then(|(_, c)| match c {
                Value::Int(n) => Some(*n),
                _ => None,
            })
        }
        Value::Unknown(parts) => parts.iter().find_map(error_code),
        _ => None,
    }
}

/// `value` with the member at `keys` replaced by `new`: objects take the entry,
/// replies their `id`, `result` or `error` (its `code` too).
pub(crate) fn with_member(value: &Value, keys: &[String], new: Value, span: crate::model::Span) -> Value {
    let Some((key, rest)) = keys.split_first() else { return new };
    match value {
        Value::Object(entries) => {
            let mut entries = entries.as_ref().clone();
            match entries.iter_mut().find(|(k, _)| k == key) {
                Some((_, v)) => *v = with_member(v, rest, new, span),
                None => entries.push((key.clone(), with_member(&Value::unknown(), rest, new, span))),
            }
            let object = Value::Object(Rc::new(entries));
            // Members that make an object a JSON-RPC reply turn it into one.
            promote(object, span)
        }
        // PHP builds maps from an empty `array()` member by member.
        Value::Array(items) if items.is_empty() => {
            with_member(&Value::Object(Rc::new(Vec::new())), keys, new, span)
        }
        Value::Instance(class, fields, built) => {
            let mut fields = fields.as_ref().clone();
            match fields.iter_mut().find(|(k, _)| k == key) {
                Some((_, v)) => *v = with_member(v, rest, new, span),
                None => fields.push((key.clone(), with_member(&Value::unknown(), rest, new, span))),
            }
            Value::Instance(class.clone(), Rc::new(fields), *built)
        }
        Value::Reply(r) => {
            let mut r = (**r).clone();
            match (key.as_str(), rest) {
                ("id", _) => r.id = new,
                ("result", _) => {
                    r.result =
                        Some(with_member(r.result.as_ref().unwrap_or(&Value::unknown()), rest, new, span))
                }
                ("error", []) => r.error = Some(error_code(&new)),
                ("error", [code]) if code == "code" => r.error = Some(error_code(&new)),
                _ => {}
            }
            Value::Reply(Rc::new(r))
        }
        // A proxy response built member by member (`response.body = JSON.stringify(r)`,
        // `response.statusCode = 202`).
        Value::Http(h) if rest.is_empty() => {
            let mut h = (**h).clone();
            if key == "body" {
                h.body = match new {
                    Value::Str(text) if text.is_empty() => None,
                    other => Some(other),
                };
            } else if RESPONSE_STATUS_FIELDS.contains(&key.as_str()) {
                h.status = match new {
                    Value::Int(n) => u16::try_from(n).map_or(HttpStatus::Unknown, HttpStatus::Code),
                    _ => HttpStatus::Unknown,
                };
            }
            Value::Http(Rc::new(h))
        }
        _ => value.clone(),
    }
}

/// An object with `jsonrpc`/`id` and `result`/`error` members is a reply. With both
/// members, the one that is not null decides; an error that may or may not be null
/// beside a known result is taken as the result (a witness needs a known error).
pub(crate) fn promote(object: Value, span: crate::model::Span) -> Value {
    let Value::Object(entries) = &object else { return object };
    let get = |k: &str| entries.iter().find(|(key, _)| key == k).map(|(_, v)| v.clone());
    // A response has no `method`: an object with one is a request or notification.
    if (get("jsonrpc").is_none() && get("id").is_none())
        || get("method").is_some_and(|m| m.is_empty() == Some(false))
    {
        return object;
    }
    // `{"type": "error", "id": id, "error": "bad request"}` of a line protocol of its
    // own: a JSON-RPC error is an object, and without `jsonrpc` a text error and no
    // result is no JSON-RPC reply.
    if get("jsonrpc").is_none() && get("result").is_none() && matches!(get("error"), Some(Value::Str(_))) {
        return object;
    }
    // `['id' => $session, 'error' => Response::json(.., 404)]`: a helper's record holding
    // an HTTP response its caller may send. A JSON-RPC error is an object, not a response.
    if get("jsonrpc").is_none()
        && get("result").is_none()
        && get("error").is_some_and(|e| e.as_http().is_some())
    {
        return object;
    }
    let id = get("id").unwrap_or(Value::Null);
    let result_known = get("result").is_some_and(|r| r.is_nullish() == Some(false));
    let error = get("error").filter(|e| e.is_nullish() != Some(true));
    let error = error.filter(|e| !(result_known && e.is_nullish().is_none()));
    if let Some(e) = error {
        return Value::Reply(Rc::new(Reply {
            id,
            result: None,
            error: Some(error_code(&e)),
            span,
            site: None,
            pre_dispatch: false,
        }));
    }
    match get("result") {
        Some(r) => Value::Reply(Rc::new(Reply {
            id,
            result: Some(r),
            error: None,
            span,
            site: None,
            pre_dispatch: false,
        })),
        None => object,
    }
}

/// At most this many values are carried by one unknown value.
pub(crate) const MAX_PARTS: usize = 8;

/// An unknown value built from others: keeps the ones the checks care about,
/// flattened and without repeats, so values stay small however often they mix.
pub(crate) fn join(vals: &[Value]) -> Value {
    let mut kept: Vec<Value> = Vec::new();
    let add = |v: &Value, kept: &mut Vec<Value>| {
        if v.interesting() && !kept.contains(v) && kept.len() < MAX_PARTS {
            kept.push(v.clone());
        }
    };
    for v in vals {
        match v {
            Value::Unknown(parts) => parts.iter().for_each(|p| add(p, &mut kept)),
            other => add(other, &mut kept),
        }
    }
    Value::Unknown(Rc::new(kept))
}

/// How a well-formed probe's text begins, as a client sends it.
const ENCODED_START: &str = "{\"jsonrpc\":\"2.0\"";

/// Whether the message's text starts with `prefix` (`bytes.HasPrefix(body, []byte("["))`):
/// known while the prefix is within the start every probe shares.
pub(crate) fn encoded_starts_with(prefix: &str, batch: bool) -> Value {
    // A batch's text is `[` and then the message's.
    let prefix = match (batch, prefix.strip_prefix('[')) {
        (true, Some(rest)) => rest,
        (true, None) => return Value::Bool(prefix.is_empty()),
        (false, _) => prefix,
    };
    if ENCODED_START.starts_with(prefix) {
        Value::Bool(true)
    } else if prefix.len() <= ENCODED_START.len() || !prefix.starts_with(ENCODED_START) {
        Value::Bool(false)
    } else {
        Value::unknown()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_batch_text_opens_with_a_bracket_and_then_the_message() {
        assert_eq!(encoded_starts_with("[", true), Value::Bool(true));
        assert_eq!(encoded_starts_with("[{", true), Value::Bool(true));
        assert_eq!(encoded_starts_with("{", true), Value::Bool(false));
        assert_eq!(encoded_starts_with("[", false), Value::Bool(false));
        assert_eq!(encoded_starts_with("{", false), Value::Bool(true));
    }

    #[test]
    fn a_shared_object_is_replaced_where_it_is_held_and_an_equal_one_is_not() {
        let result = Rc::new(Vec::new());
        let equal = Value::Object(Rc::new(Vec::new()));
        let after = Value::Object(Rc::new(vec![("resultType".to_string(), Value::Str("complete".into()))]));
        let reply = Value::Object(Rc::new(vec![
            ("result".to_string(), Value::Object(result.clone())),
            ("other".to_string(), equal.clone()),
        ]));
        let Some(Value::Object(updated)) = reply.replace_shared(&result, &after) else {
            panic!("the reply holds the shared object");
        };
        assert_eq!(updated[0].1, after);
        assert_eq!(updated[1].1, equal);
        assert_eq!(equal.replace_shared(&result, &after), None);
    }

    #[test]
    fn unknown_values_keep_replies() {
        let r = Value::Reply(Rc::new(Reply {
            id: Value::Id,
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

    #[test]
    fn joined_values_stay_small() {
        let reply = |n: i64| {
            Value::Reply(Rc::new(Reply {
                id: Value::Int(n),
                result: None,
                error: Some(Some(n)),
                span: Span::default(),
                site: None,
                pre_dispatch: false,
            }))
        };
        let mut v = Value::unknown();
        for n in 0..100 {
            v = join(&[v, reply(n), reply(n)]);
        }
        match v {
            Value::Unknown(parts) => {
                assert_eq!(parts.len(), MAX_PARTS);
                assert!(parts.iter().all(|p| matches!(p, Value::Reply(_))), "nested unknowns are flattened");
            }
            other => panic!("expected an unknown value, got {other:?}"),
        }
    }
}
