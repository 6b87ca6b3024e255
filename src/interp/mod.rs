//! An abstract interpreter over the language-neutral model.
//!
//! A *probe* is one hypothetical incoming message: a method name and whether it
//! carries an id. The interpreter runs a server's entry function with that
//! message, exploring every path whose conditions the probe does not decide,
//! and records what each path does: the JSON-RPC replies and HTTP responses it
//! emits or returns, and whether it marks the session initialized. Calls to
//! functions of the scanned code are followed through summaries keyed by
//! function and abstract arguments; recursive calls iterate to a fixpoint.

use crate::model::{Block, FnId, Span, Stmt};
pub use crate::program::Program;
pub use crate::value::{Effect, HttpValue, Probe, Reply, UNKNOWN_METHOD, UNKNOWN_NOTIFICATION, Value};
use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};
use std::collections::BTreeMap;
use std::rc::Rc;

mod branch;
mod expr;
mod fields;
mod join;
mod strategy;
mod text;

/// At most this many paths are followed through one block.
const MAX_PATHS: usize = 96;
/// Calls nested deeper than this are not followed.
const MAX_CALL_DEPTH: usize = 24;
/// Work bound for one probe.
const MAX_STEPS: usize = 400_000;
/// Work bound for all the probes of one server. Steps, not seconds, so that the
/// verdicts are the same however fast or loaded the machine is; on a small machine
/// (2 cores) a step costs 0.2-1.1 µs on nearly all the servers of the corpus that
/// reach the bound, so this is 0.2-1.1 s, below the time budget
/// (`ScanOptions::analysis_budget`), which stays as the guard against work that
/// steps do not count (one corpus server's steps, which copy and compare large
/// paths, cost up to 1.5 µs and still meet it on some runs).
pub const MAX_SERVER_STEPS: usize = 1_000_000;
/// Comparisons of two paths that count as one step. Keeping a block's paths few
/// (sorting, de-duplicating and joining them) costs time that grows with the number
/// and size of the paths, not with the code followed; uncounted, it let servers with
/// many paths reach the time budget first, which made their verdicts depend on the
/// machine. A comparison costs about an eighth of a step.
const COMPARISONS_PER_STEP: usize = 8;
/// A function recursing with different arguments each time (a walker over nested
/// values) is followed this deep; then its value is unknown. Without the bound the
/// calls branch at every level, up to the call depth: exponential work.
const MAX_RECURSION: usize = 3;
/// Fixpoint rounds for recursive functions.
const MAX_ROUNDS: usize = 4;
/// Steps a probe may take before it reads the message. Past them, a call that does
/// not lead to the dispatch, sit beside it or receive the message (a command opening
/// a database before it starts the server) is not followed: its value is unknown, as
/// a library's is, its effects unseen.
const PRELUDE_STEPS: usize = 5_000;

/// Why an exploration stopped before it had followed every path.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Cut {
    /// More paths through one block than [`MAX_PATHS`], even after joining.
    Paths,
    /// Calls nested deeper than [`MAX_CALL_DEPTH`].
    Depth,
    /// The work bound of one probe.
    Steps,
    /// A function recursing with changing arguments, followed [`MAX_RECURSION`] levels.
    Recursion,
    /// The server's time budget ran out.
    Time,
    /// The server's work budget ([`MAX_SERVER_STEPS`]) ran out.
    Work,
}

impl Cut {
    /// What was cut, for a reason a reader sees.
    pub fn describe(self) -> String {
        match self {
            Cut::Paths => format!("more than {MAX_PATHS} distinct paths through one block"),
            Cut::Depth => format!("calls nested more than {MAX_CALL_DEPTH} deep"),
            Cut::Steps => format!("more than {MAX_STEPS} evaluation steps for one message"),
            Cut::Recursion => format!("recursion followed only {MAX_RECURSION} levels deep"),
            Cut::Time => "the time budget for one server ran out".to_string(),
            Cut::Work => format!("more than {MAX_SERVER_STEPS} evaluation steps for one server"),
        }
    }
}

/// Calls to functions outside the scanned code that write a message out.
const SINKS: &[&str] = &[
    crate::lower::EMIT,
    crate::lower::PRINT,
    "print",
    "to_writer",
    "to_writer_pretty",
    "dump",
    "put",
    "send_text",
    "send_bytes",
    "send_str",
    "println",
    "write",
    "writeln",
    "Write",
    "WriteString",
    "write_all",
    "send",
    // A channel's non-blocking send (tokio's and crossbeam's `try_send`).
    "try_send",
    "send_json",
    "sendall",
    "respond",
    "json",
    "end",
    "echo",
    "Encode",
    "write_message",
    // A WebSocket connection's writes (gorilla/websocket's `conn.WriteMessage(t, data)`,
    // `conn.WriteJSON(v)`).
    "WriteMessage",
    "WriteJSON",
    "send_message",
    "sendMessage",
    "put_nowait",
];

/// What a predicate on a message says, by its name.
#[derive(Clone, Copy)]
enum Guard {
    /// Holds for a request (a message with an id).
    Request,
    /// Holds for a notification.
    Notification,
    /// Holds for a response, so for no probe.
    Response,
    /// Holds for any well-formed message: an envelope check.
    WellFormed,
}

/// Predicates on a message, by name, as the MCP SDKs define them (the TypeScript
/// SDK's `isJSONRPCRequest` and kin, often re-declared over a schema library), and
/// envelope checks (`isValidMessage`): what each says of a well-formed probe, used
/// when the scan cannot compute the body.
const MESSAGE_GUARDS: &[(&str, Guard)] = &[
    ("isJSONRPCRequest", Guard::Request),
    ("isJsonRpcRequest", Guard::Request),
    ("isRequest", Guard::Request),
    ("is_request", Guard::Request),
    ("isJSONRPCNotification", Guard::Notification),
    ("isJsonRpcNotification", Guard::Notification),
    ("isNotification", Guard::Notification),
    ("is_notification", Guard::Notification),
    ("isJSONRPCResponse", Guard::Response),
    ("isJSONRPCResultResponse", Guard::Response),
    ("isJSONRPCError", Guard::Response),
    ("isJSONRPCErrorResponse", Guard::Response),
    ("isJsonRpcResponse", Guard::Response),
    ("isResponse", Guard::Response),
    ("is_response", Guard::Response),
    ("isValidMessage", Guard::WellFormed),
    ("isValidJSONRPCMessage", Guard::WellFormed),
    ("isValidJsonRpcMessage", Guard::WellFormed),
    ("is_valid_message", Guard::WellFormed),
];

/// What a message guard named `callee` says of a probe, if `callee` is one.
fn guard_truth(callee: &str, probe: &Probe) -> Option<bool> {
    let name = crate::lower::last_segment(callee);
    let (_, guard) = MESSAGE_GUARDS.iter().find(|(n, _)| *n == name)?;
    Some(match guard {
        Guard::Request => probe.has_id,
        Guard::Notification => !probe.has_id,
        Guard::Response => false,
        Guard::WellFormed => true,
    })
}

