//! Language-neutral facts: what every language module lowers a syntax tree to.
//!
//! The model is a small expression language. Each function of a source file
//! becomes a [`Function`] whose body is a [`Block`] of [`Stmt`]s over [`Expr`]s.
//! Only what the checks need survives lowering: message field reads, string
//! comparisons, method dispatch (`match`/`switch`, `if` chains, handler maps),
//! calls, JSON-RPC reply objects, HTTP responses, and control flow.
//! Everything else becomes [`Expr::Opaque`], which keeps its sub-expressions so
//! values still flow through wrappers like `json.dumps(x)`.

use serde::Serialize;

/// The source languages the scanner knows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Language {
    Python,
    Rust,
    TypeScript,
    JavaScript,
    Go,
    Php,
}

impl Language {
    pub fn name(self) -> &'static str {
        match self {
            Language::Python => "python",
            Language::Rust => "rust",
            Language::TypeScript => "typescript",
            Language::JavaScript => "javascript",
            Language::Go => "go",
            Language::Php => "php",
        }
    }
}

/// A place in a scanned file. Byte offsets are kept; line and column are
/// 1-based, the column counted in bytes (reporters convert as they need).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Span {
    pub file: u32,
    pub line: u32,
    pub column: u32,
    pub start: u32,
    pub end: u32,
}

impl Span {
    /// Whether `inner` lies within this span (same file, byte range inside).
    pub fn contains(&self, inner: Span) -> bool {
        self.file == inner.file && self.start <= inner.start && inner.end <= self.end
    }
}

/// Index of a function in the scan-wide function table.
pub type FnId = usize;

