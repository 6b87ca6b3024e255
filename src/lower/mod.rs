//! Lowering: from a tree-sitter syntax tree to the facts of [`crate::model`].
//!
//! One module per language knows its grammar; this module holds what the
//! languages share: spans, the depth bound, and the builders that recognise
//! JSON-RPC replies, HTTP responses and message-field reads from names.

pub mod comments;
pub mod go;
pub mod javascript;
mod json_text;
pub mod php;
pub mod python;
pub mod raw_http;
pub mod rpc_library;
pub mod rust;
pub mod sse;

pub use json_text::{
    JSON_TEXT, Piece, json_template, json_text, printf_pieces, printf_template, raw_json, unescape,
};

use crate::model::{Block, Expr, FieldName, FileFacts, Language, ReplyExpr, Span, Stmt};
use crate::parse::Fields;
use crate::settings::Knowledge;
use tree_sitter::Node;

/// The callee of a call the lowering makes up for a write of a message (an HTTP
/// answer, a line on standard output): no function of the scanned code has this name.
pub const EMIT: &str = "mcp-conform/emit";
/// The callee of a call the lowering makes up for a write to the process's standard
/// output (Python's `print(x)`, Rust's `println!`, Go's `fmt.Println`): the message
/// channel of a server on stdio, a log line on the terminal of one serving HTTP.
pub const PRINT: &str = "mcp-conform/print";

/// Writes to the process's standard output through its stream object, by the name
/// the code calls them (`process.stdout.write(line)`, `sys.stdout.write(line)`,
/// Go's `os.Stdout.WriteString(line)`): what [`PRINT`] stands for.
pub fn writes_stdout(callee: &str) -> bool {
    matches!(
        callee,
        "process.stdout.write" | "sys.stdout.write" | "os.Stdout.Write" | "os.Stdout.WriteString"
    )
}

/// The callee of a call the lowering makes up for a status set on a response that
/// lends it to the body the handler returns (its one argument, an HTTP answer
/// holding only the status).
pub const LEND_STATUS: &str = "mcp-conform/lend-status";
/// A built-in: the message decoded into a type of the scanned code,
/// `(type, how it fails, message)`. A type with a required `id` member fails to decode
/// a notification: as `Err` (serde, `"err"`) or by raising (pydantic, `"raise"`).
pub const DECODE_AS: &str = "mcp-conform/decode-as";
/// How [`DECODE_AS`] fails for a framework's extractor (axum's and actix-web's
/// `Json<T>`), followed by the status (`reject422`): the request is refused with it
/// before the handler runs, and the handler gets the value itself, not a result.
pub const DECODE_REJECTS: &str = "reject";
/// A built-in: an object of a Go type with methods built empty (`&StdoutSender{}`),
/// `(type)`: method calls on it are the type's methods. A type without methods is
/// a payload, built as an empty object.
pub const NEW_OBJECT: &str = "mcp-conform/new-object";
/// A built-in: the zero value of a type named without a package (`var resp
/// Response` in Go), `(type)`: an empty value of the type when a file of the same
/// package declares it as a struct, else unknown (an interface, a named number).
pub const ZERO_OF: &str = "mcp-conform/zero-of";

/// The text a sentinel object stands for (Python's `object()`), made unique by where
/// it is written: equal only to itself.
pub const SENTINEL: &str = "mcp-conform/sentinel@";
/// The incoming message's bytes as they arrived (see [`crate::value::Value::Encoded`]).
pub const ENCODED_MESSAGE: &str = "mcp-conform/encoded-message";
/// The name a destructured value is held under while its parts are taken
/// (followed by where the destructuring starts).
pub const DESTRUCTURED: &str = "mcp-conform/destructured@";
/// Everything a reader yields (`io.ReadAll(r)`): the message's bytes when it reads them.
pub const READ_ALL: &str = "mcp-conform/read-all";
/// A built-in: a struct literal (Rust `InitializeResult { protocol_version, .. }`),
/// its type's name and its fields as an object: the fields go out under the JSON
/// names that type's serde attributes give them.
pub const STRUCT_LITERAL: &str = "mcp-conform/struct-literal";
/// The JSON name of a field whose members are written into its parent's object
/// (Rust `#[serde(flatten)]`).
pub const FLATTENED: &str = "mcp-conform/flattened";
/// A built-in: an instance of the class its first argument names, built with the
/// other arguments (PHP `new $class(...)`, the class from a table of handlers).
pub const NEW_DYNAMIC: &str = "mcp-conform/new-dynamic";

/// A built-in: a value serialised to JSON text (`JSON.stringify(x)`): a string's
/// text is its quoted form (`JSON.stringify("")` sends the two characters `""`);
/// any other value stands for its own encoding, as before.
pub const SERIALISED: &str = "mcp-conform/serialised";

/// A built-in: a new, empty output buffer (Go `bytes.Buffer`, `strings.Builder`,
/// Python `io.StringIO()`). A server dispatching into one to learn whether anything
/// was written (`if buf.Len() == 0 { 202 }`) reads it as empty when nothing was
/// written on the path since it was made.
pub const CAPTURE: &str = "mcp-conform/capture";
/// A [`CAPTURE`] buffer's length, read as a method of it (PHP's `ob_get_length()`).
pub const BUFFER_LENGTH: &str = "mcp-conform/buffer-length";
/// A [`CAPTURE`] buffer's contents, read as a method of it (PHP's `ob_get_clean()`).
pub const BUFFER_CONTENTS: &str = "mcp-conform/buffer-contents";
/// The methods that read a [`CAPTURE`] buffer's length: Go's `Len`.
pub const CAPTURE_LENGTH: &[&str] = &[BUFFER_LENGTH, "Len"];
/// The methods that read a [`CAPTURE`] buffer's contents: Go's `Bytes` and `String`,
/// Python's `getvalue`.
pub const CAPTURE_CONTENTS: &[&str] = &[BUFFER_CONTENTS, "Bytes", "String", "getvalue"];
/// The methods that say whether a [`CAPTURE`] buffer is empty: Rust's `is_empty`
/// (a `Vec::new()` is one).
pub const CAPTURE_EMPTINESS: &[&str] = &["is_empty"];

/// Blocks of which the run decides the one that runs (Go's `select` cases, Rust's
/// `select!` branches: the channel or future that is ready first): each is a path,
/// chained as `if <unknown> { first } else if <unknown> { .. }`. `wrap` makes the
/// chain a statement (`Stmt::Yield` where the chosen block's value is the whole's).
/// `None` for no blocks.
pub fn one_of(branches: Vec<Block>, span: Span, wrap: fn(Expr) -> Stmt) -> Option<Block> {
    let mut chosen: Option<Block> = None;
    for body in branches.into_iter().rev() {
        chosen = Some(match chosen {
            None => body,
            Some(rest) => {
                vec![wrap(Expr::If { cond: Box::new(Expr::unknown()), then: body, otherwise: rest, span })]
            }
        });
    }
    chosen
}

/// A call making a new output buffer (see [`CAPTURE`]).
pub fn capture(span: Span) -> Expr {
    Expr::Call { callee: CAPTURE.into(), receiver: None, args: Vec::new(), span }
}

/// The list a generator's yielded values are gathered in (see [`Ctx::generator`]):
/// what a call of the generator gives its caller (a streamed body's chunks).
pub const GENERATED: &str = "mcp-conform/generated";

/// The prefix of a call to the base class's method from an override (`super().m()`,
/// `super.m()`, `parent::m()`): `super.m`.
pub const SUPER_CALL: &str = "super.";

/// `raise ValueError(..)`, `throw new InvalidArgumentException(..)`: an exception of a
/// class the language itself defines, `[EXCEPTION, Str(class)]`, made an instance of
/// that class so that the `catch` clauses can be matched against it; with a second
/// argument, an object, its members (the MCP SDK's `new McpError(code, message)`).
pub const EXCEPTION: &str = "mcp-conform/exception";

/// An [`EXCEPTION`] of `class`, with the members `fields` (an object) when given.
pub fn exception(class: String, fields: Option<Expr>, span: Span) -> Expr {
    let mut args = vec![Expr::Str(class)];
    args.extend(fields);
    Expr::Call { callee: EXCEPTION.into(), receiver: None, args, span }
}

/// `[CATCHES, raised, Str(A), Str(B)]`: whether an `except (A, B)` / `catch (A | B $e)`
/// clause catches the raised value. False only when the value's class and every class
/// named are known and none is the value's class or one of its bases; the clause is
/// taken otherwise (as the first clause was before clauses were told apart).
pub const CATCHES: &str = "mcp-conform/catches";

/// The name the raised value is held under while a `try`'s clauses are matched.
const RAISED: &str = "mcp-conform/raised";

/// The base of one of a language's own exception classes (`""` for the root), from its
/// table (`python::frameworks::EXCEPTIONS`, `php::frameworks::EXCEPTIONS`).
pub fn exception_base(language: Language, class: &str) -> Option<&'static str> {
    let table = match language {
        Language::Python => python::frameworks::EXCEPTIONS,
        Language::Php => php::frameworks::EXCEPTIONS,
        _ => return None,
    };
    table.iter().find(|(c, _)| *c == class).map(|(_, base)| *base)
}

/// One `except`/`catch` clause: the classes it names (none: it catches everything),
/// the name it binds the exception to, and its body.
pub struct CatchClause {
    pub classes: Vec<String>,
    pub binding: Option<String>,
    pub body: Block,
    pub span: Span,
}

/// A `try`'s clauses as one handler: the first clause that catches the raised value
/// runs with its name bound to it; when none does, the value is raised again. One
/// clause naming no class is the handler itself, as before.
pub fn catch_chain(mut clauses: Vec<CatchClause>) -> (Option<String>, Block) {
    if clauses.len() == 1 && clauses[0].classes.is_empty() {
        let c = clauses.remove(0);
        return (c.binding, c.body);
    }
    let raised = || Expr::Var(RAISED.into());
    let mut otherwise: Block = match clauses.last() {
        Some(c) => vec![Stmt::Raise { value: raised(), span: c.span }],
        None => Vec::new(),
    };
    for c in clauses.into_iter().rev() {
        let mut then = Vec::new();
        if let Some(b) = c.binding {
            then.push(Stmt::Assign { target: b, value: raised(), span: c.span });
        }
        then.extend(c.body);
        otherwise = match c.classes.is_empty() {
            true => then,
            false => {
                let mut args = vec![raised()];
                args.extend(c.classes.into_iter().map(Expr::Str));
                let cond = Expr::Call { callee: CATCHES.into(), receiver: None, args, span: c.span };
                vec![Stmt::Expr(Expr::If { cond: Box::new(cond), then, otherwise, span: c.span })]
            }
        };
    }
    (Some(RAISED.into()), otherwise)
}

