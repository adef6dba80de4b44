//! `cargo xtask lint`: the workspace's layout checks of issue 30 — no circle
//! of files inside a crate, and no library source file over [`MAX_LINES`]
//! lines.
//!
//! **Circles.** Every crate directory (`crates/*/src`, `xtask/src`,
//! `benches/src`, `python/src`) is read from its crate roots (`lib.rs`,
//! `main.rs`, `bin/*.rs`, `bin/*/main.rs`) down its `mod` declarations, so
//! each file is known as the module it defines (`a/b.rs` or `a/b/mod.rs` is
//! module `a::b`; inline `mod x { … }` blocks are modules of their file). A
//! file *imports* from another when one of its paths names an item of the
//! other's module:
//!
//! - `use` declarations, private or `pub`, with grouped trees
//!   (`use crate::{a::X, b::{Y, Z}}`), renames and globs;
//! - paths in code (`crate::x::f()`, `super::super::T`, `self::m::g()`);
//! - paths that start with a child module of the current module (`m::f()`
//!   where the module declares `mod m;`), as Rust 2018 resolves them.
//!
//! Comments, doc comments (intra-doc links) and literals are not read.
//! `mod` declarations are not imports. Re-exports are not imports of their
//! own: a path to a name that a module-level `use` binds (`crate::Error`
//! where `lib.rs` says `pub use error::Error`) is followed to the file that
//! defines it. A file importing from its own descendant modules is no edge
//! either: the descendants (`csv/plan.rs` of `csv.rs`, every module of the
//! crate root) are the parent's parts, the parent their facade, as the
//! crate root is the crate's; so the crate root is in no circle. Imports the
//! other way (`csv/plan.rs` using `super::CsvOptions`, any file using an
//! item defined in `lib.rs`) are edges, and so are imports between
//! siblings.
//!
//! Test code counts like any other code: a `#[cfg(test)] mod tests` that
//! imports its own file's items through `super::` stays inside its file and
//! is no edge, but a test module that imports from a second file which
//! imports back is a circle like any other.
//!
//! A circle is a strongly connected component of two or more files of the
//! file graph; the report names its files and, for each edge inside it, the
//! items imported and the line of the first import.
//!
//! **Long files.** Files of `crates/*/src` over [`MAX_LINES`] lines, except
//! the pure data tables of [`LONG_FILES_ALLOWED`] (none today); tests live in
//! `tests/` and are not checked.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::fmt;
use std::path::{Path, PathBuf};

use crate::error::{Error, Result};

/// The longest a library source file of `crates/*/src` may be, in lines.
pub const MAX_LINES: usize = 1500;

/// Files of `crates/*/src` allowed over [`MAX_LINES`] lines because they
/// are pure data tables (paths relative to the workspace root, `/`
/// separated). None today.
pub const LONG_FILES_ALLOWED: &[&str] = &[];

/// `cargo xtask lint`: checks the workspace that holds this xtask, prints
/// every finding and exits with status 1 when there is one.
pub fn main() -> Result<()> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap_or(Path::new("."));
    let findings = lint_workspace(root)?;
    if findings.is_empty() {
        println!("lint: no circle of files, no source file over {MAX_LINES} lines");
        return Ok(());
    }
    print!("{findings}");
    eprintln!(
        "error: lint: {} circle(s) of files, {} file(s) over {MAX_LINES} lines",
        findings.circles.len(),
        findings.long_files.len()
    );
    std::process::exit(1)
}

/// What the lint found in a workspace.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct Findings {
    /// Circles of files, each inside one crate directory.
    pub circles: Vec<Circle>,
    /// Library source files over [`MAX_LINES`] lines: path relative to the
    /// workspace root and line count.
    pub long_files: Vec<(String, usize)>,
}

impl Findings {
    /// Whether nothing was found.
    pub fn is_empty(&self) -> bool {
        self.circles.is_empty() && self.long_files.is_empty()
    }
}

impl fmt::Display for Findings {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for c in &self.circles {
            write!(f, "{c}")?;
        }
        for (path, lines) in &self.long_files {
            writeln!(
                f,
                "long file: {path} has {lines} lines (at most {MAX_LINES})"
            )?;
        }
        Ok(())
    }
}

/// Files that import from each other, directly or through a chain.
#[derive(Debug, Clone, PartialEq)]
pub struct Circle {
    /// The files, relative to the workspace root, sorted.
    pub files: Vec<String>,
    /// The imports between them.
    pub edges: Vec<Edge>,
}

impl fmt::Display for Circle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "circle of files: {}", self.files.join(", "))?;
        for e in &self.edges {
            writeln!(
                f,
                "  {} (line {}) imports from {}: {}",
                e.from,
                e.line,
                e.to,
                e.items.join(", ")
            )?;
        }
        Ok(())
    }
}

