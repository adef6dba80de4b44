//! A fitted model as a SQL query or a Python module
//! ([`rulecover_core::scoring`]): the model kind writes its program
//! ([`crate::ModelKind::export`]), this module adds the model file's
//! header and picks the renderer.
//!
//! ```
//! use rulecover::export::{Dialect, SqlOptions};
//! use rulecover_core::generate::twonorm;
//!
//! let data = twonorm(200, 1);
//! let model = rulecover::fit("dt", &[("max_depth", "3")], &data, None, 1)?;
//! let sql = model.to_sql(&SqlOptions::new(Dialect::Sqlite, "patients"))?;
//! assert!(sql.contains("FROM \"patients\""));
//! let python = model.to_python()?;
//! assert!(python.contains("def predict_proba(row):"));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use rulecover_core::scoring::{python, sql, Program};
use rulecover_core::UnseenLevel;

pub use rulecover_core::scoring::sql::{Dialect, SqlOptions, Unseen};

use crate::error::{Error, Result};
use crate::fitted::FittedModel;

impl FittedModel {
    /// The model as a scoring program over the raw columns of its
    /// training schema, reading an unseen categorical level as `unseen`
    /// says ([`FittedModel::predict_with`]'s policies).
    ///
    /// # Errors
    /// [`Error::Export`] with the model kind's reason.
    pub fn program(&self, unseen: UnseenLevel) -> Result<Program> {
        let lenient = match unseen {
            UnseenLevel::Missing => self.model.reading_missing_as_literals(),
            UnseenLevel::Error => None,
        };
        lenient
            .as_ref()
            .unwrap_or(&self.model)
            .program(&self.schema)
            .map_err(|source| Error::Export {
                method: self.kind().into(),
                source,
            })
    }

    /// The model as one SQL `SELECT` over `options.table`
    /// ([`rulecover_core::scoring::sql`]), opened by a comment naming the
    /// method, its parameters and the engine.
    ///
    /// # Errors
    /// [`Error::Export`] for a model that cannot be written or options
    /// that do not fit it (a kept column named like an output column).
    pub fn to_sql(&self, options: &SqlOptions) -> Result<String> {
        let unseen = match options.unseen {
            Unseen::Null => UnseenLevel::Error,
            Unseen::Missing => UnseenLevel::Missing,
        };
        let program = self.program(unseen)?;
        let query = sql::to_sql(&program, options).map_err(|source| Error::Export {
            method: self.kind().into(),
            source,
        })?;
        let header = self
            .header()
            .lines()
            .map(|l| format!("-- {l}\n"))
            .collect::<String>();
        Ok(format!(
            "{header}-- dialect: {}; output columns: {}\n{query};\n",
            options.dialect.name(),
            options
                .keep
                .iter()
                .cloned()
                .chain(sql::output_columns(&program))
                .collect::<Vec<_>>()
                .join(", ")
        ))
    }

    /// The model as one dependency-free Python module with
    /// `predict(row)` and `predict_proba(row)`
    /// ([`rulecover_core::scoring::python`]).
    ///
    /// # Errors
    /// [`Error::Export`] for a model that cannot be written.
    pub fn to_python(&self) -> Result<String> {
        let program = self.program(UnseenLevel::Error)?;
        Ok(python::to_python(&program, &self.header()))
    }

    /// What an export says of its model: the method, its parameters, the
    /// seed, the rulecover version.
    fn header(&self) -> String {
        let params = self
            .params()
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect::<Vec<_>>()
            .join(" ");
        format!(
            "rulecover {} export of a '{}' model (seed {})\nparameters: {params}\n\
             computes `rulecover predict --proba --keep-missing` for each row",
            env!("CARGO_PKG_VERSION"),
            self.kind(),
            self.seed()
        )
    }
}
