//! The scan-wide symbol table: functions by name, module-level tables, and
//! handler registrations, resolved from the place that refers to them.
//!
//! Names resolve to the nearest definition: the same file first, then files in
//! the same folder or a folder above or below it, then anywhere. Handler
//! registrations and tables only count from related folders, so two servers in
//! one repository never borrow each other's handlers.

use crate::model::{Block, Expr, FileFacts, FnId, Function, Language, Stmt, dir_of};
use crate::settings::Knowledge;
use rustc_hash::FxHashMap as HashMap;
use rustc_hash::FxHashSet as HashSet;

/// At most this many classes stand for an object the scan cannot see.
pub const MAX_IMPLEMENTERS: usize = 32;

/// A chained call's receiver is typed through at most this many calls (`a().b().c()`).
const MAX_CHAIN: usize = 16;

/// One binding seen after others: the function they all name, or `None` once two
/// differ (`found` is `None` before the first).
pub fn agreeing(found: Option<Option<FnId>>, next: Option<FnId>) -> Option<FnId> {
    match found {
        None => next,
        Some(prev) if prev == next => prev,
        Some(_) => None,
    }
}

/// Functions kept in fields by setters, by (file of the class, class, field); `None`
/// where the setter is handed different functions.
type StoredCallbacks<'a> = HashMap<(u32, &'a str, String), Option<FnId>>;

/// Go's constructors that are plain functions, for [`Program::factory_field`].
#[derive(Default)]
struct GoFactories<'a> {
    /// By type: the functions that build one into a local, with that local.
    builders: HashMap<&'a str, Vec<(FnId, &'a str)>>,
    /// By type: its methods that have a body.
    methods: HashMap<&'a str, Vec<FnId>>,
    /// By type: the struct literals with fields that build one (`&Server{version:
    /// "2025-03-26"}`, returned or bound to a local), with the function.
    literals: HashMap<&'a str, Vec<(FnId, Members<'a>)>>,
}

/// A struct literal's members, as written.
type Members<'a> = &'a [(String, Expr)];

/// By function: the type whose struct literal it returns, and which of its parameters
/// goes to which field (see [`Program::field_factories`]).
type FieldFactories<'a> = HashMap<FnId, (&'a str, Vec<(usize, String)>)>;

/// Where the arguments of a call that builds or sets up an object go: the type's
/// fields as seen from `file`, which parameter (by position, or by keyword among
/// `keywords`, Python's) goes to which field.
struct Fields<'s, 'a> {
    file: u32,
    class: &'a str,
    stores: &'s [(usize, String)],
    keywords: Option<&'s [String]>,
}

/// Shards of [`Program::resolve`]'s answers: the servers are judged in parallel.
const RESOLVE_SHARDS: usize = 16;

/// Answers by the hash of (caller, callee), each with the caller and the callee's
/// text it answers (two may share a hash).
type ResolveShard = std::sync::Mutex<HashMap<u64, Vec<(FnId, Box<str>, Option<FnId>)>>>;

#[derive(Default)]
struct ResolveCache {
    shards: [ResolveShard; RESOLVE_SHARDS],
}

pub struct Program<'a> {
    files: &'a [FileFacts],
    file_index: HashMap<u32, usize>,
    pub functions: Vec<(&'a FileFacts, &'a Function)>,
    by_name: HashMap<&'a str, Vec<FnId>>,
    /// The types and classes that own a method.
    owners: HashSet<(Language, &'a str)>,
    /// Interfaces by name, with the file declaring each and the methods it names.
    interfaces: HashMap<&'a str, Vec<(&'a FileFacts, &'a [String])>>,
    /// Functions that are members of an object literal, found by their member name
    /// (see `FileFacts::object_members`).
    object_members: HashSet<FnId>,
    /// Inner functions of a factory that an object literal in it names as members
    /// (`return { handleBody, tools }`): called on what the factory returns.
    factory_members: HashSet<FnId>,
    /// Member names some assignment anywhere writes (`ctx.response = ..`): an object
    /// built without such a member may have it by the time it is read.
    written_members: HashSet<&'a str>,
    /// Functions by folder and name: most calls resolve next door, without a scan.
    by_dir: HashMap<(&'a str, &'a str), Vec<FnId>>,
    /// Module-level bindings and tables built in functions: (file, value, whether
    /// a constructor assigns it).
    globals: HashMap<&'a str, Vec<(u32, &'a Expr, bool, bool)>>,
    registrations: Vec<Registered>,
    /// Event listeners with their handlers resolved: (emitter as written, event,
    /// handler, the file registering it).
    listeners: Vec<(&'a str, &'a str, FnId, u32)>,
    /// Enums decoded by the message's `method` (serde's `tag = "method"`): their files
    /// and tables of wire names to variants.
    tagged: Vec<(u32, &'a Expr)>,
    /// What the configuration says about code the scan cannot see.
    pub knowledge: Knowledge,
    /// JSON member names of struct fields (serde renames, Go tags), where every
    /// struct that names the field agrees.
    json_names: HashMap<&'a str, &'a str>,
    /// The files that name each struct field, in file order, with the member name
    /// the file gives it first.
    json_by_field: HashMap<&'a str, Vec<(&'a FileFacts, &'a str)>>,
    /// Field names the scanned code's structs declare (Rust).
    declared_fields: HashSet<&'a str>,
    /// Go struct types by (folder, name): a package's types, whichever file declares them.
    struct_types: HashSet<(&'a str, &'a str)>,
    /// Per Go file (by path): the folders of the repository's own packages it
    /// imports, found through the go.mod module paths.
    go_local: HashMap<&'a str, Vec<String>>,
    /// Per Go package (by folder): the folders of the repository's own packages any
    /// of its files imports. A package is one scope, whichever file names the import.
    go_package_local: HashMap<&'a str, Vec<String>>,
    /// The folders of the repository's Go modules (where their `go.mod` files are).
    go_module_dirs: Vec<String>,
    /// The folder of the repository's own package a Go file imports under an alias,
    /// by (file, alias).
    go_alias_local: HashMap<(&'a str, &'a str), String>,
    /// Per Rust file (by path): the folders of the workspace's crates it `use`s.
    crate_local: HashMap<&'a str, Vec<String>>,
    /// The names of the workspace's own crates (as `use` writes them, `_` for `-`).
    rust_crates: HashSet<String>,
    /// Per function: the members it writes on values it did not create.
    writes: Vec<Vec<&'a str>>,
    /// Calls without a receiver by the last segment of the name they call, with the
    /// calling function: built once, when first asked (see [`Program::calls_named`]).
    calls: std::sync::OnceLock<HashMap<&'a str, Vec<(FnId, &'a Expr)>>>,
    /// Functions kept in a field by a setter (see [`Program::stored_callback`]).
    stored: std::sync::OnceLock<StoredCallbacks<'a>>,
    /// Go's plain-function constructors, built when first asked (see
    /// [`Program::factory_field`]).
    go_factories: std::sync::OnceLock<GoFactories<'a>>,
    /// Per function, built when first asked: its assignments as (target, value),
    /// sorted by target and in the order written within one (see [`Program::assignments`]).
    assigns: Vec<std::sync::OnceLock<Vec<(&'a str, &'a Expr)>>>,
    /// Per function, built when first asked: the assignments of the functions written
    /// inside its text (itself first) as (target, function, value), sorted by target,
    /// and by function and in the order written within one (see
    /// `Program::bindings_within`).
    within: Vec<std::sync::OnceLock<Vec<Binding<'a>>>>,
    /// What [`Program::resolve`] found, in shards by the hash of (caller, callee).
    resolved: ResolveCache,
    /// What [`Program::constructor_field`] found, by (class, caller's file, field):
    /// the class by its declaration's address, as `Program::class` picks it for the
    /// caller (the constructor and the bases are looked up from the caller's file).
    constructor_fields: std::sync::Mutex<HashMap<CtorFieldKey, Option<&'a Expr>>>,
    /// What [`Program::entry_argument`] found, by (entry, parameter).
    entry_arguments: std::sync::Mutex<HashMap<(FnId, usize), Option<&'a Expr>>>,
    /// The entry arguments each thread is looking for (see `Program::entry_argument`).
    entry_arguments_open: std::sync::Mutex<HashSet<(std::thread::ThreadId, FnId, usize)>>,
    /// Per function: the function whose text holds it, named nested functions
    /// included (see [`outer_functions`]).
    outer: Vec<Option<FnId>>,
    /// Per function: the names that hold values there (its parameters and the
    /// variables it assigns), sorted: `x.get(..)` on one of them is a method of the
    /// value, never a module's function of that name.
    values: Vec<Vec<&'a str>>,
    /// The stems and folder names of the scanned files: a package an import names
    /// that is none of them is outside the scanned code.
    file_names: HashSet<&'a str>,
    /// Per file (by path): the variables that hold instances of classes packages
    /// outside the scanned code export (see [`external_instances`]).
    external_instances: HashMap<&'a str, HashSet<&'a str>>,
    /// Classes by name, in file order.
    classes: HashMap<&'a str, Vec<(&'a FileFacts, &'a crate::model::ClassDef)>>,
    /// The classes that name each class among their bases.
    subclasses: HashMap<&'a str, Vec<&'a crate::model::ClassDef>>,
    /// The classes a field of a class holds: as declared, or as a method of the
    /// class builds it (`$this->handler = new Handler()`). `(owner, field)`.
    field_types: HashMap<(&'a str, &'a str), Vec<&'a str>>,
    /// Types with an `id` member, by name: the files defining one, and whether the
    /// member is required there.
    id_members: HashMap<&'a str, Vec<(&'a FileFacts, bool)>>,
}

struct Registered {
    method: String,
    handler: String,
    /// The function that registers it, where its handler's name is resolved
    /// (`s.handlePing` is a method of the registering code's own type).
    by: Option<FnId>,
    /// The table it fills, by the last segment of its name (`handlers` for `self.handlers`).
    table: String,
    file: u32,
}

/// How close two files are: same file, then shared leading folders; `None` when
/// neither folder contains the other.
fn closeness<'s>(a: &'s str, b: &'s str) -> Option<usize> {
    if a == b {
        return Some(usize::MAX);
    }
    let (da, db) = (dir_of(a), dir_of(b));
    // One folder contains the other (or they are the same).
    let inside = |outer: &str, inner: &str| {
        outer.is_empty()
            || inner == outer
            || (inner.starts_with(outer) && inner.as_bytes().get(outer.len()) == Some(&b'/'))
    };
    if !(inside(da, db) || inside(db, da)) {
        return None;
    }
    Some(da.split('/').zip(db.split('/')).take_while(|(x, y)| x == y).count())
}

/// Whether `caller` imports the module at `path` (by one of its path hints).
fn imported(caller: &FileFacts, path: &str) -> bool {
    if caller.imports.is_empty() {
        return false;
    }
    let stem = memchr::memrchr(b'.', path.as_bytes()).map(|i| &path[..i]).unwrap_or(path);
    let dir = dir_of(path);
    caller.imports.iter().any(|hint| {
        // `@/lib/rpc` (a path alias): `<root>/lib/rpc` where the importer sits in the
        // project of `<root>` (inside its parent folder, where tsconfig lives).
        if let Some(rest) = hint.strip_prefix(crate::lower::PATH_ALIAS) {
            let root = stem.strip_suffix(rest).filter(|r| r.is_empty() || r.ends_with('/'));
            return root.is_some_and(|r| {
                let project = dir_of(r.trim_end_matches('/'));
                project.is_empty()
                    || (caller.path.starts_with(project)
                        && caller.path.as_bytes().get(project.len()) == Some(&b'/'))
            });
        }
        // `stem` or `dir` is `hint`, or ends with `/hint` (no allocation: this runs per candidate).
        crate::model::ends_with_path(stem, hint) || crate::model::ends_with_path(dir, hint)
    })
}

/// Where the argument list that ends `call` opens: the `(` matching its last `)`.
fn matching_open(call: &str) -> Option<usize> {
    if !call.ends_with(')') {
        return None;
    }
    let mut depth = 0usize;
    for (i, b) in call.bytes().enumerate().rev() {
        match b {
            b')' => depth += 1,
            b'(' => {
                depth = depth.checked_sub(1)?;
                if depth == 0 {
                    return Some(i);
                }
            }
            _ => {}
        }
    }
    None
}

/// Calls `f(key, value)` for every map write with a computed key in a block.
fn walk_stores(block: &crate::model::Block, f: &mut impl FnMut(&str, &Expr, &Expr)) {
    crate::model::walk_statements(block, &mut |stmt| {
        if let Stmt::Store { table, key, value, .. } = stmt {
            f(table, key, value);
        }
    });
}

/// `f` of every item, in order: on the worker threads when called from one (a
/// scan), else on this thread (the pool's threads have the stacks deep walks need).
pub fn per_item<I: Sync, T: Send>(items: &[I], f: impl Fn(&I) -> T + Sync) -> Vec<T> {
    use rayon::prelude::*;
    if rayon::current_thread_index().is_some() {
        items.par_iter().map(&f).collect()
    } else {
        items.iter().map(f).collect()
    }
}

/// The members a function writes on values it did not create: `ctx.response = r`
/// where `ctx` is a parameter or a variable of an enclosing function (a closure).
/// `self`/`this` and the function's own locals are left out.
fn member_writes(f: &Function) -> Vec<&str> {
    let mut locals: Vec<&str> = Vec::new();
    let mut targets: Vec<&str> = Vec::new();
    crate::model::walk_statements(&f.body, &mut |stmt| match stmt {
        Stmt::Assign { target, .. } => {
            if target.contains(['.', '[']) {
                targets.push(target);
            } else {
                locals.push(target);
            }
        }
        Stmt::Destructure { targets: names, .. } => locals.extend(names.iter().map(String::as_str)),
        _ => {}
    });
    targets.retain(|t| {
        let base = t.split(['.', '[']).next().unwrap_or(t);
        !matches!(base, "self" | "this" | "$this" | "cls") && !locals.contains(&base)
    });
    targets.sort_unstable();
    targets.dedup();
    targets
}

/// The one value a file binds a name to: its only assignment, or the
/// constructor's where the others are initial values the constructor replaces
/// (`table = {}` as a class field, then `this.table = {...}` in the constructor).
/// Several assignments otherwise (a setting changed at run time) have no one value.
fn one_binding<'x, 'e: 'x>(
    mut assignments: impl Iterator<Item = &'x (u32, &'e Expr, bool, bool)>,
) -> Option<&'e Expr> {
    let (_, first, first_ctor, _) = assignments.next()?;
    let mut chosen = first_ctor.then_some(*first);
    let mut count = 1;
    for (_, e, ctor, _) in assignments {
        count += 1;
        if *ctor {
            if chosen.is_some() {
                return None;
            }
            chosen = Some(*e);
        }
    }
    if count == 1 { Some(*first) } else { chosen }
}

/// Per function: the innermost function whose text holds it (a closure's, and a
/// nested named function's: Python's `def` in a `def`, `const dispatch = (m) => ..`
/// in a function). The functions of a file are visited in order of their start, with
/// a stack of the ones still open.
fn outer_functions(functions: &[(&FileFacts, &Function)]) -> Vec<Option<FnId>> {
    let mut out = vec![None; functions.len()];
    let mut by_file: HashMap<u32, Vec<FnId>> = HashMap::default();
    for (id, (_, f)) in functions.iter().enumerate() {
        by_file.entry(f.span.file).or_default().push(id);
    }
    for ids in by_file.values_mut() {
        let span = |id: FnId| functions[id].1.span;
        // Outer first where two start together.
        ids.sort_by_key(|&id| (span(id).start, std::cmp::Reverse(span(id).end)));
        let mut open: Vec<FnId> = Vec::new();
        for &id in ids.iter() {
            let s = span(id);
            while let Some(&top) = open.last() {
                let t = span(top);
                if t.start <= s.start && s.end <= t.end && (t.start, t.end) != (s.start, s.end) {
                    break;
                }
                open.pop();
            }
            out[id] = open.last().copied();
            open.push(id);
        }
    }
    out
}

/// The variables of a file that hold an instance of a class a package outside the
/// scanned code exports: each is assigned `new C(..)` (or `C(..)`) of a name imported
/// from such a package, and otherwise only values that build nothing
/// (`transports[sessionId]`, another variable), never the result of another call.
fn external_instances<'f>(file: &'f FileFacts, file_names: &HashSet<&str>) -> HashSet<&'f str> {
    let external = |callee: &str| {
        file.package_names
            .iter()
            .any(|(local, package)| local == callee && !file_names.contains(package.as_str()))
    };
    let mut built: HashSet<&str> = HashSet::default();
    let mut other_call: HashSet<&str> = HashSet::default();
    for f in &file.functions {
        crate::model::walk_statements(&f.body, &mut |stmt| {
            if let Stmt::Assign { target, value, .. } = stmt {
                let var = target.trim_start_matches('$');
                match value {
                    Expr::Call { callee, receiver: None, .. } if external(callee) => {
                        built.insert(var);
                    }
                    Expr::Call { .. } => {
                        other_call.insert(var);
                    }
                    _ => {}
                }
            }
        });
    }
    built.retain(|v| !other_call.contains(v));
    built
}

