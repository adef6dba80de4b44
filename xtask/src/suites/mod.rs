//! Benchmark suites: one module per paper (plus the tree baselines, the
//! `generic` suite over any manifest and the `quality` suite of the
//! learners' defaults on generated data). A
//! suite names its data sets and methods and runs one (data set, method,
//! outer fold) job at a time; the harness does everything else. The trait
//! and the job types are in [`suite`], the shared scoring in [`scoring`];
//! this file lists the suites ([`all`]).

pub mod generic;
pub mod paper000;
pub mod paper001;
pub mod paper002;
pub mod paper003;
pub mod paper004;
pub mod quality;
pub mod relational;
pub mod scoring;
pub mod suite;
pub mod tuning;

use suite::Suite;

/// Every suite, in the order `cargo xtask bench` runs them.
pub fn all() -> Vec<Box<dyn Suite>> {
    vec![
        Box::new(paper000::Paper000 {
            baselines_only: true,
        }),
        Box::new(paper000::Paper000 {
            baselines_only: false,
        }),
        Box::new(relational::Relational),
        Box::new(paper003::Paper003),
        Box::new(paper001::Paper001),
        Box::new(paper002::Paper002),
        Box::new(paper002::Paper002Curves),
        Box::new(paper004::Paper004::default()),
        Box::new(generic::Generic::default()),
        Box::new(quality::Quality::default()),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every method name of every suite is an id or alias of the one
    /// method registry (crate `rulecover`), which the command line and
    /// the Python package use too; ZeroR is the runner's own floor,
    /// `curves` paper002's λ sweep of the GLRMs (not a method) and
    /// quality's RUX-RF base registry `rf` with other parameters.
    #[test]
    fn suite_methods_map_onto_the_registry() {
        let mut unmapped = Vec::new();
        for suite in all() {
            for name in suite.methods() {
                let own = name == "ZeroR" || name == "curves" || name == quality::RUX_BASE;
                if !own && rulecover::method(name).is_err() {
                    unmapped.push(format!("{}/{name}", suite.name()));
                }
            }
        }
        assert!(unmapped.is_empty(), "not in the registry: {unmapped:?}");
    }
}