/// HTTP verbs, as request methods and `Method::` paths name them (upper-cased).
pub const HTTP_VERBS: &[&str] = &["GET", "POST", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS"];

pub type Block = Vec<Stmt>;

#[derive(Debug, Clone)]
pub enum Stmt {
    /// `target = value` (a plain name or a dotted path such as `self.handlers`).
    Assign { target: String, value: Expr, span: Span },
    /// An expression evaluated for its effects (a call, an `if`, a `match`).
    Expr(Expr),
    /// `return value`; `None` returns nothing (null).
    Return { value: Option<Expr>, span: Span },
    /// `raise`/`throw`/`panic!`.
    Raise { value: Expr, span: Span },
    /// `xs.append(v)`, `xs.push(v)`, `$xs[] = $v`: adds an item to the list a name holds.
    Push { target: String, value: Expr, span: Span },
    /// `table[key] = value` with a computed key: a write into a map (`s.handlers[name] = h`).
    Store { table: String, key: Box<Expr>, value: Box<Expr>, span: Span },
    /// The value of a block used as an expression (Rust tail expressions).
    Yield(Expr),
    /// `break` or `continue`: leaves the loop body.
    LeaveLoop,
    /// A labelled `break` (Go, JavaScript: `break outer`), where a plain `break` would
    /// end only a `switch`: leaves the loop body from inside the switch too.
    Continue,
    /// `continue` (Rust, Python, Go, JavaScript): this round of the loop ends and the
    /// next one starts, with the next item of a list or, in a loop that reads its
    /// input (`loop { let line = read()?; if line.is_empty() { continue } .. }`), the
    /// next message: for the message being followed, nothing more happens there.
    NextRound,
    /// `exit`/`die` (PHP), `os.Exit`, `sys.exit`, `process.exit`, `std::process::exit`:
    /// ends the request or the process; what was written so far is the answer.
    Exit { span: Span },
    /// Sets a flag whose name says the session is initialized.
    SetInitialized { span: Span },
    /// `a, b := f()`, `(a, b) = t`: each target takes its element of a tuple value.
    Destructure { targets: Vec<String>, value: Expr, span: Span },
}

#[derive(Debug, Clone)]
pub enum Expr {
    Null,
    Bool(bool),
    Int(i64),
    Str(String),
    /// A read of a field the checks follow: `msg["method"]`, `req.id`, `params.protocolVersion`,
    /// `reply.error`. On a reply value it reads the reply; otherwise it reads the incoming message.
    Field {
        object: Option<Box<Expr>>,
        name: FieldName,
    },
    Var(String),
    /// An object/dict literal.
    Object {
        entries: Vec<(String, Expr)>,
        span: Span,
    },
    Array {
        items: Vec<Expr>,
        span: Span,
    },
    /// A JSON-RPC response object (has `result` or `error`, and `jsonrpc` or `id`).
    Reply {
        kind: ReplyExpr,
        /// The reply's `id` member, when it has one.
        id: Option<Box<Expr>>,
        span: Span,
    },
    /// An HTTP response with a status (None: the framework default, 200) and a body.
    Http {
        status: Option<u16>,
        body: Option<Box<Expr>>,
        span: Span,
    },
    /// An HTTP response whose status is computed: `new WP_REST_Response($data, $status)`.
    /// `null_is_empty`: a null body goes out as no body at all (not the text `null`).
    HttpWith {
        status: Box<Expr>,
        body: Box<Expr>,
        null_is_empty: bool,
        span: Span,
    },
    /// A call; `callee` is the written name (`self.send_error`, `Self::reply`),
    /// `receiver` the value a method is called on (not `self`).
    Call {
        callee: String,
        receiver: Option<Box<Expr>>,
        args: Vec<Expr>,
        span: Span,
    },
    /// A reference to a function by name, e.g. a handler stored in a map.
    FnRef(String),
    /// `a == b` (`negated`: `!=`).
    Eq {
        left: Box<Expr>,
        right: Box<Expr>,
        negated: bool,
    },
    /// `x is None`, `x.is_none()`, `x === undefined`, `x == nil`.
    IsNull(Box<Expr>),
    /// `len(x) == 0`, `x.length === 0`, `empty($x)`: no items (or no value at all).
    IsEmpty(Box<Expr>),
    /// `$x instanceof Response`, `isinstance(x, Response)`: a test of what kind of
    /// value `x` is, decided where the value's kind is known.
    IsA {
        value: Box<Expr>,
        class: String,
    },
    /// `"key" in obj`, `isset($o['key'])`, `obj.contains_key("key")`.
    HasKey {
        object: Box<Expr>,
        key: String,
    },
    /// `a < b`, `a >= b`: an order comparison, decided on integers.
    Compare {
        op: Order,
        left: Box<Expr>,
        right: Box<Expr>,
    },
    /// `item in collection`, `collection.contains(item)`.
    Member {
        item: Box<Expr>,
        collection: Box<Expr>,
    },
    /// `text.startswith(prefix)`.
    StartsWith {
        text: Box<Expr>,
        prefix: String,
    },
    Not(Box<Expr>),
    And(Box<Expr>, Box<Expr>),
    Or(Box<Expr>, Box<Expr>),
    /// `a ?? b` (PHP, JavaScript): `a` unless it is null or undefined, else `b`. Unlike
    /// `||`, an empty or false `a` is kept.
    Coalesce(Box<Expr>, Box<Expr>),
    /// `collection[key]` or `collection.get(key)` on a value that is not the message.
    Lookup {
        collection: Box<Expr>,
        key: Box<Expr>,
    },
    /// Expression-level conditional: `if`/ternary/`a if c else b`.
    If {
        cond: Box<Expr>,
        then: Block,
        otherwise: Block,
        span: Span,
    },
    /// `match`/`switch` with ordered arms.
    Match {
        subject: Box<Expr>,
        arms: Vec<Arm>,
        span: Span,
    },
    /// A loop: the body is taken once (a message loop handles one message).
    Loop {
        body: Block,
    },
    /// `for x in xs`, `foreach ($xs as $x)`, `for (const x of xs)`, `for _, x := range xs`:
    /// over a list whose items are known the body runs once per item (none for an
    /// empty list), the target bound to it; over anything else, once.
    ForEach {
        targets: Vec<String>,
        iterable: Box<Expr>,
        body: Block,
    },
    /// `try`: the handler runs on the paths where the body raised.
    Try {
        body: Block,
        handler: Block,
        binding: Option<String>,
    },
    /// A block used as a value (Rust blocks, Python `with`).
    Block(Block),
    /// `Ok(x)` / `Err(x)` / `Some(x)` style wrappers that a later match takes apart.
    Variant {
        name: String,
        inner: Option<Box<Expr>>,
    },
    /// Rust's `x?`: returns early when `x` is `None` or `Err`, else unwraps it.
    Propagate(Box<Expr>),
    /// A read that raises when the member is absent: Python's `msg["id"]` on a
    /// notification raises `KeyError`.
    Required(Box<Expr>),
    /// The decoded incoming message: what `json.loads(line)`, `JSON.parse(body)` or
    /// `json_decode($input)` return for a well-formed probe. The parts are evaluated
    /// for their effects.
    Message(Vec<Expr>),
    /// A named argument of a call: `f(error=e)`, `f(error: e)`.
    Named {
        name: String,
        value: Box<Expr>,
    },
    /// An argument spread into the call's positions: `f(*args)`, `f(...args)`,
    /// `f(...$args)`.
    Spread(Box<Expr>),
    /// Anything else: its sub-expressions still carry values (and effects).
    Opaque(Vec<Expr>),
}

/// The order comparisons.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Order {
    Less,
    LessOrEqual,
    Greater,
    GreaterOrEqual,
}

