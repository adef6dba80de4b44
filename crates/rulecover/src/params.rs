//! Typed parameters from strings: each method declares its parameters
//! ([`ParamSpec`]: name, type, default, doc); `key=value` strings are
//! parsed by the declared type, unknown names and bad values are typed
//! errors, and the resolved values print back as canonical strings (the
//! `params` of a model file).

use std::collections::BTreeMap;
use std::fmt;

use rc_tree::MaxFeatures;

use crate::error::{Error, Result};

/// The type of a parameter and what values it accepts.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum ParamKind {
    /// `true` or `false`.
    Bool,
    /// A non-negative integer at least `min`.
    Int {
        /// The smallest value allowed.
        min: usize,
    },
    /// A non-negative integer at least `min`, or `none`.
    OptInt {
        /// The smallest value allowed.
        min: usize,
    },
    /// A finite number.
    Float,
    /// A finite number, or `none`.
    OptFloat,
    /// A finite number, or `auto` (the method chooses it, e.g. a penalty
    /// by cross-validation).
    FloatOrAuto,
    /// One of these words.
    Choice(&'static [&'static str]),
    /// How many features a tree split considers: `auto` (the learner's
    /// default for the task), `all`, `sqrt`, `log2`, a count (`3`) or a
    /// fraction in (0, 1] written with a decimal point (`0.5`).
    MaxFeatures,
}

impl ParamKind {
    /// What the parameter accepts, in words (for error messages and help).
    pub fn allowed(&self) -> String {
        match self {
            ParamKind::Bool => "true or false".into(),
            ParamKind::Int { min } => format!("an integer >= {min}"),
            ParamKind::OptInt { min } => format!("an integer >= {min}, or none"),
            ParamKind::Float => "a finite number".into(),
            ParamKind::OptFloat => "a finite number, or none".into(),
            ParamKind::FloatOrAuto => "a finite number, or auto".into(),
            ParamKind::Choice(words) => format!("one of {}", words.join(", ")),
            ParamKind::MaxFeatures => {
                "auto, all, sqrt, log2, a count >= 1 (e.g. 3) or a fraction in (0, 1] (e.g. 0.5)"
                    .into()
            }
        }
    }

    /// A short name of the type (`bool`, `int`, `int|none`, `float`,
    /// `float|none`, `float|auto`, `choice`, `max_features`).
    pub fn type_name(&self) -> &'static str {
        match self {
            ParamKind::Bool => "bool",
            ParamKind::Int { .. } => "int",
            ParamKind::OptInt { .. } => "int|none",
            ParamKind::Float => "float",
            ParamKind::OptFloat => "float|none",
            ParamKind::FloatOrAuto => "float|auto",
            ParamKind::Choice(_) => "choice",
            ParamKind::MaxFeatures => "max_features",
        }
    }

    /// Parses `text` as this kind; `None` when it does not parse.
    pub(crate) fn parse(&self, text: &str) -> Option<Value> {
        let t = text.trim();
        let is_none = t.eq_ignore_ascii_case("none");
        match *self {
            ParamKind::Bool => match t.to_ascii_lowercase().as_str() {
                "true" => Some(Value::Bool(true)),
                "false" => Some(Value::Bool(false)),
                _ => None,
            },
            ParamKind::Int { min } => parse_int(t, min).map(Value::Int),
            ParamKind::OptInt { min } => {
                if is_none {
                    Some(Value::None)
                } else {
                    parse_int(t, min).map(Value::Int)
                }
            }
            ParamKind::Float => parse_float(t).map(Value::Float),
            ParamKind::OptFloat => {
                if is_none {
                    Some(Value::None)
                } else {
                    parse_float(t).map(Value::Float)
                }
            }
            ParamKind::FloatOrAuto => {
                if t.eq_ignore_ascii_case("auto") {
                    Some(Value::Auto)
                } else {
                    parse_float(t).map(Value::Float)
                }
            }
            ParamKind::Choice(words) => words
                .iter()
                .find(|w| w.eq_ignore_ascii_case(t))
                .map(|w| Value::Choice(w)),
            ParamKind::MaxFeatures => parse_max_features(t).map(Value::MaxFeatures),
        }
    }
}

fn parse_int(t: &str, min: usize) -> Option<usize> {
    t.parse::<usize>().ok().filter(|&v| v >= min)
}

fn parse_float(t: &str) -> Option<f64> {
    t.parse::<f64>().ok().filter(|v| v.is_finite())
}

fn parse_max_features(t: &str) -> Option<Option<MaxFeatures>> {
    Some(Some(match t.to_ascii_lowercase().as_str() {
        "auto" => return Some(None),
        "all" => MaxFeatures::All,
        "sqrt" => MaxFeatures::Sqrt,
        "log2" => MaxFeatures::Log2,
        _ if t.contains(['.', 'e', 'E']) => {
            let f = parse_float(t)?;
            if f > 0.0 && f <= 1.0 {
                MaxFeatures::Fraction(f)
            } else {
                return None;
            }
        }
        _ => MaxFeatures::Count(parse_int(t, 1)?),
    }))
}

