//! The classes of P(data loss) a plan's figures fall in, by the loss target it applied: what
//! its charts colour by (the command line's plan.svg, the web page), so that both band the
//! same plan alike.

use crate::needs::{Metric, Need};
use crate::recommend::DEFAULT_LOSS_TARGET;
use serde::Serialize;

/// Three classes of P(data loss): at most a tenth of the target, at most the target, past it
/// (a fourth, unknown, for a disk without a failure rate).
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct LossBands {
    /// Upper limits of the first two classes: a tenth of the target, then the target.
    pub limits: [f64; 2],
    /// Whether the target is the `loss<=` need (else [`DEFAULT_LOSS_TARGET`]).
    pub from_need: bool,
}

impl LossBands {
    /// The bands of the target `needs` set, or of the default one.
    pub fn of(needs: &[Need]) -> LossBands {
        let need = needs.iter().find(|n| n.metric == Metric::Loss);
        let target = need.map_or(DEFAULT_LOSS_TARGET, |n| n.bound);
        LossBands {
            limits: [target / 10.0, target],
            from_need: need.is_some(),
        }
    }

    /// The target: the upper limit of the second class.
    pub fn target(&self) -> f64 {
        self.limits[1]
    }

    /// The class of a probability: 0 and 1 within the limits, 2 past them, 3 unknown.
    pub fn class(&self, p: Option<f64>) -> usize {
        match p {
            None => 3,
            Some(p) => self.limits.iter().position(|&l| p <= l).unwrap_or(2),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_target_and_a_need() {
        let default = LossBands::of(&[]);
        assert_eq!(default.limits, [0.0001, 0.001]);
        assert!(!default.from_need);
        assert_eq!(default.class(Some(0.0001)), 0);
        assert_eq!(default.class(Some(0.0002)), 1);
        assert_eq!(default.class(Some(0.001)), 1);
        assert_eq!(default.class(Some(0.34)), 2);
        assert_eq!(default.class(None), 3);
        let need = Need {
            metric: Metric::Loss,
            bound: 0.01,
        };
        let by_need = LossBands::of(&[need]);
        assert_eq!(by_need.limits, [0.001, 0.01]);
        assert!(by_need.from_need);
        assert_eq!(by_need.class(Some(0.005)), 1);
    }
}