impl Order {
    /// The comparison an operator writes (`<`, `<=`, `>`, `>=`).
    pub fn of(op: &str) -> Option<Order> {
        Some(match op {
            "<" => Order::Less,
            "<=" => Order::LessOrEqual,
            ">" => Order::Greater,
            ">=" => Order::GreaterOrEqual,
            _ => return None,
        })
    }

    pub fn holds(self, a: i64, b: i64) -> bool {
        match self {
            Order::Less => a < b,
            Order::LessOrEqual => a <= b,
            Order::Greater => a > b,
            Order::GreaterOrEqual => a >= b,
        }
    }
}

/// The fields that matter to the checks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FieldName {
    Method,
    Id,
    /// The envelope's `jsonrpc` member: `"2.0"` in every well-formed message.
    Jsonrpc,
    ProtocolVersion,
    /// A reply's `result`.
    Result,
    /// A reply's `error`.
    Error,
}

#[derive(Debug, Clone)]
pub enum ReplyExpr {
    Result(Box<Expr>),
    /// An error reply; the code when it can be read from the literal.
    Error(Box<Expr>),
}

#[derive(Debug, Clone)]
pub struct Arm {
    pub patterns: Vec<Pattern>,
    pub guard: Option<Expr>,
    pub body: Block,
    pub span: Span,
}

/// A kind of JSON-RPC message, as a type or variant is named for one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MessageKind {
    Request,
    Notification,
    Response,
}

/// The kind of message a type or variant is named for: `Notification`,
/// `JsonRpcNotification`; `Request`, `JSONRPCRequest` (not `BadRequest`);
/// `Response`, `ErrorResponse`.
pub fn message_kind(name: &str) -> Option<MessageKind> {
    let name = name.rsplit(['.', ':', '>']).next().unwrap_or(name);
    if name.ends_with("Notification") {
        Some(MessageKind::Notification)
    } else if name.ends_with("Request") && !matches!(name, "BadRequest" | "InvalidRequest") {
        Some(MessageKind::Request)
    } else if name.ends_with("Response") {
        Some(MessageKind::Response)
    } else {
        None
    }
}

#[derive(Debug, Clone)]
pub enum Pattern {
    /// A string literal pattern (`"ping"`, `case 'tools/list':`).
    Str(String),
    Int(i64),
    /// `_`, `default:`, or a binding that takes anything (`other`).
    Any(Option<String>),
    /// A named constant matched by value: `case MethodPing:`, `Methods::PING =>`,
    /// `case self::PING:`. Resolved where the name is defined.
    Const(String),
    /// `Ok(x)`, `Err(e)`, `Some(x)`, `None`.
    Variant {
        name: String,
        binding: Option<String>,
    },
    /// `Some("initialize")`: a variant whose content must match a pattern of its own.
    VariantOf {
        name: String,
        inner: Box<Pattern>,
    },
    /// `Message::Request { id, method, .. }`: a struct variant named for a kind of
    /// JSON-RPC message, with the fields it binds as `(field, local name)`. Matched
    /// against the decoded message, the kind decides and the fields are the message's.
    MessageFields {
        name: String,
        fields: Vec<(String, String)>,
    },
    /// `(Some(payload), Some(id))`: a tuple matched element by element.
    Tuple(Vec<Pattern>),
    /// A Go type-switch case (`case string:`, `case int:`): never nil, a string
    /// only for `string`; what a number decodes as is not known.
    Type(String),
    /// A variant of a `#[serde(untagged)]` enum matched against the decoded message,
    /// decided by whether the type it holds takes the probe (`fits`: a type that
    /// requires `id` does not take a notification).
    Untagged {
        /// The variant's name: a value built as one of the enum's variants
        /// (`IncomingMessage::Notification(n)`) matches by it.
        name: String,
        binding: Option<String>,
        fits: bool,
    },
    /// A pattern this model cannot decide.
    Unknown,
}

