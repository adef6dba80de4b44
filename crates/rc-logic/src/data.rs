//! Relational data sets in the BoostSRL layout: a background file (mode
//! declarations, settings, imports) and, per split, `*_facts.txt`,
//! `*_pos.txt` and `*_neg.txt`.
//!
//! Loading checks the examples and facts against the modes and reports
//! every problem as a typed [`Error`] naming the file and the line:
//! unknown predicates in examples, arity mismatches, empty example files,
//! a target without a mode, modes that allow no refinement. A repeated
//! example line is kept once and counted ([`Problem::load_report`]; see
//! [`crate::duplicates`] to refuse such files).

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::duplicates::{DuplicateExamples, LoadReport};
use crate::error::{Error, Result};
use crate::facts::{FactStore, MAX_ARITY};
use crate::parser::{self, ArgMode, Statement};
use crate::symbols::{constant_text, Pred, Sym, Vocabulary};
use crate::term::{Atom, Term};

/// A mode declaration: how a predicate may be added to a clause.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Mode {
    /// The predicate.
    pub pred: Pred,
    /// Argument modes and types.
    pub args: Vec<(ArgMode, Sym)>,
    /// Where it was declared (`file:line`).
    pub origin: String,
}

/// The background: modes, settings, rules and background facts.
#[derive(Debug, Clone, Default)]
pub struct Background {
    /// Mode declarations, in file order (duplicates dropped).
    pub modes: Vec<Mode>,
    /// Settings (`setParam` keys and other `key:` lines), in file order.
    pub settings: Vec<(String, String)>,
    /// Rules and `precompute:` rules, as text (not used by the learners).
    pub rules: Vec<String>,
    /// Ground facts found in background files.
    pub facts: Vec<(Pred, Vec<Sym>)>,
    /// Files read (the first is the main file).
    pub files: Vec<String>,
}

fn read(path: &Path) -> Result<String> {
    std::fs::read_to_string(path).map_err(|e| Error::io(path, e))
}

impl Background {
    /// Parses a background text (`file` names it in errors). `import:`
    /// lines are an error here (there is no directory to resolve them in);
    /// use [`Background::load`].
    pub fn parse_str(text: &str, file: &str, vocab: &mut Vocabulary) -> Result<Self> {
        let mut bg = Background::default();
        bg.add_text(text, file, vocab, None, &mut Vec::new())?;
        Ok(bg)
    }

    /// Reads a background file, following `import:` lines relative to it.
    pub fn load(path: &Path, vocab: &mut Vocabulary) -> Result<Self> {
        let mut bg = Background::default();
        let text = read(path)?;
        let mut stack = vec![canonical(path)];
        bg.add_text(
            &text,
            &path.display().to_string(),
            vocab,
            path.parent(),
            &mut stack,
        )?;
        Ok(bg)
    }

    fn add_text(
        &mut self,
        text: &str,
        file: &str,
        vocab: &mut Vocabulary,
        dir: Option<&Path>,
        stack: &mut Vec<PathBuf>,
    ) -> Result<()> {
        self.files.push(file.to_string());
        for loc in parser::parse(text, file)? {
            match loc.stmt {
                Statement::Mode(m) => {
                    self.add_parsed_mode(
                        m,
                        &format!("{file}:{}", loc.line),
                        file,
                        loc.line,
                        vocab,
                    )?;
                }
                Statement::Setting { key, value } => self.settings.push((key, value)),
                Statement::Rule(r) => self.rules.push(r),
                Statement::Atom { name, args } => {
                    if args.len() > MAX_ARITY {
                        return Err(Error::syntax(
                            file,
                            loc.line,
                            format!("'{name}' has more than {MAX_ARITY} arguments"),
                        ));
                    }
                    let p = vocab.pred(&name, args.len());
                    let a = args.iter().map(|s| vocab.intern(s)).collect();
                    self.facts.push((p, a));
                }
                Statement::Import(target) => {
                    let Some(dir) = dir else {
                        return Err(Error::Import {
                            file: file.to_string(),
                            line: loc.line,
                            message: format!("import: \"{target}\" needs a directory; load the background from a file"),
                        });
                    };
                    let path = dir.join(&target);
                    let key = canonical(&path);
                    if stack.contains(&key) {
                        return Err(Error::Import {
                            file: file.to_string(),
                            line: loc.line,
                            message: format!("import: \"{target}\" imports a file that is already being read (a cycle)"),
                        });
                    }
                    let text = std::fs::read_to_string(&path).map_err(|e| Error::Import {
                        file: file.to_string(),
                        line: loc.line,
                        message: format!("cannot read imported file '{}': {e}", path.display()),
                    })?;
                    stack.push(key);
                    self.add_text(
                        &text,
                        &path.display().to_string(),
                        vocab,
                        path.parent(),
                        stack,
                    )?;
                    stack.pop();
                }
            }
        }
        Ok(())
    }

