//! Parser of the BoostSRL text format, as the shared files really are.
//!
//! A file is a sequence of statements, each ended by a `.` that is
//! followed by white space, a comment or the end of the file (so `0.5` and
//! `"a.b"` do not end a statement). Recognised statements:
//!
//! - ground atoms `p(a, "Quoted constant", 3).` — facts and examples;
//! - mode declarations, with or without the `mode:` prefix:
//!   `mode: ta(+course, -person, #quarter).` — argument markers are `+`
//!   (input: an existing variable), `-` (output: a new or existing
//!   variable), `#` (a constant), `` ` `` (BoostSRL's backtick mode, read
//!   as an input) and `&` (WILL's "output, any", read as an output);
//! - settings `setParam: maxTreeDepth=3.` (several `key=value.` on one
//!   line continue the `setParam:`), `usePrologVariables: true.`,
//!   `okIfUnknown: p/2.`, `bridger: …`, `range: …` and any other
//!   `word: value.` line;
//! - `import: "file".` — resolved relative to the importing file by the
//!   loader;
//! - rules `head :- body.` and `precompute:` rules, kept as text (the
//!   learners do not use them).
//!
//! Comments run from `//` or `%` to the end of the line, or between `/*`
//! and `*/`. Line ends may be LF or CRLF. Every error names the file and
//! the line where the statement starts.

use crate::error::{Error, Result};

/// How a mode declaration uses an argument.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum ArgMode {
    /// `+type`: an existing variable of the type.
    Input,
    /// `-type`: a new variable of the type, or an existing one.
    Output,
    /// `#type`: a constant of the type, taken from the data.
    Constant,
    /// `` `type ``: BoostSRL's backtick mode, treated as an input.
    Backtick,
    /// `&type`: WILL's "any" output, treated as an output.
    Any,
}

impl ArgMode {
    fn from_marker(c: char) -> Option<ArgMode> {
        Some(match c {
            '+' => ArgMode::Input,
            '-' => ArgMode::Output,
            '#' => ArgMode::Constant,
            '`' => ArgMode::Backtick,
            '&' => ArgMode::Any,
            _ => return None,
        })
    }

    /// The marker character.
    pub fn marker(self) -> char {
        match self {
            ArgMode::Input => '+',
            ArgMode::Output => '-',
            ArgMode::Constant => '#',
            ArgMode::Backtick => '`',
            ArgMode::Any => '&',
        }
    }

    /// True for modes whose argument must already be bound.
    pub fn is_input(self) -> bool {
        matches!(self, ArgMode::Input | ArgMode::Backtick)
    }
}

/// One argument as written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ParsedArg {
    /// A constant (quotes removed, escapes resolved).
    Constant {
        /// Its text.
        text: String,
        /// Whether it was quoted.
        quoted: bool,
    },
    /// A mode argument `+type` etc.
    Mode {
        /// The marker.
        mode: ArgMode,
        /// The type name.
        ty: String,
    },
}

/// An atom as written: name and arguments.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParsedAtom {
    /// Predicate name.
    pub name: String,
    /// Arguments.
    pub args: Vec<ParsedArg>,
}

/// A mode declaration as written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParsedMode {
    /// Predicate name.
    pub name: String,
    /// Argument modes and type names.
    pub args: Vec<(ArgMode, String)>,
}

/// One statement of a BoostSRL file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Statement {
    /// A ground atom: a fact or an example.
    Atom {
        /// Predicate name.
        name: String,
        /// Constant arguments.
        args: Vec<String>,
    },
    /// A mode declaration.
    Mode(ParsedMode),
    /// A `key: value` or `setParam: key=value` setting.
    Setting {
        /// `setParam` keys are the parameter name (`maxTreeDepth`);
        /// other lines use the prefix (`usePrologVariables`).
        key: String,
        /// The value text.
        value: String,
    },
    /// `import: "file".`
    Import(String),
    /// A rule or `precompute:` rule, as text.
    Rule(String),
}

/// A statement with the line it starts on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Located {
    /// 1-based line.
    pub line: usize,
    /// The statement.
    pub stmt: Statement,
}

/// Raw statement text with its start line.
struct RawStatement {
    line: usize,
    text: String,
    /// Whether another statement ended earlier on the same line.
    same_line_as_previous: bool,
}

