//! PHP (`tree-sitter-php`, with or without HTML around the code) to facts.

pub(super) mod frameworks;

use super::{Ctx, call, field, is_initialized_flag, message_field, object, unquote};
use crate::model::{Arm, Block, Expr, FileFacts, Language, Pattern, Registration, SdkImport, Stmt};
use crate::parse::Fields;
use tree_sitter::Node;

pub fn lower_file(ctx: &mut Ctx, root: Node, facts: &mut FileFacts) {
    // Functions the file declares (PHP hoists them): its own `response($id, $result)`
    // is not Laravel's `response()` helper.
    let mut stack = vec![root];
    while let Some(n) = stack.pop() {
        for c in children(n) {
            match c.kind() {
                "function_definition" => {
                    if let Some(name) = c.field("name") {
                        ctx.own_names.push(ctx.text(name).to_string());
                    }
                }
                "namespace_definition" | "compound_statement" | "program" | "text_interpolation" => {
                    stack.push(c)
                }
                _ => {}
            }
        }
    }
    let mut body = Vec::new();
    statements(ctx, root, facts, None, &mut body);
    if serves_empty_bodies(ctx, root) {
        // A `rest_pre_serve_request` filter sends a null body as nothing at all.
        for f in &mut facts.functions {
            f.body.iter_mut().for_each(empty_null_bodies);
        }
        body.iter_mut().for_each(empty_null_bodies);
    }
    super::push_module(ctx, facts, root, body);
}

fn children<'t>(node: Node<'t>) -> Vec<Node<'t>> {
    let mut cursor = node.walk();
    node.named_children(&mut cursor).filter(|c| c.kind() != "comment").collect()
}

/// The name of a `$variable`, without the dollar sign.
fn var_name(ctx: &Ctx, node: Node) -> String {
    ctx.text(node).trim_start_matches('$').to_string()
}

fn statements(ctx: &mut Ctx, node: Node, facts: &mut FileFacts, owner: Option<&str>, out: &mut Block) {
    if !ctx.enter() {
        return;
    }
    for child in children(node) {
        statement(ctx, child, facts, owner, out);
    }
    ctx.leave();
}

fn body(ctx: &mut Ctx, node: Option<Node>, facts: &mut FileFacts, owner: Option<&str>) -> Block {
    let mut out = Vec::new();
    match node {
        Some(n) if matches!(n.kind(), "compound_statement" | "colon_block") => {
            statements(ctx, n, facts, owner, &mut out)
        }
        Some(n) => statement(ctx, n, facts, owner, &mut out),
        None => {}
    }
    out
}

fn statement(ctx: &mut Ctx, node: Node, facts: &mut FileFacts, owner: Option<&str>, out: &mut Block) {
    let span = ctx.span(node);
    match node.kind() {
        "function_definition" => {
            let name = node.field("name").map(|n| ctx.text(n).to_string()).unwrap_or_default();
            function(ctx, node, facts, name, None);
        }
        "class_declaration" | "trait_declaration" => {
            let name = node.field("name").map(|n| ctx.text(n).to_string());
            if let Some(class) = &name {
                class_def(ctx, node, class, facts);
                configured_constructor(ctx, node, class, facts);
                ctx.own_names.push(class.clone());
            }
            let members = stdin_members(ctx, node);
            let outer_stdin = std::mem::replace(&mut ctx.stdin_members, members);
            if let Some(decls) = node.field("body") {
                for d in children(decls) {
                    match d.kind() {
                        "method_declaration" => {
                            let m = d.field("name").map(|n| ctx.text(n).to_string()).unwrap_or_default();
                            function(ctx, d, facts, m, name.as_deref());
                        }
                        "const_declaration" => {
                            for c in children(d).into_iter().filter(|c| c.kind() == "const_element") {
                                let kids = children(c);
                                if let (Some(n), Some(v)) = (kids.first(), kids.get(1)) {
                                    let value = expr(ctx, *v, facts);
                                    // `self::NAME` inside the class, `Class::NAME` anywhere.
                                    if let Some(class) = &name {
                                        out.push(Stmt::Assign {
                                            target: format!("{class}.{}", ctx.text(*n)),
                                            value: value.clone(),
                                            span,
                                        });
                                    }
                                    out.push(Stmt::Assign {
                                        target: format!("self.{}", ctx.text(*n)),
                                        value,
                                        span,
                                    });
                                }
                            }
                        }
                        _ => {}
                    }
                }
            }
            ctx.stdin_members = outer_stdin;
        }
        // `enum Method: string { case PING = 'ping'; }`: each case a class constant,
        // and the values together for `Method::tryFrom($name)`.
        "enum_declaration" => {
            let name = node.field("name").map(|n| ctx.text(n).to_string()).unwrap_or_default();
            ctx.own_names.push(name.clone());
            let mut values = Vec::new();
            for case in node.field("body").map(children).unwrap_or_default() {
                match case.kind() {
                    "enum_case" => {
                        let (Some(n), Some(v)) = (case.field("name"), case.field("value")) else {
                            continue;
                        };
                        let value = expr(ctx, v, facts);
                        values.push(value.clone());
                        out.push(Stmt::Assign { target: format!("{name}.{}", ctx.text(n)), value, span });
                    }
                    "method_declaration" => {
                        let m = case.field("name").map(|n| ctx.text(n).to_string()).unwrap_or_default();
                        function(ctx, case, facts, m, Some(&name));
                    }
                    _ => {}
                }
            }
            out.push(Stmt::Assign {
                target: format!("{name}.{}", super::ENUM_VALUES),
                value: Expr::Array { items: values, span },
                span,
            });
        }
        "namespace_definition" => {
            let name = node.field("name").map(|n| ctx.text(n).to_string()).unwrap_or_default();
            if let Some(sdk) = ctx.sdk(Language::Php, &name) {
                // The SDK's own code, vendored into the repository.
                facts.sdk_library = Some(sdk);
            }
            if let Some(b) = node.field("body") {
                statements(ctx, b, facts, owner, out);
            }
        }
        // `global $SESSION;` inside a function: the name is state that code may change.
        "global_declaration" => {
            for v in children(node) {
                facts.state.push(var_name(ctx, v));
            }
        }
        "namespace_use_declaration" => {
            let text = ctx.text(node).trim_start_matches("use").trim();
            if let Some(sdk) = ctx.sdk(Language::Php, text) {
                facts.sdk_imports.push(SdkImport { sdk, span });
            }
            let path = text.trim_start_matches('\\');
            let hint = super::import_hint(Language::Php, path);
            // PSR-4 roots are most often a vendor and a package (`Vendor\Package\` =>
            // `src/`): the rest after both is the end of the class's path too.
            let deeper = hint
                .as_deref()
                .and_then(|h| h.split_once('/'))
                .map(|(_, rest)| rest.to_string())
                .filter(|rest| rest.contains('/'));
            facts.imports.extend(hint);
            facts.imports.extend(deeper);
            let local = text.rsplit(['\\', ' ']).next().unwrap_or("").trim_end_matches(';');
            if frameworks::STATUS_FIRST_NAMESPACES.iter().any(|n| path.starts_with(n)) {
                ctx.status_first.push(local.to_string());
            }
            // `use React\Http\Message\Response as ReactResponse;`: the local name stands
            // for the class.
            if let Some((class, _)) = path.split_once(" as ")
                && !path.contains(['{', ','])
            {
                let own = php_class(class.trim());
                ctx.aliases.push((local.to_string(), own));
            }
            if let Some((_, hook)) = frameworks::CONFIGURED_BASES.iter().find(|(n, _)| path.starts_with(n)) {
                ctx.configured_bases.push((local.to_string(), hook));
            }
            if frameworks::REQUEST_IMPORTS.iter().any(|i| path.starts_with(i)) {
                ctx.request_types.push(local.to_string());
            }
            // `use App\Message\Response;`: the code's own `Response`, not an HTTP one.
            if !path.contains(['{', ','])
                && !frameworks::RESPONSE_NAMESPACES.iter().any(|n| path.starts_with(n))
            {
                ctx.own_names.push(local.to_string());
            }
        }
        // `const TOOLS = [...];` outside a class: a constant every function sees.
        "const_declaration" => {
            for c in children(node).into_iter().filter(|c| c.kind() == "const_element") {
                let kids = children(c);
                if let (Some(n), Some(v)) = (kids.first(), kids.get(1)) {
                    let value = expr(ctx, *v, facts);
                    out.push(Stmt::Assign { target: ctx.text(*n).to_string(), value, span });
                }
            }
        }
        "expression_statement" => {
            if let Some(e) = node.named_child(0) {
                // `define('TOOLS', [...]);`: the same constant, defined by a call.
                if e.kind() == "function_call_expression"
                    && e.field("function").is_some_and(|f| ctx.text(f).eq_ignore_ascii_case("define"))
                    && let [Expr::Str(name), value, ..] =
                        arguments(ctx, e.field("arguments"), facts).as_slice()
                {
                    out.push(Stmt::Assign { target: name.clone(), value: value.clone(), span });
                    return;
                }
                expression_statement(ctx, e, facts, out);
            }
        }
        "return_statement" => {
            let value = node.named_child(0).map(|v| expr(ctx, v, facts));
            out.push(Stmt::Return { value, span });
        }
        // `exit;` / `exit("text")` ends the request, wherever it is called from: the
        // answer so far (and a string argument, printed) is the answer.
        "exit_statement" => {
            let arg = node.named_child(0).map(|a| expr(ctx, a, facts));
            out.push(Stmt::Expr(exit_with(arg, span)));
        }
        "echo_statement" => {
            let args = children(node).into_iter().map(|a| expr(ctx, a, facts)).collect();
            out.push(Stmt::Expr(Expr::Call { callee: super::EMIT.into(), receiver: None, args, span }));
        }
        "if_statement" => out.push(Stmt::Expr(if_statement(ctx, node, facts, owner))),
        "switch_statement" => out.push(Stmt::Expr(switch(ctx, node, facts, owner))),
        // `foreach ($replies as $reply)` / `foreach ($map as $key => $value)`.
        "foreach_statement" => {
            let kids = children(node);
            let iterable = kids.first().map(|i| expr(ctx, *i, facts)).unwrap_or_else(Expr::unknown);
            let targets = match kids.get(1) {
                Some(pair) if pair.kind() == "pair" => {
                    children(*pair).last().map(|v| vec![target_name(ctx, *v)]).unwrap_or_default()
                }
                Some(v) => vec![target_name(ctx, *v)],
                None => Vec::new(),
            };
            let b = body(ctx, node.field("body"), facts, owner);
            out.push(Stmt::Expr(Expr::ForEach { targets, iterable: Box::new(iterable), body: b }));
        }
        "while_statement" | "for_statement" | "do_statement" => {
            let mut b = Vec::new();
            if let Some(first) = node.named_child(0).filter(|c| c.kind() != "compound_statement") {
                b.push(Stmt::Expr(expr(ctx, first, facts)));
            }
            b.extend(body(ctx, node.field("body"), facts, owner));
            out.push(Stmt::Expr(Expr::Loop { body: b }));
        }
        "try_statement" => {
            let b = body(ctx, node.field("body"), facts, owner);
            let clauses: Vec<super::CatchClause> = children(node)
                .into_iter()
                .filter(|c| c.kind() == "catch_clause")
                .map(|c| {
                    // `catch (JsonException | ValueError $e)`: the classes by their last
                    // segment; `Throwable` catches everything.
                    let mut classes: Vec<String> = c
                        .field("type")
                        .map(|t| {
                            let names = if t.kind() == "type_list" { children(t) } else { vec![t] };
                            names.into_iter().map(|n| php_class(ctx.text(n))).collect()
                        })
                        .unwrap_or_default();
                    if classes.iter().any(|n| n == "Throwable") {
                        classes.clear();
                    }
                    super::CatchClause {
                        classes,
                        binding: c.field("name").map(|n| var_name(ctx, n)),
                        body: body(ctx, c.field("body"), facts, owner),
                        span: ctx.span(c),
                    }
                })
                .collect();
            let (binding, handler) = super::catch_chain(clauses);
            out.push(Stmt::Expr(Expr::Try { body: b, handler, binding }));
            if let Some(fin) = children(node).into_iter().find(|c| c.kind() == "finally_clause") {
                out.extend(body(ctx, fin.field("body"), facts, owner));
            }
        }
        "compound_statement" => statements(ctx, node, facts, owner, out),
        "break_statement" | "continue_statement" => out.push(Stmt::LeaveLoop),
        _ => {}
    }
}

