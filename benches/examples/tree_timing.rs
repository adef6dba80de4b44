//! Times rc-tree's decision tree and random forest (100 trees by default, sqrt
//! features, unlimited depth) on one data set and reports accuracy and the
//! process's peak resident memory, for the comparison with scikit-learn in
//! docs/PERFORMANCE.md.
//!
//! ```text
//! cargo run --release -p rc-benches --example tree_timing -- adult [dt|rf|both] [repeats] [trees]
//! cargo run --release -p rc-benches --example tree_timing -- adult rfseeds 5
//! command time -v target/release/examples/tree_timing adult rf 1
//! RAYON_NUM_THREADS=1 target/release/examples/tree_timing adult rf 3
//! RAYON_NUM_THREADS=1 valgrind --tool=callgrind target/release/examples/tree_timing adult rf 1 20
//! ```
//! The data set is `magic`, `adult` (shared data directory) or `twonorm`
//! (generated, 100 000 rows × 20 features). `trees` (default 100) is the
//! forest's size, e.g. a smaller forest under callgrind.

use std::time::Instant;

use rc_benches::process::{cpu_seconds, peak_mib};
use rc_tree::{DecisionTreeParams, RandomForestParams};
use rulecover_core::{Dataset, Fit};

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// Median wall time, mean CPU time and the last result of `repeats` runs.
fn time<T>(repeats: usize, mut f: impl FnMut() -> T) -> (f64, f64, T) {
    let mut times = Vec::new();
    let mut last = None;
    let cpu0 = cpu_seconds().unwrap_or(0.0);
    let runs = repeats.max(1);
    for _ in 0..runs {
        let t = Instant::now();
        last = Some(f());
        times.push(t.elapsed().as_secs_f64());
    }
    let cpu = (cpu_seconds().unwrap_or(0.0) - cpu0) / runs as f64;
    (median(times), cpu, last.expect("at least one repeat"))
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    let name = args.get(1).map_or("magic", String::as_str);
    let which = args.get(2).map_or("both", String::as_str);
    let repeats: usize = args.get(3).map_or(Ok(5), |s| s.parse())?;
    let trees: usize = args.get(4).map_or(Ok(100), |s| s.parse())?;
    let (train, test): (Dataset, Dataset) = if name == "twonorm" {
        rc_benches::split(&rc_benches::generated(100_000, 1))
    } else {
        rc_benches::load_split(name).ok_or("data set not available")?
    };
    println!(
        "{name}: {} train rows, {} test rows, {} features, {} threads",
        train.n_rows(),
        test.n_rows(),
        train.n_features(),
        rayon_threads()
    );
    let truth = test.labels()?;
    if which == "dt" || which == "both" {
        let params = DecisionTreeParams::classifier();
        let (fit, fit_cpu, model) = time(repeats, || params.fit(&train));
        let model = model?;
        let (pred, _, labels) = time(repeats, || model.predict_labels(&test));
        let acc = rc_benches::accuracy(&labels?, &truth);
        println!(
            "DT fit {fit:.4} s (cpu {fit_cpu:.3} s)  predict {pred:.4} s  accuracy {acc:.4}  leaves {}",
            model.tree().n_leaves()
        );
    }
    if which == "rf" || which == "both" {
        let params = RandomForestParams::classifier().n_estimators(trees);
        let (fit, fit_cpu, model) = time(repeats, || params.fit(&train));
        let model = model?;
        let (pred, _, labels) = time(repeats, || model.predict_labels(&test));
        let acc = rc_benches::accuracy(&labels?, &truth);
        println!(
            "RF fit {fit:.4} s (cpu {fit_cpu:.3} s)  predict {pred:.4} s  accuracy {acc:.4}  leaves {}",
            model.n_leaves()
        );
    }
    if which == "rfseeds" {
        // Test accuracy of RF(100) over seeds 0..repeats.
        let mut accs = Vec::new();
        for seed in 0..repeats as u64 {
            let model = RandomForestParams::classifier()
                .n_estimators(100)
                .seed(seed)
                .fit(&train)?;
            accs.push(rc_benches::accuracy(&model.predict_labels(&test)?, &truth));
        }
        let mean = accs.iter().sum::<f64>() / accs.len() as f64;
        let text: Vec<String> = accs.iter().map(|a| format!("{a:.4}")).collect();
        println!(
            "RF accuracy over seeds 0..{repeats}: mean {mean:.4} [{}]",
            text.join(", ")
        );
    }
    if let Some(mib) = peak_mib("self") {
        println!("peak RSS {mib:.1} MiB");
    }
    Ok(())
}

/// Threads of rayon's global pool (`RAYON_NUM_THREADS`, else the number
/// of cores), which the ensembles fit and predict on.
fn rayon_threads() -> usize {
    rayon::current_num_threads()
}
