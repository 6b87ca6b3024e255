//! TypeScript and JavaScript (`tree-sitter-typescript`, `tree-sitter-javascript`,
//! which share their node kinds) to facts.

pub(super) mod frameworks;

use super::{Ctx, call, field, is_initialized_flag, message_field, object, unquote};
use crate::model::{Arm, Block, Expr, FileFacts, Language, Pattern, Registration, SdkImport, Span, Stmt};
use crate::parse::Fields;
use frameworks::{RESPONSE_OBJECTS, ROUTE_METHODS};
use tree_sitter::Node;

/// How a JavaScript `Symbol` is written as a value: text no message or name holds.
const SYMBOL: &str = "mcp-conform/symbol:";

/// Methods that register a handler under a method name: `handlers.set("ping", onPing)`.
const REGISTER_METHODS: &[&str] = &["set", "register", "on", "method", "addMethod", "handle", "addHandler"];
/// Events whose callbacks receive standard input lines: `rl.on("line", cb)`.
const STDIN_EVENTS: &[&str] = &["line", "data", "readable"];
/// Receivers of those events that are not standard input: a network peer
/// (`connection.on("data", ..)` in `net.createServer`) or a child process's output.
const NOT_STDIN: &[&str] =
    &["socket", "sock", "connection", "conn", "client", "ws", "websocket", "peer", "stdout", "stderr"];

/// Per-file state of the JavaScript lowering.
struct Js {
    /// Callbacks handed to standard-input events.
    stdin_callbacks: Vec<String>,
    /// The status a NestJS `@HttpCode(202)` gives the method being lowered.
    default_status: Option<u16>,
    /// A route function that answers with what it returns (a NestJS method without
    /// `@Res()`, an h3 event handler): the status its answer goes out with.
    route_answer: Option<Expr>,
    /// The function about to be lowered is the one an h3 `defineEventHandler(..)` is
    /// handed: a route whose returned value is the answer.
    event_handler_next: bool,
    /// Names assigned by an assignment expression (`_db = drizzle(..)`), anywhere,
    /// with the instance assigned when the value is one built with `new`.
    assigned: Vec<(String, Option<Expr>)>,
    /// Locals bound to a method (`const bound = this.handle.bind(this)`), with the
    /// method as written (`this.handle`).
    bound_methods: Vec<(String, String)>,
    /// The answer builders the function being lowered destructures from its context
    /// parameter (see [`frameworks::CONTEXT_RESPONDERS`]).
    context_responders: Vec<String>,
    /// The file imports Azure Functions (see [`frameworks::FUNCTION_APP_MODULE`]).
    function_app: bool,
    /// The function about to be lowered is an Azure Functions HTTP handler; and the
    /// function being lowered is one (it answers with the `HttpResponseInit` it returns).
    function_app_next: bool,
    function_app_answer: bool,
    /// Local names of `stdin` imported from Node's `process` module (`import { stdin }
    /// from "node:process"`): standard input, as `process.stdin` is.
    stdin_imports: Vec<String>,
}

pub fn lower_file(ctx: &mut Ctx, root: Node, facts: &mut FileFacts) {
    let mut js = Js {
        stdin_callbacks: Vec::new(),
        default_status: None,
        route_answer: None,
        event_handler_next: false,
        assigned: Vec::new(),
        bound_methods: Vec::new(),
        context_responders: Vec::new(),
        function_app: false,
        function_app_next: false,
        function_app_answer: false,
        stdin_imports: stdin_imports(ctx, root),
    };
    note_own_types(ctx, root, facts);
    let mut body = Vec::new();
    for child in children(root) {
        statement(ctx, &mut js, child, facts, None, &mut body);
    }
    // A module-level `let`/`var` that code assigns again (`let _sqlite = null`, set
    // by `getDb()`) is state the program changes: its first value is not what a
    // function reads. A singleton made on first use (`if (!server) server = new
    // McpServer()`), every assignment an instance of one class, is that instance.
    for name in module_variables(ctx, root) {
        let values: Vec<&Option<Expr>> =
            js.assigned.iter().filter(|(n, _)| *n == name).map(|(_, v)| v).collect();
        if values.is_empty() || facts.state.contains(&name) {
            continue;
        }
        let class = |v: &Option<Expr>| match v {
            Some(Expr::Call { callee, .. }) => Some(callee.clone()),
            _ => None,
        };
        let first = values.first().and_then(|v| class(v));
        let one_class = first.is_some() && values.iter().all(|v| class(v) == first);
        let initial = body.iter_mut().find_map(|s| match s {
            Stmt::Assign { target, value, .. } if *target == name && matches!(value, Expr::Null) => {
                Some(value)
            }
            _ => None,
        });
        match (one_class, initial, values.first()) {
            (true, Some(initial), Some(Some(made))) => *initial = made.clone(),
            _ => facts.state.push(name),
        }
    }
    super::push_module(ctx, facts, root, body);
    for f in &mut facts.functions {
        if js.stdin_callbacks.contains(&f.name) {
            f.reads_stdin = true;
        }
    }
}

/// The names a file's top level declares with `let` or `var` (exported or not).
fn module_variables(ctx: &Ctx, root: Node) -> Vec<String> {
    let mut out = Vec::new();
    for child in children(root) {
        let decl = if child.kind() == "export_statement" { child.field("declaration") } else { Some(child) };
        let Some(decl) = decl else { continue };
        let mutable = decl.kind() == "variable_declaration"
            || (decl.kind() == "lexical_declaration" && ctx.text(decl).trim_start().starts_with("let"));
        if !mutable {
            continue;
        }
        for d in children(decl).into_iter().filter(|c| c.kind() == "variable_declarator") {
            if let Some(name) = d.field("name").filter(|n| n.kind() == "identifier") {
                out.push(ctx.text(name).to_string());
            }
        }
    }
    out
}

fn children<'t>(node: Node<'t>) -> Vec<Node<'t>> {
    let mut cursor = node.walk();
    node.named_children(&mut cursor).filter(|c| c.kind() != "comment").collect()
}

fn block(
    ctx: &mut Ctx,
    js: &mut Js,
    node: Option<Node>,
    facts: &mut FileFacts,
    owner: Option<&str>,
) -> Block {
    let mut out = Vec::new();
    let Some(node) = node else { return out };
    if !ctx.enter() {
        return out;
    }
    if node.kind() == "statement_block" {
        for child in children(node) {
            statement(ctx, js, child, facts, owner, &mut out);
        }
    } else {
        statement(ctx, js, node, facts, owner, &mut out);
    }
    ctx.leave();
    out
}

fn statement(
    ctx: &mut Ctx,
    js: &mut Js,
    node: Node,
    facts: &mut FileFacts,
    owner: Option<&str>,
    out: &mut Block,
) {
    let span = ctx.span(node);
    match node.kind() {
        "function_declaration" | "generator_function_declaration" => {
            let name = node.field("name").map(|n| ctx.text(n).to_string()).unwrap_or_default();
            function(ctx, js, node, facts, name, owner);
        }
        "class_declaration" | "abstract_class_declaration" | "class" => class(ctx, js, node, facts, out),
        "export_statement" => {
            let default = ctx.text(node).starts_with("export default");
            if let Some(d) = node.field("declaration") {
                statement(ctx, js, d, facts, owner, out);
                // `export default async function handler(req)` (Netlify, Vercel edge).
                if default
                    && d.kind() == "function_declaration"
                    && let Some(n) = d.field("name")
                {
                    facts.http_handlers.push(ctx.text(n).to_string());
                }
                // `export const handler = async (event) => ..`, `export async function
                // handler(event, context)`: a Netlify function's or AWS Lambda's entry.
                if !default {
                    facts.http_handlers.extend(exported_event_handler(ctx, d));
                }
            } else if let Some(v) = node.field("value") {
                let value = expr(ctx, js, v, facts);
                if default {
                    note_default_handler(&value, facts);
                }
                out.push(Stmt::Expr(value));
            }
        }
        "lexical_declaration" | "variable_declaration" => {
            for d in children(node).into_iter().filter(|c| c.kind() == "variable_declarator") {
                declarator(ctx, js, d, facts, out);
            }
        }
        // `enum Method { Ping = "ping" }`: each member a constant `Method.Ping`.
        "enum_declaration" => {
            let name = node.field("name").map(|n| ctx.text(n).to_string()).unwrap_or_default();
            for member in node.field("body").map(children).unwrap_or_default() {
                if member.kind() != "enum_assignment" {
                    continue;
                }
                let key = member.field("name").map(|n| unquote(ctx.text(n))).unwrap_or_default();
                if let Some(v) = member.field("value") {
                    let value = expr(ctx, js, v, facts);
                    out.push(Stmt::Assign { target: format!("{name}.{key}"), value, span: ctx.span(member) });
                }
            }
        }
        // `(() => { try { reply = handle(msg) } catch { .. } })()`: a function without
        // parameters run in place, with no arguments, not async and returning nothing
        // itself, is its statements run here; what it assigns stays assigned.
        "expression_statement" if let Some(body) = node.named_child(0).and_then(invoked_in_place) => {
            out.extend(block(ctx, js, Some(body), facts, owner));
        }
        // `yield chunk` in a generator (`function*`): one more item of what it gives back
        // (`yield* other` gives items the scan does not list).
        "expression_statement"
            if ctx.generator && node.named_child(0).is_some_and(|e| e.kind() == "yield_expression") =>
        {
            let Some(y) = node.named_child(0) else { return };
            let delegated = (0..y.child_count()).filter_map(|i| y.child(i)).any(|c| c.kind() == "*");
            let value = match y.named_child(0) {
                Some(v) if !delegated => expr(ctx, js, v, facts),
                Some(_) => Expr::unknown(),
                None => Expr::Null,
            };
            out.push(Stmt::Push { target: super::GENERATED.into(), value, span });
        }
        "expression_statement" => {
            if let Some(e) = node.named_child(0) {
                expression_statement(ctx, js, e, facts, out);
            }
        }
        // A generator's `return` ends it: the caller has what it yielded.
        "return_statement" if ctx.generator => {
            out.push(Stmt::Return { value: Some(Expr::Var(super::GENERATED.into())), span });
        }
        "return_statement" => {
            let value = node.named_child(0).map(|v| expr(ctx, js, v, facts));
            let value = match &js.route_answer {
                Some(status) => Some(route_answer(status.clone(), value, span)),
                None if js.function_app_answer => value.map(|v| function_app_answer(v, span)),
                None => value,
            };
            out.push(Stmt::Return { value, span });
        }
        "throw_statement" => {
            let value = node.named_child(0).map(|v| expr(ctx, js, v, facts)).unwrap_or_else(Expr::unknown);
            out.push(Stmt::Raise { value, span });
        }
        "if_statement" => {
            let cond = node.field("condition").map(|c| expr(ctx, js, c, facts)).unwrap_or_else(Expr::unknown);
            let then = block(ctx, js, node.field("consequence"), facts, owner);
            let otherwise = match node.field("alternative") {
                Some(alt) => block(ctx, js, alt.named_child(0), facts, owner),
                None => Vec::new(),
            };
            out.push(Stmt::Expr(Expr::If { cond: Box::new(cond), then, otherwise, span }));
        }
        "switch_statement" => out.push(Stmt::Expr(switch(ctx, js, node, facts, owner))),
        // `for (const x of xs)`: one pass per known item.
        "for_in_statement" if ctx.text(node).contains(" of ") => {
            let targets = node.field("left").map(|l| vec![ctx.text(l).to_string()]).unwrap_or_default();
            let iterable = node.field("right").map(|r| expr(ctx, js, r, facts)).unwrap_or_else(Expr::unknown);
            let body = block(ctx, js, node.field("body"), facts, owner);
            out.push(Stmt::Expr(Expr::ForEach { targets, iterable: Box::new(iterable), body }));
        }
        "for_statement" | "for_in_statement" | "while_statement" | "do_statement" => {
            let mut body = Vec::new();
            if let Some(right) = node.field("right") {
                body.push(Stmt::Expr(expr(ctx, js, right, facts)));
            }
            body.extend(block(ctx, js, node.field("body"), facts, owner));
            out.push(Stmt::Expr(Expr::Loop { body }));
        }
        "try_statement" => {
            let body = block(ctx, js, node.field("body"), facts, owner);
            let handler_node = node.field("handler");
            let binding = handler_node.and_then(|h| h.field("parameter")).map(|p| ctx.text(p).to_string());
            let handler = block(ctx, js, handler_node.and_then(|h| h.field("body")), facts, owner);
            out.push(Stmt::Expr(Expr::Try { body, handler, binding }));
            if let Some(fin) = node.field("finalizer") {
                out.extend(block(ctx, js, fin.field("body"), facts, owner));
            }
        }
        "statement_block" => out.extend(block(ctx, js, Some(node), facts, owner)),
        // `break outer` leaves the labelled loop even from inside a switch.
        "break_statement" if node.named_child_count() > 0 => out.push(Stmt::Continue),
        "break_statement" => out.push(Stmt::LeaveLoop),
        "continue_statement" => out.push(Stmt::NextRound),
        "import_statement" => {
            if let Some(source) = node.field("source") {
                note_import(ctx, js, &unquote(ctx.text(source)), span, facts);
            }
        }
        _ => {}
    }
}