/// A built-in: PHP's `(object)` cast of a value the lowering cannot see: an array
/// becomes an object (an empty one `{}`, a list keyed by its indexes); anything
/// else is as it was.
pub const OBJECT_CAST: &str = "mcp-conform/object-cast";
/// A built-in: its argument encoded with every empty array as `{}` (PHP `JSON_FORCE_OBJECT`).
pub const FORCE_OBJECT: &str = "mcp-conform/force-object";
/// A built-in: the list of its first argument's items followed by its second's
/// (Go's `append(xs, ys...)`).
pub const CONCAT: &str = "mcp-conform/concat";
/// A built-in: the members of its arguments (maps), later ones winning (PHP's
/// `array_merge`); a reply when together they make one.
pub const MERGE: &str = "mcp-conform/merge";
/// A built-in: whether its argument is a result known to be an error (`Err(..)`); a
/// result the scan cannot read is not.
pub const IS_ERR: &str = "mcp-conform/is-err";
/// A built-in: whether a value is a JSON list (`"list"`) or a JSON object
/// (`"object"`): `Array.isArray(x)`, `isinstance(x, list)`, `array_is_list($x)`.
/// The decoded message is one object, a list the path built is a list; a value
/// the scan does not know is taken for the message.
pub const IS_KIND: &str = "mcp-conform/is-kind";
/// A built-in: a list built from another (Python's `[f(m) for m in batch if m]`):
/// `(source, item function, predicate function or null)`. Over a list the path
/// knows, the items the predicate keeps, each handed to the item function; over
/// another value, the item function's answer for an unknown item.
pub const COMPREHENSION: &str = "mcp-conform/comprehension";

/// The kind [`IS_KIND`] tests for a type check the probes pass when the value is
/// there (PHP `is_array($x)`): any value but null.
pub const PRESENT: &str = "present";

/// A test of a value's JSON kind, as [`IS_KIND`].
/// `a > b` and the other orderings, which the interpreter decides on numbers it knows
/// (`replies.length > 0`, `len(batch) >= 1`); any other operator is opaque.
pub fn ordered(op: &str, left: Expr, right: Expr) -> Expr {
    match crate::model::Order::of(op) {
        Some(op) => Expr::Compare { op, left: Box::new(left), right: Box::new(right) },
        None => Expr::opaque(vec![left, right]),
    }
}

pub fn is_kind(value: Expr, kind: &str, span: Span) -> Expr {
    Expr::Call { callee: IS_KIND.into(), receiver: None, args: vec![value, Expr::Str(kind.into())], span }
}
/// A built-in: a tuple whose first item is a status held in a variable
/// (`(status, headers, body)` in a helper taking `status: StatusCode`). It is that
/// HTTP response, its body the last item, when the first item is a status at run
/// time; otherwise the tuple it is.
pub const STATUS_TUPLE: &str = "mcp-conform/status-tuple";
/// The name of the server API PHP runs under (`php_sapi_name()`, `PHP_SAPI`): `cli`
/// on the command line, another name under a web server. A test of it decides
/// whether the path runs as a command-line program (see
/// [`crate::value::Effect::CommandLine`]).
pub const PHP_SAPI: &str = "\u{1}php-sapi";
/// The member under which a backed enum's case values are kept (`Method::tryFrom`).
pub const ENUM_VALUES: &str = "mcp-conform/enum-values";
/// A built-in: code that runs beside the path that starts it (a goroutine, a spawned
/// thread or task): what it writes is the path's, but its ending the process does
/// not end the path.
pub const DETACHED: &str = "mcp-conform/detached";
/// A router's handler named as what a factory call returns (`app.post("/mcp",
/// createHandler(opts))`): this prefix and the factory's name, in `http_handlers`.
pub const MADE_BY: &str = "mcp-conform/made-by:";
/// The member under which an enum decoded by the message's `method` keeps its wire
/// names and variants (serde's `#[serde(tag = "method")]`).
pub const TAGGED_BY_METHOD: &str = "mcp-conform/tagged-by-method";
/// The member under which an enum of unit variants keeps the strings it decodes from
/// and their variants (`serde_json::from_value::<Method>(Value::String(name))`).
pub const UNIT_BY_NAME: &str = "mcp-conform/unit-by-name";

/// Nesting deeper than this is not lowered further (the rest of the file still is).
pub const MAX_DEPTH: usize = 256;

/// Why a file could not be lowered.
#[derive(Debug)]
pub enum LowerError {
    TooDeep,
}

/// Shared state of one file's lowering.
pub struct Ctx<'a> {
    pub src: &'a [u8],
    /// `src` as text, when it is valid UTF-8 (as every file parsed is).
    src_text: Option<&'a str>,
    pub file: u32,
    pub depth: usize,
    pub too_deep: bool,
    /// Set when the function being lowered touches standard input.
    pub saw_stdin: bool,
    /// The first call that builds or starts an SDK server, if the file makes one.
    pub sdk_server: Option<Span>,
    /// Set when the function being lowered reads an HTTP request body (`php://input`).
    pub saw_http: bool,
    /// Module names the configuration says are MCP SDKs.
    pub extra_sdks: &'a [String],
    /// Names that hold the HTTP request in the function being lowered (`r *http.Request`):
    /// their `.Method` is the HTTP verb, not the JSON-RPC method.
    pub http_requests: Vec<String>,
    /// Names that hold the HTTP response writer in the function being lowered.
    pub http_writers: Vec<String>,
    /// Names of a response that only lends its status to the body the function
    /// returns (FastAPI's `response: Response` parameter beside a returned body).
    pub status_writers: Vec<String>,
    /// Go's named results of the function being lowered: what a bare `return` returns.
    pub named_results: Vec<String>,
    /// The function being lowered answers its HTTP request with what it returns (a Go
    /// AWS Lambda handler's `return events.APIGatewayProxyResponse{..}, nil`).
    pub answers_by_return: bool,
    /// Type names that are HTTP requests in this file (PHP: an imported framework `Request`).
    pub request_types: Vec<String>,
    /// Type names that are a web framework's response in this file (Python: Werkzeug's
    /// `Response` imported): a parameter of that type is where the answer is written.
    pub response_types: Vec<String>,
    /// Parameters of the function being lowered that hold its HTTP request (Rust
    /// `req: Request`, PHP `Request $request`): what the framework's accessors read
    /// from them (the verb, the decoded body) is known.
    pub request_params: Vec<String>,
    /// Anonymous functions met inside expressions (`lambda m: None`), added to the
    /// file's functions when its top level is recorded.
    pub closures: Vec<crate::model::Function>,
    /// Libraries the file imports that the lowering knows by name (Rust: a JSON-RPC
    /// server library that owns the dispatch).
    pub libraries: Vec<&'static str>,
    /// Names the file gives its own definitions. Python: its classes and imports from
    /// outside the web frameworks (a `Response` among them is the code's own class).
    /// Rust: its free functions (its own `json_response(..)` is called). Go: its struct
    /// types (a variable of one starts as an empty value of the type).
    pub own_names: Vec<String>,
    /// Model classes of a library whose instances serialise to the fields they are
    /// built with (Python: the MCP SDK's pydantic types, see `MODEL_MODULES`).
    pub model_types: Vec<String>,
    /// Structs the file declares whose `default()` is an empty value of the type
    /// (Rust `#[derive(Default)]`), which field writes then fill.
    pub default_structs: Vec<String>,
    /// The names a Go file refers to its imported packages by: an import's alias,
    /// else the last segment of its path (`cfgSchema`, `schema`).
    pub package_aliases: Vec<String>,
    /// Imported Go packages whose exported constants the scan knows (mcp-go's `mcp`:
    /// `mcp.MethodInitialize` is `"initialize"`): the local name and those constants.
    pub known_constants: Vec<(String, &'static [(&'static str, &'static str)])>,
    /// The receiver of the Go method being lowered (`s` in `func (s *Server) ...`).
    pub receiver: Option<String>,
    /// The methods the class being lowered defines (Python): `self.send_response(..)`
    /// calls its own method when it has one, not the framework's of that name.
    pub class_methods: Vec<String>,
    /// The type a `let` being lowered declares (`let req: Request = from_value(v)?`):
    /// what a decoder in its value decodes into.
    pub declared: Option<String>,
    /// The closure being lowered that is to become a function of its own (Rust:
    /// one a `let` binds), by its syntax node's id.
    pub lift: Option<usize>,
    /// Go's `_, ok := table[key]` in the function being lowered: `ok` says the key
    /// is in the table (`ok`'s name, and that test).
    pub presence: Vec<(String, Expr)>,
    /// Names the file imports under another name (PHP `use React\Http\Message\Response
    /// as ReactResponse;`, Rust `use axum::Json as WireJson;`, a web framework's names in
    /// Python `from fastapi.responses import JSONResponse as Json` and JavaScript
    /// `import { NextResponse as Res } from "next/server"`): `(local, the item's own last
    /// name)`.
    pub aliases: Vec<(String, String)>,
    /// Classes of the code's own modules the file imports under another name (Python
    /// `from .protocol import Response as WireResponse`, JavaScript `import { Response as
    /// WireResponse } from "./protocol"`): `(local, the class's name)`, so that
    /// `WireResponse.ok(..)` and `new WireResponse(..)` resolve to the class.
    pub renamed_classes: Vec<(String, String)>,
    /// Base classes the file imports from a framework whose constructor configures the
    /// object and then calls a hook (PHP `use yii\base\Component;`): `(local, hook)`.
    pub configured_bases: Vec<(String, &'static str)>,
    /// Response classes the file imports from a PSR-7 implementation whose constructor
    /// takes the status first (`new Response($status, $headers, $body)`: Guzzle,
    /// Nyholm, Slim, ReactPHP), by their local names.
    pub status_first: Vec<String>,
    /// The file imports a framework whose request-handler classes answer on `self`
    /// (Python: Tornado, Jupyter Server).
    pub handler_classes: bool,
    /// How many function bodies enclose the code being lowered (0 at a module's top).
    pub functions_open: usize,
    /// The function being lowered is a generator (Python: its body yields; JavaScript:
    /// `function*`): `yield v`
    /// adds `v` to the list [`GENERATED`] names, which each `return` gives back.
    pub generator: bool,
    /// Status enums the file imports from their packages (JavaScript `StatusCodes` of
    /// `http-status-codes`): their members are HTTP statuses.
    pub status_enums: Vec<&'static str>,
    /// Names the file imports from the MCP SDK's protocol types (`ErrorCode`,
    /// `McpError`), as (local name, name in the SDK).
    pub sdk_types: Vec<(String, String)>,
    /// Go's `iota` in the constant being lowered: its index in its `const` block.
    pub iota: Option<i64>,
    /// Members of the class being lowered that hold standard input (PHP: `$this->input
    /// = $input ?? STDIN;`): reading them reads the messages.
    pub stdin_members: Vec<String>,
}

impl<'a> Ctx<'a> {
    pub fn new(src: &'a [u8], file: u32) -> Self {
        Ctx {
            src,
            src_text: std::str::from_utf8(src).ok(),
            file,
            depth: 0,
            too_deep: false,
            saw_stdin: false,
            sdk_server: None,
            saw_http: false,
            extra_sdks: &[],
            http_requests: Vec::new(),
            http_writers: Vec::new(),
            status_writers: Vec::new(),
            named_results: Vec::new(),
            answers_by_return: false,
            request_types: Vec::new(),
            response_types: Vec::new(),
            request_params: Vec::new(),
            closures: Vec::new(),
            libraries: Vec::new(),
            own_names: Vec::new(),
            default_structs: Vec::new(),
            package_aliases: Vec::new(),
            known_constants: Vec::new(),
            model_types: Vec::new(),
            receiver: None,
            class_methods: Vec::new(),
            declared: None,
            lift: None,
            presence: Vec::new(),
            aliases: Vec::new(),
            renamed_classes: Vec::new(),
            configured_bases: Vec::new(),
            status_first: Vec::new(),
            handler_classes: false,
            functions_open: 0,
            generator: false,
            status_enums: Vec::new(),
            sdk_types: Vec::new(),
            iota: None,
            stdin_members: Vec::new(),
        }
    }

    /// An anonymous function whose body is one expression (`lambda m: None`): a
    /// function of its own, named by where it starts, referred to by name.
    pub fn closure(&mut self, node: Node, params: Vec<String>, body: Expr) -> Expr {
        let name = anonymous_name(node);
        let span = self.span(node);
        let body = vec![crate::model::Stmt::Return { value: Some(body), span }];
        self.closures.push(crate::model::Function::written(name.clone(), None, params, body, span));
        Expr::FnRef(name)
    }

    /// The SDK an import names: a known one, or one the configuration lists.
    pub fn sdk(&self, language: Language, module: &str) -> Option<String> {
        if let Some(sdk) = sdk_for_import(language, module) {
            return Some(sdk.to_string());
        }
        self.extra_sdks.iter().find(|name| imports_module(module, name)).cloned()
    }

    pub fn text(&self, node: Node) -> &'a str {
        match self.src_text {
            // A slice of text checked once (a node of valid UTF-8 starts and ends
            // on character boundaries; `get` says so in constant time).
            Some(text) => text.get(node.byte_range()).unwrap_or(""),
            None => std::str::from_utf8(&self.src[node.byte_range()]).unwrap_or(""),
        }
    }

    pub fn span(&self, node: Node) -> Span {
        let p = node.start_position();
        Span {
            file: self.file,
            line: p.row as u32 + 1,
            column: p.column as u32 + 1,
            start: node.start_byte() as u32,
            end: node.end_byte() as u32,
        }
    }

    /// Enters one nesting level; false when the bound is hit.
    pub fn enter(&mut self) -> bool {
        if self.depth >= MAX_DEPTH {
            self.too_deep = true;
            return false;
        }
        self.depth += 1;
        true
    }

    pub fn leave(&mut self) {
        self.depth -= 1;
    }

    /// Lowers one nesting level with `f`, or gives `bound` when nesting is too deep.
    pub fn nested<T>(&mut self, bound: impl FnOnce() -> T, f: impl FnOnce(&mut Self) -> T) -> T {
        if !self.enter() {
            return bound();
        }
        let out = f(self);
        self.leave();
        out
    }
}

