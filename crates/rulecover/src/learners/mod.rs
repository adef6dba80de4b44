//! The method items, one unit struct per method implementing
//! [`crate::Method`], grouped by the library crate that learns:
//! each file holds its methods' parameters (with their one default), how
//! they become the crate's params and are fitted, and how their models
//! are read back. [`crate::METHODS`] lists them.
//!
//! Defaults follow the paper's setting where the paper fixes one, and the
//! crate's (scikit-learn's, the authors' code's) default where the paper
//! tunes the value; each parameter's doc names the paper's grid.

pub(crate) mod common;
pub(crate) mod cover;
pub(crate) mod glm;
pub(crate) mod logic;
pub(crate) mod nre;
pub(crate) mod tree;