/// The body of `(() => { .. })()` or `(function () { .. })()`: a function written
/// in place without parameters, called with no arguments, neither async nor a
/// generator, whose block returns nothing itself.
fn invoked_in_place(call: Node) -> Option<Node> {
    const FUNCTIONS: &[&str] = &["arrow_function", "function_expression", "function"];
    if call.kind() != "call_expression" || call.field("arguments")?.named_child_count() != 0 {
        return None;
    }
    let mut f = call.field("function")?;
    while f.kind() == "parenthesized_expression" {
        f = f.named_child(0)?;
    }
    if !FUNCTIONS.contains(&f.kind()) || children(f).iter().any(|c| matches!(c.kind(), "async" | "*")) {
        return None;
    }
    let no_params = f.field("parameters").is_some_and(|p| p.named_child_count() == 0);
    let body = f.field("body").filter(|b| b.kind() == "statement_block")?;
    (no_params
        && !super::returns_within(
            body,
            &[FUNCTIONS, &["function_declaration", "method_definition"]].concat(),
        ))
    .then_some(body)
}

/// The local names `stdin` has in this file when imported from Node's `process`
/// module: `import { stdin } from "node:process"`, `import { stdin as input } from
/// "process"`.
fn stdin_imports(ctx: &Ctx, root: Node) -> Vec<String> {
    let mut out = Vec::new();
    for child in children(root).into_iter().filter(|c| c.kind() == "import_statement") {
        let source = child.field("source").map(|s| unquote(ctx.text(s))).unwrap_or_default();
        if !matches!(source.as_str(), "process" | "node:process") {
            continue;
        }
        let mut stack: Vec<Node> =
            children(child).into_iter().filter(|c| c.kind() == "import_clause").collect();
        while let Some(n) = stack.pop() {
            match n.kind() {
                "import_specifier" if n.field("name").is_some_and(|x| ctx.text(x) == "stdin") => {
                    let local = n.field("alias").or(n.field("name"));
                    out.extend(local.map(|l| ctx.text(l).to_string()));
                }
                "import_clause" | "named_imports" => stack.extend(children(n)),
                _ => {}
            }
        }
    }
    out
}

/// `const { A, B: C } = require("@acme/sdk")`: the local names a package (not a
/// relative path) gives, with its last path segment.
fn note_required_names(ctx: &Ctx, pattern: Node, module: &str, facts: &mut FileFacts) {
    if module.starts_with(['.', '/']) || module.starts_with("@/") || module.starts_with("~/") {
        return;
    }
    let package = module.rsplit('/').next().unwrap_or(module).to_string();
    for c in children(pattern) {
        let local = match c.kind() {
            "shorthand_property_identifier_pattern" => Some(c),
            "pair_pattern" => c.field("value").filter(|v| v.kind() == "identifier"),
            _ => None,
        };
        if let Some(local) = local {
            facts.package_names.push((ctx.text(local).to_string(), package.clone()));
        }
    }
}

/// `import { ErrorCode, McpError as Failure } from "@modelcontextprotocol/sdk/types.js"`:
/// each local name with the SDK's name for it.
fn note_sdk_types(ctx: &mut Ctx, node: Node) {
    let mut stack: Vec<Node> = children(node).into_iter().filter(|c| c.kind() == "import_clause").collect();
    while let Some(n) = stack.pop() {
        if n.kind() == "import_specifier" {
            let name = n.field("name").map(|x| ctx.text(x).to_string()).unwrap_or_default();
            let local = n.field("alias").map(|x| ctx.text(x).to_string()).unwrap_or(name.clone());
            ctx.sdk_types.push((local, name));
        } else {
            stack.extend(children(n));
        }
    }
}

/// The SDK's name for a local name the file imports from its protocol types.
fn sdk_type<'c>(ctx: &'c Ctx, local: &str) -> Option<&'c str> {
    ctx.sdk_types.iter().find(|(l, _)| l == local).map(|(_, name)| name.as_str())
}

/// `import { negotiate as n } from "@acme/handshake"`: the local names a package
/// (not a relative path) gives, with its last path segment.
fn note_package_names(ctx: &Ctx, node: Node, module: &str, facts: &mut FileFacts) {
    // A relative path, or a path alias of the project's own source root (`@/lib/rpc.ts`).
    if module.starts_with(['.', '/']) || module.starts_with("@/") || module.starts_with("~/") {
        return;
    }
    let package = module.rsplit('/').next().unwrap_or(module).to_string();
    let mut stack: Vec<Node> = children(node).into_iter().filter(|c| c.kind() == "import_clause").collect();
    while let Some(n) = stack.pop() {
        match n.kind() {
            "identifier" => facts.package_names.push((ctx.text(n).to_string(), package.clone())),
            "import_specifier" => {
                if let Some(local) = n.field("alias").or_else(|| n.field("name")) {
                    facts.package_names.push((ctx.text(local).to_string(), package.clone()));
                }
            }
            _ => stack.extend(children(n)),
        }
    }
}

/// `import { NextResponse as Res } from "next/server"`: a web framework's name under
/// another, recorded as `(local, the framework's name)`.
fn note_renamed(ctx: &mut Ctx, node: Node) {
    let mut stack: Vec<Node> = children(node).into_iter().filter(|c| c.kind() == "import_clause").collect();
    while let Some(n) = stack.pop() {
        match n.kind() {
            "import_specifier" => {
                if let (Some(name), Some(local)) = (n.field("name"), n.field("alias")) {
                    ctx.aliases.push((ctx.text(local).to_string(), unquote(ctx.text(name))));
                }
            }
            "import_clause" | "named_imports" => stack.extend(children(n)),
            _ => {}
        }
    }
}

/// The name a file's local name stands for: a web framework's name imported under
/// another (see [`note_renamed`]), else the name itself.
fn unaliased<'c>(ctx: &'c Ctx, local: &'c str) -> &'c str {
    ctx.aliases.iter().find(|(l, _)| l == local).map_or(local, |(_, own)| own.as_str())
}

/// `import { handle, serve as start } from "./rpc"`: each local name with the name the
/// module the relative path resolves to gives it.
fn note_named_imports(ctx: &mut Ctx, node: Node, module: &str, facts: &mut FileFacts) {
    let Some(resolved) = super::relative_module(&facts.path, module) else { return };
    let mut stack: Vec<Node> = children(node).into_iter().filter(|c| c.kind() == "import_clause").collect();
    while let Some(n) = stack.pop() {
        match n.kind() {
            "import_specifier" => {
                if let Some(name) = n.field("name") {
                    let local = n.field("alias").unwrap_or(name);
                    let original = unquote(ctx.text(name));
                    // `import { Response as WireResponse }`: a class of the code's, renamed.
                    if local != name && original.starts_with(|c: char| c.is_ascii_uppercase()) {
                        ctx.renamed_classes.push((ctx.text(local).to_string(), original.clone()));
                    }
                    facts.named_imports.push((ctx.text(local).to_string(), original, resolved.clone()));
                }
            }
            "import_clause" | "named_imports" => stack.extend(children(n)),
            _ => {}
        }
    }
}

/// `const { handle, serve: start } = require("./rpc")`: as `import { .. } from` notes them.
fn note_required_relative(ctx: &Ctx, pattern: Node, module: &str, facts: &mut FileFacts) {
    let Some(resolved) = super::relative_module(&facts.path, module) else { return };
    for c in children(pattern) {
        let (name, local) = match c.kind() {
            "shorthand_property_identifier_pattern" => (Some(c), Some(c)),
            "pair_pattern" => (c.field("key"), c.field("value").filter(|v| v.kind() == "identifier")),
            _ => (None, None),
        };
        if let (Some(name), Some(local)) = (name, local) {
            facts.named_imports.push((
                ctx.text(local).to_string(),
                unquote(ctx.text(name)),
                resolved.clone(),
            ));
        }
    }
}

/// `import * as rpc from "./rpc/handlers"`: `rpc` names the file the relative path
/// resolves to (`rpc.dispatch(..)` is that file's `dispatch`).
fn note_namespace_import(ctx: &Ctx, node: Node, module: &str, facts: &mut FileFacts) {
    let Some(resolved) = super::relative_module(&facts.path, module) else { return };
    for clause in children(node).into_iter().filter(|c| c.kind() == "import_clause") {
        for n in children(clause).into_iter().filter(|c| c.kind() == "namespace_import") {
            if let Some(local) = children(n).into_iter().find(|c| c.kind() == "identifier") {
                facts.module_aliases.push((ctx.text(local).to_string(), resolved.clone()));
            }
        }
    }
}

fn note_import(ctx: &mut Ctx, js: &mut Js, module: &str, span: Span, facts: &mut FileFacts) {
    js.function_app |= module == frameworks::FUNCTION_APP_MODULE;
    for (package, name) in frameworks::STATUS_ENUMS {
        if module == *package && !ctx.status_enums.contains(name) {
            ctx.status_enums.push(name);
        }
    }
    let hint = super::relative_module(&facts.path, module)
        .or_else(|| super::import_hint(Language::TypeScript, module));
    facts.imports.extend(hint);
    if let Some(sdk) = ctx.sdk(Language::TypeScript, module) {
        facts.sdk_imports.push(SdkImport { sdk, span });
    }
}

/// The assignments an object pattern makes from `source`: `{ id, method: m }` reads
/// `source.id` into `id` and `source.method` into `m` (`shorthand`: whether the
/// `{ id }` members count; not for names a `require` binds).
fn pattern_reads(ctx: &Ctx, pattern: Node, source: &Expr, shorthand: bool, span: Span) -> Block {
    let mut out = Vec::new();
    for p in children(pattern) {
        let (key, local) = match p.kind() {
            "shorthand_property_identifier_pattern" if shorthand => {
                (ctx.text(p).to_string(), ctx.text(p).to_string())
            }
            "pair_pattern" => (
                p.field("key").map(|k| unquote(ctx.text(k))).unwrap_or_default(),
                p.field("value").map(|v| ctx.text(v).to_string()).unwrap_or_default(),
            ),
            _ => continue,
        };
        let v = match message_field(&key) {
            Some(f) => field(Some(source.clone()), f),
            None => Expr::Lookup { collection: Box::new(source.clone()), key: Box::new(Expr::Str(key)) },
        };
        out.push(Stmt::Assign { target: local, value: v, span });
    }
    out
}

fn declarator(ctx: &mut Ctx, js: &mut Js, d: Node, facts: &mut FileFacts, out: &mut Block) {
    let span = ctx.span(d);
    let Some(name) = d.field("name") else { return };
    let Some(value) = d.field("value") else {
        // `let error;` in a function: undefined until the path assigns it (a module's
        // `let server;` is left alone: functions may set it at any time).
        if ctx.functions_open > 0 && name.kind() == "identifier" {
            out.push(Stmt::Assign { target: ctx.text(name).to_string(), value: Expr::Null, span });
        }
        return;
    };
    if name.kind() == "object_pattern" {
        // `const { METHODS } = require("./consts")` binds the names the module
        // exports, as `import { METHODS } from "./consts"` does: they resolve in
        // that module, not as a local value.
        let required = value.kind() == "call_expression"
            && value.field("function").is_some_and(|f| ctx.text(f) == "require");
        // `const { StreamableHTTPServerTransport } = require("@acme/sdk/http.js")`: the
        // names a package gives, as `import { .. } from` notes them.
        if required
            && let Some(module) =
                value.field("arguments").and_then(|a| a.named_child(0)).filter(|m| m.kind() == "string")
        {
            let module = unquote(ctx.text(module));
            note_required_names(ctx, name, &module, facts);
            note_required_relative(ctx, name, &module, facts);
            // `const { ErrorCode, McpError } = require("@modelcontextprotocol/sdk/types.js")`.
            if frameworks::SDK_TYPES_MODULES.contains(&module.as_str()) {
                for c in children(name) {
                    let pair = match c.kind() {
                        "shorthand_property_identifier_pattern" => Some((ctx.text(c), ctx.text(c))),
                        "pair_pattern" => {
                            c.field("key").zip(c.field("value")).map(|(k, v)| (ctx.text(v), ctx.text(k)))
                        }
                        _ => None,
                    };
                    if let Some((local, sdk)) = pair {
                        ctx.sdk_types.push((local.to_string(), sdk.to_string()));
                    }
                }
            }
        }
        // `const { id, method } = message` reads the fields by name.
        let source = expr(ctx, js, value, facts);
        out.extend(pattern_reads(ctx, name, &source, !required, span));
        return;
    }
    if name.kind() == "array_pattern" {
        // `const [result, error] = await dispatch(msg)`: each name takes its element
        // (a nested pattern or a rest element takes nothing the scan follows).
        let targets = children(name)
            .into_iter()
            .map(|c| if c.kind() == "identifier" { ctx.text(c).to_string() } else { "_".to_string() })
            .collect();
        let value = expr(ctx, js, value, facts);
        out.push(Stmt::Destructure { targets, value, span });
        return;
    }
    let target = ctx.text(name).to_string();
    // `const bound = this.handle.bind(this)`: a name for the method, which a route
    // registration may be handed (`app.post("/mcp", bound)`).
    if name.kind() == "identifier"
        && let Some(method) = bound_method(ctx, value)
    {
        let method = callable_name(ctx, js, method, facts);
        js.bound_methods.push((target.clone(), method));
    }
    // `const handle = async (msg) => {...}` names the function; so does
    // `export const mcpHandler = httpAction(async (ctx, request) => {...})`: a wrapper
    // handed one function (Convex `httpAction`, h3 `defineEventHandler`, an auth
    // decorator) is that function under the name, as far as routes and calls go.
    let named = match value.kind() {
        "arrow_function" | "function_expression" | "function" => Some(value),
        _ if name.kind() == "identifier" => wrapped_function(ctx, value),
        _ => None,
    };
    // `const handler: Handler = async (event) => ..` with the platform's handler type
    // (`@netlify/functions`, `aws-lambda`): the platform calls it with each request.
    if let Some(f) = named
        && matches!(f.kind(), "arrow_function" | "function_expression" | "function")
        && d.field("type").is_some_and(|t| platform_handler_type(facts, ctx.text(t)))
    {
        facts.http_handlers.push(target.clone());
    }
    let value = match named {
        Some(f) => {
            js.event_handler_next = value.kind() == "call_expression"
                && value
                    .field("function")
                    .is_some_and(|c| frameworks::EVENT_HANDLER_WRAPPERS.contains(&ctx.text(c)));
            function(ctx, js, f, facts, target.clone(), None);
            Expr::FnRef(target.clone())
        }
        None => expr(ctx, js, value, facts),
    };
    out.push(Stmt::Assign { target, value, span });
}