    fn add_parsed_mode(
        &mut self,
        m: parser::ParsedMode,
        origin: &str,
        file: &str,
        line: usize,
        vocab: &mut Vocabulary,
    ) -> Result<()> {
        if m.args.len() > MAX_ARITY {
            return Err(Error::syntax(
                file,
                line,
                format!("'{}' has more than {MAX_ARITY} arguments", m.name),
            ));
        }
        let pred = vocab.pred(&m.name, m.args.len());
        let args: Vec<(ArgMode, Sym)> = m.args.iter().map(|(k, t)| (*k, vocab.intern(t))).collect();
        if !self.modes.iter().any(|x| x.pred == pred && x.args == args) {
            self.modes.push(Mode {
                pred,
                args,
                origin: origin.to_string(),
            });
        }
        Ok(())
    }

    /// Adds one mode declaration written as in a background file, e.g.
    /// `samebib(+paper,+paper).` (for targets the file does not declare).
    pub fn add_mode(&mut self, decl: &str, vocab: &mut Vocabulary) -> Result<()> {
        for loc in parser::parse(decl, "<extra mode>")? {
            match loc.stmt {
                Statement::Mode(m) => {
                    self.add_parsed_mode(m, "<extra mode>", "<extra mode>", loc.line, vocab)?
                }
                _ => {
                    return Err(Error::syntax(
                        "<extra mode>",
                        loc.line,
                        format!(
                        "'{decl}' is not a mode declaration (mark every argument with +, - or #)"
                    ),
                    ))
                }
            }
        }
        Ok(())
    }