/// What a variant named for a kind of JSON-RPC message says of a probe the code
/// decoded into its type (serde's untagged `Message::Request(..)`): `Notification`,
/// `JsonRpcNotification` hold for a message without an id; `Request`, `JSONRPCRequest`
/// for one with an id; `Response`, `ErrorResponse` for no probe. (A JSON object a
/// dynamic language decoded is no instance of such a class: `isinstance` is not this.)
pub(super) fn message_kind_truth(name: &str, has_id: bool) -> Option<bool> {
    Some(match crate::model::message_kind(name)? {
        crate::model::MessageKind::Notification => !has_id,
        crate::model::MessageKind::Request => has_id,
        crate::model::MessageKind::Response => false,
    })
}

#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
enum Status {
    Running,
    Returned(Value),
    Raised(Value),
    LeftLoop,
    /// A `continue`: the loop goes on with its next round (see `Stmt::NextRound`).
    NextRound,
    /// The program (or the PHP request) ended: no caller runs on, no handler catches it.
    Exited,
}

/// One path through the code, as far as it has run.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
struct State {
    env: BTreeMap<String, Value>,
    status: Status,
    yielded: Option<Value>,
    effects: Vec<Effect>,
    id_check: Option<Span>,
    method_branch: Option<Span>,
    prefix_check: Option<Span>,
    /// A decision on this path looked at the message (its method or id).
    saw_message: bool,
    /// How many effects the path had when it first looked at the message: what a
    /// server writes before that (a greeting at start-up) answers no message.
    heard: Option<usize>,
    /// The method decisions taken on this path, in order: which way the message was routed.
    route: Vec<(Span, bool)>,
    /// The client's `protocolVersion` was found in a supported set on this path: a read
    /// of it from here on is a checked version.
    version_checked: bool,
    /// A branch on an MCP method name was taken here on a value the scan could not
    /// compute (the name went through a call it cannot follow): every arm is a guess.
    blind: Option<Span>,
    /// Variables holding a test of the message made ahead of the branch on it
    /// (`let is_notification = request.id.is_none();`): whether each read its id and
    /// its method. A branch on one looks at the message as the test written in place would.
    tests: BTreeMap<String, (bool, bool)>,
    /// Variables holding a test of the client's version made ahead of the branch on it
    /// (`ok := isSupported(v)`, `supported = v in VERSIONS`): the variables a branch on
    /// one finds checked when it holds, as the test written in place would.
    version_tests: BTreeMap<String, Vec<String>>,
}

impl State {
    fn new(env: BTreeMap<String, Value>) -> State {
        State {
            env,
            status: Status::Running,
            yielded: None,
            effects: Vec::new(),
            id_check: None,
            method_branch: None,
            prefix_check: None,
            saw_message: false,
            heard: None,
            route: Vec::new(),
            version_checked: false,
            blind: None,
            tests: BTreeMap::new(),
            version_tests: BTreeMap::new(),
        }
    }
    /// Records a method decision; long routes keep their start.
    fn note_route(&mut self, span: Span, taken: bool) {
        if self.route.len() < 64 {
            self.route.push((span, taken));
        }
    }

    fn running(&self) -> bool {
        self.status == Status::Running
    }

    fn returned(&self) -> Option<&Value> {
        match &self.status {
            Status::Returned(v) => Some(v),
            _ => None,
        }
    }

    fn raised(&self) -> Option<&Value> {
        match &self.status {
            Status::Raised(v) => Some(v),
            _ => None,
        }
    }
}

/// How one path through a function ended.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Outcome {
    pub value: Value,
    pub raised: bool,
    /// The path ended the program or the request (`exit`, `os.Exit`): its callers end too.
    pub exited: bool,
    pub effects: Vec<Effect>,
    /// The last condition on this path that tested the message's id.
    pub id_check: Option<Span>,
    /// The last branch on this path chosen by the method name.
    pub method_branch: Option<Span>,
    /// The last `notifications/` prefix test on this path.
    pub prefix_check: Option<Span>,
    /// False for paths that answer whatever the message is (a parse error, a closed tenant).
    pub saw_message: bool,
    /// The method decisions taken on this path (two probes with the same route took the same branch).
    pub route: Vec<(Span, bool)>,
    /// The branch on a method name whose subject the scan could not compute (see `State::blind`).
    pub blind: Option<Span>,
    /// For a method called on an instance: the instance as the method left it.
    pub this: Option<Value>,
    /// How many of `effects` came before the message was first looked at (see
    /// `State::heard`): what a caller wrote before them answered no message.
    pub heard: Option<usize>,
}

impl Outcome {
    /// A call whose result is not known and that does nothing the checks judge.
    pub(crate) fn unknown() -> Outcome {
        Outcome {
            value: Value::unknown(),
            raised: false,
            exited: false,
            effects: Vec::new(),
            id_check: None,
            method_branch: None,
            prefix_check: None,
            saw_message: false,
            route: Vec::new(),
            blind: None,
            this: None,
            heard: None,
        }
    }
}

/// A closure's call: the closure, its arguments, and the values of the outer
/// function's variables it reads.
type ClosureCall = (FnId, Vec<Value>, Vec<(String, Value)>);

