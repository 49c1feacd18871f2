//! Fitting the two logistic models, in plain f64 arithmetic in a fixed order, so that
//! the same rows give the same weights on any x86-64 processor.
//!
//! * The ranker is a conditional logit: within a question, the probability of a
//!   candidate is the softmax of the scores of all its candidates, and the loss is
//!   minus the log of the probability mass on the candidates that hold the answer (a
//!   short answer may stand in several sentences). Only differences of scores within
//!   a question matter, which is how the composer uses them.
//! * The outcome is a binary logistic regression.
//!
//! Both standardise their features on the training rows, add an L2 penalty, and are
//! minimised by Newton steps (the outcome's Hessian; for the ranker, the softmax
//! covariance, which is positive definite) with a backtracking line search. The
//! penalty is chosen by a seeded split of the training questions.

/// Feature scaling: weights are fitted on `(x - mean) / scale` and returned on the raw
/// features.
#[derive(Debug, Clone)]
struct Scaling {
    mean: Vec<f64>,
    scale: Vec<f64>,
}

impl Scaling {
    fn of<'a>(rows: impl Iterator<Item = &'a [f64]>, d: usize) -> Self {
        let (mut n, mut sum, mut sq) = (0.0, vec![0.0; d], vec![0.0; d]);
        for x in rows {
            n += 1.0;
            for j in 0..d {
                sum[j] += x[j];
                sq[j] += x[j] * x[j];
            }
        }
        let n = f64::max(n, 1.0);
        let mean: Vec<f64> = sum.iter().map(|s| s / n).collect();
        let scale = (0..d)
            .map(|j| {
                let var = sq[j] / n - mean[j] * mean[j];
                // A feature that never varies carries nothing: weight 0.
                if var > 1e-12 { var.sqrt() } else { 0.0 }
            })
            .collect();
        Self { mean, scale }
    }

    fn apply(&self, x: &[f64]) -> Vec<f64> {
        x.iter()
            .enumerate()
            .map(|(j, v)| {
                if self.scale[j] > 0.0 {
                    (v - self.mean[j]) / self.scale[j]
                } else {
                    0.0
                }
            })
            .collect()
    }

    /// Raw weights and bias from standardised ones.
    fn unscale(&self, w: &[f64], b: f64) -> (Vec<f64>, f64) {
        let raw: Vec<f64> = w
            .iter()
            .enumerate()
            .map(|(j, wj)| {
                if self.scale[j] > 0.0 {
                    wj / self.scale[j]
                } else {
                    0.0
                }
            })
            .collect();
        let bias = b - raw.iter().zip(&self.mean).map(|(w, m)| w * m).sum::<f64>();
        (raw, bias)
    }
}

/// Solves `a x = b` for a symmetric positive definite `a` (Cholesky); `None` if it is
/// not positive definite.
fn solve(a: &[Vec<f64>], b: &[f64]) -> Option<Vec<f64>> {
    let n = b.len();
    let mut l = vec![vec![0.0; n]; n];
    for i in 0..n {
        for j in 0..=i {
            let s: f64 = (0..j).map(|k| l[i][k] * l[j][k]).sum();
            if i == j {
                let v = a[i][i] - s;
                if v <= 0.0 {
                    return None;
                }
                l[i][j] = v.sqrt();
            } else {
                l[i][j] = (a[i][j] - s) / l[j][j];
            }
        }
    }
    let mut y = vec![0.0; n];
    for i in 0..n {
        y[i] = (b[i] - (0..i).map(|k| l[i][k] * y[k]).sum::<f64>()) / l[i][i];
    }
    let mut x = vec![0.0; n];
    for i in (0..n).rev() {
        x[i] = (y[i] - (i + 1..n).map(|k| l[k][i] * x[k]).sum::<f64>()) / l[i][i];
    }
    Some(x)
}

/// A `d`×`d` matrix with `v` on its diagonal.
fn ridge(d: usize, v: f64) -> Vec<Vec<f64>> {
    (0..d)
        .map(|i| (0..d).map(|j| if i == j { v } else { 0.0 }).collect())
        .collect()
}

/// Copies the lower triangle of `m` (where the sums were kept) onto the upper one.
fn symmetrize(m: &mut [Vec<f64>]) {
    for a in 1..m.len() {
        let (top, bottom) = m.split_at_mut(a);
        for (b, row) in top.iter_mut().enumerate() {
            row[a] = bottom[0][b];
        }
    }
}

/// Minimises `loss` (which also returns the gradient and a positive definite curvature)
/// from zero by Newton steps with backtracking.
/// A loss at a point: its value, gradient and curvature.
type Evaluated = (f64, Vec<f64>, Vec<Vec<f64>>);