fn expression_statement(ctx: &mut Ctx, js: &mut Js, e: Node, facts: &mut FileFacts, out: &mut Block) {
    let span = ctx.span(e);
    if matches!(e.kind(), "assignment_expression" | "augmented_assignment_expression") {
        let (Some(left), Some(right)) = (e.field("left"), e.field("right")) else {
            return;
        };
        let target = ctx.text(left).to_string();
        if left.kind() == "identifier" && right.kind() != "new_expression" {
            js.assigned.push((target.clone(), None));
        }
        if left.kind() == "subscript_expression" {
            // `handlers["tools/list"] = onList` registers a handler.
            let key = left.field("index").filter(|k| k.kind() == "string").map(|k| unquote(ctx.text(k)));
            if let Some(method) = key.filter(|m| crate::model::is_mcp_method(m)) {
                let handler = callable_name(ctx, js, right, facts);
                let registry = left.field("object").map(|o| ctx.text(o)).unwrap_or("").to_string();
                facts.registrations.push(Registration { registry, method, handler, span });
                return;
            }
            // `this.handlers[name] = handler`: a map write with a computed key.
            if let (Some(table), Some(key)) = (left.field("object"), left.field("index"))
                && key.kind() != "string"
            {
                let key = expr(ctx, js, key, facts);
                let value = expr(ctx, js, right, facts);
                out.push(Stmt::Store {
                    table: ctx.text(table).to_string(),
                    key: Box::new(key),
                    value: Box::new(value),
                    span,
                });
                return;
            }
        }
        let value = expr(ctx, js, right, facts);
        if left.kind() == "identifier" && right.kind() == "new_expression" {
            js.assigned.push((target.clone(), Some(value.clone())));
        }
        if let Some(http) = http_member_write(&target, &value, span) {
            out.push(super::effect(http, span));
            return;
        }
        // `module.exports = async (req, res) => ...` (Vercel functions, plain Node handlers).
        if matches!(target.as_str(), "module.exports" | "exports.handler" | "module.exports.handler") {
            note_default_handler(&value, facts);
        }
        // `module.exports = { METHODS: {...} }`, `exports.VERSION = "..."`: names an
        // importer binds (`const { METHODS } = require(...)`), defined here.
        if let ("module.exports", Expr::Object { entries, .. }) = (target.as_str(), &value) {
            for (name, v) in entries {
                if exported_literal(name, v) {
                    out.push(Stmt::Assign { target: name.clone(), value: v.clone(), span });
                }
            }
        }
        if let Some(name) = target.strip_prefix("module.exports.").or_else(|| target.strip_prefix("exports."))
            && exported_literal(name, &value)
        {
            out.push(Stmt::Assign { target: name.to_string(), value: value.clone(), span });
        }
        if is_initialized_flag(&target) && matches!(value, Expr::Bool(true)) {
            out.push(Stmt::SetInitialized { span });
        }
        out.push(Stmt::Assign { target, value, span });
        return;
    }
    let value = expr(ctx, js, e, facts);
    out.push(super::effect(value, span));
}

/// An exported name bound to a literal value (a constant or a table of them); a
/// name re-exported (`{ METHODS }`) is already bound where it is defined.
fn exported_literal(name: &str, value: &Expr) -> bool {
    name.chars().all(|c| c.is_alphanumeric() || c == '_' || c == '$')
        && matches!(value, Expr::Str(_) | Expr::Int(_) | Expr::Object { .. } | Expr::Array { .. })
}

/// The exported `handler` of a serverless function (Netlify Functions, AWS Lambda):
/// a function declaration or a `const` bound to a function, whose first parameter is
/// the platform's event (named `event`, or typed as one: `HandlerEvent`,
/// `APIGatewayProxyEvent`). Its name, when it is one.
fn exported_event_handler(ctx: &Ctx, d: Node) -> Option<String> {
    let (name, function) = match d.kind() {
        "function_declaration" => (d.field("name")?, d),
        "lexical_declaration" | "variable_declaration" => {
            let declarator = children(d).into_iter().find(|c| c.kind() == "variable_declarator")?;
            let value = declarator.field("value")?;
            if !matches!(value.kind(), "arrow_function" | "function_expression" | "function") {
                return None;
            }
            (declarator.field("name")?, value)
        }
        _ => return None,
    };
    if ctx.text(name) != frameworks::EVENT_HANDLER_EXPORT {
        return None;
    }
    let first = match function.field("parameters") {
        Some(params) => children(params).into_iter().next()?,
        // `async event => ..`: one parameter, unparenthesised.
        None => function.field("parameter")?,
    };
    let param_name = first.field("pattern").unwrap_or(first);
    let typed_event = first.field("type").is_some_and(|t| type_name(ctx.text(t)).ends_with("Event"));
    (ctx.text(param_name) == "event" || typed_event).then(|| ctx.text(name).to_string())
}

/// Whether a declared type is a serverless platform's handler type, imported from its
/// package (`Handler` of `@netlify/functions`, `APIGatewayProxyHandler` of `aws-lambda`).
fn platform_handler_type(facts: &FileFacts, text: &str) -> bool {
    let name = type_name(text);
    name.ends_with("Handler")
        && facts.package_names.iter().any(|(local, package)| {
            local == name && frameworks::PLATFORM_PACKAGES.contains(&package.as_str())
        })
}

/// What a module exports as its request handler: a function (`export default async
/// (req) => ...`, `module.exports = fn`) or an object with a `fetch` method (Workers, Bun).
fn note_default_handler(value: &Expr, facts: &mut FileFacts) {
    match value {
        // `exports.handler = netlifyHandler`, a function of this file or one it imports.
        Expr::FnRef(name) | Expr::Var(name) => facts.http_handlers.push(name.clone()),
        Expr::Object { entries, .. } => {
            for (k, v) in entries {
                // `{ fetch(request) {...} }` and `{ fetch: handle }`.
                if k == frameworks::FETCH_METHOD
                    && let Expr::FnRef(name) | Expr::Var(name) = v
                {
                    facts.http_handlers.push(name.clone());
                }
            }
        }
        // `export default createHandler()`: the function the file's own factory returns,
        // or, the factory imported (`export default createMcpHandler({..})` in a Vercel
        // function), what a factory of that name in a file this one reaches returns.
        Expr::Call { callee, receiver: None, .. } => {
            let own: Vec<&crate::model::Function> =
                facts.functions.iter().filter(|f| f.name == *callee && f.owner.is_none()).collect();
            if own.is_empty() {
                facts.http_handlers.push(format!("{}{callee}", super::MADE_BY));
                return;
            }
            let returned: Vec<String> = own
                .iter()
                .flat_map(|f| crate::model::returned_functions(&f.body))
                .map(str::to_string)
                .collect();
            facts.http_handlers.extend(returned);
        }
        _ => {}
    }
}

/// The one function a call is handed when it is handed nothing else:
/// `httpAction(async (ctx, req) => {...})`, `defineEventHandler(function (e) {...})`.
fn wrapped_function<'t>(ctx: &Ctx, value: Node<'t>) -> Option<Node<'t>> {
    if value.kind() != "call_expression" {
        return None;
    }
    // A plain function (not a method: `promise.then(cb)`, `http.createServer(cb)` have
    // meanings of their own) that is not a server or SDK call.
    let callee = value.field("function").filter(|f| f.kind() == "identifier")?;
    let callee = ctx.text(callee);
    if frameworks::SERVER_CALLS.contains(&callee) || crate::lower::SDK_SERVER_CALLS.contains(&callee) {
        return None;
    }
    let args = children(value.field("arguments")?);
    match args.as_slice() {
        [only] if matches!(only.kind(), "arrow_function" | "function_expression" | "function") => Some(*only),
        _ => None,
    }
}

/// Whether a receiver is Express's `x.route("/path")`, or a chain of verbs on one
/// (`x.route("/mcp").get(g)`).
fn routed(ctx: &Ctx, mut node: Node) -> bool {
    while node.kind() == "call_expression" {
        let Some(f) = node.field("function").filter(|f| f.kind() == "member_expression") else {
            return false;
        };
        let verb = f.field("property").map(|p| ctx.text(p)).unwrap_or("");
        match verb {
            "route" => {
                return node
                    .field("arguments")
                    .and_then(|a| a.named_child(0))
                    .is_some_and(|a| a.kind() == "string" && unquote(ctx.text(a)).starts_with('/'));
            }
            "get" | "post" | "put" | "patch" | "delete" | "all" | "options" | "head" => {
                match f.field("object") {
                    Some(o) => node = o,
                    None => return false,
                }
            }
            _ => return false,
        }
    }
    false
}

/// The name a callable expression can be called by: an identifier, or a new function.
fn callable_name(ctx: &mut Ctx, js: &mut Js, node: Node, facts: &mut FileFacts) -> String {
    match expr(ctx, js, node, facts) {
        Expr::Var(name) if let Some((_, method)) = js.bound_methods.iter().find(|(n, _)| *n == name) => {
            method.clone()
        }
        Expr::FnRef(name) | Expr::Var(name) => name,
        _ => ctx.text(node).to_string(),
    }
}

/// `this.handle.bind(this)`: the method bound (`this.handle`).
fn bound_method<'t>(ctx: &Ctx, value: Node<'t>) -> Option<Node<'t>> {
    let function = value.field("function").filter(|_| value.kind() == "call_expression")?;
    let bound = function.field("object").filter(|_| {
        function.kind() == "member_expression"
            && function.field("property").is_some_and(|p| ctx.text(p) == "bind")
    })?;
    (bound.kind() == "member_expression").then_some(bound)
}