    /// The last value of a setting.
    pub fn setting(&self, key: &str) -> Option<&str> {
        self.settings
            .iter()
            .rev()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    /// The declared predicates (with at least one mode).
    pub fn declared_preds(&self) -> Vec<Pred> {
        let mut v: Vec<Pred> = Vec::new();
        for m in &self.modes {
            if !v.contains(&m.pred) {
                v.push(m.pred);
            }
        }
        v
    }

    /// `name/arity` of every declared predicate, comma separated.
    pub fn declared_list(&self, vocab: &Vocabulary) -> String {
        let names: Vec<String> = self
            .declared_preds()
            .iter()
            .map(|&p| format!("{}/{}", vocab.pred_name(p), vocab.arity(p)))
            .collect();
        if names.is_empty() {
            "(none)".into()
        } else {
            names.join(", ")
        }
    }

    /// The argument types of `target` from its mode declarations, with the
    /// line of its first declaration.
    pub fn head_types(&self, target: Pred, vocab: &Vocabulary) -> Result<(Vec<Sym>, String)> {
        let modes: Vec<&Mode> = self.modes.iter().filter(|m| m.pred == target).collect();
        let Some(first) = modes.first() else {
            let file = self
                .files
                .first()
                .cloned()
                .unwrap_or_else(|| "<background>".into());
            return Err(Error::NoTargetMode {
                file,
                line: 1,
                target: vocab.pred_name(target).to_string(),
            });
        };
        let types: Vec<Sym> = first.args.iter().map(|&(_, t)| t).collect();
        for m in &modes[1..] {
            let other: Vec<Sym> = m.args.iter().map(|&(_, t)| t).collect();
            if other != types {
                let (file, line) = split_origin(&m.origin);
                return Err(Error::syntax(
                    &file,
                    line,
                    format!(
                        "mode of target '{}' has argument types ({}) but {} declares ({})",
                        vocab.pred_name(target),
                        names(&other, vocab),
                        first.origin,
                        names(&types, vocab)
                    ),
                ));
            }
        }
        Ok((types, first.origin.clone()))
    }

    /// Checks that some mode can extend the empty clause of `target`
    /// (a non-target mode whose input arguments all have head types).
    pub fn check_refinable(&self, target: Pred, vocab: &Vocabulary) -> Result<()> {
        let (types, origin) = self.head_types(target, vocab)?;
        let usable = self.modes.iter().any(|m| {
            m.pred != target
                && m.args.iter().any(|(k, _)| k.is_input())
                && m.args
                    .iter()
                    .filter(|(k, _)| k.is_input())
                    .all(|(_, t)| types.contains(t))
        });
        if usable {
            return Ok(());
        }
        let (file, line) = split_origin(&origin);
        let others: Vec<String> = self
            .modes
            .iter()
            .filter(|m| m.pred != target)
            .map(|m| {
                let ins: Vec<&str> = m
                    .args
                    .iter()
                    .filter(|(k, _)| k.is_input())
                    .map(|&(_, t)| vocab.name(t))
                    .collect();
                format!(
                    "{} needs inputs ({})",
                    vocab.pred_name(m.pred),
                    ins.join(", ")
                )
            })
            .collect();
        Err(Error::NoRefinement {
            file,
            line,
            target: vocab.pred_name(target).to_string(),
            reason: format!(
                "the head provides variables of type(s) {}, but no other mode has all its '+' arguments of those types{}",
                names(&types, vocab),
                if others.is_empty() {
                    " (there are no other modes)".to_string()
                } else {
                    format!(": {}", others.join("; "))
                }
            ),
        })
    }
}

fn names(types: &[Sym], vocab: &Vocabulary) -> String {
    types
        .iter()
        .map(|&t| vocab.name(t))
        .collect::<Vec<_>>()
        .join(", ")
}

fn split_origin(origin: &str) -> (String, usize) {
    match origin.rsplit_once(':') {
        Some((f, l)) => (f.to_string(), l.parse().unwrap_or(1)),
        None => (origin.to_string(), 1),
    }
}

fn canonical(p: &Path) -> PathBuf {
    std::fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf())
}

/// Labelled examples of one target: ground atoms `target(c1, …, ck)`.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Examples {
    /// The target predicate.
    pub target: Option<Pred>,
    /// Arguments of example `i` at `args[i*k..(i+1)*k]`.
    pub args: Vec<u32>,
    /// Labels (true = positive).
    pub labels: Vec<bool>,
    /// The arity `k`.
    pub arity: usize,
}

impl Examples {
    /// Empty examples of `target` with `arity` arguments.
    pub fn new(target: Pred, arity: usize) -> Self {
        Examples {
            target: Some(target),
            args: Vec::new(),
            labels: Vec::new(),
            arity,
        }
    }

    /// Adds an example.
    pub fn push(&mut self, args: &[u32], label: bool) {
        self.args.extend_from_slice(args);
        self.labels.push(label);
    }

    /// Number of examples.
    pub fn len(&self) -> usize {
        self.labels.len()
    }

    /// True without examples.
    pub fn is_empty(&self) -> bool {
        self.labels.is_empty()
    }

    /// Arguments of example `i`.
    pub fn get(&self, i: usize) -> &[u32] {
        &self.args[i * self.arity..(i + 1) * self.arity]
    }

    /// Number of positive examples.
    pub fn n_pos(&self) -> usize {
        self.labels.iter().filter(|&&l| l).count()
    }

    /// The examples at `rows` (in that order).
    pub fn subset(&self, rows: &[usize]) -> Examples {
        let mut out = Examples {
            target: self.target,
            args: Vec::with_capacity(rows.len() * self.arity),
            labels: Vec::with_capacity(rows.len()),
            arity: self.arity,
        };
        for &r in rows {
            out.push(self.get(r), self.labels[r]);
        }
        out
    }