/// A function or method, or the top level of a file (named `<module>`).
#[derive(Debug, Clone)]
pub struct Function {
    pub name: String,
    /// The class, impl or receiver type the function belongs to, if any.
    pub owner: Option<String>,
    pub params: Vec<String>,
    /// Parameters with a default value, and the value: what an argument left out binds.
    pub defaults: Vec<(String, Expr)>,
    /// What the declaration says of some parameters (see [`ParamMark`]). One list for
    /// all marks: measured on the all-MCP benchmark, 8 more bytes per function
    /// doubled the page faults and cost a fifth of the wall time.
    pub marked: Vec<(String, ParamMark)>,
    /// Parameters declared with one named type (`MemoryServer $server`, `router:
    /// SessionRouter`, `r *Router`): `(name, type)`; a method called on one is that type's.
    pub param_types: Vec<(String, String)>,
    pub body: Block,
    pub span: Span,
    /// Registered as an HTTP route handler (decorator, router call, signature).
    pub http_route: bool,
    /// An HTTP handler by its signature alone (`(request: Request): Promise<Response>`,
    /// `request: web.Request`), not seen mounted: when another handler calls it, it is
    /// that handler's helper, not where requests arrive.
    pub http_signature: bool,
    /// Takes a network connection (`stream: TcpStream`, `conn net.Conn`): an HTTP
    /// handler when its file writes HTTP by hand ([`FileFacts::writes_http`]).
    pub http_connection: bool,
    /// A mounted handler whose framework sends no response at all when it writes none
    /// (http.server's `do_POST`), rather than a default 200.
    pub http_silent_unanswered: bool,
    /// Reads messages from standard input.
    pub reads_stdin: bool,
    /// A Rust associated function without `self`: called as `Type::f()`, never as
    /// `value.f()`.
    pub associated: bool,
    /// Declared without a body (an interface's or an abstract method): never what runs.
    pub bodiless: bool,
    /// The class its declared return type names (`: StdioServer`, `-> Self`,
    /// `Promise<Router>`, Go's `(*Server, error)`): a method called on what it returns
    /// is that class's.
    pub returns: Option<String>,
}

/// What a function's declaration says of one of its parameters.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ParamMark {
    /// Declared with a type that excludes null (PHP `string $id`): a call that passes
    /// null to it raises a TypeError instead of running the body.
    NonNull,
    /// Passed as a copy, so that an element the function writes on it
    /// (`$context['k'] = v`) is its own: PHP's, unless taken by reference (`&$x`).
    Copied,
}

impl Function {
    /// Whether this is where a program starts: a free `main`, or a file's top level.
    pub fn starts_program(&self) -> bool {
        self.owner.is_none() && matches!(self.name.as_str(), "main" | "<module>")
    }

    /// Whether parameter `name` carries `mark`.
    pub fn marks(&self, name: &str, mark: ParamMark) -> bool {
        self.marked.iter().any(|(p, m)| p == name && *m == mark)
    }

    /// A function the lowering writes itself (a one-expression closure, a constructor
    /// a framework base gives a class): plain parameters, no HTTP or input role.
    pub fn written(
        name: String,
        owner: Option<String>,
        params: Vec<String>,
        body: Block,
        span: Span,
    ) -> Function {
        Function {
            name,
            owner,
            params,
            defaults: Vec::new(),
            marked: Vec::new(),
            param_types: Vec::new(),
            body,
            span,
            http_route: false,
            http_signature: false,
            http_connection: false,
            http_silent_unanswered: false,
            reads_stdin: false,
            associated: false,
            bodiless: false,
            returns: None,
        }
    }
}

/// A class of the scanned code: what its instances start with and where its
/// methods come from.
#[derive(Debug, Clone)]
pub struct ClassDef {
    pub name: String,
    /// The classes it extends (last name segments), nearest first.
    pub bases: Vec<String>,
    /// Declared fields in order, with their default where one is written
    /// (dataclass and pydantic fields, PHP properties, TypeScript class fields).
    pub fields: Vec<(String, Option<Expr>)>,
    pub span: Span,
}

/// A method-to-handler registration outside a literal map, e.g.
/// `@server.method("tools/list")` or `handlers.insert("ping", on_ping)`.
#[derive(Debug, Clone)]
pub struct Registration {
    pub registry: String,
    pub method: String,
    pub handler: String,
    pub span: Span,
}

/// A function registered on an event emitter (`server.events.on("message", cb)`):
/// the emitter as written, the event's name and the handler's name.
#[derive(Debug, Clone)]
pub struct Listener {
    pub emitter: String,
    pub event: String,
    pub handler: String,
    pub span: Span,
}

/// An import of an official MCP SDK.
#[derive(Debug, Clone, Serialize)]
pub struct SdkImport {
    pub sdk: String,
    #[serde(skip)]
    pub span: Span,
}

/// The key of an object-literal entry that spreads another object's members in
/// (`{ ...DEFAULTS, id }`); no real member is named so.
pub const SPREAD: &str = "...";

/// How a property getter's function is named (`get statusCode()` is `get statusCode`):
/// apart from a method of the same name, and found when the property is read.
pub const GETTER_PREFIX: &str = "get ";