/// A class name as written (`\\InvalidArgumentException`, `App\\Errors\\Failed`): its
/// last segment.
fn php_class(text: &str) -> String {
    text.trim_start_matches('\\').rsplit('\\').next().unwrap_or(text).to_string()
}

/// What `throw` throws: one of PHP's own exceptions (`throw new
/// \\InvalidArgumentException($m)`) is an instance of that class, for the `catch`
/// clauses to match.
fn thrown(ctx: &mut Ctx, node: Node, facts: &mut FileFacts) -> Expr {
    let class = (node.kind() == "object_creation_expression")
        .then(|| children(node).into_iter().find(|c| matches!(c.kind(), "name" | "qualified_name")))
        .flatten()
        .map(|c| php_class(ctx.text(c)));
    match class.filter(|c| super::exception_base(Language::Php, c).is_some()) {
        Some(c) => super::exception(c, None, ctx.span(node)),
        None => expr(ctx, node, facts),
    }
}

/// The file a `require`/`include` loads, as an import hint: the last string literal
/// of its path expression (`__DIR__ . '/../src/Handler.php'`) without the leading
/// `./`, `../` and `/` and without `.php` (`src/Handler`).
fn required_file(ctx: &Ctx, node: Node) -> Option<String> {
    let mut last = None;
    let mut stack = vec![node];
    while let Some(n) = stack.pop() {
        if matches!(n.kind(), "string" | "encapsed_string") {
            if last.is_none_or(|l: Node| n.start_byte() > l.start_byte()) {
                last = Some(n);
            }
            continue;
        }
        stack.extend(children(n));
    }
    let text = unquote(ctx.text(last?));
    let mut rest = text.as_str();
    loop {
        let trimmed = rest.trim_start_matches('/').trim_start_matches("./").trim_start_matches("../");
        if trimmed.len() == rest.len() {
            break;
        }
        rest = trimmed;
    }
    let hint = rest.strip_suffix(".php")?;
    (!hint.is_empty()).then(|| hint.to_string())
}

/// `InitializeHandler::class`: the class's name, as a string (not for `self::class`,
/// `static::class`, whose class is the caller's).
fn class_name_constant(ctx: &Ctx, node: Node) -> Option<String> {
    let kids = children(node);
    let (class, member) = (kids.first()?, kids.last()?);
    let class = ctx.text(*class).trim_start_matches('\\');
    (ctx.text(*member) == "class" && !matches!(class, "self" | "static" | "parent") && !class.is_empty())
        .then(|| super::last_segment(&class.replace('\\', ".")).to_string())
}

/// Whether a parameter's declared type excludes null (`string $id`, `Request $r`):
/// not nullable (`?string`), not a union with `null`, not `mixed`, and not variadic.
fn excludes_null(ctx: &Ctx, param: Node) -> bool {
    if param.kind() != "simple_parameter" {
        return false;
    }
    let Some(ty) = param.field("type") else { return false };
    let text = ctx.text(ty).to_ascii_lowercase();
    !(text.starts_with('?') || text.contains("null") || text.contains("mixed") || text.contains('|'))
}

fn function(ctx: &mut Ctx, node: Node, facts: &mut FileFacts, name: String, owner: Option<&str>) {
    let mut params = super::Params::default();
    let http_route = mounted_by_attribute(ctx, node);
    // A parameter typed as a framework's HTTP request makes a public method (or a
    // function) a handler, mounted where the scan may not see; a private or protected
    // method is one by its signature only: the handler calling it
    // (`$this->handleMessage($msg, $request)`) is where requests arrive.
    let hidden = children(node)
        .iter()
        .any(|c| c.kind() == "visibility_modifier" && matches!(ctx.text(*c), "private" | "protected"));
    let mut signature = false;
    let mut request_params = Vec::new();
    let mut response_params = Vec::new();
    // `public function __construct(private int $code, ..)`: each promoted parameter is
    // assigned to its property before the body runs.
    let mut promoted = Vec::new();
    for p in node.field("parameters").map(children).unwrap_or_default() {
        if p.kind() == "property_promotion_parameter"
            && let Some(n) = p.field("name")
        {
            promoted.push(var_name(ctx, n));
        }
        let ty = p.field("type").map(|t| ctx.text(t).trim_start_matches('?')).unwrap_or("");
        let ty = ty.rsplit('\\').next().unwrap_or(ty);
        let request = frameworks::REQUEST_TYPES.contains(&ty) || ctx.request_types.iter().any(|r| r == ty);
        signature |= request;
        let class = ctx.aliases.iter().find(|(local, _)| local == ty).map_or(ty, |(_, own)| own.as_str());
        let response = frameworks::RESPONSE_PARAM_TYPES.contains(&class);
        let Some(name) = p.field("name").map(|n| var_name(ctx, n)) else { continue };
        if request {
            request_params.push(name.clone());
        } else if response {
            response_params.push(name.clone());
        } else if ty.starts_with(|c: char| c.is_ascii_uppercase()) && !ty.contains(['|', '&']) {
            params.types.push((name.clone(), ty.to_string()));
        }
        if let Some(default) = p.field("default_value") {
            params.defaults.push((name.clone(), expr(ctx, default, facts)));
        } else if excludes_null(ctx, p) {
            params.non_null.push(name.clone());
        }
        // PHP passes arrays by value: an element written on a parameter not taken by
        // reference is the callee's own copy.
        if p.kind() == "simple_parameter" && !children(p).iter().any(|c| c.kind() == "reference_modifier") {
            params.copied.push(name.clone());
        }
        params.names.push(name);
    }
    let b = node.field("body");
    let outer_http = std::mem::take(&mut ctx.saw_http);
    super::push_function(
        ctx,
        facts,
        node,
        name,
        owner,
        params,
        match (http_route, signature, hidden) {
            (true, _, _) | (false, true, false) => super::Http::Route,
            (false, true, true) => super::Http::Signature,
            (false, false, _) => super::Http::No,
        },
        |ctx, facts| {
            let outer = std::mem::replace(&mut ctx.request_params, request_params);
            let outer_writers = std::mem::replace(&mut ctx.http_writers, response_params.clone());
            // The response a PSR-7 handler is handed: the framework's 200 with an empty
            // body until the handler changes it. A private or protected method handed one
            // (`withCors(Response $response)`) is a helper: its caller's response, as passed.
            let span = ctx.span(node);
            let fresh = if hidden { &[][..] } else { response_params.as_slice() };
            let mut lowered: Block = fresh
                .iter()
                .map(|p| Stmt::Assign {
                    target: p.clone(),
                    value: Expr::Http { status: None, body: None, span },
                    span,
                })
                .chain(promoted.iter().map(|p| Stmt::Assign {
                    target: format!("self.{p}"),
                    value: Expr::Var(p.clone()),
                    span,
                }))
                .collect();
            lowered.extend(match b {
                Some(b) if b.kind() == "compound_statement" => body(ctx, Some(b), facts, owner),
                // An arrow function's expression body is its return value.
                Some(b) => vec![Stmt::Return { value: Some(expr(ctx, b, facts)), span: ctx.span(b) }],
                None => Vec::new(),
            });
            ctx.request_params = outer;
            ctx.http_writers = outer_writers;
            lowered
        },
    );
    // Reading `php://input` makes the function an HTTP entry.
    if std::mem::replace(&mut ctx.saw_http, outer_http)
        && let Some(f) = facts.functions.last_mut()
    {
        f.http_route = true;
    }
}

