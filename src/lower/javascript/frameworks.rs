//! What the JavaScript and TypeScript web frameworks are, as data: how a route is
//! mounted, which objects answer, and how their response builders take a status.
//! A new framework is a row here and a fixture.

use crate::lower::Fold;

/// Router methods whose callbacks are HTTP handlers: `app.post("/mcp", handler)`
/// (Express, Koa router, Fastify, Hono, Elysia), and a handler mounted at a path for
/// every verb (`app.use("/mcp", handler)`, Meteor `WebApp.connectHandlers.use(...)`).
/// Only with a path as the first argument.
pub const ROUTE_METHODS: &[&str] = &["post", "all", "put", "route", "any", "use"];

/// Calls that declare an endpoint by a config object with a `path` and a handler
/// after it: Encore `api({ method: "POST", path: "/mcp" }, handler)`; the handler's
/// return value is the JSON body.
pub const ENDPOINT_CALLS: &[&str] = &["api"];

/// Azure Functions (Node, v4 model): `app.http("mcp", { methods, handler })` and
/// `app.post("mcp", { handler })` on the package's `app` register an HTTP function;
/// the handler answers with what it returns, an `HttpResponseInit` (`{ status, body,
/// jsonBody, headers }`, 200 when no status is given) or `new HttpResponse(init)`.
pub const FUNCTION_APP_MODULE: &str = "@azure/functions";
pub const FUNCTION_APP_REGISTRARS: &[&str] = &["http", "post"];
pub const FUNCTION_APP_ANSWER_MEMBERS: &[&str] =
    &["status", "body", "jsonBody", "headers", "cookies", "enableContentNegotiation"];
pub const FUNCTION_APP_RESPONSE_CLASS: &str = "HttpResponse";

/// Calls whose callback answers every HTTP request: `http.createServer(cb)`,
/// `Deno.serve(cb)`, `serve(cb)`, `Bun.serve({ fetch })`.
pub const SERVER_CALLS: &[&str] = &["createServer", "serve", "createSecureServer"];

/// Decorators that mount a controller method: NestJS `@Post()`, `@All()`.
pub const ROUTE_DECORATORS: &[&str] = &["Post", "All", "Put"];

/// Methods that run the function written as their last argument, in place, and give
/// what it returns: Node's `AsyncLocalStorage#run(store, callback)` (a request
/// context around the dispatch).
pub const CONTEXT_RUNNERS: &[&str] = &["run"];

/// The decorator that sets a controller method's status: NestJS `@HttpCode(202)`.
pub const STATUS_DECORATOR: &str = "HttpCode";

/// The enum a status decorator may name its status by: NestJS `HttpStatus.ACCEPTED`.
pub const STATUS_ENUM: &str = "HttpStatus.";

/// Status enums by the package that exports them: a member (`StatusCodes.ACCEPTED`)
/// is that status wherever the file uses it, once it imports the package.
pub const STATUS_ENUMS: &[(&str, &str)] =
    &[("http-status-codes", "StatusCodes"), ("@nestjs/common", "HttpStatus"), ("axios", "HttpStatusCode")];

/// The MCP TypeScript SDK's module of protocol types, whose `ErrorCode` enum and
/// `McpError` class servers with a dispatch of their own use for their errors.
pub const SDK_TYPES_MODULES: &[&str] =
    &["@modelcontextprotocol/sdk/types.js", "@modelcontextprotocol/sdk/types"];

/// The SDK's `ErrorCode` members and the codes they stand for.
pub const SDK_ERROR_CODES: &[(&str, i64)] = &[
    ("ParseError", -32700),
    ("InvalidRequest", -32600),
    ("MethodNotFound", -32601),
    ("InvalidParams", -32602),
    ("InternalError", -32603),
    ("ConnectionClosed", -32000),
    ("RequestTimeout", -32001),
];

