//! Exact Mean Value Analysis of a closed, single-class queueing network (Reiser & Lavenberg
//! 1980): throughput and response time for a fixed number of jobs in circulation.
//! A station of c servers is split after Seidmann, Schweitzer and Shalev-Oren (1987) into a
//! queueing station of demand D/c and a pure delay of D (c - 1)/c. A station whose demand
//! depends on how many jobs it holds (a disk reordering its queue) is solved exactly through
//! its marginal queue-length probabilities (Reiser & Lavenberg's recursion for load-dependent
//! centres).

/// One service centre: its demand per job (seconds of service a job needs there in total,
/// over all its visits) and its number of servers.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Centre {
    pub demand_s: f64,
    pub servers: u32,
    /// Demand when 1, 2, ... jobs are there, the last holding for more; empty: `demand_s` at
    /// any load. Load-dependent centres have one server.
    pub demand_by_jobs_s: Vec<f64>,
}

#[cfg(test)]
impl Centre {
    /// A centre whose demand does not depend on its queue.
    pub(crate) fn fixed(demand_s: f64, servers: u32) -> Centre {
        Centre {
            demand_s,
            servers,
            demand_by_jobs_s: Vec::new(),
        }
    }
}

/// The network at its population.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Solution {
    /// Jobs per second.
    pub throughput: f64,
    /// Mean time of one job round the network.
    pub cycle_s: f64,
    /// Per centre, the mean demand a job met there: its busy share per server times its
    /// servers over the throughput (`demand_s` but at load-dependent centres).
    pub demand_s: Vec<f64>,
}

/// Queue state of one centre during the recursion.
struct State {
    /// Mean number of jobs there.
    jobs: f64,
    /// P(j jobs there) for j below the length of the demand table (load-dependent only).
    p: Vec<f64>,
}

/// Throughput, cycle time and mean demands of `n` jobs through `centres` plus a pure delay
/// (think time) of `delay_s` per job.
pub(crate) fn solve(centres: &[Centre], delay_s: f64, n: u32) -> Solution {
    let fixed: f64 = delay_s
        + centres
            .iter()
            .filter(|c| c.demand_by_jobs_s.is_empty())
            .map(|c| c.demand_s * f64::from(c.servers.max(1) - 1) / f64::from(c.servers.max(1)))
            .sum::<f64>();
    let mut states: Vec<State> = centres
        .iter()
        .map(|c| {
            let mut p = vec![0.0; c.demand_by_jobs_s.len()];
            if let Some(p0) = p.first_mut() {
                *p0 = 1.0;
            }
            State { jobs: 0.0, p }
        })
        .collect();
    let mut residence = vec![0.0; centres.len()];
    let (mut x, mut r) = (0.0, fixed);
    for k in 1..=n {
        for ((c, st), res) in centres.iter().zip(&states).zip(residence.iter_mut()) {
            *res = match c.demand_by_jobs_s.as_slice() {
                [] => c.demand_s / f64::from(c.servers.max(1)) * (1.0 + st.jobs),
                table => load_dependent_residence(table, st),
            };
        }
        r = fixed + residence.iter().sum::<f64>();
        if r <= 0.0 {
            return Solution {
                throughput: f64::INFINITY,
                cycle_s: 0.0,
                demand_s: centres.iter().map(|c| c.demand_s).collect(),
            };
        }
        x = f64::from(k) / r;
        for ((c, st), res) in centres.iter().zip(states.iter_mut()).zip(&residence) {
            st.jobs = x * res;
            update_marginals(&c.demand_by_jobs_s, st, x);
        }
    }
    let demand_s = centres
        .iter()
        .zip(&states)
        .map(|(c, st)| match st.p.first() {
            Some(&p0) if x > 0.0 => (1.0 - p0) / x,
            _ => c.demand_s,
        })
        .collect();
    Solution {
        throughput: x,
        cycle_s: r,
        demand_s,
    }
}

/// Residence time at a load-dependent centre of demand table D(1..=J) with one job more:
/// sum over j of j D(j) P(j - 1). For j >= J, D(j) = D(J), and sum over all j of
/// j P(j - 1) = 1 + Q, so only P(0..J-1) need be kept.
fn load_dependent_residence(table: &[f64], st: &State) -> f64 {
    let last = table[table.len() - 1];
    (1.0 + st.jobs) * last
        + st.p
            .iter()
            .zip(table)
            .enumerate()
            .map(|(i, (p, d))| (i + 1) as f64 * p * (d - last))
            .sum::<f64>()
}