/// Members a class assigns standard input to (`$this->input = $input ?? STDIN;`,
/// `$this->in = fopen('php://stdin', 'r');`), anywhere in its body.
fn stdin_members(ctx: &Ctx, class: Node) -> Vec<String> {
    let mut assignments = Vec::new();
    let mut stack = vec![class];
    while let Some(n) = stack.pop() {
        if n.kind() == "assignment_expression"
            && let (Some(left), Some(right)) = (n.field("left"), n.field("right"))
        {
            assignments.push((ctx.text(left), ctx.text(right)));
        }
        stack.extend(children(n));
    }
    let stdin = |text: &str| text.contains("STDIN") || text.contains("php://stdin");
    // `$stdin = fopen('php://stdin', 'r'); ... $this->stdin = $stdin;`: through a local.
    let locals: Vec<&str> = assignments
        .iter()
        .filter(|(left, right)| left.starts_with('$') && !left.starts_with("$this->") && stdin(right))
        .map(|(left, _)| *left)
        .collect();
    assignments
        .iter()
        .filter(|(_, right)| stdin(right) || locals.contains(&right.trim()))
        .filter_map(|(left, _)| left.strip_prefix("$this->"))
        .map(str::to_string)
        .collect()
}

/// A class's parent and its properties in order, with their defaults: declared ones
/// (`private string $version = '2025-06-18';`) and constructor-promoted ones.
fn class_def(ctx: &mut Ctx, node: Node, name: &str, facts: &mut FileFacts) {
    // The parent first, then the interfaces it implements.
    let mut clauses = children(node);
    clauses.retain(|c| matches!(c.kind(), "base_clause" | "class_interface_clause"));
    clauses.sort_by_key(|c| c.kind() != "base_clause");
    let bases = clauses
        .into_iter()
        .flat_map(children)
        .filter(|b| matches!(b.kind(), "name" | "qualified_name"))
        .map(|b| php_class(ctx.text(b)))
        .collect();
    let mut fields = Vec::new();
    for d in node.field("body").map(children).unwrap_or_default() {
        match d.kind() {
            "property_declaration" => {
                for el in children(d).into_iter().filter(|c| c.kind() == "property_element") {
                    let kids = children(el);
                    let Some(var) = kids.first() else { continue };
                    let default = el.field("default_value").or_else(|| kids.get(1).copied());
                    let default =
                        default.filter(|v| v.kind() != "variable_name").map(|v| expr(ctx, v, facts));
                    fields.push((var_name(ctx, *var), default));
                    if let Some(class) = declared_type(ctx, d) {
                        facts.field_types.push((name.to_string(), var_name(ctx, *var), class));
                    }
                }
            }
            "method_declaration" if d.field("name").is_some_and(|n| ctx.text(n) == "__construct") => {
                for p in d.field("parameters").map(children).unwrap_or_default() {
                    if p.kind() == "property_promotion_parameter"
                        && let Some(n) = p.field("name")
                    {
                        fields.push((var_name(ctx, n), None));
                        if let Some(class) = declared_type(ctx, p) {
                            facts.field_types.push((name.to_string(), var_name(ctx, n), class));
                        }
                    }
                }
            }
            _ => {}
        }
    }
    facts.classes.push(crate::model::ClassDef {
        name: name.to_string(),
        bases,
        fields,
        span: ctx.span(node),
    });
}

/// The constructor a class without one of its own inherits from a framework base that
/// configures objects (see `CONFIGURED_BASES`): each declared property the config
/// array names is set from it, then the hook runs (`init()`), as
/// `new Server(['transport' => 'stdio'])` does in Yii.
fn configured_constructor(ctx: &mut Ctx, node: Node, class: &str, facts: &mut FileFacts) {
    let base = children(node)
        .into_iter()
        .filter(|c| c.kind() == "base_clause")
        .flat_map(children)
        .find(|b| matches!(b.kind(), "name" | "qualified_name"))
        .map(|b| ctx.text(b).trim_start_matches('\\').to_string());
    let Some(base) = base else { return };
    let hook = frameworks::CONFIGURED_BASES
        .iter()
        .find(|(namespace, _)| base.starts_with(namespace))
        .map(|(_, hook)| *hook)
        .or_else(|| ctx.configured_bases.iter().find(|(local, _)| *local == base).map(|(_, hook)| *hook));
    let Some(hook) = hook else { return };
    let methods: Vec<String> = node
        .field("body")
        .map(children)
        .unwrap_or_default()
        .into_iter()
        .filter(|d| d.kind() == "method_declaration")
        .filter_map(|d| d.field("name").map(|n| ctx.text(n).to_string()))
        .collect();
    if methods.iter().any(|m| m == "__construct") {
        return;
    }
    let Some(def) = facts.classes.iter().rev().find(|c| c.name == class) else { return };
    let span = ctx.span(node);
    let config = || Expr::Var("config".into());
    let mut body: crate::model::Block = def
        .fields
        .iter()
        .map(|(field, _)| {
            let own = Expr::Var(format!("this.{field}"));
            Stmt::Assign {
                target: format!("this.{field}"),
                value: Expr::If {
                    cond: Box::new(Expr::HasKey { object: Box::new(config()), key: field.clone() }),
                    then: vec![Stmt::Yield(Expr::Lookup {
                        collection: Box::new(config()),
                        key: Box::new(Expr::Str(field.clone())),
                    })],
                    otherwise: vec![Stmt::Yield(own)],
                    span,
                },
                span,
            }
        })
        .collect();
    if methods.iter().any(|m| m == hook) {
        body.push(Stmt::Expr(call(format!("self.{hook}"), None, Vec::new(), Vec::new(), span)));
    }
    let mut ctor = crate::model::Function::written(
        "__construct".into(),
        Some(class.to_string()),
        vec!["config".into()],
        body,
        span,
    );
    ctor.defaults.push(("config".into(), Expr::Array { items: Vec::new(), span }));
    facts.functions.push(ctor);
}

/// The class a property or promoted parameter is declared with (`private ?Handler $h`).
fn declared_type(ctx: &Ctx, node: Node) -> Option<String> {
    let ty = node.field("type").or_else(|| {
        children(node).into_iter().find(|c| matches!(c.kind(), "named_type" | "optional_type" | "union_type"))
    })?;
    super::type_class(ctx.text(ty))
}

/// `#[Route('/mcp', methods: ['POST'])]` on a controller method.
fn mounted_by_attribute(ctx: &Ctx, node: Node) -> bool {
    let Some(list) = node.field("attributes") else { return false };
    let mut stack = vec![list];
    while let Some(n) = stack.pop() {
        if n.kind() == "attribute"
            && let Some(name) = children(n).first()
        {
            let name = ctx.text(*name);
            if frameworks::ROUTE_ATTRIBUTES.contains(&name.rsplit('\\').next().unwrap_or(name)) {
                return true;
            }
        }
        stack.extend(children(n));
    }
    false
}

/// `Route::post('/mcp', [McpController::class, 'handle'])`, `$app->post('/mcp', fn)`:
/// the handler a route mounts, when the call is one.
fn route_handler(ctx: &Ctx, node: Node, lowered: &[Expr], receiver: &str, verb: &str) -> Option<String> {
    let receiver = receiver.trim_start_matches('$');
    if !frameworks::ROUTERS.contains(&receiver) || !frameworks::ROUTE_VERBS.contains(&verb) {
        return None;
    }
    let args: Vec<Node> = node
        .field("arguments")
        .map(children)
        .unwrap_or_default()
        .into_iter()
        .filter_map(|a| a.named_child(0))
        .collect();
    let string = |a: &Node| a.kind() == "string" || a.kind() == "encapsed_string";
    // `$router->add('POST', '#^/mcp$#', fn)`: the verb first, as a string.
    let verb_first = args.first().filter(|a| string(a)).map(|a| unquote(ctx.text(*a)));
    if let Some(v) = &verb_first
        && frameworks::HTTP_VERBS.iter().any(|known| v.eq_ignore_ascii_case(known))
    {
        if !v.eq_ignore_ascii_case("POST") {
            return None;
        }
        return route_handler_of(ctx, args.get(2)?, lowered.get(2));
    }
    if verb == "add" {
        return None;
    }
    let at = if args.first().is_some_and(string) { 1 } else { 2 };
    route_handler_of(ctx, args.get(at)?, lowered.get(at))
}

