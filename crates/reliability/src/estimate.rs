//! A probability estimated from Bernoulli trials, with its Wilson score interval.

/// z for a two-sided 95% interval.
const Z95: f64 = 1.959_963_984_540_054;

/// `hits` out of `trials`, with a 95% Wilson score interval (Wilson 1927): unlike the
/// normal approximation it stays inside [0, 1] and is not degenerate at 0 or `trials` hits.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct Estimate {
    /// Trials that hit.
    pub hits: u64,
    /// Trials run.
    pub trials: u64,
    /// hits / trials.
    pub p: f64,
    /// The interval's lower bound.
    pub low: f64,
    /// The interval's upper bound.
    pub high: f64,
}

impl Estimate {
    /// The estimate of `hits` out of `trials`.
    pub fn from_counts(hits: u64, trials: u64) -> Estimate {
        let n = trials.max(1) as f64;
        let p = hits as f64 / n;
        let z2 = Z95 * Z95;
        let denom = 1.0 + z2 / n;
        let center = (p + z2 / (2.0 * n)) / denom;
        let half = Z95 / denom * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
        Estimate {
            hits,
            trials,
            p,
            // Exact at the ends: the bounds meet 0 and 1 there, rounding aside.
            low: if hits == 0 { 0.0 } else { center - half },
            high: if hits >= trials { 1.0 } else { center + half },
        }
    }

    /// Whether `value` lies inside the interval.
    pub fn contains(&self, value: f64) -> bool {
        (self.low..=self.high).contains(&value)
    }
}

/// 95% interval of a mean from its `n` samples' sum and sum of squares, by the normal
/// approximation (the central limit theorem; fair for the thousands of trials a simulation
/// runs), floored at 0 as the quantities here are never negative.
pub(crate) fn mean_interval(sum: f64, sum_of_squares: f64, n: u64) -> (f64, f64) {
    let n = n.max(1) as f64;
    let mean = sum / n;
    let variance = (sum_of_squares / n - mean * mean).max(0.0) * n / (n - 1.0).max(1.0);
    let half = Z95 * (variance / n).sqrt();
    ((mean - half).max(0.0), mean + half)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wilson_interval_by_hand() {
        // 10 of 100: center (0.1 + 1.92/100) / 1.0384 = 0.11480, half 0.05957 -> [0.0552, 0.1744].
        let e = Estimate::from_counts(10, 100);
        assert!((e.low - 0.05523).abs() < 1e-4, "{}", e.low);
        assert!((e.high - 0.17437).abs() < 1e-4, "{}", e.high);
        // No hits still gives a real upper bound: z^2 / (n + z^2) = 0.03699 for n = 100.
        let e = Estimate::from_counts(0, 100);
        assert_eq!(e.low, 0.0);
        assert!((e.high - 0.03699).abs() < 1e-4, "{}", e.high);
        assert!(e.contains(0.02) && !e.contains(0.05));
    }

    #[test]
    fn mean_interval_by_hand() {
        // Samples 0, 0, 0, 4: mean 1, sample variance (3 * 1 + 9) / 3 = 4, standard error
        // 2 / 2 = 1: 1 +- 1.96, floored at 0.
        let (low, high) = mean_interval(4.0, 16.0, 4);
        assert_eq!(low, 0.0);
        assert!((high - 2.959_964).abs() < 1e-6, "{high}");
    }
}