/// The SDK's error classes with the members their constructor's arguments become, in
/// order (`new McpError(ErrorCode.MethodNotFound, "...")` has `code` -32601).
pub const SDK_ERROR_CLASSES: &[(&str, &[&str])] = &[("McpError", &["code", "message", "data"])];

/// Parameter decorators that hand a controller method the response to send itself
/// (NestJS `@Res()`, `@Response()`, `@Next()`): what the method returns is not sent.
pub const RESPONSE_PARAM_DECORATORS: &[&str] = &["Res", "Response", "Next"];

/// Functions named as a handler of a file-based router: Next.js `export async function POST(req)`.
pub const ROUTE_FUNCTIONS: &[&str] = &["POST"];

/// h3 (Nuxt, Nitro): the function `defineEventHandler(..)` is handed is a route that
/// answers with what it returns (200 unless `setResponseStatus(event, n)` set one);
/// the variable that status is held in while the handler runs.
pub const EVENT_HANDLER_WRAPPERS: &[&str] = &["defineEventHandler", "eventHandler"];
pub const EVENT_STATUS_SETTERS: &[&str] = &["setResponseStatus"];
pub const EVENT_STATUS: &str = "mcp-conform/event-status";

/// Elysia: a route handler's context hands it functions that build its answer,
/// `({ status }) => status(202)`, `status(400, body)` (`error(..)` before Elysia 1.2):
/// called by the name they are destructured under, the status first, then the body.
pub const CONTEXT_RESPONDERS: &[&str] = &["status", "error"];

/// Hono's streaming helpers (`hono/streaming`): `streamSSE(c, async (stream) => ..)`
/// answers 200 with the events the callback writes, `streamText` with its text.
pub const STREAM_HELPERS: &[&str] = &["streamSSE", "streamText"];

/// The writes on a Hono stream that carry a chunk (`writeSSE({ data })` its `data`).
pub const STREAM_WRITES: &[&str] = &["writeSSE", "write", "writeln"];

/// The web streams class whose `start(controller)` fills it (`controller.enqueue(chunk)`).
pub const READABLE_STREAM: &str = "ReadableStream";

/// The method of a default-exported object that answers requests: Cloudflare
/// Workers and Bun `export default { fetch(request, env) { ... } }`.
pub const FETCH_METHOD: &str = "fetch";

/// Receivers of Express/Fastify/Hono-style response calls.
pub const RESPONSE_OBJECTS: &[&str] = &["res", "response", "reply", "resp", "c", "ctx"];

/// Methods that set the status for a later call: `res.status(202).end()`, `reply.code(202).send()`.
pub const STATUS_SETTERS: &[&str] = &["status", "code"];

/// Methods of Express's and Fastify's response that set a header (or cookie) and
/// return the response, so a status set before them is the answer's.
pub const CHAINED_SETTERS: &[&str] = &[
    "set",
    "header",
    "headers",
    "type",
    "contentType",
    "append",
    "vary",
    "location",
    "cookie",
    "clearCookie",
    "links",
    "attachment",
];

/// Response members that set the status when written: Node's `res.statusCode = 204`
/// (on any response object), Koa's `ctx.status = 202`. `(object, member)`; an empty
/// object is any of [`RESPONSE_OBJECTS`].
pub const STATUS_MEMBERS: &[(&str, &str)] = &[("", "statusCode"), ("ctx", "status")];

/// Request members that hold the body already decoded from JSON: Express's
/// `req.body` (behind `express.json()`), Fastify's `request.body`, Koa's
/// `ctx.request.body` (behind a body parser). `(object, member)`.
pub const PARSED_BODIES: &[(&str, &str)] = &[("req", "body"), ("request", "body"), ("ctx.request", "body")];

/// Response members that set the body when written: Koa's `ctx.body = reply`.
pub const BODY_MEMBERS: &[(&str, &str)] = &[("ctx", "body")];