/// A function's parameters: their names in order, and the defaults of those that have one.
#[derive(Default)]
pub struct Params {
    pub names: Vec<String>,
    pub defaults: Vec<(String, Expr)>,
    pub non_null: Vec<String>,
    /// Parameters passed as a copy (see [`crate::model::ParamMark::Copied`]).
    pub copied: Vec<String>,
    /// Parameters declared with a class type: `(name, class)`.
    pub types: Vec<(String, String)>,
    /// A Rust associated function: no `self` among them.
    pub associated: bool,
}

impl From<Vec<String>> for Params {
    fn from(names: Vec<String>) -> Self {
        Params { names, ..Params::default() }
    }
}

/// How a function is known to answer HTTP requests.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Http {
    No,
    /// Mounted: a route decorator, a router call, a framework's handler signature.
    Route,
    /// Mounted, in a framework that sends no response at all when the handler writes
    /// none (http.server's `do_POST`).
    RouteUnanswered,
    /// Only its signature takes an HTTP request (`(request: Request): Promise<Response>`).
    Signature,
    /// It takes a network connection (`stream: TcpStream`): an HTTP handler when its
    /// file writes HTTP by hand (see [`raw_http`]), answering with what it writes.
    Connection,
}

impl Http {
    pub fn route_if(mounted: bool) -> Http {
        if mounted { Http::Route } else { Http::No }
    }
}

/// Lowers a function's body with `lower_body` and records the function; whether
/// the body touches standard input is noted on the function, not its parent.
#[allow(clippy::too_many_arguments)]
pub fn push_function(
    ctx: &mut Ctx,
    facts: &mut FileFacts,
    node: Node,
    name: String,
    owner: Option<&str>,
    params: Params,
    http: Http,
    lower_body: impl FnOnce(&mut Ctx, &mut FileFacts) -> crate::model::Block,
) {
    let outer_stdin = std::mem::take(&mut ctx.saw_stdin);
    ctx.functions_open += 1;
    let body = lower_body(ctx, facts);
    ctx.functions_open -= 1;
    let reads_stdin = std::mem::replace(&mut ctx.saw_stdin, outer_stdin);
    facts.functions.push(crate::model::Function {
        name,
        owner: owner.map(str::to_string),
        params: params.names,
        defaults: params.defaults,
        marked: {
            use crate::model::ParamMark;
            let mark = |names: Vec<String>, m: ParamMark| names.into_iter().map(move |n| (n, m));
            mark(params.non_null, ParamMark::NonNull).chain(mark(params.copied, ParamMark::Copied)).collect()
        },
        param_types: params.types,
        body,
        span: ctx.span(node),
        http_route: matches!(http, Http::Route | Http::RouteUnanswered),
        http_signature: http == Http::Signature,
        http_connection: http == Http::Connection,
        http_silent_unanswered: http == Http::RouteUnanswered,
        reads_stdin,
        associated: params.associated,
        bodiless: node.field("body").is_none(),
        returns: node
            .field("return_type")
            .or_else(|| node.field("result"))
            .and_then(|t| returned_class(ctx.text(t), owner)),
    });
}

/// An integer literal as the five languages write it: digit separators (`1_048_576`),
/// `0x`/`0o`/`0b` radixes, a type suffix (Rust's `202u16`, a JavaScript BigInt's
/// `1n`). `None` for a float (`1.5`, `1e6`) or a value past `i64`.
pub fn int_literal(text: &str) -> Option<i64> {
    let t: String = text.chars().filter(|&c| c != '_').collect::<String>().to_ascii_lowercase();
    let (radix, digits) = match t.get(..2) {
        Some("0x") => (16, &t[2..]),
        Some("0o") => (8, &t[2..]),
        Some("0b") => (2, &t[2..]),
        _ => (10, t.as_str()),
    };
    let end = digits.find(|c: char| !c.is_digit(radix)).unwrap_or(digits.len());
    let (number, suffix) = digits.split_at(end);
    let typed = suffix == "n"
        || (suffix.starts_with(['u', 'i']) && suffix[1..].bytes().all(|b| b.is_ascii_alphanumeric()));
    if number.is_empty() || !(suffix.is_empty() || typed) {
        return None;
    }
    i64::from_str_radix(number, radix).ok()
}

/// The class a declared return type names, in the five languages' spellings: as
/// [`type_class`], and what a call gives awaited or unwrapped (`: Promise<Server>`,
/// `anyhow::Result<Self>`), Go's first result (`(*Server, error)`), a Python forward
/// reference (`-> "Server"`); `Self`, `self` and `static` name the owner.
pub fn returned_class(text: &str, owner: Option<&str>) -> Option<String> {
    const RETURN_WRAPPERS: &[&str] = &["Promise", "Result", "Awaitable"];
    let mut t = text.trim().trim_start_matches(':').trim().trim_matches(['"', '\'']);
    if let Some(inner) = t.strip_prefix('(').and_then(|s| s.strip_suffix(')')) {
        t = top_level_first(inner);
    }
    while let Some(open) = t.find(['<', '['])
        && RETURN_WRAPPERS.contains(&last_segment(&t[..open]))
    {
        t = top_level_first(t[open + 1..].strip_suffix(['>', ']'])?);
    }
    match t {
        "Self" | "self" | "static" => owner.map(str::to_string),
        _ => type_class(t),
    }
}

/// The first item of a comma-separated list, not counting commas inside brackets.
fn top_level_first(list: &str) -> &str {
    let mut depth = 0i32;
    for (i, c) in list.char_indices() {
        match c {
            '<' | '[' | '(' => depth += 1,
            '>' | ']' | ')' => depth -= 1,
            ',' if depth == 0 => return list[..i].trim(),
            _ => {}
        }
    }
    list.trim()
}

/// A `break` at the top of a switch arm ends the arm, not a loop around the switch.
pub fn end_at_break(mut body: crate::model::Block) -> crate::model::Block {
    if let Some(i) = body.iter().position(|s| matches!(s, crate::model::Stmt::LeaveLoop)) {
        body.truncate(i);
    }
    body
}

/// Records the top level of a file as the function `<module>`.
pub fn push_module(ctx: &mut Ctx, facts: &mut FileFacts, root: Node, body: crate::model::Block) {
    facts.functions.append(&mut ctx.closures);
    let reads_stdin = std::mem::take(&mut ctx.saw_stdin);
    let http_route = std::mem::take(&mut ctx.saw_http);
    facts.functions.push(crate::model::Function {
        name: "<module>".into(),
        owner: None,
        params: Vec::new(),
        defaults: Vec::new(),
        marked: Vec::new(),
        param_types: Vec::new(),
        body,
        span: ctx.span(root),
        http_route,
        http_signature: false,
        http_connection: false,
        http_silent_unanswered: false,
        reads_stdin,
        associated: false,
        bodiless: false,
        returns: None,
    });
}

/// What [`walk_tree`] does after visiting a node.
#[derive(PartialEq, Eq)]
pub enum Walk {
    /// Go on into the node's children.
    Descend,
    /// Go on with the node's next sibling, not its children.
    Skip,
    /// End the walk.
    Stop,
}

/// Visits a parse tree's nodes in order. The walk is iterative: deep trees cannot
/// overflow the stack.
pub fn walk_tree(root: Node, mut visit: impl FnMut(Node) -> Walk) {
    let mut cursor = root.walk();
    'walk: loop {
        match visit(cursor.node()) {
            Walk::Stop => return,
            Walk::Descend if cursor.goto_first_child() => continue,
            _ => {}
        }
        if cursor.goto_next_sibling() {
            continue;
        }
        loop {
            if !cursor.goto_parent() {
                break 'walk;
            }
            if cursor.goto_next_sibling() {
                continue 'walk;
            }
        }
    }
}

