//! Command queueing on a hard disk (NCQ, TCQ): with q random requests queued the drive's
//! firmware serves the one it can reach first (shortest positioning time first, Worthington,
//! Ganger & Patt, SIGMETRICS 1994), so its positioning time is the least of q draws and its
//! random IOPS rise with the queue.
//!
//! Positioning to one random target is a seek over the distance between two uniform points of
//! the span, seek(d) = track-to-track + k sqrt(d) (the curve whose mean is `DiskTiming::seek_s`;
//! real long seeks grow linearly instead, docs/zfs-internals.md §5, but a queue picks short
//! seeks, and the sqrt curve keeps one request's time what it was), plus the rotational wait
//! from the seek's end to the target's angle, uniform over a revolution and independent of the
//! seek.
//! The q targets are taken as independent draws of that time, so the expected least of them
//! is E[min] = integral of (1 - F(t))^q dt, computed by quadrature over a closed-form F. This
//! overstates the gain somewhat: the targets a disk leaves queued are the far ones, and the
//! head's own position (near an edge, all targets lie one way) is not conditioned on.

use model::system::{Attach, System};

/// Simpson intervals over the positioning times a request can take (track-to-track up to the
/// longest seek plus a revolution): a step of ~0.07 ms on a 7200 rpm disk, which keeps the
/// expectations within 1e-4 of their closed forms (tests).
const STEPS: usize = 256;

/// The distribution of one random request's positioning time on one disk, seconds.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Positioning {
    /// The shortest seek (track-to-track, settling included).
    pub track_s: f64,
    /// Longest seek over the span, beyond track-to-track: k sqrt(span).
    pub sqrt_s: f64,
    /// One revolution.
    pub rev_s: f64,
}

impl Positioning {
    /// Mean seek: track + sqrt_s E[sqrt(d)], E[sqrt(d)] = 8/15 for the distance between two
    /// uniform points of the span.
    pub(crate) fn mean_seek_s(&self) -> f64 {
        self.track_s + self.sqrt_s * 8.0 / 15.0
    }

    /// Integral of P(seek <= s) from -inf to s. With u = (s - track) / sqrt_s the distance is
    /// u^2 of the span, and the distance between two uniform points is below v with
    /// probability 2v - v^2, so P(seek <= s) = 2u^2 - u^4, whose integral is
    /// sqrt_s (2u^3/3 - u^5/5); past the longest seek it grows by one per second.
    fn seek_cdf_integral(&self, s: f64) -> f64 {
        let over = s - self.track_s;
        if over <= 0.0 {
            return 0.0;
        }
        if self.sqrt_s <= 0.0 {
            return over;
        }
        let u = (over / self.sqrt_s).min(1.0);
        let inside = self.sqrt_s * (2.0 * u.powi(3) / 3.0 - u.powi(5) / 5.0);
        inside + (over - self.sqrt_s).max(0.0)
    }

    /// P(positioning > t): the rotational wait w is uniform on [0, rev), so
    /// F(t) = (1/rev) integral over w of P(seek <= t - w). Rotating disks only (rev > 0).
    fn survival(&self, t: f64) -> f64 {
        let f = (self.seek_cdf_integral(t) - self.seek_cdf_integral(t - self.rev_s)) / self.rev_s;
        (1.0 - f).clamp(0.0, 1.0)
    }

    /// Expected time until every one of `columns` disks, each with `queued` requests of this
    /// distribution, has reached one of them: integral of 1 - (1 - S(t)^queued)^columns dt,
    /// for queued = 1..=depth. One column: the expected least of `queued` draws.
    pub(crate) fn expected_by_queue(&self, columns: u32, depth: u32) -> Vec<f64> {
        let span = self.sqrt_s + self.rev_s;
        let h = span / STEPS as f64;
        // Simpson weights h/3 (1, 4, 2, 4, ..., 1) against the survival at each point.
        let points = (0..=STEPS).map(|i| {
            let w = match i {
                0 | STEPS => 1.0,
                i if i % 2 == 1 => 4.0,
                _ => 2.0,
            };
            (w * h / 3.0, self.survival(self.track_s + i as f64 * h))
        });
        let c = columns.max(1) as i32;
        let mut sums = vec![self.track_s; depth.max(1) as usize];
        for (w, s) in points {
            let mut s_q = 1.0;
            for sum in &mut sums {
                s_q *= s;
                *sum += w * if c == 1 {
                    s_q
                } else {
                    1.0 - (1.0 - s_q).powi(c)
                };
            }
        }
        sums
    }
}

/// Requests one disk can reorder: its own queue (NCQ 32 on SATA, TCQ on SAS: the catalog's
/// queue_depth), 1 behind a controller whose driver does no command queueing (seed 000's
/// SiI3124), and no more than the issuer keeps active at the leaf (`issuer_cap`: ZFS's vdev
/// queue, docs/zfs-internals.md §2).
pub(crate) fn reorder_depth(system: &System, disk: usize, issuer_cap: u32) -> u32 {
    let d = &system.disks[disk];
    let controller_queues = match &d.attach {
        Attach::Controller(id) => system
            .controllers
            .iter()
            .find(|c| &c.id == id)
            .is_none_or(|c| c.model.command_queueing),
        Attach::Link(_) => true,
    };
    if controller_queues {
        d.model.queue_depth.min(issuer_cap).max(1)
    } else {
        1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A 7200 rpm disk of 8.5 ms average seek and 1 ms track-to-track, over its whole stroke.
    fn disk() -> Positioning {
        Positioning {
            track_s: 1e-3,
            sqrt_s: 7.5e-3 * 15.0 / 8.0,
            rev_s: 60.0 / 7200.0,
        }
    }

    #[test]
    fn one_request_waits_the_mean_seek_and_half_a_turn() {
        let e = disk().expected_by_queue(1, 1)[0];
        assert!((e - (8.5e-3 + 60.0 / 7200.0 / 2.0)).abs() < 1e-7, "{e}");
    }

    #[test]
    fn without_seeks_q_targets_wait_rev_over_q_plus_one() {
        // The least of q uniform waits on [0, rev) is rev / (q + 1) on average.
        let p = Positioning {
            track_s: 0.0,
            sqrt_s: 0.0,
            rev_s: 6e-3,
        };
        for (i, e) in p.expected_by_queue(1, 32).iter().enumerate() {
            let exact = 6e-3 / (i as f64 + 2.0);
            assert!((e - exact).abs() < 1e-4 * exact, "q={}: {e}", i + 1);
        }
        // The slowest of c columns, one request each: rev c / (c + 1).
        let slowest = p.expected_by_queue(4, 1)[0];
        assert!((slowest - 6e-3 * 0.8).abs() < 1e-8, "{slowest}");
    }

    #[test]
    fn queueing_shortens_positioning_down_to_the_shortest_seek() {
        let e = disk().expected_by_queue(1, 64);
        assert!(e.windows(2).all(|w| w[1] < w[0]), "{e:?}");
        assert!(e[63] > 1e-3, "{}", e[63]);
        // With 32 queued the disk reaches a target in about a third of the time of one.
        let ratio = e[31] / e[0];
        assert!(ratio > 0.25 && ratio < 0.45, "{ratio}");
    }
}