/// Members of a Go `context.Context` as the lowering builds it: `$context:<key>` holds
/// what `context.WithValue` put under that key, `$context:` the parent context.
pub const CONTEXT_SLOT: &str = "$context:";

/// How a Go file's full import paths are kept among its import hints
/// (`go:github.com/acme/tool/jsonrpc`); no file path starts with it.
pub const GO_IMPORT: &str = "go:";

/// An import hint naming another crate a Rust file `use`s (`crate:kami_protocol`),
/// resolved to a folder of the scanned workspace by its `Cargo.toml` when it is one.
pub const RUST_CRATE: &str = "crate:";

/// The folder of a path relative to the scanned root (`""` at the root).
pub fn dir_of(path: &str) -> &str {
    memchr::memrchr(b'/', path.as_bytes()).map(|i| &path[..i]).unwrap_or("")
}

/// Whether `path` is `tail` or ends with `/tail`: `src/Mcp` ends with the path `Mcp`,
/// `src/XMcp` does not.
pub fn ends_with_path(path: &str, tail: &str) -> bool {
    path.len() >= tail.len()
        && path.ends_with(tail)
        && (path.len() == tail.len() || path.as_bytes()[path.len() - tail.len() - 1] == b'/')
}

/// The folders a Python file sits in that may be its top-level package
/// (`app/src/acme/rpc/handler.py` -> `app`, `acme`, `rpc`; source containers such
/// as `src` are none): which one is depends on where the project's root is.
pub fn python_packages(path: &str) -> impl Iterator<Item = &str> {
    dir_of(path).split('/').filter(|d| !d.is_empty() && !matches!(*d, "src" | "lib" | "python"))
}

/// Everything lowered from one file.
#[derive(Debug, Clone)]
pub struct FileFacts {
    pub path: String,
    pub language: Language,
    pub functions: Vec<Function>,
    pub registrations: Vec<Registration>,
    /// Event listeners: `emitter.on("message", handler)`.
    pub listeners: Vec<Listener>,
    pub sdk_imports: Vec<SdkImport>,
    /// Where an SDK server is built or started (`FastMCP(...)`, `.serve(stdio())`),
    /// in a file that imports the SDK.
    pub sdk_server: Option<Span>,
    /// The SDK this file is part of, when it is an SDK's own (vendored) code.
    pub sdk_library: Option<String>,
    /// Modules this file imports, as path hints (`mcp/transport`, `internal/mcp`):
    /// code there may be called from here even when the folders are not nested.
    pub imports: Vec<String>,
    /// Modules the file names by a local name of its own, as (local name, module as
    /// the import spells it). Go: packages imported under an alias (`cfg
    /// "example.com/app/config"` gives `("cfg", "example.com/app/config")`). Python:
    /// `import a.b as m` gives `("m", "a.b")`, `from .rpc import handlers as h` gives
    /// `("h", ".rpc.handlers")` (the name may be a module's or a function's).
    /// JavaScript: `import * as h from "./rpc/handlers"` in `src/main.ts` gives
    /// `("h", "src/rpc/handlers")`, the path resolved from the scan's root.
    pub module_aliases: Vec<(String, String)>,
    /// Interfaces the file declares, with the methods each names (Go: `type Handler
    /// interface { Handle(..) error }` gives `("Handler", ["Handle"])`).
    pub interfaces: Vec<(String, Vec<String>)>,
    /// Functions this file imports by name from a module of the scanned code, as
    /// (local name, the module's name for it, module): JavaScript's `import { handle
    /// as h } from "./rpc"` and `const { handle } = require("./rpc")` in `src/main.js`
    /// give `("h", "handle", "src/rpc")` (the path resolved from the scan's root);
    /// Python's `from .rpc import handle` gives `("handle", "handle", ".rpc")`.
    pub named_imports: Vec<(String, String, String)>,
    /// Names this file imports from a package by name (not a relative path), with
    /// the package's last segment (`from acme.auth import check` gives
    /// `("check", "auth")`): when no scanned file or folder has that name, the name
    /// is the package's, never a function of the scanned code. Rust: the names a
    /// `use` of another crate brings, with the crate (`use rpc_router::Router` gives
    /// `("Router", "rpc_router")`), the crate weighed against the workspace's own.
    pub package_names: Vec<(String, String)>,
    /// The file uses a web framework the scan knows (it imports one): its routes are
    /// mounted where the scan can see them, so a handler nothing mounts is not served.
    pub web_framework: bool,
    /// Names of functions handed to an HTTP router (`add_api_route(path, f)`, `post(f)`).
    pub http_handlers: Vec<String>,
    /// Classes defined in the file.
    pub classes: Vec<ClassDef>,
    /// Struct fields whose JSON member has another name: serde `rename`/`rename_all`
    /// attributes (Rust), `json:"..."` tags (Go). `(field, member)`.
    pub json_names: Vec<(String, String)>,
    /// Every field name a struct of the file declares (Rust): a struct literal whose
    /// fields no struct of the scanned code declares is a library's type.
    pub declared_fields: Vec<String>,
    /// The struct types the file declares (Go): a variable of one of them declared
    /// in another file of the package starts as an empty value of the type.
    pub struct_types: Vec<String>,
    /// Fields whose type names a class, as declared (`private SystemHandler $system;`,
    /// `handler: Arc<Handler>`, `server: McpServer`): `(owner, field, class)`.
    pub field_types: Vec<(String, String, String)>,
    /// Types with an `id` member a message may be decoded into (serde structs,
    /// pydantic models), and whether the member is required (not optional, no
    /// default): a message without an id does not decode into those.
    pub id_members: Vec<(String, bool)>,
    /// Variants of `#[serde(untagged)]` enums a message may be decoded into, with the
    /// type each holds (`JsonRpcRequest::WithParams(JsonRpcRequestWithParams)`): serde
    /// tries them in order, so a message lands in the first whose type takes it.
    pub untagged_variants: Vec<(String, String, String)>,
    /// Functions written as members of an object literal (`return { async handle(p) {..} }`,
    /// or named in one: `return { handle }`),
    /// by (member name, the function's name): called as `server.handle(..)` on the object.
    pub object_members: Vec<(String, String)>,
    /// Module-level names that functions declare `global` and so may change at run
    /// time (a session id set by `initialize`): their initial value says nothing.
    pub state: Vec<String>,
    /// Where the file sends the 2024-11-05 HTTP+SSE transport's `endpoint` event.
    pub sse_endpoint: Option<Span>,
    /// Whether the file writes an HTTP answer as text (`"HTTP/1.1 202 Accepted\r\n"`).
    pub writes_http: bool,
    /// Where the parser reported a syntax error, if it did.
    pub syntax_error: Option<Span>,
    /// Inline `mcp-conform: ignore[...]` comments.
    pub suppressions: Vec<Suppression>,
    /// The file's text, for reports that show or measure it.
    pub source: std::sync::Arc<str>,
}