    /// Labels as 0/1 (for the metrics).
    pub fn labels01(&self) -> Vec<usize> {
        self.labels.iter().map(|&l| usize::from(l)).collect()
    }
}

/// One split (train or test): facts and examples.
#[derive(Debug, Clone, Default)]
pub struct Split {
    /// Facts (background facts included).
    pub facts: FactStore,
    /// The target's examples.
    pub examples: Examples,
    /// Predicates of the fact files without a mode declaration (kept, but
    /// no refinement uses them).
    pub undeclared: Vec<String>,
    /// Example files of this split with repeated lines (kept once).
    pub duplicates: Vec<DuplicateExamples>,
}

/// A learning problem: vocabulary, background, target and splits.
#[derive(Debug, Clone)]
pub struct Problem {
    /// Names of every symbol.
    pub vocab: Vocabulary,
    /// Modes and settings.
    pub background: Background,
    /// The target predicate.
    pub target: Pred,
    /// Types of the target's arguments.
    pub head_types: Vec<Sym>,
    /// Training split.
    pub train: Split,
    /// Test split, if loaded.
    pub test: Option<Split>,
}

/// Text of one example or fact file (with the name used in errors).
#[derive(Debug, Clone, Copy)]
pub struct SplitText<'a> {
    /// `*_facts.txt` contents and name.
    pub facts: (&'a str, &'a str),
    /// `*_pos.txt` contents and name.
    pub pos: (&'a str, &'a str),
    /// `*_neg.txt` contents and name.
    pub neg: (&'a str, &'a str),
}

impl Problem {
    /// Builds a problem from in-memory texts: a background, the target's
    /// name and the training split (and optionally a test split).
    pub fn from_texts(
        background: (&str, &str),
        target: &str,
        train: SplitText<'_>,
        test: Option<SplitText<'_>>,
    ) -> Result<Problem> {
        let mut vocab = Vocabulary::new();
        let bg = Background::parse_str(background.0, background.1, &mut vocab)?;
        Self::assemble(vocab, bg, target, |vocab, bg, target| {
            let tr = load_split_text(vocab, bg, target, train)?;
            let te = test
                .map(|t| load_split_text(vocab, bg, target, t))
                .transpose()?;
            Ok((tr, te))
        })
    }

    /// Loads a problem from files: the background file, the target, the
    /// training directory and (optionally) the test directory, with
    /// BoostSRL's file names (`<prefix>_facts.txt`, `<prefix>_pos.txt`,
    /// `<prefix>_neg.txt`, prefix = `train` / `test`). `extra_modes` are
    /// added to the background (e.g. `samebib(+paper,+paper).`).
    pub fn load(
        background: &Path,
        target: &str,
        train_dir: &Path,
        test_dir: Option<&Path>,
        extra_modes: &[&str],
    ) -> Result<Problem> {
        let mut vocab = Vocabulary::new();
        let mut bg = Background::load(background, &mut vocab)?;
        for m in extra_modes {
            bg.add_mode(m, &mut vocab)?;
        }
        Self::assemble(vocab, bg, target, |vocab, bg, target| {
            let tr = load_split_dir(vocab, bg, target, train_dir, "train")?;
            let te = test_dir
                .map(|d| load_split_dir(vocab, bg, target, d, "test"))
                .transpose()?;
            Ok((tr, te))
        })
    }

    /// Loads one folder as the problem's only split, in
    /// [`Problem::train`], with BoostSRL's file names for `prefix`
    /// (`<prefix>_facts.txt`, `<prefix>_pos.txt`, `<prefix>_neg.txt`).
    /// Meant for inference in a process of its own: load the test folder
    /// with prefix `test`, then [`rebind`](crate::TreeEnsemble::rebind) a
    /// saved model to the problem's vocabulary and predict on `train`.
    pub fn load_folder(
        background: &Path,
        target: &str,
        dir: &Path,
        prefix: &str,
        extra_modes: &[&str],
    ) -> Result<Problem> {
        let mut vocab = Vocabulary::new();
        let mut bg = Background::load(background, &mut vocab)?;
        for m in extra_modes {
            bg.add_mode(m, &mut vocab)?;
        }
        Self::assemble(vocab, bg, target, |vocab, bg, target| {
            Ok((load_split_dir(vocab, bg, target, dir, prefix)?, None))
        })
    }