/// One parameter of a method.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ParamSpec {
    /// The name used in `name=value`.
    pub name: &'static str,
    /// Its type.
    pub kind: ParamKind,
    /// Its default, as a string of its type.
    pub default: &'static str,
    /// One line on what it does.
    pub doc: &'static str,
}

/// A parsed parameter value.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Value {
    Bool(bool),
    Int(usize),
    Float(f64),
    None,
    /// `auto`: the method chooses.
    Auto,
    Choice(&'static str),
    /// `None` = auto.
    MaxFeatures(Option<MaxFeatures>),
}

impl fmt::Display for Value {
    /// The canonical string, which parses back to the same value (floats
    /// print as the shortest decimal that round-trips).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Bool(b) => write!(f, "{b}"),
            Value::Int(v) => write!(f, "{v}"),
            Value::Float(v) => write!(f, "{v:?}"),
            Value::None => f.write_str("none"),
            Value::Auto => f.write_str("auto"),
            Value::Choice(w) => f.write_str(w),
            Value::MaxFeatures(m) => match m {
                None => f.write_str("auto"),
                Some(MaxFeatures::All) => f.write_str("all"),
                Some(MaxFeatures::Sqrt) => f.write_str("sqrt"),
                Some(MaxFeatures::Log2) => f.write_str("log2"),
                Some(MaxFeatures::Count(k)) => write!(f, "{k}"),
                Some(MaxFeatures::Fraction(x)) => write!(f, "{x:?}"),
            },
        }
    }
}

/// Splits `key=value` strings (as a command line gives them) into pairs.
///
/// # Errors
/// [`Error::NotKeyValue`] for a string without `=` or with an empty key.
pub fn parse_key_values<S: AsRef<str>>(items: &[S]) -> Result<Vec<(String, String)>> {
    items
        .iter()
        .map(|s| {
            let s = s.as_ref();
            match s.split_once('=') {
                Some((k, v)) if !k.trim().is_empty() => {
                    Ok((k.trim().to_string(), v.trim().to_string()))
                }
                _ => Err(Error::NotKeyValue { given: s.into() }),
            }
        })
        .collect()
}

/// Every parameter of one method, resolved: the given values parsed, the
/// others at their defaults. A method item reads them by name and type
/// when it builds its crate's params.
#[derive(Debug, Clone)]
pub struct Args {
    method: &'static str,
    values: BTreeMap<&'static str, Value>,
}

impl Args {
    /// Parses `given` against `specs`, filling defaults.
    pub(crate) fn resolve(
        method: &'static str,
        specs: &'static [ParamSpec],
        given: &[(String, String)],
    ) -> Result<Args> {
        let mut values = BTreeMap::new();
        for (name, text) in given {
            let Some(spec) = specs.iter().find(|s| s.name == name.as_str()) else {
                return Err(Error::UnknownParameter {
                    method: method.into(),
                    name: name.clone(),
                    valid: specs.iter().map(|s| s.name).collect::<Vec<_>>().join(", "),
                });
            };
            let value = spec.kind.parse(text).ok_or_else(|| Error::BadValue {
                method: method.into(),
                name: name.clone(),
                value: text.clone(),
                expected: spec.kind.allowed(),
            })?;
            if values.insert(spec.name, value).is_some() {
                return Err(Error::DuplicateParameter {
                    method: method.into(),
                    name: name.clone(),
                });
            }
        }
        for spec in specs {
            if !values.contains_key(spec.name) {
                let value = spec.kind.parse(spec.default).ok_or_else(|| {
                    Error::Internal(format!(
                        "default '{}' of {method}.{} does not parse as {}",
                        spec.default,
                        spec.name,
                        spec.kind.allowed()
                    ))
                })?;
                values.insert(spec.name, value);
            }
        }
        Ok(Args { method, values })
    }

