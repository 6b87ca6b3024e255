//! The 2024-11-05 HTTP+SSE transport's `endpoint` event. That transport opens a GET
//! stream whose first event, named `endpoint`, tells the client where to POST; the
//! replies to those POSTs go out on the stream. Streamable HTTP has no such event, so
//! a server that sends it speaks the older transport on the routes whose POST answers
//! carry no reply (see the http-notification-202 check).
//!
//! The event is found in the parse tree, in any of the five languages, as it is
//! written: a string literal holding the event's wire text (`"event: endpoint\ndata: …"`),
//! `endpoint` handed to an event builder (`Event::default().event("endpoint")`), or
//! `endpoint` as the value of an `event` member, key or keyword
//! (`{"event": "endpoint", "data": url}`, `ServerSentEvent(event="endpoint")`).

use super::{Ctx, Walk, unquote, walk_tree};
use crate::model::Span;
use crate::parse::Fields;
use tree_sitter::Node;

/// The bytes every spelling contains: files without them are not walked.
pub const WORD: &str = "endpoint";

/// Where the file first sends an `endpoint` event, if it does.
pub fn endpoint_event(ctx: &Ctx, root: Node) -> Option<Span> {
    let mut found = None;
    walk_tree(root, |node| {
        if !is_string(node.kind()) {
            return Walk::Descend;
        }
        if sends_endpoint(ctx, node) {
            found = Some(ctx.span(node));
            return Walk::Stop;
        }
        Walk::Skip
    });
    found
}

/// String literal nodes of the five grammars (Python and JavaScript `string`,
/// `template_string`; Go's interpreted and raw literals; Rust's; PHP's quoted,
/// interpolated and heredoc strings).
fn is_string(kind: &str) -> bool {
    matches!(
        kind,
        "string"
            | "template_string"
            | "interpreted_string_literal"
            | "raw_string_literal"
            | "string_literal"
            | "encapsed_string"
            | "heredoc"
            | "nowdoc"
    )
}

fn sends_endpoint(ctx: &Ctx, node: Node) -> bool {
    let text = ctx.text(node);
    if !text.contains(WORD) {
        return false;
    }
    // The wire text of the event itself.
    if text.contains("event: endpoint") || text.contains("event:endpoint") {
        return true;
    }
    unquote(text) == WORD
        && (names_event_member(ctx, node) || is_event_argument(ctx, node) || is_event_parameter(ctx, node))
}

/// `endpoint` handed to a function of the file whose parameter in that place is named
/// for an event (Go's `send := func(event string, data any) error { .. }` then
/// `send("endpoint", url)`).
fn is_event_parameter(ctx: &Ctx, node: Node) -> bool {
    let Some(args) = node.parent().filter(|a| matches!(a.kind(), "arguments" | "argument_list")) else {
        return false;
    };
    let Some(position) =
        (0..args.named_child_count()).find(|&i| args.named_child(i).is_some_and(|a| a.id() == node.id()))
    else {
        return false;
    };
    let Some(callee) = args.parent().and_then(|call| call.field("function")) else {
        return false;
    };
    // `send("endpoint", url)`, or a method of the file's own type (`sess.send("endpoint",
    // url)` with `func (s *session) send(event, data string) bool`).
    let full = ctx.text(callee);
    let name = full.rsplit(['.', ':']).next().unwrap_or(full);
    if name.is_empty() || !name.chars().all(|c| c.is_alphanumeric() || c == '_') {
        return false;
    }
    // A method's own receiver (`self`, `&self`) is no argument.
    let receiver = |p: &Node| p.kind() == "self_parameter" || matches!(ctx.text(*p), "self" | "cls");
    let mut root = node;
    while let Some(p) = root.parent() {
        root = p;
    }
    let mut found = false;
    walk_tree(root, |n| {
        if found {
            return Walk::Stop;
        }
        let Some(params) = n.field("parameters") else { return Walk::Descend };
        // Named by its declaration (`func send(..)`, `def send(..)`) or by the
        // variable it is assigned to (`send := func(..)`, `const send = (..) =>`).
        let own = n.field("name").map(|x| ctx.text(x));
        let bound = n
            .parent()
            .and_then(|p| if p.kind() == "expression_list" { p.parent() } else { Some(p) })
            .and_then(|p| p.field("left").or_else(|| p.field("name")))
            .map(|x| ctx.text(x));
        if own != Some(name) && bound != Some(name) {
            return Walk::Descend;
        }
        let listed: Vec<Node> = (0..params.named_child_count())
            .filter_map(|i| params.named_child(i))
            .filter(|p| !receiver(p) && p.kind() != "comment")
            .collect();
        let param = listed.get(position).map(|p| {
            let named = p.field("name").or_else(|| p.field("pattern"));
            named.map_or_else(|| ctx.text(*p), |x| ctx.text(x))
        });
        found = param.is_some_and(|p| names_event(p.split([':', ' ']).next().unwrap_or(p)));
        if found { Walk::Stop } else { Walk::Descend }
    });
    found
}