/// Runs probes through a program.
pub struct Interp<'p, 'a> {
    prog: &'p Program<'a>,
    probe: Probe,
    memo: HashMap<(FnId, Vec<Value>), Rc<Vec<Outcome>>>,
    fixpoint: HashMap<(FnId, Vec<Value>), Rc<Vec<Outcome>>>,
    fixpoint_used: HashSet<(FnId, Vec<Value>)>,
    fixpoint_changed: bool,
    in_progress: HashSet<(FnId, Vec<Value>)>,
    globals_cache: HashMap<(String, u32), Value>,
    /// Instances of classes that fields are declared with, built once per probe.
    field_instances: HashMap<String, Value>,
    /// The server's handshake sets its initialized state (see [`Interp::with_handshake`]).
    handshake: bool,
    /// The entry answers HTTP requests (see [`Interp::with_http_entry`]).
    http_entry: bool,
    /// Members of a class that one of its methods drains into a writer, by (class, member).
    write_queues: HashMap<(String, String), bool>,
    /// Functions whose calls anchor a reply's `site` (the server's dispatchers).
    anchors: HashSet<FnId>,
    /// The functions that lead to the dispatch (see [`Interp::with_lead_in`]).
    lead_in: std::sync::Arc<std::collections::BTreeSet<FnId>>,
    /// The functions being evaluated, innermost last.
    stack: Vec<FnId>,
    depth: usize,
    steps: usize,
    /// Steps over all rounds, against `allowance` with `compared` (see [`Interp::work`]).
    work: usize,
    /// Comparisons of two paths made over all rounds (see [`Interp::limit`]).
    compared: usize,
    allowance: usize,
    /// Function bodies evaluated (not answered from the memo), over the whole run.
    pub calls: usize,
    /// Set when a bound stopped the exploration early: the first bound hit.
    pub cut: Option<Cut>,
    /// Set when the probe's method name was rewritten into another name
    /// (`method.replace("/", ".")`): the code may then tell apart names it never spells.
    pub renamed_method: bool,
    /// The prefixes the code tested the probe's method name against
    /// (`method.starts_with("tools/")`): families of names it treats alike.
    pub method_prefixes: std::collections::BTreeSet<String>,
    /// When the server's time budget runs out.
    deadline: Option<std::time::Instant>,
    /// Print each call followed (`MCP_CONFORM_DEBUG=2`).
    trace: bool,
    /// Steps taken in each function, printed after each run (`MCP_CONFORM_DEBUG=3`).
    profile: Option<HashMap<FnId, usize>>,
    touched_id: bool,
    touched_method: bool,
    touched_prefix: bool,
    /// An MCP method name was compared with a value the scan could not compute.
    touched_blind: bool,
    /// The code tested whether the decoded message is a batch (`Array.isArray(body)`,
    /// the text's first byte): a batch probe is worth sending.
    pub tested_batch: bool,
    /// The call about to be bound spreads a value of unknown length (`f(...args)`):
    /// which parameters it leaves out is unknown. Set where the call's arguments are
    /// laid out, taken (reset) by `bind`.
    open_call: bool,
    /// Captured locals whose binding says too little (see `Interp::var`).
    not_captured: HashSet<String>,
    /// Whether a function leads to one of the server's dispatchers (see `Interp::toward`).
    toward_memo: HashMap<FnId, branch::Toward>,
    /// The variables of the function a closure is written in, as they stand where it
    /// is called from that function (`go func() { w.Write(frame) }()`): set at the
    /// call, taken by `call_function`.
    closure_env: Option<Vec<(String, Value)>>,
    /// Calls of closures that saw their outer function's variables, by those too.
    closure_memo: HashMap<ClosureCall, Rc<Vec<Outcome>>>,
    /// The names a function reads that it does not bind itself (see `Interp::free_names`).
    free_names: HashMap<FnId, Rc<Vec<String>>>,
    /// What a closure saw of its outer function's variables where it was made
    /// (`const tail = async () => { .. handler(..) .. }` handed to a middleware
    /// chain), for calls of it from elsewhere; `None` once two makings saw
    /// different values.
    closure_made: HashMap<FnId, Option<Vec<(String, Value)>>>,
    /// The names each function binds (see `Interp::bound_names`).
    bound: HashMap<FnId, Rc<Vec<String>>>,
}

impl<'p, 'a> Interp<'p, 'a> {
    pub fn new(prog: &'p Program<'a>, probe: Probe, anchors: HashSet<FnId>) -> Self {
        Interp {
            anchors,
            lead_in: std::sync::Arc::default(),
            toward_memo: HashMap::default(),
            stack: Vec::new(),
            trace: std::env::var("MCP_CONFORM_DEBUG").is_ok_and(|v| v == "2"),
            profile: std::env::var("MCP_CONFORM_DEBUG").is_ok_and(|v| v == "3").then(HashMap::default),
            prog,
            probe,
            memo: HashMap::default(),
            fixpoint: HashMap::default(),
            fixpoint_used: HashSet::default(),
            fixpoint_changed: false,
            in_progress: HashSet::default(),
            globals_cache: HashMap::default(),
            field_instances: HashMap::default(),
            handshake: false,
            http_entry: false,
            write_queues: HashMap::default(),
            depth: 0,
            steps: 0,
            work: 0,
            compared: 0,
            allowance: usize::MAX,
            calls: 0,
            cut: None,
            renamed_method: false,
            method_prefixes: std::collections::BTreeSet::new(),
            deadline: None,
            touched_id: false,
            touched_method: false,
            touched_prefix: false,
            touched_blind: false,
            tested_batch: false,
            open_call: false,
            not_captured: HashSet::default(),
            closure_env: None,
            closure_memo: HashMap::default(),
            free_names: HashMap::default(),
            closure_made: HashMap::default(),
            bound: HashMap::default(),
        }
    }

    /// The functions that lead to the dispatch: past [`PRELUDE_STEPS`] before the
    /// message is read, only these, the functions beside the dispatch and those handed
    /// the message are followed.
    pub fn with_lead_in(mut self, lead_in: std::sync::Arc<std::collections::BTreeSet<FnId>>) -> Self {
        self.lead_in = lead_in;
        self
    }

    /// Whether a call made on a path that has not read the message yet is left
    /// unfollowed (see [`PRELUDE_STEPS`]).
    fn beyond_prelude(&self, saw_message: bool, callee: FnId) -> bool {
        !saw_message
            && self.steps > PRELUDE_STEPS
            && !self.lead_in.is_empty()
            && !self.lead_in.contains(&callee)
            && !self
                .anchors
                .iter()
                .any(|&d| self.prog.nested(self.prog.file_of(callee), self.prog.file_of(d)))
    }

    /// Stops exploring when `deadline` passes (the server's time budget).
    pub fn with_deadline(mut self, deadline: std::time::Instant) -> Self {
        self.deadline = Some(deadline);
        self
    }

    /// The server's own handshake (its `initialize`, then `notifications/initialized`)
    /// sets its initialized state: a probe that comes after it finds the state set
    /// where the scan cannot compute it (a session store, a flag's starting value).
    pub fn with_handshake(mut self, sets_state: bool) -> Self {
        self.handshake = sets_state;
        self
    }

    /// The entry is an HTTP handler whose output is not the response (every language
    /// but PHP): what it prints to the process's standard output
    /// ([`crate::lower::PRINT`]) is a log line for whoever runs the server, never an
    /// answer to the client.
    pub fn with_http_entry(mut self, http: bool) -> Self {
        self.http_entry = http;
        self
    }

    /// Whether `this.queue` (a member of the running method's class) is a write queue:
    /// some method of the class takes items off it (`shift`, `popleft`, `get`) and
    /// calls a writer (`this.writer.write(chunk)`), as a backpressure loop does.
    fn is_write_queue(&mut self, target: &str) -> bool {
        let Some(member) = target.strip_prefix("this.").or_else(|| target.strip_prefix("self.")) else {
            return false;
        };
        if member.contains(['.', '[']) {
            return false;
        }
        let here = self.stack.last().copied().unwrap_or(0);
        let Some(owner) = self.prog.function(here).owner.clone() else { return false };
        let key = (owner, member.to_string());
        if let Some(known) = self.write_queues.get(&key) {
            return *known;
        }
        let drains: Vec<String> = ["shift", "popleft", "get", "get_nowait", "pop"]
            .iter()
            .flat_map(|m| [format!("this.{member}.{m}"), format!("self.{member}.{m}")])
            .collect();
        let found = self.prog.class(&key.0, here).is_some_and(|class| {
            self.prog.own_method_ids(class, here).into_iter().any(|m| {
                let (mut takes, mut writes) = (false, false);
                crate::model::walk_block(&self.prog.function(m).body, &mut |e| {
                    if let crate::model::Expr::Call { callee, .. } = e {
                        takes |= drains.contains(callee);
                        writes |= SINKS.contains(&crate::lower::last_segment(callee));
                    }
                });
                takes && writes
            })
        });
        self.write_queues.insert(key, found);
        found
    }