/// Splits text into raw statements, dropping comments, one statement at
/// a time (so a file of a million facts is never held twice: only its
/// text and the statement being read).
struct Splitter<'a> {
    text: &'a str,
    file: &'a str,
    /// Byte offset of the next character.
    i: usize,
    line: usize,
    cur: String,
    cur_line: usize,
    depth: i32,
    last_end_line: usize,
    /// Set after the end or an error: nothing more is returned.
    done: bool,
}

impl<'a> Splitter<'a> {
    fn new(text: &'a str, file: &'a str) -> Self {
        Splitter {
            text: text.trim_start_matches('\u{feff}'),
            file,
            i: 0,
            line: 1,
            cur: String::new(),
            cur_line: 0,
            depth: 0,
            last_end_line: 0,
            done: false,
        }
    }

    /// The character at byte offset `i` (a character boundary).
    fn at(&self, i: usize) -> Option<char> {
        self.text.get(i..).and_then(|s| s.chars().next())
    }

    /// The next raw statement, or the error that ends the file.
    fn next_raw(&mut self) -> Result<Option<RawStatement>> {
        let bytes = self.text.as_bytes();
        let n = bytes.len();
        let file = self.file;
        while self.i < n {
            let i = self.i;
            let Some(c) = self.at(i) else { break };
            // Comments (outside quotes, handled below because quotes
            // consume their content in one go).
            if c == '%' || (c == '/' && bytes.get(i + 1) == Some(&b'/')) {
                let mut j = i;
                while j < n && bytes[j] != b'\n' {
                    j += 1;
                }
                self.i = j;
                continue;
            }
            if c == '/' && bytes.get(i + 1) == Some(&b'*') {
                let start = self.line;
                let mut j = i + 2;
                loop {
                    if j + 1 >= n {
                        return Err(Error::syntax(
                            file,
                            start,
                            "comment '/*' is never closed by '*/'",
                        ));
                    }
                    if bytes[j] == b'*' && bytes[j + 1] == b'/' {
                        j += 2;
                        break;
                    }
                    if bytes[j] == b'\n' {
                        self.line += 1;
                    }
                    j += 1;
                }
                self.i = j;
                continue;
            }
            if c == '\n' {
                self.line += 1;
                if !self.cur.is_empty() {
                    self.cur.push(' ');
                }
                self.i += 1;
                continue;
            }
            if c.is_whitespace() {
                if !self.cur.is_empty() {
                    self.cur.push(' ');
                }
                self.i += c.len_utf8();
                continue;
            }
            if self.cur.trim().is_empty() {
                self.cur.clear();
                self.cur_line = self.line;
            }
            if c == '"' || c == '\'' {
                let start = self.line;
                self.cur.push(c);
                let mut j = i + 1;
                loop {
                    let Some(d) = self.at(j).filter(|&d| d != '\n') else {
                        return Err(Error::syntax(
                            file,
                            start,
                            format!("quoted constant starting with {c} is not closed on its line"),
                        ));
                    };
                    self.cur.push(d);
                    j += d.len_utf8();
                    if d == '\\' {
                        if let Some(e) = self.at(j) {
                            self.cur.push(e);
                            j += e.len_utf8();
                            continue;
                        }
                    }
                    if d == c {
                        break;
                    }
                }
                self.i = j;
                continue;
            }
            match c {
                '(' | '[' | '{' => self.depth += 1,
                ')' | ']' | '}' => self.depth -= 1,
                _ => {}
            }
            if c == '.' && self.depth <= 0 {
                let ends = match self.at(i + 1) {
                    None => true,
                    Some(nc) => nc.is_whitespace() || nc == '%' || nc == '/',
                };
                if ends {
                    let t = self.cur.trim().to_string();
                    if t.is_empty() {
                        return Err(Error::syntax(
                            file,
                            self.line,
                            "a '.' without a statement before it",
                        ));
                    }
                    if self.depth < 0 {
                        return Err(Error::syntax(
                            file,
                            self.cur_line,
                            format!("unbalanced ')' in '{t}'"),
                        ));
                    }
                    let raw = RawStatement {
                        line: self.cur_line,
                        text: t,
                        same_line_as_previous: self.last_end_line == self.cur_line,
                    };
                    self.last_end_line = self.line;
                    self.cur.clear();
                    self.depth = 0;
                    self.i += 1;
                    return Ok(Some(raw));
                }
            }
            self.cur.push(c);
            self.i += c.len_utf8();
        }
        let rest = self.cur.trim();
        if !rest.is_empty() {
            return Err(Error::syntax(
                file,
                self.cur_line,
                format!("statement '{}' is not ended by '.'", shorten(rest)),
            ));
        }
        Ok(None)
    }
}

