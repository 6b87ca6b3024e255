//! What Go's HTTP frameworks are, as data: how a route is mounted, which parameter
//! types make a function a handler, and how a handler's context answers. A new
//! framework is a row here and a fixture.

use crate::lower::Fold;

/// Methods that mount a handler when one argument is a path (`"/mcp"`): net/http
/// and gorilla `HandleFunc`/`Handle`, chi `Post`/`Method`, gin `POST`/`Any`, echo
/// `POST`/`Any`, fiber `Post`/`All`.
pub const ROUTE_METHODS: &[&str] =
    &["HandleFunc", "Handle", "Post", "POST", "Any", "All", "Method", "MethodFunc", "Put", "PUT"];

/// Output buffers of the standard library: a value of one starts empty, and what is
/// written into it is read back (`buf.Len()`, `buf.Bytes()`).
pub const BUFFER_TYPES: &[&str] = &["bytes.Buffer", "strings.Builder"];
/// Constructors of an output buffer from its first contents: empty when given `nil`
/// or `""`.
pub const BUFFER_CONSTRUCTORS: &[&str] = &["bytes.NewBuffer", "bytes.NewBufferString"];

/// Conversions that make their argument a handler without a path: `http.HandlerFunc(h)`.
pub const HANDLER_CONVERSIONS: &[&str] = &["HandlerFunc"];

/// Parameter types (by their text's last segment) whose presence makes a function an
/// HTTP handler, and whose `Method`/`Request.Method` is the HTTP verb.
pub const CONTEXT_TYPES: &[&str] = &["gin.Context", "echo.Context", "fiber.Ctx"];

/// Parameter types that are a network connection (`conn net.Conn`): a function taking
/// one answers HTTP when its file writes HTTP answers by hand.
pub const CONNECTION_TYPES: &[&str] = &["net.Conn", "net.TCPConn"];

/// How a framework context answers: method name, where its status argument is, and
/// where its body argument is (`c.JSON(202, v)`, `c.NoContent(202)`, `c.Status(202)`).
pub const CONTEXT_ANSWERS: &[(&str, Option<usize>, Option<usize>)] = &[
    ("JSON", Some(0), Some(1)),
    ("String", Some(0), Some(1)),
    ("Data", Some(0), Some(2)),
    ("Blob", Some(0), Some(2)),
    ("NoContent", Some(0), None),
    ("Status", Some(0), None),
    ("AbortWithStatus", Some(0), None),
    ("AbortWithStatusJSON", Some(0), Some(1)),
    ("SendStatus", Some(0), None),
];

/// Fiber's context (`github.com/gofiber/fiber`): the status is set apart
/// (`c.Status(202)`, which answers with it when nothing else is sent) and the sending
/// methods take the body alone (`c.JSON(v)`, `c.SendString(s)`); `c.SendStatus(202)`
/// sends the status with its text.
pub const FIBER_ANSWERS: &[(&str, Option<usize>, Option<usize>)] = &[
    ("JSON", None, Some(0)),
    ("SendString", None, Some(0)),
    ("Send", None, Some(0)),
    ("Status", Some(0), None),
    ("SendStatus", Some(0), None),
];

/// The import path of Fiber (v2 and v3 add a suffix).
pub const FIBER_IMPORT: &str = "github.com/gofiber/fiber";

/// Where a package function's answer takes its status from.
#[derive(Clone, Copy)]
pub enum StatusFrom {
    /// The default (200), or the status set before it.
    Unset,
    /// Always this one.
    Fixed(u16),
    /// This argument.
    Arg(usize),
}

/// Package functions that answer a request through the writer they are given, by
/// the import path that makes the package the framework's: go-chi/render's
/// `render.JSON(w, r, v)` (200 unless `render.Status(r, code)` set one before),
/// `render.NoContent(w, r)`. `(import path, call, status, body argument)`.
pub const PACKAGE_ANSWERS: &[(&str, &str, StatusFrom, Option<usize>)] = &[
    ("github.com/go-chi/render", "render.JSON", StatusFrom::Unset, Some(2)),
    ("github.com/go-chi/render", "render.Respond", StatusFrom::Unset, Some(2)),
    ("github.com/go-chi/render", "render.PlainText", StatusFrom::Unset, Some(2)),
    ("github.com/go-chi/render", "render.Data", StatusFrom::Unset, Some(2)),
    ("github.com/go-chi/render", "render.NoContent", StatusFrom::Fixed(204), None),
    ("github.com/go-chi/render", "render.Status", StatusFrom::Arg(1), None),
];

/// Packages whose exported constants name MCP methods, by import path: mcp-go's
/// `mcp.MethodInitialize` is `"initialize"` (a hand-written dispatch on mcp-go's
/// types compares the method with them).
pub const PACKAGE_CONSTANTS: &[(&str, &[(&str, &str)])] = &[(
    "github.com/mark3labs/mcp-go/mcp",
    &[
        ("MethodInitialize", "initialize"),
        ("MethodPing", "ping"),
        ("MethodResourcesList", "resources/list"),
        ("MethodResourcesTemplatesList", "resources/templates/list"),
        ("MethodResourcesRead", "resources/read"),
        ("MethodPromptsList", "prompts/list"),
        ("MethodPromptsGet", "prompts/get"),
        ("MethodToolsList", "tools/list"),
        ("MethodToolsCall", "tools/call"),
    ],
)];

