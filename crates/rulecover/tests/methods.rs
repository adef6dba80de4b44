//! Every item of [`rulecover::METHODS`] round-trips: its spec resolves
//! (id, aliases, every default), it fits generated data of every task it
//! declares, and the model saves, loads and predicts bit for bit as
//! before, with the same rules and the same file. Nothing here names a
//! method: a new item is covered as soon as it is listed.

mod common;

use rc_logic::data::{Problem, SplitText};
use rulecover::{
    fit, fit_relational, method, FittedModel, Learner, MethodSpec, RelationalFit, Task, METHODS,
};
use rulecover_core::{generate, Dataset};

use common::{binary, bits, regression, small, temp_dir};

/// Training and test data of a task.
fn data(task: Task) -> (Dataset, Dataset) {
    match task {
        Task::Binary => (binary(), generate::twonorm(40, 4)),
        Task::Multiclass => (
            generate::blobs(150, 3, 4, 21),
            generate::blobs(60, 3, 4, 22),
        ),
        Task::Regression => {
            let data = regression();
            let idx: Vec<usize> = (0..data.n_rows()).collect();
            (
                data.subset(&idx[..90]).unwrap(),
                data.subset(&idx[90..]).unwrap(),
            )
        }
        Task::Relational => unreachable!("tables only"),
    }
}

/// The spec answers to its id and aliases, and every default resolves.
fn check_spec(spec: &MethodSpec) {
    for name in std::iter::once(spec.id).chain(spec.aliases.iter().copied()) {
        assert_eq!(method(name).unwrap().spec(), spec, "{name}");
    }
    assert!(!spec.tasks.is_empty(), "{}", spec.id);
    for (name, _) in spec.smoke {
        assert!(spec.param(name).is_some(), "{}: smoke {name}", spec.id);
    }
}

fn tabular(spec: &MethodSpec) {
    for &task in spec.tasks {
        let (train, test) = data(task);
        let id = spec.id;
        let model =
            fit(id, spec.smoke, &train, None, 5).unwrap_or_else(|e| panic!("{id} {task}: {e}"));
        assert_eq!(model.kind(), id);
        assert_eq!(model.params().len(), spec.params.len(), "{id}");
        assert_eq!(
            model.model().one_vs_rest_classes().is_some(),
            task == Task::Multiclass && spec.one_vs_rest,
            "{id} {task}"
        );
        let dir = temp_dir(&format!("methods-{id}"));
        let path = dir.join("model.json");
        model.save(&path).unwrap();
        let loaded = FittedModel::load(&path).unwrap_or_else(|e| panic!("{id} {task}: {e}"));
        assert_eq!(loaded, model, "{id} {task}");
        assert_eq!(
            bits(&loaded.predict(&test).unwrap()),
            bits(&model.predict(&test).unwrap()),
            "{id} {task}: predictions differ"
        );
        assert_eq!(loaded.rule_set(), model.rule_set(), "{id} {task}");
        // Every tabular model exports (SQL, Python) a program that
        // predicts as the model does.
        assert!(spec.exportable, "{id}");
        let program = loaded
            .program(rulecover_core::UnseenLevel::Error)
            .unwrap_or_else(|e| panic!("{id} {task}: {e}"));
        let aligned = loaded.schema().align(&test, Default::default()).unwrap();
        let (want, got) = (loaded.predict(&test).unwrap(), program.eval(&aligned));
        assert_eq!(want.labels(), got.labels(), "{id} {task}");
        let values = |p: rulecover_core::Predictions| match p {
            rulecover_core::Predictions::Classes { proba, .. } => proba,
            rulecover_core::Predictions::Values(v) => v,
        };
        let (want, got) = (values(want), values(got));
        assert_eq!(want.len(), got.len(), "{id} {task}");
        for (w, g) in want.iter().zip(&got) {
            assert!(
                (w - g).abs() <= 1e-12 * w.abs().max(1.0),
                "{id} {task}: {w} vs {g}"
            );
        }
        assert_eq!(
            loaded.to_json().unwrap(),
            std::fs::read_to_string(&path).unwrap(),
            "{id} {task}"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

/// A small relational problem (BoostSRL texts) with a train and a test
/// split.
fn smokers() -> Problem {
    let set = rulecover::generate::smokers(60, 2).unwrap();
    fn split(s: &rulecover::generate::SplitFiles) -> SplitText<'_> {
        SplitText {
            facts: (&s.facts, "facts"),
            pos: (&s.pos, "pos"),
            neg: (&s.neg, "neg"),
        }
    }
    Problem::from_texts(
        (&set.background, "bk"),
        &set.target,
        split(&set.train),
        Some(split(&set.test)),
    )
    .unwrap()
}

fn relational(spec: &MethodSpec, problem: &Problem) {
    let id = spec.id;
    let fitted = fit_relational(id, spec.smoke, problem, 5).unwrap_or_else(|e| panic!("{id}: {e}"));
    assert_eq!(fitted.kind, id);
    assert_eq!(fitted.params.len(), spec.params.len(), "{id}");
    let dir = temp_dir(&format!("methods-{id}"));
    let path = dir.join("model.json");
    fitted.save(&path).unwrap();
    let loaded = RelationalFit::load(&path).unwrap_or_else(|e| panic!("{id}: {e}"));
    assert_eq!(loaded.kind, id);
    assert_eq!(loaded.params, fitted.params);
    assert_eq!(loaded.seed, 5);
    let test = problem.test.as_ref().unwrap();
    let p = |f: &RelationalFit| -> Vec<u64> {
        f.ensemble
            .predict_proba(test)
            .iter()
            .map(|x| x.to_bits())
            .collect()
    };
    assert_eq!(p(&loaded), p(&fitted), "{id}: predictions differ");
    assert_eq!(
        loaded.to_json().unwrap(),
        std::fs::read_to_string(&path).unwrap(),
        "{id}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn every_method_round_trips() {
    let problem = smokers();
    for m in METHODS {
        let spec = m.spec();
        check_spec(spec);
        match m.learner() {
            Learner::Table(_) => tabular(spec),
            Learner::Relational(_) => relational(spec, &problem),
        }
    }
    // `small` (the tests' settings) is the registry's smoke settings.
    assert_eq!(small("rf"), method("rf").unwrap().spec().smoke);
}