/// An inline suppression comment: `mcp-conform: ignore[<check-or-pattern>, ...] <reason>`.
/// It covers findings on its own line and on the next one.
#[derive(Debug, Clone)]
pub struct Suppression {
    /// Where the directive starts (the `mcp-conform:` marker).
    pub span: Span,
    pub ids: Vec<String>,
    pub reason: Option<String>,
    /// The comment says `mcp-conform:` but not `ignore[...]`.
    pub malformed: bool,
}

impl Expr {
    pub fn opaque(parts: Vec<Expr>) -> Expr {
        let parts: Vec<Expr> =
            parts.into_iter().filter(|e| !matches!(e, Expr::Opaque(p) if p.is_empty())).collect();
        Expr::Opaque(parts)
    }

    pub fn unknown() -> Expr {
        Expr::Opaque(Vec::new())
    }
}

/// The method names MCP clients send to servers (all revisions), used to
/// recognise dispatch code and to build probes.
pub const MCP_METHODS: &[&str] = &[
    "initialize",
    "ping",
    "tools/list",
    "tools/call",
    "resources/list",
    "resources/read",
    "resources/templates/list",
    "resources/subscribe",
    "resources/unsubscribe",
    "prompts/list",
    "prompts/get",
    "completion/complete",
    "logging/setLevel",
    "server/discover",
    "subscriptions/listen",
    "tasks/get",
    "tasks/result",
    "tasks/list",
    "tasks/cancel",
    "notifications/initialized",
    "notifications/cancelled",
    "notifications/progress",
    "notifications/roots/list_changed",
    "notifications/tasks/status",
    "initialized",
];

/// The notifications a client sends to a server.
pub const CLIENT_NOTIFICATIONS: &[&str] = &[
    "notifications/initialized",
    "notifications/cancelled",
    "notifications/progress",
    "notifications/roots/list_changed",
];