    fn assemble(
        mut vocab: Vocabulary,
        bg: Background,
        target: &str,
        splits: impl FnOnce(&mut Vocabulary, &Background, Pred) -> Result<(Split, Option<Split>)>,
    ) -> Result<Problem> {
        let declared: Vec<Pred> = vocab
            .preds_named(target)
            .into_iter()
            .filter(|p| bg.modes.iter().any(|m| m.pred == *p))
            .collect();
        let Some(&pred) = declared.first() else {
            let file = bg
                .files
                .first()
                .cloned()
                .unwrap_or_else(|| "<background>".into());
            return Err(Error::NoTargetMode {
                file,
                line: 1,
                target: target.to_string(),
            });
        };
        let (head_types, _) = bg.head_types(pred, &vocab)?;
        bg.check_refinable(pred, &vocab)?;
        let (train, test) = splits(&mut vocab, &bg, pred)?;
        Ok(Problem {
            vocab,
            background: bg,
            target: pred,
            head_types,
            train,
            test,
        })
    }

    /// What loading noticed without failing: repeated example lines of
    /// the training and test splits. Check it with
    /// [`LoadReport::check`] to refuse such data.
    pub fn load_report(&self) -> LoadReport {
        let test = self.test.iter().flat_map(|t| t.duplicates.iter());
        LoadReport {
            duplicates: self.train.duplicates.iter().chain(test).cloned().collect(),
        }
    }

    /// The head `target(V0, …, Vk-1)`.
    pub fn head(&self) -> Atom {
        Atom::new(
            self.target,
            (0..self.head_types.len() as u32).map(Term::Var).collect(),
        )
    }
}

fn load_split_dir(
    vocab: &mut Vocabulary,
    bg: &Background,
    target: Pred,
    dir: &Path,
    prefix: &str,
) -> Result<Split> {
    let names = ["facts", "pos", "neg"].map(|k| dir.join(format!("{prefix}_{k}.txt")));
    let texts = [read(&names[0])?, read(&names[1])?, read(&names[2])?];
    let shown = names.clone().map(|p| p.display().to_string());
    load_split_text(
        vocab,
        bg,
        target,
        SplitText {
            facts: (&texts[0], &shown[0]),
            pos: (&texts[1], &shown[1]),
            neg: (&texts[2], &shown[2]),
        },
    )
}

/// Checks an atom against the declarations: `Ok(Some(pred))` for a
/// declared predicate of matching arity, `Ok(None)` for an undeclared name.
fn declared_pred(
    vocab: &Vocabulary,
    bg: &Background,
    name: &str,
    arity: usize,
    file: &str,
    line: usize,
) -> Result<Option<Pred>> {
    if let Some(p) = vocab.find_pred(name, arity) {
        if bg.modes.iter().any(|m| m.pred == p) {
            return Ok(Some(p));
        }
    }
    if let Some(m) = bg.modes.iter().find(|m| vocab.pred_name(m.pred) == name) {
        return Err(Error::ArityMismatch {
            file: file.to_string(),
            line,
            name: name.to_string(),
            expected: m.args.len(),
            found: arity,
            declared_at: m.origin.clone(),
        });
    }
    Ok(None)
}

/// An example as it prints: `name(a, "B c")`.
fn example_text(name: &str, args: &[String]) -> String {
    let args: Vec<String> = args.iter().map(|a| constant_text(a)).collect();
    format!("{name}({})", args.join(", "))
}

