//! Exact Mean Value Analysis of a closed, single-class queueing network (Reiser & Lavenberg
//! 1980): throughput and response time for a fixed number of jobs in circulation.
//! A station of c servers is split after Seidmann, Schweitzer and Shalev-Oren (1987) into a
//! queueing station of demand D/c and a pure delay of D (c - 1)/c.

/// One service centre: its demand per job (seconds of service a job needs there in total,
/// over all its visits) and its number of servers.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Centre {
    pub demand_s: f64,
    pub servers: u32,
}

/// Throughput (jobs/s) and mean cycle time of `n` jobs through `centres` plus a pure delay
/// (think time) of `delay_s` per job. `queue` is scratch space, one slot per centre.
pub fn solve(centres: &[Centre], delay_s: f64, n: u32, queue: &mut Vec<f64>) -> (f64, f64) {
    queue.clear();
    queue.resize(centres.len(), 0.0);
    let fixed: f64 = delay_s
        + centres
            .iter()
            .map(|c| c.demand_s * f64::from(c.servers.max(1) - 1) / f64::from(c.servers.max(1)))
            .sum::<f64>();
    let (mut x, mut r) = (0.0, fixed);
    for k in 1..=n {
        r = fixed;
        for (c, q) in centres.iter().zip(queue.iter()) {
            r += c.demand_s / f64::from(c.servers.max(1)) * (1.0 + q);
        }
        if r <= 0.0 {
            return (f64::INFINITY, 0.0);
        }
        x = f64::from(k) / r;
        for (c, q) in centres.iter().zip(queue.iter_mut()) {
            *q = x * c.demand_s / f64::from(c.servers.max(1)) * (1.0 + *q);
        }
    }
    (x, r)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn q(d: f64) -> Centre {
        Centre {
            demand_s: d,
            servers: 1,
        }
    }

    #[test]
    fn one_job_sees_no_queue() {
        let (x, r) = solve(&[q(0.2), q(0.3)], 1.0, 1, &mut vec![]);
        assert!((r - 1.5).abs() < 1e-12);
        assert!((x - 1.0 / 1.5).abs() < 1e-12);
    }

    /// Lazowska et al., Quantitative System Performance (1984), §6.3: a machine-repairman
    /// style network of K balanced centres of demand D and no think time has
    /// X(N) = N / (D (K + N - 1)) exactly.
    #[test]
    fn balanced_network_closed_form() {
        let centres = vec![q(0.01); 5];
        for n in [1u32, 2, 4, 10, 50] {
            let (x, _) = solve(&centres, 0.0, n, &mut vec![]);
            let exact = f64::from(n) / (0.01 * (5.0 + f64::from(n) - 1.0));
            assert!((x - exact).abs() / exact < 1e-12, "n={n}");
        }
    }

    /// A single queue with think time Z is the finite-source M/M/1 (machine repairman):
    /// with D = 1, Z = 1, N = 2: p0 = 1 / (1 + 2 + 2) = 0.2, X = 1 - p0 = 0.8.
    #[test]
    fn machine_repairman() {
        let (x, _) = solve(&[q(1.0)], 1.0, 2, &mut vec![]);
        assert!((x - 0.8).abs() < 1e-12, "{x}");
    }

    /// Throughput approaches the bottleneck's bound 1 / D_max and never exceeds it.
    #[test]
    fn tends_to_the_bottleneck_bound() {
        let centres = [
            q(0.004),
            q(0.002),
            Centre {
                demand_s: 0.006,
                servers: 2,
            },
        ];
        let (x, _) = solve(&centres, 0.0, 2000, &mut vec![]);
        assert!(x <= 250.0 + 1e-9 && x > 249.0, "{x}");
    }
}