fn class(ctx: &mut Ctx, js: &mut Js, node: Node, facts: &mut FileFacts, out: &mut Block) {
    let name = node.field("name").map(|n| ctx.text(n).to_string());
    let Some(body) = node.field("body") else { return };
    let parents = heritage(node);
    // `class S extends Service<S>()('S', { scoped: gen(function* () {..}) }) {}`: a parent
    // made by a call runs where the class is declared; the functions written in it are code.
    for parent in parents.iter().filter(|p| p.kind() == "call_expression") {
        let value = expr(ctx, js, *parent, facts);
        out.push(Stmt::Expr(value));
    }
    if let Some(class) = &name {
        // `class B extends A { field = value; ... }`: the parent and the fields.
        let bases = parents.iter().map(|p| ctx.text(*p).to_string());
        // Interfaces after the parent (`class A extends B implements I`).
        let interfaces = children(node)
            .into_iter()
            .filter(|c| c.kind() == "class_heritage")
            .flat_map(children)
            .filter(|c| c.kind() == "implements_clause")
            .flat_map(children)
            .filter(|t| matches!(t.kind(), "type_identifier" | "nested_type_identifier"))
            .map(|t| ctx.text(t).to_string());
        let bases = bases.chain(interfaces).map(|b| super::last_segment(&b).to_string()).collect();
        let mut fields = Vec::new();
        for member in children(body) {
            if matches!(member.kind(), "public_field_definition" | "field_definition")
                && !is_method_field(member)
                && let Some(k) = member.field("name").or_else(|| member.field("property"))
            {
                let default = member.field("value").map(|v| expr(ctx, js, v, facts));
                fields.push((ctx.text(k).to_string(), default));
                if let Some(t) = member.field("type")
                    && let Some(c) = super::type_class(ctx.text(t).trim_start_matches(':'))
                {
                    facts.field_types.push((class.clone(), ctx.text(k).to_string(), c));
                }
            }
            // `constructor(private server: McpServer)`: a parameter property.
            if member.kind() == "method_definition"
                && member.field("name").is_some_and(|n| ctx.text(n) == "constructor")
            {
                for p in member.field("parameters").map(children).unwrap_or_default() {
                    let property =
                        children(p).iter().any(|c| matches!(c.kind(), "accessibility_modifier" | "readonly"));
                    if property
                        && let (Some(n), Some(t)) = (p.field("pattern"), p.field("type"))
                        && let Some(c) = super::type_class(ctx.text(t).trim_start_matches(':'))
                    {
                        facts.field_types.push((class.clone(), ctx.text(n).to_string(), c));
                    }
                }
            }
        }
        facts.classes.push(crate::model::ClassDef {
            name: class.clone(),
            bases,
            fields,
            span: ctx.span(node),
        });
    }
    // A class with a method written as an MCP method with a slash ('tools/list'() {..})
    // is a handler table; `initialize()` alone is any class's set-up.
    let table = children(body).into_iter().any(|m| {
        m.kind() == "method_definition"
            && m.field("name").is_some_and(|k| {
                let name = unquote(ctx.text(k));
                k.kind() == "string" && name.contains('/') && crate::model::is_mcp_method(&name)
            })
    });
    for member in children(body) {
        match member.kind() {
            "method_definition" => {
                let key = member.field("name");
                let m = match key {
                    // `'tools/list'() { ... }`: a method named by its string.
                    Some(k) if k.kind() == "string" => unquote(ctx.text(k)),
                    Some(k) => ctx.text(k).to_string(),
                    None => String::new(),
                };
                // `get statusCode() {...}`: read as a property, run when read.
                let getter = (0..member.child_count())
                    .filter_map(|i| member.child(i))
                    .take_while(|c| Some(*c) != key)
                    .any(|c| c.kind() == "get");
                let m = if getter { format!("{}{m}", crate::model::GETTER_PREFIX) } else { m };
                // A class whose methods are named as MCP methods is a handler table:
                // `server[request.method](params)` calls them.
                if let (Some(class), true) = (name.as_deref(), table && crate::model::is_mcp_method(&m)) {
                    facts.registrations.push(Registration {
                        registry: class.to_string(),
                        method: m.clone(),
                        handler: format!("{class}.{m}"),
                        span: ctx.span(member),
                    });
                }
                function(ctx, js, member, facts, m, name.as_deref());
            }
            "public_field_definition" | "field_definition" => {
                let key = member.field("name").or_else(|| member.field("property"));
                // `private send = async (msg) => {...}`: a method, called as `this.send(...)`.
                if is_method_field(member)
                    && let (Some(k), Some(v)) = (key, member.field("value"))
                {
                    function(ctx, js, v, facts, ctx.text(k).to_string(), name.as_deref());
                    continue;
                }
                if let (Some(k), Some(v)) = (key, member.field("value")) {
                    let target = format!("this.{}", ctx.text(k));
                    let value = expr(ctx, js, v, facts);
                    out.push(Stmt::Assign { target, value, span: ctx.span(member) });
                }
            }
            _ => {}
        }
    }
}

/// The expressions a class extends: TypeScript's `extends_clause` value, or JavaScript's
/// expression written straight after `extends`.
fn heritage(class: Node) -> Vec<Node> {
    children(class)
        .into_iter()
        .filter(|c| c.kind() == "class_heritage")
        .flat_map(children)
        .filter_map(|c| match c.kind() {
            "extends_clause" => c.field("value"),
            "implements_clause" => None,
            _ => Some(c),
        })
        .collect()
}

/// A class field whose value is a function (`handle = async (req) => {...}`).
fn is_method_field(member: Node) -> bool {
    member
        .field("value")
        .is_some_and(|v| matches!(v.kind(), "arrow_function" | "function_expression" | "function"))
}

/// A function's parameters, with the defaults written for them: `status = 200`
/// (an `assignment_pattern` in JavaScript, a parameter with a `value` in TypeScript).
/// A function's parameters, and the reads its destructured ones make before the
/// body runs: `({ id, method })` is a parameter `__arg0` whose `id` and `method`
/// are read into names of their own.
fn params(ctx: &mut Ctx, js: &mut Js, node: Node, facts: &mut FileFacts) -> (super::Params, Block) {
    let mut out = super::Params::default();
    let mut prologue = Vec::new();
    if let Some(p) = node.field("parameter") {
        out.names.push(ctx.text(p).to_string());
        return (out, prologue);
    }
    let Some(list) = node.field("parameters") else { return (out, prologue) };
    for (i, p) in children(list).into_iter().enumerate() {
        let (pattern, default) = match p.kind() {
            "assignment_pattern" => (p.field("left").unwrap_or(p), p.field("right")),
            _ => {
                let pattern = p.field("pattern").unwrap_or(p);
                match pattern.kind() {
                    "assignment_pattern" => {
                        (pattern.field("left").unwrap_or(pattern), pattern.field("right"))
                    }
                    _ => (pattern, p.field("value")),
                }
            }
        };
        let mut name = ctx.text(pattern).to_string();
        if pattern.kind() == "object_pattern" {
            name = super::destructured_param(i);
            prologue.extend(pattern_reads(ctx, pattern, &Expr::Var(name.clone()), true, ctx.span(p)));
        }
        if let Some(d) = default
            && matches!(pattern.kind(), "identifier" | "object_pattern")
        {
            let value = expr(ctx, js, d, facts);
            out.defaults.push((name.clone(), value));
        }
        // `server: RpcServer`: a parameter declared with a class type (one name).
        if let Some(ty) = p.field("type").and_then(|t| t.named_child(0))
            && ty.kind() == "type_identifier"
            && pattern.kind() == "identifier"
        {
            out.types.push((name.clone(), ctx.text(ty).to_string()));
        }
        out.names.push(name);
    }
    (out, prologue)
}

/// The decorators of a method definition: its own and those right before it, past
/// the comments between them (`@SetMetadata(KEY, true) // public`).
fn decorators<'t>(node: Node<'t>) -> Vec<Node<'t>> {
    let mut sibling = node.prev_named_sibling();
    let mut own = children(node).into_iter().filter(|c| c.kind() == "decorator").collect::<Vec<_>>();
    while let Some(s) = sibling.filter(|s| matches!(s.kind(), "decorator" | "comment")) {
        if s.kind() == "decorator" {
            own.push(s);
        }
        sibling = s.prev_named_sibling();
    }
    own
}

/// A decorator's name and its argument text: `@HttpCode(202)` is `("HttpCode", "202")`.
fn decorator_call<'s>(ctx: &'s Ctx, d: Node) -> (&'s str, &'s str) {
    let text = ctx.text(d).trim_start_matches('@');
    let name = text.split(['(', ' ']).next().unwrap_or("");
    let args = text.split_once('(').map(|(_, a)| a.trim_end().trim_end_matches(')').trim()).unwrap_or("");
    (name, args)
}

/// Type and function names the file declares, or imports from a module that is not a
/// web framework: its own `Request` is a JSON-RPC request, not an HTTP one, and its own
/// `make_response(id, result)` is no framework's response.
fn note_own_types(ctx: &mut Ctx, root: Node, facts: &mut FileFacts) {
    for child in children(root) {
        let decl = match child.kind() {
            "export_statement" => child.field("declaration"),
            _ => Some(child),
        };
        if let Some(d) = decl.filter(|d| {
            matches!(
                d.kind(),
                "interface_declaration"
                    | "function_declaration"
                    | "type_alias_declaration"
                    | "class_declaration"
                    | "abstract_class_declaration"
                    | "enum_declaration"
            )
        }) && let Some(n) = d.field("name")
        {
            ctx.own_names.push(ctx.text(n).to_string());
        }
        if child.kind() != "import_statement" {
            continue;
        }
        let source = child.field("source").map(|s| unquote(ctx.text(s))).unwrap_or_default();
        note_package_names(ctx, child, &source, facts);
        note_namespace_import(ctx, child, &source, facts);
        note_named_imports(ctx, child, &source, facts);
        if frameworks::SDK_TYPES_MODULES.contains(&source.as_str()) {
            note_sdk_types(ctx, child);
        }
        let web = frameworks::WEB_MODULES
            .iter()
            .any(|m| source == *m || source.strip_prefix(m).is_some_and(|rest| rest.starts_with('/')));
        if web {
            facts.web_framework = true;
            note_renamed(ctx, child);
            continue;
        }
        let mut stack: Vec<Node> =
            children(child).into_iter().filter(|c| c.kind() == "import_clause").collect();
        while let Some(n) = stack.pop() {
            if matches!(n.kind(), "identifier" | "type_identifier") {
                ctx.own_names.push(ctx.text(n).to_string());
            }
            stack.extend(children(n));
        }
    }
}

/// A type written in a signature, as the name that decides: `express.Request<P>` is
/// `Request`, `Promise<Response>` and `Response | null` are `Response`.
fn type_name(text: &str) -> &str {
    let t = text.trim().trim_start_matches(':').trim();
    let t = t.strip_prefix("Promise<").and_then(|r| r.strip_suffix('>')).unwrap_or(t).trim();
    let t = t.split('|').map(str::trim).find(|p| !matches!(*p, "null" | "undefined" | "void")).unwrap_or(t);
    let t = t.split('<').next().unwrap_or(t).trim();
    super::last_segment(t)
}

/// A signature that takes an HTTP request: `(req: IncomingMessage, res: ServerResponse)`,
/// `(request: Request): Promise<Response>`, `(req: Request, res: Response)`.
fn typed_as_handler(ctx: &Ctx, node: Node) -> bool {
    let Some(list) = node.field("parameters") else { return false };
    let own = |t: &str| ctx.own_names.iter().any(|n| n == t);
    let types: Vec<&str> = children(list)
        .into_iter()
        .filter_map(|p| p.field("type"))
        .map(|t| type_name(ctx.text(t)))
        .filter(|t| !own(t))
        .collect();
    if types.iter().any(|t| frameworks::REQUEST_TYPES.contains(t)) {
        return true;
    }
    let returns = node.field("return_type").map(|t| type_name(ctx.text(t))).filter(|t| !own(t));
    types.contains(&frameworks::FETCH_REQUEST)
        && (types.iter().any(|t| frameworks::RESPONSE_TYPES.contains(t))
            || returns.is_some_and(|t| frameworks::RESPONSE_TYPES.contains(&t)))
}

/// `@Post()` / `@All('mcp')` right before a method definition.
fn mounted_by_decorator(ctx: &Ctx, node: Node) -> bool {
    decorators(node).iter().any(|d| frameworks::ROUTE_DECORATORS.contains(&decorator_call(ctx, *d).0))
}

/// The status a method's `@HttpCode(202)` sets for every answer it sends.
fn decorated_status(ctx: &Ctx, node: Node) -> Option<u16> {
    decorators(node).iter().find_map(|d| match decorator_call(ctx, *d) {
        // `@HttpCode(202)`, `@HttpCode(HttpStatus.ACCEPTED)`.
        (name, args) if name == frameworks::STATUS_DECORATOR => args
            .parse()
            .ok()
            .or_else(|| super::status_by_name(args).filter(|_| args.starts_with(frameworks::STATUS_ENUM))),
        _ => None,
    })
}