/// Methods only MCP's client-to-server side has: a dispatch that handles one of them
/// speaks MCP. `initialize`, `initialized`, `ping`, `notifications/cancelled` and
/// `notifications/progress` are shared with language servers and other JSON-RPC
/// protocols, and alone say nothing.
pub const MCP_SPECIFIC_METHODS: &[&str] = &[
    "tools/list",
    "tools/call",
    "resources/list",
    "resources/read",
    "resources/templates/list",
    "resources/subscribe",
    "resources/unsubscribe",
    "prompts/list",
    "prompts/get",
    "completion/complete",
    "logging/setLevel",
    "server/discover",
    "subscriptions/listen",
    "tasks/get",
    "tasks/result",
    "tasks/list",
    "tasks/cancel",
    "notifications/initialized",
    "notifications/roots/list_changed",
];

/// MCP's task methods share their names with the Agent2Agent protocol's
/// (`tasks/get`, `tasks/cancel`): they show MCP only beside another MCP method.
pub const SHARED_TASKS_PREFIX: &str = "tasks/";

pub fn is_mcp_method(name: &str) -> bool {
    MCP_METHODS.contains(&name)
}

impl Expr {
    /// Visits this expression and every expression inside it, blocks included.
    pub fn walk<'b>(&'b self, f: &mut impl FnMut(&'b Expr)) {
        f(self);
        match self {
            Expr::Object { entries, .. } => entries.iter().for_each(|(_, v)| v.walk(f)),
            Expr::Array { items, .. } => items.iter().for_each(|v| v.walk(f)),
            Expr::Reply { kind: ReplyExpr::Result(x) | ReplyExpr::Error(x), .. } => x.walk(f),
            Expr::Http { body, .. } => body.iter().for_each(|b| b.walk(f)),
            Expr::HttpWith { status, body, .. } => {
                status.walk(f);
                body.walk(f);
            }
            Expr::Call { receiver, args, .. } => {
                receiver.iter().for_each(|r| r.walk(f));
                args.iter().for_each(|a| a.walk(f));
            }
            Expr::Eq { left: a, right: b, .. }
            | Expr::Compare { left: a, right: b, .. }
            | Expr::Member { item: a, collection: b }
            | Expr::Lookup { collection: a, key: b }
            | Expr::And(a, b)
            | Expr::Or(a, b)
            | Expr::Coalesce(a, b) => {
                a.walk(f);
                b.walk(f);
            }
            Expr::IsNull(x)
            | Expr::IsEmpty(x)
            | Expr::IsA { value: x, .. }
            | Expr::Not(x)
            | Expr::Propagate(x)
            | Expr::Required(x)
            | Expr::HasKey { object: x, .. }
            | Expr::StartsWith { text: x, .. } => x.walk(f),
            Expr::If { cond, then, otherwise, .. } => {
                cond.walk(f);
                walk_block(then, f);
                walk_block(otherwise, f);
            }
            Expr::Match { subject, arms, .. } => {
                subject.walk(f);
                for arm in arms {
                    arm.guard.iter().for_each(|g| g.walk(f));
                    walk_block(&arm.body, f);
                }
            }
            Expr::Loop { body } | Expr::Block(body) => walk_block(body, f),
            Expr::ForEach { iterable, body, .. } => {
                iterable.walk(f);
                walk_block(body, f);
            }
            Expr::Try { body, handler, .. } => {
                walk_block(body, f);
                walk_block(handler, f);
            }
            Expr::Variant { inner, .. } => inner.iter().for_each(|i| i.walk(f)),
            Expr::Named { value, .. } | Expr::Spread(value) => value.walk(f),
            Expr::Opaque(parts) | Expr::Message(parts) => parts.iter().for_each(|p| p.walk(f)),
            Expr::Field { object, .. } => object.iter().for_each(|o| o.walk(f)),
            Expr::Null | Expr::Bool(_) | Expr::Int(_) | Expr::Str(_) | Expr::Var(_) | Expr::FnRef(_) => {}
        }
    }
}

/// Visits every statement of a block at any depth: the block's own, and those of
/// the `if`, `match`, loop, `try` and block expressions inside it.
/// A member of the instance itself, one name deep: `self.on_message`,
/// `this.handler` give `on_message`, `handler`; `self.a.b`, `self.t[k]` give none.
pub fn own_field(name: &str) -> Option<&str> {
    let field = name.strip_prefix("self.").or_else(|| name.strip_prefix("this."))?;
    (!field.is_empty() && !field.contains(['.', '[', '('])).then_some(field)
}

/// The functions a body returns by name (`return handle`, a factory's `return async
/// function onPost(..) {..}`), as written; a returned local the body binds to a
/// closure (`const handle = async (req, res) => {..}; return handle;`) counts when
/// every binding of it is a function.
pub fn returned_functions(body: &Block) -> Vec<&str> {
    let mut out = Vec::new();
    let mut locals: Vec<&str> = Vec::new();
    walk_statements(body, &mut |s| match s {
        Stmt::Return { value: Some(Expr::FnRef(name)), .. } => out.push(name.as_str()),
        Stmt::Return { value: Some(Expr::Var(name)), .. } => locals.push(name.as_str()),
        _ => {}
    });
    for local in locals {
        out.extend(bound_functions(body, local).unwrap_or_default());
    }
    out
}