/// A constructor field asked for: (the class declaration's address, the caller's
/// file, the field).
type CtorFieldKey = (usize, u32, String);

thread_local! {
    /// The (function, local) pairs [`Program::factory_member`] is looking at on this
    /// thread, innermost last.
    static FACTORY_LOOKUPS: std::cell::RefCell<Vec<(FnId, String)>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// An assignment in a function: (target, the function, value).
type Binding<'a> = (&'a str, FnId, &'a Expr);

/// Whether the JavaScript or TypeScript file at `path` is the module `module`, a
/// relative import already resolved from the scan's root without its extension
/// (`src/rpc/handlers`): that file, or the folder's `index` file.
fn script_module_is(path: &str, module: &str) -> bool {
    let stem = path.rsplit_once('.').map_or(path, |(stem, _)| stem);
    stem == module || stem.strip_suffix("/index") == Some(module)
}

/// Whether the Python file at `path` is the module `module` as an import in the file
/// at `importer` spells it: `app.rpc.handlers` is `app/rpc/handlers.py` (or its
/// `__init__.py`), also under a source root (`src/app/rpc/handlers.py`); a relative
/// `.handlers` or `..rpc.handlers` is found from the importer's folder.
fn python_module_is(path: &str, module: &str, importer: &str) -> bool {
    let stem = path.strip_suffix(".py").unwrap_or(path);
    let stem = stem.strip_suffix("/__init__").unwrap_or(stem);
    let dots = module.len() - module.trim_start_matches('.').len();
    let rest = module[dots..].replace('.', "/");
    if dots == 0 {
        return !rest.is_empty() && crate::model::ends_with_path(stem, &rest);
    }
    let mut base = dir_of(importer);
    for _ in 1..dots {
        base = dir_of(base);
    }
    match (base.is_empty(), rest.is_empty()) {
        (_, true) => stem == base,
        (true, false) => stem == rest,
        (false, false) => stem.strip_prefix(base).and_then(|r| r.strip_prefix('/')) == Some(rest.as_str()),
    }
}

/// Languages whose code calls each other's functions: TypeScript and JavaScript do.
fn family(language: Language) -> Language {
    match language {
        Language::JavaScript => Language::TypeScript,
        other => other,
    }
}

impl<'a> Program<'a> {
    pub fn new(files: &'a [FileFacts]) -> Program<'a> {
        let mut functions = Vec::new();
        let mut by_name: HashMap<&str, Vec<FnId>> = HashMap::default();
        let mut owners: HashSet<(Language, &str)> = HashSet::default();
        let mut object_members: HashSet<FnId> = HashSet::default();
        // Functions an object literal names as members (`return { handle }`).
        let mut named_members: Vec<FnId> = Vec::new();
        let mut by_dir: HashMap<(&str, &str), Vec<FnId>> = HashMap::default();
        let mut globals: HashMap<&str, Vec<(u32, &Expr, bool, bool)>> = HashMap::default();
        let mut registrations = Vec::new();
        let mut tagged = Vec::new();
        for file in files {
            for f in &file.functions {
                let id = functions.len();
                functions.push((file, f));
                let module = f.name == "<module>";
                let constructor = matches!(f.name.as_str(), "constructor" | "__init__" | "__construct");
                // A vendored SDK's internals are not called by name from the server's code.
                if let Some(owner) = f.owner.as_deref() {
                    owners.insert((family(file.language), owner));
                }
                if !module && file.sdk_library.is_none() {
                    by_name.entry(f.name.as_str()).or_default().push(id);
                    by_dir.entry((dir_of(&file.path), f.name.as_str())).or_default().push(id);
                }
                for s in &f.body {
                    // Module-level names, and tables built in constructors (`self.handlers = {...}`).
                    if let Stmt::Assign { target, value, .. } = s
                        && (module || matches!(value, Expr::Object { .. }))
                    {
                        // A local object of an ordinary function (`let request = Request {..}`)
                        // is seen from its own file only; in Rust, where a function's `let`
                        // never binds a name outside it, not from other functions at all.
                        let local = !module && !constructor && !target.contains('.');
                        if local && file.language == crate::model::Language::Rust {
                            continue;
                        }
                        if module
                            && (target.ends_with(crate::lower::TAGGED_BY_METHOD)
                                || target.ends_with(crate::lower::UNIT_BY_NAME))
                        {
                            tagged.push((f.span.file, value));
                        }
                        globals.entry(target.as_str()).or_default().push((
                            f.span.file,
                            value,
                            constructor,
                            local,
                        ));
                    }
                }
            }
            // `return { async handle(p) {..} }`: the member is found as `handle` too.
            if !file.object_members.is_empty() && file.sdk_library.is_none() {
                let first = functions.len() - file.functions.len();
                for (key, name) in &file.object_members {
                    if let Some(i) = file.functions.iter().position(|f| f.name == *name) {
                        named_members.push(first + i);
                        if key != name {
                            by_name.entry(key.as_str()).or_default().push(first + i);
                            object_members.insert(first + i);
                        }
                    }
                }
            }
            // The file's functions were just pushed, in order.
            let first_of_file = functions.len() - file.functions.len();
            for r in &file.registrations {
                let index = file.functions.first().map(|f| f.span.file).unwrap_or(0);
                // A registration written inside a function (`@self.method("ping")` on a
                // `def` nested in a method) names its handler as seen from there.
                let by = file
                    .functions
                    .iter()
                    .enumerate()
                    .filter(|(_, f)| {
                        f.name != "<module>" && f.span.start <= r.span.start && r.span.end <= f.span.end
                    })
                    .min_by_key(|(_, f)| f.span.end - f.span.start)
                    .map(|(i, _)| first_of_file + i);
                registrations.push(Registered {
                    by,
                    method: r.method.clone(),
                    handler: r.handler.clone(),
                    table: crate::lower::last_segment(&r.registry).to_string(),
                    file: index,
                });
            }
        }
        let file_index = files
            .iter()
            .enumerate()
            .filter_map(|(i, f)| f.functions.first().map(|fun| (fun.span.file, i)))
            .collect();
        let mut json_names: HashMap<&str, &str> = HashMap::default();
        let mut ambiguous: HashMap<&str, bool> = HashMap::default();
        for file in files {
            for (field, member) in &file.json_names {
                match json_names.insert(field.as_str(), member.as_str()) {
                    Some(before) if before != member => {
                        ambiguous.insert(field.as_str(), true);
                    }
                    _ => {}
                }
            }
        }
        json_names.retain(|f, _| !ambiguous.contains_key(f));
        let mut json_by_field: HashMap<&str, Vec<(&FileFacts, &str)>> = HashMap::default();
        let declared_fields: HashSet<&str> =
            files.iter().flat_map(|f| f.declared_fields.iter().map(String::as_str)).collect();
        let struct_types: HashSet<(&str, &str)> = files
            .iter()
            .flat_map(|f| f.struct_types.iter().map(move |t| (crate::model::dir_of(&f.path), t.as_str())))
            .collect();
        let mut classes: HashMap<&str, Vec<(&FileFacts, &crate::model::ClassDef)>> = HashMap::default();
        let mut subclasses: HashMap<&str, Vec<&crate::model::ClassDef>> = HashMap::default();
        for file in files {
            for (field, member) in &file.json_names {
                let entries = json_by_field.entry(field.as_str()).or_default();
                if !entries.last().is_some_and(|(f, _)| std::ptr::eq(*f, file)) {
                    entries.push((file, member.as_str()));
                }
            }
            for class in &file.classes {
                classes.entry(class.name.as_str()).or_default().push((file, class));
                for base in &class.bases {
                    subclasses.entry(base.as_str()).or_default().push(class);
                }
            }
        }
        let mut field_types: HashMap<(&str, &str), Vec<&str>> = HashMap::default();
        for file in files {
            for (owner, field, class) in &file.field_types {
                field_types.entry((owner.as_str(), field.as_str())).or_default().push(class.as_str());
            }
        }
        for (_, f) in &functions {
            let Some(owner) = f.owner.as_deref() else { continue };
            // Every assignment of the method, in branches too (`if http: self.transport =
            // HttpTransport() else: self.transport = StdioTransport()` holds either).
            crate::model::walk_statements(&f.body, &mut |s| {
                if let Stmt::Assign { target, value: Expr::Call { callee, receiver: None, .. }, .. } = s
                    && let Some(field) = target.strip_prefix("self.").or_else(|| target.strip_prefix("this."))
                    && !field.contains(['.', '['])
                {
                    // `new Handler(...)`, `Handler(...)`, `Handler::new(...)`.
                    let class = callee.strip_suffix("::new").unwrap_or(callee);
                    if class.starts_with(|c: char| c.is_ascii_uppercase())
                        && class.chars().all(|c| c.is_alphanumeric() || c == '_')
                    {
                        field_types.entry((owner, field)).or_default().push(class);
                    }
                }
            });
        }
        let mut id_members: HashMap<&str, Vec<(&FileFacts, bool)>> = HashMap::default();
        for file in files {
            for (ty, required) in &file.id_members {
                id_members.entry(ty.as_str()).or_default().push((file, *required));
            }
        }
        for classes in field_types.values_mut() {
            classes.sort_unstable();
            classes.dedup();
        }
        let writes = per_item(&functions, |(_, f)| member_writes(f));
        let mut written_members: HashSet<&str> = HashSet::default();
        for (_, f) in &functions {
            crate::model::walk_statements(&f.body, &mut |stmt| {
                if let Stmt::Assign { target, .. } = stmt
                    && let Some((_, member)) = target.rsplit_once('.')
                {
                    written_members.insert(member);
                }
            });
        }
        let values = per_item(&functions, |(_, f)| value_names(f));
        let outer = outer_functions(&functions);
        // A factory's inner function that the object it returns names is a member of
        // that object; a module-level function named in a table stays a function.
        let factory_members: HashSet<FnId> =
            named_members.into_iter().filter(|&id| outer[id].is_some()).collect();
        let mut file_names: HashSet<&str> = HashSet::default();
        for file in files {
            for part in file.path.split('/') {
                file_names.insert(part.split('.').next().unwrap_or(part));
            }
        }
        let external_instances = files
            .iter()
            .filter(|f| !f.package_names.is_empty() && f.language != Language::Rust)
            .map(|f| (f.path.as_str(), external_instances(f, &file_names)))
            .filter(|(_, vars)| !vars.is_empty())
            .collect();
        let mut interfaces: HashMap<&str, Vec<(&FileFacts, &[String])>> = HashMap::default();
        for file in files {
            for (name, methods) in &file.interfaces {
                interfaces.entry(name.as_str()).or_default().push((file, methods.as_slice()));
            }
        }
        let mut prog = Program {
            interfaces,
            assigns: (0..functions.len()).map(|_| std::sync::OnceLock::new()).collect(),
            within: (0..functions.len()).map(|_| std::sync::OnceLock::new()).collect(),
            external_instances,
            values,
            outer,
            resolved: ResolveCache::default(),
            constructor_fields: std::sync::Mutex::new(HashMap::default()),
            entry_arguments: std::sync::Mutex::default(),
            entry_arguments_open: std::sync::Mutex::default(),
            calls: std::sync::OnceLock::new(),
            stored: std::sync::OnceLock::new(),
            go_factories: std::sync::OnceLock::new(),
            file_names,
            go_local: HashMap::default(),
            go_package_local: HashMap::default(),
            go_module_dirs: Vec::new(),
            go_alias_local: HashMap::default(),
            crate_local: HashMap::default(),
            rust_crates: HashSet::default(),
            writes,
            json_names,
            json_by_field,
            declared_fields,
            struct_types,
            classes,
            subclasses,
            field_types,
            id_members,
            files,
            file_index,
            functions,
            by_name,
            owners,
            object_members,
            factory_members,
            written_members,
            by_dir,
            globals,
            registrations,
            listeners: Vec::new(),
            tagged,
            knowledge: Knowledge::default(),
        };
        prog.registrations.extend(prog.registrar_calls());
        prog.listeners = prog.resolved_listeners();
        prog
    }

    /// Registrations made through a helper: `RegisterMethod(MethodPing, s.handlePing)`,
    /// `register_method("tools/list", handler)` where the helper's body stores one
    /// parameter into a map under another (`s.handlers[method] = handler`). The name
    /// is a literal or a constant.
    fn registrar_calls(&self) -> Vec<Registered> {
        // Helpers by name: the key and value parameters they store.
        let mut registrars: HashMap<&str, (usize, usize, String)> = HashMap::default();
        for (_, f) in &self.functions {
            walk_stores(&f.body, &mut |table, key, value| {
                let position = |e: &Expr| match e {
                    Expr::Var(v) => f.params.iter().position(|p| p == v),
                    _ => None,
                };
                if let (Some(k), Some(v)) = (position(key), position(value)) {
                    registrars.insert(f.name.as_str(), (k, v, crate::lower::last_segment(table).to_string()));
                }
            });
        }
        let mut out = Vec::new();
        let method_of = |key: &Expr, id: FnId| match key {
            Expr::Str(m) => Some(m.clone()),
            Expr::Var(c) => match self.constant(c, id) {
                Some(Expr::Str(m)) => Some(m.clone()),
                _ => None,
            },
            _ => None,
        };
        // Kept as written: `s.handlePing` resolves as a method, `handle_ping` as a function.
        let handler_of = |value: &Expr| match value {
            Expr::FnRef(n) | Expr::Var(n) => Some(n.clone()),
            _ => None,
        };
        // `handlers[MethodPing] = s.handlePing`: a write under a constant MCP name.
        for (id, (_, f)) in self.functions.iter().enumerate() {
            walk_stores(&f.body, &mut |table, key, value| {
                if let (Some(method), Some(handler)) = (method_of(key, id), handler_of(value))
                    && crate::model::is_mcp_method(&method)
                {
                    let table = crate::lower::last_segment(table).to_string();
                    out.push(Registered { method, handler, by: Some(id), table, file: f.span.file });
                }
            });
        }
        if registrars.is_empty() {
            return out;
        }
        for (id, (_, f)) in self.functions.iter().enumerate() {
            let index = f.span.file;
            // `for name, method := range methods { t.RegisterMethod(name, method) }` over a
            // table written in the function: each entry is registered.
            crate::model::walk_block(&f.body, &mut |e| {
                let Expr::ForEach { targets, iterable, body } = e else { return };
                let Some(value_var) = targets.last() else { return };
                // The table itself, or its pairs: Python's `table.items()`, JavaScript's
                // `Object.entries(table)`.
                let source = match iterable.as_ref() {
                    Expr::Call { callee, receiver: Some(r), args, .. }
                        if callee.ends_with("items") && args.is_empty() =>
                    {
                        r.as_ref()
                    }
                    Expr::Call { callee, receiver: None, args, .. }
                        if callee == "Object.entries" && args.len() == 1 =>
                    {
                        &args[0]
                    }
                    other => other,
                };
                let table = match source {
                    Expr::Object { entries, .. } => Some(entries),
                    Expr::Var(v) => f.body.iter().find_map(|s| match s {
                        Stmt::Assign { target, value: Expr::Object { entries, .. }, .. } if target == v => {
                            Some(entries)
                        }
                        _ => None,
                    }),
                    _ => None,
                };
                let Some(entries) = table else { return };
                crate::model::walk_block(body, &mut |c| {
                    let Expr::Call { callee, args, .. } = c else { return };
                    let Some((k, v, table)) = registrars.get(crate::lower::last_segment(callee)) else {
                        return;
                    };
                    let positional: Vec<&Expr> =
                        args.iter().filter(|a| !matches!(a, Expr::Named { .. })).collect();
                    let by_entry = matches!(positional.get(*v), Some(Expr::Var(h)) if h == value_var)
                        && matches!(positional.get(*k), Some(Expr::Var(key)) if key != value_var);
                    if !by_entry {
                        return;
                    }
                    for (key, handler) in entries.iter() {
                        let method = self.table_key(key, id).unwrap_or(key).to_string();
                        if let Some(handler) =
                            handler_of(handler).filter(|_| crate::model::is_mcp_method(&method))
                        {
                            out.push(Registered {
                                method,
                                handler,
                                by: Some(id),
                                table: table.clone(),
                                file: index,
                            });
                        }
                    }
                });
            });
            crate::model::walk_block(&f.body, &mut |e| {
                let Expr::Call { callee, args, .. } = e else { return };
                let Some((k, v, table)) = registrars.get(crate::lower::last_segment(callee)) else { return };
                let (k, v) = (*k, *v);
                let positional: Vec<&Expr> =
                    args.iter().filter(|a| !matches!(a, Expr::Named { .. })).collect();
                let (Some(key), Some(handler)) = (positional.get(k), positional.get(v)) else { return };
                let method = method_of(key, id);
                let handler = handler_of(handler);
                if let (Some(method), Some(handler)) =
                    (method.filter(|m| crate::model::is_mcp_method(m)), handler)
                {
                    out.push(Registered { method, handler, by: Some(id), table: table.clone(), file: index });
                }
            });
        }
        out
    }

    /// Resolves Rust `use` of another crate of the scanned workspace by its
    /// `Cargo.toml`: `use kami_protocol::mcp::methods` names the files under the
    /// folder of the crate named `kami-protocol`.
    pub fn with_rust_crates(&mut self, crates: &[(String, String)]) {
        if crates.is_empty() {
            return;
        }
        self.resolved = ResolveCache::default();
        self.rust_crates.extend(crates.iter().map(|(_, name)| name.replace('-', "_")));
        for file in self.files.iter().filter(|f| f.language == Language::Rust) {
            let local: Vec<String> = file
                .imports
                .iter()
                .filter_map(|i| i.strip_prefix(crate::model::RUST_CRATE))
                .flat_map(|name| {
                    crates.iter().filter(move |(_, n)| n == name).map(|(folder, _)| folder.clone())
                })
                .collect();
            if !local.is_empty() {
                self.crate_local.insert(file.path.as_str(), local);
            }
        }
    }

    /// Resolves Go imports of the repository's own packages by its go.mod files:
    /// `github.com/acme/tool/jsonrpc` in module `github.com/acme/tool` (go.mod in
    /// folder `f`) is the package in folder `f/jsonrpc`.
    pub fn with_go_modules(&mut self, modules: &[(String, String)]) {
        if modules.is_empty() {
            return;
        }
        self.resolved = ResolveCache::default();
        self.go_module_dirs = modules.iter().map(|(folder, _)| folder.clone()).collect();
        // The folder of an import of one of the modules' own packages.
        let local_dir = |import: &str| {
            modules.iter().find_map(|(folder, module)| {
                let rest = import.strip_prefix(module.as_str())?;
                let rest = if rest.is_empty() { "" } else { rest.strip_prefix('/')? };
                Some(match (folder.is_empty(), rest.is_empty()) {
                    (true, _) => rest.to_string(),
                    (false, true) => folder.clone(),
                    (false, false) => format!("{folder}/{rest}"),
                })
            })
        };
        for file in self.files.iter().filter(|f| f.language == Language::Go) {
            let local: Vec<String> = file
                .imports
                .iter()
                .filter_map(|i| i.strip_prefix(crate::model::GO_IMPORT))
                .filter_map(local_dir)
                .collect();
            for (alias, import) in &file.module_aliases {
                if let Some(dir) = local_dir(import) {
                    self.go_alias_local.insert((file.path.as_str(), alias.as_str()), dir);
                }
            }
            if !local.is_empty() {
                let package = self.go_package_local.entry(dir_of(&file.path)).or_default();
                for d in &local {
                    if !package.contains(d) {
                        package.push(d.clone());
                    }
                }
                self.go_local.insert(file.path.as_str(), local);
            }
        }
    }

    /// The folder of the repository's own Go package whose constructor made the value a
    /// variable of the caller's file holds (`h := mcp.NewHandler(..)`), when every
    /// assignment of it in the file (a route closure's enclosing function included)
    /// agrees.
    fn go_package_of_value(&self, from: FnId, var: &str) -> Option<&str> {
        let caller = self.file_of(from);
        let local = self.go_local.get(caller.path.as_str())?;
        let package_of = |e: &'a Expr| -> Option<&'a str> {
            let callee = match e {
                Expr::Call { callee, .. } => callee.as_str(),
                _ => return None,
            };
            let (package, _) = callee.split_once('.')?;
            (!package.is_empty() && package.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit()))
                .then_some(package)
        };
        let mut found: Option<&str> = None;
        for f in caller.functions.iter() {
            for stmt in &f.body {
                if let Stmt::Assign { target, value, .. } = stmt
                    && target == var
                {
                    let package = package_of(value)?;
                    if found.is_some_and(|p| p != package) {
                        return None;
                    }
                    found = Some(package);
                }
            }
        }
        let package = found?;
        local
            .iter()
            .find(|d| d.as_str() == package || d.ends_with(&format!("/{package}")))
            .map(String::as_str)
    }

    /// The class of the code a parameter is declared with (`c *Conn`, `Server $s`) or
    /// whose instance a local holds (see [`Program::constructed_class`]).
    pub fn declared_class(&self, from: FnId, var: &str) -> Option<&'a str> {
        if var.is_empty() {
            return None;
        }
        self.function(from)
            .param_types
            .iter()
            .find(|(p, _)| p == var)
            .map(|(_, class)| class.as_str())
            .or_else(|| self.constructed_class(from, var))
    }

    /// The inner function `name` of the factory whose result a local holds (one
    /// assignment, `const rpc = createRpc(..)`), when the factory's returned object
    /// names it (see `factory_members`).
    fn factory_member(&self, from: FnId, var: &str, name: &str) -> Option<FnId> {
        if self.factory_members.is_empty() {
            return None;
        }
        let [Expr::Call { callee, receiver: None, .. }] = self.assignments(from, var).as_slice() else {
            return None;
        };
        // A factory named plainly or through a module (`lib.createRpc(..)`), not a method
        // of another local's value: resolving that could lead back here.
        if let Some((head, _)) = callee.split_once(['.', ':'])
            && self.holds_value(from, head)
        {
            return None;
        }
        // A local whose one assignment calls through the local itself (`server =
        // server.connect(..)`, as broken code can read) would resolve back here: on
        // this thread, a (function, local) already being looked at has no factory.
        let key = (from, var.to_string());
        if FACTORY_LOOKUPS.with(|open| open.borrow().contains(&key)) {
            return None;
        }
        FACTORY_LOOKUPS.with(|open| open.borrow_mut().push(key));
        let factory = self.resolve(callee, from);
        FACTORY_LOOKUPS.with(|open| open.borrow_mut().pop());
        let factory = factory?;
        self.named(name)
            .iter()
            .copied()
            .find(|&f| self.outer[f] == Some(factory) && self.factory_members.contains(&f))
    }

    /// The class of the code whose instance a local holds: every assignment of it in
    /// the function is `new C(..)` (or `C(..)`) of the same class `C`.
    fn constructed_class(&self, from: FnId, var: &str) -> Option<&'a str> {
        let mut found: Option<&'a str> = None;
        let mut assigned = false;
        for value in self.assignments(from, var).into_iter().chain(self.assignments(from, &format!("${var}")))
        {
            assigned = true;
            let class = self.instance_class(value, from)?;
            if found.is_some_and(|c| c != class) {
                return None;
            }
            found = Some(class);
        }
        if assigned {
            return found;
        }
        self.module_instance_class(from, var)
    }

    /// The class of the code a value makes: `C(..)`, `new C(..)`, or a Rust or Go
    /// struct literal (`Counter { total: 0 }`, `&Server{}`) of a type with methods.
    fn instance_class(&self, value: &'a Expr, from: FnId) -> Option<&'a str> {
        let Expr::Call { callee, receiver, args, .. } = value else { return None };
        // A static method called on a class of the code (PHP's `Bootstrap::createHandler()`
        // carries the class as its receiver): a factory.
        if let Some(receiver) = receiver {
            return match receiver.as_ref() {
                Expr::Var(class) if self.class(class, from).is_some() => self.factory_class(callee, from),
                _ => None,
            };
        }
        match args.first() {
            Some(Expr::Str(ty))
                if callee == crate::lower::STRUCT_LITERAL || callee == crate::lower::NEW_OBJECT =>
            {
                Some(ty.as_str()).filter(|ty| self.has_methods(ty, from))
            }
            _ => match self.class(callee, from) {
                Some(class) => Some(class.name.as_str()),
                None => self.factory_class(callee, from),
            },
        }
    }

    /// The class of the code a factory is declared to return (`Bootstrap::createHandler():
    /// JsonRpcHandler`, `fn server() -> Server`): what a local assigned its call holds.
    fn factory_class(&self, callee: &str, from: FnId) -> Option<&'a str> {
        // Resolving the factory may ask for a local's class again: on this thread, a
        // (function, factory) already being looked at has none.
        let key = (from, format!("{}{callee}", crate::lower::MADE_BY));
        if FACTORY_LOOKUPS.with(|open| open.borrow().contains(&key)) {
            return None;
        }
        FACTORY_LOOKUPS.with(|open| open.borrow_mut().push(key));
        let factory = self.resolve(callee, from).filter(|&id| self.within_reach(id, from));
        FACTORY_LOOKUPS.with(|open| open.borrow_mut().pop());
        let factory = factory?;
        let returns = self.function(factory).returns.as_deref()?;
        Some(self.class(crate::lower::last_segment(returns), factory)?.name.as_str())
    }

    /// The class of the instance a module-level name holds (`PROTOCOL = Protocol()`,
    /// `const SERVER = new Server()`, Go's `var Default = &Handler{}`), as seen from a
    /// function that neither takes nor assigns the name, nor does any function around
    /// it. A constant's capitals do not make it a type.
    fn module_instance_class(&self, from: FnId, var: &str) -> Option<&'a str> {
        let mut at = Some(from);
        for _ in 0..8 {
            let Some(id) = at else { break };
            let f = self.function(id);
            if f.name == "<module>" {
                break;
            }
            if f.params.iter().any(|p| p.trim_start_matches('$') == var) || self.holds_value(id, var) {
                return None;
            }
            at = self.outer_function(id);
        }
        self.instance_class(self.global(var, from)?, from)
    }

    /// Whether `name` is a parameter of the function or of a function around it (a
    /// closure's captured parameter), and not a variable it assigns first.
    fn is_parameter(&self, from: FnId, name: &str) -> bool {
        let mut at = Some(from);
        for _ in 0..8 {
            let Some(id) = at else { return false };
            let f = self.function(id);
            if f.params.iter().any(|p| p.trim_start_matches('$') == name) {
                return true;
            }
            let mut assigned = false;
            crate::model::walk_statements(&f.body, &mut |stmt| {
                assigned |=
                    matches!(stmt, Stmt::Assign { target, .. } if target.trim_start_matches('$') == name);
            });
            if assigned {
                return false;
            }
            at = self.outer_function(id);
        }
        false
    }

    /// The function a function is written in: a closure's, and a nested named
    /// function's (Python's `def` inside `def`, `const dispatch = (m) => ..` inside
    /// another function).
    pub fn outer_function(&self, id: FnId) -> Option<FnId> {
        self.outer[id]
    }

    /// The function whose variables `id` sees as a closure: the function it is
    /// written in (Rust: only a closure sees them, never a nested `fn` item).
    pub fn capturing_function(&self, id: FnId) -> Option<FnId> {
        match self.file_of(id).language {
            Language::Rust => self.enclosing_function(id),
            _ => self.outer_function(id),
        }
    }

    /// Whether a bare name in `here` is a parameter of a function around it that
    /// `here` captures (`handler` in `rl.on("line", l => handler(l))` inside
    /// `startStdio(handler)`): what the caller hands, never a function of that name
    /// elsewhere. A name `here` binds itself is its own.
    pub fn captured_parameter(&self, name: &str, here: FnId) -> bool {
        let own = self.function(here);
        if own.params.iter().any(|p| p == name) || self.holds_value(here, name) {
            return false;
        }
        let mut at = self.capturing_function(here);
        let mut depth = 0;
        while let Some(f) = at
            && depth < 64
        {
            if self.function(f).params.iter().any(|p| p == name) {
                return true;
            }
            if self.holds_value(f, name) {
                return false;
            }
            at = self.capturing_function(f);
            depth += 1;
        }
        false
    }

    /// The folder of the Go module (its `go.mod`) the file at `path` belongs to.
    fn go_module_of(&self, path: &str) -> Option<&String> {
        self.go_module_dirs
            .iter()
            .filter(|d| {
                d.is_empty() || (path.starts_with(d.as_str()) && path.as_bytes().get(d.len()) == Some(&b'/'))
            })
            .max_by_key(|d| d.len())
    }

    /// Whether `caller` imports a package of the project unit the file at `path`
    /// belongs to: for Go its module (`go.mod`), for Python its top-level package, for
    /// PHP, JavaScript and TypeScript the folder of a module it imports. A
    /// command or script of that unit reaches `path` through the packages it imports,
    /// even when the ones between are not parsed.
    pub fn imports_package_of(&self, caller: &FileFacts, path: &str) -> bool {
        match caller.language {
            Language::Go => {
                let Some(module) = self.go_module_of(path) else { return false };
                self.go_local.get(caller.path.as_str()).is_some_and(|dirs| {
                    dirs.iter().any(|d| self.go_module_of(&format!("{d}/")) == Some(module))
                })
            }
            // `from acme.app import App` (hint `acme/app`) in a script outside the
            // package, for a file of a folder `acme/` (inside the package its modules
            // reach each other by their own imports).
            Language::Python => caller.imports.iter().any(|hint| {
                let top = hint.split('/').next().unwrap_or("");
                crate::model::python_packages(path).any(|d| d == top)
                    && !crate::model::python_packages(&caller.path).any(|d| d == top)
            }),
            // `use App\Mcp\McpServerInterface;` (hint `App/Mcp/McpServerInterface`) for a
            // file of the folder `src/Mcp/`: a namespace is a folder (PSR-4), and a
            // controller taking the namespace's interface reaches the class behind it;
            // so does a route importing `../rpc/contract` for a file of `src/rpc/`.
            Language::Php | Language::JavaScript | Language::TypeScript => {
                let dir = dir_of(path);
                caller.imports.iter().any(|hint| {
                    let namespace = dir_of(hint);
                    !namespace.is_empty() && crate::model::ends_with_path(dir, namespace)
                })
            }
            _ => false,
        }
    }

    /// Whether `caller` imports the file at `path`: by an import hint, or as a Go
    /// package of the repository's own module.
    pub fn imports(&self, caller: &FileFacts, path: &str) -> bool {
        // A Go package whose imports its module (`go.mod`) resolves to folders of the
        // scanned code imports those folders, not every folder whose path ends the same
        // way (another module's `pkg/mcp` in a repository of several modules).
        if let Some(dirs) = self.go_package_local.get(dir_of(&caller.path)) {
            return dirs.iter().any(|d| d == dir_of(path));
        }
        imported(caller, path)
            || self.crate_local.get(caller.path.as_str()).is_some_and(|dirs| {
                dirs.iter().any(|d| {
                    d.is_empty()
                        || (path.starts_with(d.as_str()) && path.as_bytes().get(d.len()) == Some(&b'/'))
                })
            })
    }

    /// The class a name refers to from `from`: the nearest definition in the same
    /// language family.
    pub fn class(&self, name: &str, from: FnId) -> Option<&'a crate::model::ClassDef> {
        let name = crate::lower::last_segment(name);
        let here = self.file_of(from);
        let mut best: Option<(usize, &crate::model::ClassDef)> = None;
        let mut fallback = None;
        let defined = self.classes.get(name).map(Vec::as_slice).unwrap_or(&[]);
        for &(file, class) in defined.iter().filter(|(f, _)| family(f.language) == family(here.language)) {
            match closeness(&here.path, &file.path).or_else(|| self.imports(here, &file.path).then_some(0)) {
                Some(score) if best.is_none_or(|(b, _)| score > b) => best = Some((score, class)),
                Some(_) => {}
                None => {
                    fallback.get_or_insert(class);
                }
            }
        }
        best.map(|(_, c)| c).or(fallback)
    }

    /// The type a variant of a `#[serde(untagged)]` enum holds, by the variant's name
    /// (a pattern names it without its enum): the nearest enum with such a variant.
    pub fn untagged_variant(&self, variant: &str, from: FnId) -> Option<&'a str> {
        let here = self.file_of(from);
        let candidates = self.files.iter().filter(|f| f.language == here.language).flat_map(|f| {
            let index = f.functions.first().map(|fun| fun.span.file);
            f.untagged_variants
                .iter()
                .filter(move |(_, v, _)| v == variant)
                .filter_map(move |(_, _, held)| Some((index?, held.as_str())))
        });
        self.nearest(from, candidates, false)
    }

    /// Whether a message without an id fails to decode into the type `name`: its
    /// nearest definition in the caller's language requires its `id` member.
    pub fn requires_id(&self, name: &str, from: FnId) -> bool {
        let here = self.file_of(from);
        let language = family(here.language);
        self.id_members
            .get(name)
            .into_iter()
            .flatten()
            .filter(|(f, _)| family(f.language) == language)
            .max_by_key(|(f, _)| closeness(&here.path, &f.path).map_or(0, |c| c.saturating_add(1)))
            .is_some_and(|(_, required)| *required)
    }

    /// A type of the scanned code that wraps a message's id (Go `ID RequestID` in the
    /// message struct) and has the method `method`: the one such method, if exactly one.
    pub fn id_wrapper_method(&self, method: &str, from: FnId) -> Option<FnId> {
        let mut found = None;
        for ((_, field), classes) in &self.field_types {
            if crate::lower::message_field(field) != Some(crate::model::FieldName::Id) {
                continue;
            }
            for class in classes {
                if let Some(id) = self.method(class, method, from) {
                    match found {
                        None => found = Some(id),
                        Some(other) if other != id => return None,
                        _ => {}
                    }
                }
            }
        }
        found
    }

    /// The one class a field of `owner` (or of a class it extends) holds, when the
    /// declarations and constructions the scan read agree on it.
    pub fn field_class(&self, owner: &str, field: &str, from: FnId) -> Option<&'a str> {
        match self.field_classes(owner, field, from).as_slice() {
            [one] => Some(one),
            _ => None,
        }
    }

    /// Every class a field of `owner` (or of a class it extends) is assigned.
    pub fn field_classes(&self, owner: &str, field: &str, from: FnId) -> Vec<&'a str> {
        let mut queue = vec![owner.to_string()];
        let mut seen = 0;
        while let Some(c) = queue.pop() {
            seen += 1;
            if seen > 16 {
                break;
            }
            if let Some(classes) = self.field_types.get(&(c.as_str(), field)) {
                return classes.clone();
            }
            if let Some(def) = self.class(&c, from) {
                queue.extend(def.bases.iter().rev().cloned());
            }
        }
        Vec::new()
    }

    /// The method `method` runs on a field declared with `class` when `class` has no
    /// body for it (an interface, or a base that leaves it to subclasses): that of the
    /// one class of the scanned code below it, in the caller's language family, with
    /// no class below it in turn (`private McpServerInterface $server` with `McpServer
    /// implements McpServerInterface` its only implementation). None when there are
    /// several (a test double beside the real one) or none.
    pub fn sole_implementation(&self, class: &str, method: &str, from: FnId) -> Option<FnId> {
        if self.method(class, method, from).is_some() {
            return None;
        }
        let language = family(self.file_of(from).language);
        let mut below: Vec<&'a crate::model::ClassDef> = Vec::new();
        let mut queue = vec![crate::lower::last_segment(class)];
        while let Some(c) = queue.pop() {
            for sub in self.subclasses.get(c).into_iter().flatten() {
                if below.len() > MAX_IMPLEMENTERS {
                    return None;
                }
                if !below.iter().any(|b| std::ptr::eq(*b, *sub)) {
                    below.push(sub);
                    queue.push(&sub.name);
                }
            }
        }
        let leaves: Vec<&crate::model::ClassDef> = below
            .iter()
            .copied()
            .filter(|c| !self.subclasses.contains_key(c.name.as_str()))
            .filter(|c| {
                self.classes.get(c.name.as_str()).is_some_and(|defs| {
                    defs.iter().any(|(f, d)| std::ptr::eq(*d, *c) && family(f.language) == language)
                })
            })
            .collect();
        let [leaf] = leaves.as_slice() else { return None };
        self.method(&leaf.name, method, from)
    }

    /// The classes of the scanned code an unknown object may be, judged by what is
    /// called on it: those (in the caller's language family and project) that define or
    /// inherit every one of `methods` with a body, leaves of their hierarchy only (a base
    /// that a candidate extends is the shared part, not one of the objects). Empty when
    /// there are none or more than [`MAX_IMPLEMENTERS`]: a handler list the scan
    /// cannot see holds one instance of each, as a strategy dispatch does.
    pub fn implementers(&self, methods: &[&str], from: FnId) -> Vec<&'a crate::model::ClassDef> {
        let Some(first) = methods.first() else { return Vec::new() };
        let here = self.file_of(from);
        let language = family(here.language);
        // The classes that define the first method, and every class below them.
        let mut names: Vec<&str> = self
            .by_name
            .get(first)
            .into_iter()
            .flatten()
            .filter(|&&id| family(self.file_of(id).language) == language)
            .filter_map(|&id| self.function(id).owner.as_deref())
            .collect();
        let mut i = 0;
        while i < names.len() && names.len() <= 4 * MAX_IMPLEMENTERS {
            for sub in self.subclasses.get(names[i]).into_iter().flatten() {
                if !names.contains(&sub.name.as_str()) {
                    names.push(&sub.name);
                }
            }
            i += 1;
        }
        names.sort_unstable();
        names.dedup();
        // Classes next to the caller (or imported by it) when there are any: handlers
        // registered elsewhere in the project otherwise.
        let mut near: Vec<&crate::model::ClassDef> = Vec::new();
        let mut far: Vec<&crate::model::ClassDef> = Vec::new();
        for name in names {
            for &(file, class) in self.classes.get(name).into_iter().flatten() {
                if family(file.language) != language
                    || !methods.iter().all(|m| self.method(&class.name, m, from).is_some())
                {
                    continue;
                }
                if closeness(&here.path, &file.path).is_some() || self.imports(here, &file.path) {
                    near.push(class);
                } else {
                    far.push(class);
                }
            }
        }
        let mut out = if near.is_empty() { far } else { near };
        let bases: Vec<&str> = out.iter().flat_map(|c| c.bases.iter().map(String::as_str)).collect();
        out.retain(|c| !bases.contains(&c.name.as_str()));
        if out.len() > MAX_IMPLEMENTERS {
            return Vec::new();
        }
        out
    }

    /// The strategy classes a loop stands for: `for h in handlers: h.supports(m)` over
    /// a collection that is not written out holds instances of [`Program::implementers`].
    pub fn loop_strategies(
        &self,
        targets: &[String],
        iterable: &Expr,
        body: &Block,
        from: FnId,
    ) -> Vec<&'a crate::model::ClassDef> {
        let [target] = targets else { return Vec::new() };
        if matches!(iterable, Expr::Array { .. } | Expr::Object { .. }) {
            return Vec::new();
        }
        self.implementers(&crate::model::strategy_methods(body, target), from)
    }

    /// The ids of the methods written in `class`'s own body and its bases' (what an
    /// instance of it may run), each class found from where the one below it is.
    pub fn own_method_ids(&self, class: &crate::model::ClassDef, from: FnId) -> Vec<FnId> {
        let mut chain = vec![class];
        while let Some(base) = chain.last().and_then(|c| c.bases.first()).and_then(|b| self.class(b, from)) {
            if chain.iter().any(|c| std::ptr::eq(*c, base)) || chain.len() > 8 {
                break;
            }
            chain.push(base);
        }
        let mut out = Vec::new();
        for c in chain {
            let Some(file) = self.file_by_index(c.span.file) else { continue };
            for (id, (f_file, f)) in self.functions.iter().enumerate() {
                if std::ptr::eq(*f_file, file)
                    && f.owner.as_deref() == Some(c.name.as_str())
                    && !f.body.is_empty()
                {
                    out.push(id);
                }
            }
        }
        out
    }

    /// The method `name` of `class` or the nearest base that defines it with a body
    /// (an abstract declaration is skipped for a subclass's override).
    pub fn method(&self, class: &str, name: &str, from: FnId) -> Option<FnId> {
        let mut seen = Vec::new();
        let mut queue = vec![class.to_string()];
        // A class's methods are written in its own language (a Python `Server.__init__`
        // is never a TypeScript `Server`'s constructor).
        let language = family(self.file_of(from).language);
        while let Some(c) = queue.pop() {
            if seen.contains(&c) || seen.len() > 16 {
                continue;
            }
            let owned = self.by_name.get(name).into_iter().flatten().copied().filter(|id| {
                self.function(*id).owner.as_deref() == Some(c.as_str())
                    && !self.function(*id).body.is_empty()
                    && family(self.file_of(*id).language) == language
            });
            if let Some(found) = self.nearest(from, owned.map(|id| (self.function(id).span.file, id)), true) {
                return Some(found);
            }
            if let Some(def) = self.class(&c, from) {
                queue.extend(def.bases.iter().rev().cloned());
            }
            seen.push(c);
        }
        None
    }

    /// A method of the class itself whose body is empty (`'notifications/initialized'()
    /// {}`): a handler that does nothing, when [`Program::method`] finds none with a
    /// body. A base's empty method is a stub, and a declaration without a body (an
    /// interface's, an abstract one) never runs.
    pub fn empty_method(&self, class: &str, name: &str, from: FnId) -> Option<FnId> {
        let language = family(self.file_of(from).language);
        let owned = self.by_name.get(name).into_iter().flatten().copied().filter(|id| {
            let f = self.function(*id);
            f.owner.as_deref() == Some(class)
                && f.body.is_empty()
                && !f.bodiless
                && family(self.file_of(*id).language) == language
        });
        self.nearest(from, owned.map(|id| (self.function(id).span.file, id)), true)
    }

    /// The JSON member a struct field is encoded as, when the structs say (Rust, Go):
    /// the caller's own file first, then the nearest file that names the field, then
    /// any, when all agree.
    /// Whether a struct of the scanned code declares a field of this name.
    pub fn declares_field(&self, field: &str) -> bool {
        self.declared_fields.contains(field)
    }

    /// The JSON member a struct's serde attributes give one of its fields
    /// (`InitializeResult.protocol_version` is `protocolVersion`), when a struct of
    /// that name in the same folder tree renames it.
    pub fn struct_json_name(&self, ty: &str, field: &str, from: FnId) -> Option<&'a str> {
        let here = self.file_of(from);
        let naming = self.json_by_field.get(format!("{ty}.{field}").as_str())?;
        naming
            .iter()
            .find(|(f, _)| f.language == here.language && closeness(&here.path, &f.path).is_some())
            .map(|(_, member)| *member)
    }

    pub fn json_name(&self, field: &str, from: FnId) -> Option<&'a str> {
        let here = self.file_of(from);
        if let Some((_, member)) = here.json_names.iter().find(|(f, _)| f == field) {
            return Some(member.as_str());
        }
        // A struct of this file declares the field and renames nothing: its own name.
        if here.declared_fields.iter().any(|f| f == field) {
            return None;
        }
        let naming = self.json_by_field.get(field)?;
        if let Some((_, member)) = naming
            .iter()
            .find(|(f, _)| f.language == here.language && closeness(&here.path, &f.path).is_some())
        {
            return Some(member);
        }
        self.json_names.get(field).copied()
    }

    /// Whether two files sit in the same folder tree (one folder inside the other).
    pub fn nested(&self, a: &FileFacts, b: &FileFacts) -> bool {
        family(a.language) == family(b.language) && closeness(&a.path, &b.path).is_some()
    }

    /// Whether the package of `from` (its folder) declares a struct type of this name.
    pub fn package_struct(&self, name: &str, from: FnId) -> bool {
        self.struct_types.contains(&(crate::model::dir_of(&self.file_of(from).path), name))
    }

    /// Whether some function of the program is a method of the type `owner`, in the
    /// language of `from` (a Python class's methods say nothing of a Go struct of the
    /// same name).
    pub fn has_methods(&self, owner: &str, from: FnId) -> bool {
        self.owners.contains(&(family(self.file_of(from).language), owner))
    }

    /// The functions and methods of this name anywhere in the program.
    pub fn named(&self, name: &str) -> &[FnId] {
        self.by_name.get(name).map(Vec::as_slice).unwrap_or(&[])
    }

    /// Whether code in `a` can refer to code in `b`: one language family, related folders.
    pub fn related(&self, a: &FileFacts, b: &FileFacts) -> bool {
        family(a.language) == family(b.language)
            && (closeness(&a.path, &b.path).is_some() || self.imports(a, &b.path))
    }

    pub fn files(&self) -> impl Iterator<Item = &'a FileFacts> {
        self.files.iter()
    }

    /// The file whose spans carry this index.
    pub fn file_by_index(&self, index: u32) -> Option<&'a FileFacts> {
        self.file_index.get(&index).map(|&i| &self.files[i])
    }

    fn path_of_index(&self, index: u32) -> &str {
        self.file_by_index(index).map(|f| f.path.as_str()).unwrap_or("")
    }

    /// Whether any code of the program assigns a member of this name (`x.name = ..`).
    pub fn member_written(&self, name: &str) -> bool {
        self.written_members.contains(name)
    }

    /// The members function `id` writes on its parameters or on variables of an
    /// enclosing function (`ctx.response` in a closure), by their written names.
    pub fn member_writes(&self, id: FnId) -> &[&'a str] {
        self.writes.get(id).map(Vec::as_slice).unwrap_or(&[])
    }

    pub fn function(&self, id: FnId) -> &'a Function {
        self.functions[id].1
    }

    pub fn file_of(&self, id: FnId) -> &'a FileFacts {
        self.functions[id].0
    }

    /// The nearest of several candidates to `from`; unrelated folders only when `anywhere`.
    fn nearest<T: Copy>(
        &self,
        from: FnId,
        candidates: impl Iterator<Item = (u32, T)>,
        anywhere: bool,
    ) -> Option<T> {
        let caller = self.file_of(from);
        let here = caller.path.as_str();
        let mut best: Option<(usize, T)> = None;
        let mut fallback = None;
        for (file, item) in candidates {
            let there = self.path_of_index(file);
            // A Python script importing the package reaches the package's classes through
            // the modules between (`app.handler.handle(..)`); a Go method on a value is
            // pinned by its type instead (a module reaches too much to choose by).
            let reached = || {
                self.imports(caller, there)
                    || (caller.language == Language::Python && self.imports_package_of(caller, there))
            };
            match closeness(here, there).or_else(|| reached().then_some(0)) {
                Some(score) if best.is_none_or(|(b, _)| score > b) => best = Some((score, item)),
                Some(_) => {}
                None => {
                    fallback.get_or_insert(item);
                }
            }
        }
        best.map(|(_, item)| item).or(if anywhere { fallback } else { None })
    }

    /// What the constructor of `from`'s class sets `self.field` to, when it alone
    /// sets it (no other method of the class writes it) and from nothing the
    /// constructor is given: the value the field holds in every method
    /// (`this.handlers = createHandlers({ .. })`).
    pub fn constructor_field(&self, from: FnId, field: &str) -> Option<&'a Expr> {
        let owner = self.function(from).owner.as_deref()?;
        let class = self.class(owner, from)?;
        // The answer depends on the class, the caller's file and the field only; a
        // server's probes ask for the same fields on every variable read.
        let key = (
            class as *const crate::model::ClassDef as usize,
            self.function(from).span.file,
            field.to_string(),
        );
        if let Ok(known) = self.constructor_fields.lock()
            && let Some(found) = known.get(&key)
        {
            return *found;
        }
        let found = self.find_constructor_field(class, from, field);
        if let Ok(mut known) = self.constructor_fields.lock() {
            known.insert(key, found);
        }
        found
    }

    /// The constructor of a class definition (`__init__`, `__construct`, `constructor`,
    /// Rust's `new`): its own, or one it inherits from a base. Never the constructor of
    /// another class of the same name in another file (a `Response` with no constructor
    /// of its own, a dataclass, is not built by another module's `Response.__init__`).
    pub fn constructor(&self, class: &crate::model::ClassDef, from: FnId) -> Option<FnId> {
        // (A method written apart from its type, Rust's `impl` in another file, is the
        // type's unless another type of the name is defined beside it.)
        let own = |id: &FnId| {
            let f = self.function(*id);
            f.owner.as_deref() != Some(class.name.as_str())
                || f.span.file == class.span.file
                || !self
                    .classes
                    .get(class.name.as_str())
                    .is_some_and(|defs| defs.iter().any(|(_, d)| d.span.file == f.span.file))
        };
        ["__init__", "__construct", "constructor", "new"].iter().find_map(|c| {
            self.method(&class.name, c, from).filter(own).or_else(|| {
                class.bases.iter().find_map(|b| {
                    self.method(b, c, from)
                        .filter(|id| self.function(*id).owner.as_deref() != Some(class.name.as_str()))
                })
            })
        })
    }

    fn find_constructor_field(
        &self,
        class: &'a crate::model::ClassDef,
        from: FnId,
        field: &str,
    ) -> Option<&'a Expr> {
        let ctor = self.constructor(class, from)?;
        let names = [format!("self.{field}"), format!("this.{field}")];
        let written = |id: FnId| names.iter().flat_map(|n| self.assignments(id, n)).collect::<Vec<_>>();
        let in_ctor = written(ctor);
        let [value] = in_ctor.as_slice() else { return None };
        if self.own_method_ids(class, from).into_iter().any(|m| m != ctor && !written(m).is_empty()) {
            return None;
        }
        let params = &self.function(ctor).params;
        let mut reads_param = false;
        value.walk(&mut |e| {
            reads_param |=
                matches!(e, Expr::Var(v) if params.iter().any(|p| p == v.split('.').next().unwrap_or(v)));
        });
        (!reads_param).then_some(*value)
    }

    /// What a factory of the type sets a field to, where a constructor is a plain
    /// function (Go's `func New() *Server { s := &Server{}; s.handlers =
    /// map[...]...; return s }`, or `s := new(Server)`): the value, the factory, and the
    /// local that holds the object there (its methods are read through it: `s.ping`).
    /// Only a field no method of the type writes, set once in one factory of its package.
    pub fn factory_field(&self, class: &str, field: &str, from: FnId) -> Option<(FnId, &'a Expr, &'a str)> {
        let lang = self.file_of(from).language;
        if lang != crate::model::Language::Go {
            return None;
        }
        // A type's methods and its factories sit in its package.
        let home = dir_of(&self.file_of(from).path);
        let index = self.go_factories.get_or_init(|| self.index_go_factories());
        let at_home = |id: &FnId| dir_of(&self.file_of(*id).path) == home;
        // A method of the type writing the field itself: not set by a factory alone.
        let written_by_method = index
            .methods
            .get(class)
            .into_iter()
            .flatten()
            .filter(|id| at_home(id))
            .any(|&id| !self.assignments(id, &format!("self.{field}")).is_empty());
        if written_by_method {
            return None;
        }
        let mut found = None;
        for &(id, local) in index.builders.get(class).into_iter().flatten().filter(|(id, _)| at_home(id)) {
            let written = self.assignments(id, &format!("{local}.{field}"));
            match (written.as_slice(), found) {
                ([], _) => {}
                ([value], None) => found = Some((id, *value, local)),
                _ => return None,
            }
        }
        // A constant the struct literal itself sets (`return &Server{version: "1"}`); not
        // a table it starts empty, which methods may fill (`services: make(map..)`).
        for &(id, entries) in index.literals.get(class).into_iter().flatten().filter(|(id, _)| at_home(id)) {
            let set = entries.iter().find(|(k, _)| k == field);
            if set.is_some_and(|(_, v)| !matches!(v, Expr::Str(_) | Expr::Int(_) | Expr::Bool(_))) {
                continue;
            }
            match (set, found) {
                (None, _) => {}
                (Some((_, value)), None) => found = Some((id, value, "")),
                _ => return None,
            }
        }
        found
    }

    /// Every Go function that builds an object of a type into a local (`s :=
    /// &Server{}`, `s := new(Server)`; the first such local per type), by the type,
    /// save the methods of other types; and the methods of each type that have a body.
    fn index_go_factories(&self) -> GoFactories<'a> {
        let mut index = GoFactories::default();
        for (id, (file, f)) in self.functions.iter().enumerate() {
            if file.language != crate::model::Language::Go || f.body.is_empty() {
                continue;
            }
            if let Some(owner) = f.owner.as_deref() {
                index.methods.entry(owner).or_default().push(id);
            }
            let mut built: Vec<(&'a str, &'a str)> = Vec::new();
            let mut literals: Vec<(&'a str, Members<'a>)> = Vec::new();
            crate::model::walk_statements(&f.body, &mut |s| {
                let value = match s {
                    Stmt::Assign { value, .. } => value,
                    Stmt::Return { value: Some(value), .. } => value,
                    _ => return,
                };
                let Expr::Call { callee, args, .. } = value else { return };
                if callee != crate::lower::NEW_OBJECT {
                    return;
                }
                let Some(Expr::Str(class)) = args.first() else { return };
                if let Some(Expr::Object { entries, .. }) = args.get(1) {
                    literals.push((class.as_str(), entries.as_slice()));
                }
                if let Stmt::Assign { target, .. } = s
                    && !target.contains(['.', '['])
                    && !built.iter().any(|(c, _)| c == class)
                {
                    built.push((class.as_str(), target.as_str()));
                }
            });
            // A method of another type building one is not this type's factory.
            let factory_of = |class: &str| f.owner.as_deref().is_none_or(|owner| owner == class);
            for (class, local) in built {
                if factory_of(class) {
                    index.builders.entry(class).or_default().push((id, local));
                }
            }
            for (class, entries) in literals {
                if factory_of(class) {
                    index.literals.entry(class).or_default().push((id, entries));
                }
            }
        }
        index
    }

    pub fn in_closure(&self, id: FnId) -> bool {
        self.outer[id].is_some()
    }

    /// The function whose text holds a closure (an anonymous function), if `id` is one.
    pub fn enclosing_function(&self, id: FnId) -> Option<FnId> {
        self.outer[id].filter(|_| crate::lower::is_anonymous(&self.function(id).name))
    }

    /// `name = __argN["key"]` in a function's prologue: the destructured parameter
    /// (`function serve({ handlers })`) a local is read from, by its position and key.
    pub fn destructured_read(&self, id: FnId, name: &str) -> Option<(usize, &'a str)> {
        let f = self.function(id);
        let (arg, key) = f.body.iter().find_map(|s| match s {
            Stmt::Assign { target, value: Expr::Lookup { collection, key }, .. } if target == name => {
                match (collection.as_ref(), key.as_ref()) {
                    (Expr::Var(a), Expr::Str(k)) if crate::lower::is_destructured_param(a) => {
                        Some((a.as_str(), k.as_str()))
                    }
                    _ => None,
                }
            }
            _ => None,
        })?;
        Some((f.params.iter().position(|p| p == arg)?, key))
    }

    /// The value a closure's captured local is bound to in the function around it
    /// (`const handlers = build(tools); rl.on("line", (l) => run(l, handlers))`): the
    /// one binding there, when neither that function nor a closure inside it assigns
    /// the name again (state the closures change has no one value).
    ///
    /// A named function written inside another (`const tail = async () => ..`, a
    /// nested `def`) runs while the outer function's locals hold their values of the
    /// moment, which no one binding says: it reads only what the outer function's
    /// caller hands in (a parameter, a destructured option).
    pub fn captured(&self, name: &str, from: FnId) -> Option<&'a Expr> {
        let mut closure = from;
        let mut named = false;
        while let Some(outer) = self.outer[closure] {
            named |= self.enclosing_function(closure).is_none();
            let bindings = self.bindings_within(outer, name);
            match bindings.as_slice() {
                // `function serveStdio({ handlers })`: what its one caller hands it under
                // that key (`serveStdio({ handlers: createHandlers(ctx) })`).
                [(id, value)]
                    if *id == outer
                        && let Some((index, key)) = self.destructured_read(outer, name) =>
                {
                    if let Some(Expr::Object { entries, .. }) = self.entry_argument(outer, index)
                        && let Some((_, v)) = entries.iter().find(|(k, _)| k == key)
                    {
                        return Some(v);
                    }
                    return Some(*value).filter(|_| !named);
                }
                [(id, value)] if *id == outer && !named => return Some(*value),
                // A parameter of the function around it: what its one caller hands it.
                [] if let Some(index) = self.function(outer).params.iter().position(|p| p == name) => {
                    return self.entry_argument(outer, index);
                }
                [] if !self.holds_value(outer, name) => closure = outer,
                _ => return None,
            }
        }
        None
    }

    /// The assignments to `name` in `outer` and the functions written inside it.
    fn bindings_within(&self, outer: FnId, name: &str) -> Vec<(FnId, &'a Expr)> {
        let within = self.within[outer].get_or_init(|| {
            let o = self.function(outer).span;
            let mut all: Vec<Binding<'a>> = (0..self.functions.len())
                .filter(|&id| {
                    let i = self.function(id).span;
                    o.file == i.file && o.start <= i.start && i.end <= o.end
                })
                .flat_map(|id| self.assigns_of(id).iter().map(move |&(target, value)| (target, id, value)))
                .collect();
            // Stable: by function, then as written, within one target.
            all.sort_by_key(|&(target, _, _)| target);
            all
        });
        let start = within.partition_point(|&(target, _, _)| target < name);
        within[start..]
            .iter()
            .take_while(|&&(target, _, _)| target == name)
            .map(|&(_, id, v)| (id, v))
            .collect()
    }

    /// The one value a function around `from` binds `name` to, however `from` is
    /// written (`const gate = makeGate(opts)` in a router builder, called by the named
    /// handlers it defines): which function a call of the name reaches, not a value
    /// of the moment.
    fn bound_around(&self, name: &str, from: FnId) -> Option<&'a Expr> {
        if name.contains(['.', ':']) || self.holds_value(from, name) {
            return None;
        }
        let mut closure = from;
        while let Some(outer) = self.outer[closure] {
            // Only a function that binds the name (its own local) can bind it once.
            if !self.holds_value(outer, name) {
                closure = outer;
                continue;
            }
            return match self.bindings_within(outer, name).as_slice() {
                [(id, value)] if *id == outer => Some(*value),
                _ => None,
            };
        }
        None
    }

    /// The values a function assigns to a name of its own, in order.
    pub fn assignments(&self, id: FnId, name: &str) -> Vec<&'a Expr> {
        let all = self.assigns_of(id);
        let start = all.partition_point(|&(target, _)| target < name);
        all[start..].iter().take_while(|&&(target, _)| target == name).map(|&(_, v)| v).collect()
    }

    /// A function's assignments as (target, value), sorted by target and in the order
    /// written within one.
    fn assigns_of(&self, id: FnId) -> &[(&'a str, &'a Expr)] {
        self.assigns[id].get_or_init(|| {
            let mut all = Vec::new();
            crate::model::walk_statements(&self.function(id).body, &mut |st| {
                if let Stmt::Assign { target, value, .. } = st {
                    all.push((target.as_str(), value));
                }
            });
            // Stable: one target's values stay in the order written.
            all.sort_by_key(|&(target, _)| target);
            all
        })
    }

    /// What the one call of a function hands it at parameter `index`, when that is a
    /// table or a call that builds one (`serve(make_table())`, or `table =
    /// make_table()` then `serve(table)` in the caller): the value an entry's
    /// parameter holds however the entry is reached.
    pub fn entry_argument(&self, entry: FnId, index: usize) -> Option<&'a Expr> {
        if let Ok(known) = self.entry_arguments.lock()
            && let Some(found) = known.get(&(entry, index))
        {
            return *found;
        }
        // A parameter handed on in a cycle of calls (a closure's captured parameter
        // that its caller's own is handed in turn) is nothing while this thread looks
        // for it; other threads wait for no one and find the same answer.
        let key = (std::thread::current().id(), entry, index);
        if let Ok(mut open) = self.entry_arguments_open.lock()
            && !open.insert(key)
        {
            return None;
        }
        let found = self.find_entry_argument(entry, index);
        if let Ok(mut open) = self.entry_arguments_open.lock() {
            open.remove(&key);
        }
        if let Ok(mut known) = self.entry_arguments.lock() {
            known.insert((entry, index), found);
        }
        found
    }

    /// The calls without a receiver that name `name` (by its last segment), with the
    /// function each is in.
    pub fn calls_named(&self, name: &str) -> &[(FnId, &'a Expr)] {
        let calls = self.calls.get_or_init(|| {
            let mut calls: HashMap<&'a str, Vec<(FnId, &'a Expr)>> = HashMap::default();
            for (caller, (_, f)) in self.functions.iter().enumerate() {
                crate::model::walk_block(&f.body, &mut |e| {
                    if let Expr::Call { callee, receiver: None, .. } = e {
                        calls.entry(crate::lower::last_segment(callee)).or_default().push((caller, e));
                    }
                });
            }
            calls
        });
        calls.get(name).map(Vec::as_slice).unwrap_or(&[])
    }

    /// The function a field of `class` holds when a setter of the class stores its
    /// parameter there (`def set_handler(self, h): self.on_message = h`) and every
    /// call of that setter hands it the same function (`transport.set_handler(
    /// server.handle)`): a call of `self.on_message(..)` calls it. `from` is a method
    /// of the class (or a function written in one): the class is the one defined in
    /// that method's file, not another of the same name.
    /// A setter a base class declares stores into the field its subclasses read
    /// (`class HttpTransport(BaseTransport)` calling `self.message_handler(..)` that
    /// `BaseTransport.set_message_handler` filled): the class itself first, then its
    /// bases.
    pub fn stored_callback(&self, from: FnId, field: &str) -> Option<FnId> {
        let method = self.self_method(from)?;
        let class = self.function(method).owner.as_deref()?;
        let file = self.function(method).span.file;
        let stored = self.stored.get_or_init(|| self.stored_callbacks());
        let key = field.to_string();
        if let Some(found) = stored.get(&(file, class, key.clone())) {
            return *found;
        }
        let mut queue: Vec<&'a crate::model::ClassDef> = self.class(class, method).into_iter().collect();
        let mut seen = 0;
        while let Some(def) = queue.pop() {
            seen += 1;
            if seen > 16 {
                break;
            }
            for base in &def.bases {
                let Some(base_def) = self.class(base, method) else { continue };
                let base_file = base_def.span.file;
                if let Some(found) = stored.get(&(base_file, base_def.name.as_str(), key.clone())) {
                    return *found;
                }
                queue.push(base_def);
            }
        }
        None
    }

    fn stored_callbacks(&self) -> StoredCallbacks<'a> {
        // Setters: methods that assign one of their parameters to a field of `self`.
        let mut setters: HashMap<FnId, Vec<(usize, String)>> = HashMap::default();
        for (id, (_, f)) in self.functions.iter().enumerate() {
            if f.owner.is_none() {
                continue;
            }
            crate::model::walk_statements(&f.body, &mut |st| {
                if let Stmt::Assign { target, value: Expr::Var(v), .. } = st
                    && let Some(field) = crate::model::own_field(target)
                    && let Some(i) = f.params.iter().position(|p| p == v)
                {
                    setters.entry(id).or_default().push((i, field.to_string()));
                }
            });
        }
        let factories = self.field_factories();
        // Python classes whose fields a generated constructor sets (dataclasses,
        // pydantic models).
        let records: HashSet<&str> = self
            .classes
            .iter()
            .filter(|(_, defs)| {
                defs.iter()
                    .any(|(file, d)| file.language == crate::model::Language::Python && !d.fields.is_empty())
            })
            .map(|(name, _)| *name)
            .collect();
        let mut out: StoredCallbacks<'a> = HashMap::default();
        if setters.is_empty() && factories.is_empty() && records.is_empty() {
            return out;
        }
        let names: HashSet<&str> = setters.keys().map(|&id| self.function(id).name.as_str()).collect();
        let factory_names: HashSet<&str> =
            factories.keys().map(|&id| self.function(id).name.as_str()).collect();
        // Constructors that store a parameter (`constructor(handler) { this.handler =
        // handler }`, `__init__`, `__construct`), by their class: `new Transport(handle)`
        // hands `handle` to the field.
        let constructors: HashMap<&str, Vec<FnId>> = setters
            .keys()
            .filter(|&&id| {
                matches!(self.function(id).name.as_str(), "constructor" | "__init__" | "__construct")
            })
            .filter_map(|&id| Some((self.function(id).owner.as_deref()?, id)))
            .fold(HashMap::default(), |mut m, (class, id)| {
                m.entry(class).or_default().push(id);
                m
            });
        for (caller, (_, f)) in self.functions.iter().enumerate() {
            crate::model::walk_block(&f.body, &mut |e| {
                let Expr::Call { callee, args, .. } = e else { return };
                let last = crate::lower::last_segment(callee);
                // (The class's own constructor, as `new` runs it: see `Program::constructor`.)
                if let Some(ctors) = constructors.get(last)
                    && let Some(def) = self.class(last, caller)
                    && let Some(ctor) = self.constructor(def, caller).filter(|c| ctors.contains(c))
                    && let Some(stores) = setters.get(&ctor)
                {
                    self.store_handed(
                        &mut out,
                        caller,
                        self.setter_fields(ctor, def.name.as_str(), stores),
                        args,
                    );
                }
                // `Transport(handler=handle)` of a Python dataclass (or pydantic model):
                // the generated constructor puts each argument into its field.
                if records.contains(last)
                    && let Some(def) = self.class(last, caller)
                    && self.constructor(def, caller).is_none()
                {
                    let names: Vec<String> = def.fields.iter().map(|(n, _)| n.clone()).collect();
                    let stores: Vec<(usize, String)> = names.iter().cloned().enumerate().collect();
                    let (file, class) = (def.span.file, def.name.as_str());
                    let to = Fields { file, class, stores: &stores, keywords: Some(&names) };
                    self.store_handed(&mut out, caller, to, args);
                }
                // `NewTransport(os.Stdout, m.Handle)`, `Transport::new(handle)`: a factory
                // putting its parameter into the struct literal it returns; the field of
                // every file of the type's methods.
                if factory_names.contains(last)
                    && let Some(factory) = self.resolve(callee, caller)
                    && let Some((class, stores)) = factories.get(&factory)
                {
                    for &file in &self.method_files(class, factory) {
                        let to = Fields { file, class, stores, keywords: None };
                        self.store_handed(&mut out, caller, to, args);
                    }
                }
                if !names.contains(last) {
                    return;
                }
                // `self.transport.set_handler(h)` on a field that holds one of several
                // transports (`HttpTransport()` or `StdioTransport()` by configuration):
                // the setter of each, not only the one resolution picks.
                let mut targets: Vec<FnId> = self.resolve(callee, caller).into_iter().collect();
                let qualifier = callee.strip_suffix(crate::lower::last_segment(callee)).unwrap_or("");
                let held = ["self.", "this.", "$this->"]
                    .iter()
                    .find_map(|p| qualifier.trim_end_matches(['.', '-', '>']).strip_prefix(p))
                    .filter(|f| !f.contains(['.', ':', '-', '[', '(']));
                if let (Some(held), Some(own)) = (held, f.owner.as_deref()) {
                    for class in self.field_classes(own, held, caller) {
                        if let Some(m) = self.method(class, crate::lower::last_segment(callee), caller)
                            && !targets.contains(&m)
                        {
                            targets.push(m);
                        }
                    }
                }
                for setter in targets {
                    let (Some(stores), Some(class)) =
                        (setters.get(&setter), self.function(setter).owner.as_deref())
                    else {
                        continue;
                    };
                    self.store_handed(&mut out, caller, self.setter_fields(setter, class, stores), args);
                }
            });
        }
        out
    }

    /// Functions that return a struct literal holding one of their parameters in a
    /// field, by the function: the type and which parameter goes to which field. Go's
    /// factories (`func NewTransport(out io.Writer, h HandlerFunc) *Transport { return
    /// &Transport{out: out, handler: h} }`, or the literal bound to a local that is
    /// returned) and Rust's constructors (`fn new(handler: Handler) -> Self { Self {
    /// handler } }`, `Box::new(handler)` too).
    fn field_factories(&self) -> FieldFactories<'a> {
        use crate::model::Language::{Go, Rust};
        let mut out: FieldFactories<'a> = HashMap::default();
        for (id, (file, f)) in self.functions.iter().enumerate() {
            if !matches!(file.language, Go | Rust) || f.params.is_empty() {
                continue;
            }
            let mut locals: Vec<(&'a str, &'a Expr)> = Vec::new();
            let mut members: Vec<(&'a str, &'a str, &'a Expr)> = Vec::new();
            let mut returned: Vec<&'a Expr> = Vec::new();
            crate::model::walk_statements(&f.body, &mut |st| match st {
                Stmt::Assign { target, value, .. } if !target.contains(['.', '[']) => {
                    locals.push((target.as_str(), value))
                }
                // `s.handler = h` on the local returned.
                Stmt::Assign { target, value, .. } => {
                    if let Some((local, field)) = target.split_once('.')
                        && !field.contains(['.', '['])
                    {
                        members.push((local, field, value));
                    }
                }
                Stmt::Return { value: Some(value), .. } => returned.push(value),
                _ => {}
            });
            // Rust's tail expression.
            if let Some(Stmt::Yield(value)) = f.body.last() {
                returned.push(value);
            }
            let literal = |e: &'a Expr| -> Option<(&'a str, Vec<(&'a str, &'a Expr)>)> {
                let (e, local) = match e {
                    // `s := &Transport{..}; return s`: the local's one binding.
                    Expr::Var(v) => {
                        match locals.iter().filter(|(t, _)| t == v).collect::<Vec<_>>().as_slice() {
                            [(_, bound)] => (*bound, Some(v.as_str())),
                            _ => return None,
                        }
                    }
                    e => (e, None),
                };
                let Expr::Call { callee, args, .. } = e else { return None };
                if callee != crate::lower::NEW_OBJECT && callee != crate::lower::STRUCT_LITERAL {
                    return None;
                }
                let Some(Expr::Str(class)) = args.first() else { return None };
                // `Self { .. }` in an `impl`: the type the function belongs to.
                let class = match class.as_str() {
                    "Self" => f.owner.as_deref()?,
                    c => c,
                };
                let mut set: Vec<(&'a str, &'a Expr)> = match args.get(1) {
                    Some(Expr::Object { entries, .. }) => {
                        entries.iter().map(|(k, v)| (k.as_str(), v)).collect()
                    }
                    _ => Vec::new(),
                };
                set.extend(members.iter().filter(|(l, ..)| Some(*l) == local).map(|(_, k, v)| (*k, *v)));
                Some((class, set))
            };
            // One type built; a function building several is no factory of one.
            let built: Vec<(&'a str, Vec<(&'a str, &'a Expr)>)> =
                returned.into_iter().filter_map(literal).collect();
            let Some((class, entries)) = built.first() else { continue };
            let class = *class;
            if built.iter().any(|(c, _)| *c != class) {
                continue;
            }
            let stores: Vec<(usize, String)> = entries
                .iter()
                .filter_map(|&(field, value)| {
                    let held = match value {
                        // `handler: Box::new(handler)`, `Arc::new(h)`.
                        Expr::Call { callee, args, .. }
                            if matches!(callee.as_str(), "Box::new" | "Arc::new" | "Rc::new") =>
                        {
                            args.first()?
                        }
                        v => v,
                    };
                    let Expr::Var(v) = held else { return None };
                    Some((f.params.iter().position(|p| p == v)?, field.to_string()))
                })
                .collect();
            if !stores.is_empty() {
                out.insert(id, (class, stores));
            }
        }
        out
    }

    /// The files of a type's methods in the folder of `from` (a Go package; the
    /// file of a Rust `impl` beside its constructor).
    fn method_files(&self, class: &str, from: FnId) -> Vec<u32> {
        let home = dir_of(&self.file_of(from).path);
        let mut files: Vec<u32> = self
            .functions
            .iter()
            .filter(|(file, f)| f.owner.as_deref() == Some(class) && dir_of(&file.path) == home)
            .map(|(_, f)| f.span.file)
            .collect();
        files.sort_unstable();
        files.dedup();
        files
    }

    /// The fields a setter (or constructor) stores its parameters in, seen from its file.
    fn setter_fields<'s>(&self, setter: FnId, class: &'a str, stores: &'s [(usize, String)]) -> Fields<'s, 'a>
    where
        'a: 's,
    {
        let f = self.function(setter);
        Fields { file: f.span.file, class, stores, keywords: Some(f.params.as_slice()) }
    }

    /// Records in `out` the functions a call's arguments hand to the fields `to` names.
    fn store_handed(
        &self,
        out: &mut StoredCallbacks<'a>,
        caller: FnId,
        to: Fields<'_, 'a>,
        args: &'a [Expr],
    ) {
        let Fields { file, class, stores, keywords: params } = to;
        // Python's keywords (`Transport(handler=handle)`) name the parameter; the
        // positions count the arguments before them.
        let positional: Vec<&'a Expr> = args.iter().filter(|a| !matches!(a, Expr::Named { .. })).collect();
        for (i, field) in stores {
            let keyword = params.and_then(|p| p.get(*i));
            let named = args.iter().find_map(|a| match a {
                Expr::Named { name, value } if Some(name) == keyword => Some(value.as_ref()),
                _ => None,
            });
            let handed = match named.or_else(|| positional.get(*i).copied()) {
                Some(Expr::FnRef(name)) => self.resolve(name, caller),
                // A function's name, or a name bound once to a factory's call (`$handler =
                // ServerFactory::createHandler($key)`): the function the factory returns.
                Some(Expr::Var(name)) => (!self.holds_value(caller, name) || name.contains('.'))
                    .then(|| self.resolve(name, caller))
                    .flatten()
                    .or_else(|| self.made_function(name, caller))
                    .or_else(|| match self.assignments(caller, name).as_slice() {
                        [Expr::Call { callee, .. }] => self.factory_made(callee, caller),
                        _ => None,
                    }),
                // `new Transport(ServerFactory::createHandler($key))`.
                Some(Expr::Call { callee, .. }) => self.factory_made(callee, caller),
                _ => None,
            };
            let key = (file, class, field.clone());
            let agreed = agreeing(out.get(&key).copied(), handed);
            out.insert(key, agreed);
        }
    }

    /// The method whose `self` a function sees: itself, or for a closure or nested
    /// function the method it is written in.
    fn self_method(&self, id: FnId) -> Option<FnId> {
        std::iter::successors(Some(id), |&f| self.outer_function(f))
            .take(8)
            .find(|&f| self.function(f).owner.is_some())
    }

    fn find_entry_argument(&self, entry: FnId, index: usize) -> Option<&'a Expr> {
        let mut sites = Vec::new();
        for &(caller, call) in self.calls_named(&self.function(entry).name) {
            if let Expr::Call { callee, args, .. } = call
                && caller != entry
                && self.resolve(callee, caller) == Some(entry)
            {
                sites.push((caller, args.get(index)));
            }
            if sites.len() > 1 {
                return None;
            }
        }
        let [(caller, Some(arg))] = sites.as_slice() else { return None };
        let built = |e: &'a Expr| matches!(e, Expr::Object { .. } | Expr::Call { .. }).then_some(e);
        match arg {
            Expr::Var(name) => match self.assignments(*caller, name).as_slice() {
                [one] => built(one),
                [] => self.captured(name, *caller).and_then(built),
                _ => None,
            },
            other => built(other),
        }
    }

    /// Whether `name` is a parameter of `id` or a variable it assigns.
    pub fn holds_value(&self, id: FnId, name: &str) -> bool {
        self.values[id].binary_search(&name.trim_start_matches('$')).is_ok()
    }

    /// The innermost function of `id`'s scopes that holds `name` as a variable or
    /// parameter: `id` itself or, in a closure, a function around it.
    fn scope_holding(&self, id: FnId, name: &str) -> Option<FnId> {
        std::iter::successors(Some(id), |&here| self.capturing_function(here))
            .find(|&here| self.holds_value(here, name))
    }

    /// Whether `name` in function `id` is a variable holding a value: one of its own
    /// or, in a closure, one of a function around it; not a parameter, and not a
    /// function bound to the name there (see [`Program::resolve`]).
    fn holds_local_value(&self, id: FnId, name: &str) -> bool {
        self.scope_holding(id, name).is_some_and(|here| {
            !self.function(here).params.iter().any(|p| p.trim_start_matches('$') == name)
                && !self.named(name).iter().any(|&n| self.outer[n] == Some(here))
                && !self.binds_function(here, name)
        })
    }

    /// Whether function `id` binds `name` to a function somewhere (`const send = () =>
    /// ..`, Go's `step = func(..) {..}`).
    fn binds_function(&self, id: FnId, name: &str) -> bool {
        let mut binds = false;
        crate::model::walk_statements(&self.function(id).body, &mut |s| {
            if let Stmt::Assign { target, value, .. } = s
                && target.trim_start_matches('$') == name
            {
                binds |= match value {
                    Expr::FnRef(_) => true,
                    Expr::Block(b) => matches!(b.last(), Some(Stmt::Yield(Expr::FnRef(_)))),
                    _ => false,
                };
            }
        });
        binds
    }

    /// The function a call names, as seen from inside function `from`, by the
    /// rules the languages share:
    /// - a bare `name()` is a free function, never some class's method of that name
    ///   (a builtin like `print` stays a builtin);
    /// - `Type::name()` / `Class.name()` (a capitalised qualifier) is that type's own
    ///   function, and nothing when the type is not in the scanned code (`Arc::new`,
    ///   `JSON.parse`);
    /// - `obj.name()` on a value is a method of that name in a related folder, and
    ///   `module::name()` a function of that name anywhere, but `x.name()` on a
    ///   parameter or variable of the caller is never a module's function;
    /// - `x.name()` on a parameter declared with a type of the code is that type's
    ///   method (or its one implementation's); an object literal's member is found by
    ///   its member name, on a value only; Rust's `Self::name()` is the impl's own.
    pub fn resolve(&self, callee: &str, from: FnId) -> Option<FnId> {
        // The same call is resolved again by every probe that passes it: the answer
        // depends only on the program, the caller and the text, so it is kept.
        let hash = {
            use std::hash::BuildHasher;
            rustc_hash::FxBuildHasher.hash_one((from, callee))
        };
        let shard = &self.resolved.shards[(hash as usize) % RESOLVE_SHARDS];
        if let Ok(known) = shard.lock()
            && let Some(found) =
                known.get(&hash).and_then(|v| v.iter().find(|(f, c, _)| *f == from && **c == *callee))
        {
            return found.2;
        }
        let found = self.resolve_uncached(callee, from);
        if let Ok(mut known) = shard.lock() {
            known.entry(hash).or_default().push((from, callee.into(), found));
        }
        found
    }

    fn resolve_uncached(&self, callee: &str, from: FnId) -> Option<FnId> {
        // A made-up closure name (`__fn_18_10`) is where the closure starts in its
        // file: the same spot in another file is another closure.
        if crate::lower::is_anonymous(callee) {
            let file = self.function(from).span.file;
            if let Some(&id) = self
                .by_name
                .get(callee)
                .and_then(|ids| ids.iter().find(|&&id| self.function(id).span.file == file))
            {
                return Some(id);
            }
        }
        let name = crate::lower::last_segment(callee);
        let caller = self.file_of(from);
        // A bare name called in a function: a function written inside it, or inside a
        // function around it (Python's `def send(..)` nested in a method, which is no
        // method of the class), before any other of that name.
        if name == callee && !name.is_empty() {
            let mut scope = Some(from);
            for _ in 0..8 {
                // A module's own definitions are resolved as before.
                let Some(here) = scope.filter(|&h| self.function(h).name != "<module>") else { break };
                if let Some(&id) = self
                    .by_name
                    .get(name)
                    .and_then(|ids| ids.iter().find(|&&id| self.outer[id] == Some(here)))
                {
                    return Some(id);
                }
                scope = self.outer[here];
            }
        }
        // Rust's `Router::new()` with `Router` brought in by `use rpc_router::Router`:
        // the other crate's, never a type of the scanned code (unless the crate is
        // one of the workspace's, whose folder bears its name).
        if caller.language == Language::Rust
            && let Some((head, _)) = callee.split_once("::")
            && caller.package_names.iter().any(|(local, package)| {
                local == head
                    && !self.rust_crates.contains(package)
                    && !self.file_names.contains(package.as_str())
                    && !self.file_names.contains(package.replace('_', "-").as_str())
            })
        {
            return None;
        }
        let family = family(caller.language);
        let qualifier = callee.strip_suffix(name).unwrap_or("").trim_end_matches(['.', ':', '>', '-']);
        let owner = crate::lower::last_segment(qualifier);
        // Rust's `Self::f()` names the function of the impl's own type.
        let own_type = self.function(from).owner.as_deref();
        let owner = match own_type {
            Some(own) if owner == "Self" && caller.language == Language::Rust => own,
            _ => owner,
        };
        let typed = owner.starts_with(|c: char| c.is_ascii_uppercase());
        // `request.get(..)` on a parameter or a variable: a method of the value.
        let head = qualifier.split(['.', ':', '-']).next().unwrap_or("").trim_start_matches('$');
        // (In Go a closure's `server.Serve(l)` on the caller's `server` too: a Go value
        // is never a package, where a JavaScript or Python one may hold a module.)
        let on_value = !qualifier.is_empty()
            && !callee.contains("::")
            && if caller.language == Language::Go {
                self.scope_holding(from, head).is_some()
            } else {
                self.holds_value(from, head)
            };
        // Rust: `value.f()` calls a method taking `self`, never an associated function;
        // `module::f()` (a lowercase path) a free function, never a type's.
        let rust = caller.language == Language::Rust;
        let method_call =
            rust && callee.len() > name.len() && callee[..callee.len() - name.len()].ends_with('.');
        let module_path = rust
            && callee.contains("::")
            && !method_call
            && owner.starts_with(|c: char| c.is_ascii_lowercase())
            && !matches!(owner, "self" | "Self");
        // `crate::providers::dispatch`: a function of the module `providers` (its file
        // `providers.rs`, or a file under `providers/`, which may re-export it), never
        // one of another module; `shelf::f` may name a crate, whose root is `lib.rs`.
        let crate_named = !qualifier.contains("::");
        let in_module = |id: &FnId| {
            if !module_path || matches!(owner, "crate" | "super") {
                return true;
            }
            let path = self.file_of(*id).path.as_str();
            let mut parts = path.trim_end_matches(".rs").rsplit('/');
            let stem = parts.next().unwrap_or("");
            stem == owner || (crate_named && matches!(stem, "lib" | "main")) || parts.any(|dir| dir == owner)
        };
        let fits = |id: &FnId| {
            let f = self.function(*id);
            if (method_call && f.associated) || (module_path && (f.owner.is_some() || !in_module(id))) {
                return false;
            }
            // An object literal's member, found by its member name: only as `x.name()`
            // on a value (its own name is made up, and never called bare).
            if f.name != name && self.object_members.contains(id) {
                return !qualifier.is_empty() && !typed && family == self::family(self.file_of(*id).language);
            }
            family == self::family(self.file_of(*id).language)
                && if qualifier.is_empty() {
                    f.owner.is_none()
                } else if typed {
                    f.owner.as_deref() == Some(owner)
                } else {
                    !on_value || f.owner.is_some()
                }
        };
        // Every function of the name that fits, for the rules that pick one among several.
        let all_fitting = || -> Vec<FnId> {
            self.by_name.get(name).into_iter().flatten().copied().filter(|id| fits(id)).collect()
        };
        // Go resolves a bare name in its own package: the files of the same folder; and
        // `http.NewRequest` names the standard library's package, never a function of
        // the scanned code.
        let package_scoped = qualifier.is_empty() && caller.language == Language::Go;
        if caller.language == Language::Go
            && !qualifier.is_empty()
            && caller.imports.iter().filter_map(|i| i.strip_prefix(crate::model::GO_IMPORT)).any(|path| {
                path.rsplit('/').next() == Some(qualifier)
                    && path.split('/').next().is_some_and(|first| GO_STDLIB.contains(&first))
            })
        {
            return None;
        }
        // `h := mcp.NewHandler(..)` then `h.HandleRequest(..)`: a method of a type of the
        // package `mcp` (one of the repository's own), not of another package's type
        // with a method of that name. Looked for only when more than one would fit.
        if caller.language == Language::Go && !qualifier.is_empty() && !qualifier.contains(['.', '(', '[']) {
            let fitting = all_fitting();
            if fitting.len() > 1
                && let Some(dir) = self.go_package_of_value(from, qualifier)
                && let Some(id) = fitting.iter().copied().find(|id| dir_of(&self.file_of(*id).path) == dir)
            {
                return Some(id);
            }
            // `initialize.Dispatch(..)` with the repository's package `.../initialize`
            // imported: that package's function, not another package's of that name.
            // `pg.Dispatch(..)` with `pg "example.com/app/internal/ping"`: the alias names it.
            if fitting.len() > 1
                && let Some(dir) = self.go_alias_local.get(&(caller.path.as_str(), qualifier)).or_else(|| {
                    self.go_local
                        .get(caller.path.as_str())?
                        .iter()
                        .find(|d| d.as_str() == qualifier || d.ends_with(&format!("/{qualifier}")))
                })
                && let Some(id) =
                    fitting.iter().copied().find(|id| dir_of(&self.file_of(*id).path) == dir.as_str())
            {
                return Some(id);
            }
        }
        // `handler()` on a variable of the caller (`const handler = handlers[method]`)
        // calls the value it holds, never a function of that name elsewhere. A name
        // bound to a function there (`const send = () => ..`, Go's `step = func(..)`)
        // and a parameter (its value is the caller's argument, which the interpreter
        // follows) are resolved as before.
        if qualifier.is_empty() && self.holds_local_value(from, name) {
            return None;
        }
        // A name imported from a package outside the scanned code is the package's.
        // (Rust's `use` of another crate is read above, against the workspace's crates.)
        if qualifier.is_empty()
            && caller.language != Language::Rust
            && caller
                .package_names
                .iter()
                .any(|(local, package)| local == name && !self.file_names.contains(package.as_str()))
        {
            return None;
        }
        // `handle(msg)` with `handle` imported by name from a module of the scanned code
        // (`import { handle } from "./rpc"`, `from .rpc import handle`): that module's
        // function, not another of the name nearer the caller. (A module that only
        // re-exports it has no such function: the rules below look further.)
        if qualifier.is_empty()
            && matches!(family, Language::Python | Language::TypeScript)
            && let Some((_, original, module)) = caller.named_imports.iter().find(|(local, ..)| local == name)
        {
            let is_module = |path: &str| match family {
                Language::Python => python_module_is(path, module, &caller.path),
                _ => script_module_is(path, module),
            };
            if let Some(id) = self
                .by_name
                .get(original.as_str())
                .into_iter()
                .flatten()
                .copied()
                .find(|id| fits(id) && is_module(&self.file_of(*id).path))
            {
                return Some(id);
            }
        }
        // `atexit.register(f)` with `import atexit`: the function of a module outside the
        // scanned code, never a method of the code's that shares its name.
        if caller.language == Language::Python
            && !qualifier.is_empty()
            && !qualifier.contains(['.', '(', '['])
            && !self.holds_value(from, qualifier)
            && caller
                .package_names
                .iter()
                .any(|(local, package)| local == qualifier && !self.file_names.contains(package.as_str()))
        {
            return None;
        }
        // `h.dispatch(msg)` with `import app.rpc.handlers as h` (or `from app.rpc import
        // handlers as h`), or JavaScript's `import * as h from "./rpc/handlers"`: the
        // function of that module, not another module's of that name. Looked for only
        // when more than one would fit.
        if matches!(family, Language::Python | Language::TypeScript)
            && !qualifier.is_empty()
            && !qualifier.contains(['.', '(', '['])
            && !self.holds_value(from, qualifier)
            && let Some((_, module)) = caller.module_aliases.iter().find(|(local, _)| local == qualifier)
        {
            let is_module = |path: &str| match family {
                Language::Python => python_module_is(path, module, &caller.path),
                _ => script_module_is(path, module),
            };
            let fitting = all_fitting();
            if fitting.len() > 1
                && let Some(id) = fitting.iter().copied().find(|id| is_module(&self.file_of(*id).path))
            {
                return Some(id);
            }
        }
        // `this.service.handle()`: a method of the class the field holds, when the
        // class's declarations say which; not the caller's own method of that name.
        let field = ["this.", "self.", "$this->"].iter().find_map(|p| qualifier.strip_prefix(p));
        if let Some(field) = field.filter(|f| !f.contains(['.', ':', '-', '[', '(']))
            && let Some(own) = self.function(from).owner.as_deref()
            && let Some(class) = self.field_class(own, field, from)
            && let Some(id) = self
                .resolve_owned(name, Some(class), from)
                .or_else(|| self.sole_implementation(class, name, from))
        {
            return Some(id);
        }
        // `(new Assembly())->server()->run(..)`, `Assembly::new().server().serve(..)`: a
        // method of the class the call before it is declared to return (or constructs),
        // not one of the same name nearer the caller.
        // (Followed through at most `MAX_CHAIN` calls: the text is walked once a call.)
        if qualifier.ends_with(')')
            && memchr::memchr_iter(b'(', qualifier.as_bytes()).count() <= MAX_CHAIN
            && let Some((class, named_at)) = self.returned_class(qualifier, from)
            && let Some(id) = self
                .resolve_owned(name, Some(class), named_at)
                .or_else(|| self.sole_implementation(class, name, named_at))
                .filter(|&id| self.within_reach(id, named_at))
        {
            return Some(id);
        }
        // `$server->handle(..)` on a parameter declared `MemoryServer $server`, or on a
        // local assigned `new McpServer(..)`: that class's method (or its one
        // implementation's), not the caller's own or another of the same name.
        if !head.is_empty()
            && qualifier.trim_start_matches('$') == head
            && let Some(class) = self.declared_class(from, head)
            && let Some(id) = self
                .resolve_owned(name, Some(class), from)
                .or_else(|| self.sole_implementation(class, name, from))
        {
            return Some(id);
        }
        // `$handler->handle($request)` on a parameter declared with an interface of a
        // package (PSR-15's `RequestHandlerInterface $handler`) that no class of the code
        // implements: the package's method, never a method of that name of the code.
        if caller.language == Language::Php
            && !head.is_empty()
            && qualifier.trim_start_matches('$') == head
            && let Some(class) = self.declared_class(from, head)
            && self.class(class, from).is_none()
        {
            return None;
        }
        // `rpc.handleBody(..)` on a local assigned `createRpc(..)`: the inner function of
        // that factory the object it returns names.
        if !head.is_empty()
            && qualifier == head
            && let Some(id) = self.factory_member(from, head, name)
        {
            return Some(id);
        }
        // `transport.handleRequest(..)` on `transport = new StreamableHTTPServerTransport(..)`
        // whose class a package outside the scanned code exports: the package's method.
        if on_value
            && !head.is_empty()
            && self.external_instances.get(caller.path.as_str()).is_some_and(|vars| vars.contains(head))
        {
            return None;
        }
        // The same file first, then the same folder: the common case, found without a scan.
        if let Some(local) = self.by_dir.get(&(dir_of(&caller.path), name)) {
            let same_file = |id: &FnId| self.file_of(*id).path == caller.path;
            let owned = |id: &FnId| self.function(*id).owner.as_deref() == Some(owner);
            let pick = local
                .iter()
                .filter(|id| fits(id))
                .find(|id| same_file(id) && owned(id))
                .or_else(|| local.iter().filter(|id| fits(id)).find(|id| same_file(id)))
                .or_else(|| local.iter().filter(|id| fits(id)).find(|id| owned(id)))
                .or_else(|| local.iter().find(|id| fits(id)));
            if let Some(id) = pick {
                return Some(*id);
            }
        }
        if package_scoped {
            return None;
        }
        let candidates: Vec<FnId> = self.by_name.get(name)?.iter().copied().filter(|id| fits(id)).collect();
        let owned: Vec<FnId> = candidates
            .iter()
            .copied()
            .filter(|id| self.function(*id).owner.as_deref() == Some(owner))
            .collect();
        let pool = if owned.is_empty() { candidates } else { owned };
        // `obj.method()` on an unseen value only reaches methods in related folders;
        // a bare `function()` (Python, JavaScript, PHP: imported from anywhere), a
        // type's own function and a module path (`a::b::f`) may be anywhere. A bare
        // Rust call names an item of its own crate, found in related folders.
        let path = callee.contains("::")
            && callee.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b':');
        let bare = qualifier.is_empty() && caller.language != Language::Rust;
        let anywhere = bare || typed || path;
        let pick = self.nearest(from, pool.iter().map(|&id| (self.function(id).span.file, id)), anywhere);
        // `server.handleRequest(req.body)` on a parameter (a router module exporting
        // `(server) => router`, handed the instance by its importer): the method of
        // that name, when the scanned code has exactly one and it belongs to a class.
        if pick.is_none()
            && !head.is_empty()
            && !qualifier.contains(['.', '(', '[', ':'])
            && matches!(
                caller.language,
                Language::JavaScript | Language::TypeScript | Language::Python | Language::Php
            )
            && let [only] = pool.as_slice()
            && self.function(*only).owner.is_some()
            && self.is_parameter(from, head)
        {
            return Some(*only);
        }
        if pick.is_some() || caller.language != Language::Go {
            return pick;
        }
        // Go's interfaces are satisfied by any type with their methods: `s.handler.Handle(..)`
        // on a field the receiver's type declares with an interface type of the code (a
        // type that owns no methods) is the method of the one type of the code that has
        // it, wherever its package is.
        let interface_field = match qualifier.split('.').collect::<Vec<_>>().as_slice() {
            [_, field] => self
                .function(from)
                .owner
                .as_deref()
                .and_then(|own| self.field_class(own, field, from))
                .is_some_and(|iface| !self.has_methods(iface, from)),
            _ => false,
        };
        let mut owners = pool.iter().map(|id| self.function(*id).owner.as_deref());
        let first = owners.next().flatten();
        let one_owner = first.is_some() && owners.all(|o| o == first);
        if interface_field && one_owner {
            return self.nearest(from, pool.into_iter().map(|id| (self.function(id).span.file, id)), true);
        }
        // `server.HandleRequest(..)` on a parameter declared `server mcp.Server`, an
        // interface of the code naming that method: the method of the one type of the
        // code that has every method the interface names.
        if !head.is_empty() && qualifier == head {
            return self.interface_implementation(from, head, name, &pool);
        }
        None
    }

    /// The method `name` that a call on Go parameter `param` runs when the parameter is
    /// declared with an interface of the scanned code (`s mcp.Server`: an interface
    /// `Server` in a folder named `mcp`) that names the method: that of the one type
    /// among `pool`'s owners with all the interface's methods. None when the type is no
    /// such interface, or when no type or several have them (a test double beside the
    /// real one).
    fn interface_implementation(&self, from: FnId, param: &str, name: &str, pool: &[FnId]) -> Option<FnId> {
        let declared = self.function(from).param_types.iter().find(|(p, _)| p == param)?.1.as_str();
        let (package, ty) = declared.rsplit_once('.').map_or(("", declared), |(p, t)| (p, t));
        let caller = self.file_of(from);
        // Only code of the caller's own Go module (its `go.mod`) is looked at.
        let module = self.go_module_of(&caller.path);
        let same_module = |path: &str| module.is_none() || self.go_module_of(path) == module;
        let methods = self.interfaces.get(ty)?.iter().find_map(|(file, methods)| {
            let dir = dir_of(&file.path);
            let here = if package.is_empty() {
                dir == dir_of(&caller.path)
            } else {
                dir.rsplit('/').next() == Some(package) && same_module(&file.path)
            };
            (here && file.language == caller.language && methods.iter().any(|m| m == name))
                .then_some(*methods)
        })?;
        let pool: Vec<FnId> =
            pool.iter().copied().filter(|&id| same_module(&self.file_of(id).path)).collect();
        let mut owners: Vec<&str> = pool
            .iter()
            .filter_map(|&id| self.function(id).owner.as_deref())
            .filter(|owner| methods.iter().all(|m| self.method(owner, m, from).is_some()))
            .collect();
        owners.sort_unstable();
        owners.dedup();
        let [owner] = owners.as_slice() else { return None };
        let fitting = pool.iter().copied().filter(|&id| self.function(id).owner.as_deref() == Some(*owner));
        self.nearest(from, fitting.map(|id| (self.function(id).span.file, id)), true)
    }

    /// The class of what a call expression gives, by its text: `new Server(..)` (in
    /// parentheses or not) constructs `Server`; a call of a function declared to return
    /// a class gives that class. With the class, the function whose code names it (the
    /// caller, or the function declaring the return type): the class is the one that
    /// code reaches. `None` when neither is known.
    fn returned_class(&self, call: &str, from: FnId) -> Option<(&'a str, FnId)> {
        let call = call.trim();
        let open = matching_open(call)?;
        let callee = call[..open].trim();
        if callee.is_empty() {
            // `(new Server(..))`: the parenthesised expression.
            return self.returned_class(&call[1..call.len() - 1], from);
        }
        // `new Server` (not `new Kernel().server`, a method of what `new Kernel()` builds);
        // Python's `Server(..)`: calling a class constructs it.
        let constructed = match callee.strip_prefix("new ").filter(|c| !c.contains('(')) {
            Some(class) => Some(class.trim().rsplit(['\\', '.']).next()?),
            None if self.file_of(from).language == Language::Python
                && self.classes.contains_key(crate::lower::last_segment(callee)) =>
            {
                Some(crate::lower::last_segment(callee))
            }
            None => None,
        };
        if let Some(class) = constructed {
            let caller = self.file_of(from);
            return self
                .classes
                .get_key_value(class)
                .filter(|(_, defs)| defs.iter().any(|(file, _)| self.related(caller, file)))
                .map(|(k, _)| (*k, from));
        }
        let made_by = self.resolve(callee, from).filter(|&id| self.within_reach(id, from))?;
        Some((self.function(made_by).returns.as_deref()?, made_by))
    }

    /// Whether `id` is code `from` can call by a type it names: in a related folder,
    /// or in a module `from` imports (never the like-named type of an unrelated
    /// program beside it, such as the code's own `Router` where a file means axum's).
    fn within_reach(&self, id: FnId, from: FnId) -> bool {
        self.related(self.file_of(from), self.file_of(id))
    }

    /// The method `name` of class `owner`, if there is one.
    pub fn resolve_owned(&self, name: &str, owner: Option<&str>, from: FnId) -> Option<FnId> {
        let owner = owner?;
        let owned = self.by_name.get(name)?.iter().copied().filter(|id| {
            self.function(*id).owner.as_deref() == Some(owner)
                && family(self.file_of(*id).language) == family(self.file_of(from).language)
        });
        self.nearest(from, owned.map(|id| (self.function(id).span.file, id)), true)
    }

    /// The function a module-level name is bound to by a factory call (`const mcp =
    /// makeEndpoint(opts)` where `makeEndpoint` returns `function endpoint(req, res)
    /// {..}`): calling the name calls what the factory returns, when every return of it
    /// names the same function. (A local bound so inside a handler is left to the
    /// interpreter: the function it makes may be an entry of its own, such as a
    /// transport's fetch handler wrapped by a middleware; one bound in the function
    /// around a closure, as a router builder binds `const gate = makeGate(opts)` for
    /// the handlers it defines, is the closure's.)
    pub fn made_function(&self, name: &str, here: FnId) -> Option<FnId> {
        let bound = self.global(name, here).or_else(|| self.bound_around(name, here))?;
        let Expr::Call { callee, .. } = bound else { return None };
        self.factory_made(callee, here)
    }

    /// The one function the factory `callee` (called from `here`) returns: `return
    /// handle`, or a function defined inside it and returned by name.
    pub fn factory_made(&self, callee: &str, here: FnId) -> Option<FnId> {
        let factory = self.resolve(callee, here)?;
        let mut found: Option<Option<FnId>> = None;
        crate::model::walk_statements(&self.function(factory).body, &mut |s| {
            if let crate::model::Stmt::Return { value: Some(value), .. } = s {
                let made = match value {
                    Expr::FnRef(f) => self.resolve(f, factory),
                    // `return endpoint` naming a function defined inside the factory.
                    Expr::Var(f) if !self.holds_value(factory, f) => self
                        .resolve(f, factory)
                        .filter(|&g| self.function(g).span.file == self.function(factory).span.file),
                    // `const answer = async (msg) => {..}; return answer;`: the closure
                    // every binding of the local names.
                    Expr::Var(f) => {
                        let bound = crate::model::bound_functions(&self.function(factory).body, f);
                        let mut made: Option<Option<FnId>> = None;
                        for g in bound.into_iter().flatten() {
                            made = Some(agreeing(made, self.resolve(g, factory)));
                        }
                        made.flatten()
                    }
                    _ => None,
                };
                found = Some(agreeing(found, made));
            }
        });
        found.flatten()
    }

    /// The expression a module-level (or constructor-built) name is bound to.
    pub fn global(&self, name: &str, from: FnId) -> Option<&'a Expr> {
        // Server state a function may change (`global $SESSION`): not its first value.
        if self.file_of(from).state.iter().any(|s| s == name) {
            return None;
        }
        let entries = self
            .globals
            .get(name)
            .or_else(|| name.strip_prefix("self.").and_then(|n| self.globals.get(n)))?;
        // The caller's own file decides when it binds the name (the common case, no scan).
        let file = self.function(from).span.file;
        if entries.iter().any(|(f, ..)| *f == file) {
            return one_binding(entries.iter().filter(|(f, ..)| *f == file));
        }
        let shared = || entries.iter().filter(|(_, _, _, local)| !local);
        let chosen = self.nearest(from, shared().map(|(f, e, ..)| (*f, *e)), false)?;
        // A name assigned more than once in its file (a setting changed at run time) has no one value.
        let here = shared().find(|(_, e, ..)| std::ptr::eq(*e, chosen)).map(|(f, ..)| *f)?;
        one_binding(shared().filter(|(f, ..)| *f == here))
    }

    /// The literal a named constant stands for, as seen from `from`: a module-level
    /// or class constant (`MethodPing`, `self::PING`, `Method.Ping`), a member of a
    /// constant object (`METHODS.PING`), or a package- or module-qualified name
    /// (`mcp.MethodPing`, `methods::PING`) defined in a related file.
    pub fn constant(&self, name: &str, from: FnId) -> Option<&'a Expr> {
        let literal = |e: &'a Expr| matches!(e, Expr::Str(_) | Expr::Int(_)).then_some(e);
        if let Some(e) = self.global(name, from) {
            return literal(e);
        }
        // `Method.PING.value` (Python's `Enum`), `Method::Ping->value` (PHP's backed
        // enum): the value of the member, a constant of its class.
        if let Some(member) = name.strip_suffix(".value").or_else(|| name.strip_suffix("->value"))
            && member.rsplit(['.', ':']).nth(1).is_some_and(|t| t.starts_with(char::is_uppercase))
            && let Some(e) = self.constant(member, from)
        {
            return Some(e);
        }
        let (base, member) = name.rsplit_once("::").or_else(|| name.rsplit_once('.'))?;
        if let Some(Expr::Object { entries, .. }) = self.object_path(base, from) {
            return entries.iter().find(|(k, _)| k == member).and_then(|(_, v)| literal(v));
        }
        // `pkg.Name` / `module::NAME`: the name as its own module defines it.
        let base_is_type = base.rsplit(['.', ':']).next().is_some_and(|b| b.starts_with(char::is_uppercase));
        if base_is_type {
            return self
                .global(&format!("{}.{member}", crate::lower::last_segment(base)), from)
                .and_then(literal);
        }
        self.global(member, from).and_then(literal)
    }

    /// The object a dotted path of constant objects names: `METHODS.TOOLS` in
    /// `const METHODS = { TOOLS: { LIST: "tools/list" } }`.
    fn object_path(&self, path: &str, from: FnId) -> Option<&'a Expr> {
        if let Some(e) = self.global(path, from) {
            return Some(e);
        }
        let (base, member) = path.rsplit_once('.')?;
        match self.object_path(base, from)? {
            Expr::Object { entries, .. } => entries.iter().find(|(k, _)| k == member).map(|(_, v)| v),
            _ => None,
        }
    }

    /// The method name a table key written as a constant stands for: JavaScript's
    /// computed `[METHODS.PING]`, Python's `Method.PING`, PHP's `self::PING`.
    pub fn table_key(&self, key: &str, from: FnId) -> Option<&'a str> {
        let inner = key.strip_prefix('[').and_then(|k| k.strip_suffix(']')).unwrap_or(key);
        let written = inner.len() != key.len() || inner.contains(['.', ':']);
        let name_like = !inner.is_empty()
            && inner.chars().all(|c| c.is_alphanumeric() || matches!(c, '_' | '.' | ':' | '$'));
        if !(written && name_like) {
            return None;
        }
        // As the lowering names a constant it reads (`self::PING` is `self.PING`).
        let name = inner.trim_start_matches('$').replace("::", ".");
        match self.constant(&name, from) {
            Some(Expr::Str(s)) => Some(s.as_str()),
            _ => None,
        }
    }

    /// The method names a variant of an enum decoded by `method` stands for, from the
    /// nearest such enum with a variant of that name (none for other variants).
    pub fn tagged_methods(&self, variant: &str, from: FnId) -> Vec<&'a str> {
        let holds = |table: &Expr| match table {
            Expr::Object { entries, .. } => {
                entries.iter().any(|(_, v)| matches!(v, Expr::Str(s) if s == variant))
            }
            _ => false,
        };
        let candidates = self.tagged.iter().filter(|(_, t)| holds(t)).map(|&(file, t)| (file, t));
        match self.nearest(from, candidates, true) {
            Some(Expr::Object { entries, .. }) => entries
                .iter()
                .filter(|(wire, v)| !wire.is_empty() && matches!(v, Expr::Str(s) if s == variant))
                .map(|(wire, _)| wire.as_str())
                .collect(),
            _ => Vec::new(),
        }
    }

    /// Registrations visible from `from`: made in a related folder, or by code that
    /// imports the dispatcher's module (a server package registering its handlers into a
    /// JSON-RPC package's table: `s.rpc.RegisterMethod(MethodPing, s.ping)`).
    fn visible(&self, from: FnId) -> impl Iterator<Item = &Registered> {
        let here = self.file_of(from).path.as_str();
        self.registrations.iter().filter(move |r| {
            closeness(here, self.path_of_index(r.file)).is_some()
                || self.file_by_index(r.file).is_some_and(|f| self.imports(f, here))
        })
    }

    /// Each listener with its handler: a function of the registering file by that name.
    fn resolved_listeners(&self) -> Vec<(&'a str, &'a str, FnId, u32)> {
        let mut out = Vec::new();
        let mut first = 0;
        // The functions of one file are next to each other.
        for own in self.functions.chunk_by(|a, b| std::ptr::eq(a.0, b.0)) {
            let (file, f) = own[0];
            for l in &file.listeners {
                let handler = own
                    .iter()
                    .position(|(_, g)| g.name == l.handler)
                    .map(|i| first + i)
                    .or_else(|| self.resolve(&l.handler, first));
                if let Some(h) = handler {
                    out.push((l.emitter.as_str(), l.event.as_str(), h, f.span.file));
                }
            }
            first += own.len();
        }
        out
    }

    /// The handlers an `emit` of `event` on `emitter` (as written) calls: listeners on
    /// the same emitter in the same file, and for `this.field` in a method of `class`,
    /// listeners on `v.field` where `v` holds an instance of that class.
    pub fn listeners_for(&self, emitter: &str, event: &str, from: FnId, class: Option<&str>) -> Vec<FnId> {
        let here = self.functions[from].1.span.file;
        let field = emitter.strip_prefix("this.");
        self.listeners
            .iter()
            .filter(|(e, ev, h, file)| {
                if *ev != event {
                    return false;
                }
                if *e == emitter && *file == here {
                    return true;
                }
                let (Some(field), Some(class)) = (field, class) else { return false };
                let Some((holder, rest)) = e.split_once('.') else { return false };
                // The holder is looked up from the handler, a function of the registering file.
                rest == field
                    && holder != "this"
                    && matches!(self.global(holder, *h), Some(Expr::Call { callee, .. })
                        if crate::lower::last_segment(callee) == class)
            })
            .map(|(_, _, h, _)| *h)
            .collect()
    }

    pub fn has_registrations(&self, from: FnId) -> bool {
        self.visible(from).next().is_some()
    }

    /// The handler registered for a method name, as seen from `from`.
    pub fn registration(&self, method: &str, from: FnId) -> Option<&str> {
        self.visible(from).find(|r| r.method == method).map(|r| r.handler.as_str())
    }

    /// The function registered for a method name, as seen from `from`: its name
    /// resolved where it was registered, else from `from`.
    pub fn registered_function(&self, method: &str, from: FnId) -> Option<FnId> {
        let r = self.visible(from).find(|r| r.method == method)?;
        r.by.and_then(|by| self.resolve(&r.handler, by)).or_else(|| self.resolve(&r.handler, from))
    }

    pub fn registered_methods(&self, from: FnId) -> Vec<&str> {
        self.visible(from).map(|r| r.method.as_str()).collect()
    }

    /// Whether a lookup `table[key]` reads a table that registrations fill: the table
    /// is one a registration names, or the key is the message's method itself.
    pub fn reads_registry(&self, table: &str, key: &Expr, from: FnId) -> bool {
        let on_method = match key {
            Expr::Field { name: crate::model::FieldName::Method, .. } => true,
            Expr::Var(v) => v.to_ascii_lowercase().contains("method"),
            _ => false,
        };
        let table = crate::lower::last_segment(table);
        self.visible(from).any(|r| r.table == table) || (on_method && self.has_registrations(from))
    }
}