fn function(
    ctx: &mut Ctx,
    js: &mut Js,
    node: Node,
    facts: &mut FileFacts,
    name: String,
    owner: Option<&str>,
) {
    let (params, prologue) = params(ctx, js, node, facts);
    // Next.js route handlers (`export async function POST(request)`) and NestJS
    // controller methods (`@Post() handle(...)`).
    // h3's `defineEventHandler(async (event) => {..})`: a route answering with what it
    // returns, with the status `setResponseStatus(event, n)` set (200 until then).
    let event_handler = std::mem::take(&mut js.event_handler_next);
    // An Azure Functions HTTP handler answers with the `HttpResponseInit` it returns
    // (a function written inside it does not).
    let function_app = std::mem::take(&mut js.function_app_next);
    let outer_function_app = std::mem::replace(&mut js.function_app_answer, function_app);
    let http_route = frameworks::ROUTE_FUNCTIONS.contains(&name.as_str())
        || mounted_by_decorator(ctx, node)
        || event_handler
        || function_app;
    let http = match http_route {
        true => super::Http::Route,
        false if typed_as_handler(ctx, node) => super::Http::Signature,
        false => super::Http::No,
    };
    let body = node.field("body");
    let status = decorated_status(ctx, node);
    let outer_status = std::mem::replace(&mut js.default_status, status);
    let answers = match event_handler {
        true => Some(Expr::Var(frameworks::EVENT_STATUS.into())),
        false => status.filter(|_| http_route && !takes_response(ctx, node)).map(|s| Expr::Int(i64::from(s))),
    };
    let outer_answer = std::mem::replace(&mut js.route_answer, answers.clone());
    let outer_responders = std::mem::replace(&mut js.context_responders, context_responders(ctx, node));
    // `constructor(public status: number, readonly body: string)`: each parameter
    // property is a field set from its argument before the body runs.
    let mut properties = prologue;
    if event_handler {
        properties.push(Stmt::Assign {
            target: frameworks::EVENT_STATUS.into(),
            value: Expr::Int(200),
            span: ctx.span(node),
        });
    }
    if name == "constructor" && owner.is_some() {
        for p in node.field("parameters").map(children).unwrap_or_default() {
            // (`readonly` alone is an unnamed token of the parameter.)
            let property = (0..p.child_count())
                .filter_map(|i| p.child(i))
                .any(|c| matches!(c.kind(), "accessibility_modifier" | "readonly"));
            if let Some(n) = p.field("pattern").filter(|n| property && n.kind() == "identifier") {
                let field = ctx.text(n).to_string();
                properties.push(Stmt::Assign {
                    target: format!("this.{field}"),
                    value: Expr::Var(field),
                    span: ctx.span(p),
                });
            }
        }
    }
    // A generator (`function*`, `async function*`, a `*method()`): calling it gives the
    // items it yields.
    let generator = (0..node.child_count()).filter_map(|i| node.child(i)).any(|c| c.kind() == "*")
        && body.is_some_and(|b| b.kind() == "statement_block");
    let outer_generator = std::mem::replace(&mut ctx.generator, generator);
    if generator {
        properties.push(Stmt::Assign {
            target: super::GENERATED.into(),
            value: super::capture(ctx.span(node)),
            span: ctx.span(node),
        });
    }
    super::push_function(ctx, facts, node, name, owner, params, http, |ctx, facts| match body {
        Some(b) if b.kind() == "statement_block" => {
            let mut out = properties;
            out.extend(block(ctx, js, Some(b), facts, owner));
            if generator {
                out.push(Stmt::Return { value: Some(Expr::Var(super::GENERATED.into())), span: ctx.span(b) });
            }
            // Falling off the end returns nothing: an empty answer with the route's status.
            if let Some(status) = answers {
                out.push(Stmt::Return {
                    value: Some(route_answer(status, None, ctx.span(b))),
                    span: ctx.span(b),
                });
            }
            out
        }
        // An arrow function's expression body is its return value.
        Some(b) => {
            let mut out = properties;
            out.push(Stmt::Return { value: Some(expr(ctx, js, b, facts)), span: ctx.span(b) });
            out
        }
        None => properties,
    });
    js.default_status = outer_status;
    js.route_answer = outer_answer;
    js.context_responders = outer_responders;
    js.function_app_answer = outer_function_app;
    ctx.generator = outer_generator;
}

/// What an Azure Functions HTTP handler's returned value sends: an `HttpResponseInit`
/// literal (`{ status: 204 }`, `{ jsonBody: reply }`) is an answer with that status
/// (200 when none is given) and its body (none when neither `body` nor `jsonBody` is
/// given). Anything else is left as written.
fn function_app_answer(value: Expr, span: Span) -> Expr {
    let Expr::Object { entries, .. } = &value else { return value };
    let init = !entries.is_empty()
        && entries.iter().all(|(k, _)| frameworks::FUNCTION_APP_ANSWER_MEMBERS.contains(&k.as_str()));
    if !init {
        return value;
    }
    let member = |name: &str| entries.iter().find(|(k, _)| k == name).map(|(_, v)| v.clone());
    let status = member("status").unwrap_or(Expr::Int(200));
    let body = member("jsonBody").or_else(|| member("body")).unwrap_or(Expr::Str(String::new()));
    crate::lower::http_answer(status, body, span)
}

/// The answer builders a function takes by name from its first parameter, an object
/// pattern (`async ({ request, status }) => ..`; see [`frameworks::CONTEXT_RESPONDERS`]).
fn context_responders(ctx: &Ctx, node: Node) -> Vec<String> {
    let Some(first) = node.field("parameters").and_then(|l| children(l).into_iter().next()) else {
        return Vec::new();
    };
    let pattern = first.field("pattern").unwrap_or(first);
    if pattern.kind() != "object_pattern" {
        return Vec::new();
    }
    children(pattern)
        .into_iter()
        .filter(|p| p.kind() == "shorthand_property_identifier_pattern")
        .map(|p| ctx.text(p).to_string())
        .filter(|name| frameworks::CONTEXT_RESPONDERS.contains(&name.as_str()))
        .collect()
}

/// What a route answering with its return value (NestJS, h3) sends for it: that
/// value as the body with the route's status; nothing (`undefined`, `null`) as an
/// empty body.
fn route_answer(status: Expr, value: Option<Expr>, span: Span) -> Expr {
    Expr::HttpWith {
        status: Box::new(status),
        body: Box::new(value.unwrap_or(Expr::Null)),
        null_is_empty: true,
        span,
    }
}

/// A method with a `@Res()` parameter sends its answer itself; what it returns is not sent.
fn takes_response(ctx: &Ctx, node: Node) -> bool {
    let Some(list) = node.field("parameters") else { return false };
    children(list).into_iter().any(|p| {
        children(p)
            .into_iter()
            .filter(|c| c.kind() == "decorator")
            .any(|d| frameworks::RESPONSE_PARAM_DECORATORS.contains(&decorator_call(ctx, d).0))
    })
}

/// A function written inside an expression: lowered on its own, referred to by a made-up name.
fn anonymous(ctx: &mut Ctx, js: &mut Js, node: Node, facts: &mut FileFacts) -> Expr {
    let name = super::anonymous_name(node);
    function(ctx, js, node, facts, name.clone(), None);
    Expr::FnRef(name)
}

fn switch(ctx: &mut Ctx, js: &mut Js, node: Node, facts: &mut FileFacts, owner: Option<&str>) -> Expr {
    let span = ctx.span(node);
    let subject = node.field("value").map(|v| expr(ctx, js, v, facts)).unwrap_or_else(Expr::unknown);
    let mut arms: Vec<Arm> = Vec::new();
    // `switch (true) { case method === 'ping': .. }`: an if-chain over the labels.
    let on_true = matches!(subject, Expr::Bool(true));
    let mut chain = Vec::new();
    // Cases without a body fall through to the next: their labels join it.
    let mut pending: Vec<Pattern> = Vec::new();
    let mut conditions: Vec<Option<Expr>> = Vec::new();
    if let Some(body) = node.field("body") {
        for case in children(body) {
            match case.kind() {
                "switch_case" => {
                    let label = case.field("value").map(|v| expr(ctx, js, v, facts));
                    conditions.push(Some(label.clone().unwrap_or_else(Expr::unknown)));
                    pending.push(label.map(super::case_pattern).unwrap_or(Pattern::Unknown));
                }
                "switch_default" => {
                    conditions.push(None);
                    pending.push(Pattern::Any(None));
                }
                _ => continue,
            }
            let mut cursor = case.walk();
            let stmts: Vec<Node> = case.fields("body", &mut cursor).collect();
            if stmts.is_empty() {
                continue;
            }
            let mut body = Vec::new();
            for s in stmts {
                statement(ctx, js, s, facts, owner, &mut body);
            }
            let body = super::end_at_break(body);
            if on_true {
                // A default among the labels takes the arm for anything left.
                let labels: Option<Vec<Expr>> = std::mem::take(&mut conditions).into_iter().collect();
                let condition =
                    labels.and_then(|l| l.into_iter().reduce(|a, b| Expr::Or(Box::new(a), Box::new(b))));
                chain.push((condition, body, ctx.span(case)));
                pending.clear();
                continue;
            }
            conditions.clear();
            arms.push(Arm {
                patterns: std::mem::take(&mut pending),
                guard: None,
                body,
                span: ctx.span(case),
            });
        }
    }
    if on_true {
        return super::condition_chain(chain, Vec::new());
    }
    if !pending.is_empty() {
        arms.push(Arm { patterns: pending, guard: None, body: Vec::new(), span });
    }
    Expr::Match { subject: Box::new(subject), arms, span }
}

fn expr(ctx: &mut Ctx, js: &mut Js, node: Node, facts: &mut FileFacts) -> Expr {
    ctx.nested(Expr::unknown, |ctx| expr_inner(ctx, js, node, facts))
}

fn sub(ctx: &mut Ctx, js: &mut Js, node: Node, name: &'static str, facts: &mut FileFacts) -> Expr {
    node.field(name).map(|n| expr(ctx, js, n, facts)).unwrap_or_else(Expr::unknown)
}

