//! Models and solutions survive a serde round trip; a corrupted deserialised
//! model is rejected by validation instead of panicking.

use rc_lp::{Error, LpSolution, LpSolver, MinilpSolver, MipOptions, MipSolution, MipSolver, Model};

#[test]
fn model_and_solutions_round_trip() {
    let mut m = Model::minimize();
    let x = m.add_continuous(0.0, 4.0, 2.0);
    let y = m.add_binary(3.0);
    m.set_var_name(x, "x").unwrap();
    m.add_ge(&[(x, 1.0), (y, 1.0)], 1.5).unwrap();
    let json = serde_json::to_string(&m).unwrap();
    let back: Model = serde_json::from_str(&json).unwrap();
    assert_eq!(back, m);

    let lp = MinilpSolver::new().solve_lp(&m).unwrap();
    let lp_back: LpSolution = serde_json::from_str(&serde_json::to_string(&lp).unwrap()).unwrap();
    assert_eq!(lp_back, lp);
    let mip = MinilpSolver::new()
        .solve_mip(&m, &MipOptions::default())
        .unwrap();
    let mip_back: MipSolution =
        serde_json::from_str(&serde_json::to_string(&mip).unwrap()).unwrap();
    assert_eq!(mip_back, mip);

    // Non-finite objective values survive too (an infeasible LP has objective +inf).
    let mut inf = Model::minimize();
    inf.add_ge(&[], 1.0).unwrap();
    let sol = MinilpSolver::new().solve_lp(&inf).unwrap();
    let back: LpSolution = serde_json::from_str(&serde_json::to_string(&sol).unwrap()).unwrap();
    assert_eq!(back.objective, f64::INFINITY);
    assert!(serde_json::from_str::<Model>(&json.replace("\"inf\"", "\"huge\"")).is_err());
}

#[test]
fn corrupted_model_is_rejected() {
    let mut m = Model::minimize();
    let x = m.add_continuous(0.0, 1.0, 1.0);
    m.add_ge(&[(x, 1.0)], 0.5).unwrap();
    let json = serde_json::to_string(&m).unwrap();
    // Point the matrix entry at a row that does not exist.
    let bad = json.replace("[[[0,1.0]]]", "[[[7,1.0]]]");
    assert!(
        json.contains("\"inf\""),
        "infinite bounds as strings: {json}"
    );
    assert_ne!(bad, json, "fixture must change: {json}");
    let bad: Model = serde_json::from_str(&bad).unwrap();
    assert!(matches!(
        MinilpSolver::new().solve_lp(&bad),
        Err(Error::UnknownRow { index: 7, .. })
    ));
}