    /// At most `steps` evaluation steps for this run (what is left of a server's budget).
    pub fn with_allowance(mut self, steps: usize) -> Self {
        self.allowance = steps;
        self
    }

    /// Work done so far, over all rounds: evaluation steps, names looked up to find
    /// whether code leads to the server, and comparisons of paths
    /// ([`COMPARISONS_PER_STEP`] to a step).
    pub fn work(&self) -> usize {
        self.work + self.compared / COMPARISONS_PER_STEP
    }

    /// Notes that a bound cut the exploration short (the first one is kept).
    fn cut_short(&mut self, why: Cut) {
        self.cut.get_or_insert(why);
    }

    /// [`limit`] on this run's paths; the comparisons it makes count as work, so
    /// that the work bound, not the time guard, stops a server whose time goes to
    /// its many paths (the bound is steps so that verdicts do not depend on the
    /// machine's speed).
    fn limit(&mut self, states: Vec<State>) -> Vec<State> {
        let mut compared = 0;
        let states = limit(states, &mut self.cut, &mut compared);
        self.compared += compared;
        states
    }

    /// Whether the work bound or the time budget is used up; checked as steps are taken.
    fn out_of_budget(&mut self) -> bool {
        self.steps += 1;
        self.work += 1;
        if let Some(profile) = self.profile.as_mut() {
            *profile.entry(self.stack.last().copied().unwrap_or(0)).or_default() += 1;
        }
        if self.work() > self.allowance {
            self.cut_short(Cut::Work);
            self.steps = MAX_STEPS + 1;
            return true;
        }
        if self.steps > MAX_STEPS {
            self.cut_short(Cut::Steps);
            return true;
        }
        if self.steps.is_multiple_of(1024)
            && let Some(deadline) = self.deadline
            && std::time::Instant::now() > deadline
        {
            self.cut = Some(Cut::Time);
            self.steps = MAX_STEPS + 1;
            return true;
        }
        false
    }

    /// Runs an entry function with unknown arguments; returns how each path ended.
    pub fn run(&mut self, entry: FnId) -> Vec<Outcome> {
        self.run_with(entry, &[], &[])
    }

    /// [`Interp::run`] with some parameters bound to functions (callbacks the entry's
    /// caller hands it), and some names the entry captures bound the same way (see
    /// [`crate::group::Entry::captured`]).
    pub fn run_with(
        &mut self,
        entry: FnId,
        callbacks: &[(usize, FnId)],
        captured: &[(String, FnId)],
    ) -> Vec<Outcome> {
        if self.deadline.is_some_and(|d| std::time::Instant::now() > d) {
            self.cut = Some(Cut::Time);
            return Vec::new();
        }
        if self.work >= self.allowance {
            self.cut = Some(Cut::Work);
            return Vec::new();
        }
        let params = self.prog.function(entry).params.len();
        let mut args = vec![Value::unknown(); params];
        for &(i, f) in callbacks {
            if let Some(a) = args.get_mut(i) {
                *a = Value::Func(f);
            }
        }
        // A table the entry's one caller hands it (`serve(make_table())`), evaluated
        // where the entry is.
        self.stack.push(entry);
        for (i, a) in args.iter_mut().enumerate() {
            if !matches!(a, Value::Unknown(_)) {
                continue;
            }
            let Some(expr) = self.prog.entry_argument(entry, i) else { continue };
            if let Some([v @ Value::Object(_)]) = self.eval_aside(expr).as_deref() {
                *a = v.clone();
            }
        }
        self.stack.pop();
        let mut outcomes = Rc::new(Vec::new());
        for _ in 0..MAX_ROUNDS {
            self.memo.clear();
            self.closure_made.clear();
            self.in_progress.clear();
            self.fixpoint_changed = false;
            if matches!(self.cut, Some(Cut::Time | Cut::Work)) {
                break;
            }
            self.steps = 0;
            if !captured.is_empty() {
                self.closure_env = Some(captured.iter().map(|(n, f)| (n.clone(), Value::Func(*f))).collect());
            }
            outcomes = self.call_function(entry, args.clone());
            if !self.fixpoint_changed {
                break;
            }
        }
        if let Some(profile) = self.profile.take() {
            let mut spent: Vec<(FnId, usize)> = profile.into_iter().collect();
            spent.sort_by_key(|&(_, n)| std::cmp::Reverse(n));
            eprintln!("steps by function ({} in all, cut {:?}):", self.work, self.cut);
            for (id, n) in spent.into_iter().take(25) {
                let f = self.prog.function(id);
                eprintln!("  {n:>8} {} ({}:{})", f.name, self.prog.file_of(id).path, f.span.line);
            }
            self.profile = Some(HashMap::default());
        }
        outcomes.as_ref().clone()
    }