fn shorten(s: &str) -> String {
    if s.chars().count() > 60 {
        format!("{}…", s.chars().take(60).collect::<String>())
    } else {
        s.to_string()
    }
}

/// Splits the text inside parentheses at top-level commas.
fn split_args(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut depth = 0;
    let mut quote: Option<char> = None;
    let mut escaped = false;
    for c in s.chars() {
        if let Some(q) = quote {
            cur.push(c);
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == q {
                quote = None;
            }
            continue;
        }
        match c {
            '"' | '\'' => {
                quote = Some(c);
                cur.push(c);
            }
            '(' | '[' | '{' => {
                depth += 1;
                cur.push(c);
            }
            ')' | ']' | '}' => {
                depth -= 1;
                cur.push(c);
            }
            ',' if depth == 0 => out.push(std::mem::take(&mut cur)),
            _ => cur.push(c),
        }
    }
    out.push(cur);
    out
}

fn is_name_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

fn unquote(s: &str, file: &str, line: usize) -> Result<String> {
    let q = s.chars().next().unwrap_or('"');
    let inner = &s[1..s.len() - 1];
    let mut out = String::new();
    let mut esc = false;
    for c in inner.chars() {
        if esc {
            out.push(c);
            esc = false;
        } else if c == '\\' {
            esc = true;
        } else if c == q {
            return Err(Error::syntax(file, line, format!("stray quote inside {s}")));
        } else {
            out.push(c);
        }
    }
    Ok(out)
}

/// Parses one argument.
fn parse_arg(raw: &str, file: &str, line: usize, atom: &str) -> Result<ParsedArg> {
    let a = raw.trim();
    if a.is_empty() {
        return Err(Error::syntax(
            file,
            line,
            format!("empty argument in '{atom}'"),
        ));
    }
    let first = a.chars().next().unwrap_or(' ');
    if first == '"' || first == '\'' {
        if a.len() < 2 || !a.ends_with(first) {
            return Err(Error::syntax(
                file,
                line,
                format!("malformed quoted constant {a} in '{atom}'"),
            ));
        }
        return Ok(ParsedArg::Constant {
            text: unquote(a, file, line)?,
            quoted: true,
        });
    }
    if let Some(mode) = ArgMode::from_marker(first) {
        let rest = a[first.len_utf8()..].trim();
        let starts_name = rest
            .chars()
            .next()
            .is_some_and(|c| c.is_alphabetic() || c == '_');
        if starts_name {
            if !rest.chars().all(is_name_char) {
                return Err(Error::syntax(
                    file,
                    line,
                    format!("type name '{rest}' in '{atom}' may only hold letters, digits and '_'"),
                ));
            }
            return Ok(ParsedArg::Mode {
                mode,
                ty: rest.to_string(),
            });
        }
    }
    if a.contains(['(', ')', '[', ']', '{', '}']) {
        return Err(Error::syntax(
            file,
            line,
            format!("argument '{a}' of '{atom}' is a compound term; only constants (and mode arguments) are supported"),
        ));
    }
    if let Some(bad) = a
        .chars()
        .find(|&c| !(is_name_char(c) || matches!(c, '.' | '-' | '+' | '$' | '@' | '!' | '?' | '/')))
    {
        return Err(Error::syntax(
            file,
            line,
            format!("unexpected character '{bad}' in argument '{a}' of '{atom}' (quote the constant if it is meant literally)"),
        ));
    }
    Ok(ParsedArg::Constant {
        text: a.to_string(),
        quoted: false,
    })
}

/// Byte position of the `)` closing the `(` at `open`, skipping quotes.
fn matching_paren(t: &str, open: usize) -> Option<usize> {
    let mut depth = 0i32;
    let mut quote: Option<char> = None;
    let mut escaped = false;
    for (i, c) in t.char_indices().skip_while(|&(i, _)| i < open) {
        if let Some(q) = quote {
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == q {
                quote = None;
            }
            continue;
        }
        match c {
            '"' | '\'' => quote = Some(c),
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth == 0 {
                    return Some(i);
                }
            }
            _ => {}
        }
    }
    None
}