/// P(j | k) = X D(j) P(j - 1 | k - 1) for 0 < j < J; P(0) from the centre's throughput,
/// sum over j of P(j) / D(j) = X, with the rate 1 / D(J) for every j >= J.
fn update_marginals(table: &[f64], st: &mut State, x: f64) {
    if st.p.is_empty() {
        return;
    }
    let last = table[table.len() - 1];
    for j in (1..st.p.len()).rev() {
        st.p[j] = x * table[j - 1] * st.p[j - 1];
    }
    let (mut below, mut rate_below) = (0.0, 0.0);
    for (p, d) in st.p[1..].iter().zip(table) {
        below += p;
        rate_below += p / d;
    }
    st.p[0] = (1.0 - below - last * (x - rate_below)).max(0.0);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn q(d: f64) -> Centre {
        Centre::fixed(d, 1)
    }

    #[test]
    fn one_job_sees_no_queue() {
        let s = solve(&[q(0.2), q(0.3)], 1.0, 1);
        let (x, r) = (s.throughput, s.cycle_s);
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
            let x = solve(&centres, 0.0, n).throughput;
            let exact = f64::from(n) / (0.01 * (5.0 + f64::from(n) - 1.0));
            assert!((x - exact).abs() / exact < 1e-12, "n={n}");
        }
    }

    /// A single queue with think time Z is the finite-source M/M/1 (machine repairman):
    /// with D = 1, Z = 1, N = 2: p0 = 1 / (1 + 2 + 2) = 0.2, X = 1 - p0 = 0.8.
    #[test]
    fn machine_repairman() {
        let x = solve(&[q(1.0)], 1.0, 2).throughput;
        assert!((x - 0.8).abs() < 1e-12, "{x}");
    }

    /// Throughput approaches the bottleneck's bound 1 / D_max and never exceeds it.
    #[test]
    fn tends_to_the_bottleneck_bound() {
        let centres = [q(0.004), q(0.002), Centre::fixed(0.006, 2)];
        let x = solve(&centres, 0.0, 2000).throughput;
        assert!(x <= 250.0 + 1e-9 && x > 249.0, "{x}");
    }

    /// A load-dependent centre with think time is a birth-death chain: N jobs thinking Z each
    /// arrive at rate (N - j) / Z, the centre serves at 1 / D(j). Its exact throughput is
    /// sum over j of P(j) / D(j), P(j) proportional to the product of the rates' ratios.
    #[test]
    fn load_dependent_centre_matches_the_birth_death_chain() {
        let table = vec![0.010, 0.008, 0.0065, 0.006];
        let (z, n) = (0.02, 9u32);
        let d = |j: usize| table[(j - 1).min(table.len() - 1)];
        let mut weight = vec![1.0f64];
        for j in 1..=n as usize {
            let w = weight[j - 1] * f64::from(n - j as u32 + 1) / z * d(j);
            weight.push(w);
        }
        let total: f64 = weight.iter().sum();
        let exact: f64 = (1..=n as usize).map(|j| weight[j] / total / d(j)).sum();
        let centre = Centre {
            demand_s: table[0],
            servers: 1,
            demand_by_jobs_s: table.clone(),
        };
        let s = solve(&[centre], z, n);
        assert!(
            (s.throughput - exact).abs() < 1e-9 * exact,
            "{} vs {exact}",
            s.throughput
        );
        // Busy share over throughput: a mean demand between the table's ends.
        let busy = 1.0 - weight[0] / total;
        assert!((s.demand_s[0] - busy / exact).abs() < 1e-9);
    }

    /// A table of one value is the fixed centre.
    #[test]
    fn a_flat_table_is_a_fixed_centre() {
        let flat = Centre {
            demand_s: 0.01,
            servers: 1,
            demand_by_jobs_s: vec![0.01; 3],
        };
        for n in [1u32, 3, 20] {
            let a = solve(&[flat.clone(), q(0.004)], 0.005, n).throughput;
            let b = solve(&[q(0.01), q(0.004)], 0.005, n).throughput;
            assert!((a - b).abs() < 1e-9 * b, "n={n}: {a} vs {b}");
        }
    }

    /// Many jobs: every job visits both reordering centres, which run at their deepest rate;
    /// the recursion stays stable that far.
    #[test]
    fn a_crowded_load_dependent_centre_runs_at_its_best_rate() {
        let disk = Centre {
            demand_s: 0.012,
            servers: 1,
            demand_by_jobs_s: (1..=10).map(|j| 0.004 + 0.008 / f64::from(j)).collect(),
        };
        let best = 1.0 / 0.0048;
        let s = solve(&[disk.clone(), disk, q(0.001)], 0.0, 2000);
        assert!(
            s.throughput <= best + 1e-9 && s.throughput > 0.999 * best,
            "{}",
            s.throughput
        );
        assert!((s.demand_s[0] - 0.0048).abs() < 1e-5, "{}", s.demand_s[0]);
    }
}