fn newton(d: usize, loss: &dyn Fn(&[f64]) -> Evaluated) -> Vec<f64> {
    let mut w = vec![0.0; d];
    let (mut f, mut g, mut h) = loss(&w);
    for _ in 0..100 {
        let Some(step) = solve(&h, &g) else { break };
        let mut t = 1.0;
        let mut moved = false;
        while t > 1e-8 {
            let next: Vec<f64> = w.iter().zip(&step).map(|(wi, si)| wi - t * si).collect();
            let (f2, g2, h2) = loss(&next);
            if f2 <= f - 1e-4 * t * g.iter().zip(&step).map(|(a, b)| a * b).sum::<f64>() {
                let done = (f - f2).abs() < 1e-10 * f.abs().max(1.0);
                (w, f, g, h) = (next, f2, g2, h2);
                moved = true;
                if done {
                    return w;
                }
                break;
            }
            t *= 0.5;
        }
        if !moved {
            break;
        }
    }
    w
}

/// A question's candidates for the ranker: their features and which hold the answer.
pub struct Group<'a> {
    /// Feature rows.
    pub x: Vec<&'a [f64]>,
    /// Which rows hold the answer (at least one).
    pub positive: Vec<bool>,
    /// How much the question counts in the loss.
    pub weight: f64,
    /// A score each candidate has already (added to the fitted one; empty: none).
    pub offset: Vec<f64>,
}

