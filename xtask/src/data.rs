//! Where suites get their data: the shared data directory when there is
//! one, else data sets the project generates itself.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use rulecover_core::shared::{locate_data_dir, SharedData, Task};
use rulecover_core::Dataset;

use crate::error::{Error, Result};

/// Data sets made by `rulecover_core::generate`, usable without a data directory.
pub const GENERATED: &[&str] = &["tictactoe", "twonorm", "ringnorm", "xor"];

/// Rows drawn for the random generated data sets.
const GENERATED_ROWS: usize = 1000;

/// The data a run uses, with a per-process cache of loaded sets.
pub struct DataSource {
    shared: Option<SharedData>,
    tried: Vec<PathBuf>,
    cache: Mutex<HashMap<String, Dataset>>,
}

impl DataSource {
    /// Finds the data directory (`--data-dir`, `$RC_DATA_DIR`,
    /// `../shared/datasets`). An explicit directory that does not exist is
    /// an error; otherwise a missing directory leaves only generated data.
    pub fn resolve(explicit: Option<&Path>) -> Result<Self> {
        match locate_data_dir(explicit) {
            Ok(dir) => Ok(DataSource {
                shared: Some(SharedData::open(&dir)?),
                tried: Vec::new(),
                cache: Mutex::new(HashMap::new()),
            }),
            Err(tried) => {
                if let Some(p) = explicit {
                    return Err(Error::Usage(format!(
                        "--data-dir {}: no manifest.json there",
                        p.display()
                    )));
                }
                Ok(DataSource {
                    shared: None,
                    tried,
                    cache: Mutex::new(HashMap::new()),
                })
            }
        }
    }

    /// A source with no data directory: only generated data sets.
    #[cfg(test)]
    pub fn generated_only() -> Self {
        DataSource {
            shared: None,
            tried: Vec::new(),
            cache: Mutex::new(HashMap::new()),
        }
    }

    /// The opened data directory, if any.
    pub fn shared(&self) -> Option<&SharedData> {
        self.shared.as_ref()
    }

    /// A message saying where data was looked for and how to provide it.
    pub fn missing_message(&self) -> String {
        let tried: Vec<String> = self.tried.iter().map(|p| p.display().to_string()).collect();
        format!(
            "no data directory found (looked in: {}). Pass --data-dir DIR or set RC_DATA_DIR \
             to a folder with manifest.json (the project's shared/datasets); \
             using generated data sets ({}) instead",
            tried.join(", "),
            GENERATED.join(", ")
        )
    }

    /// Whether `name` can be loaded.
    pub fn has(&self, name: &str) -> bool {
        match &self.shared {
            Some(s) => s.entry(name).is_ok(),
            None => GENERATED.contains(&name),
        }
    }

    /// The task of a data set as the manifest records it (the generated
    /// data sets are binary), if the source has it.
    pub fn task(&self, name: &str) -> Option<Task> {
        match &self.shared {
            Some(s) => s.entry(name).ok().map(|e| e.task),
            None => GENERATED.contains(&name).then_some(Task::Binary),
        }
    }

    /// Number of rows of a data set (for picking the smallest), if known
    /// without loading.
    pub fn rows(&self, name: &str) -> Option<usize> {
        match &self.shared {
            Some(s) => s.entry(name).ok().and_then(|e| e.rows),
            None => Some(if name == "tictactoe" {
                958
            } else {
                GENERATED_ROWS
            }),
        }
    }

    /// Loads a data set (cached): from the data directory when there is
    /// one, else generated.
    pub fn load(&self, name: &str) -> Result<Dataset> {
        if let Ok(cache) = self.cache.lock() {
            if let Some(d) = cache.get(name) {
                return Ok(d.clone());
            }
        }
        let data = match &self.shared {
            Some(s) => s.load(name)?,
            None => generate(name)?,
        };
        if let Ok(mut cache) = self.cache.lock() {
            cache.insert(name.to_string(), data.clone());
        }
        Ok(data)
    }
}

/// Makes one of the [`GENERATED`] data sets (fixed seeds: the data do not
/// depend on the run's seed, only the folds and models do).
pub fn generate(name: &str) -> Result<Dataset> {
    use rulecover_core::generate;
    Ok(match name {
        "tictactoe" => generate::tictactoe(),
        "twonorm" => generate::twonorm(GENERATED_ROWS, 1),
        "ringnorm" => generate::ringnorm(GENERATED_ROWS, 2),
        "xor" => generate::rotated_xor(GENERATED_ROWS, 4, std::f64::consts::FRAC_PI_6, 3),
        other => {
            return Err(Error::Usage(format!(
                "data set '{other}' needs a data directory; generated ones are {}",
                GENERATED.join(", ")
            )))
        }
    })
}