/// Lowers one parsed file.
pub fn lower(
    language: Language,
    path: &str,
    src: &[u8],
    tree: &tree_sitter::Tree,
    file: u32,
    knowledge: &Knowledge,
) -> Result<FileFacts, LowerError> {
    let mut ctx = Ctx::new(src, file);
    ctx.extra_sdks = &knowledge.sdk_imports;
    let mut facts = FileFacts {
        path: path.to_string(),
        language,
        functions: Vec::new(),
        registrations: Vec::new(),
        listeners: Vec::new(),
        sdk_imports: Vec::new(),
        sdk_server: None,
        sdk_library: None,
        imports: Vec::new(),
        module_aliases: Vec::new(),
        named_imports: Vec::new(),
        interfaces: Vec::new(),
        package_names: Vec::new(),
        http_handlers: Vec::new(),
        web_framework: false,
        state: Vec::new(),
        json_names: Vec::new(),
        declared_fields: Vec::new(),
        struct_types: Vec::new(),
        field_types: Vec::new(),
        id_members: Vec::new(),
        untagged_variants: Vec::new(),
        object_members: Vec::new(),
        classes: Vec::new(),
        sse_endpoint: None,
        writes_http: false,
        syntax_error: None,
        suppressions: Vec::new(),
        source: std::str::from_utf8(src).unwrap_or("").into(),
    };
    let root = tree.root_node();
    match language {
        Language::Python => python::lower_file(&mut ctx, root, &mut facts),
        Language::Rust => rust::lower_file(&mut ctx, root, &mut facts),
        Language::TypeScript | Language::JavaScript => javascript::lower_file(&mut ctx, root, &mut facts),
        Language::Go => go::lower_file(&mut ctx, root, &mut facts),
        Language::Php => php::lower_file(&mut ctx, root, &mut facts),
    }
    if ctx.too_deep {
        return Err(LowerError::TooDeep);
    }
    if !facts.sdk_imports.is_empty() {
        // An SDK named in the configuration: its import is where the server is made.
        let configured = facts.sdk_imports.iter().find(|i| knowledge.sdk_imports.contains(&i.sdk));
        facts.sdk_server = ctx.sdk_server.or(configured.map(|i| i.span));
    }
    if root.has_error() {
        facts.syntax_error = Some(first_error(&ctx, root));
    }
    if memchr::memmem::find(src, sse::WORD.as_bytes()).is_some() {
        facts.sse_endpoint = sse::endpoint_event(&ctx, root);
    }
    if memchr::memmem::find(src, comments::MARKER.as_bytes()).is_some() {
        facts.suppressions = comments::suppressions(&ctx, root);
    }
    Ok(facts)
}

fn first_error(ctx: &Ctx, root: Node) -> Span {
    let mut cursor = root.walk();
    let mut node = root;
    // Descend iteratively toward the first error or missing node.
    loop {
        if node.is_error() || node.is_missing() {
            return ctx.span(node);
        }
        let next = node.children(&mut cursor).find(|c| c.has_error());
        match next {
            Some(child) => node = child,
            None => return ctx.span(node),
        }
    }
}

/// The text of a string literal's content, without quotes or prefixes.
pub fn unquote(raw: &str) -> String {
    // String prefixes (`r"`, `b'`, `f"`, `r#"`) come before the first quote.
    let start = raw.find(['"', '\'', '`']).unwrap_or(0);
    let prefix = &raw[..start];
    if !prefix.chars().all(|c| c.is_ascii_alphabetic() || c == '#') {
        return raw.to_string();
    }
    let s = raw[start..].trim_end_matches('#');
    for q in ["\"\"\"", "\'\'\'", "\"", "'", "`"] {
        if s.len() >= 2 * q.len() && s.starts_with(q) && s.ends_with(q) {
            return s[q.len()..s.len() - q.len()].to_string();
        }
    }
    s.to_string()
}

/// A serialised value (see [`SERIALISED`]): written literals of objects and arrays
/// (replies among them) are their own encoding and stay as written, so the lowering
/// still reads them; `null` stays the literal `null` the checks know.
pub fn serialised(value: Expr, span: Span) -> Expr {
    match value {
        Expr::Object { .. } | Expr::Array { .. } | Expr::Null => value,
        other => Expr::Call { callee: SERIALISED.into(), receiver: None, args: vec![other], span },
    }
}

/// Whether a call serialises its argument to JSON text (what goes out is the value it
/// was given): `json.dumps(x)`, `JSON.stringify(x)`, `json_encode($x)`,
/// `serde_json::to_string(&x)`, `json.Marshal(x)`.
pub fn serialises(language: Language, callee: &str) -> bool {
    let last = last_segment(callee);
    let qualifier = callee.strip_suffix(last).unwrap_or("").trim_end_matches(['.', ':']);
    match language {
        Language::Python => {
            matches!(last, "dumps") && matches!(qualifier, "json" | "orjson" | "ujson" | "simplejson")
        }
        Language::TypeScript | Language::JavaScript => callee == "JSON.stringify",
        Language::Php => matches!(callee, "json_encode" | "wp_json_encode"),
        Language::Rust => {
            matches!(last, "to_string" | "to_string_pretty" | "to_vec" | "to_value")
                && (qualifier.ends_with("serde_json") || qualifier.is_empty())
        }
        Language::Go => matches!(callee, "json.Marshal" | "json.MarshalIndent"),
    }
}

/// A field name in a naming convention (`rename_all`): `protocol_version` in
/// `camelCase` is `protocolVersion`.
pub fn renamed(field: &str, rule: &str) -> String {
    let words: Vec<&str> = field.split('_').filter(|w| !w.is_empty()).collect();
    let cap = |w: &str| {
        let mut c = w.chars();
        c.next().map(|f| f.to_uppercase().collect::<String>() + c.as_str()).unwrap_or_default()
    };
    match rule {
        "camelCase" => {
            words.iter().enumerate().map(|(i, w)| if i == 0 { w.to_string() } else { cap(w) }).collect()
        }
        "PascalCase" => words.iter().map(|w| cap(w)).collect(),
        "kebab-case" => words.join("-"),
        "SCREAMING_SNAKE_CASE" => field.to_ascii_uppercase(),
        "lowercase" => field.to_ascii_lowercase(),
        "UPPERCASE" => field.to_ascii_uppercase(),
        _ => field.to_string(),
    }
}

/// An enum variant's name in a naming convention (serde's `rename_all` on an enum):
/// `ToolsList` is `toolslist` in `lowercase`, `tools_list` in `snake_case`,
/// `toolsList` in `camelCase`.
pub fn variant_renamed(variant: &str, rule: &str) -> String {
    match rule {
        "lowercase" => variant.to_ascii_lowercase(),
        "UPPERCASE" => variant.to_ascii_uppercase(),
        "PascalCase" => variant.to_string(),
        _ => {
            let mut snake = String::with_capacity(variant.len() + 4);
            for (i, c) in variant.chars().enumerate() {
                if c.is_uppercase() && i > 0 {
                    snake.push('_');
                }
                snake.extend(c.to_lowercase());
            }
            match rule {
                "snake_case" => snake,
                "SCREAMING_SNAKE_CASE" => snake.to_ascii_uppercase(),
                "SCREAMING-KEBAB-CASE" => snake.replace('_', "-").to_ascii_uppercase(),
                _ => renamed(&snake, rule),
            }
        }
    }
}

/// Whether a call decodes the incoming message (for a well-formed probe it returns
/// the message, never null and never a parse error): `json.loads(line)`,
/// `JSON.parse(body)`, `json_decode($input)`, `request.get_json()`.
pub fn decodes_message(language: Language, callee: &str) -> bool {
    let last = last_segment(callee);
    let qualifier = callee.strip_suffix(last).unwrap_or("").trim_end_matches(['.', ':', '>', '-']);
    match language {
        Language::Python => {
            matches!(last, "loads" | "load")
                && matches!(qualifier, "json" | "orjson" | "ujson" | "simplejson")
                || matches!(last, "get_json")
                // Starlette/FastAPI/aiohttp `await request.json()`: the request's body.
                || last == "json" && matches!(last_segment(qualifier), "request" | "req")
                // A type adapter reading the raw text (pydantic); a model's own
                // `model_validate_json` knows its type (the Python lowering).
                || last == "validate_json" && !qualifier.is_empty()
        }
        // `await request.json()` in a fetch handler (Workers, Next.js, Deno, Bun, Hono's
        // `c.req.json()`): the request's body.
        Language::TypeScript | Language::JavaScript => {
            callee == "JSON.parse" || last == "json" && matches!(last_segment(qualifier), "request" | "req")
        }
        Language::Php => matches!(callee, "json_decode" | "get_json_params"),
        Language::Go | Language::Rust => false,
    }
}

/// Whether a call reads the incoming message's bytes whole, as they arrived: Starlette's
/// `await request.body()`, Flask's `request.get_data()`, `self.rfile.read(n)` of
/// `http.server`, a fetch handler's `await request.text()` (Hono's `c.req.text()`).
/// What it gives is [`ENCODED_MESSAGE`]; PHP's and Go's readers are their lowerings'.
pub fn reads_body(language: Language, callee: &str) -> bool {
    let last = last_segment(callee);
    let qualifier = callee.strip_suffix(last).unwrap_or("").trim_end_matches(['.', ':', '>', '-']);
    let on_request = matches!(last_segment(qualifier), "request" | "req");
    match language {
        Language::Python => {
            on_request && matches!(last, "body" | "get_data")
                || qualifier.ends_with("rfile") && last == "read"
        }
        Language::TypeScript | Language::JavaScript => on_request && last == "text",
        Language::Php | Language::Go | Language::Rust => false,
    }
}

/// The incoming message's bytes (see [`reads_body`]).
pub fn encoded_message(span: Span) -> Expr {
    Expr::Call { callee: ENCODED_MESSAGE.into(), receiver: None, args: Vec::new(), span }
}

/// An expression used as a statement, as a statement: `xs.append(v)`, `xs.push(v)`
/// on a name add an item to the list that name holds; anything else is evaluated
/// for its effects.
pub fn effect(e: Expr, span: Span) -> crate::model::Stmt {
    if let Expr::Call { callee, args, .. } = &e
        && let Some((list, method)) = callee.rsplit_once('.')
        && matches!(method, "append" | "push" | "push_back")
        && let [item] = args.as_slice()
        && !list.is_empty()
        && list.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'.' || b == b'$')
    {
        return crate::model::Stmt::Push { target: list.to_string(), value: item.clone(), span };
    }
    // `handlers.insert(name, handler)` with a computed key: a map write.
    if let Expr::Call { callee, args, .. } = &e
        && let Some((map, "insert" | "set")) = callee.rsplit_once('.')
        && let [key, value] = args.as_slice()
        && !matches!(key, Expr::Str(_))
        && !map.is_empty()
        && map.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'.')
    {
        return crate::model::Stmt::Store {
            table: map.to_string(),
            key: Box::new(key.clone()),
            value: Box::new(value.clone()),
            span,
        };
    }
    // `reply.insert("id", id)`: a member written into the map a name holds.
    if let Expr::Call { callee, args, .. } = &e
        && let Some((map, "insert")) = callee.rsplit_once('.')
        && let [Expr::Str(key), value] = args.as_slice()
        && !map.is_empty()
        && map.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
    {
        return crate::model::Stmt::Assign {
            target: format!("{map}[\"{key}\"]"),
            value: value.clone(),
            span,
        };
    }
    crate::model::Stmt::Expr(e)
}