fn expr_inner(ctx: &mut Ctx, js: &mut Js, node: Node, facts: &mut FileFacts) -> Expr {
    let span = ctx.span(node);
    match node.kind() {
        "identifier" => match ctx.text(node) {
            "undefined" => Expr::Null,
            t => {
                if js.stdin_imports.iter().any(|n| n == t) {
                    ctx.saw_stdin = true;
                }
                Expr::Var(t.to_string())
            }
        },
        "this" => Expr::Var("this".into()),
        "null" | "undefined" => Expr::Null,
        "true" => Expr::Bool(true),
        "false" => Expr::Bool(false),
        "number" => super::int_literal(ctx.text(node)).map(Expr::Int).unwrap_or_else(Expr::unknown),
        "string" => Expr::Str(unquote(ctx.text(node))),
        "regex" => super::regex_literal(
            node.field("pattern").map(|p| ctx.text(p)).unwrap_or(""),
            node.field("flags").map(|f| ctx.text(f)).unwrap_or(""),
        ),
        "template_string" => {
            let subs: Vec<Node> =
                children(node).into_iter().filter(|c| c.kind() == "template_substitution").collect();
            if subs.is_empty() {
                Expr::Str(unquote(ctx.text(node)))
            } else if let [only] = subs.as_slice()
                && ctx.text(node).len() == ctx.text(*only).len() + 2
                && let Some(e) = only.named_child(0)
            {
                // `${x}` alone: `x` as a string, as `String(x)` is.
                let value = expr(ctx, js, e, facts);
                Expr::Call {
                    callee: "String".into(),
                    receiver: None,
                    args: vec![value],
                    span: ctx.span(node),
                }
            } else {
                let parts = subs
                    .into_iter()
                    .filter_map(|s| s.named_child(0))
                    .map(|e| expr(ctx, js, e, facts))
                    .collect();
                Expr::opaque(parts)
            }
        }
        "parenthesized_expression"
        | "await_expression"
        | "as_expression"
        | "non_null_expression"
        | "satisfies_expression"
        | "type_assertion" => {
            children(node).first().map(|c| expr(ctx, js, *c, facts)).unwrap_or_else(Expr::unknown)
        }
        // `build(...parts)`: the array's items, position by position.
        "spread_element" if node.parent().is_some_and(|p| p.kind() == "arguments") => {
            let inner = node.named_child(0).map(|v| expr(ctx, js, v, facts)).unwrap_or_else(Expr::unknown);
            Expr::Spread(Box::new(inner))
        }
        "member_expression" => {
            let prop = node.field("property").map(|p| ctx.text(p)).unwrap_or("");
            let object_node = node.field("object");
            if prop == "stdin" {
                ctx.saw_stdin = true;
            }
            // `this.protocolVersion` is the object's own property, never the message's field.
            let own = object_node.is_some_and(|o| o.kind() == "this");
            if let Some(f) = message_field(prop).filter(|_| !own) {
                let object = object_node.map(|o| expr(ctx, js, o, facts));
                return field(object, f);
            }
            let text = ctx.text(node);
            // `req.body` of a JSON body parser: the decoded message.
            if let Some(object) = object_node
                && frameworks::PARSED_BODIES.iter().any(|(o, m)| *m == prop && *o == ctx.text(object))
            {
                return Expr::Message(Vec::new());
            }
            // `ErrorCode.MethodNotFound` of the MCP SDK's protocol types: the code itself.
            if let Some((object, member)) = text.split_once('.')
                && sdk_type(ctx, object) == Some("ErrorCode")
                && let Some((_, code)) = frameworks::SDK_ERROR_CODES.iter().find(|(m, _)| *m == member)
            {
                return Expr::Int(*code);
            }
            // `StatusCodes.ACCEPTED` of an imported status enum: the status itself.
            if let Some((object, member)) = text.split_once('.')
                && ctx.status_enums.contains(&object)
                && let Some(code) = super::status_by_name(member)
            {
                return Expr::Int(i64::from(code));
            }
            if text.chars().all(|c| c.is_alphanumeric() || c == '_' || c == '.' || c == '$') {
                return Expr::Var(text.to_string());
            }
            // `(codes[code] as any)?.statusCode`: the member of whatever the object is.
            match object_node {
                Some(o) if !prop.is_empty() => Expr::Lookup {
                    collection: Box::new(expr(ctx, js, o, facts)),
                    key: Box::new(Expr::Str(prop.to_string())),
                },
                o => Expr::opaque(o.map(|o| expr(ctx, js, o, facts)).into_iter().collect()),
            }
        }
        "subscript_expression" => {
            let collection = sub(ctx, js, node, "object", facts);
            let index = node.field("index");
            match index {
                Some(k) if k.kind() == "string" => {
                    let key = unquote(ctx.text(k));
                    match message_field(&key) {
                        Some(f) => field(Some(collection), f),
                        None => {
                            Expr::Lookup { collection: Box::new(collection), key: Box::new(Expr::Str(key)) }
                        }
                    }
                }
                Some(k) => {
                    let key = expr(ctx, js, k, facts);
                    Expr::Lookup { collection: Box::new(collection), key: Box::new(key) }
                }
                None => collection,
            }
        }
        "call_expression" => call_expression(ctx, js, node, facts),
        "new_expression" => new_expression(ctx, js, node, facts),
        "binary_expression" => binary(ctx, js, node, facts),
        "unary_expression" => {
            let op = node.field("operator").map(|o| ctx.text(o)).unwrap_or("");
            let arg = sub(ctx, js, node, "argument", facts);
            match (op, arg) {
                ("!", a) => Expr::Not(Box::new(a)),
                ("-", Expr::Int(n)) => Expr::Int(-n),
                ("typeof", a) => Expr::Call { callee: "typeof".into(), receiver: None, args: vec![a], span },
                (_, a) => Expr::opaque(vec![a]),
            }
        }
        "ternary_expression" => {
            let cond = sub(ctx, js, node, "condition", facts);
            let then = sub(ctx, js, node, "consequence", facts);
            let otherwise = sub(ctx, js, node, "alternative", facts);
            Expr::If {
                cond: Box::new(cond),
                then: vec![Stmt::Yield(then)],
                otherwise: vec![Stmt::Yield(otherwise)],
                span,
            }
        }
        "object" => {
            let mut entries = Vec::new();
            for p in children(node) {
                match p.kind() {
                    "pair" => {
                        let key = p.field("key").map(|k| unquote(ctx.text(k))).unwrap_or_default();
                        let value = sub(ctx, js, p, "value", facts);
                        // `{ handleMessage: routeMessage }`, `{ handle: async (m) => .. }`:
                        // the function is called as `router.handleMessage(..)`.
                        if let Expr::FnRef(name) | Expr::Var(name) = &value {
                            facts.object_members.push((key.clone(), name.clone()));
                        }
                        entries.push((key, value));
                    }
                    // `return { handleBody, tools }`: an inner function named here is
                    // called as `rpc.handleBody(..)` on what the factory returns (see
                    // `Program::factory_member`).
                    "shorthand_property_identifier" => {
                        let name = ctx.text(p).to_string();
                        // `{ input }` with `input` imported standard input.
                        if js.stdin_imports.contains(&name) {
                            ctx.saw_stdin = true;
                        }
                        facts.object_members.push((name.clone(), name.clone()));
                        entries.push((name.clone(), Expr::Var(name)));
                    }
                    "method_definition" => {
                        let key = p.field("name").map(|k| unquote(ctx.text(k))).unwrap_or_default();
                        let function = anonymous(ctx, js, p, facts);
                        if let Expr::FnRef(name) = &function {
                            facts.object_members.push((key.clone(), name.clone()));
                        }
                        entries.push((key, function));
                    }
                    // `{ ...DEFAULTS, protocolVersion }`: the members of another object, here.
                    "spread_element" => {
                        let inner =
                            p.named_child(0).map(|v| expr(ctx, js, v, facts)).unwrap_or_else(Expr::unknown);
                        entries.push((crate::model::SPREAD.to_string(), inner));
                    }
                    _ => {}
                }
            }
            object(entries, span)
        }
        "array" => {
            let items = children(node).into_iter().map(|c| expr(ctx, js, c, facts)).collect();
            Expr::Array { items, span }
        }
        "arrow_function" | "function_expression" | "function" | "generator_function" => {
            anonymous(ctx, js, node, facts)
        }
        "assignment_expression" => {
            let target = node.field("left").map(|l| ctx.text(l).to_string()).unwrap_or_default();
            let value = sub(ctx, js, node, "right", facts);
            // `module.exports = async (req, res) => ...` (Vercel functions).
            if matches!(target.as_str(), "module.exports" | "exports.handler" | "module.exports.handler") {
                note_default_handler(&value, facts);
            }
            let mut block: Vec<Stmt> = super::sets_flag(&target, &value, span).into_iter().collect();
            block.push(Stmt::Assign { target, value, span });
            Expr::Block(block)
        }
        _ => {
            let parts = children(node).into_iter().map(|c| expr(ctx, js, c, facts)).collect();
            Expr::opaque(parts)
        }
    }
}

fn binary(ctx: &mut Ctx, js: &mut Js, node: Node, facts: &mut FileFacts) -> Expr {
    let op = node.field("operator").map(|o| ctx.text(o)).unwrap_or("");
    let left_node = node.field("left");
    let left = sub(ctx, js, node, "left", facts);
    let right = sub(ctx, js, node, "right", facts);
    match op {
        "===" | "==" | "!==" | "!=" => {
            let negated = op.starts_with('!');
            let test = match (&left, &right) {
                // `typeof msg.id === "undefined"`
                (Expr::Call { callee, args, .. }, Expr::Str(t))
                | (Expr::Str(t), Expr::Call { callee, args, .. })
                    if callee == "typeof" && t == "undefined" =>
                {
                    Expr::IsNull(Box::new(args.first().cloned().unwrap_or_else(Expr::unknown)))
                }
                // `typeof body.method === "string"`, `typeof msg !== "object"`.
                (Expr::Call { callee, args, .. }, Expr::Str(t))
                | (Expr::Str(t), Expr::Call { callee, args, .. })
                    if callee == "typeof"
                        && matches!(t.as_str(), "string" | "number" | "boolean" | "object" | "function") =>
                {
                    let value = Box::new(args.first().cloned().unwrap_or_else(Expr::unknown));
                    Expr::IsA { value, class: t.clone() }
                }
                // `x === null` holds for null itself, never for an absent member (which
                // reads as undefined): a notification's missing id is not `=== null`.
                (x, Expr::Null) | (Expr::Null, x)
                    if op.len() == 3
                        && [left_node, node.field("right")].iter().flatten().any(|n| n.kind() == "null") =>
                {
                    Expr::IsA { value: Box::new(x.clone()), class: super::STRICT_NULL.into() }
                }
                (x, Expr::Null) | (Expr::Null, x) => Expr::IsNull(Box::new(x.clone())),
                _ => return Expr::Eq { left: Box::new(left), right: Box::new(right), negated },
            };
            if negated { Expr::Not(Box::new(test)) } else { test }
        }
        "&&" => Expr::And(Box::new(left), Box::new(right)),
        "||" => Expr::Or(Box::new(left), Box::new(right)),
        "??" => Expr::Coalesce(Box::new(left), Box::new(right)),
        "in" => match (left_node.map(|l| l.kind()), left) {
            (Some("string"), Expr::Str(key)) => Expr::HasKey { object: Box::new(right), key },
            (_, item) => Expr::Member { item: Box::new(item), collection: Box::new(right) },
        },
        op => super::ordered(op, left, right),
    }
}