/// One file importing items of another.
#[derive(Debug, Clone, PartialEq)]
pub struct Edge {
    /// The importing file.
    pub from: String,
    /// The file whose items are imported.
    pub to: String,
    /// The items imported (`*` for a glob; a module's name when the module
    /// itself is imported), sorted.
    pub items: Vec<String>,
    /// The line of the first import.
    pub line: usize,
}

/// Lints the workspace at `root`: the circles of every crate directory and
/// the long files of `crates/*/src`.
pub fn lint_workspace(root: &Path) -> Result<Findings> {
    let mut crate_dirs = Vec::new();
    let crates = root.join("crates");
    for entry in read_dir_sorted(&crates)? {
        if entry.join("src").is_dir() {
            crate_dirs.push(entry.join("src"));
        }
    }
    for extra in ["xtask/src", "benches/src", "python/src"] {
        let dir = root.join(extra);
        if dir.is_dir() {
            crate_dirs.push(dir);
        }
    }
    let mut findings = Findings::default();
    for dir in &crate_dirs {
        let files = read_rs_files(dir)?;
        let prefix = relative(root, dir);
        for mut circle in find_circles(&files).map_err(|message| Error::Parse {
            file: prefix.clone(),
            message,
        })? {
            let full = |p: &String| format!("{prefix}/{p}");
            circle.files = circle.files.iter().map(full).collect();
            for e in &mut circle.edges {
                e.from = full(&e.from);
                e.to = full(&e.to);
            }
            findings.circles.push(circle);
        }
    }
    for dir in crate_dirs.iter().filter(|d| d.starts_with(&crates)) {
        let prefix = relative(root, dir);
        for (path, text) in read_rs_files(dir)? {
            let lines = text.lines().count();
            let full = format!("{prefix}/{path}");
            if lines > MAX_LINES && !LONG_FILES_ALLOWED.contains(&full.as_str()) {
                findings.long_files.push((full, lines));
            }
        }
    }
    Ok(findings)
}

fn relative(root: &Path, path: &Path) -> String {
    let rel = path.strip_prefix(root).unwrap_or(path);
    rel.components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect::<Vec<_>>()
        .join("/")
}

fn read_dir_sorted(dir: &Path) -> Result<Vec<PathBuf>> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).map_err(|e| Error::io(dir, e))? {
        out.push(entry.map_err(|e| Error::io(dir, e))?.path());
    }
    out.sort();
    Ok(out)
}

/// Every `.rs` file under `dir`: path relative to `dir` (`/` separated) and
/// text.
fn read_rs_files(dir: &Path) -> Result<BTreeMap<String, String>> {
    let mut out = BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for path in read_dir_sorted(&d)? {
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let text = std::fs::read_to_string(&path).map_err(|e| Error::io(&path, e))?;
                out.insert(relative(dir, &path), text);
            }
        }
    }
    Ok(out)
}

// ---------------------------------------------------------------------------
// Lexing: identifiers, `::` and single punctuation; comments and literals
// are skipped.

#[derive(Debug, Clone, PartialEq)]
enum Tok {
    Ident(String),
    /// `::`.
    Sep,
    Punct(char),
}

#[derive(Debug, Clone)]
struct Token {
    tok: Tok,
    line: usize,
}

fn is_ident_start(c: char) -> bool {
    c.is_alphabetic() || c == '_'
}