/// Parses `name(args)` or `name`.
pub fn parse_atom(text: &str, file: &str, line: usize) -> Result<ParsedAtom> {
    let t = text.trim();
    let (name, args) = match t.find('(') {
        None => (t, None),
        Some(p) => {
            let close = matching_paren(t, p);
            if close != Some(t.len() - 1) {
                let shown = close.map_or(t, |c| &t[..=c]);
                return Err(Error::syntax(
                    file,
                    line,
                    format!(
                        "'{}' does not end with ')' where the atom '{}' ends (is a '.' missing between two statements?)",
                        shorten(t),
                        shorten(shown)
                    ),
                ));
            }
            (&t[..p], Some(&t[p + 1..t.len() - 1]))
        }
    };
    let name = name.trim();
    let valid_name = name
        .chars()
        .next()
        .is_some_and(|c| c.is_alphabetic() || c == '_')
        && name.chars().all(is_name_char);
    if !valid_name {
        return Err(Error::syntax(
            file,
            line,
            format!(
                "'{}' is not an atom: a predicate name (letters, digits, '_') must come first",
                shorten(t)
            ),
        ));
    }
    let args = match args {
        None => Vec::new(),
        Some(inner) => split_args(inner)
            .iter()
            .map(|a| parse_arg(a, file, line, t))
            .collect::<Result<Vec<_>>>()?,
    };
    Ok(ParsedAtom {
        name: name.to_string(),
        args,
    })
}

/// Splits `prefix: rest` when the statement starts with a word followed
/// by a colon that is not the `:-` of a rule.
fn prefix_of(text: &str) -> Option<(&str, &str)> {
    let p = text.find(':')?;
    let (head, rest) = text.split_at(p);
    let rest = &rest[1..];
    if rest.starts_with('-') {
        return None;
    }
    let head = head.trim();
    if head.is_empty() || !head.chars().all(is_name_char) {
        return None;
    }
    Some((head, rest.trim()))
}

fn to_mode(atom: ParsedAtom, file: &str, line: usize) -> Result<ParsedMode> {
    let mut args = Vec::with_capacity(atom.args.len());
    for a in atom.args {
        match a {
            ParsedArg::Mode { mode, ty } => args.push((mode, ty)),
            ParsedArg::Constant { text, .. } => {
                return Err(Error::syntax(
                    file,
                    line,
                    format!(
                        "mode declaration of '{}' has argument '{text}' without a +, -, #, ` or & marker",
                        atom.name
                    ),
                ))
            }
        }
    }
    Ok(ParsedMode {
        name: atom.name,
        args,
    })
}

fn parse_setparam(body: &str, file: &str, line: usize) -> Result<Statement> {
    let Some((k, v)) = body.split_once('=') else {
        return Err(Error::syntax(
            file,
            line,
            format!("setParam '{}' needs the form key=value", shorten(body)),
        ));
    };
    let (k, v) = (k.trim(), v.trim());
    if k.is_empty() || !k.chars().all(is_name_char) {
        return Err(Error::syntax(
            file,
            line,
            format!("setParam key '{k}' is not a name"),
        ));
    }
    Ok(Statement::Setting {
        key: k.to_string(),
        value: v.to_string(),
    })
}

/// Parses the statements of one file (`file` is used in errors only).
pub fn parse(text: &str, file: &str) -> Result<Vec<Located>> {
    statements(text, file).collect()
}

/// The statements of one file, parsed one at a time (`file` is used in
/// errors only): what [`parse`] returns, without holding them all. After
/// an error the iterator ends.
pub fn statements<'a>(text: &'a str, file: &'a str) -> Statements<'a> {
    Statements {
        splitter: Splitter::new(text, file),
        prev_was_setparam: false,
    }
}

/// Iterator of [`statements`].
pub struct Statements<'a> {
    splitter: Splitter<'a>,
    prev_was_setparam: bool,
}

