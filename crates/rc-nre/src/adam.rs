//! Adam (Kingma & Ba 2015) over a flat parameter vector.

use serde::{Deserialize, Serialize};

/// The Adam optimiser's state: first and second moment estimates and the
/// step count.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Adam {
    learning_rate: f64,
    beta1: f64,
    beta2: f64,
    epsilon: f64,
    m: Vec<f64>,
    v: Vec<f64>,
    t: i32,
}

impl Adam {
    /// A fresh optimiser for `n` parameters.
    pub fn new(n: usize, learning_rate: f64, beta1: f64, beta2: f64, epsilon: f64) -> Adam {
        Adam {
            learning_rate,
            beta1,
            beta2,
            epsilon,
            m: vec![0.0; n],
            v: vec![0.0; n],
            t: 0,
        }
    }

    /// Number of steps taken.
    pub fn steps(&self) -> i32 {
        self.t
    }

    /// One update `θ ← θ − α m̂ / (√v̂ + ε)` with bias-corrected moments.
    pub fn step(&mut self, params: &mut [f64], grad: &[f64]) {
        self.t = self.t.saturating_add(1);
        let (b1, b2) = (self.beta1, self.beta2);
        let c1 = 1.0 - b1.powi(self.t);
        let c2 = 1.0 - b2.powi(self.t);
        let step = self.learning_rate / c1;
        let inv_c2 = 1.0 / c2;
        for (((p, &g), m), v) in params
            .iter_mut()
            .zip(grad)
            .zip(self.m.iter_mut())
            .zip(self.v.iter_mut())
        {
            *m = b1 * *m + (1.0 - b1) * g;
            *v = b2 * *v + (1.0 - b2) * g * g;
            *p -= step * *m / ((*v * inv_c2).sqrt() + self.epsilon);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_step_moves_each_parameter_by_the_learning_rate() {
        let mut adam = Adam::new(3, 0.01, 0.9, 0.999, 1e-8);
        let mut p = vec![1.0, -2.0, 0.5];
        adam.step(&mut p, &[3.0, -0.5, 0.0]);
        assert!((p[0] - 0.99).abs() < 1e-9);
        assert!((p[1] + 1.99).abs() < 1e-9);
        assert_eq!(p[2], 0.5);
    }

    #[test]
    fn minimises_a_quadratic() {
        let mut adam = Adam::new(2, 0.05, 0.9, 0.999, 1e-8);
        let mut p = vec![3.0, -4.0];
        for _ in 0..2000 {
            let g = vec![2.0 * (p[0] - 1.0), 2.0 * (p[1] + 2.0)];
            adam.step(&mut p, &g);
        }
        assert!(
            (p[0] - 1.0).abs() < 1e-3 && (p[1] + 2.0).abs() < 1e-3,
            "{p:?}"
        );
    }
}
