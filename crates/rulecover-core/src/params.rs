//! Checked parameters: learning parameters are validated once per fit, and
//! the code after the check takes a [`Checked`] reference, which only
//! [`Checked::new`] can build, that is, only validation.
//!
//! The pattern follows linfa's `ParamGuard`: a learner's parameter type
//! implements [`CheckParams`]; [`crate::Fit`]'s provided methods check them
//! and hand the [`Checked`] parameters to the learner's one required
//! method, [`crate::Fit::fit_checked`], which therefore never validates
//! again, nor does anything it calls with them.
//!
//! ```
//! use rulecover_core::{CheckParams, Checked};
//!
//! struct Ridge {
//!     lambda: f64,
//! }
//!
//! impl CheckParams for Ridge {
//!     type ParamError = String;
//!     fn check_params(&self) -> Result<(), String> {
//!         if self.lambda >= 0.0 {
//!             Ok(())
//!         } else {
//!             Err(format!("lambda = {} must be >= 0", self.lambda))
//!         }
//!     }
//! }
//!
//! /// Needs valid parameters, and says so in its signature.
//! fn penalty(p: Checked<'_, Ridge>, coef: f64) -> f64 {
//!     p.lambda * coef * coef
//! }
//!
//! let ok = Ridge { lambda: 0.5 };
//! assert_eq!(penalty(Checked::new(&ok)?, 2.0), 2.0);
//! assert!(Checked::new(&Ridge { lambda: -1.0 }).is_err());
//! # Ok::<(), String>(())
//! ```

use std::fmt;
use std::ops::Deref;

/// Parameters whose ranges can be checked before a fit.
pub trait CheckParams {
    /// What an invalid parameter is reported as (the learner's error type).
    type ParamError;

    /// Checks every parameter's range and the parameters' consistency,
    /// naming the first invalid parameter in the error.
    fn check_params(&self) -> Result<(), Self::ParamError>;
}

/// Parameters that passed [`CheckParams::check_params`]: a reference that
/// only [`Checked::new`] builds. Functions that need valid parameters take
/// it instead of validating again; it dereferences to the parameters.
pub struct Checked<'a, P: ?Sized>(&'a P);

impl<'a, P: CheckParams + ?Sized> Checked<'a, P> {
    /// Checks `params` and, when they are valid, vouches for them.
    ///
    /// # Errors
    /// The error of [`CheckParams::check_params`].
    pub fn new(params: &'a P) -> Result<Self, P::ParamError> {
        params.check_params()?;
        Ok(Checked(params))
    }
}

impl<'a, P: ?Sized> Checked<'a, P> {
    /// The checked parameters, for the lifetime of the original borrow.
    pub fn get(self) -> &'a P {
        self.0
    }
}

impl<P: ?Sized> Deref for Checked<'_, P> {
    type Target = P;

    fn deref(&self) -> &P {
        self.0
    }
}

impl<P: ?Sized> Clone for Checked<'_, P> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<P: ?Sized> Copy for Checked<'_, P> {}

impl<P: fmt::Debug + ?Sized> fmt::Debug for Checked<'_, P> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("Checked").field(&self.0).finish()
    }
}