/// The name of the function a route's handler argument mounts (`lowered`: the
/// argument as the call's lowering made it, a closure's function made once).
fn route_handler_of(ctx: &Ctx, handler: &Node, lowered: Option<&Expr>) -> Option<String> {
    match handler.kind() {
        // `[McpController::class, 'handle']`
        "array_creation_expression" => {
            children(*handler).last().and_then(|last| last.named_child(0)).map(|s| unquote(ctx.text(s)))
        }
        // `'McpController@handle'`
        "string" | "encapsed_string" => {
            let text = unquote(ctx.text(*handler));
            Some(text.rsplit('@').next().unwrap_or(&text).to_string())
        }
        // `McpController::class`: an invokable controller.
        "class_constant_access_expression" => Some("__invoke".to_string()),
        _ => match lowered? {
            Expr::FnRef(n) => Some(n.clone()),
            _ => None,
        },
    }
}

/// The HTTP response a framework builder makes, by its argument order; the status
/// defaults to 200 and is evaluated (it may be a parameter).
fn http_response(order: frameworks::Order, args: Vec<Expr>, span: crate::model::Span) -> Expr {
    let mut it = args.into_iter();
    let (status, body) = match order {
        frameworks::Order::BodyStatus => {
            let body = it.next().unwrap_or(Expr::Str(String::new()));
            (it.next().unwrap_or(Expr::Int(200)), body)
        }
        frameworks::Order::StatusHeadersBody => {
            let status = it.next().unwrap_or(Expr::Int(200));
            (status, it.nth(1).unwrap_or(Expr::Str(String::new())))
        }
    };
    // `Response::HTTP_ACCEPTED`, `StatusCodeInterface::STATUS_OK`: a named status.
    let status = match status {
        Expr::Var(name) if name.contains('.') => {
            super::status_by_name(&name).map_or(Expr::Var(name), |code| Expr::Int(i64::from(code)))
        }
        other => other,
    };
    Expr::HttpWith { status: Box::new(status), body: Box::new(body), null_is_empty: true, span }
}

fn anonymous(ctx: &mut Ctx, node: Node, facts: &mut FileFacts) -> Expr {
    let name = super::anonymous_name(node);
    function(ctx, node, facts, name.clone(), None);
    Expr::FnRef(name)
}

fn expression_statement(ctx: &mut Ctx, e: Node, facts: &mut FileFacts, out: &mut Block) {
    let span = ctx.span(e);
    // `die;` with no parentheses: the language construct (a bare name to the grammar),
    // ending the request as `die()` does.
    if e.kind() == "name" && frameworks::REQUEST_EXITS.contains(&ctx.text(e).to_ascii_lowercase().as_str()) {
        out.push(Stmt::Expr(exit_with(None, span)));
        return;
    }
    // `$buffer .= $line`, `$count += 1`: the variable becomes a value made of what it
    // held and the right side (the scan keeps both parts, as for `$a . $b`).
    if e.kind() == "augmented_assignment_expression"
        && let (Some(left), Some(right)) = (e.field("left"), e.field("right"))
    {
        let target = target_name(ctx, left);
        let value = Expr::opaque(vec![Expr::Var(target.clone()), expr(ctx, right, facts)]);
        out.push(Stmt::Assign { target, value, span });
        return;
    }
    if e.kind() == "assignment_expression" {
        let (Some(left), Some(right)) = (e.field("left"), e.field("right")) else {
            return;
        };
        if left.kind() == "list_literal" {
            destructure(ctx, left, right, facts, out);
            return;
        }
        // `$replies[] = $reply` adds an item to a list.
        if left.kind() == "subscript_expression" && ctx.text(left).trim_end().ends_with("[]") {
            let list = children(left).first().map(|l| target_name(ctx, *l)).unwrap_or_default();
            let value = expr(ctx, right, facts);
            out.push(Stmt::Push { target: list, value, span });
            return;
        }
        if left.kind() == "subscript_expression"
            && let [table, key] = children(left).as_slice()
            && !matches!(key.kind(), "string" | "encapsed_string")
        {
            // `$this->handlers[$name] = $handler`: a map write with a computed key.
            let key = expr(ctx, *key, facts);
            let value = expr(ctx, right, facts);
            out.push(Stmt::Store {
                table: target_name(ctx, *table),
                key: Box::new(key),
                value: Box::new(value),
                span,
            });
            return;
        }
        if left.kind() == "subscript_expression" {
            // `$handlers['tools/list'] = fn` registers a handler.
            let kids = children(left);
            let key = kids.get(1).filter(|k| k.kind() == "string").map(|k| unquote(ctx.text(*k)));
            if let Some(method) = key.filter(|m| crate::model::is_mcp_method(m)) {
                let handler = match expr(ctx, right, facts) {
                    Expr::FnRef(n) | Expr::Var(n) => n,
                    _ => ctx.text(right).to_string(),
                };
                let registry = kids.first().map(|r| var_name(ctx, *r)).unwrap_or_default();
                facts.registrations.push(Registration { registry, method, handler, span });
                return;
            }
        }
        let target = target_name(ctx, left);
        let value = expr(ctx, right, facts);
        if is_initialized_flag(&target) && matches!(value, Expr::Bool(true)) {
            out.push(Stmt::SetInitialized { span });
        }
        out.push(Stmt::Assign { target, value, span });
        return;
    }
    if e.kind() == "throw_expression" {
        let value = e.named_child(0).map(|v| thrown(ctx, v, facts)).unwrap_or_else(Expr::unknown);
        out.push(Stmt::Raise { value, span });
        return;
    }
    out.push(super::effect(expr(ctx, e, facts), span));
}

/// `[$method, $params, $id] = decode($raw)`, `list($a, , $c) = ...`: each variable
/// takes its element; `['method' => $m, 'id' => $id] = $msg` takes the members named
/// (a message field by its name). A nested pattern or a reference takes nothing the
/// scan follows.
fn destructure(ctx: &mut Ctx, left: Node, right: Node, facts: &mut FileFacts, out: &mut Block) {
    const HELD: &str = "<destructured>";
    let span = ctx.span(left);
    let mut cursor = left.walk();
    let mut segments: Vec<Vec<Node>> = vec![Vec::new()];
    for c in left.children(&mut cursor) {
        match c.kind() {
            "," => segments.push(Vec::new()),
            "[" | "]" | "(" | ")" | "list" | "comment" => {}
            _ => segments.last_mut().into_iter().for_each(|seg| seg.push(c)),
        }
    }
    let value = expr(ctx, right, facts);
    let keyed = segments.iter().any(|seg| seg.iter().any(|n| n.kind() == "=>"));
    if !keyed {
        let targets = segments
            .iter()
            .map(|seg| match seg.as_slice() {
                [v] if v.kind() == "variable_name" => var_name(ctx, *v),
                _ => "_".to_string(),
            })
            .collect();
        out.push(Stmt::Destructure { targets, value, span });
        return;
    }
    out.push(Stmt::Assign { target: HELD.to_string(), value, span });
    for seg in &segments {
        let [key, arrow, target] = seg.as_slice() else { continue };
        if arrow.kind() != "=>" || target.kind() != "variable_name" {
            continue;
        }
        let held = Expr::Var(HELD.to_string());
        let value = match expr(ctx, *key, facts) {
            Expr::Str(k) => match message_field(&k) {
                Some(f) => field(Some(held), f),
                None => Expr::Lookup { collection: Box::new(held), key: Box::new(Expr::Str(k)) },
            },
            k => Expr::Lookup { collection: Box::new(held), key: Box::new(k) },
        };
        out.push(Stmt::Assign { target: var_name(ctx, *target), value, span });
    }
}

/// `$x`, `$this->flag` and `self::$x` as assignment targets: `x`, `self.flag`.
fn target_name(ctx: &Ctx, node: Node) -> String {
    let t = ctx.text(node).trim_start_matches('$');
    t.replacen("this->", "self.", 1).replace("->", ".").replace("self::$", "self.").replace("::", ".")
}

fn if_statement(ctx: &mut Ctx, node: Node, facts: &mut FileFacts, owner: Option<&str>) -> Expr {
    let span = ctx.span(node);
    let cond = node.field("condition").map(|c| expr(ctx, c, facts)).unwrap_or_else(Expr::unknown);
    let then = body(ctx, node.field("body"), facts, owner);
    let mut cursor = node.walk();
    let alts: Vec<Node> = node.fields("alternative", &mut cursor).collect();
    let otherwise = else_chain(ctx, &alts, facts, owner);
    Expr::If { cond: Box::new(cond), then, otherwise, span }
}

fn else_chain(ctx: &mut Ctx, alts: &[Node], facts: &mut FileFacts, owner: Option<&str>) -> Block {
    let Some((first, rest)) = alts.split_first() else { return Vec::new() };
    match first.kind() {
        "else_if_clause" => {
            let cond = first.field("condition").map(|c| expr(ctx, c, facts)).unwrap_or_else(Expr::unknown);
            let then = body(ctx, first.field("body"), facts, owner);
            let otherwise = else_chain(ctx, rest, facts, owner);
            vec![Stmt::Expr(Expr::If { cond: Box::new(cond), then, otherwise, span: ctx.span(*first) })]
        }
        _ => body(ctx, first.field("body"), facts, owner),
    }
}