/// `endpoint` as the value of a member, key, keyword or constant named for an event:
/// a Python or JavaScript pair, a Python keyword argument, a Go keyed element, a Rust
/// field initializer, a PHP array element, or a constant or variable
/// (`eventEndpoint = "endpoint"`, `const EVENT_ENDPOINT = 'endpoint'`).
fn names_event_member(ctx: &Ctx, node: Node) -> bool {
    let mut value = node;
    let Some(mut parent) = node.parent() else { return false };
    // Go wraps each side of a keyed element in a `literal_element`, and the values of a
    // `const` in an `expression_list`.
    if matches!(parent.kind(), "literal_element" | "expression_list") {
        value = parent;
        match parent.parent() {
            Some(p) => parent = p,
            None => return false,
        }
    }
    if !matches!(
        parent.kind(),
        "pair"
            | "keyword_argument"
            | "keyed_element"
            | "field_initializer"
            | "array_element_initializer"
            | "const_spec"
            | "var_spec"
            | "const_item"
            | "static_item"
            | "const_element"
            | "variable_declarator"
            | "assignment"
    ) {
        return false;
    }
    let mut cursor = parent.walk();
    let key = parent.named_children(&mut cursor).next();
    key.is_some_and(|k| k.id() != value.id() && names_event(&unquote(ctx.text(k))))
}

/// `endpoint` handed to a function or method named for an event (`.event("endpoint")`,
/// `writeSSEEvent(w, "endpoint", url)`, `send_event("endpoint", url)`).
fn is_event_argument(ctx: &Ctx, node: Node) -> bool {
    let mut args = node.parent();
    // PHP wraps each argument in an `argument` node.
    if args.is_some_and(|a| a.kind() == "argument") {
        args = args.and_then(|a| a.parent());
    }
    let Some(args) = args.filter(|a| matches!(a.kind(), "arguments" | "argument_list")) else {
        return false;
    };
    let Some(call) = args.parent() else { return false };
    let callee = call.field("function").or_else(|| call.field("name"));
    callee.is_some_and(|c| {
        let text = ctx.text(c);
        names_event(text.rsplit(['.', ':', '>']).next().unwrap_or(text))
    })
}

/// Whether one of the words of a name is `event` (`event`, `writeSSEEvent`,
/// `EVENT_ENDPOINT`, `send_event`; not `preventDefault`).
fn names_event(name: &str) -> bool {
    words(name).iter().any(|w| w.eq_ignore_ascii_case("event"))
}