fn load_split_text(
    vocab: &mut Vocabulary,
    bg: &Background,
    target: Pred,
    t: SplitText<'_>,
) -> Result<Split> {
    let arity = vocab.arity(target);
    let mut split = Split {
        examples: Examples::new(target, arity),
        ..Split::default()
    };
    for (p, a) in &bg.facts {
        let vals: Vec<u32> = a.iter().map(|s| s.0).collect();
        split.facts.insert(*p, &vals);
    }
    // Facts.
    let (text, file) = t.facts;
    // One statement at a time: a large facts file is held only as text.
    for loc in parser::statements(text, file) {
        let loc = loc?;
        let Statement::Atom { name, args } = loc.stmt else {
            return Err(Error::syntax(
                file,
                loc.line,
                "a facts file may only hold ground facts",
            ));
        };
        if args.len() > MAX_ARITY {
            return Err(Error::syntax(
                file,
                loc.line,
                format!("'{name}' has more than {MAX_ARITY} arguments"),
            ));
        }
        let p = match declared_pred(vocab, bg, &name, args.len(), file, loc.line)? {
            Some(p) => p,
            None => {
                let key = format!("{name}/{}", args.len());
                if !split.undeclared.contains(&key) {
                    split.undeclared.push(key);
                }
                vocab.pred(&name, args.len())
            }
        };
        let vals: Vec<u32> = args.iter().map(|s| vocab.intern(s).0).collect();
        split.facts.insert(p, &vals);
    }
    split.facts.finish();
    // Examples.
    let target_name = vocab.pred_name(target).to_string();
    // Line of every positive example, to report one that is also negative.
    let mut pos_lines: HashMap<Vec<u32>, usize> = HashMap::new();
    for (label, (text, file)) in [(true, t.pos), (false, t.neg)] {
        // Line of every example of this file, to name what a repeat repeats.
        let mut seen: HashMap<Vec<u32>, usize> = HashMap::new();
        let mut repeats: Option<DuplicateExamples> = None;
        for loc in parser::statements(text, file) {
            let loc = loc?;
            let Statement::Atom { name, args } = &loc.stmt else {
                return Err(Error::syntax(
                    file,
                    loc.line,
                    "an examples file may only hold ground atoms",
                ));
            };
            match declared_pred(vocab, bg, name, args.len(), file, loc.line)? {
                Some(p) if p == target => {
                    let vals: Vec<u32> = args.iter().map(|s| vocab.intern(s).0).collect();
                    if label {
                        pos_lines.entry(vals.clone()).or_insert(loc.line);
                    } else if let Some(&pos_line) = pos_lines.get(&vals) {
                        return Err(Error::ContradictoryExample {
                            example: example_text(name, args),
                            target: target_name,
                            pos_file: t.pos.1.to_string(),
                            pos_line,
                            neg_file: file.to_string(),
                            neg_line: loc.line,
                        });
                    }
                    match seen.get(&vals) {
                        None => {
                            split.examples.push(&vals, label);
                            seen.insert(vals, loc.line);
                        }
                        Some(&first_of) => match &mut repeats {
                            Some(r) => r.count += 1,
                            None => {
                                repeats = Some(DuplicateExamples {
                                    file: file.to_string(),
                                    count: 1,
                                    first_line: loc.line,
                                    first_of,
                                    example: example_text(name, args),
                                })
                            }
                        },
                    }
                }
                Some(_) => {} // an example of another declared target (cora)
                None => {
                    return Err(Error::UnknownPredicate {
                        file: file.to_string(),
                        line: loc.line,
                        what: "examples",
                        name: name.clone(),
                        arity: args.len(),
                        known: bg.declared_list(vocab),
                    })
                }
            }
        }
        split.duplicates.extend(repeats);
        if seen.is_empty() {
            let lines = text.lines().count();
            return Err(Error::EmptyExamples {
                file: file.to_string(),
                line: lines + 1,
                what: if label {
                    "positive examples"
                } else {
                    "negative examples"
                },
                target: target_name.clone(),
                lines,
            });
        }
    }
    Ok(split)
}

#[cfg(test)]
mod tests {
    use super::*;

    const BG: &str =
        "advisedby(+person,+person).\nprofessor(+person).\npublication(-title,+person).\n";

