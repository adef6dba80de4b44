//! Regression cases of issue 35: the mutated model files that panicked
//! before models validated themselves on load are errors naming the
//! field ([`rulecover::Error::InvalidModel`]).

mod common;

use serde_json::Value;

use rulecover::{fit, Error, FittedModel};
use rulecover_core::{generate, Dataset};

/// A model of `id` fitted on `data` with its smoke parameters, as JSON.
fn saved(id: &str, data: &Dataset) -> Value {
    let model = fit(id, &common::small(id), data, None, 5).unwrap();
    serde_json::from_str(&model.to_json().unwrap()).unwrap()
}

/// Loads `file` and returns the field the error names.
fn invalid_field(file: &Value) -> String {
    match FittedModel::from_json(&file.to_string()) {
        Err(Error::InvalidModel { field, message, .. }) => {
            assert!(!message.is_empty());
            field
        }
        Err(e) => panic!("another error: {e}"),
        Ok(_) => panic!("the mutated model loaded"),
    }
}

/// The first JSON pointer below `root` whose last key is `key` and whose
/// value is a number.
fn first_number(root: &Value, pointer: &str, key: &str) -> Option<String> {
    match root {
        Value::Object(map) => map.iter().find_map(|(k, v)| {
            let p = format!("{pointer}/{k}");
            if k == key && v.is_number() {
                Some(p)
            } else {
                first_number(v, &p, key)
            }
        }),
        Value::Array(items) => items
            .iter()
            .enumerate()
            .find_map(|(i, v)| first_number(v, &format!("{pointer}/{i}"), key)),
        _ => None,
    }
}

/// The field path the registry names for a JSON pointer (`/model/rules/0/x`
/// is `model.rules[0].x`).
fn field_of(pointer: &str) -> String {
    let mut s = String::new();
    for part in pointer.trim_start_matches('/').split('/') {
        if part.parse::<usize>().is_ok() {
            s.push_str(&format!("[{part}]"));
        } else {
            if !s.is_empty() {
                s.push('.');
            }
            s.push_str(part);
        }
    }
    s
}

/// Sets the first numeric `key` below `/model` to `value` and checks that
/// loading names exactly that field.
fn out_of_range(id: &str, data: &Dataset, key: &str, value: Value) {
    let mut file = saved(id, data);
    let pointer =
        first_number(&file["model"], "/model", key).unwrap_or_else(|| panic!("{id}: no '{key}'"));
    *file.pointer_mut(&pointer).unwrap() = value;
    assert_eq!(invalid_field(&file), field_of(&pointer), "{id}");
}

#[test]
fn rule_features_out_of_range_are_named() {
    let data = generate::twonorm(80, 3);
    // vote.rs (MIRCO, RCBoost) and rule.rs (RUX, RUG) indexed rows by them.
    for id in ["mirco", "rcboost", "rux-rf", "rug"] {
        out_of_range(id, &data, "feature", Value::from(1_000_000));
    }
    // GLRM's terms (RuleFit's rules; model.rs indexed the row).
    out_of_range("rulefit", &data, "feature", Value::from(20));
}

#[test]
fn non_finite_numbers_are_named() {
    let data = generate::twonorm(80, 3);
    let mut file = saved("lrr", &data);
    file["model"]["intercept"] = Value::from("nan");
    assert_eq!(invalid_field(&file), "model.intercept");
    let mut file = saved("ada", &data);
    file["model"]["estimator_weights"][0] = Value::from("inf");
    assert_eq!(invalid_field(&file), "model.estimator_weights[0]");
}

#[test]
fn an_nre_network_of_another_shape_is_named() {
    // nalgebra panicked on the mismatched shapes.
    let data = generate::twonorm(80, 3);
    let mut file = saved("nre", &data);
    let q = file["model"]["network"]["q"].as_u64().unwrap();
    file["model"]["network"]["q"] = Value::from(q + 1);
    assert_eq!(invalid_field(&file), "model.network.layout");
    let mut file = saved("nre", &data);
    file["model"]["network"]["params"]
        .as_array_mut()
        .unwrap()
        .pop();
    assert_eq!(invalid_field(&file), "model.network.params");
}

#[test]
fn a_schema_naming_other_classes_than_the_model_is_named() {
    // "predictions have 2 classes but the model names 1" (exit 1) before.
    let data = generate::twonorm(80, 3);
    for id in ["lrr", "dt", "nre"] {
        let mut file = saved(id, &data);
        file["schema"]["target"]["Classes"]
            .as_array_mut()
            .unwrap()
            .pop();
        assert_eq!(invalid_field(&file), "schema.target", "{id}");
    }
}

#[test]
fn a_one_vs_rest_model_needs_one_model_per_class() {
    let data = generate::blobs(90, 3, 4, 21);
    let mut file = saved("lrr", &data);
    file["model"]["models"].as_array_mut().unwrap().pop();
    assert_eq!(invalid_field(&file), "model.models");
}