/// The string types of those packages (`mcp.MCPMethod(req.Method)` converts the text).
pub const PACKAGE_STRING_TYPES: &[&str] = &["MCPMethod"];

/// Packages whose `Status...` constants are HTTP statuses: net/http's
/// `http.StatusAccepted`, fiber's `fiber.StatusAccepted`.
pub const STATUS_PACKAGES: &[&str] = &["http.Status", "fiber.Status"];

/// Context methods that decode the request body into their argument.
pub const CONTEXT_DECODERS: &[&str] = &["ShouldBindJSON", "BindJSON", "Bind", "ShouldBind", "BodyParser"];

/// Logging packages, by the last segment of their import path: what their functions
/// write is a log line.
pub const LOG_PACKAGES: &[&str] =
    &["log", "slog", "logx", "logrus", "zap", "zerolog", "glog", "klog", "logging", "logger"];

/// Calls that end the process: `os.Exit(1)`, `log.Fatalf(...)` (logs, then exits).
pub const PROCESS_EXITS: &[&str] = &["os.Exit", "syscall.Exit", "log.Fatal", "log.Fatalf", "log.Fatalln"];

/// AWS Lambda events that carry an HTTP request (API Gateway REST and HTTP APIs,
/// function URLs, load balancers): a parameter of one makes the function an HTTP
/// handler that answers with the response it returns (its `StatusCode` and `Body`).
pub const LAMBDA_HTTP_EVENTS: &[&str] = &[
    "events.APIGatewayProxyRequest",
    "events.APIGatewayV2HTTPRequest",
    "events.LambdaFunctionURLRequest",
    "events.ALBTargetGroupRequest",
];

/// The responses such a handler returns.
pub const LAMBDA_HTTP_RESPONSES: &[&str] = &[
    "events.APIGatewayProxyResponse",
    "events.APIGatewayV2HTTPResponse",
    "events.LambdaFunctionURLResponse",
    "events.ALBTargetGroupResponse",
];

/// Methods of net/http's `*http.Request`: called on a handler's request parameter
/// they are the standard library's, never a method of the project with the same name
/// (`r.Context()` is not `Session.Context`).
pub const REQUEST_METHODS: &[&str] = &[
    "Context",
    "WithContext",
    "Clone",
    "Cookie",
    "Cookies",
    "FormValue",
    "PostFormValue",
    "FormFile",
    "ParseForm",
    "ParseMultipartForm",
    "MultipartReader",
    "BasicAuth",
    "UserAgent",
    "Referer",
    "ProtoAtLeast",
    "PathValue",
    "SetPathValue",
    "AddCookie",
];

/// Members of a request that hold the HTTP verb: `r.Method` (net/http), an API Gateway
/// event's `HTTPMethod` and `RequestContext.HTTP.Method`.
pub const VERB_MEMBERS: &[&str] = &["Method", "HTTPMethod"];

/// String functions and conversions and what they do to a string (see
/// [`crate::lower::Fold`]).
pub const STRING_FOLDS: &[(&str, Fold)] = &[
    ("strings.ToLower", Fold::Lower),
    ("strings.TrimSpace", Fold::Trim),
    ("bytes.TrimSpace", Fold::Trim),
    ("string", Fold::Keep),
];

/// Functions that replace part of a string (see [`crate::lower::Replace`]).
pub const STRING_REPLACES: &[(&str, crate::lower::Replace)] = &[(
    "strings.ReplaceAll",
    crate::lower::Replace { text: 0, pattern: 1, with: 2, all: true, regex: false },
)];

/// Functions that test whether a text holds another, text first: `strings.Contains(s, "/")`.
pub const SUBSTRING_TESTS: &[&str] = &["strings.Contains"];

/// Functions that split a string at a separator: `strings.Split(s, "/")`,
/// `strings.SplitN(s, "/", 2)`.
pub const STRING_SPLITS: &[(&str, crate::lower::Split)] = &[
    ("strings.Split", crate::lower::Split { text: 0, sep: 1, limit: None }),
    ("strings.SplitN", crate::lower::Split { text: 0, sep: 1, limit: Some(2) }),
];

/// Methods that run the function they are handed as a goroutine: errgroup's
/// `g.Go(f)`, `sync.WaitGroup.Go(f)`, conc's pools.
pub const GOROUTINE_STARTERS: &[&str] = &["Go"];

/// JSON path readers that read members of JSON text without decoding it into a
/// type: `(import path, parsers, getters, value accessors, presence test)`.
/// gjson: `gjson.Parse(text)` is the message, `gjson.Get(text, "method")` and
/// `parsed.Get("id")` read one member, `.String()`/`.Value()`/`.Int()` give it, and
/// `.Exists()` tells whether it is there.
pub struct JsonPathLibrary {
    pub import: &'static str,
    pub parsers: &'static [&'static str],
    pub getters: &'static [&'static str],
    pub method_getter: &'static str,
    pub accessors: &'static [&'static str],
    pub exists: &'static str,
}

pub const JSON_PATH_LIBRARIES: &[JsonPathLibrary] = &[JsonPathLibrary {
    import: "github.com/tidwall/gjson",
    parsers: &["gjson.Parse", "gjson.ParseBytes"],
    getters: &["gjson.Get", "gjson.GetBytes"],
    method_getter: "Get",
    accessors: &["String", "Value", "Int", "Uint", "Float", "Bool", "Str", "Raw"],
    exists: "Exists",
}];
