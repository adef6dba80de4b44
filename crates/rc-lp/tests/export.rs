//! LP and MPS export (test 7): exact expected text for a small model covering
//! every row type, bound type and variable kind, plus round trips through minilp's
//! MPS reader and (feature `cbc`) CBC's MPS reader.
//!
//! Note: libcbc `assert`s (aborting the process) when it cannot parse an MPS file,
//! so a format regression shows up as an abort of this test binary.

mod common;

use rc_lp::{LpSolver, MinilpSolver, Model};

const INF: f64 = f64::INFINITY;

/// max 3x + 2y − z + 0.5w over all row types and bound kinds.
fn demo() -> Model {
    let mut m = Model::maximize();
    m.set_name("demo");
    let x = m.add_continuous(0.0, 10.0, 3.0);
    let y = m.add_binary(2.0);
    let z = m.add_integer(-5.0, INF, -1.0);
    let w = m.add_continuous(-INF, INF, 0.5);
    m.set_var_name(x, "x").unwrap();
    m.set_var_name(y, "use y").unwrap(); // sanitised to use_y
    let cap = m.add_le(&[(x, 1.0), (y, 1.0), (w, 1.0)], 4.0).unwrap();
    m.set_row_name(cap, "cap").unwrap();
    m.add_ge(&[(x, 1.0), (y, 3.0)], 2.0).unwrap();
    m.add_eq(&[(x, 1.0), (z, -1.0)], 1.0).unwrap();
    m.add_range(-1.0, &[(y, 1.0), (z, -2.5), (w, -1.0)], 5.0)
        .unwrap();
    m
}

const DEMO_LP: &str = r"\ Problem name: demo
Maximize
 obj: 3 x + 2 use_y - x2 + 0.5 x3
Subject To
 cap: x + use_y + x3 <= 4
 r1: x + 3 use_y >= 2
 r2: x - x2 = 1
 r3_lo: use_y - 2.5 x2 - x3 >= -1
 r3_hi: use_y - 2.5 x2 - x3 <= 5
Bounds
 0 <= x <= 10
 x2 >= -5
 x3 free
Generals
 x2
Binaries
 use_y
End
";

const DEMO_MPS: &str = "NAME          demo
OBJSENSE
    MAX
ROWS
 N  obj
 L  cap
 G  r1
 E  r2
 L  r3
COLUMNS
    x         obj                  3
    x         cap                  1
    x         r1                   1
    x         r2                   1
    MARKER0   'MARKER'                 'INTORG'
    use_y     obj                  2
    use_y     cap                  1
    use_y     r1                   3
    use_y     r3                   1
    x2        obj                 -1
    x2        r2                  -1
    x2        r3                -2.5
    MARKER1   'MARKER'                 'INTEND'
    x3        obj                0.5
    x3        cap                  1
    x3        r3                  -1
RHS
    RHS       cap                  4
    RHS       r1                   2
    RHS       r2                   1
    RHS       r3                   5
RANGES
    RNG       r3                   6
BOUNDS
 UP BND       x                   10
 BV BND       use_y
 LO BND       x2                  -5
 PL BND       x2
 FR BND       x3
ENDATA
";

#[test]
fn lp_text_is_as_expected() {
    assert_eq!(demo().to_lp_string(), DEMO_LP);
    let mut buf = Vec::new();
    rc_lp::write_lp(&demo(), &mut buf).unwrap();
    assert_eq!(String::from_utf8(buf).unwrap(), DEMO_LP);
}

#[test]
fn mps_text_is_as_expected() {
    assert_eq!(demo().to_mps_string(), DEMO_MPS);
    let mut buf = Vec::new();
    rc_lp::write_mps(&demo(), &mut buf).unwrap();
    assert_eq!(String::from_utf8(buf).unwrap(), DEMO_MPS);
}

#[test]
fn long_rows_are_wrapped_in_lp() {
    let mut m = Model::minimize();
    let v: Vec<_> = (0..20).map(|_| m.add_continuous(0.0, 1.0, 1.0)).collect();
    let terms: Vec<_> = v.iter().map(|&x| (x, 1.0)).collect();
    m.add_ge(&terms, 1.0).unwrap();
    let lp = m.to_lp_string();
    assert!(lp.lines().all(|l| l.len() < 120), "{lp}");
}

/// Minimisation LPs written as MPS and read back by minilp's own MPS parser have
/// the same optimum.
#[test]
fn mps_round_trip_through_minilp_reader() {
    for seed in 0..16u64 {
        let mut m = common::random_lp(seed, 6, 6);
        m.set_sense(rc_lp::Sense::Minimize);
        for j in 0..m.num_vars() {
            // Keep the LP bounded after forcing the sense: box every variable.
            let v = m.var_id(j).unwrap();
            m.set_var_bounds(v, -10.0, 10.0).unwrap();
        }
        let ours = MinilpSolver::new().solve_lp(&m).unwrap();
        let text = m.to_mps_string();
        let parsed =
            minilp::MpsFile::parse(text.as_bytes(), minilp::OptimizationDirection::Minimize)
                .unwrap();
        match parsed.problem.solve() {
            Ok(sol) => {
                assert!(ours.is_optimal());
                assert!(
                    (sol.objective() - ours.objective).abs() < 1e-6,
                    "seed {seed}"
                );
            }
            Err(_) => assert!(!ours.is_optimal(), "seed {seed}"),
        }
    }
}

/// The demo MIP (max sense, ranges, markers, all bound types) read back by CBC has
/// the same optimum as solving the model directly.
#[cfg(feature = "cbc")]
#[test]
fn mps_round_trip_through_cbc_reader() {
    use coin_cbc::raw::Model as Raw;
    use rc_lp::{MipOptions, MipSolver};
    let m = demo();
    let direct = MinilpSolver::new()
        .solve_mip(&m, &MipOptions::default())
        .unwrap();
    let path = std::env::temp_dir().join(format!("rc_lp_demo_{}.mps", std::process::id()));
    std::fs::write(&path, m.to_mps_string()).unwrap();
    let cpath = std::ffi::CString::new(path.to_str().unwrap()).unwrap();
    let mut raw = Raw::new();
    raw.set_log_level(0);
    raw.read_mps(&cpath);
    let _ = std::fs::remove_file(&path);
    // CoinMpsIO ignores the OBJSENSE section: restate the sense.
    raw.set_obj_sense(coin_cbc::raw::Sense::Maximize);
    assert_eq!(raw.num_cols(), 4);
    assert_eq!(raw.num_rows(), 4);
    raw.solve();
    assert!(raw.is_proven_optimal());
    assert!(
        (raw.obj_value() - direct.objective).abs() < 1e-6,
        "cbc {} vs ours {}",
        raw.obj_value(),
        direct.objective
    );
}