fn switch(ctx: &mut Ctx, node: Node, facts: &mut FileFacts, owner: Option<&str>) -> Expr {
    let span = ctx.span(node);
    let subject = node.field("condition").map(|c| expr(ctx, c, facts)).unwrap_or_else(Expr::unknown);
    let mut arms = Vec::new();
    let mut pending = Vec::new();
    for case in node.field("body").map(children).unwrap_or_default() {
        let value = case.field("value");
        match case.kind() {
            "case_statement" => pending
                .push(value.map(|v| super::case_pattern(expr(ctx, v, facts))).unwrap_or(Pattern::Unknown)),
            "default_statement" => pending.push(Pattern::Any(None)),
            _ => continue,
        }
        let mut b = Vec::new();
        for s in children(case).into_iter().filter(|c| Some(*c) != value) {
            statement(ctx, s, facts, owner, &mut b);
        }
        if b.is_empty() {
            continue;
        }
        let b = super::end_at_break(b);
        arms.push(Arm { patterns: std::mem::take(&mut pending), guard: None, body: b, span: ctx.span(case) });
    }
    if !pending.is_empty() {
        arms.push(Arm { patterns: pending, guard: None, body: Vec::new(), span });
    }
    Expr::Match { subject: Box::new(subject), arms, span }
}

fn expr(ctx: &mut Ctx, node: Node, facts: &mut FileFacts) -> Expr {
    ctx.nested(Expr::unknown, |ctx| expr_inner(ctx, node, facts))
}

fn sub(ctx: &mut Ctx, node: Node, name: &'static str, facts: &mut FileFacts) -> Expr {
    node.field(name).map(|n| expr(ctx, n, facts)).unwrap_or_else(Expr::unknown)
}

fn args_of(ctx: &mut Ctx, node: Node, facts: &mut FileFacts) -> Vec<Expr> {
    arguments(ctx, node.field("arguments"), facts)
}

/// The arguments of an `arguments` node, named ones as [`Expr::Named`].
fn arguments(ctx: &mut Ctx, list: Option<Node>, facts: &mut FileFacts) -> Vec<Expr> {
    list.map(children)
        .unwrap_or_default()
        .into_iter()
        .map(|a| {
            // `new Reply(id: $id, error: null)`: a named argument binds by name.
            let name = a.field("name");
            let value = children(a).into_iter().rfind(|c| Some(*c) != name);
            let value = match value {
                // `build(...$parts)`: the array's items, position by position.
                Some(v) if v.kind() == "variadic_unpacking" => Expr::Spread(Box::new(
                    v.named_child(0).map(|i| expr(ctx, i, facts)).unwrap_or_else(Expr::unknown),
                )),
                Some(v) => expr(ctx, v, facts),
                None => Expr::unknown(),
            };
            match name {
                Some(n) => Expr::Named { name: ctx.text(n).to_string(), value: Box::new(value) },
                None => value,
            }
        })
        .collect()
}

fn expr_inner(ctx: &mut Ctx, node: Node, facts: &mut FileFacts) -> Expr {
    let span = ctx.span(node);
    match node.kind() {
        "variable_name" => Expr::Var(var_name(ctx, node)),
        "null" => Expr::Null,
        "boolean" => Expr::Bool(ctx.text(node).eq_ignore_ascii_case("true")),
        "integer" => super::int_literal(ctx.text(node)).map(Expr::Int).unwrap_or_else(Expr::unknown),
        "string" => Expr::Str(unquote(ctx.text(node))),
        "encapsed_string" => {
            let parts: Vec<Expr> = children(node)
                .into_iter()
                .filter(|c| c.kind() != "string_content")
                .map(|c| expr(ctx, c, facts))
                .collect();
            if parts.is_empty() { Expr::Str(unquote(ctx.text(node))) } else { Expr::opaque(parts) }
        }
        "name" | "qualified_name" => match ctx.text(node) {
            "STDIN" => {
                ctx.saw_stdin = true;
                Expr::Var("STDIN".into())
            }
            "PHP_SAPI" | "\\PHP_SAPI" => Expr::Str(super::PHP_SAPI.into()),
            t => Expr::Var(t.to_string()),
        },
        "parenthesized_expression" => {
            node.named_child(0).map(|c| expr(ctx, c, facts)).unwrap_or_else(Expr::unknown)
        }
        // Probes arrive by POST.
        "subscript_expression" if ctx.text(node).replace('"', "'") == "$_SERVER['REQUEST_METHOD']" => {
            Expr::Str("POST".into())
        }
        "subscript_expression" => {
            let kids = children(node);
            let collection = kids.first().map(|c| expr(ctx, *c, facts)).unwrap_or_else(Expr::unknown);
            let key = kids.get(1).map(|c| expr(ctx, *c, facts));
            match key {
                Some(Expr::Str(k)) => match message_field(&k) {
                    Some(f) => field(Some(collection), f),
                    None => Expr::Lookup { collection: Box::new(collection), key: Box::new(Expr::Str(k)) },
                },
                Some(k) => Expr::Lookup { collection: Box::new(collection), key: Box::new(k) },
                None => collection,
            }
        }
        "member_access_expression" | "nullsafe_member_access_expression" => {
            let name = node.field("name").map(|n| ctx.text(n)).unwrap_or("");
            // `$this->protocol_version` is the object's own property, never the message's field.
            let own = node.field("object").is_some_and(|o| ctx.text(o) == "$this");
            if let Some(f) = message_field(name).filter(|_| !own) {
                let object = node.field("object").map(|o| expr(ctx, o, facts));
                return field(object, f);
            }
            Expr::Var(target_name(ctx, node))
        }
        "class_constant_access_expression" => match class_name_constant(ctx, node) {
            Some(class) => Expr::Str(class),
            None => Expr::Var(target_name(ctx, node)),
        },
        "member_call_expression" | "nullsafe_member_call_expression" | "scoped_call_expression" => {
            method_call(ctx, node, facts)
        }
        "function_call_expression" => function_call(ctx, node, facts),
        "object_creation_expression" => new_object(ctx, node, facts),
        // `require __DIR__ . '/../src/Handler.php';`: the file it loads is imported.
        "require_expression"
        | "require_once_expression"
        | "include_expression"
        | "include_once_expression" => {
            facts.imports.extend(required_file(ctx, node));
            Expr::unknown()
        }
        "cast_expression" => {
            let ty = node.field("type").map(|t| ctx.text(t).to_ascii_lowercase()).unwrap_or_default();
            let value = sub(ctx, node, "value", facts);
            if ty == "object" { object_cast(value, ctx.span(node)) } else { value }
        }
        "array_creation_expression" => array(ctx, node, facts),
        // `print $json`: written out, as `echo`.
        "print_intrinsic" => {
            let args = node.named_child(0).map(|a| vec![expr(ctx, a, facts)]).unwrap_or_default();
            Expr::Call { callee: super::EMIT.into(), receiver: None, args, span: ctx.span(node) }
        }
        "binary_expression" => binary(ctx, node, facts),
        "unary_op_expression" => {
            let op = node.field("operator").map(|o| ctx.text(o)).unwrap_or("");
            let arg = sub(ctx, node, "argument", facts);
            match (op, arg) {
                ("!", a) => Expr::Not(Box::new(a)),
                ("-", Expr::Int(n)) => Expr::Int(-n),
                (_, a) => a,
            }
        }
        "conditional_expression" => {
            let cond = sub(ctx, node, "condition", facts);
            let then = node.field("body").map(|b| expr(ctx, b, facts)).unwrap_or_else(|| cond.clone());
            let otherwise = sub(ctx, node, "alternative", facts);
            Expr::If {
                cond: Box::new(cond),
                then: vec![Stmt::Yield(then)],
                otherwise: vec![Stmt::Yield(otherwise)],
                span,
            }
        }
        "match_expression" => match_expression(ctx, node, facts),
        "anonymous_function" | "arrow_function" | "anonymous_function_creation_expression" => {
            anonymous(ctx, node, facts)
        }
        "assignment_expression" => {
            let target = node.field("left").map(|l| target_name(ctx, l)).unwrap_or_default();
            let value = sub(ctx, node, "right", facts);
            // The expression's value is what was assigned: `null === $m = Enum::tryFrom($x)`.
            let assigned = Expr::Var(target.clone());
            // `'initialized' => $this->initialized = true` in a `match` arm.
            let mut block: Vec<Stmt> = super::sets_flag(&target, &value, span).into_iter().collect();
            block.extend([Stmt::Assign { target, value, span }, Stmt::Yield(assigned)]);
            Expr::Block(block)
        }
        "throw_expression" => {
            let value = node.named_child(0).map(|v| thrown(ctx, v, facts)).unwrap_or_else(Expr::unknown);
            Expr::Block(vec![Stmt::Raise { value, span }])
        }
        _ => {
            let parts = children(node).into_iter().map(|c| expr(ctx, c, facts)).collect();
            Expr::opaque(parts)
        }
    }
}

/// `['jsonrpc' => '2.0', ...]` is an object; `[1, 2]` and the empty `[]` are arrays (JSON `[]`).
fn array(ctx: &mut Ctx, node: Node, facts: &mut FileFacts) -> Expr {
    let span = ctx.span(node);
    let mut entries = Vec::new();
    let mut items = Vec::new();
    for el in children(node).into_iter().filter(|c| c.kind() == "array_element_initializer") {
        let kids = children(el);
        match kids.as_slice() {
            [k, v] => {
                let key = match expr(ctx, *k, facts) {
                    Expr::Str(s) => s,
                    _ => ctx.text(*k).to_string(),
                };
                entries.push((key, expr(ctx, *v, facts)));
            }
            [v] => items.push(expr(ctx, *v, facts)),
            _ => {}
        }
    }
    if entries.is_empty() { Expr::Array { items, span } } else { object(entries, span) }
}