/// The words of an identifier: split at `_`, `-` and other separators, and where the
/// case changes (`writeSSEEvent` is `write`, `SSE`, `Event`).
fn words(name: &str) -> Vec<&str> {
    let mut out = Vec::new();
    for part in name.split(|c: char| !c.is_ascii_alphanumeric()).filter(|p| !p.is_empty()) {
        let bytes = part.as_bytes();
        let mut start = 0;
        for i in 1..bytes.len() {
            let (prev, here) = (bytes[i - 1], bytes[i]);
            let next_lower = bytes.get(i + 1).is_some_and(|b| b.is_ascii_lowercase());
            if (prev.is_ascii_lowercase() && here.is_ascii_uppercase())
                || (prev.is_ascii_uppercase() && here.is_ascii_uppercase() && next_lower)
            {
                out.push(&part[start..i]);
                start = i;
            }
        }
        out.push(&part[start..]);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::{Grammar, parse};

    fn finds(grammar: Grammar, src: &str) -> bool {
        let tree = parse(grammar, src.as_bytes(), std::time::Duration::from_secs(5)).expect("parses");
        let ctx = Ctx::new(src.as_bytes(), 0);
        endpoint_event(&ctx, tree.root_node()).is_some()
    }

    #[test]
    fn the_endpoint_event_in_every_spelling() {
        use Grammar::*;
        // The wire text.
        assert!(finds(
            Go,
            "package m\nfunc f(w W) { fmt.Fprintf(w, \"event: endpoint\\ndata: %s\\n\\n\", u) }"
        ));
        assert!(finds(JavaScript, "res.write(`event: endpoint\\ndata: ${url}\\n\\n`);"));
        assert!(finds(Php, "<?php echo \"event: endpoint\\n\";"));
        assert!(finds(Python, "yield f\"event: endpoint\\ndata: {url}\\n\\n\""));
        // An event builder, a helper named for events, a member or keyword or constant.
        assert!(finds(Rust, "fn f() { let e = Event::default().event(\"endpoint\").data(u); }"));
        assert!(finds(Go, "package m\nfunc f() { writeSSEEvent(w, \"endpoint\", u) }"));
        assert!(finds(Go, "package m\nconst eventEndpoint = \"endpoint\""));
        assert!(finds(Python, "yield {\"event\": \"endpoint\", \"data\": url}"));
        assert!(finds(Python, "ServerSentEvent(data=url, event=\"endpoint\")"));
        assert!(finds(TypeScript, "send({ event: 'endpoint', data: url });"));
        assert!(finds(Php, "<?php $this->sendEvent('endpoint', $url);"));
        assert!(finds(Php, "<?php send_event('endpoint', '/mcp.php');"));
        assert!(finds(Php, "<?php $e = ['event' => 'endpoint', 'data' => $url];"));
        // A function of the file whose parameter in that place is named for an event.
        assert!(finds(
            Go,
            "package m\nfunc f() { send := func(event string, data any) error { return nil }\nsend(\"endpoint\", u) }"
        ));
        assert!(finds(JavaScript, "const push = (eventName, data) => {}; push('endpoint', url);"));
        // Near misses: the word as something else.
        assert!(!finds(Python, "ENDPOINT = \"endpoint\"\nurl = base + \"/endpoint\""));
        assert!(!finds(
            TypeScript,
            "const cfg = { type: 'endpoint', path: '/mcp' }; preventDefault('endpoint');"
        ));
        assert!(!finds(Go, "package m\n// event: endpoint in a comment\nvar endpoint = \"/mcp\""));
        assert!(!finds(Rust, "fn f() { let e = Event::default().data(\"endpoint\"); }"));
        assert!(!finds(
            Go,
            "package m\nfunc f() { send := func(route string, data any) error { return nil }\nsend(\"endpoint\", u) }"
        ));
    }

    #[test]
    fn event_names_by_words() {
        assert_eq!(words("writeSSEEvent"), ["write", "SSE", "Event"]);
        assert_eq!(words("EVENT_ENDPOINT"), ["EVENT", "ENDPOINT"]);
        assert!(names_event("event"));
        assert!(names_event("send_event"));
        assert!(names_event("eventEndpoint"));
        assert!(!names_event("preventDefault"));
        assert!(!names_event("events_url"));
    }
}