/// The top-level packages of Go's standard library (`net/http` is under `net`).
const GO_STDLIB: &[&str] = &[
    "archive",
    "bufio",
    "bytes",
    "cmp",
    "compress",
    "container",
    "context",
    "crypto",
    "database",
    "debug",
    "embed",
    "encoding",
    "errors",
    "expvar",
    "flag",
    "fmt",
    "go",
    "hash",
    "html",
    "image",
    "index",
    "io",
    "iter",
    "log",
    "maps",
    "math",
    "mime",
    "net",
    "os",
    "path",
    "plugin",
    "reflect",
    "regexp",
    "runtime",
    "slices",
    "sort",
    "strconv",
    "strings",
    "sync",
    "syscall",
    "testing",
    "text",
    "time",
    "unicode",
    "unique",
    "unsafe",
];

/// The names that hold values in a function: its parameters and the plain
/// variables it assigns (not `<module>`'s, which may be imported modules).
fn value_names(f: &Function) -> Vec<&str> {
    let mut out: Vec<&str> = f.params.iter().map(|p| p.trim_start_matches('$')).collect();
    if f.name != "<module>" {
        crate::model::walk_statements(&f.body, &mut |s| {
            if let Stmt::Assign { target, value, .. } = s
                && !target.contains(['.', '[', ':', '-'])
                && !matches!(value, Expr::Call { callee, .. } if matches!(crate::lower::last_segment(callee), "require" | "import" | "__import__" | "import_module"))
            {
                out.push(target.trim_start_matches('$'));
            }
        });
    }
    out.sort_unstable();
    out.dedup();
    out
}