/// A switch on `true` (`match (true)` in PHP, `switch (true)` in JavaScript): each
/// arm's condition is tested in order, an if-chain; the default arm (condition None)
/// is taken when none holds, wherever it is written, else `no_arm`.
pub fn condition_chain(arms: Vec<(Option<Expr>, Block, Span)>, no_arm: Block) -> Expr {
    let mut rest = no_arm;
    if let Some((_, body, _)) = arms.iter().find(|(c, _, _)| c.is_none()) {
        rest = body.clone();
    }
    for (condition, body, span) in arms.into_iter().rev() {
        let Some(cond) = condition else { continue };
        rest = vec![Stmt::Yield(Expr::If { cond: Box::new(cond), then: body, otherwise: rest, span })];
    }
    Expr::Block(rest)
}

/// The pattern a `case` label is: a literal, or a named constant (resolved later,
/// where the name is defined); anything else this model cannot decide.
pub fn case_pattern(label: Expr) -> crate::model::Pattern {
    use crate::model::Pattern;
    match label {
        Expr::Str(s) => Pattern::Str(s),
        Expr::Int(n) => Pattern::Int(n),
        Expr::Var(name) if !name.is_empty() => Pattern::Const(name),
        _ => Pattern::Unknown,
    }
}

/// The message fields the checks follow, each with the spellings code gives it as a
/// key or a struct member.
const FIELD_SPELLINGS: &[(FieldName, &[&str])] = &[
    (FieldName::Method, &["method", "Method"]),
    (FieldName::Id, &["id", "ID", "Id"]),
    (FieldName::Jsonrpc, &["jsonrpc", "JSONRPC", "Jsonrpc", "JsonRpc", "JSONRpc"]),
    (FieldName::ProtocolVersion, &["protocolVersion", "protocol_version", "ProtocolVersion"]),
    (FieldName::Result, &["result", "Result"]),
    (FieldName::Error, &["error", "Error"]),
];

/// The message field a key names, when it is one the checks follow.
pub fn message_field(key: &str) -> Option<FieldName> {
    FIELD_SPELLINGS.iter().find(|(_, spellings)| spellings.contains(&key)).map(|(f, _)| *f)
}

/// The spellings code gives a message field (see [`message_field`]).
pub fn field_spellings(name: FieldName) -> &'static [&'static str] {
    FIELD_SPELLINGS.iter().find(|(f, _)| *f == name).map_or(&[], |(_, spellings)| spellings)
}

/// A member of a decoded message that says whether its `id` was there (`hasID`,
/// `has_id`, `idPresent`): set by decoding code of the message's own type.
pub fn names_id_presence(member: &str) -> bool {
    let folded: String = member.chars().filter(|c| *c != '_').collect::<String>().to_ascii_lowercase();
    matches!(folded.as_str(), "hasid" | "idpresent" | "hasrequestid")
}

/// A field read on `object` (None when the object is not written, as in `json!` paths).
pub fn field(object: Option<Expr>, name: FieldName) -> Expr {
    Expr::Field { object: object.map(Box::new), name }
}

/// The class a type annotation names, when it names exactly one apart from the
/// wrappers and nullability around it: `?SystemHandler`, `Arc<Mutex<Handler>>`,
/// `*Server`, `Optional[Handler]`, `McpServer | undefined` -> the class's name.
pub fn type_class(text: &str) -> Option<String> {
    const WRAPPERS: &[&str] =
        &["Arc", "Rc", "Box", "Mutex", "RwLock", "RefCell", "Cell", "Option", "Optional", "Weak"];
    const NOTHING: &[&str] = &["null", "None", "undefined", "nil"];
    let mut t = text.trim();
    for prefix in ["?", "*", "&", "mut ", "readonly ", "dyn ", "impl "] {
        t = t.strip_prefix(prefix).unwrap_or(t).trim_start();
    }
    let alternatives: Vec<&str> = t.split('|').map(str::trim).filter(|a| !NOTHING.contains(a)).collect();
    if alternatives.len() != 1 {
        return None;
    }
    let t = alternatives[0];
    if t.len() != text.trim().len() {
        return type_class(t);
    }
    if let Some(open) = t.find(['<', '[']) {
        let outer = last_segment(&t[..open]);
        if WRAPPERS.contains(&outer) {
            let inner = t[open + 1..].strip_suffix(['>', ']'])?;
            return type_class(inner);
        }
        return type_class(&t[..open]).filter(|_| !t[..open].is_empty());
    }
    let name = t.rsplit(['.', ':', '\\']).next().unwrap_or(t);
    let class = name.starts_with(|c: char| c.is_ascii_uppercase())
        && name.chars().all(|c| c.is_alphanumeric() || c == '_');
    class.then(|| name.to_string())
}

/// A call that ends the program or the PHP request (`os.Exit(1)`, `exit("...")`):
/// what `printed` holds is written first, then no code after it runs.
pub fn exit(printed: Option<Expr>, span: Span) -> Expr {
    let mut block = Vec::new();
    if let Some(p) = printed {
        block.push(crate::model::Stmt::Expr(Expr::Call {
            callee: EMIT.into(),
            receiver: None,
            args: vec![p],
            span,
        }));
    }
    block.push(crate::model::Stmt::Exit { span });
    Expr::Block(block)
}

/// The class an `IsA` test names for JavaScript's `x === null`: null itself, not an
/// absent member (undefined).
pub const STRICT_NULL: &str = "null";

/// The made-up name of a function written inside an expression (a closure, a lambda,
/// an arrow function): where it starts, `__fn_<line>_<column>`.
pub fn anonymous_name(node: Node) -> String {
    let p = node.start_position();
    format!("{ANONYMOUS}{}_{}", p.row + 1, p.column + 1)
}

/// The prefix of [`anonymous_name`]s.
pub const ANONYMOUS: &str = "__fn_";

/// Whether a function body holds a `return` of its own (one outside the functions
/// written inside it, whose node kinds `nested` names).
pub fn returns_within(body: Node, nested: &[&str]) -> bool {
    let mut returns = false;
    walk_tree(body, |n| match n.kind() {
        k if nested.contains(&k) => Walk::Skip,
        "return_statement" => {
            returns = true;
            Walk::Stop
        }
        _ => Walk::Descend,
    });
    returns
}

/// Whether a function's name is made up for a function written inside an expression.
pub fn is_anonymous(name: &str) -> bool {
    name.starts_with(ANONYMOUS)
}

/// The made-up name of a destructured parameter (`({ id, method }) => ..` takes
/// `__arg0`, whose members the body's prologue reads into `id` and `method`).
pub fn destructured_param(index: usize) -> String {
    format!("__arg{index}")
}

/// Whether a parameter name is a [`destructured_param`].
pub fn is_destructured_param(name: &str) -> bool {
    name.strip_prefix("__arg").is_some_and(|i| !i.is_empty() && i.bytes().all(|b| b.is_ascii_digit()))
}

/// The last segment of a dotted or path-qualified name: `self.a.send` -> `send`.
pub fn last_segment(name: &str) -> &str {
    name.rsplit(['.', ':', '>']).next().unwrap_or(name)
}

/// An object literal: a JSON-RPC reply when it carries `result` or `error`
/// next to `jsonrpc` or `id`; otherwise a plain object.
pub fn object(entries: Vec<(String, Expr)>, span: Span) -> Expr {
    let has = |k: &str| entries.iter().any(|(key, _)| key == k);
    let given = |k: &str| entries.iter().any(|(key, v)| key == k && !matches!(v, Expr::Null));
    // A response has no `method`: an object with one is a request or notification.
    let request = entries.iter().any(|(k, v)| {
        k == "method" && !matches!(v, Expr::Null) && !matches!(v, Expr::Str(s) if s.is_empty())
    });
    // `{"type": "error", "id": id, "error": text}` without `jsonrpc` is a line protocol
    // of its own, tagged by its `type`: no JSON-RPC reply.
    // (Go's struct fields are named as written: `Type` too.)
    let tagged = entries.iter().any(|(k, _)| k.eq_ignore_ascii_case("type"));
    let framed = (has("jsonrpc") || (has("id") && !tagged)) && !request;
    // An AWS Lambda / API Gateway proxy response (`{"statusCode": 200, "body":
    // json.dumps(reply)}`, also Netlify and Vercel functions): an HTTP answer, when
    // its members are a proxy response's (an error table's `{code, message,
    // statusCode}` is not one).
    const PROXY_MEMBERS: &[&str] =
        &["statusCode", "body", "headers", "multiValueHeaders", "isBase64Encoded", "cookies"];
    let proxy = entries.iter().all(|(k, _)| PROXY_MEMBERS.contains(&k.as_str()) || k == crate::model::SPREAD);
    if !framed
        && proxy
        && let Some((_, status)) = entries.iter().find(|(k, _)| k == "statusCode")
    {
        let body = entries
            .iter()
            .find(|(k, _)| k == "body")
            .map(|(_, b)| b.clone())
            .unwrap_or(Expr::Str(String::new()));
        return http_answer(status.clone(), body, span);
    }
    // A host's response as a dict (`{"status": 202, "headers": {...}, "content": ""}`,
    // as plugin web servers take it): an HTTP answer, when it has all three.
    if !framed
        && has("headers")
        && let Some((_, status)) = entries.iter().find(|(k, _)| k == "status")
        && let Some((_, body)) = entries.iter().find(|(k, _)| matches!(k.as_str(), "content" | "body"))
    {
        return match status {
            Expr::Str(_) => Expr::Object { entries, span },
            other => http_answer(other.clone(), body.clone(), span),
        };
    }
    // `Response{Result: result, Error: err}`: one of the two is nil at run time (and
    // dropped by `omitempty`); which one is for the interpreter to tell.
    if framed && given("result") && given("error") {
        return Expr::Object { entries, span };
    }
    // `['id' => $session, 'error' => Response::json(.., 404)]` without `jsonrpc`: what
    // the call builds decides whether this is a reply (a JSON-RPC error is an object, not
    // an HTTP response), so the interpreter promotes it once the value is known.
    if framed
        && !has("jsonrpc")
        && matches!(
            entries.iter().find(|(k, _)| k == "error"),
            Some((_, Expr::Call { .. } | Expr::Http { .. } | Expr::HttpWith { .. }))
        )
    {
        return Expr::Object { entries, span };
    }
    if framed {
        if let Some((_, v)) = entries.iter().find(|(k, _)| k == "error")
            && !matches!(v, Expr::Null)
        {
            return Expr::Reply { kind: ReplyExpr::Error(Box::new(v.clone())), id: reply_id(&entries), span };
        }
        if let Some((_, v)) = entries.iter().find(|(k, _)| k == "result") {
            return Expr::Reply {
                kind: ReplyExpr::Result(Box::new(v.clone())),
                id: reply_id(&entries),
                span,
            };
        }
    }
    Expr::Object { entries, span }
}

/// An HTTP answer with `body` and the status `status` holds: written in the code, or
/// computed by the interpreter (a `null` body is sent as `null`, not as no body).
pub fn http_answer(status: Expr, body: Expr, span: Span) -> Expr {
    match status {
        Expr::Int(n) if (100..600).contains(&n) => {
            Expr::Http { status: u16::try_from(n).ok(), body: Some(Box::new(body)), span }
        }
        other => Expr::HttpWith { status: Box::new(other), body: Box::new(body), null_is_empty: false, span },
    }
}