    fn split<'a>(facts: &'a str, pos: &'a str, neg: &'a str) -> SplitText<'a> {
        SplitText {
            facts: (facts, "f.txt"),
            pos: (pos, "pos.txt"),
            neg: (neg, "neg.txt"),
        }
    }

    #[test]
    fn loads_and_filters_other_targets() {
        let bg = format!("{BG}samebib(+person,+person).\n");
        let p = Problem::from_texts(
            (&bg, "bk.txt"),
            "advisedby",
            split(
                "professor(p1).\r\npublication(t1,p1).\npublication(t1,s1).\nmisc(x).\n",
                "advisedby(s1,p1).\nsamebib(a,b).\nadvisedby(s1,p1).\n",
                "advisedby(p1,s1).\n",
            ),
            None,
        )
        .unwrap();
        assert_eq!(p.train.examples.len(), 2);
        assert_eq!(p.train.examples.n_pos(), 1);
        assert_eq!(p.train.facts.len(), 4);
        assert_eq!(p.train.undeclared, vec!["misc/1".to_string()]);
        assert_eq!(p.head_types.len(), 2);
    }

    #[test]
    fn repeated_examples_are_counted_kept_once_and_can_be_an_error() {
        use crate::duplicates::{DuplicateExamples, DuplicatePolicy};
        let pos = "advisedby(s1,p1).\nadvisedby(s2,p1).\nadvisedby( s1 , p1 ).\n\
                   advisedby(s2,p1).\nadvisedby(s1,p1).\n";
        let test = SplitText {
            facts: ("professor(p1).\n", "test_f.txt"),
            pos: ("advisedby(s3,p1).\n", "test_pos.txt"),
            neg: ("advisedby(p1,s3).\nadvisedby(p1,s3).\n", "test_neg.txt"),
        };
        let p = Problem::from_texts(
            (BG, "bk.txt"),
            "advisedby",
            split("professor(p1).\n", pos, "advisedby(p1,s1).\n"),
            Some(test),
        )
        .unwrap();
        assert_eq!(p.train.examples.len(), 3);
        assert_eq!(p.train.examples.n_pos(), 2);
        let report = p.load_report();
        assert_eq!(report.n_duplicates(), 4);
        assert_eq!(
            report.duplicates[0],
            DuplicateExamples {
                file: "pos.txt".into(),
                count: 3,
                first_line: 3,
                first_of: 1,
                example: "advisedby(s1, p1)".into(),
            }
        );
        assert_eq!(
            (
                report.duplicates[1].file.as_str(),
                report.duplicates[1].count,
                report.duplicates[1].first_line
            ),
            ("test_neg.txt", 1, 2)
        );
        let warnings = report.warnings();
        assert_eq!(warnings.len(), 2);
        assert!(
            warnings[0].contains("pos.txt: 3 duplicate example line(s)")
                && warnings[0].contains("line 3, advisedby(s1, p1), repeats line 1"),
            "{}",
            warnings[0]
        );
        report.check(DuplicatePolicy::Warn).unwrap();
        let e = report.check(DuplicatePolicy::Error).unwrap_err();
        match &e {
            Error::DuplicateExample {
                file,
                line,
                example,
                first_of,
                count,
            } => {
                assert_eq!(
                    (file.as_str(), *line, example.as_str(), *first_of, *count),
                    ("pos.txt", 3, "advisedby(s1, p1)", 1, 3)
                );
            }
            other => panic!("expected DuplicateExample, got {other}"),
        }
        assert!(e
            .to_string()
            .starts_with("pos.txt:3: example advisedby(s1, p1) repeats line 1"));
        // Files without repeats report nothing.
        let clean = Problem::from_texts(
            (BG, "bk.txt"),
            "advisedby",
            split(
                "professor(p1).\n",
                "advisedby(s1,p1).\n",
                "advisedby(p1,s1).\n",
            ),
            None,
        )
        .unwrap();
        assert!(clean.load_report().is_clean());
        clean.load_report().check(DuplicatePolicy::Error).unwrap();
    }

    #[test]
    fn an_example_both_positive_and_negative_is_an_error_naming_it() {
        let e = Problem::from_texts(
            (BG, "bk.txt"),
            "advisedby",
            split(
                "professor(p1).\n",
                "advisedby(s1,p1).\nadvisedby(s2,p1).\n",
                "advisedby(p1,s1).\n\nadvisedby( s2 , p1 ).\n",
            ),
            None,
        )
        .unwrap_err();
        match &e {
            Error::ContradictoryExample {
                example,
                target,
                pos_file,
                pos_line,
                neg_file,
                neg_line,
            } => {
                assert_eq!(example, "advisedby(s2, p1)");
                assert_eq!(target, "advisedby");
                assert_eq!((pos_file.as_str(), *pos_line), ("pos.txt", 2));
                assert_eq!((neg_file.as_str(), *neg_line), ("neg.txt", 3));
            }
            other => panic!("expected ContradictoryExample, got {other}"),
        }
        let text = e.to_string();
        assert!(text.contains("advisedby(s2, p1)"), "{text}");
        assert!(
            text.contains("pos.txt:2") && text.contains("neg.txt:3"),
            "{text}"
        );
        // A repeated positive is no contradiction.
        let p = Problem::from_texts(
            (BG, "bk.txt"),
            "advisedby",
            split(
                "",
                "advisedby(s1,p1).\nadvisedby(s1,p1).\n",
                "advisedby(p1,s1).\n",
            ),
            None,
        )
        .unwrap();
        assert_eq!(p.train.examples.len(), 2);
    }

    #[test]
    fn bad_input_gives_typed_errors_with_file_and_line() {
        let err = |bg: &str, facts: &str, pos: &str, neg: &str| {
            Problem::from_texts((bg, "bk.txt"), "advisedby", split(facts, pos, neg), None)
                .unwrap_err()
        };
        let e = err(
            BG,
            "",
            "advisedby(a,b).\nstudent(a).\n",
            "advisedby(b,a).\n",
        );
        assert!(matches!(e, Error::UnknownPredicate { line: 2, .. }), "{e}");
        assert!(
            e.to_string()
                .starts_with("pos.txt:2: unknown predicate 'student/1'"),
            "{e}"
        );
        let e = err(
            BG,
            "professor(a,b).\n",
            "advisedby(a,b).\n",
            "advisedby(b,a).\n",
        );
        assert!(
            matches!(
                e,
                Error::ArityMismatch {
                    expected: 1,
                    found: 2,
                    line: 1,
                    ..
                }
            ),
            "{e}"
        );
        assert!(e.to_string().contains("bk.txt:2"), "{e}");
        let e = err(BG, "", "advisedby(a).\n", "advisedby(b,a).\n");
        assert!(matches!(e, Error::ArityMismatch { .. }), "{e}");
        let e = err(BG, "", "", "advisedby(b,a).\n");
        assert!(matches!(e, Error::EmptyExamples { line: 1, .. }), "{e}");
        assert!(e.to_string().starts_with("pos.txt:1:"), "{e}");
        let e = err(BG, "", "advisedby(a,b).\n", "// only a comment\n");
        assert!(
            e.to_string().starts_with("neg.txt:2: no negative examples"),
            "{e}"
        );
        let e = err(
            "professor(+person).\n",
            "",
            "advisedby(a,b).\n",
            "advisedby(b,a).\n",
        );
        assert!(matches!(e, Error::NoTargetMode { .. }), "{e}");
        let e = err(
            "advisedby(+person,+person).\ncourselevel(+course,#level).\n",
            "",
            "advisedby(a,b).\n",
            "advisedby(b,a).\n",
        );
        assert!(matches!(e, Error::NoRefinement { line: 1, .. }), "{e}");
        assert!(
            e.to_string().contains("courselevel needs inputs (course)"),
            "{e}"
        );
        let e = err(
            BG,
            "professor(a\n",
            "advisedby(a,b).\n",
            "advisedby(b,a).\n",
        );
        assert!(e.to_string().starts_with("f.txt:1:"), "{e}");
    }
}