    fn call_function(&mut self, id: FnId, args: Vec<Value>) -> Rc<Vec<Outcome>> {
        // A closure called where it is written sees that function's variables; what
        // it does then depends on them, so it is remembered by them too.
        let captures = self.closure_env.take().filter(|c| !c.is_empty());
        let key = (id, args);
        let done = match &captures {
            None => self.memo.get(&key),
            Some(c) => self.closure_memo.get(&(id, key.1.clone(), c.clone())),
        };
        if let Some(done) = done {
            return done.clone();
        }
        if self.in_progress.contains(&key) || self.depth >= MAX_CALL_DEPTH {
            if self.depth >= MAX_CALL_DEPTH {
                self.cut_short(Cut::Depth);
            }
            self.fixpoint_used.insert(key.clone());
            return self.fixpoint.get(&key).cloned().unwrap_or_default();
        }
        if self.stack.iter().filter(|&&f| f == id).count() >= MAX_RECURSION {
            // A recursive helper that is handed neither the message nor a function,
            // writes nothing out and leads to no dispatcher (a tree walker run at
            // start-up, reading `node.get("id")` of its own JSON): what it gives back is
            // unknown and it does nothing the checks judge, so the analysis goes on
            // past it, whole.
            if !key.1.iter().any(|a| a.holds_message(2) || matches!(a, Value::Func(_)))
                && !self.writes_out(id)
                && !self.toward(id, 0)
            {
                return Rc::new(vec![Outcome::unknown()]);
            }
            self.cut_short(Cut::Recursion);
            return Rc::default();
        }
        if self.trace {
            let f = self.prog.function(id);
            eprintln!(
                "  call {} ({}:{}) depth {}",
                f.name,
                self.prog.file_of(id).path,
                f.span.line,
                self.depth
            );
        }
        self.in_progress.insert(key.clone());
        self.calls += 1;
        self.depth += 1;
        self.stack.push(id);
        let f = self.prog.function(id);
        let mut env = BTreeMap::new();
        for (i, p) in f.params.iter().enumerate() {
            env.insert(p.clone(), key.1.get(i).cloned().unwrap_or_else(Value::unknown));
        }
        for (name, value) in captures.iter().flatten() {
            env.entry(name.clone()).or_insert_with(|| value.clone());
        }
        // Null passed where the declared type excludes it (PHP `setId(string $id)` given
        // a notification's missing id): a TypeError, raised before the body runs.
        let type_error = f.marked.iter().any(|(p, m)| {
            *m == crate::model::ParamMark::NonNull && matches!(env.get(p), Some(Value::Null | Value::NoId))
        });
        // A method called on an instance gets it as its last argument: `self`/`this`.
        let rust = self.prog.file_of(id).language == crate::model::Language::Rust;
        let has_self = key.1.len() == f.params.len() + 1
            && (matches!(key.1.last(), Some(Value::Instance(..)))
                || (f.owner.is_some() && matches!(key.1.last(), Some(Value::Variant(..))))
                || (f.owner.is_some()
                    && rust
                    && matches!(key.1.last(), Some(Value::Object(_) | Value::Reply(_)))));
        if has_self && let Some(this) = key.1.last() {
            env.insert("self".to_string(), this.clone());
            env.insert("this".to_string(), this.clone());
        }
        // A method of the message's own type, called on the message; or of the type
        // that wraps its id, called on the id.
        if key.1.len() == f.params.len() + 1
            && let Some(this @ (Value::Message | Value::Id | Value::NoId)) = key.1.last()
            && f.owner.is_some()
        {
            env.insert("self".to_string(), this.clone());
        }
        let finals = if type_error {
            let mut raised = State::new(env);
            raised.status = Status::Raised(Value::unknown());
            vec![raised]
        } else {
            self.exec_block(State::new(env), &f.body)
        };
        // The entry's and the dispatchers' own writes before the message was looked at.
        let greets = self.stack.len() == 1 || self.anchors.contains(&id);
        let mut outcomes: Vec<Outcome> = finals
            .into_iter()
            .map(|mut st| {
                if greets && let Some(heard) = st.heard {
                    // A reply carrying the message's id answers it, looked at or not.
                    let mark = |r: &Reply| Reply {
                        pre_dispatch: r.pre_dispatch || !matches!(r.id, Value::Id | Value::NoId),
                        ..r.clone()
                    };
                    for e in &mut st.effects[..heard] {
                        if let Effect::Emit { value, .. } = e {
                            *value = value.map_replies(&mark);
                        }
                    }
                }
                let exited = st.status == Status::Exited;
                let (value, raised) = match st.status {
                    Status::Returned(v) => (v, false),
                    Status::Raised(v) => (v, true),
                    Status::Running => (st.yielded.unwrap_or(Value::Null), false),
                    Status::LeftLoop | Status::NextRound | Status::Exited => (Value::Null, false),
                };
                Outcome {
                    value,
                    raised,
                    exited,
                    this: if has_self { st.env.get("self").cloned() } else { None },
                    effects: st.effects,
                    id_check: st.id_check,
                    method_branch: st.method_branch,
                    prefix_check: st.prefix_check,
                    saw_message: st.saw_message,
                    route: st.route,
                    blind: st.blind,
                    heard: st.heard,
                }
            })
            .collect();
        outcomes.sort();
        outcomes.dedup();
        let mut outcomes = join::join_verdicts(outcomes);
        if self.anchors.contains(&id) {
            let mark = |r: &Reply| Reply { pre_dispatch: true, ..r.clone() };
            for o in outcomes.iter_mut().filter(|o| !o.saw_message || o.blind.is_some()) {
                o.value = o.value.map_replies(&mark);
                for e in &mut o.effects {
                    if let Effect::Emit { value, .. } = e {
                        *value = value.map_replies(&mark);
                    }
                }
            }
        }
        let outcomes = Rc::new(outcomes);
        self.stack.pop();
        self.depth -= 1;
        self.in_progress.remove(&key);
        if self.fixpoint_used.contains(&key) && self.fixpoint.get(&key) != Some(&outcomes) {
            self.fixpoint.insert(key.clone(), outcomes.clone());
            self.fixpoint_changed = true;
        }
        match captures {
            None => {
                self.memo.insert(key, outcomes.clone());
            }
            Some(c) => {
                self.closure_memo.insert((key.0, key.1, c), outcomes.clone());
            }
        }
        outcomes
    }

    fn exec_block(&mut self, st: State, block: &Block) -> Vec<State> {
        let mut states = vec![st];
        for stmt in block {
            let mut next = Vec::new();
            for s in states {
                if s.running() {
                    let (before, heard) = (s.effects.len(), s.heard.is_some());
                    let mut after = self.exec_stmt(s, stmt);
                    if !heard {
                        for a in after.iter_mut().filter(|a| a.saw_message && a.heard.is_none()) {
                            a.heard = Some(before);
                        }
                    }
                    next.extend(after);
                } else {
                    next.push(s);
                }
            }
            states = self.limit(next);
            if states.iter().all(|s| !s.running()) {
                break;
            }
        }
        states
    }