fn reply_id(entries: &[(String, Expr)]) -> Option<Box<Expr>> {
    entries.iter().find(|(k, _)| k == "id").map(|(_, v)| Box::new(v.clone()))
}

/// Whether a method only converts or unwraps its receiver (`as_str`, `strip`,
/// `toString`): each language's `frameworks.rs` lists its own. Names are not tied to
/// a language here, as a call's name is all the shared lowering sees.
fn transparent(name: &str) -> bool {
    [rust::frameworks::TRANSPARENT, python::frameworks::TRANSPARENT, javascript::frameworks::TRANSPARENT]
        .iter()
        .any(|t| t.contains(&name))
}

/// Whether `name` is a method of Rust's standard strings, collections, options and
/// paths (`is_empty`, `join`, `trim`): on a value not of the code's own types, that
/// method (see `rust::frameworks::STD_METHODS`).
pub fn rust_std_method(name: &str) -> bool {
    rust::frameworks::STD_METHODS.contains(&name)
}

/// What a string function (each language's `STRING_FOLDS`) does to the string it is given.
#[derive(Debug, Clone, Copy)]
pub enum Fold {
    Lower,
    Trim,
    /// A conversion to a string: a string stays as it is.
    Keep,
}

/// What `name` does to a string when it converts, lower-cases or trims it
/// (`strtolower`, `strings.TrimSpace`, `String`), from each language's `STRING_FOLDS`.
/// Applied to the method name they keep it (MCP's names are lower case, without
/// spaces); applied to raw message text they are not transparent (its first byte
/// still decides a batch), so the interpreter keeps them only for a name.
pub fn string_fold(name: &str) -> Option<Fold> {
    [
        php::frameworks::STRING_FOLDS,
        go::frameworks::STRING_FOLDS,
        javascript::frameworks::STRING_FOLDS,
        python::frameworks::STRING_FOLDS,
    ]
    .iter()
    .flat_map(|t| t.iter())
    .find(|(f, _)| *f == name)
    .map(|&(_, fold)| fold)
}

/// How a string function replaces part of its text (each language's
/// `STRING_REPLACES`): which arguments are the text, the pattern and the
/// replacement, whether every match is replaced, and whether the pattern is a
/// regular expression (PHP's between delimiters, `'/\\s+/'`).
#[derive(Debug, Clone, Copy)]
pub struct Replace {
    pub text: usize,
    pub pattern: usize,
    pub with: usize,
    pub all: bool,
    pub regex: bool,
}

/// The replacing function `name` is, from each language's `STRING_REPLACES`
/// (`str_replace`, `re.sub`, `strings.ReplaceAll`). Methods (`s.replace(a, b)`)
/// are the interpreter's: what they do depends on the receiver being a string.
pub fn string_replace(name: &str) -> Option<Replace> {
    [php::frameworks::STRING_REPLACES, go::frameworks::STRING_REPLACES, python::frameworks::STRING_REPLACES]
        .iter()
        .flat_map(|t| t.iter())
        .find(|(f, _)| *f == name)
        .map(|&(_, r)| r)
}

/// A class of the code's own modules imported under another name (see
/// [`Ctx::renamed_classes`]): the class's own name for the local one.
pub fn renamed_class<'c>(ctx: &'c Ctx, local: &str) -> Option<&'c str> {
    ctx.renamed_classes.iter().find(|(l, _)| l == local).map(|(_, own)| own.as_str())
}

/// A call through such a class (`WireResponse.ok`): the same call by the class's own
/// name (`Response.ok`), so that it resolves to the class; else the callee as written.
pub fn by_own_class(ctx: &Ctx, callee: String) -> String {
    match callee.split_once('.').and_then(|(head, rest)| Some((renamed_class(ctx, head)?, rest))) {
        Some((own, rest)) => format!("{own}.{rest}"),
        None => callee,
    }
}

/// Where a splitting function takes its text, separator and limit (positions).
#[derive(Debug, Clone, Copy)]
pub struct Split {
    pub text: usize,
    pub sep: usize,
    pub limit: Option<usize>,
}

/// The splitting function `name` is, from each language's `STRING_SPLITS`
/// (`strings.Split`, `explode`). The method `s.split(sep)` is the interpreter's.
pub fn string_split(name: &str) -> Option<Split> {
    [php::frameworks::STRING_SPLITS, go::frameworks::STRING_SPLITS]
        .iter()
        .flat_map(|t| t.iter())
        .find(|(f, _)| *f == name)
        .map(|&(_, r)| r)
}

/// A regular-expression literal (JavaScript `/[\u200B]/g`) as a value: a string
/// no code writes, holding its flags and pattern (see [`regex_literal_parts`]).
pub fn regex_literal(pattern: &str, flags: &str) -> Expr {
    Expr::Str(format!("{REGEX_LITERAL}{flags}/{pattern}"))
}

const REGEX_LITERAL: &str = "\u{1}regex/";

/// The flags and pattern of a value [`regex_literal`] made.
pub fn regex_literal_parts(value: &str) -> Option<(&str, &str)> {
    value.strip_prefix(REGEX_LITERAL)?.split_once('/')
}

const HTTP_RESPONSES: &[&str] = &[
    "Response",
    "JSONResponse",
    "PlainTextResponse",
    "HTMLResponse",
    "ORJSONResponse",
    "UJSONResponse",
    "json_response",
    "jsonify",
    "make_response",
    "HttpResponse",
    "JsonResponse",
    // Streamed answers (Starlette, sse-starlette): the body is what their iterator gives.
    "StreamingResponse",
    "EventSourceResponse",
];

/// A method call `receiver.name(args)`, or a plain call when `receiver` is None.
/// Recognises message-field reads, key tests, prefix tests and HTTP responses.
pub fn call(
    callee: String,
    receiver: Option<Expr>,
    args: Vec<Expr>,
    keywords: Vec<(String, Expr)>,
    span: Span,
) -> Expr {
    let name = last_segment(&callee).to_string();
    let first_str = match args.first() {
        Some(Expr::Str(s)) => Some(s.clone()),
        _ => None,
    };
    if let Some(recv) = receiver.clone() {
        match name.as_str() {
            // `object.remove("jsonrpc")` (a serde_json map taken apart), `msg.pop("id",
            // None)`: the member's value, as a read gives it.
            "remove" | "pop" if let Some(name) = first_str.as_deref().and_then(message_field) => {
                return field(Some(recv), name);
            }
            "get" | "get_str" | "pointer" => {
                if let Some(name) = first_str.as_deref().and_then(message_field) {
                    return field(Some(recv), name);
                }
                if let Some(key) = args.into_iter().next() {
                    return Expr::Lookup { collection: Box::new(recv), key: Box::new(key) };
                }
                return Expr::opaque(vec![recv]);
            }
            "startswith" | "starts_with" | "startsWith" => {
                if let Some(prefix) = first_str {
                    return Expr::StartsWith { text: Box::new(recv), prefix };
                }
            }
            "is_none" | "isNone" | "is_null" => return Expr::IsNull(Box::new(recv)),
            "is_some" => return Expr::Not(Box::new(Expr::IsNull(Box::new(recv)))),
            "contains_key" | "has_key" | "hasOwnProperty" | "has" | "contains" | "includes"
            | "__contains__" => {
                if let Some(key) = first_str.clone()
                    && (matches!(name.as_str(), "contains_key" | "has_key" | "hasOwnProperty")
                        || message_field(&key).is_some() && name == "has")
                {
                    return Expr::HasKey { object: Box::new(recv), key };
                }
                if let Some(item) = args.into_iter().next() {
                    return Expr::Member { item: Box::new(item), collection: Box::new(recv) };
                }
                return Expr::opaque(vec![recv]);
            }
            // `serde_json::to_value(x).unwrap()`: the value inside.
            "unwrap" | "expect" | "unwrap_or_default" => {
                return match recv {
                    Expr::Variant { name, inner: Some(inner) } if name == "Ok" || name == "Some" => *inner,
                    // A value computed here or held by a name may be an `Ok(..)` the path
                    // knows (a decoder's result): unwrapped when it runs.
                    recv @ (Expr::Call { .. } | Expr::Var(_)) => Expr::Call {
                        callee: name.clone(),
                        receiver: Some(Box::new(recv)),
                        args: Vec::new(),
                        span,
                    },
                    other => other,
                };
            }
            n if transparent(n) => return recv,
            // Defaults and adapters keep what a message field is: `req.id.unwrap_or(Null)`.
            "unwrap_or" | "unwrap_or_else" | "or" | "or_else" | "and_then" | "map" | "ok_or"
            | "ok_or_else" | "as_i64" | "as_u64" | "as_deref_mut"
                if matches!(recv, Expr::Field { .. }) =>
            {
                return recv;
            }
            _ => {}
        }
    }
    // `strings.Contains(method, "notifications/")` (Go), `str_contains($method, '/')`
    // (PHP): the substring test, as `method.includes(..)` is (each language's
    // `SUBSTRING_TESTS`, text first, then the part).
    if receiver.is_none()
        && [go::frameworks::SUBSTRING_TESTS, php::frameworks::SUBSTRING_TESTS]
            .iter()
            .any(|t| t.contains(&callee.as_str()))
        && args.len() == 2
    {
        let mut args = args.into_iter();
        if let (Some(text), Some(part)) = (args.next(), args.next()) {
            return Expr::Member { item: Box::new(part), collection: Box::new(text) };
        }
        return Expr::unknown();
    }
    // A method of the code's own class (`$this->json_response(..)`, `self.jsonify(..)`)
    // is its own, whatever it is called: followed, not taken for the framework's.
    let own_method = receiver.is_none() && (callee.starts_with("self.") || callee.starts_with("this."));
    if HTTP_RESPONSES.contains(&name.as_str()) && !own_method {
        return http_response(&name, args, keywords, span);
    }
    // FastAPI/Starlette `HTTPException(status_code=400, detail=...)`: the answer the
    // framework sends when it is raised (status first, then the detail).
    if name == "HTTPException" && receiver.is_none() {
        let mut positional = args.into_iter();
        let mut status = positional.next();
        let mut detail = positional.next();
        for (k, v) in keywords {
            match k.as_str() {
                "status_code" => status = Some(v),
                "detail" => detail = Some(v),
                _ => {}
            }
        }
        let body = Expr::Object { entries: vec![("detail".to_string(), detail.unwrap_or(Expr::Null))], span };
        // `status.HTTP_401_UNAUTHORIZED`: a status named by the framework's constants.
        let status = status.map(|s| match &s {
            Expr::Var(name)
                if last_segment(name)
                    .bytes()
                    .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'_') =>
            {
                status_by_name(name).map_or(s, |code| Expr::Int(i64::from(code)))
            }
            _ => s,
        });
        return status.map_or_else(Expr::unknown, |status| http_answer(status, body, span));
    }
    let mut all_args = args;
    all_args.extend(keywords.into_iter().map(|(name, v)| Expr::Named { name, value: Box::new(v) }));
    Expr::Call { callee, receiver: receiver.map(Box::new), args: all_args, span }
}

/// Responses that send their content as it is: `None` is no body (the JSON ones
/// encode it as `null`).
const PLAIN_RESPONSES: &[&str] = &["Response", "PlainTextResponse", "HTMLResponse"];