/// `(object) [...]` and `JSON_FORCE_OBJECT`: arrays become objects.
fn objectify(e: Expr) -> Expr {
    match e {
        Expr::Array { items, span } if items.is_empty() => Expr::Object { entries: Vec::new(), span },
        Expr::Object { entries, span } => {
            Expr::Object { entries: entries.into_iter().map(|(k, v)| (k, objectify(v))).collect(), span }
        }
        Expr::Reply { kind, id, span } => {
            let kind = match kind {
                crate::model::ReplyExpr::Result(r) => {
                    crate::model::ReplyExpr::Result(Box::new(objectify(*r)))
                }
                other => other,
            };
            Expr::Reply { kind, id, span }
        }
        other => other,
    }
}

/// `(object) $value`: a literal as [`objectify`] makes it; a value the lowering cannot
/// see (`(object) $result`) is cast when it runs.
fn object_cast(value: Expr, span: crate::model::Span) -> Expr {
    match value {
        value @ (Expr::Var(_) | Expr::Call { .. } | Expr::Lookup { .. } | Expr::Field { .. }) => {
            Expr::Call { callee: super::OBJECT_CAST.into(), receiver: None, args: vec![value], span }
        }
        other => objectify(other),
    }
}

fn binary(ctx: &mut Ctx, node: Node, facts: &mut FileFacts) -> Expr {
    let op = node.field("operator").map(|o| ctx.text(o).to_ascii_lowercase()).unwrap_or_default();
    let left = sub(ctx, node, "left", facts);
    let right = sub(ctx, node, "right", facts);
    match op.as_str() {
        "===" | "==" | "!==" | "!=" | "<>" => {
            let negated = op.starts_with('!') || op == "<>";
            let test = match (&left, &right) {
                (x, Expr::Null) | (Expr::Null, x) => Expr::IsNull(Box::new(x.clone())),
                // `strpos($method, 'notifications/') === 0`
                (Expr::Call { callee, args, .. }, Expr::Int(0))
                | (Expr::Int(0), Expr::Call { callee, args, .. })
                    if callee == "strpos" =>
                {
                    match args.as_slice() {
                        [text, Expr::Str(prefix)] => {
                            Expr::StartsWith { text: Box::new(text.clone()), prefix: prefix.clone() }
                        }
                        _ => return Expr::unknown(),
                    }
                }
                _ => return Expr::Eq { left: Box::new(left), right: Box::new(right), negated },
            };
            if negated { Expr::Not(Box::new(test)) } else { test }
        }
        "instanceof" => {
            let class = node.field("right").map(|r| ctx.text(r).replace('\\', ".")).unwrap_or_default();
            Expr::IsA { value: Box::new(left), class }
        }
        "&&" | "and" => Expr::And(Box::new(left), Box::new(right)),
        "||" | "or" | "?:" => Expr::Or(Box::new(left), Box::new(right)),
        "??" => Expr::Coalesce(Box::new(left), Box::new(right)),
        op => super::ordered(op, left, right),
    }
}

fn match_expression(ctx: &mut Ctx, node: Node, facts: &mut FileFacts) -> Expr {
    let span = ctx.span(node);
    let subject = sub(ctx, node, "condition", facts);
    // `match (true) { $method === 'ping' => .., default => .. }`: each arm's conditions
    // are tested in order, an if-chain.
    let on_true = matches!(subject, Expr::Bool(true));
    let mut arms = Vec::new();
    let mut chain = Vec::new();
    for arm in node.field("body").map(children).unwrap_or_default() {
        let value = arm.field("return_expression").map(|r| expr(ctx, r, facts)).unwrap_or_else(Expr::unknown);
        let conditions: Option<Vec<Expr>> = match arm.kind() {
            "match_conditional_expression" => Some(
                arm.field("conditional_expressions")
                    .map(children)
                    .unwrap_or_default()
                    .into_iter()
                    .map(|c| expr(ctx, c, facts))
                    .collect(),
            ),
            "match_default_expression" => None,
            _ => continue,
        };
        if on_true {
            let condition =
                conditions.and_then(|c| c.into_iter().reduce(|a, b| Expr::Or(Box::new(a), Box::new(b))));
            chain.push((condition, vec![Stmt::Yield(value)], ctx.span(arm)));
            continue;
        }
        let patterns = match conditions {
            Some(conditions) => conditions.into_iter().map(super::case_pattern).collect(),
            None => vec![Pattern::Any(None)],
        };
        arms.push(Arm { patterns, guard: None, body: vec![Stmt::Yield(value)], span: ctx.span(arm) });
    }
    if on_true {
        // No arm taken: PHP throws `UnhandledMatchError`.
        return super::condition_chain(chain, vec![Stmt::Raise { value: Expr::unknown(), span }]);
    }
    Expr::Match { subject: Box::new(subject), arms, span }
}

fn method_call(ctx: &mut Ctx, node: Node, facts: &mut FileFacts) -> Expr {
    let span = ctx.span(node);
    let name = node.field("name").map(|n| ctx.text(n).to_string()).unwrap_or_default();
    let object = node.field("object").or_else(|| node.field("scope"));
    let object_text = object.map(|o| ctx.text(o)).unwrap_or("");
    let args = args_of(ctx, node, facts);
    // Laravel's `Str::startsWith($method, 'notifications/')`: a prefix test.
    if frameworks::PREFIX_TESTS.contains(&(object_text.trim_start_matches('\\'), name.as_str()))
        && !ctx.own_names.iter().any(|n| n == object_text)
        && let [text, Expr::Str(prefix)] = args.as_slice()
    {
        return Expr::StartsWith { text: Box::new(text.clone()), prefix: prefix.clone() };
    }
    if matches!(object_text, "Server" | "McpAdapter")
        && matches!(name.as_str(), "make" | "instance" | "builder")
        && ctx.sdk_server.is_none()
    {
        ctx.sdk_server = Some(span);
    }
    if let Some(handler) = route_handler(ctx, node, &args, object_text, &name) {
        facts.http_handlers.push(handler);
        return Expr::unknown();
    }
    // `response()->json($data, 202)`, `Response::json($data)` (a framework's: the code's
    // own `Response` class is run as written).
    if frameworks::RESPONSE_METHODS.contains(&name.as_str())
        && (object_text.starts_with("response(")
            || (object_text == "Response" && !ctx.own_names.iter().any(|n| n == "Response")))
    {
        // Laravel's `noContent($status = 204, $headers = [])`.
        if name == "noContent" {
            return match args.first() {
                None => Expr::Http { status: Some(204), body: None, span },
                Some(status) => super::http_answer(status.clone(), Expr::Str(String::new()), span),
            };
        }
        return http_response(frameworks::Order::BodyStatus, args, span);
    }
    if let Some(answer) = response_method(ctx, object, &name, &args, span, facts) {
        return answer;
    }
    // Calls on `$this`, `self::` and `static::` are the class's own methods.
    if matches!(object_text, "$this" | "self" | "static") {
        return call(format!("self.{name}"), None, args, Vec::new(), span);
    }
    // `parent::jsonSerialize()`: the base class's method, run on `$this`.
    if object_text == "parent" {
        return call(format!("{}{name}", super::SUPER_CALL), None, args, Vec::new(), span);
    }
    if name == "get_json_params" || name == "get_body" {
        ctx.saw_http = true;
    }
    // `$request->input('method')`, `$request->all()`, `$request->json()->all()` on the
    // handler's framework request: the decoded body, as the probe sends it.
    let on_request = |text: &str| ctx.request_params.iter().any(|p| text.trim_start_matches('$') == p);
    let request_json = object_text.strip_suffix("->json()").is_some_and(on_request);
    if on_request(object_text) || request_json {
        match (name.as_str(), args.first()) {
            (n, Some(key @ Expr::Str(_)))
                if frameworks::BODY_MEMBER_READERS.contains(&n) && !request_json =>
            {
                let member = Expr::Lookup {
                    collection: Box::new(Expr::Message(Vec::new())),
                    key: Box::new(key.clone()),
                };
                return match args.get(1) {
                    Some(default) => Expr::Or(Box::new(member), Box::new(default.clone())),
                    None => member,
                };
            }
            (n, None) if frameworks::BODY_READERS.contains(&n) => return Expr::Message(Vec::new()),
            // `$request->getContent()` (Laravel, Symfony): the body's bytes.
            ("getContent", None) => return super::encoded_message(span),
            // `$request->getMethod()`: the HTTP verb, and probes arrive by POST.
            (n, None) if frameworks::VERB_READERS.contains(&n) && !request_json => {
                return Expr::Str("POST".into());
            }
            (n, Some(Expr::Str(verb))) if frameworks::VERB_TESTS.contains(&n) && !request_json => {
                return Expr::Bool(verb.eq_ignore_ascii_case("POST"));
            }
            _ => {}
        }
    }
    // `Json::decode($body, true)` of a framework's JSON class (Nova, Laminas, Nette).
    let json_class = frameworks::JSON_DECODERS
        .iter()
        .any(|(class, method)| *method == name && object_text.rsplit('\\').next() == Some(*class));
    if super::decodes_message(Language::Php, &name) || json_class {
        return Expr::Message(args);
    }
    let receiver = object.map(|o| expr(ctx, o, facts));
    // `Wire::decode($line)`, `Arr::get($msg, 'id')`: a static method of a class, as
    // written; never a conversion or member read of a value that shares its name.
    if node.kind() == "scoped_call_expression"
        && object.is_some_and(|o| matches!(o.kind(), "name" | "qualified_name"))
    {
        return Expr::Call {
            callee: format!("{object_text}.{name}"),
            receiver: receiver.map(Box::new),
            args,
            span,
        };
    }
    call(format!("{object_text}.{name}"), receiver, args, Vec::new(), span)
}