/// Methods that send a body (the status as their second argument, as Hono's
/// `c.json(data, 202)` does) and methods that send a status alone.
pub const BODY_SENDERS: &[&str] = &["json", "send", "end", "text", "body", "html"];
pub const STATUS_SENDERS: &[&str] = &["sendStatus", "writeHead"];

/// Response classes built as `new Response(body, { status })` and `Response.json(body, { status })`.
pub const RESPONSE_CLASSES: &[&str] = &["Response", "NextResponse"];

/// Parameter types (last name segment, type arguments dropped) that make a function an
/// HTTP handler by themselves: Node's `(req: IncomingMessage, res: ServerResponse)`,
/// Next.js `NextRequest`/`NextApiRequest`, Fastify `FastifyRequest`; the arguments of a
/// Remix or React Router route action (`{ request }: ActionFunctionArgs`,
/// `Route.ActionArgs`) and of a SvelteKit endpoint (`RequestEvent`).
pub const REQUEST_TYPES: &[&str] = &[
    "IncomingMessage",
    "NextRequest",
    "NextApiRequest",
    "FastifyRequest",
    "ActionFunctionArgs",
    "ActionArgs",
    "RequestEvent",
];

/// `Request` names an HTTP request (the Fetch API's, Express's) only beside a response
/// type, as a parameter or what the function returns: `(req: Request, res: Response)`,
/// `(request: Request): Promise<Response>`. Code that declares its own `Request`, or
/// imports one from anywhere but a web module, means a JSON-RPC request.
pub const FETCH_REQUEST: &str = "Request";
pub const RESPONSE_TYPES: &[&str] =
    &["Response", "ServerResponse", "NextResponse", "NextApiResponse", "FastifyReply"];

/// Modules whose `Request`/`Response` are HTTP ones (a name or its first path segments).
pub const WEB_MODULES: &[&str] = &[
    "express",
    "hono",
    "fastify",
    "koa",
    "next",
    "undici",
    "node-fetch",
    "http",
    "https",
    "node:http",
    "node:https",
    "http2",
    "node:http2",
    "itty-router",
    "elysia",
    "h3",
    "@cloudflare",
    "@hono",
    "@fastify",
    "@nestjs",
    "@vercel",
    "@netlify",
    "@types",
    "@remix-run",
    "react-router",
    "@react-router",
    "@sveltejs",
    "@azure/functions",
];

/// The name a serverless function's module exports its entry under (Netlify
/// Functions, AWS Lambda): `export const handler = async (event) => ..`.
pub const EVENT_HANDLER_EXPORT: &str = "handler";

/// Packages (by their last path segment, as `package_names` keeps them) whose handler
/// types declare a serverless function's entry: `@netlify/functions`, `aws-lambda`.
pub const PLATFORM_PACKAGES: &[&str] = &["functions", "aws-lambda"];

/// Calls that end the process: `process.exit(1)`, `Deno.exit(1)`.
pub const PROCESS_EXITS: &[&str] = &["process.exit", "Deno.exit"];

/// String conversions and what they do to a string (see [`crate::lower::Fold`]).
pub const STRING_FOLDS: &[(&str, Fold)] = &[("String", Fold::Keep)];

/// Methods that only convert their receiver; a method name lower-cased, trimmed or
/// Unicode-normalised is still the name (MCP's names are ASCII).
pub const TRANSPARENT: &[&str] =
    &["toString", "valueOf", "trim", "toLowerCase", "toLocaleLowerCase", "normalize"];

/// JSON-RPC libraries the code hands one request at a time, by package: the
/// methods that dispatch it by the library's table of methods (filled with
/// `server.addMethod("ping", handler)`, read as registrations) and whether the
/// argument is JSON text to decode. json-rpc-2.0's `server.receive(request)` gives
/// the response object, or `null` for a notification.
pub const RPC_DISPATCH: &[(&str, &[(&str, bool)])] =
    &[("json-rpc-2.0", &[("receive", false), ("receiveJSON", true)])];