/// Django's responses, whose second positional argument is the content type.
const DJANGO_RESPONSES: &[&str] = &["HttpResponse", "JsonResponse"];

/// `Response(body, status_code=202)` and its relatives.
fn http_response(name: &str, args: Vec<Expr>, keywords: Vec<(String, Expr)>, span: Span) -> Expr {
    let plain = PLAIN_RESPONSES.contains(&name);
    let mut status = None;
    let mut computed = None;
    let mut body = None;
    for (k, v) in keywords {
        match k.as_str() {
            "status_code" | "status" => match v {
                Expr::Int(n) => status = u16::try_from(n).ok(),
                // `status_code=status.HTTP_204_NO_CONTENT`, `HTTPStatus.ACCEPTED`: a named status.
                Expr::Var(name) if name.contains('.') && status_by_name(&name).is_some() => {
                    status = status_by_name(&name)
                }
                // `status_code=status_code`: computed, for the interpreter to tell.
                other => computed = Some(other),
            },
            // `text=` of aiohttp's `web.Response(status=202, text="Accepted")`.
            "content" | "body" | "response" | "text" => body = Some(Box::new(v)),
            _ => {}
        }
    }
    if let Some(status) = computed {
        let null_is_empty = body.is_none() || plain;
        let body = body.or_else(|| args.into_iter().next().map(Box::new)).unwrap_or(Box::new(Expr::Null));
        return Expr::HttpWith { status: Box::new(status), body, null_is_empty, span };
    }
    let mut positional = args.into_iter();
    if body.is_none() {
        body = positional.next().map(Box::new);
    }
    if status.is_none() {
        status = match positional.next() {
            Some(Expr::Int(n)) => u16::try_from(n).ok(),
            Some(Expr::Var(name)) if name.contains('.') && status_by_name(&name).is_some() => {
                status_by_name(&name)
            }
            // `make_response("", status)` with the status a helper's parameter: computed,
            // for the interpreter to tell (Django's second argument is a content type).
            Some(other @ (Expr::Var(_) | Expr::Field { .. } | Expr::Call { .. }))
                if !DJANGO_RESPONSES.contains(&name) =>
            {
                let null_is_empty = body.is_none() || plain;
                let body = body.unwrap_or(Box::new(Expr::Null));
                return Expr::HttpWith { status: Box::new(other), body, null_is_empty, span };
            }
            _ => None,
        };
    }
    // `Response(content=None, status_code=202)`: no body.
    if plain && matches!(body.as_deref(), Some(Expr::Null)) {
        body = None;
    }
    // `Response(content=resp.body, status_code=202)`: no body when it is `None`.
    if plain
        && let (Some(code), Some(b)) = (status, &body)
        && matches!(**b, Expr::Var(_) | Expr::Field { .. } | Expr::Call { .. })
    {
        let body = body.unwrap_or_else(|| Box::new(Expr::Null));
        return Expr::HttpWith {
            status: Box::new(Expr::Int(i64::from(code))),
            body,
            null_is_empty: true,
            span,
        };
    }
    Expr::Http { status, body, span }
}

/// HTTP status constants by name (`StatusCode::ACCEPTED`, `http.StatusAccepted`).
pub fn status_by_name(name: &str) -> Option<u16> {
    let n = last_segment(name).to_ascii_uppercase().replace('_', "");
    // Names that carry their code: Starlette/FastAPI and Django REST framework's
    // `status.HTTP_202_ACCEPTED`, `HTTP_204_NO_CONTENT`.
    if let Some(code) =
        n.strip_prefix("HTTP").and_then(|rest| rest.get(..3)).and_then(|d| d.parse::<u16>().ok())
        && (100..600).contains(&code)
    {
        return Some(code);
    }
    // Go's `http.StatusAccepted`; Symfony's `Response::HTTP_ACCEPTED` (but keep
    // `HTTP_VERSION_NOT_SUPPORTED` whole).
    let named = |n: &str| STATUS_NAMES.iter().find(|(name, _)| *name == n).map(|(_, code)| *code);
    let n = n.trim_start_matches("STATUS");
    named(n).or_else(|| n.strip_prefix("HTTP").and_then(named))
}

/// Status names as the frameworks spell them, upper case without separators.
const STATUS_NAMES: &[(&str, u16)] = &[
    ("CONTINUE", 100),
    ("SWITCHINGPROTOCOLS", 101),
    ("OK", 200),
    ("CREATED", 201),
    ("ACCEPTED", 202),
    ("NONAUTHORITATIVEINFO", 203),
    ("NONAUTHORITATIVEINFORMATION", 203),
    ("NOCONTENT", 204),
    ("RESETCONTENT", 205),
    ("PARTIALCONTENT", 206),
    ("MULTISTATUS", 207),
    ("MOVEDPERMANENTLY", 301),
    ("FOUND", 302),
    ("SEEOTHER", 303),
    ("NOTMODIFIED", 304),
    ("TEMPORARYREDIRECT", 307),
    ("PERMANENTREDIRECT", 308),
    ("BADREQUEST", 400),
    ("UNAUTHORIZED", 401),
    ("PAYMENTREQUIRED", 402),
    ("FORBIDDEN", 403),
    ("NOTFOUND", 404),
    ("METHODNOTALLOWED", 405),
    ("NOTACCEPTABLE", 406),
    ("PROXYAUTHREQUIRED", 407),
    ("PROXYAUTHENTICATIONREQUIRED", 407),
    ("REQUESTTIMEOUT", 408),
    ("CONFLICT", 409),
    ("GONE", 410),
    ("LENGTHREQUIRED", 411),
    ("PRECONDITIONFAILED", 412),
    ("REQUESTENTITYTOOLARGE", 413),
    ("PAYLOADTOOLARGE", 413),
    ("CONTENTTOOLARGE", 413),
    ("REQUESTURITOOLONG", 414),
    ("URITOOLONG", 414),
    ("UNSUPPORTEDMEDIATYPE", 415),
    ("REQUESTEDRANGENOTSATISFIABLE", 416),
    ("RANGENOTSATISFIABLE", 416),
    ("EXPECTATIONFAILED", 417),
    ("MISDIRECTEDREQUEST", 421),
    ("UNPROCESSABLEENTITY", 422),
    ("UNPROCESSABLECONTENT", 422),
    ("LOCKED", 423),
    ("FAILEDDEPENDENCY", 424),
    ("UPGRADEREQUIRED", 426),
    ("PRECONDITIONREQUIRED", 428),
    ("TOOMANYREQUESTS", 429),
    ("REQUESTHEADERFIELDSTOOLARGE", 431),
    ("INTERNALSERVERERROR", 500),
    ("NOTIMPLEMENTED", 501),
    ("BADGATEWAY", 502),
    ("SERVICEUNAVAILABLE", 503),
    ("GATEWAYTIMEOUT", 504),
    ("HTTPVERSIONNOTSUPPORTED", 505),
];

/// Calls that build or start an SDK server.
pub const SDK_SERVER_CALLS: &[&str] = &[
    "FastMCP",
    "Server",
    "MCPServer",
    "stdio_server",
    "serve",
    "serve_server",
    "serve_with_ct",
    "ServerBuilder",
    "McpServer",
    "NewMCPServer",
    "ServeStdio",
];

/// `SetInitialized` for an assignment written as an expression (`'initialized' =>
/// $this->initialized = true` in a PHP `match` arm, `() => (this.ready = true)`), as
/// a statement assigning `true` to the flag gets it.
pub fn sets_flag(target: &str, value: &Expr, span: Span) -> Option<Stmt> {
    (is_initialized_flag(target) && matches!(value, Expr::Bool(true)))
        .then_some(Stmt::SetInitialized { span })
}

/// True when the assignment target names the session's initialized flag.
pub fn is_initialized_flag(target: &str) -> bool {
    // (`*initialized = true` writes through a reference: the flag itself.)
    let last = last_segment(target.trim_start_matches('*')).to_ascii_lowercase();
    let last = last.trim_start_matches('_');
    last.starts_with("initialized")
        || matches!(last, "is_initialized" | "isinitialized" | "ready" | "isready" | "is_ready")
}

/// True when a name reads whether the session completed its handshake:
/// `initialized`, `self._initialized`, `isInitialized()`, `isSessionInitialized($id)`,
/// `session_initialized`.
pub fn reads_initialized_state(name: &str) -> bool {
    let last: String =
        last_segment(name).chars().filter(|c| *c != '_').collect::<String>().to_ascii_lowercase();
    let rest = last.strip_prefix("is").or_else(|| last.strip_prefix("has")).unwrap_or(&last);
    matches!(rest, "initialized" | "sessioninitialized" | "clientinitialized")
}

/// A module path as a path hint: `..mcp.transport` -> `mcp/transport`,
/// `./lib/protocol.js` -> `lib/protocol`, `github.com/o/r/internal/mcp` -> `internal/mcp`.
/// How an import through a path alias (`@/lib/rpc`) is kept among the hints.
pub const PATH_ALIAS: &str = "@/";

/// A relative JavaScript module (`../controllers/mcp`, `./lib/rpc.js`) resolved from
/// the importing file's folder to a path from the scan's root, without extension:
/// `routes/mcp.js` importing `../controllers/mcp` names `controllers/mcp`, and no
/// other folder's `controllers/mcp`. `None` when it is not relative or climbs above
/// the root (then the hint is matched as a suffix).
pub fn relative_module(importer: &str, module: &str) -> Option<String> {
    if !(module.starts_with("./") || module.starts_with("../")) {
        return None;
    }
    let mut parts: Vec<&str> = importer.split('/').collect();
    parts.pop();
    for segment in module.split('/') {
        match segment {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            other => parts.push(other),
        }
    }
    let joined = parts.join("/");
    let path = joined
        .rsplit_once('.')
        .filter(|(stem, ext)| {
            !stem.ends_with('/')
                && matches!(*ext, "js" | "ts" | "mjs" | "cjs" | "mts" | "cts" | "jsx" | "tsx")
        })
        .map(|(s, _)| s.to_string())
        .unwrap_or(joined);
    (!path.is_empty()).then_some(path)
}