impl Iterator for Statements<'_> {
    type Item = Result<Located>;

    fn next(&mut self) -> Option<Result<Located>> {
        if self.splitter.done {
            return None;
        }
        let out = self.next_statement();
        match out {
            Ok(Some(loc)) => Some(Ok(loc)),
            Ok(None) => {
                self.splitter.done = true;
                None
            }
            Err(e) => {
                self.splitter.done = true;
                Some(Err(e))
            }
        }
    }
}

impl Statements<'_> {
    fn next_statement(&mut self) -> Result<Option<Located>> {
        let Some(raw) = self.splitter.next_raw()? else {
            return Ok(None);
        };
        let file = self.splitter.file;
        let mut prev_was_setparam = self.prev_was_setparam;
        let line = raw.line;
        let t = raw.text.as_str();
        let continuing = raw.same_line_as_previous && prev_was_setparam;
        prev_was_setparam = false;
        let stmt = if continuing && !t.contains('(') && t.contains('=') {
            prev_was_setparam = true;
            parse_setparam(t, file, line)?
        } else if let Some((prefix, rest)) = prefix_of(t) {
            match prefix {
                "mode" => Statement::Mode(to_mode(parse_atom(rest, file, line)?, file, line)?),
                "setParam" | "setparam" => {
                    prev_was_setparam = true;
                    parse_setparam(rest, file, line)?
                }
                "import" => {
                    let r = rest.trim();
                    let path = if (r.starts_with('"') && r.ends_with('"') && r.len() >= 2)
                        || (r.starts_with('\'') && r.ends_with('\'') && r.len() >= 2)
                    {
                        unquote(r, file, line)?
                    } else {
                        r.to_string()
                    };
                    if path.is_empty() {
                        return Err(Error::syntax(file, line, "import: needs a file name"));
                    }
                    Statement::Import(path)
                }
                "precompute" => Statement::Rule(rest.to_string()),
                _ => Statement::Setting {
                    key: prefix.to_string(),
                    value: rest.to_string(),
                },
            }
        } else if t.contains(":-") {
            Statement::Rule(t.to_string())
        } else {
            let atom = parse_atom(t, file, line)?;
            let n_modes = atom
                .args
                .iter()
                .filter(|a| matches!(a, ParsedArg::Mode { .. }))
                .count();
            if n_modes > 0 && n_modes == atom.args.len() {
                Statement::Mode(to_mode(atom, file, line)?)
            } else if n_modes > 0 {
                return Err(Error::syntax(
                    file,
                    line,
                    format!(
                        "'{}' mixes mode arguments (+/-/#) and constants; a mode declaration marks every argument, a fact none",
                        shorten(t)
                    ),
                ));
            } else {
                Statement::Atom {
                    name: atom.name,
                    args: atom
                        .args
                        .into_iter()
                        .map(|a| match a {
                            ParsedArg::Constant { text, .. } => text,
                            ParsedArg::Mode { ty, .. } => ty,
                        })
                        .collect(),
                }
            }
        };
        self.prev_was_setparam = prev_was_setparam;
        Ok(Some(Located { line, stmt }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn atom(name: &str, args: &[&str]) -> Statement {
        Statement::Atom {
            name: name.into(),
            args: args.iter().map(|s| s.to_string()).collect(),
        }
    }

    #[test]
    fn facts_with_crlf_comments_and_quotes() {
        let text = "p(a,b).\r\n// a comment\r\nq(\"Year 6\", 0.5). % trailing\r\n/* block\n comment */ r.\n";
        let s = parse(text, "f.txt").unwrap();
        assert_eq!(s.len(), 3);
        assert_eq!(s[0].stmt, atom("p", &["a", "b"]));
        assert_eq!(s[1].stmt, atom("q", &["Year 6", "0.5"]));
        assert_eq!(s[1].line, 3);
        assert_eq!(s[2].stmt, atom("r", &[]));
        assert_eq!(s[2].line, 5);
    }

    /// The statement stream reads multi-byte text as the characters it
    /// holds (a byte-order mark, quoted non-ASCII constants, a no-break
    /// space ending a statement, non-ASCII comments), gives what `parse`
    /// gives, and ends after an error.
    #[test]
    fn statements_stream_multibyte_text_and_stop_at_an_error() {
        let text = "\u{feff}p(\"Zoë Ünal\", 'a.b').\u{a0}q(\"é\", x). % commentaire é\n\
                    /* ü\n */ r(\"naïve\\\"q\").\nsetParam: a=1. b=2.\n";
        let streamed: Vec<Located> = statements(text, "f").collect::<Result<_>>().unwrap();
        assert_eq!(streamed, parse(text, "f").unwrap());
        assert_eq!(streamed.len(), 5);
        assert_eq!(streamed[0].stmt, atom("p", &["Zoë Ünal", "a.b"]));
        assert_eq!(streamed[1].stmt, atom("q", &["é", "x"]));
        assert_eq!(streamed[2].stmt, atom("r", &["naïve\"q"]));
        assert_eq!(streamed[2].line, 3);
        assert_eq!(
            streamed[4].stmt,
            Statement::Setting {
                key: "b".into(),
                value: "2".into()
            }
        );
        let mut it = statements("p(a).\nq(\"b\n", "g");
        assert_eq!(it.next().unwrap().unwrap().stmt, atom("p", &["a"]));
        let err = it.next().unwrap().unwrap_err().to_string();
        assert!(err.starts_with("g:2:"), "{err}");
        assert!(it.next().is_none());
    }

    #[test]
    fn modes_settings_imports_and_rules() {
        let text = "setParam: maxTreeDepth=3. nodeSize=2.\n\
                    mode: ta(+course, -person, #quarter).\n\
                    advisedby(+person,+person).\n\
                    recursive_actor(`person).\n\
                    usePrologVariables: true.\n\
                    okIfUnknown: recursive_actor/1.\n\
                    import: \"../imdb_bk.txt\".\n\
                    precompute:\n\
                    m(M, C) :- movie(M,P), all(P, movie(M,P), L), C is length(L).\n\
                    r(X) :- s(X).\n";
        let s: Vec<Statement> = parse(text, "bk")
            .unwrap()
            .into_iter()
            .map(|l| l.stmt)
            .collect();
        assert_eq!(
            s[0],
            Statement::Setting {
                key: "maxTreeDepth".into(),
                value: "3".into()
            }
        );
        assert_eq!(
            s[1],
            Statement::Setting {
                key: "nodeSize".into(),
                value: "2".into()
            }
        );
        assert_eq!(
            s[2],
            Statement::Mode(ParsedMode {
                name: "ta".into(),
                args: vec![
                    (ArgMode::Input, "course".into()),
                    (ArgMode::Output, "person".into()),
                    (ArgMode::Constant, "quarter".into())
                ]
            })
        );
        assert!(matches!(&s[3], Statement::Mode(m) if m.name == "advisedby"));
        assert!(matches!(&s[4], Statement::Mode(m) if m.args[0].0 == ArgMode::Backtick));
        assert_eq!(
            s[5],
            Statement::Setting {
                key: "usePrologVariables".into(),
                value: "true".into()
            }
        );
        assert!(matches!(&s[6], Statement::Setting { key, .. } if key == "okIfUnknown"));
        assert_eq!(s[7], Statement::Import("../imdb_bk.txt".into()));
        assert!(matches!(&s[8], Statement::Rule(r) if r.starts_with("m(M, C) :-")));
        assert!(matches!(&s[9], Statement::Rule(_)));
    }

    #[test]
    fn malformed_input_names_the_line() {
        let cases = [
            ("p(a,b).\nq(a,\n", 2, "not ended"),
            ("p(a,b).\n\np(a b).\n", 3, "unexpected character"),
            ("p(a).\nq(+t, c).\n", 2, "mixes mode"),
            ("p(a)\nq(b).\n", 1, "does not end with ')'"),
            ("p(\"abc).\n", 1, "not closed"),
            ("mode: p(+t, c).\n", 1, "without a +"),
            ("setParam: depth.\n", 1, "key=value"),
            ("p(f(a)).\n", 1, "compound"),
            ("1p(a).\n", 1, "not an atom"),
            ("p(a,).\n", 1, "empty argument"),
            ("ok.\n/* never closed\n", 2, "never closed"),
        ];
        for (text, line, what) in cases {
            let err = parse(text, "bad.txt").unwrap_err().to_string();
            assert!(
                err.starts_with(&format!("bad.txt:{line}:")),
                "{text:?} -> {err}"
            );
            assert!(err.contains(what), "{text:?} -> {err}");
        }
    }
}