    fn exec_stmt(&mut self, st: State, stmt: &Stmt) -> Vec<State> {
        match stmt {
            Stmt::Assign { target, value, span } => {
                let outer = (self.touched_id, self.touched_method);
                self.touched_id = false;
                self.touched_method = false;
                let results = self.eval(st, value);
                let read = (self.touched_id, self.touched_method);
                self.touched_id |= outer.0;
                self.touched_method |= outer.1;
                let plain = !target.contains(['.', '[']);
                // Languages whose maps and objects are references (PHP's arrays are values).
                let by_reference = matches!(
                    self.prog.file_of(self.here()).language,
                    crate::model::Language::Python
                        | crate::model::Language::JavaScript
                        | crate::model::Language::TypeScript
                );
                results
                    .into_iter()
                    .map(|(mut s, v)| {
                        if plain {
                            if (read.0 || read.1) && matches!(v, Value::Bool(_)) {
                                s.tests.insert(target.clone(), read);
                            } else {
                                s.tests.remove(target);
                            }
                            // A value assigned anew is no longer the one a stored test checked.
                            s.version_tests.retain(|_, names| !names.contains(target));
                            let marks = self.version_marks(&s, value);
                            if marks.is_empty() {
                                s.version_tests.remove(target);
                            } else {
                                s.version_tests.insert(target.clone(), marks);
                            }
                        }
                        if writes_parameter(target, self.prog.function(self.here())) {
                            s.effects.push(Effect::Wrote {
                                target: target.clone(),
                                value: v.clone(),
                                span: *span,
                            });
                        } else if let Some(write) = self.captured_write(target, &v, *span) {
                            // `ctx.response = reply` in a closure the outer function handed
                            // on: the outer function's variable, however deep it is called.
                            s.effects.push(write);
                        }
                        if by_reference {
                            assign_shared(&mut s.env, target, v, *span);
                        } else {
                            assign(&mut s.env, target, v, *span);
                        }
                        s
                    })
                    .collect()
            }
            Stmt::Expr(e) => self.eval(st, e).into_iter().map(|(s, _)| s).collect(),
            Stmt::Return { value, .. } => match value {
                Some(e) => self
                    .eval(st, e)
                    .into_iter()
                    .map(|(mut s, v)| {
                        if s.running() {
                            s.status = Status::Returned(v);
                        }
                        s
                    })
                    .collect(),
                None => {
                    let mut s = st;
                    s.status = Status::Returned(Value::Null);
                    vec![s]
                }
            },
            Stmt::Raise { value, .. } => {
                let library = self.library_exception(value);
                self.eval(st, value)
                    .into_iter()
                    .map(|(mut s, v)| {
                        if s.running() {
                            s.status = Status::Raised(match &library {
                                Some(class) => {
                                    Value::Instance(class.as_str().into(), Rc::default(), Span::default())
                                }
                                None => v,
                            });
                        }
                        s
                    })
                    .collect()
            }
            Stmt::Yield(e) => self
                .eval(st, e)
                .into_iter()
                .map(|(mut s, v)| {
                    if s.running() {
                        s.yielded = Some(v);
                    }
                    s
                })
                .collect(),
            Stmt::LeaveLoop | Stmt::Continue => {
                let mut s = st;
                s.status = Status::LeftLoop;
                vec![s]
            }
            Stmt::NextRound => {
                let mut s = st;
                s.status = Status::NextRound;
                vec![s]
            }
            Stmt::Exit { .. } => {
                let mut s = st;
                s.status = Status::Exited;
                vec![s]
            }
            Stmt::Store { table, key, value, span } => self
                .eval_all(st, &[&**key, &**value])
                .into_iter()
                .map(|(mut s, vals)| {
                    // A key the path knows writes that member; another leaves the map as it was.
                    if let Value::Str(k) | Value::Method(k) = &vals[0]
                        && let Some(map) = s.env.get(table.as_str()).cloned()
                    {
                        let updated =
                            crate::value::with_member(&map, std::slice::from_ref(k), vals[1].clone(), *span);
                        s.env.insert(table.clone(), updated);
                    }
                    // `ctx["response"] = reply` in a nested function: its outer function's dict.
                    if let Value::Str(k) = &vals[0]
                        && !k.contains(['\'', '"', ']'])
                        && let Some(write) = self.captured_write(&format!("{table}['{k}']"), &vals[1], *span)
                    {
                        s.effects.push(write);
                    }
                    s
                })
                .collect(),
            Stmt::Push { target, value, span } => {
                let queue = self.is_write_queue(target);
                self.eval(st, value)
                    .into_iter()
                    .map(|(mut s, v)| {
                        // Into a queue a method of the class drains into a writer: written out.
                        if queue && v.interesting() {
                            s.effects.push(Effect::Emit { value: v.clone(), span: *span });
                        }
                        let list = match s.env.get(target.as_str()) {
                            Some(Value::Array(items)) => {
                                let mut items = items.as_ref().clone();
                                items.push(v);
                                Value::Array(std::rc::Rc::new(items))
                            }
                            // A list the scan cannot see: what it holds now is unknown, but it
                            // carries the value pushed.
                            // An empty `Vec::new()` pushed to: a list of one.
                            Some(Value::Captured(_)) => Value::Array(std::rc::Rc::new(vec![v])),
                            Some(other) => crate::value::join(&[other.clone(), v]),
                            None => crate::value::join(&[v]),
                        };
                        assign(&mut s.env, target, list, *span);
                        s
                    })
                    .collect()
            }
            Stmt::Destructure { targets, value, span } => self
                .eval(st, value)
                .into_iter()
                .map(|(mut s, v)| {
                    for (i, target) in targets.iter().enumerate() {
                        let element = match &v {
                            Value::Array(items) => items.get(i).cloned().unwrap_or_else(Value::unknown),
                            // A value that is not a tuple: its parts are unknown, but the
                            // first target carries what it carries.
                            other if i == 0 => other.clone(),
                            _ => Value::unknown(),
                        };
                        assign(&mut s.env, target, element, *span);
                    }
                    s
                })
                .collect(),
            Stmt::SetInitialized { span } => {
                let mut s = st;
                s.effects.push(Effect::SetInitialized(*span));
                vec![s]
            }
        }
    }
}

/// Assigns to a name, or into a member of the value a name holds:
/// `response['id'] = $rid`, `resp["error"]["code"] = -32601`, `reply.id = id`.
fn assign(env: &mut BTreeMap<String, Value>, target: &str, v: Value, span: Span) {
    let (base, keys) = split_target(target);
    match env.get(base) {
        // `self.x = v` writes the instance's field when there is one (the name
        // `self.x` otherwise, as a module-level table built in a constructor is).
        Some(current)
            if !keys.is_empty()
                && (!matches!(base, "self" | "this") || matches!(current, Value::Instance(..))) =>
        {
            let updated = crate::value::with_member(current, &keys, v, span);
            // `self` and `this` are one instance.
            if matches!(base, "self" | "this") {
                env.insert("self".to_string(), updated.clone());
                env.insert("this".to_string(), updated);
            } else {
                env.insert(base.to_string(), updated);
            }
        }
        _ => {
            env.insert(target.to_string(), v);
        }
    }
}

/// [`assign`] in a language whose maps and objects are references (Python,
/// JavaScript): `resp = {"result": result}` then `result["x"] = 1` changes `resp`
/// too, so a member write replaces the object it writes (that same object, not an
/// equal one) wherever the other variables hold it.
fn assign_shared(env: &mut BTreeMap<String, Value>, target: &str, v: Value, span: Span) {
    let (base, keys) = split_target(target);
    let before = match env.get(base) {
        Some(Value::Object(before)) if !keys.is_empty() => before.clone(),
        _ => return assign(env, target, v, span),
    };
    assign(env, target, v, span);
    let Some(after) = env.get(base).cloned() else { return };
    for (_, value) in env.iter_mut().filter(|(name, _)| name.as_str() != base) {
        if let Some(updated) = value.replace_shared(&before, &after) {
            *value = updated;
        }
    }
}

/// How a member write on a variable of an outer function, made by a closure, is
/// named while it goes up to that function: `<mark><outer id>:<target>`.
pub(super) const CAPTURED_WRITE: &str = "\u{1}captured:";

/// Whether `target` writes a member of one of the function's parameters (`self` aside).
fn writes_parameter(target: &str, f: &crate::model::Function) -> bool {
    let (base, keys) = split_target(target);
    // An element written on a parameter passed as a copy stays in the function.
    let copy = target.contains('[') && f.marks(base, crate::model::ParamMark::Copied);
    !keys.is_empty()
        && !matches!(base, "self" | "this" | "$this" | "cls")
        && f.params.iter().any(|p| p == base)
        && !copy
}