/// A PSR-7 method on the response a handler was handed (see `RESPONSE_PARAM_TYPES`),
/// or on a chain of such calls from it: `withStatus(202)` sets the status, the header
/// methods keep the answer as it is, and `getBody()->write($json)` writes the body
/// into the variable that holds the response.
fn response_method(
    ctx: &mut Ctx,
    object: Option<Node>,
    name: &str,
    args: &[Expr],
    span: crate::model::Span,
    facts: &mut FileFacts,
) -> Option<Expr> {
    let object = object?;
    // `$this->withCors($response)->withStatus(202)`: PSR-7's `withStatus` on a response a
    // helper returns gives that response with the status (its body kept).
    let chained = |n: Node| {
        let method = n.field("name").map(|m| ctx.text(m)).unwrap_or("");
        frameworks::RESPONSE_KEEPING.contains(&method) || matches!(method, "withStatus" | "getBody")
    };
    if name == "withStatus"
        && matches!(object.kind(), "member_call_expression" | "scoped_call_expression")
        && !chained(object)
    {
        const HELD: &str = "mcp-conform/psr7-response";
        let held = expr(ctx, object, facts);
        return Some(Expr::Block(vec![
            Stmt::Assign { target: HELD.into(), value: held, span },
            Stmt::Yield(Expr::HttpWith {
                status: Box::new(args.first().cloned().unwrap_or_else(Expr::unknown)),
                body: Box::new(Expr::Var(format!("{HELD}.body"))),
                null_is_empty: false,
                span,
            }),
        ]));
    }
    // The variable the chain starts from: `$response` in `$response->withHeader(..)`.
    let mut root = object;
    while root.kind() == "member_call_expression" {
        let inner = root.field("name").map(|n| ctx.text(n)).unwrap_or("");
        if !(frameworks::RESPONSE_KEEPING.contains(&inner) || matches!(inner, "withStatus" | "getBody")) {
            return None;
        }
        root = root.field("object")?;
    }
    let var = (root.kind() == "variable_name").then(|| var_name(ctx, root))?;
    if !ctx.http_writers.contains(&var) {
        return None;
    }
    let current_body = Expr::Var(format!("{var}.body"));
    match name {
        "withStatus" => Some(Expr::HttpWith {
            status: Box::new(args.first().cloned().unwrap_or_else(Expr::unknown)),
            body: Box::new(current_body),
            null_is_empty: false,
            span,
        }),
        n if frameworks::RESPONSE_KEEPING.contains(&n) => Some(expr(ctx, object, facts)),
        "write" if ctx.text(object).ends_with("->getBody()") && object.kind() == "member_call_expression" => {
            let written = Expr::HttpWith {
                status: Box::new(Expr::Var(format!("{var}.status"))),
                body: Box::new(args.first().cloned().unwrap_or_else(Expr::unknown)),
                null_is_empty: false,
                span,
            };
            Some(Expr::Block(vec![Stmt::Assign { target: var, value: written, span }]))
        }
        _ => None,
    }
}

/// The status a raw header line sets: `'HTTP/1.1 204 No Content'`, `'Status: 202'`,
/// `$_SERVER['SERVER_PROTOCOL'] . ' 202 Accepted'`.
fn status_line(text: &str) -> Option<u16> {
    let rest =
        ["HTTP/", "Status:", "SERVER_PROTOCOL"].iter().find_map(|m| text.find(m).map(|at| &text[at..]))?;
    rest.split(|c: char| !c.is_ascii_digit())
        .filter(|t| t.len() == 3)
        .find_map(|t| t.parse::<u16>().ok().filter(|n| (100..600).contains(n)))
}

/// `exit`/`die`: an integer argument is the process's status, anything else is printed.
fn exit_with(arg: Option<Expr>, span: crate::model::Span) -> Expr {
    super::exit(arg.filter(|a| !matches!(a, Expr::Int(_))), span)
}

/// The variable holding the output buffer `ob_start()` opened.
const OUTPUT_BUFFER: &str = "mcp-conform/output-buffer";

fn function_call(ctx: &mut Ctx, node: Node, facts: &mut FileFacts) -> Expr {
    let span = ctx.span(node);
    let name =
        node.field("function").map(|f| ctx.text(f).trim_start_matches('\\').to_string()).unwrap_or_default();
    let arg_nodes: Vec<Node> = node.field("arguments").map(children).unwrap_or_default();
    let raw_args: Vec<&str> = arg_nodes.iter().map(|a| ctx.text(*a)).collect();
    if raw_args.iter().any(|a| a.contains("php://input")) {
        ctx.saw_http = true;
        // `file_get_contents('php://input')`: the message's bytes as they arrived.
        if name == "file_get_contents" {
            return super::encoded_message(span);
        }
    }
    if raw_args.iter().any(|a| a.contains("php://stdin") || *a == "STDIN") {
        ctx.saw_stdin = true;
    }
    // `fgets($this->input)` on a member the class set to `STDIN`.
    if frameworks::STREAM_READS.contains(&name.as_str())
        && let Some(member) = raw_args.first().and_then(|a| a.strip_prefix("$this->"))
        && ctx.stdin_members.iter().any(|m| m == member)
    {
        ctx.saw_stdin = true;
    }
    // Output buffering: `ob_start()` opens a buffer that what is echoed goes into;
    // `ob_get_clean()` and kin read it back.
    if name == "ob_start" {
        return Expr::Block(vec![Stmt::Assign {
            target: OUTPUT_BUFFER.into(),
            value: super::capture(span),
            span,
        }]);
    }
    if let Some(read) = frameworks::OUTPUT_BUFFER_READS.iter().find(|(n, _)| *n == name).map(|(_, r)| *r) {
        return Expr::Call {
            callee: read.into(),
            receiver: Some(Box::new(Expr::Var(OUTPUT_BUFFER.into()))),
            args: Vec::new(),
            span,
        };
    }
    if name == "register_rest_route" {
        // `'callback' => [$this, 'handle']` or a closure names the HTTP handler.
        if let Some(opts) = arg_nodes.get(2).and_then(|a| a.named_child(0)) {
            note_rest_callback(ctx, opts, facts);
        }
        return Expr::unknown();
    }
    let args = args_of(ctx, node, facts);
    // `array_is_list($data)`: whether the decoded body is a batch.
    if name == "array_is_list" && args.len() == 1 && !ctx.own_names.contains(&name) {
        return super::is_kind(args.into_iter().next().expect("one argument"), "list", span);
    }
    if let Some(f) = node.field("function").filter(|f| !matches!(f.kind(), "name" | "qualified_name")) {
        // `$handlers[$method]($params)`: call whatever the expression yields.
        let target = expr(ctx, f, facts);
        return Expr::Call { callee: "()".into(), receiver: Some(Box::new(target)), args, span };
    }
    if super::decodes_message(Language::Php, &name) {
        return Expr::Message(args);
    }
    // `call_user_func($f, $a)`, `call_user_func_array($f, [$a])`: a call of `$f`.
    if matches!(name.as_str(), "call_user_func" | "call_user_func_array") && !args.is_empty() {
        let mut args = args;
        let target = args.remove(0);
        let args = match (name.as_str(), args.as_slice()) {
            ("call_user_func_array", [Expr::Array { items, .. }]) => items.clone(),
            ("call_user_func_array", _) => vec![Expr::unknown()],
            _ => args,
        };
        return Expr::Call { callee: "()".into(), receiver: Some(Box::new(target)), args, span };
    }
    if frameworks::REQUEST_EXITS.contains(&name.as_str()) && !ctx.own_names.contains(&name) {
        return exit_with(args.into_iter().next(), span);
    }
    // `header('HTTP/1.1 202 Accepted')`, `header('Status: 204')`,
    // `header('Content-Type: application/json', true, 200)`: the answer's status.
    if name == "header" && !ctx.own_names.contains(&name) {
        let status = args.get(2).cloned().or_else(|| {
            raw_args.first().and_then(|text| status_line(text)).map(|code| Expr::Int(i64::from(code)))
        });
        if let Some(status) = status {
            let http = Expr::HttpWith {
                status: Box::new(status),
                body: Box::new(Expr::Null),
                null_is_empty: true,
                span,
            };
            return Expr::Call { callee: super::EMIT.into(), receiver: None, args: vec![http], span };
        }
    }
    let first = args.first().cloned();
    let second = args.get(1).cloned();
    match (name.as_str(), first, second) {
        ("isset", Some(x), _) => Expr::Not(Box::new(Expr::IsNull(Box::new(x)))),
        // Probes are well-formed messages: their members have the types a server
        // expects; a member they lack is null.
        ("is_string" | "is_array" | "is_int" | "is_numeric" | "is_object" | "is_scalar", Some(x), _) => {
            super::is_kind(x, super::PRESENT, span)
        }
        ("is_null", Some(x), _) => Expr::IsNull(Box::new(x)),
        // `is_wp_error($result)`: whether a handler returned the framework's error.
        (test, Some(x), _)
            if !ctx.own_names.iter().any(|n| n == test)
                && let Some((class, _)) = frameworks::ERROR_CLASSES.iter().find(|(_, t)| *t == test) =>
        {
            Expr::IsA { value: Box::new(x), class: (*class).to_string() }
        }
        ("empty", Some(x), _) => Expr::Not(Box::new(x)),
        ("array_key_exists" | "property_exists", Some(Expr::Str(key)), Some(obj)) => {
            Expr::HasKey { object: Box::new(obj), key }
        }
        // `array_key_exists($method, self::HANDLERS)`: a computed key looked up in a table.
        ("array_key_exists", Some(key), Some(table)) => {
            Expr::Member { item: Box::new(key), collection: Box::new(table) }
        }
        ("str_starts_with", Some(text), Some(Expr::Str(prefix))) => {
            Expr::StartsWith { text: Box::new(text), prefix }
        }
        ("in_array", Some(item), Some(collection)) => {
            Expr::Member { item: Box::new(item), collection: Box::new(collection) }
        }
        // What goes out is the value encoded (an empty array as `[]` unless forced to `{}`).
        ("json_encode" | "wp_json_encode", Some(x), _) => {
            let force = raw_args.get(1).is_some_and(|f| f.contains("JSON_FORCE_OBJECT"));
            match force {
                // Forced, every empty array in it becomes `{}`, members built elsewhere (a
                // variable, a call) too: converted as the interpreter finds them.
                true => Expr::Call {
                    callee: super::FORCE_OBJECT.to_string(),
                    receiver: None,
                    args: vec![x],
                    span,
                },
                false => super::serialised(x, span),
            }
        }
        // WordPress and plain-PHP answers.
        ("wp_send_json" | "wp_send_json_success" | "wp_send_json_error", body, status) => {
            let status = match status {
                Some(Expr::Int(n)) => u16::try_from(n).ok(),
                _ => None,
            };
            let http = Expr::Http { status, body: body.map(Box::new), span };
            Expr::Call { callee: super::EMIT.into(), receiver: None, args: vec![http], span }
        }
        ("rest_ensure_response", body, _) => Expr::Http { status: None, body: body.map(Box::new), span },
        // The status may be a variable or a helper's parameter: it is evaluated.
        ("http_response_code" | "status_header", Some(status), _) => {
            let http = Expr::HttpWith {
                status: Box::new(status),
                body: Box::new(Expr::Null),
                null_is_empty: true,
                span,
            };
            Expr::Call { callee: super::EMIT.into(), receiver: None, args: vec![http], span }
        }
        (f, _, _)
            if frameworks::RESPONSE_FUNCTIONS.contains(&f)
                && !args.is_empty()
                && !ctx.own_names.iter().any(|n| n == f) =>
        {
            http_response(frameworks::Order::BodyStatus, args, span)
        }
        ("fwrite" | "fputs", _, _) if raw_args.first().is_some_and(|a| a.contains("STDERR")) => {
            Expr::unknown()
        }
        ("fwrite" | "fputs" | "print" | "printf", _, _) => {
            Expr::Call { callee: super::EMIT.into(), receiver: None, args, span }
        }
        ("error_log", _, _) => Expr::unknown(),
        ("php_sapi_name", None, _) => Expr::Str(super::PHP_SAPI.into()),
        ("array_merge", _, _) => Expr::Call { callee: super::MERGE.into(), receiver: None, args, span },
        // `file_put_contents('php://stdout', $json)`: written to standard output
        // (`php://output` in a web request); any other path is a file.
        ("file_put_contents", Some(Expr::Str(path)), _)
            if matches!(path.as_str(), "php://stdout" | "php://output") =>
        {
            Expr::Call {
                callee: super::EMIT.into(),
                receiver: None,
                args: args.into_iter().skip(1).collect(),
                span,
            }
        }
        _ => call(name, None, args, Vec::new(), span),
    }
}

