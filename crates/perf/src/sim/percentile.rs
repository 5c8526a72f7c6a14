//! Percentiles of the measured cycles, and how well the run knows its p99: the samples of a
//! queue are correlated (a job waits behind the ones before it), so the confidence comes from
//! batches: the run is cut into 20 consecutive batches, each batch's p99 taken, and the 95%
//! half-width of their mean is Student's t (19 degrees of freedom: 2.093) times their
//! standard error.

/// Batches the run is cut into.
const BATCHES: usize = 20;
/// Student's t for 95% two-sided with BATCHES - 1 degrees of freedom.
const T_95: f64 = 2.093;

/// The `q` quantile (0..1) of `sorted` samples: the sample of rank ceil(q n).
pub(crate) fn of_sorted(sorted: &[f64], q: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let rank = (q * sorted.len() as f64).ceil() as usize;
    sorted[rank.clamp(1, sorted.len()) - 1]
}

/// The `q` quantile of `samples` through `scratch` (no sort: selection).
fn select(samples: &[f64], q: f64, scratch: &mut Vec<f64>) -> f64 {
    scratch.clear();
    scratch.extend_from_slice(samples);
    if scratch.is_empty() {
        return 0.0;
    }
    let rank = ((q * scratch.len() as f64).ceil() as usize).clamp(1, scratch.len()) - 1;
    *scratch.select_nth_unstable_by(rank, f64::total_cmp).1
}

/// The p99's 95% confidence half-width over its value, from the batches' p99s.
pub(crate) fn p99_precision(samples: &[f64], scratch: &mut Vec<f64>) -> f64 {
    let per = samples.len() / BATCHES;
    if per < 100 {
        return f64::INFINITY;
    }
    let mut p = [0.0; BATCHES];
    for (b, v) in p.iter_mut().enumerate() {
        *v = select(&samples[b * per..(b + 1) * per], 0.99, scratch);
    }
    let mean = p.iter().sum::<f64>() / BATCHES as f64;
    let var = p.iter().map(|v| (v - mean) * (v - mean)).sum::<f64>() / (BATCHES - 1) as f64;
    let half = T_95 * (var / BATCHES as f64).sqrt();
    if mean > 0.0 {
        half / mean
    } else {
        0.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranks() {
        let s: Vec<f64> = (1..=1000).map(f64::from).collect();
        assert_eq!(of_sorted(&s, 0.5), 500.0);
        assert_eq!(of_sorted(&s, 0.99), 990.0);
        assert_eq!(of_sorted(&s, 0.999), 999.0);
        let mut scratch = Vec::new();
        assert_eq!(select(&s, 0.99, &mut scratch), 990.0);
    }

    /// Identical batches know their p99 exactly; too few samples know nothing.
    #[test]
    fn precision() {
        let batch: Vec<f64> = (1..=100).map(f64::from).collect();
        let all: Vec<f64> = batch.iter().cycle().take(2000).copied().collect();
        let mut scratch = Vec::new();
        assert_eq!(p99_precision(&all, &mut scratch), 0.0);
        assert!(p99_precision(&all[..1000], &mut scratch).is_infinite());
    }
}