pub fn import_hint(language: Language, module: &str) -> Option<String> {
    let hint = match language {
        Language::Python => module.trim_start_matches('.').replace('.', "/"),
        Language::TypeScript | Language::JavaScript => {
            // `@/features/mcp/dispatcher`, `~/lib/rpc`: a path alias for the project's
            // source root (tsconfig `paths`, as Next.js, Nuxt and Vite set it up): the
            // rest is a path inside the project, matched as a suffix like a relative one.
            let (module, aliased) = match module.strip_prefix("@/").or_else(|| module.strip_prefix("~/")) {
                Some(rest) => (rest, true),
                None => (module, false),
            };
            if !aliased && !module.starts_with('.') {
                return None;
            }
            let parts: Vec<&str> = module.split('/').filter(|p| !matches!(*p, "." | "..")).collect();
            let joined = parts.join("/");
            let path = joined
                .rsplit_once('.')
                .filter(|(_, ext)| {
                    matches!(*ext, "js" | "ts" | "mjs" | "cjs" | "mts" | "cts" | "jsx" | "tsx")
                })
                .map(|(s, _)| s.to_string())
                .unwrap_or(joined);
            // Kept marked: an aliased path names a file of the importer's own project.
            if aliased { format!("{PATH_ALIAS}{path}") } else { path }
        }
        Language::Go => {
            let parts: Vec<&str> = module.split('/').collect();
            parts[parts.len().saturating_sub(2)..].join("/")
        }
        // `use App\Mcp\JsonRpcHandler;`: PSR-4 maps the root namespace (`App\`) to a
        // folder of any name (`src/`) and the rest to folders and the file, so the rest
        // is the end of the class's path (`Mcp/JsonRpcHandler`).
        Language::Php => {
            let path = module.trim().trim_start_matches('\\').trim_end_matches(';');
            let path = path.split(" as ").next().unwrap_or(path).trim();
            if path.contains(['{', ',', ' ']) {
                return None;
            }
            let parts: Vec<&str> = path.split('\\').filter(|p| !p.is_empty()).collect();
            if parts.len() < 2 {
                return None;
            }
            parts[1..].join("/")
        }
        _ => return None,
    };
    (!hint.is_empty()).then_some(hint)
}

/// Known official SDK import prefixes per language.
/// `module` is `name` or inside it (`acme.mcp` is inside `acme`, `acme_x` is not).
fn imports_module(module: &str, name: &str) -> bool {
    let module = module.trim().trim_start_matches(['\\', ':']);
    let name = name.trim().trim_start_matches(['\\', ':']);
    module
        .strip_prefix(name)
        .is_some_and(|rest| rest.is_empty() || rest.starts_with(['.', '/', ':', '\\', ';', ' ', ',', '{']))
}

pub fn sdk_for_import(language: Language, module: &str) -> Option<&'static str> {
    let m = module.trim();
    match language {
        Language::Python => {
            let mut parts = m.split('.');
            match (parts.next(), parts.next()) {
                (Some("mcp"), Some("server")) => Some("mcp (Python SDK)"),
                (Some("fastmcp"), _) => Some("fastmcp"),
                _ => None,
            }
        }
        Language::Rust => {
            let root = m.trim_start_matches("::").split("::").next().unwrap_or("");
            match root {
                "rmcp" => Some("rmcp"),
                "rust_mcp_sdk" => Some("rust-mcp-sdk"),
                "modelcontextprotocol_server" => Some("modelcontextprotocol-server"),
                _ => None,
            }
        }
        Language::TypeScript | Language::JavaScript => {
            m.starts_with("@modelcontextprotocol/sdk").then_some("@modelcontextprotocol/sdk")
        }
        // The module or a package of it (`.../mcp-go/server`), not a module whose
        // path merely starts the same (`.../mcp-go-examples`).
        Language::Go if imports_module(m, "github.com/modelcontextprotocol/go-sdk") => {
            Some("modelcontextprotocol/go-sdk")
        }
        Language::Go if imports_module(m, "github.com/mark3labs/mcp-go") => Some("mark3labs/mcp-go"),
        Language::Php => {
            let ns = m.trim_start_matches('\\');
            if ns.starts_with("PhpMcp\\Server") {
                Some("php-mcp/server")
            } else if ns.split_once('\\').is_some_and(|(root, rest)| root == "Mcp" && php_sdk_namespace(rest))
            {
                Some("mcp-sdk-php (Mcp\\ namespace)")
            } else if ns.starts_with("WP\\MCP") {
                Some("wordpress/mcp-adapter")
            } else {
                None
            }
        }
        _ => None,
    }
}

/// The namespaces under `Mcp\` that the PHP SDKs (logiscape/mcp-sdk-php and the
/// official php-sdk) declare; a project's own `Mcp\PhpcsServer\..` is not theirs.
fn php_sdk_namespace(rest: &str) -> bool {
    const SDK: &[&str] =
        &["Server", "Client", "Types", "Shared", "Schema", "Capability", "JsonRpc", "Exception", "Event"];
    let first = rest.split(['\\', ' ', ';', '{', ',']).next().unwrap_or("");
    SDK.contains(&first)
}

#[cfg(test)]
mod tests {
    use super::{
        imports_module, int_literal, reads_initialized_state, relative_module, returned_class,
        status_by_name, type_class, variant_renamed,
    };

    #[test]
    fn go_sdks_are_known_by_their_module_not_a_longer_path() {
        use crate::model::Language;
        assert_eq!(
            super::sdk_for_import(Language::Go, "github.com/mark3labs/mcp-go/server"),
            Some("mark3labs/mcp-go")
        );
        assert_eq!(
            super::sdk_for_import(Language::Go, "github.com/mark3labs/mcp-go"),
            Some("mark3labs/mcp-go")
        );
        assert_eq!(super::sdk_for_import(Language::Go, "github.com/mark3labs/mcp-go-examples"), None);
        assert_eq!(
            super::sdk_for_import(Language::Go, "github.com/modelcontextprotocol/go-sdk/mcp"),
            Some("modelcontextprotocol/go-sdk")
        );
    }

    #[test]
    fn statuses_are_known_by_their_names_in_every_spelling() {
        assert_eq!(status_by_name("http.StatusUnsupportedMediaType"), Some(415));
        assert_eq!(status_by_name("http.StatusRequestEntityTooLarge"), Some(413));
        assert_eq!(status_by_name("http.StatusHTTPVersionNotSupported"), Some(505));
        assert_eq!(status_by_name("StatusCode::SERVICE_UNAVAILABLE"), Some(503));
        assert_eq!(status_by_name("HTTPStatus.ACCEPTED"), Some(202));
        assert_eq!(status_by_name("status.HTTP_204_NO_CONTENT"), Some(204));
        assert_eq!(status_by_name("Response::HTTP_ACCEPTED"), Some(202));
        assert_eq!(status_by_name("Response::HTTP_VERSION_NOT_SUPPORTED"), Some(505));
        assert_eq!(status_by_name("http.StatusTeapotMaybe"), None);
    }

    #[test]
    fn relative_modules_resolve_from_the_importing_folder() {
        assert_eq!(
            relative_module("app/routes/mcp.js", "../controllers/mcp").as_deref(),
            Some("app/controllers/mcp")
        );
        assert_eq!(relative_module("app/routes/mcp.js", "./rpc.js").as_deref(), Some("app/routes/rpc"));
        assert_eq!(relative_module("server.ts", "./lib/index.ts").as_deref(), Some("lib/index"));
        // Above the scan's root: not resolved (matched as a suffix instead).
        assert_eq!(relative_module("routes/mcp.js", "../../shared/rpc"), None);
        // Not relative: a package.
        assert_eq!(relative_module("routes/mcp.js", "express"), None);
    }

    #[test]
    fn enum_variants_are_renamed_as_serde_renames_them() {
        assert_eq!(variant_renamed("ToolsList", "lowercase"), "toolslist");
        assert_eq!(variant_renamed("ToolsList", "snake_case"), "tools_list");
        assert_eq!(variant_renamed("ToolsList", "camelCase"), "toolsList");
        assert_eq!(variant_renamed("ToolsList", "kebab-case"), "tools-list");
        assert_eq!(variant_renamed("ToolsList", "SCREAMING_SNAKE_CASE"), "TOOLS_LIST");
        assert_eq!(variant_renamed("Ping", "PascalCase"), "Ping");
    }

    #[test]
    fn a_declared_type_names_its_one_class_through_wrappers() {
        assert_eq!(type_class("?SystemHandler").as_deref(), Some("SystemHandler"));
        assert_eq!(type_class("Arc<Mutex<Handler>>").as_deref(), Some("Handler"));
        assert_eq!(type_class("Option<Box<dyn Transport>>").as_deref(), Some("Transport"));
        assert_eq!(type_class("McpServer | undefined").as_deref(), Some("McpServer"));
        assert_eq!(type_class("Optional[Router]").as_deref(), Some("Router"));
        assert_eq!(type_class("\\Acme\\Mcp\\Router").as_deref(), Some("Router"));
        assert_eq!(type_class("ProtocolConnection<A>").as_deref(), Some("ProtocolConnection"));
        // Not one class: scalars, unions of classes, maps.
        assert_eq!(type_class("string"), None);
        assert_eq!(type_class("Handler | Fallback"), None);
        assert_eq!(type_class("bool"), None);
    }

    #[test]
    fn declared_return_types_name_one_class() {
        assert_eq!(returned_class(": Promise<ChainDispatcher>", None).as_deref(), Some("ChainDispatcher"));
        assert_eq!(returned_class("anyhow::Result<Self>", Some("Server")).as_deref(), Some("Server"));
        assert_eq!(returned_class("Result<Arc<Router>, Error>", None).as_deref(), Some("Router"));
        assert_eq!(returned_class("(*Server, error)", None).as_deref(), Some("Server"));
        assert_eq!(returned_class("\"Dispatcher\"", None).as_deref(), Some("Dispatcher"));
        assert_eq!(returned_class("?\\App\\StdioServer", None).as_deref(), Some("StdioServer"));
        assert_eq!(returned_class("static", Some("Builder")).as_deref(), Some("Builder"));
        assert_eq!(returned_class("Server | null", None).as_deref(), Some("Server"));
        // Not one class: scalars, several results of classes, nothing.
        assert_eq!(returned_class("void", None), None);
        assert_eq!(returned_class(": Promise<void>", None), None);
        assert_eq!(returned_class("Self", None), None);
    }

    #[test]
    fn integer_literals_in_every_spelling() {
        assert_eq!(int_literal("1_048_576"), Some(1_048_576));
        assert_eq!(int_literal("202u16"), Some(202));
        assert_eq!(int_literal("0x1F"), Some(31));
        assert_eq!(int_literal("0o755"), Some(493));
        assert_eq!(int_literal("0b101"), Some(5));
        assert_eq!(int_literal("10n"), Some(10));
        assert_eq!(int_literal("1.5"), None);
        assert_eq!(int_literal("1e6"), None);
        assert_eq!(int_literal("99999999999999999999"), None);
    }

    #[test]
    fn handshake_state_names_are_the_initialized_flag_only() {
        for name in
            ["initialized", "self._initialized", "isInitialized", "isSessionInitialized", "is_initialized"]
        {
            assert!(reads_initialized_state(name), "{name}");
        }
        for name in ["uninitialized", "isNotInitialized", "initialize", "initialized_sessions", "ready"] {
            assert!(!reads_initialized_state(name), "{name}");
        }
    }

    #[test]
    fn configured_sdk_names_match_whole_module_segments() {
        assert!(imports_module("acme_mcp", "acme_mcp"));
        assert!(imports_module("acme_mcp.server", "acme_mcp"));
        assert!(imports_module("@acme/mcp/server.js", "@acme/mcp"));
        assert!(imports_module("acme::mcp::{Server, Tool}", "acme::mcp"));
        assert!(imports_module("\\Acme\\Mcp\\Server;", "Acme\\Mcp"));
        assert!(!imports_module("acme_mcp_extra", "acme_mcp"));
        assert!(!imports_module("other.acme_mcp", "acme_mcp"));
    }
}