/// Fits the ranker's weights (a bias of 0: only differences count) with L2 `lambda`
/// on standardised features.
pub fn ranker(groups: &[Group<'_>], d: usize, lambda: f64) -> (Vec<f64>, f64) {
    let scaling = Scaling::of(groups.iter().flat_map(|g| g.x.iter().copied()), d);
    ranker_scaled(groups, d, lambda, &scaling)
}

/// Fits weights on the raw features (no standardising), with L2 `lambda`: for a few
/// features added to a fitted score (`Group::offset`), whose scale is their meaning.
pub fn adjustment(groups: &[Group<'_>], d: usize, lambda: f64) -> Vec<f64> {
    let identity = Scaling {
        mean: vec![0.0; d],
        scale: vec![1.0; d],
    };
    ranker_scaled(groups, d, lambda, &identity).0
}

fn ranker_scaled(
    groups: &[Group<'_>],
    d: usize,
    lambda: f64,
    scaling: &Scaling,
) -> (Vec<f64>, f64) {
    let z: Vec<Vec<Vec<f64>>> = groups
        .iter()
        .map(|g| g.x.iter().map(|x| scaling.apply(x)).collect())
        .collect();
    let loss = |w: &[f64]| {
        let mut f = 0.5 * lambda * w.iter().map(|v| v * v).sum::<f64>();
        let mut grad: Vec<f64> = w.iter().map(|v| lambda * v).collect();
        let mut hess = ridge(d, lambda + 1e-9);
        for (g, zg) in groups.iter().zip(&z) {
            let s: Vec<f64> = zg
                .iter()
                .enumerate()
                .map(|(i, x)| {
                    g.offset.get(i).copied().unwrap_or(0.0)
                        + x.iter().zip(w).map(|(a, b)| a * b).sum::<f64>()
                })
                .collect();
            let top = s.iter().copied().fold(f64::MIN, f64::max);
            let e: Vec<f64> = s.iter().map(|v| (v - top).exp()).collect();
            let all: f64 = e.iter().sum();
            let pos: f64 = e
                .iter()
                .zip(&g.positive)
                .filter(|(_, p)| **p)
                .map(|(v, _)| v)
                .sum();
            f += g.weight * (all.ln() - pos.ln());
            let mut mean_all = vec![0.0; d];
            let mut mean_pos = vec![0.0; d];
            for ((x, ei), p) in zg.iter().zip(&e).zip(&g.positive) {
                for j in 0..d {
                    mean_all[j] += ei / all * x[j];
                    if *p {
                        mean_pos[j] += ei / pos * x[j];
                    }
                }
            }
            for j in 0..d {
                grad[j] += g.weight * (mean_all[j] - mean_pos[j]);
            }
            for (x, ei) in zg.iter().zip(&e) {
                let pi = g.weight * ei / all;
                for a in 0..d {
                    let da = x[a] - mean_all[a];
                    for b in 0..=a {
                        hess[a][b] += pi * da * (x[b] - mean_all[b]);
                    }
                }
            }
        }
        symmetrize(&mut hess);
        (f, grad, hess)
    };
    let w = newton(d, &loss);
    let (raw, _) = scaling.unscale(&w, 0.0);
    (raw, 0.0)
}

/// Fits a binary logistic regression (weights, bias) with L2 `lambda` on standardised
/// features (the bias is not penalised).
pub fn logistic(x: &[Vec<f64>], y: &[bool], lambda: f64) -> (Vec<f64>, f64) {
    let d = x.first().map_or(0, Vec::len);
    let scaling = Scaling::of(x.iter().map(Vec::as_slice), d);
    logistic_scaled(x, y, &[], lambda, &scaling)
}

/// Fits weights and a bias on the raw features, on top of a log-odds each row has
/// already (`offset`), with L2 `lambda` on the weights: for a few features whose scale
/// is their meaning, added to a fitted model.
pub fn logistic_adjustment(
    x: &[Vec<f64>],
    y: &[bool],
    offset: &[f64],
    lambda: f64,
) -> (Vec<f64>, f64) {
    let d = x.first().map_or(0, Vec::len);
    let identity = Scaling {
        mean: vec![0.0; d],
        scale: vec![1.0; d],
    };
    logistic_scaled(x, y, offset, lambda, &identity)
}

fn logistic_scaled(
    x: &[Vec<f64>],
    y: &[bool],
    offset: &[f64],
    lambda: f64,
    scaling: &Scaling,
) -> (Vec<f64>, f64) {
    let d = x.first().map_or(0, Vec::len);
    // The bias is the last weight, on a constant 1.
    let z: Vec<Vec<f64>> = x
        .iter()
        .map(|row| {
            let mut z = scaling.apply(row);
            z.push(1.0);
            z
        })
        .collect();
    let k = d + 1;
    let loss = |w: &[f64]| {
        let mut f = 0.5 * lambda * w[..d].iter().map(|v| v * v).sum::<f64>();
        let mut grad: Vec<f64> = w.iter().map(|v| lambda * v).collect();
        grad[d] = 0.0;
        let mut hess = ridge(k, lambda);
        hess[d][d] = 1e-9;
        for (i, (zi, yi)) in z.iter().zip(y).enumerate() {
            let s: f64 = offset.get(i).copied().unwrap_or(0.0)
                + zi.iter().zip(w).map(|(a, b)| a * b).sum::<f64>();
            let p = evident_core::search::learned::sigmoid(s);
            // log(1 + e^s) - y s, computed without overflow.
            f += if s > 0.0 {
                s + (-s).exp().ln_1p()
            } else {
                s.exp().ln_1p()
            } - if *yi { s } else { 0.0 };
            let r = p - f64::from(u8::from(*yi));
            let v = p * (1.0 - p);
            for a in 0..k {
                grad[a] += r * zi[a];
                for b in 0..=a {
                    hess[a][b] += v * zi[a] * zi[b];
                }
            }
        }
        symmetrize(&mut hess);
        (f, grad, hess)
    };
    let w = newton(k, &loss);
    scaling.unscale(&w[..d], w[d])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_logistic_regression_finds_the_separating_feature() {
        // y depends on the first feature only; the second is noise.
        let x: Vec<Vec<f64>> = (0..200)
            .map(|i| vec![(i % 10) as f64, ((i * 7) % 13) as f64])
            .collect();
        let y: Vec<bool> = x.iter().map(|r| r[0] >= 5.0).collect();
        let (w, b) = logistic(&x, &y, 1.0);
        assert!(w[0] > 1.0 && w[1].abs() < 0.2 * w[0], "{w:?}");
        // The line lies between 4 and 5.
        let line = -b / w[0];
        assert!((4.0..5.0).contains(&line), "{line}");
    }

    #[test]
    fn the_ranker_learns_which_feature_marks_the_answer() {
        let rows: Vec<Vec<Vec<f64>>> = (0..50)
            .map(|q| {
                (0..5)
                    .map(|i| vec![f64::from(u8::from(i == q % 5)), ((q + i) % 3) as f64])
                    .collect()
            })
            .collect();
        let groups: Vec<Group<'_>> = rows
            .iter()
            .enumerate()
            .map(|(q, g)| Group {
                x: g.iter().map(Vec::as_slice).collect(),
                positive: (0..5).map(|i| i == q % 5).collect(),
                weight: 1.0,
                offset: Vec::new(),
            })
            .collect();
        let (w, _) = ranker(&groups, 2, 1.0);
        assert!(w[0] > 2.0 && w[1].abs() < 0.5, "{w:?}");
    }

    #[test]
    fn solving_is_exact_on_a_small_system() {
        let a = vec![vec![4.0, 1.0], vec![1.0, 3.0]];
        let x = solve(&a, &[1.0, 2.0]).expect("positive definite");
        assert!((x[0] - 1.0 / 11.0).abs() < 1e-12 && (x[1] - 7.0 / 11.0).abs() < 1e-12);
        assert!(solve(&[vec![0.0]], &[1.0]).is_none());
    }
}