#[cfg(test)]
mod tests {
    use super::python_module_is;

    #[test]
    fn python_modules_are_found_by_absolute_and_relative_imports() {
        assert!(python_module_is("app/rpc/handlers.py", "app.rpc.handlers", "app/main.py"));
        assert!(python_module_is("src/app/rpc/handlers.py", "app.rpc.handlers", "src/app/main.py"));
        assert!(python_module_is("app/rpc/__init__.py", "app.rpc", "app/main.py"));
        assert!(!python_module_is("app/legacy/handlers.py", "app.rpc.handlers", "app/main.py"));
        assert!(!python_module_is("app/xrpc/handlers.py", "rpc.handlers", "app/main.py"));
        assert!(python_module_is("app/rpc/handlers.py", ".rpc.handlers", "app/main.py"));
        assert!(python_module_is("app/rpc/handlers.py", ".handlers", "app/rpc/server.py"));
        assert!(python_module_is("app/rpc/handlers.py", "..rpc.handlers", "app/cli/main.py"));
        assert!(python_module_is("handlers.py", ".handlers", "main.py"));
        assert!(!python_module_is("app/legacy/handlers.py", ".handlers", "app/rpc/server.py"));
    }

    /// One file of `language`, parsed and lowered.
    fn lowered(language: crate::model::Language, path: &str, src: &[u8]) -> Vec<crate::model::FileFacts> {
        let grammar = crate::parse::Grammar::of(language, std::path::Path::new(path));
        let tree = crate::parse::parse(grammar, src, std::time::Duration::from_secs(5)).expect("parses");
        vec![crate::lower::lower(language, path, src, &tree, 0, &Default::default()).expect("lowers")]
    }