fn call_expression(ctx: &mut Ctx, js: &mut Js, node: Node, facts: &mut FileFacts) -> Expr {
    let span = ctx.span(node);
    let Some(func) = node.field("function") else { return Expr::unknown() };
    let arg_nodes: Vec<Node> = node.field("arguments").map(children).unwrap_or_default();
    // `WireResponse.ok(id, v)`: the static method of the class under its own name.
    let callee = super::by_own_class(ctx, ctx.text(func).to_string());
    let last = super::last_segment(&callee).to_string();
    let first_str = arg_nodes.first().filter(|a| a.kind() == "string").map(|a| unquote(ctx.text(*a)));
    let receiver_node = (func.kind() == "member_expression").then(|| func.field("object")).flatten();
    let receiver_text = receiver_node.map(|r| ctx.text(r)).unwrap_or("").to_string();

    // Hono's `streamSSE(c, async (stream) => { await stream.writeSSE({ data }) })`: a
    // 200 whose body is what the callback writes.
    if func.kind() == "identifier"
        && frameworks::STREAM_HELPERS.contains(&callee.as_str())
        && let [_, callback] = arg_nodes.as_slice()
        && let Some(chunks) = stream_writes(ctx, js, *callback, facts)
    {
        return Expr::Http { status: None, body: Some(Box::new(chunks)), span };
    }
    // Elysia's `status(202)`, `status(400, body)` taken from the handler's context.
    if func.kind() == "identifier"
        && js.context_responders.contains(&callee)
        && (1..=2).contains(&arg_nodes.len())
    {
        let mut args: Vec<Expr> = arg_nodes.iter().map(|a| expr(ctx, js, *a, facts)).collect();
        let body = (args.len() == 2).then(|| args.pop().expect("two arguments"));
        let status = args.pop().expect("one argument");
        return match status {
            Expr::Int(n) => Expr::Http { status: u16::try_from(n).ok(), body: body.map(Box::new), span },
            status => Expr::HttpWith {
                status: Box::new(status),
                body: Box::new(body.unwrap_or(Expr::Null)),
                null_is_empty: true,
                span,
            },
        };
    }
    // h3: the function `defineEventHandler` is handed answers with what it returns;
    // `setResponseStatus(event, 202)` sets the status that answer goes out with.
    if func.kind() == "identifier"
        && frameworks::EVENT_HANDLER_WRAPPERS.contains(&callee.as_str())
        && let [handler] = arg_nodes.as_slice()
        && matches!(handler.kind(), "arrow_function" | "function_expression" | "function")
    {
        js.event_handler_next = true;
        let value = expr(ctx, js, *handler, facts);
        js.event_handler_next = false;
        return value;
    }
    if func.kind() == "identifier"
        && frameworks::EVENT_STATUS_SETTERS.contains(&callee.as_str())
        && js
            .route_answer
            .as_ref()
            .is_some_and(|s| matches!(s, Expr::Var(v) if v == frameworks::EVENT_STATUS))
        && let Some(code) = arg_nodes.get(1)
    {
        let code = expr(ctx, js, *code, facts);
        return Expr::Block(vec![Stmt::Assign {
            target: frameworks::EVENT_STATUS.into(),
            value: code,
            span,
        }]);
    }
    // A route written as one object: Convex `http.route({ path, method, handler })`,
    // Fastify `fastify.route({ url, method, handler })`, Hapi `server.route(...)`.
    if receiver_node.is_some()
        && last == "route"
        && let [config] = arg_nodes.as_slice()
        && config.kind() == "object"
    {
        let pairs: Vec<Node> = children(*config).into_iter().filter(|p| p.kind() == "pair").collect();
        let key = |p: &Node| p.field("key").map(|k| unquote(ctx.text(k))).unwrap_or_default();
        let has_path = pairs.iter().any(|p| matches!(key(p).as_str(), "path" | "url"));
        if let Some(handler) = pairs.iter().find(|p| key(p) == "handler").and_then(|p| p.field("value"))
            && has_path
        {
            let name = callable_name(ctx, js, handler, facts);
            facts.http_handlers.push(name);
            return Expr::unknown();
        }
    }
    // Handlers keyed by HTTP verb in a call's one object argument: VTEX IO's
    // `method({ POST: [errorHandler, auth, mcpRouter] })` (a chain of middlewares,
    // each a handler of the request) or `{ POST: handle }`.
    if let [config] = arg_nodes.as_slice()
        && config.kind() == "object"
    {
        let pairs: Vec<Node> = children(*config).into_iter().filter(|p| p.kind() == "pair").collect();
        let key = |p: &Node| p.field("key").map(|k| unquote(ctx.text(k))).unwrap_or_default();
        if !pairs.is_empty() && pairs.iter().all(|p| crate::model::HTTP_VERBS.contains(&key(p).as_str())) {
            let mut handlers = Vec::new();
            for value in pairs.iter().filter(|p| key(p) == "POST").filter_map(|p| p.field("value")) {
                let items = if value.kind() == "array" { children(value) } else { vec![value] };
                handlers.extend(
                    items.into_iter().filter(|i| i.kind() == "identifier").map(|i| ctx.text(i).to_string()),
                );
            }
            if !handlers.is_empty() {
                facts.http_handlers.extend(handlers);
                return Expr::unknown();
            }
        }
    }
    // Azure Functions: `app.http("mcp", { methods: ["POST"], handler: async (request) => .. })`
    // on the package's `app`.
    if js.function_app
        && frameworks::FUNCTION_APP_REGISTRARS.contains(&last.as_str())
        && receiver_node.is_some_and(|r| r.kind() == "identifier")
        && let [name, config] = arg_nodes.as_slice()
        && name.kind() == "string"
        && config.kind() == "object"
        && let Some(handler) = children(*config)
            .into_iter()
            .filter(|p| p.kind() == "pair")
            .find(|p| p.field("key").is_some_and(|k| unquote(ctx.text(k)) == "handler"))
            .and_then(|p| p.field("value"))
    {
        js.function_app_next =
            matches!(handler.kind(), "arrow_function" | "function_expression" | "function");
        let name = callable_name(ctx, js, handler, facts);
        js.function_app_next = false;
        facts.http_handlers.push(name);
        return Expr::unknown();
    }
    // An endpoint declared by a config object and its handler: Encore
    // `api({ method: "POST", path: "/mcp", expose: true }, async (req) => ...)`.
    if frameworks::ENDPOINT_CALLS.contains(&last.as_str())
        && let [config, handler] = arg_nodes.as_slice()
        && config.kind() == "object"
        && children(*config).into_iter().filter(|p| p.kind() == "pair").any(|p| {
            p.field("key").is_some_and(|k| unquote(ctx.text(k)) == "path")
                && p.field("value").is_some_and(|v| unquote(ctx.text(v)).starts_with('/'))
        })
    {
        let name = callable_name(ctx, js, *handler, facts);
        facts.http_handlers.push(name);
        return Expr::unknown();
    }
    // Route and event registrations name the functions that receive messages.
    // The path is a string, or (Express) an array of them: `app.post(["/", "/mcp"], h)`;
    // `*` is every path (Hono's `app.use("*", mw)`, Express's `app.all("*", h)`).
    let route_path = |a: &Node| match a.kind() {
        "string" => {
            let path = unquote(ctx.text(*a));
            path.starts_with('/') || path == "*"
        }
        // `prefix + "/mcp"`, `${base}/mcp`: a path under a prefix the app is given.
        "binary_expression" => {
            a.field("right").is_some_and(|r| r.kind() == "string" && unquote(ctx.text(r)).starts_with('/'))
        }
        "template_string" => {
            let text = ctx.text(*a).trim_matches('`');
            text.starts_with('/') || text.split_once('}').is_some_and(|(_, rest)| rest.starts_with('/'))
        }
        "array" => {
            let items = children(*a);
            !items.is_empty()
                && items.iter().all(|i| i.kind() == "string" && unquote(ctx.text(*i)).starts_with('/'))
        }
        _ => false,
    };
    // A path held in a setting (`app.all(config.mcp.path, h)`) on an app or a router,
    // for `post` and `all` (not `use`, whose first argument may be a middleware, nor
    // an HTTP client's `post(url, body)`).
    let router = {
        let name = receiver_text.rsplit('.').next().unwrap_or("").trim().to_ascii_lowercase();
        name.contains("app") || name.contains("router") || matches!(name.as_str(), "server" | "api")
    };
    let path_setting = |a: &Node| {
        router
            && matches!(last.as_str(), "post" | "all")
            && matches!(a.kind(), "member_expression" | "identifier")
    };
    // Express's `app.route("/mcp").post(h).get(g)`: the path is the chain's, every
    // argument a handler.
    let on_route =
        matches!(last.as_str(), "post" | "all" | "put") && receiver_node.is_some_and(|r| routed(ctx, r));
    if receiver_node.is_some()
        && (on_route
            || (ROUTE_METHODS.contains(&last.as_str())
                && arg_nodes
                    .first()
                    .is_some_and(|a| route_path(a) || (arg_nodes.len() >= 2 && path_setting(a)))))
    {
        for a in &arg_nodes[usize::from(!on_route)..] {
            // `asyncHandler(async (req, res) => {..})`, `catchAsync(function (req, res) {..})`:
            // a wrapper around a handler written in place calls that handler.
            if a.kind() == "call_expression"
                && let Some(inner) = a.field("arguments").and_then(|args| {
                    children(args)
                        .into_iter()
                        .find(|x| matches!(x.kind(), "arrow_function" | "function_expression" | "function"))
                })
            {
                let name = callable_name(ctx, js, inner, facts);
                facts.http_handlers.push(name);
                continue;
            }
            // `createMcpHandler(opts)`: the function that factory returns.
            if a.kind() == "call_expression"
                && let Some(f) = a.field("function").filter(|f| f.kind() == "identifier")
            {
                facts.http_handlers.push(format!("{}{}", super::MADE_BY, ctx.text(f)));
                continue;
            }
            let name = callable_name(ctx, js, *a, facts);
            facts.http_handlers.push(name);
        }
        return Expr::unknown();
    }
    // `this.handlePing.bind(this)`: the same function (its `this` is the instance).
    if last == "bind"
        && arg_nodes.len() <= 1
        && let Some(f) = receiver_node.filter(|r| matches!(r.kind(), "member_expression" | "identifier"))
    {
        return expr(ctx, js, f, facts);
    }
    // `http.createServer(cb)`, `Deno.serve(cb)`, `Bun.serve({ fetch })`: the callback answers HTTP.
    // Not Node's socket servers (`net.createServer(cb)`, `tls.createServer(cb)`), whose
    // callback takes a connection.
    if frameworks::SERVER_CALLS.contains(&last.as_str())
        && !arg_nodes.is_empty()
        && !matches!(receiver_text.as_str(), "net" | "tls")
    {
        let args: Vec<Expr> = arg_nodes.iter().map(|a| expr(ctx, js, *a, facts)).collect();
        for a in &args {
            note_default_handler(a, facts);
        }
        return Expr::opaque(args);
    }
    // `req.on("end", () => ...)` on an HTTP request: the callback runs when the body is read.
    if matches!(last.as_str(), "on" | "once")
        && matches!(receiver_text.as_str(), "req" | "request")
        && let Some(cb) = arg_nodes.get(1)
    {
        let target = expr(ctx, js, *cb, facts);
        return Expr::Call {
            callee: "()".into(),
            receiver: Some(Box::new(target)),
            args: vec![Expr::unknown()],
            span,
        };
    }
    let peer = NOT_STDIN
        .contains(&receiver_text.rsplit('.').next().unwrap_or("").trim().to_ascii_lowercase().as_str());
    if last == "on" && first_str.as_deref().is_some_and(|e| STDIN_EVENTS.contains(&e)) && !peer {
        for a in &arg_nodes[1..] {
            let name = callable_name(ctx, js, *a, facts);
            js.stdin_callbacks.push(name);
        }
        return Expr::unknown();
    }
    // `await server.receive(body)` on a JSON-RPC library's server: the library's
    // dispatch by the methods registered on it (see [`frameworks::RPC_DISPATCH`]).
    if receiver_node.is_some()
        && let Some(&(_, decodes)) = frameworks::RPC_DISPATCH
            .iter()
            .filter(|(package, _)| facts.package_names.iter().any(|(_, p)| p == package))
            .find_map(|(_, calls)| calls.iter().find(|(name, _)| *name == last.as_str()))
        && let Some(request) = arg_nodes.first()
    {
        let request = expr(ctx, js, *request, facts);
        let request = if decodes { Expr::Message(vec![request]) } else { request };
        return crate::lower::rpc_library::dispatch(
            &receiver_text,
            request,
            1,
            crate::lower::rpc_library::Answer::Response,
            span,
        );
    }
    if receiver_node.is_some()
        && REGISTER_METHODS.contains(&last.as_str())
        && let (Some(method), Some(handler)) = (first_str.clone(), arg_nodes.get(1))
        && crate::model::is_mcp_method(&method)
    {
        let handler = callable_name(ctx, js, *handler, facts);
        facts.registrations.push(Registration { registry: receiver_text.clone(), method, handler, span });
        return Expr::unknown();
    }
    // `promise.then(cb)` calls `cb` with the promise's value; `.catch`/`.finally` only on failure paths.
    if let Some(recv) = receiver_node.filter(|_| matches!(last.as_str(), "then" | "catch" | "finally")) {
        let value = expr(ctx, js, recv, facts);
        let Some(cb) = arg_nodes.first().filter(|_| last == "then") else { return value };
        let target = expr(ctx, js, *cb, facts);
        return Expr::Call { callee: "()".into(), receiver: Some(Box::new(target)), args: vec![value], span };
    }
    // `context.run(store, () => dispatch(msg))` (Node's `AsyncLocalStorage`): the
    // function written last is called there, and the call gives what it returns.
    if receiver_node.is_some()
        && frameworks::CONTEXT_RUNNERS.contains(&last.as_str())
        && arg_nodes.len() >= 2
        && let Some(cb) =
            arg_nodes.last().filter(|a| matches!(a.kind(), "arrow_function" | "function_expression"))
    {
        for a in &arg_nodes[..arg_nodes.len() - 1] {
            let _ = expr(ctx, js, *a, facts);
        }
        let target = expr(ctx, js, *cb, facts);
        return Expr::Call { callee: "()".into(), receiver: Some(Box::new(target)), args: Vec::new(), span };
    }
    if super::serialises(Language::TypeScript, &callee)
        && let Some(first) = arg_nodes.first()
    {
        return super::serialised(expr(ctx, js, *first, facts), span);
    }
    if super::reads_body(Language::TypeScript, &callee) {
        return super::encoded_message(span);
    }
    if super::decodes_message(Language::TypeScript, &callee) {
        let args = arg_nodes.iter().map(|a| expr(ctx, js, *a, facts)).collect();
        return Expr::Message(args);
    }
    // Only a callee written as a name: an invoked function's text (`(async function
    // main() { .. console.error(e) .. })()`) holds any name its body calls.
    if matches!(func.kind(), "identifier" | "member_expression")
        && (callee.contains("console.error")
            || callee.contains("console.warn")
            || receiver_text.ends_with("stderr"))
    {
        return Expr::unknown();
    }
    let args: Vec<Expr> = arg_nodes.iter().map(|a| expr(ctx, js, *a, facts)).collect();
    match callee.as_str() {
        "Array.isArray" if args.len() == 1 => {
            return super::is_kind(args.into_iter().next().expect("one argument"), "list", span);
        }
        // `await Promise.all(list)`: the list's values, once each promise settles.
        "Promise.all" if args.len() == 1 => return args.into_iter().next().unwrap_or_else(Expr::unknown),
        // `Symbol("paused")`: a value equal only to itself (a sentinel a handler returns
        // to say it answered on its own); `Symbol.for("k")`, the same for the same key.
        "Symbol" => return Expr::Str(format!("{SYMBOL}{}:{}:{}", span.file, span.line, span.column)),
        "Symbol.for" if let Some(Expr::Str(key)) = args.first() => {
            return Expr::Str(format!("{SYMBOL}for:{key}"));
        }
        // `Boolean(x)`: the truthiness of `x`, as `!!x`.
        "Boolean" if args.len() == 1 => {
            let x = args.into_iter().next().unwrap_or_else(Expr::unknown);
            return Expr::Not(Box::new(Expr::Not(Box::new(x))));
        }
        c if c
            .strip_suffix(".json")
            .is_some_and(|class| frameworks::RESPONSE_CLASSES.contains(&unaliased(ctx, class))) =>
        {
            return fetch_response(args, span);
        }
        "Object.hasOwn" | "Object.prototype.hasOwnProperty.call" => {
            if let (Some(obj), Some(Expr::Str(key))) = (args.first(), args.get(1)) {
                return Expr::HasKey { object: Box::new(obj.clone()), key: key.clone() };
            }
        }
        // `console.log` writes to stdout.
        "console.log" | "console.info" => {
            return Expr::Call { callee: super::PRINT.into(), receiver: None, args, span };
        }
        c if super::writes_stdout(c) => {
            return Expr::Call { callee: super::PRINT.into(), receiver: None, args, span };
        }
        c if frameworks::PROCESS_EXITS.contains(&c) => return super::exit(None, span),
        _ => {}
    }
    if crate::lower::SDK_SERVER_CALLS.contains(&last.as_str()) && ctx.sdk_server.is_none() {
        ctx.sdk_server = Some(span);
    }
    if last == "require"
        && let Some(module) = &first_str
    {
        note_import(ctx, js, module, span, facts);
    }
    // Express, Fastify and Hono answers: `res.status(202).end()`, `res.json(x)`, `c.json(x, 200)`.
    if let Some(h) = http_answer(ctx, js, func, &last, &receiver_text, &args, span, facts) {
        return h;
    }
    let receiver = match receiver_node {
        Some(r) if matches!(ctx.text(r), "this" | "super") => None,
        Some(r) => Some(expr(ctx, js, r, facts)),
        _ => None,
    };
    if !matches!(func.kind(), "identifier" | "member_expression") {
        // `handlers[method]?.(params)`: call whatever the expression yields.
        let target = expr(ctx, js, func, facts);
        return Expr::Call { callee: "()".into(), receiver: Some(Box::new(target)), args, span };
    }
    if receiver.is_none() && ctx.own_names.contains(&callee) {
        return Expr::Call { callee, receiver: None, args, span };
    }
    // `server.events.on("message", reply => ...)`: a listener that an `emit` of that
    // event on the same emitter calls (the call is kept: the handler is also handed on).
    if matches!(last.as_str(), "on" | "once" | "addListener" | "prependListener")
        && let Some(event) = &first_str
        && let Some(Expr::FnRef(handler) | Expr::Var(handler)) = args.get(1)
        && !receiver_text.is_empty()
    {
        facts.listeners.push(crate::model::Listener {
            emitter: receiver_text.clone(),
            event: event.clone(),
            handler: handler.clone(),
            span,
        });
    }
    call(callee, receiver, args, Vec::new(), span)
}