fn note_rest_callback(ctx: &mut Ctx, opts: Node, facts: &mut FileFacts) {
    for el in children(opts).into_iter().filter(|c| c.kind() == "array_element_initializer") {
        let kids = children(el);
        let [k, v] = kids.as_slice() else { continue };
        if unquote(ctx.text(*k)) != "callback" {
            continue;
        }
        let handler = match v.kind() {
            "array_creation_expression" => {
                children(*v).last().and_then(|last| last.named_child(0)).map(|s| unquote(ctx.text(s)))
            }
            "string" => Some(unquote(ctx.text(*v))),
            _ => match expr(ctx, *v, facts) {
                Expr::FnRef(n) => Some(n),
                _ => None,
            },
        };
        if let Some(h) = handler {
            facts.http_handlers.push(h);
        }
    }
}

fn new_object(ctx: &mut Ctx, node: Node, facts: &mut FileFacts) -> Expr {
    let span = ctx.span(node);
    let class =
        children(node).first().map(|c| ctx.text(*c).trim_start_matches('\\').to_string()).unwrap_or_default();
    let list = children(node).into_iter().find(|c| c.kind() == "arguments");
    let args = arguments(ctx, list, facts);
    // `new $handler($session, $request)`: the class a variable names (taken from a
    // table of handler classes, `Handlers::MAP[$method]`), decided when it runs.
    if let Some(target) = children(node).first()
        && matches!(target.kind(), "variable_name" | "subscript_expression" | "member_access_expression")
    {
        let mut all = vec![expr(ctx, *target, facts)];
        all.extend(args);
        return Expr::Call { callee: super::NEW_DYNAMIC.into(), receiver: None, args: all, span };
    }
    let mut last = super::last_segment(&class.replace('\\', ".")).to_string();
    let status_first = ctx.status_first.contains(&last)
        || frameworks::STATUS_FIRST_NAMESPACES.iter().any(|n| class.starts_with(n));
    if let Some((_, own)) = ctx.aliases.iter().find(|(local, _)| *local == last) {
        last = own.clone();
    }
    // A PSR-7 response of an implementation that takes the status first.
    if status_first && last.ends_with("Response") {
        return http_response(frameworks::Order::StatusHeadersBody, args, span);
    }
    // ReactPHP `new HttpServer(function ($request) { ... })`: the callback answers
    // every HTTP request.
    if frameworks::SERVER_CLASSES.contains(&last.as_str()) && !ctx.own_names.contains(&last) {
        for a in &args {
            if let Expr::FnRef(handler) = a {
                facts.http_handlers.push(handler.clone());
            }
        }
    }
    match last.as_str() {
        "stdClass" => Expr::Object { entries: Vec::new(), span },
        // WordPress core's serve path sends no body for a null response (since 4.8.1).
        "WP_REST_Response" => {
            let mut it = args.into_iter();
            let body = it.next().unwrap_or(Expr::Null);
            let status = it.next().unwrap_or(Expr::Int(200));
            Expr::HttpWith { status: Box::new(status), body: Box::new(body), null_is_empty: true, span }
        }
        // PSR-7 (Guzzle, Nyholm, Laminas): `new Response($status, $headers, $body)`.
        "Response" if matches!(args.first(), Some(Expr::Int(n)) if (100..600).contains(n)) => {
            http_response(frameworks::Order::StatusHeadersBody, args, span)
        }
        c if frameworks::RESPONSE_CLASSES.iter().any(|(name, _)| *name == c)
            && !ctx.own_names.iter().any(|n| n == c) =>
        {
            let order = frameworks::RESPONSE_CLASSES.iter().find(|(name, _)| *name == c).map(|(_, o)| *o);
            http_response(order.unwrap_or(frameworks::Order::BodyStatus), args, span)
        }
        c if frameworks::ERROR_CLASSES.iter().any(|(class, _)| *class == c)
            && !ctx.own_names.iter().any(|n| n == c) =>
        {
            Expr::Http { status: Some(400), body: None, span }
        }
        // The code's own class, whatever its name: constructed, never an HTTP response.
        c if ctx.own_names.iter().any(|n| n == c) => Expr::Call { callee: class, receiver: None, args, span },
        _ => call(class, None, args, Vec::new(), span),
    }
}

/// Whether the file hooks `rest_pre_serve_request`, which WordPress plugins use to
/// send a response with no body instead of the serialised `null`.
fn serves_empty_bodies(ctx: &Ctx, root: Node) -> bool {
    let mut stack = vec![root];
    while let Some(n) = stack.pop() {
        if n.kind() == "function_call_expression"
            && n.field("function").is_some_and(|f| matches!(ctx.text(f), "add_filter" | "add_action"))
            && n.field("arguments").is_some_and(|a| ctx.text(a).contains("rest_pre_serve_request"))
        {
            return true;
        }
        stack.extend(children(n));
    }
    false
}

fn empty_null_bodies(stmt: &mut Stmt) {
    match stmt {
        Stmt::Assign { value: e, .. } | Stmt::Expr(e) | Stmt::Raise { value: e, .. } | Stmt::Yield(e) => {
            empty_in(e)
        }
        Stmt::Return { value: Some(e), .. } => empty_in(e),
        _ => {}
    }
}

fn empty_in(e: &mut Expr) {
    match e {
        Expr::Http { body, .. } if matches!(body.as_deref(), Some(Expr::Null)) => *body = None,
        Expr::HttpWith { null_is_empty, .. } => *null_is_empty = true,
        Expr::If { then, otherwise, .. } => {
            then.iter_mut().for_each(empty_null_bodies);
            otherwise.iter_mut().for_each(empty_null_bodies);
        }
        Expr::Match { arms, .. } => {
            arms.iter_mut().for_each(|a| a.body.iter_mut().for_each(empty_null_bodies))
        }
        Expr::Block(b) | Expr::Loop { body: b } => b.iter_mut().for_each(empty_null_bodies),
        Expr::Try { body, handler, .. } => {
            body.iter_mut().for_each(empty_null_bodies);
            handler.iter_mut().for_each(empty_null_bodies);
        }
        Expr::Call { args, .. } | Expr::Opaque(args) => args.iter_mut().for_each(empty_in),
        _ => {}
    }
}