fn is_ident_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// The tokens of a Rust source text that matter for paths and modules.
fn lex(src: &str) -> Vec<Token> {
    let s: Vec<char> = src.chars().collect();
    let at = |i: usize| s.get(i).copied().unwrap_or('\0');
    let mut out = Vec::new();
    let mut line = 1;
    let mut i = 0;
    // Skips a quoted literal whose opening quote is at `i`, honouring
    // backslash escapes; returns the index after the closing quote.
    let quoted = |mut i: usize, line: &mut usize| {
        i += 1;
        while i < s.len() && s[i] != '"' {
            if s[i] == '\\' {
                i += 1;
            }
            if at(i) == '\n' {
                *line += 1;
            }
            i += 1;
        }
        i + 1
    };
    // Skips a raw literal `#…#"…"#…#` whose first `#` or quote is at `i`.
    let raw = |mut i: usize, line: &mut usize| {
        let mut hashes = 0;
        while at(i) == '#' {
            hashes += 1;
            i += 1;
        }
        i += 1; // the opening quote
        while i < s.len() {
            if s[i] == '"' && (1..=hashes).all(|k| at(i + k) == '#') {
                return i + 1 + hashes;
            }
            if s[i] == '\n' {
                *line += 1;
            }
            i += 1;
        }
        i
    };
    while i < s.len() {
        let c = s[i];
        if c == '\n' {
            line += 1;
            i += 1;
        } else if c.is_whitespace() {
            i += 1;
        } else if c == '/' && at(i + 1) == '/' {
            while i < s.len() && s[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && at(i + 1) == '*' {
            let mut depth = 0;
            while i < s.len() {
                if s[i] == '/' && at(i + 1) == '*' {
                    depth += 1;
                    i += 2;
                } else if s[i] == '*' && at(i + 1) == '/' {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    if s[i] == '\n' {
                        line += 1;
                    }
                    i += 1;
                }
            }
        } else if c == '"' {
            i = quoted(i, &mut line);
        } else if c == '\'' {
            if at(i + 1) == '\\' {
                // An escaped character literal.
                i += 3;
                while i < s.len() && s[i] != '\'' {
                    i += 1;
                }
                i += 1;
            } else if at(i + 2) == '\'' {
                i += 3;
            } else {
                // A lifetime or a label.
                i += 1;
                while is_ident_char(at(i)) {
                    i += 1;
                }
            }
        } else if is_ident_start(c) {
            let start = i;
            while is_ident_char(at(i)) {
                i += 1;
            }
            let word: String = s[start..i].iter().collect();
            match (word.as_str(), at(i)) {
                ("r" | "br" | "cr", '"') => i = raw(i, &mut line),
                ("r" | "br" | "cr", '#') if at(i + 1) == '"' || at(i + 1) == '#' => {
                    i = raw(i, &mut line);
                }
                ("r", '#') if is_ident_start(at(i + 1)) => {
                    let start = i + 1;
                    i += 1;
                    while is_ident_char(at(i)) {
                        i += 1;
                    }
                    out.push(Token {
                        tok: Tok::Ident(s[start..i].iter().collect()),
                        line,
                    });
                }
                ("b" | "c", '"') => i = quoted(i, &mut line),
                ("b", '\'') => {
                    i += 1;
                    if at(i) == '\\' {
                        i += 1;
                    }
                    i += 1;
                    while i < s.len() && s[i] != '\'' {
                        i += 1;
                    }
                    i += 1;
                }
                _ => out.push(Token {
                    tok: Tok::Ident(word),
                    line,
                }),
            }
        } else if c.is_ascii_digit() {
            while is_ident_char(at(i)) || (at(i) == '.' && at(i + 1).is_ascii_digit()) {
                i += 1;
            }
        } else if c == ':' && at(i + 1) == ':' {
            out.push(Token {
                tok: Tok::Sep,
                line,
            });
            i += 2;
        } else {
            out.push(Token {
                tok: Tok::Punct(c),
                line,
            });
            i += 1;
        }
    }
    out
}

// ---------------------------------------------------------------------------
// Parsing one file: its module declarations, `use` declarations and paths.

/// A `mod name;` declaration.
#[derive(Debug, Clone, PartialEq)]
struct ModDecl {
    /// The inline modules of the file around the declaration.
    scope: Vec<String>,
    name: String,
}

/// One path of a file.
#[derive(Debug, Clone, PartialEq)]
struct PathRef {
    /// The inline modules of the file around the path.
    scope: Vec<String>,
    segments: Vec<String>,
    /// The name a `use` binds (its last segment or its rename); `None` for
    /// globs and paths in code.
    binds: Option<String>,
    /// Whether the path is a `use` at module level (not in a function), so
    /// that the name it binds is an item of the module.
    module_level: bool,
    line: usize,
}

/// What a file declares and refers to.
#[derive(Debug, Default, Clone, PartialEq)]
struct Parsed {
    mods: Vec<ModDecl>,
    inline_mods: Vec<Vec<String>>,
    paths: Vec<PathRef>,
}

fn ident(t: Option<&Token>) -> Option<&str> {
    match t {
        Some(Token {
            tok: Tok::Ident(s), ..
        }) => Some(s),
        _ => None,
    }
}

fn is(t: Option<&Token>, want: &Tok) -> bool {
    t.is_some_and(|t| &t.tok == want)
}

/// Parses a `use` tree starting at `toks[*i]`, pushing each leaf path (with
/// the name it binds) onto `out`.
fn use_tree(
    toks: &[Token],
    i: &mut usize,
    prefix: Vec<String>,
    out: &mut Vec<(Vec<String>, Option<String>, usize)>,
) {
    let mut segs = prefix;
    while let Some(t) = toks.get(*i) {
        match &t.tok {
            Tok::Sep => *i += 1,
            Tok::Ident(s) => {
                segs.push(s.clone());
                *i += 1;
                if is(toks.get(*i), &Tok::Sep) {
                    *i += 1;
                    continue;
                }
                let mut binds = segs.last().cloned();
                if segs.last().is_some_and(|s| s == "self") {
                    segs.pop();
                    binds = segs.last().cloned();
                }
                if ident(toks.get(*i)) == Some("as") {
                    binds = ident(toks.get(*i + 1)).map(str::to_string);
                    *i += 2;
                }
                out.push((segs, binds, t.line));
                return;
            }
            Tok::Punct('*') => {
                *i += 1;
                segs.push("*".into());
                out.push((segs, None, t.line));
                return;
            }
            Tok::Punct('{') => {
                *i += 1;
                loop {
                    match toks.get(*i).map(|t| &t.tok) {
                        None => return,
                        Some(Tok::Punct('}')) => {
                            *i += 1;
                            return;
                        }
                        Some(Tok::Punct(',')) => *i += 1,
                        Some(_) => {
                            let before = *i;
                            use_tree(toks, i, segs.clone(), out);
                            if *i == before {
                                *i += 1;
                            }
                        }
                    }
                }
            }
            _ => return,
        }
    }
}

/// Parses one file.
fn parse(src: &str) -> Parsed {
    let toks = lex(src);
    let mut parsed = Parsed::default();
    let mut depth = 0usize;
    // Inline modules open around the current token: name and the brace depth
    // inside them.
    let mut scope: Vec<(String, usize)> = Vec::new();
    let names = |scope: &[(String, usize)]| scope.iter().map(|(n, _)| n.clone()).collect();
    let mut i = 0;
    while i < toks.len() {
        let t = &toks[i];
        match &t.tok {
            Tok::Punct('{') => depth += 1,
            Tok::Punct('}') => {
                depth = depth.saturating_sub(1);
                while scope.last().is_some_and(|(_, d)| *d > depth) {
                    scope.pop();
                }
            }
            Tok::Punct('#') => {
                // Attributes: skipped whole (a `#[path]` is not supported:
                // none is used).
                let mut j = i + 1;
                if is(toks.get(j), &Tok::Punct('!')) {
                    j += 1;
                }
                if is(toks.get(j), &Tok::Punct('[')) {
                    let mut level = 0;
                    while j < toks.len() {
                        match toks[j].tok {
                            Tok::Punct('[') => level += 1,
                            Tok::Punct(']') => {
                                level -= 1;
                                if level == 0 {
                                    break;
                                }
                            }
                            _ => {}
                        }
                        j += 1;
                    }
                    i = j + 1;
                    continue;
                }
            }
            Tok::Ident(w) if w == "mod" => {
                if let Some(name) = ident(toks.get(i + 1)) {
                    if is(toks.get(i + 2), &Tok::Punct(';')) {
                        parsed.mods.push(ModDecl {
                            scope: names(&scope),
                            name: name.to_string(),
                        });
                        i += 3;
                        continue;
                    }
                    if is(toks.get(i + 2), &Tok::Punct('{')) {
                        depth += 1;
                        scope.push((name.to_string(), depth));
                        parsed.inline_mods.push(names(&scope));
                        i += 3;
                        continue;
                    }
                }
            }
            Tok::Ident(w) if w == "use" => {
                let module_level = depth == scope.last().map_or(0, |(_, d)| *d);
                let mut j = i + 1;
                let mut leaves = Vec::new();
                use_tree(&toks, &mut j, Vec::new(), &mut leaves);
                for (segments, binds, line) in leaves {
                    parsed.paths.push(PathRef {
                        scope: names(&scope),
                        segments,
                        binds,
                        module_level,
                        line,
                    });
                }
                i = j;
                continue;
            }
            Tok::Ident(first) => {
                let starts_path = is(toks.get(i + 1), &Tok::Sep)
                    && !(i > 0 && is(toks.get(i - 1), &Tok::Sep))
                    && !(i > 0 && ident(toks.get(i - 1)) == Some("in"));
                if starts_path {
                    let mut segments = vec![first.clone()];
                    let mut j = i + 2;
                    while let Some(s) = ident(toks.get(j)) {
                        segments.push(s.to_string());
                        if is(toks.get(j + 1), &Tok::Sep) {
                            j += 2;
                        } else {
                            j += 1;
                            break;
                        }
                    }
                    parsed.paths.push(PathRef {
                        scope: names(&scope),
                        segments,
                        binds: None,
                        module_level: false,
                        line: t.line,
                    });
                    i = j;
                    continue;
                }
            }
            _ => {}
        }
        i += 1;
    }
    parsed
}

// ---------------------------------------------------------------------------
// The module tree of a crate directory and the file graph.

/// A module: the file that holds it, and the length of that file's module
/// path (the rest of the module's path names inline modules of the file).
#[derive(Debug, Clone)]
struct Module {
    file: usize,
    file_depth: usize,
}

/// The modules of one crate (one root), keyed by their path.
type Modules = HashMap<Vec<String>, Module>;

/// The crate roots of a crate directory's files.
fn crate_roots(files: &BTreeMap<String, String>) -> Vec<String> {
    files
        .keys()
        .filter(|p| {
            let parts: Vec<&str> = p.split('/').collect();
            matches!(parts.as_slice(), ["lib.rs"] | ["main.rs"] | ["bin", _])
                || matches!(parts.as_slice(), ["bin", _, "main.rs"])
        })
        .cloned()
        .collect()
}

/// Where the child modules of the module defined by `path` live: the
/// file's directory for `mod.rs` and crate roots, else the directory named
/// after the file.
fn child_dir(path: &str, is_root: bool) -> String {
    let (dir, name) = path.rsplit_once('/').unwrap_or(("", path));
    if is_root || name == "mod.rs" {
        dir.to_string()
    } else {
        join(dir, name.trim_end_matches(".rs"))
    }
}

/// `a/b`, or either one when the other is empty.
fn join(a: &str, b: &str) -> String {
    match (a.is_empty(), b.is_empty()) {
        (true, _) => b.to_string(),
        (_, true) => a.to_string(),
        _ => format!("{a}/{b}"),
    }
}

/// The modules of the crate whose root file is `root`, and the module path
/// of each file it reaches. Errors name a `mod` declaration whose file is
/// missing.
fn module_tree(
    names: &[&String],
    index: &HashMap<&str, usize>,
    parsed: &[Parsed],
    root: usize,
) -> std::result::Result<(Modules, HashMap<usize, Vec<String>>), String> {
    let mut modules: Modules = HashMap::new();
    let mut file_module: HashMap<usize, Vec<String>> = HashMap::new();
    let mut todo = vec![(root, Vec::<String>::new())];
    while let Some((file, path)) = todo.pop() {
        let module = Module {
            file,
            file_depth: path.len(),
        };
        modules.insert(path.clone(), module.clone());
        for inline in &parsed[file].inline_mods {
            let mut p = path.clone();
            p.extend(inline.iter().cloned());
            modules.insert(p, module.clone());
        }
        for m in &parsed[file].mods {
            let dir = m
                .scope
                .iter()
                .fold(child_dir(names[file], file == root), |d, s| join(&d, s));
            let base = join(&dir, &m.name);
            let child = [format!("{base}.rs"), format!("{base}/mod.rs")]
                .into_iter()
                .find_map(|c| index.get(c.as_str()).copied())
                .ok_or_else(|| format!("{}: no file for `mod {};`", names[file], m.name))?;
            let mut p = path.clone();
            p.extend(m.scope.iter().cloned());
            p.push(m.name.clone());
            todo.push((child, p));
        }
        file_module.insert(file, path);
    }
    Ok((modules, file_module))
}

/// Finds the circles of files of one crate directory (`files`: path relative
/// to the directory and text). Errors name a `mod` declaration whose file is
/// missing.
///
/// An import of a file from one of its own descendant modules (`csv.rs`
/// using `csv/plan.rs`, `lib.rs` using any module) is no edge: the
/// descendants are the parent's parts, and the parent their facade. Imports
/// the other way (`csv/plan.rs` using `super::Options`) are edges.
fn find_circles(files: &BTreeMap<String, String>) -> std::result::Result<Vec<Circle>, String> {
    let names: Vec<&String> = files.keys().collect();
    let index: HashMap<&str, usize> = names
        .iter()
        .enumerate()
        .map(|(k, p)| (p.as_str(), k))
        .collect();
    let parsed: Vec<Parsed> = files.values().map(|t| parse(t)).collect();
    // (from, to) -> items and first line.
    let mut edges: BTreeMap<(usize, usize), (BTreeSet<String>, usize)> = BTreeMap::new();
    for root in crate_roots(files) {
        let (modules, file_module) = module_tree(&names, &index, &parsed, index[root.as_str()])?;
        for (&file, module) in &file_module {
            for r in &parsed[file].paths {
                let mut scope = module.clone();
                scope.extend(r.scope.iter().cloned());
                let Some((to, item)) = resolve(&modules, &parsed, &scope, &r.segments, 0) else {
                    continue;
                };
                if file_module[&to].starts_with(module) {
                    continue; // the file itself or a descendant
                }
                let e = edges
                    .entry((file, to))
                    .or_insert_with(|| (BTreeSet::new(), r.line));
                e.0.insert(item);
                e.1 = e.1.min(r.line);
            }
        }
    }
    let mut adj = vec![Vec::new(); names.len()];
    for &(a, b) in edges.keys() {
        adj[a].push(b);
    }
    let mut circles = Vec::new();
    for comp in strongly_connected(&adj) {
        if comp.len() < 2 {
            continue;
        }
        let set: BTreeSet<usize> = comp.iter().copied().collect();
        let mut files: Vec<String> = comp.iter().map(|&k| names[k].clone()).collect();
        files.sort();
        let edges = edges
            .iter()
            .filter(|((a, b), _)| set.contains(a) && set.contains(b))
            .map(|(&(a, b), (items, line))| Edge {
                from: names[a].clone(),
                to: names[b].clone(),
                items: items.iter().cloned().collect(),
                line: *line,
            })
            .collect();
        circles.push(Circle { files, edges });
    }
    circles.sort_by(|a, b| a.files.cmp(&b.files));
    Ok(circles)
}

/// The file that defines the item a path of module `scope` names, and the
/// item, if the path names an item of this crate (`None` for paths into
/// other crates and to local names). A name that a module-level `use` of
/// the module binds (a re-export) is followed to the file that defines it,
/// so re-exports are no imports of their own.
fn resolve(
    modules: &Modules,
    parsed: &[Parsed],
    scope: &[String],
    segments: &[String],
    hops: usize,
) -> Option<(usize, String)> {
    let (first, rest) = segments.split_first()?;
    let (mut cur, mut rest): (Vec<String>, &[String]) = match first.as_str() {
        "crate" => (Vec::new(), rest),
        "self" => (scope.to_vec(), rest),
        "super" => (scope[..scope.len().checked_sub(1)?].to_vec(), rest),
        name => {
            // A child module of the current module, Rust 2018 style.
            let mut child = scope.to_vec();
            child.push(name.to_string());
            if !modules.contains_key(&child) {
                return None;
            }
            (scope.to_vec(), segments)
        }
    };
    while rest.first().is_some_and(|s| s == "super") {
        cur.pop()?;
        rest = &rest[1..];
    }
    let mut item = cur.last().cloned().unwrap_or_else(|| "crate".into());
    for (k, seg) in rest.iter().enumerate() {
        let mut next = cur.clone();
        next.push(seg.clone());
        if modules.contains_key(&next) {
            cur = next;
            item = seg.clone();
            continue;
        }
        let module = modules.get(&cur)?;
        if hops < 8 {
            let inline = &cur[module.file_depth..];
            let binding = parsed[module.file]
                .paths
                .iter()
                .find(|r| r.module_level && r.scope == inline && r.binds.as_deref() == Some(seg));
            if let Some(r) = binding {
                let mut target = r.segments.clone();
                target.extend(rest[k + 1..].iter().cloned());
                if let Some(found) = resolve(modules, parsed, &cur, &target, hops + 1) {
                    return Some(found);
                }
            }
        }
        return Some((module.file, seg.clone()));
    }
    Some((modules.get(&cur)?.file, item))
}

/// The strongly connected components of a directed graph (Tarjan's
/// algorithm, iterative).
fn strongly_connected(adj: &[Vec<usize>]) -> Vec<Vec<usize>> {
    let n = adj.len();
    let mut index = vec![usize::MAX; n];
    let mut low = vec![0; n];
    let mut on_stack = vec![false; n];
    let mut stack = Vec::new();
    let mut comps = Vec::new();
    let mut next = 0;
    for start in 0..n {
        if index[start] != usize::MAX {
            continue;
        }
        // (node, next edge to look at)
        let mut work = vec![(start, 0)];
        index[start] = next;
        low[start] = next;
        next += 1;
        stack.push(start);
        on_stack[start] = true;
        while let Some(&(v, k)) = work.last() {
            if k < adj[v].len() {
                let w = adj[v][k];
                let top = work.len() - 1;
                work[top].1 += 1;
                if index[w] == usize::MAX {
                    index[w] = next;
                    low[w] = next;
                    next += 1;
                    stack.push(w);
                    on_stack[w] = true;
                    work.push((w, 0));
                } else if on_stack[w] {
                    low[v] = low[v].min(index[w]);
                }
            } else {
                work.pop();
                if let Some(&(u, _)) = work.last() {
                    low[u] = low[u].min(low[v]);
                }
                if low[v] == index[v] {
                    let mut comp = Vec::new();
                    while let Some(w) = stack.pop() {
                        on_stack[w] = false;
                        comp.push(w);
                        if w == v {
                            break;
                        }
                    }
                    comps.push(comp);
                }
            }
        }
    }
    comps
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A crate directory from (path, text) pairs.
    fn files(list: &[(&str, &str)]) -> BTreeMap<String, String> {
        list.iter()
            .map(|(p, t)| (p.to_string(), t.to_string()))
            .collect()
    }

    /// The circles of a crate directory, as sorted file lists.
    fn circles(list: &[(&str, &str)]) -> Vec<Vec<String>> {
        find_circles(&files(list))
            .unwrap()
            .into_iter()
            .map(|c| c.files)
            .collect()
    }

    fn uses(src: &str) -> Vec<String> {
        parse(src)
            .paths
            .iter()
            .map(|p| p.segments.join("::"))
            .collect()
    }

    #[test]
    fn comments_and_literals_are_not_read() {
        let src = r###"
            // use crate::a::X;
            /* crate::b::Y /* nested crate::c */ */
            /// [`crate::d::Z`]
            fn f() -> char {
                let _ = "crate::e::W \" crate::f";
                let _ = r#"crate::g " crate::h"#;
                let _ = b"crate::i";
                let _: &'static str = "x";
                let _ = '\'';
                let _ = b'"';
                '"'
            }
            fn g<'a>(x: &'a u8) -> &'a u8 { crate::real::path(x) }
        "###;
        assert_eq!(uses(src), vec!["crate::real::path"]);
    }

    #[test]
    fn use_trees_are_flattened() {
        let src = "pub use crate::{a::X, b::{Y, Z as W}, c::*};\n\
                   use super::super::d::{self, V};\n\
                   pub(crate) use self::e::U;\n\
                   fn f() { let _ = crate::g::h::<u8>(); super::i::J::new(); }";
        assert_eq!(
            uses(src),
            vec![
                "crate::a::X",
                "crate::b::Y",
                "crate::b::Z",
                "crate::c::*",
                "super::super::d",
                "super::super::d::V",
                "self::e::U",
                "crate::g::h",
                "super::i::J::new",
            ]
        );
        let parsed = parse(src);
        let binds: Vec<Option<&str>> = parsed.paths.iter().map(|p| p.binds.as_deref()).collect();
        assert_eq!(
            binds,
            vec![
                Some("X"),
                Some("Y"),
                Some("W"),
                None,
                Some("d"),
                Some("V"),
                Some("U"),
                None,
                None
            ]
        );
        let level: Vec<bool> = parsed.paths.iter().map(|p| p.module_level).collect();
        assert_eq!(
            level,
            [true, true, true, true, true, true, true, false, false]
        );
    }

    #[test]
    fn inline_modules_and_declarations() {
        let parsed = parse(
            "mod a; pub(crate) mod b;\n\
             #[cfg(test)] mod tests { use super::X; mod deep { fn f() { crate::z::g() } } }\n\
             fn after() { crate::y::h() }",
        );
        let mods: Vec<&str> = parsed.mods.iter().map(|m| m.name.as_str()).collect();
        assert_eq!(mods, ["a", "b"]);
        assert_eq!(
            parsed.inline_mods,
            vec![
                vec!["tests".to_string()],
                vec!["tests".into(), "deep".into()]
            ]
        );
        let scopes: Vec<usize> = parsed.paths.iter().map(|p| p.scope.len()).collect();
        assert_eq!(scopes, [1, 2, 0]);
    }

    #[test]
    fn two_files_importing_each_other_are_a_circle() {
        let found = find_circles(&files(&[
            ("lib.rs", "mod a;\nmod b;\n"),
            ("a.rs", "use crate::b::X;\npub struct Y;\n"),
            (
                "b.rs",
                "pub struct X;\n\nfn f() -> super::a::Y { todo!() }\n",
            ),
        ]))
        .unwrap();
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].files, ["a.rs", "b.rs"]);
        assert_eq!(
            found[0].edges,
            vec![
                Edge {
                    from: "a.rs".into(),
                    to: "b.rs".into(),
                    items: vec!["X".into()],
                    line: 1
                },
                Edge {
                    from: "b.rs".into(),
                    to: "a.rs".into(),
                    items: vec!["Y".into()],
                    line: 3
                },
            ]
        );
    }

    #[test]
    fn chains_and_nested_directories() {
        // a -> b -> c -> a, and m/inner.rs <-> top.rs through super::super.
        assert_eq!(
            circles(&[
                ("lib.rs", "mod a; mod b; mod c; mod m; mod top;"),
                ("a.rs", "use crate::b::B;"),
                ("b.rs", "use crate::c::C;"),
                ("c.rs", "use crate::a::A;"),
                ("m/mod.rs", "pub mod inner;"),
                ("m/inner.rs", "use super::super::top::T;"),
                ("top.rs", "fn f() { crate::m::inner::g() }"),
            ]),
            vec![vec!["a.rs", "b.rs", "c.rs"], vec!["m/inner.rs", "top.rs"]]
        );
    }

    #[test]
    fn a_parent_may_use_its_children() {
        // csv.rs declares csv/plan.rs and csv/read.rs, which import its items;
        // the parent calls `plan::make()` without `self::` and is no part of
        // a circle. Its children still are, among themselves.
        let found = find_circles(&files(&[
            (
                "lib.rs",
                "pub mod csv;
pub use csv::Options;",
            ),
            (
                "csv.rs",
                "mod plan;
mod read;
pub struct Options;
fn f() { plan::make(); read::go() }",
            ),
            (
                "csv/plan.rs",
                "use super::Options;
pub fn make() { super::read::go() }",
            ),
            ("csv/read.rs", "pub fn go() { crate::csv::plan::make() }"),
        ]))
        .unwrap();
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].files, ["csv/plan.rs", "csv/read.rs"]);
        // The crate root is everybody's parent: it is in no circle, even with
        // items of its own that its modules use.
        assert!(circles(&[
            (
                "main.rs",
                "mod a;
fn helper() {}
fn main() { a::run() }"
            ),
            ("a.rs", "pub fn run() { crate::helper() }"),
        ])
        .is_empty());
    }

    #[test]
    fn each_binary_is_a_crate_of_its_own() {
        // `crate` of bin/tool.rs is bin/tool.rs, whose modules live in bin/.
        assert_eq!(
            circles(&[
                (
                    "lib.rs",
                    "mod b;
pub fn h() {}"
                ),
                ("b.rs", "fn f() { crate::h() }"),
                (
                    "bin/tool.rs",
                    "mod b;
mod c;
pub fn h() {}"
                ),
                ("bin/b.rs", "pub fn f() { crate::c::g() }"),
                ("bin/c.rs", "pub fn g() { crate::b::f() }"),
            ]),
            vec![vec!["bin/b.rs", "bin/c.rs"]]
        );
    }

    #[test]
    fn what_is_no_circle() {
        assert!(circles(&[
            // `mod` declarations and the root's re-exports are no imports.
            (
                "lib.rs",
                "pub mod a;\npub mod b;\npub use a::A;\npub use b::B;\n\
                 pub mod prelude { pub use crate::{a::A, b::B}; }",
            ),
            // A test module importing its own file through `super::`.
            (
                "a.rs",
                "use crate::b::B;\npub struct A;\n\
                 #[cfg(test)]\nmod tests {\n    use super::*;\n    use super::A;\n}",
            ),
            // Other crates, local names, `Self`, `pub(in …)`, a function's
            // own `use` of a name.
            (
                "b.rs",
                "use std::fmt;\nuse rulecover_core::a::A;\npub struct B;\n\
                 pub(in crate::b) fn f() { use crate::B as A; Self::g(); Vec::<u8>::new(); }",
            ),
        ])
        .is_empty());
    }

    #[test]
    fn re_exports_are_followed_to_the_defining_file() {
        // `crate::X` is b.rs's; `crate::prelude::Y` is a.rs's; m/mod.rs
        // re-exports its child's `Z`, used by a.rs.
        let found = find_circles(&files(&[
            (
                "lib.rs",
                "mod a;\nmod b;\nmod m;\npub use b::X;\npub mod prelude { pub use crate::a::Y; }",
            ),
            ("a.rs", "use crate::X;\nuse crate::m::Z;\npub struct Y;"),
            ("b.rs", "use crate::prelude::Y;\npub struct X;"),
            ("m/mod.rs", "mod inner;\npub use inner::Z;"),
            ("m/inner.rs", "pub struct Z;\nfn f() { crate::a::Y; }"),
        ]))
        .unwrap();
        let files: Vec<&Vec<String>> = found.iter().map(|c| &c.files).collect();
        assert_eq!(files, [&vec!["a.rs", "b.rs", "m/inner.rs"]]);
        assert!(found[0].edges.contains(&Edge {
            from: "a.rs".into(),
            to: "m/inner.rs".into(),
            items: vec!["Z".into()],
            line: 2
        }));
    }

    #[test]
    fn a_missing_module_file_is_an_error() {
        let err = find_circles(&files(&[("lib.rs", "mod gone;")])).unwrap_err();
        assert!(err.contains("mod gone;"), "{err}");
    }

    #[test]
    fn strongly_connected_components() {
        // 0 <-> 1, 2 -> 3 -> 4 -> 2, 5 alone with a self loop.
        let adj = vec![vec![1], vec![0, 2], vec![3], vec![4], vec![2], vec![5]];
        let mut comps: Vec<Vec<usize>> = strongly_connected(&adj)
            .into_iter()
            .map(|mut c| {
                c.sort_unstable();
                c
            })
            .collect();
        comps.sort();
        assert_eq!(comps, vec![vec![0, 1], vec![2, 3, 4], vec![5]]);
    }

    /// The lint over this workspace: no circle of files and no long file
    /// (what `cargo xtask lint` checks, so `cargo test` fails on one too).
    #[test]
    fn the_workspace_has_no_circle_and_no_long_file() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
        let findings = lint_workspace(root).unwrap();
        assert!(findings.is_empty(), "cargo xtask lint finds:\n{findings}");
    }
}