/// A response member written: Node's `res.statusCode = 204`, Koa's `ctx.status = 202`
/// and `ctx.body = reply`, as an emitted HTTP answer (a status or a body, the other
/// to come).
fn http_member_write(target: &str, value: &Expr, span: Span) -> Option<Expr> {
    let (object, member) = target.rsplit_once('.')?;
    let status = frameworks::STATUS_MEMBERS
        .iter()
        .any(|(o, m)| *m == member && RESPONSE_OBJECTS.contains(&object) && (o.is_empty() || *o == object));
    let body = frameworks::BODY_MEMBERS.iter().any(|(o, m)| *o == object && *m == member);
    let http = match value {
        Expr::Int(n) if status => Expr::Http { status: u16::try_from(*n).ok(), body: None, span },
        _ if status => Expr::HttpWith {
            status: Box::new(value.clone()),
            body: Box::new(Expr::Null),
            null_is_empty: true,
            span,
        },
        _ if body => Expr::Http { status: None, body: Some(Box::new(value.clone())), span },
        _ => return None,
    };
    Some(Expr::Call { callee: super::EMIT.into(), receiver: None, args: vec![http], span })
}

/// A response written by an Express/Fastify/Hono call, as an emitted HTTP answer.
#[allow(clippy::too_many_arguments)]
fn http_answer(
    ctx: &mut Ctx,
    js: &mut Js,
    func: Node,
    last: &str,
    receiver_text: &str,
    args: &[Expr],
    span: Span,
    facts: &mut FileFacts,
) -> Option<Expr> {
    // (A chain written over several lines, `res\n  .status(400)\n  .json(x)`, has the
    // line break before its first dot.)
    let root = receiver_text.split(['.', '(']).next().unwrap_or("").trim_end();
    if !RESPONSE_OBJECTS.contains(&root) {
        return None;
    }
    // `response.json()`, `response.text()` with nothing to send: the Fetch API's
    // reads of a response received (`const response = await fetch(url)`), not a write.
    if matches!(last, "json" | "text") && args.is_empty() {
        return None;
    }
    // A chained status: `res.status(202).send()` / `reply.code(202).send()`, and
    // node:http's `res.writeHead(202).end()` (writeHead returns the response).
    // Header setters between return the response (`res.status(401).set(h, v).json(x)`).
    let mut chained = func.field("object").filter(|o| o.kind() == "call_expression");
    while let Some(c) = chained
        && let Some(f) = c.field("function")
        && f.field("property").is_some_and(|p| frameworks::CHAINED_SETTERS.contains(&ctx.text(p)))
    {
        chained = f.field("object").filter(|o| o.kind() == "call_expression");
    }
    let chained_status = chained.and_then(|c| {
        let f = c.field("function")?;
        let name = f.field("property").map(|p| ctx.text(p))?;
        if !frameworks::STATUS_SETTERS.contains(&name) && name != "writeHead" {
            return None;
        }
        let a = c.field("arguments").and_then(|a| a.named_child(0))?;
        Some(expr(ctx, js, a, facts))
    });
    // The status may be a variable or a helper's parameter: it is evaluated.
    let (status, body) = if frameworks::BODY_SENDERS.contains(&last) {
        (chained_status.or_else(|| args.get(1).cloned()), args.first().cloned())
    } else if frameworks::STATUS_SENDERS.contains(&last) {
        (args.first().cloned(), None)
    } else if frameworks::STATUS_SETTERS.contains(&last)
        && func.parent().and_then(|call| call.parent()).is_none_or(|p| p.kind() != "member_expression")
    {
        // A status set alone (`reply.code(202)` before the handler returns nothing,
        // `res.status(202)` before `res.end()`): the answer's status, its body to come.
        (args.first().cloned(), None)
    } else {
        return None;
    };
    // `res.end()` / `res.send(null)` send nothing; `res.json(null)` sends `null`.
    let body = body.filter(|b| !matches!(b, Expr::Null) || last == "json");
    let http = match status {
        Some(Expr::Int(n)) => Expr::Http { status: u16::try_from(n).ok(), body: body.map(Box::new), span },
        Some(status) => Expr::HttpWith {
            status: Box::new(status),
            body: Box::new(body.unwrap_or(Expr::Null)),
            null_is_empty: last != "json",
            span,
        },
        None => Expr::Http { status: js.default_status, body: body.map(Box::new), span },
    };
    Some(Expr::Call { callee: super::EMIT.into(), receiver: None, args: vec![http], span })
}

fn new_expression(ctx: &mut Ctx, js: &mut Js, node: Node, facts: &mut FileFacts) -> Expr {
    let span = ctx.span(node);
    let ctor = node.field("constructor").map(|c| ctx.text(c).to_string()).unwrap_or_default();
    let ctor = super::renamed_class(ctx, &ctor).map(str::to_string).unwrap_or(ctor);
    let arg_nodes: Vec<Node> = node.field("arguments").map(children).unwrap_or_default();
    if crate::lower::SDK_SERVER_CALLS.contains(&super::last_segment(&ctor)) && ctx.sdk_server.is_none() {
        ctx.sdk_server = Some(span);
    }
    if super::last_segment(&ctor) == frameworks::READABLE_STREAM
        && let Some(chunks) = stream_chunks(ctx, js, arg_nodes.first().copied(), facts)
    {
        return chunks;
    }
    let args: Vec<Expr> = arg_nodes.iter().map(|a| expr(ctx, js, *a, facts)).collect();
    // `new McpError(ErrorCode.MethodNotFound, msg)`: the SDK's error, whose members are
    // its arguments (a `catch` reads `error.code`; `error instanceof McpError` holds).
    if let Some(class) = sdk_type(ctx, &ctor)
        && let Some((_, members)) = frameworks::SDK_ERROR_CLASSES.iter().find(|(c, _)| *c == class)
    {
        let entries = members.iter().map(|m| m.to_string()).zip(args).collect();
        return super::exception(ctor, Some(Expr::Object { entries, span }), span);
    }
    // A class the code declares or imports from its own modules is built, whatever
    // its name (`new HttpResponse(202, "")` of its own web layer).
    if ctx.own_names.contains(&ctor) {
        return Expr::Call { callee: ctor, receiver: None, args, span };
    }
    match unaliased(ctx, super::last_segment(&ctor)) {
        // `new Response(null, { status: 202 })` (fetch API, Next.js).
        c if frameworks::RESPONSE_CLASSES.contains(&c) => fetch_response(args, span),
        // `new HttpResponse({ status: 202 })` of Azure Functions.
        c if js.function_app && c == frameworks::FUNCTION_APP_RESPONSE_CLASS && args.len() <= 1 => {
            match args.into_iter().next() {
                Some(init) => function_app_answer(init, span),
                None => crate::lower::http_answer(Expr::Int(200), Expr::Str(String::new()), span),
            }
        }
        // `new Map([["tools/list", onList], ...])` is a handler table.
        "Map" => {
            let mut entries = Vec::new();
            if let Some(Expr::Array { items, .. }) = args.first() {
                for item in items {
                    if let Expr::Array { items: pair, .. } = item
                        && let [Expr::Str(k), v] = pair.as_slice()
                    {
                        entries.push((k.clone(), v.clone()));
                    }
                }
            }
            Expr::Object { entries, span }
        }
        _ => call(ctor, None, args, Vec::new(), span),
    }
}

/// What a web stream built with a `start` method holds (`new ReadableStream({
/// start(controller) { controller.enqueue(encoder.encode(`data: ${json}\n\n`)) } })`,
/// a reply sent as a Response's body): the chunks its `start` enqueues, read where
/// the stream is made. None when the stream has no `start` written in place.
fn stream_chunks(ctx: &mut Ctx, js: &mut Js, source: Option<Node>, facts: &mut FileFacts) -> Option<Expr> {
    let source = source.filter(|s| s.kind() == "object")?;
    let start = children(source).into_iter().find_map(|member| match member.kind() {
        "method_definition" if member.field("name").is_some_and(|n| ctx.text(n) == "start") => Some(member),
        "pair" if member.field("key").is_some_and(|k| ctx.text(k) == "start") => {
            member.field("value").filter(|v| matches!(v.kind(), "arrow_function" | "function_expression"))
        }
        _ => None,
    })?;
    written_chunks(ctx, js, start, &["enqueue"], facts)
}

/// What a streaming callback writes on the stream it is handed (`stream.writeSSE({
/// data })`, `stream.write(text)`), lowered where the callback is written: the chunks,
/// as one value that holds them.
fn stream_writes(ctx: &mut Ctx, js: &mut Js, callback: Node, facts: &mut FileFacts) -> Option<Expr> {
    if !matches!(callback.kind(), "arrow_function" | "function_expression" | "function") {
        return None;
    }
    written_chunks(ctx, js, callback, frameworks::STREAM_WRITES, facts)
}

/// The chunks a function hands to `methods` of its first parameter (a stream's
/// controller, a stream): each call's first argument, or the `data` of an event
/// object (`writeSSE({ event, data })`), lowered where the function is written, as
/// one value that holds them.
fn written_chunks(
    ctx: &mut Ctx,
    js: &mut Js,
    function: Node,
    methods: &[&str],
    facts: &mut FileFacts,
) -> Option<Expr> {
    let sink = function
        .field("parameters")
        .and_then(|p| children(p).into_iter().next())
        .or_else(|| function.field("parameter"))
        .map(|p| ctx.text(p.field("pattern").unwrap_or(p)).to_string())?;
    let body = function.field("body")?;
    let mut written = Vec::new();
    super::walk_tree(body, |n| {
        if n.kind() == "call_expression"
            && let Some(f) = n.field("function").filter(|f| f.kind() == "member_expression")
            && f.field("object").is_some_and(|o| ctx.text(o) == sink)
            && let Some(method) = f.field("property").map(|p| ctx.text(p)).filter(|m| methods.contains(m))
        {
            let arg = n.field("arguments").and_then(|a| a.named_child(0));
            let chunk = match (method, arg) {
                ("writeSSE", Some(object)) if object.kind() == "object" => children(object)
                    .into_iter()
                    .filter(|p| p.kind() == "pair")
                    .find(|p| p.field("key").is_some_and(|k| ctx.text(k) == "data"))
                    .and_then(|p| p.field("value")),
                (_, arg) => arg,
            };
            written.extend(chunk.map(|c| c.byte_range()));
            return super::Walk::Skip;
        }
        super::Walk::Descend
    });
    let chunks = written
        .into_iter()
        .filter_map(|r| body.named_descendant_for_byte_range(r.start, r.end))
        .map(|c| expr(ctx, js, c, facts))
        .collect();
    Some(Expr::opaque(chunks))
}

/// `new Response(body, { status })` and `Response.json(body, { status })`; the status
/// may be a variable (`{ status }`), evaluated where the response is built, or come
/// with options passed along (`{ ...init, headers }`, `init`): read from them there.
fn fetch_response(args: Vec<Expr>, span: Span) -> Expr {
    // Options without a status answer 200.
    let read_status = |options: &Expr| {
        let status = Expr::Lookup {
            collection: Box::new(options.clone()),
            key: Box::new(Expr::Str("status".to_string())),
        };
        Expr::Or(Box::new(status), Box::new(Expr::Int(200)))
    };
    let status = match args.get(1) {
        Some(options @ Expr::Object { entries, .. }) => {
            entries.iter().find(|(k, _)| k == "status").map(|(_, v)| v.clone()).or_else(|| {
                entries.iter().any(|(k, _)| k == crate::model::SPREAD).then(|| read_status(options))
            })
        }
        Some(options @ Expr::Var(_)) => Some(read_status(options)),
        _ => None,
    };
    let body = args.into_iter().next().unwrap_or(Expr::Null);
    match status {
        Some(Expr::Int(n)) => Expr::Http {
            status: u16::try_from(n).ok(),
            body: Some(body).filter(|b| !matches!(b, Expr::Null)).map(Box::new),
            span,
        },
        Some(status) => {
            Expr::HttpWith { status: Box::new(status), body: Box::new(body), null_is_empty: true, span }
        }
        None => Expr::Http {
            status: None,
            body: Some(body).filter(|b| !matches!(b, Expr::Null)).map(Box::new),
            span,
        },
    }
}