impl Interp<'_, '_> {
    /// The class a `raise`/`throw` constructs when it is a library's (`throw new
    /// AuthenticationException(..)`, `raise requests.HTTPError(..)`): a capitalised
    /// name that is no function or class of the code's own, nor the language's
    /// built-in exception (those are lowered as instances already). Raised, it is an
    /// instance of that class, which the code's own `catch` clauses cannot catch.
    fn library_exception(&self, value: &crate::model::Expr) -> Option<String> {
        // `AuthenticationException(..)`, or a module's (`jwt.InvalidTokenError(..)`).
        let crate::model::Expr::Call { callee, receiver, .. } = value else { return None };
        if receiver.as_deref().is_some_and(|r| !matches!(r, crate::model::Expr::Var(_))) {
            return None;
        }
        let here = self.here();
        let last = callee.rsplit(['\\', '.', ':']).next().unwrap_or(callee);
        let language = self.prog.file_of(here).language;
        (last.starts_with(|c: char| c.is_ascii_uppercase())
            && self.prog.resolve(callee, here).is_none()
            && self.prog.class(last, here).is_none()
            && crate::lower::exception_base(language, last).is_none())
        .then(|| last.to_string())
    }

    /// The function whose variable a member write in the current function writes,
    /// when that is a variable the current function (a closure) takes from the
    /// function it is written in.
    fn captured_owner(&mut self, target: &str) -> Option<FnId> {
        let (base, keys) = split_target(target);
        if keys.is_empty() || matches!(base, "self" | "this" | "$this" | "cls") {
            return None;
        }
        let here = self.here();
        let outer = self.prog.capturing_function(here)?;
        // A name the closure binds itself is its own; one the outer function binds
        // (a local or a parameter) is the outer function's.
        if self.bound_names(here).iter().any(|n| n == base)
            || !self.bound_names(outer).iter().any(|n| n == base)
        {
            return None;
        }
        Some(outer)
    }

    /// A closure's member write on its outer function's variable, as the effect that
    /// carries it up to that function (see [`CAPTURED_WRITE`]).
    fn captured_write(&mut self, target: &str, value: &Value, span: Span) -> Option<Effect> {
        let owner = self.captured_owner(target)?;
        // Only a function being run takes the write (see `CAPTURED_WRITE`): the module
        // around a route handler, which the probe does not run, never would, and the
        // write would only keep apart paths that did the same (a tool registry filled
        // behind a condition per tool).
        if !self.stack.contains(&owner) {
            return None;
        }
        Some(Effect::Wrote {
            target: format!("{CAPTURED_WRITE}{owner}:{target}"),
            value: value.clone(),
            span,
        })
    }

    /// The names a function binds: its parameters and what it assigns as a whole
    /// (`const ctx = ..`, `let (a, b) = ..`, `for x of ..`), remembered per function.
    fn bound_names(&mut self, id: FnId) -> Rc<Vec<String>> {
        if let Some(names) = self.bound.get(&id) {
            return names.clone();
        }
        let f = self.prog.function(id);
        let mut names: Vec<String> = f.params.clone();
        crate::model::walk_statements(&f.body, &mut |st| match st {
            Stmt::Assign { target, .. } if !target.contains(['.', '[']) => names.push(target.clone()),
            Stmt::Destructure { targets, .. } => names.extend(targets.iter().cloned()),
            _ => {}
        });
        crate::model::walk_block(&f.body, &mut |e| {
            if let crate::model::Expr::ForEach { targets, .. } = e {
                names.extend(targets.iter().cloned());
            }
        });
        names.sort();
        names.dedup();
        let names = Rc::new(names);
        self.bound.insert(id, names.clone());
        names
    }
}

/// A member write a called function made on one of its parameters, taken onto
/// the variable the caller passed for it (none when it passed an expression). A
/// write on a variable that is the caller's own parameter goes on up.
fn take_write(
    s: &mut State,
    write: (&str, &Value, Span),
    callee_params: &[String],
    renames: &[(String, String)],
    caller: &crate::model::Function,
) {
    let (target, value, span) = write;
    let (base, _) = split_target(target);
    if !callee_params.iter().any(|p| p == base) {
        return;
    }
    let Some((_, var)) = renames.iter().find(|(p, _)| p == base) else { return };
    let target = format!("{var}{}", &target[base.len()..]);
    if s.env.contains_key(var.as_str()) {
        assign(&mut s.env, &target, value.clone(), span);
    }
    if writes_parameter(&target, caller) {
        s.effects.push(Effect::Wrote { target, value: value.clone(), span });
    }
}

/// `a['b']["c"]` -> (`a`, [`b`, `c`]); `a.b` -> (`a`, [`b`]) when `a` is a plain name.
fn split_target(target: &str) -> (&str, Vec<String>) {
    if let Some(i) = target.find('[') {
        let keys = target[i..]
            .split(']')
            .filter_map(|k| k.trim_start_matches('[').trim().strip_prefix(['\'', '"']))
            .map(|k| k.trim_end_matches(['\'', '"']).to_string())
            .collect();
        return (&target[..i], keys);
    }
    match target.split_once('.') {
        Some((base, rest)) if !rest.contains('.') => (base, vec![rest.to_string()]),
        _ => (target, Vec::new()),
    }
}

/// Keeps the paths of a block few: duplicates go, paths that did the same things
/// are joined, and only if that is not enough are some dropped (and the run marked
/// incomplete). `compared` counts the comparisons of two paths made, the work that grows with
/// the number and size of the paths rather than with the code followed.
fn limit(mut states: Vec<State>, cut: &mut Option<Cut>, compared: &mut usize) -> Vec<State> {
    if states.len() > 1 {
        states.sort_by(|a, b| {
            *compared += 1;
            a.cmp(b)
        });
        states.dedup_by(|a, b| {
            *compared += 1;
            a == b
        });
    }
    if states.len() > join::JOIN_AT {
        states = join::join_paths(states, compared);
    }
    if states.len() > MAX_PATHS {
        states = join::join_outcomes(states, compared);
    }
    if states.len() > MAX_PATHS {
        states = fewer_refusals(states);
    }
    if states.len() > MAX_PATHS {
        states.truncate(MAX_PATHS);
        cut.get_or_insert(Cut::Paths);
    }
    states
}

/// How many paths that ended before looking at the message a block keeps when it has
/// too many paths.
const KEPT_REFUSALS: usize = 4;