    /// A Rust function's local (`let line = json!({..}).to_string()` in a progress
    /// helper) is no name another function can read: a read loop's `line` the
    /// analysis could not bind must not take the helper's value.
    #[test]
    fn rust_function_locals_are_no_names_of_the_file() {
        let src = b"fn emit(tx: &Tx) {\n    let line = json!({\"method\": \"notifications/progress\"}).to_string();\n    tx.send(line);\n}\nfn read() -> usize {\n    line.len()\n}\nstatic TABLE: Table = Table { size: 3 };\n";
        let files = lowered(crate::model::Language::Rust, "s.rs", src);
        let prog = super::Program::new(&files);
        let read = (0..prog.functions.len()).find(|&i| prog.function(i).name == "read").expect("read");
        assert!(prog.global("line", read).is_none(), "another function's local");
        assert!(prog.global("TABLE", read).is_some(), "a static of the file");
    }

    /// `go func() { server.Serve(l) }()` on the caller's `server` (an `http.Server`)
    /// calls that value's method, never the package's own function `Serve`.
    #[test]
    fn go_method_call_in_a_closure_on_the_callers_value_is_no_package_function() {
        let src = b"package mcp\n\nfunc Serve(in io.Reader) error {\n\treturn nil\n}\n\nfunc Login(l net.Listener) {\n\tserver := &http.Server{}\n\tgo func() { _ = server.Serve(l) }()\n\tServe(nil)\n}\n";
        let files = lowered(crate::model::Language::Go, "s.go", src);
        let prog = super::Program::new(&files);
        let login = (0..prog.functions.len()).find(|&i| prog.function(i).name == "Login").expect("Login");
        let closure = (0..prog.functions.len())
            .find(|&i| crate::lower::is_anonymous(&prog.function(i).name))
            .expect("the goroutine's closure");
        assert!(prog.resolve("server.Serve", closure).is_none(), "the http.Server's method");
        assert!(prog.resolve("Serve", login).is_some(), "the package's function, called bare");
    }

    #[test]
    fn script_modules_are_found_by_their_resolved_path() {
        use super::script_module_is;
        assert!(script_module_is("src/rpc/handlers.ts", "src/rpc/handlers"));
        assert!(script_module_is("src/rpc/index.js", "src/rpc"));
        assert!(!script_module_is("src/legacy/handlers.ts", "src/rpc/handlers"));
        assert!(!script_module_is("lib/src/rpc/handlers.ts", "src/rpc/handlers"));
    }
}