    /// The canonical strings of every value (a model file's `params`).
    pub fn strings(&self) -> BTreeMap<String, String> {
        self.values
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    /// Whether the method declares parameter `name`.
    pub fn has(&self, name: &str) -> bool {
        self.values.contains_key(name)
    }

    fn get(&self, name: &str) -> Result<Value> {
        self.values.get(name).copied().ok_or_else(|| {
            Error::Internal(format!(
                "method '{}' reads parameter '{name}', which it does not declare",
                self.method
            ))
        })
    }

    fn mismatch(&self, name: &str, want: &str) -> Error {
        Error::Internal(format!(
            "method '{}' reads parameter '{name}' as {want}, which its declaration is not",
            self.method
        ))
    }

    /// Integer parameter `name`.
    ///
    /// # Errors
    /// [`Error::Internal`] when the method does not declare `name` as
    /// this type (a bug of the method's item).
    pub fn int(&self, name: &str) -> Result<usize> {
        match self.get(name)? {
            Value::Int(v) => Ok(v),
            _ => Err(self.mismatch(name, "an integer")),
        }
    }

    /// Optional integer parameter `name` (`None` for `none`).
    ///
    /// # Errors
    /// As [`Args::int`].
    pub fn opt_int(&self, name: &str) -> Result<Option<usize>> {
        match self.get(name)? {
            Value::Int(v) => Ok(Some(v)),
            Value::None => Ok(None),
            _ => Err(self.mismatch(name, "an optional integer")),
        }
    }

    /// Number parameter `name`.
    ///
    /// # Errors
    /// As [`Args::int`].
    pub fn float(&self, name: &str) -> Result<f64> {
        match self.get(name)? {
            Value::Float(v) => Ok(v),
            _ => Err(self.mismatch(name, "a number")),
        }
    }

    /// Optional number parameter `name` (`None` for `none`).
    ///
    /// # Errors
    /// As [`Args::int`].
    pub fn opt_float(&self, name: &str) -> Result<Option<f64>> {
        match self.get(name)? {
            Value::Float(v) => Ok(Some(v)),
            Value::None => Ok(None),
            _ => Err(self.mismatch(name, "an optional number")),
        }
    }

    /// Number-or-auto parameter `name` (`None` for `auto`).
    ///
    /// # Errors
    /// As [`Args::int`].
    pub fn float_or_auto(&self, name: &str) -> Result<Option<f64>> {
        match self.get(name)? {
            Value::Float(v) => Ok(Some(v)),
            Value::Auto => Ok(None),
            _ => Err(self.mismatch(name, "a number or auto")),
        }
    }

    /// Boolean parameter `name`.
    ///
    /// # Errors
    /// As [`Args::int`].
    pub fn bool(&self, name: &str) -> Result<bool> {
        match self.get(name)? {
            Value::Bool(v) => Ok(v),
            _ => Err(self.mismatch(name, "a bool")),
        }
    }

    /// The word of choice parameter `name` (one of its declared words).
    ///
    /// # Errors
    /// As [`Args::int`].
    pub fn choice(&self, name: &str) -> Result<&'static str> {
        match self.get(name)? {
            Value::Choice(w) => Ok(w),
            _ => Err(self.mismatch(name, "a choice")),
        }
    }

    /// `max_features` parameter `name`; `None` = auto.
    ///
    /// # Errors
    /// As [`Args::int`].
    pub fn max_features(&self, name: &str) -> Result<Option<MaxFeatures>> {
        match self.get(name)? {
            Value::MaxFeatures(m) => Ok(m),
            _ => Err(self.mismatch(name, "max_features")),
        }
    }

    /// An error for a choice word the method's item does not handle (a
    /// bug of the item, reported instead of panicking).
    pub fn unhandled(&self, name: &str, word: &str) -> Error {
        Error::Internal(format!(
            "method '{}': value '{word}' of '{name}' is declared but not handled",
            self.method
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_parse_and_print_canonically() {
        let k = ParamKind::OptInt { min: 1 };
        assert_eq!(k.parse("none"), Some(Value::None));
        assert_eq!(k.parse("3"), Some(Value::Int(3)));
        assert_eq!(k.parse("0"), None);
        assert_eq!(k.parse("-1"), None);
        assert_eq!(
            ParamKind::Float.parse("1e-2").map(|v| v.to_string()),
            Some("0.01".into())
        );
        assert_eq!(ParamKind::Float.parse("inf"), None);
        assert_eq!(ParamKind::Bool.parse("TRUE"), Some(Value::Bool(true)));
        let c = ParamKind::Choice(&["gini", "entropy"]);
        assert_eq!(c.parse("Entropy"), Some(Value::Choice("entropy")));
        assert_eq!(c.parse("mse"), None);
        let m = ParamKind::MaxFeatures;
        assert_eq!(
            m.parse("sqrt"),
            Some(Value::MaxFeatures(Some(MaxFeatures::Sqrt)))
        );
        assert_eq!(
            m.parse("4"),
            Some(Value::MaxFeatures(Some(MaxFeatures::Count(4))))
        );
        assert_eq!(
            m.parse("0.5"),
            Some(Value::MaxFeatures(Some(MaxFeatures::Fraction(0.5))))
        );
        assert_eq!(m.parse("1.5"), None);
        assert_eq!(m.parse("0"), None);
        for text in ["auto", "all", "sqrt", "log2", "4", "0.25"] {
            let v = m.parse(text).unwrap();
            assert_eq!(v.to_string(), text);
        }
    }

    #[test]
    fn key_values_split_at_the_first_equals() {
        let kv = parse_key_values(&["a=1", " b = x=y "]).unwrap();
        assert_eq!(
            kv,
            vec![("a".into(), "1".into()), ("b".into(), "x=y".into())]
        );
        assert!(matches!(
            parse_key_values(&["novalue"]),
            Err(Error::NotKeyValue { .. })
        ));
        assert!(matches!(
            parse_key_values(&["=3"]),
            Err(Error::NotKeyValue { .. })
        ));
    }
}
