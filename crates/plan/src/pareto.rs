//! The Pareto front: points no other point beats on every objective at once.

/// Whether `a` dominates `b`: at least as good on every objective, better on one.
/// Objectives are oriented so that higher is better.
fn dominates(a: &[f64], b: &[f64]) -> bool {
    a.iter().zip(b).all(|(x, y)| x >= y) && a.iter().zip(b).any(|(x, y)| x > y)
}

/// For each point, whether it is on the front. Equal points are all kept: neither dominates.
/// Quadratic, which is plenty for the few hundred candidates a plan has.
pub(crate) fn front(points: &[Vec<f64>]) -> Vec<bool> {
    points
        .iter()
        .map(|p| !points.iter().any(|q| dominates(q, p)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hand_made_set() {
        // (space, speed, -loss)
        let points = vec![
            vec![10.0, 100.0, -0.5], // most space
            vec![8.0, 200.0, -0.1],  // a middle way
            vec![6.0, 150.0, -0.2],  // beaten by the one above on all three
            vec![4.0, 300.0, -0.1],  // fastest
            vec![8.0, 200.0, -0.1],  // a twin of the middle way
            vec![2.0, 50.0, -0.01],  // safest
            vec![2.0, 50.0, -0.02],  // beaten by the safest on loss alone
        ];
        assert_eq!(front(&points), [true, true, false, true, true, true, false]);
    }

    #[test]
    fn empty_and_single() {
        assert!(front(&[]).is_empty());
        assert_eq!(front(&[vec![1.0]]), [true]);
    }
}