/// The functions a local of `body` is bound to (`const handle = async (..) => {..}`),
/// when every binding of it names a function; None when one binds something else.
pub fn bound_functions<'b>(body: &'b Block, local: &str) -> Option<Vec<&'b str>> {
    let mut bound: Vec<&str> = Vec::new();
    let mut other = false;
    walk_statements(body, &mut |s| {
        if let Stmt::Assign { target, value, .. } = s
            && target == local
        {
            match value {
                Expr::FnRef(f) => bound.push(f.as_str()),
                _ => other = true,
            }
        }
    });
    (!other).then_some(bound)
}

pub fn walk_statements<'b>(block: &'b Block, f: &mut impl FnMut(&'b Stmt)) {
    for stmt in block {
        f(stmt);
    }
    walk_block(block, &mut |e| {
        let inner: Vec<&'b Block> = match e {
            Expr::If { then, otherwise, .. } => vec![then, otherwise],
            Expr::Match { arms, .. } => arms.iter().map(|a| &a.body).collect(),
            Expr::Loop { body } | Expr::Block(body) | Expr::ForEach { body, .. } => vec![body],
            Expr::Try { body, handler, .. } => vec![body, handler],
            _ => Vec::new(),
        };
        for b in inner {
            for stmt in b {
                f(stmt);
            }
        }
    });
}

/// Visits every expression of a block.
pub fn walk_block<'b>(block: &'b Block, f: &mut impl FnMut(&'b Expr)) {
    for stmt in block {
        match stmt {
            Stmt::Assign { value: e, .. }
            | Stmt::Expr(e)
            | Stmt::Raise { value: e, .. }
            | Stmt::Yield(e)
            | Stmt::Destructure { value: e, .. }
            | Stmt::Push { value: e, .. }
            | Stmt::Return { value: Some(e), .. } => e.walk(f),
            Stmt::Store { value, .. } => value.walk(f),
            Stmt::Return { value: None, .. }
            | Stmt::LeaveLoop
            | Stmt::Continue
            | Stmt::NextRound
            | Stmt::Exit { .. }
            | Stmt::SetInitialized { .. } => {}
        }
    }
}

/// The methods a loop body calls on its variable `var`, when the body has the shape
/// of a strategy dispatch: a condition asks the object whether it takes the message
/// (`if ($handler->supports($m))`) and another method of it does the work
/// (`return $handler->handle($m)`). Empty for any other loop (`item.get("a")`).
pub fn strategy_methods<'b>(block: &'b Block, var: &str) -> Vec<&'b str> {
    let mut called: Vec<&str> = Vec::new();
    let mut asked = false;
    walk_block(block, &mut |e| {
        if let Some(name) = method_on(e, var)
            && !called.contains(&name)
        {
            called.push(name);
        }
        if let Expr::If { cond, .. } = e {
            cond.walk(&mut |c| asked |= method_on(c, var).is_some());
        }
    });
    if asked && called.len() >= 2 { called } else { Vec::new() }
}

/// The methods a block calls on `var`, in the order first called.
pub fn methods_on<'b>(block: &'b Block, var: &str) -> Vec<&'b str> {
    let mut called: Vec<&str> = Vec::new();
    walk_block(block, &mut |e| {
        if let Some(name) = method_on(e, var)
            && !called.contains(&name)
        {
            called.push(name);
        }
    });
    called
}

/// `var.name(...)`: the name of a method called on `var`.
fn method_on<'b>(e: &'b Expr, var: &str) -> Option<&'b str> {
    match e {
        Expr::Call { callee, receiver: Some(r), .. } if matches!(r.as_ref(), Expr::Var(v) if v == var) => {
            Some(callee.rsplit(['.', ':', '>']).next().unwrap_or(callee)).filter(|n| !n.is_empty())
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::ends_with_path;

    #[test]
    fn a_path_ends_with_whole_segments_only() {
        assert!(ends_with_path("src/Mcp", "Mcp"));
        assert!(ends_with_path("Mcp", "Mcp"));
        assert!(ends_with_path("app/src/rpc/handler", "rpc/handler"));
        assert!(!ends_with_path("src/XMcp", "Mcp"));
        assert!(!ends_with_path("cp", "Mcp"));
        assert!(!ends_with_path("", "Mcp"));
    }
}