/// Paths that ended without looking at the message (a handler's guards refusing a
/// request for its headers, its size, its session) say nothing of how a message is
/// answered, and the checks set them aside beside paths that did look at it: when a
/// block has too many paths, a few of them stand for the rest, so that the paths
/// that carry the message are not the ones dropped. So are paths still running that
/// have already answered the request without looking at it (a router's fallback
/// handed to a reverse proxy, back from its many answers).
fn fewer_refusals(states: Vec<State>) -> Vec<State> {
    let refused = |s: &State| {
        !s.saw_message
            && if s.running() {
                s.effects.iter().any(|e| matches!(e, Effect::Emit { value, .. } if value.http().is_some()))
            } else {
                !matches!(s.status, Status::LeftLoop | Status::NextRound)
            }
    };
    // Only beside paths that carry the message: when none does, the refusals are all
    // there is to judge.
    if states.iter().all(refused) {
        return states;
    }
    let mut kept = 0;
    states
        .into_iter()
        .filter(|s| {
            if !refused(s) {
                return true;
            }
            kept += 1;
            kept <= KEPT_REFUSALS
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Language;

    /// A path that ended refusing the request, one per distinct status.
    fn refusal(status: i64) -> State {
        let mut s = State::new(BTreeMap::new());
        s.status = Status::Returned(Value::Int(status));
        s
    }

    #[test]
    fn refusals_are_thinned_only_beside_paths_that_carry_the_message() {
        let mut states: Vec<State> = (0..10).map(refusal).collect();
        let mut carrying = State::new(BTreeMap::new());
        carrying.saw_message = true;
        states.push(carrying);
        let thinned = fewer_refusals(states);
        assert_eq!(thinned.len(), KEPT_REFUSALS + 1);
        assert!(thinned.iter().any(|s| s.saw_message && s.running()));
        // With nothing but refusals, they are all there is to judge.
        let alone: Vec<State> = (0..10).map(refusal).collect();
        assert_eq!(fewer_refusals(alone).len(), 10);
    }

    #[test]
    fn running_paths_that_answered_without_the_message_are_thinned_as_refusals() {
        // Back from a proxy's many answers, still running: each has written an HTTP status.
        let answered = |status: u16| {
            let mut s = State::new(BTreeMap::new());
            let http = HttpValue {
                status: crate::value::HttpStatus::Code(status),
                body: None,
                span: Span::default(),
            };
            s.effects.push(Effect::Emit { value: Value::Http(Rc::new(http)), span: Span::default() });
            s
        };
        let mut states: Vec<State> = (400..410).map(answered).collect();
        // Running paths that have answered nothing yet may still reach the message: kept.
        states.extend((0..3).map(|_| State::new(BTreeMap::new())));
        let mut carrying = State::new(BTreeMap::new());
        carrying.saw_message = true;
        states.push(carrying);
        let thinned = fewer_refusals(states);
        assert_eq!(thinned.len(), KEPT_REFUSALS + 3 + 1);
        assert_eq!(thinned.iter().filter(|s| s.effects.is_empty() && !s.saw_message).count(), 3);
        // Without a path carrying the message, every answer stays.
        let alone: Vec<State> = (400..410).map(answered).collect();
        assert_eq!(fewer_refusals(alone).len(), 10);
    }

    /// The facts of one Python file, `s.py`.
    fn python_file(src: &[u8]) -> Vec<crate::model::FileFacts> {
        let grammar = crate::parse::Grammar::of(Language::Python, std::path::Path::new("s.py"));
        let tree = crate::parse::parse(grammar, src, std::time::Duration::from_secs(5)).expect("parses");
        vec![
            crate::lower::lower(Language::Python, "s.py", src, &tree, 0, &Default::default())
                .expect("lowers"),
        ]
    }

    /// The function of that name.
    fn named(prog: &Program, name: &str) -> FnId {
        (0..prog.functions.len()).find(|&i| prog.function(i).name == name).expect("the function")
    }

    /// Comparing paths to keep a block's paths few is work the bound counts: a run
    /// given only the steps its statements take is cut by the work bound, so that
    /// the time guard is not what stops a server with many paths.
    #[test]
    fn comparisons_of_paths_count_against_the_work_bound() {
        let mut src = String::from("def handle(msg):\n    x = 0\n");
        for i in 0..12 {
            src.push_str(&format!(
                "    if msg.get('k{i}'):\n        x = {i}\n    else:\n        x = {}\n",
                i + 100
            ));
        }
        src.push_str("    return x\n");
        let files = python_file(src.as_bytes());
        let prog = Program::new(&files);
        let handle = named(&prog, "handle");
        let mut whole = Interp::new(&prog, Probe::request("ping"), HashSet::default());
        whole.run(handle);
        assert_eq!(whole.cut, None);
        assert!(whole.compared >= COMPARISONS_PER_STEP, "{} comparisons", whole.compared);
        assert_eq!(whole.work(), whole.work + whole.compared / COMPARISONS_PER_STEP);
        let mut bounded =
            Interp::new(&prog, Probe::request("ping"), HashSet::default()).with_allowance(whole.work);
        bounded.run(handle);
        assert_eq!(bounded.cut, Some(Cut::Work));
    }

    /// A command-line mode at the program's start that ends the run without reaching
    /// the server (`if len(sys.argv) > 1: walk(..); sys.exit(0)`) is not followed by
    /// a probe; a mode that goes on to the server is.
    #[test]
    fn command_modes_that_end_the_run_are_not_followed() {
        let run = |mode_ends: &str| {
            let src = format!(
                "import sys, json\n\
                 def walk(value):\n    walk([value, 1])\n    walk([value, 2])\n    return value\n\
                 def dispatch(msg):\n    if msg.get('method') == 'ping':\n        return {{'jsonrpc': '2.0', 'id': msg['id'], 'result': {{}}}}\n\
                 def main():\n    if len(sys.argv) > 1:\n        walk(sys.argv){mode_ends}\n\
                 \x20   for line in sys.stdin:\n        reply = dispatch(json.loads(line))\n        if reply is not None:\n            print(json.dumps(reply))\n"
            );
            let files = python_file(src.as_bytes());
            let prog = Program::new(&files);
            let anchors = std::iter::once(named(&prog, "dispatch")).collect();
            let mut interp = Interp::new(&prog, Probe::request("ping"), anchors);
            let outcomes = interp.run(named(&prog, "main"));
            (interp.cut, outcomes.iter().any(|o| !o.effects.is_empty()))
        };
        assert_eq!(run("\n        sys.exit(0)"), (None, true), "the mode that exits is left aside");
        let (cut, answered) = run("");
        // (The walker neither gets the message nor writes: its depth cuts nothing.)
        assert_eq!(cut, None, "a mode that goes on to the server is followed");
        assert!(answered);
    }

    /// A function that recurses at two places with a different argument each time
    /// (a walker over nested values) is followed a few levels deep, not to the call
    /// depth at two branches a level: one that writes out is cut there, and the cut
    /// is recorded; one that does nothing the checks judge is summed up as an unknown
    /// result, with no cut.
    #[test]
    fn recursion_with_changing_arguments_is_bounded() {
        let walk_with = |extra: &str| {
            let src = format!(
                "def walk(value):\n{extra}    walk([value, 1])\n    walk([value, 2])\n    return value\n"
            );
            let files = python_file(src.as_bytes());
            let prog = Program::new(&files);
            let walk = named(&prog, "walk");
            let mut interp = Interp::new(&prog, Probe::request("ping"), HashSet::default());
            interp.run(walk);
            (interp.calls, interp.cut)
        };
        let (calls, cut) = walk_with("    print(value)\n");
        assert!(calls <= 2usize.pow(MAX_RECURSION as u32), "{calls} calls");
        assert_eq!(cut, Some(Cut::Recursion), "the cut is recorded");
        let (calls, cut) = walk_with("");
        assert!(calls <= 2usize.pow(MAX_RECURSION as u32), "{calls} calls");
        assert_eq!(cut, None, "a walker that does nothing judged cuts nothing");
    }
}
