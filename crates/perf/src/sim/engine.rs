//! The discrete-event engine: jobs move through a cycle of stages, each a visit to one of a
//! group's centres (FIFO queues of c servers whose service time may depend on the queue they
//! find, as a disk reordering its queue) or the write throttle's delay. Events (a job ending
//! its service) sit in a binary heap; every buffer is sized before the run, so no event
//! allocates. Jobs circulate in a closed population, or arrive from a Poisson source (the
//! open queues the exact tests check).

use super::throttle::Throttle;
use rand::RngExt;
use rand::SeedableRng;
#[cfg(test)]
use rand_distr::Exp1;
use rand_xoshiro::Xoshiro256PlusPlus;
use std::cmp::Ordering;
use std::collections::{BinaryHeap, VecDeque};

/// How a centre's service time spreads around its mean.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Shape {
    /// Exponential: the product-form networks MVA solves exactly (the exact tests).
    #[cfg(test)]
    Exp,
    /// Always the mean: a flash read's data-sheet latency, a copy.
    Det,
    /// A fixed part plus a uniform part (a disk's rotational latency): `spread` of the mean
    /// is uniform over twice itself, the rest fixed.
    Uniform { spread: f64 },
}

/// One queue with its servers.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Centre {
    /// Which share of the time it is counted under.
    pub label: usize,
    pub servers: u32,
    /// Mean service time with 1, 2, ... jobs there when service starts (the last holds).
    pub mean_s: Vec<f64>,
    pub shape: Shape,
}

/// A stage of the cycle: `visits` visits on average (the whole part always, one more with
/// the fraction's chance), each to one member chosen in proportion to its weight.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Group {
    members: Vec<usize>,
    /// The weights' running sums, searched by bisection: a pick costs log n on any pool.
    cumulative: Vec<f64>,
    visits: f64,
}

impl Group {
    pub(crate) fn new(members: Vec<usize>, weights: &[f64], visits: f64) -> Group {
        let cumulative = weights
            .iter()
            .scan(0.0, |sum, w| {
                *sum += w;
                Some(*sum)
            })
            .collect();
        Group {
            members,
            cumulative,
            visits,
        }
    }

    /// One centre.
    #[cfg(test)]
    pub(crate) fn one(centre: usize) -> Group {
        Group::new(vec![centre], &[1.0], 1.0)
    }
}

/// What a job does next in its cycle.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Stage {
    Visit(Group),
    /// The write throttle (dmu_tx_delay), with the label its delay is counted under.
    Throttle(usize),
}

/// Where the jobs come from.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Source {
    /// `n` jobs, each starting its next cycle when it ends one.
    Closed(u32),
    /// Poisson arrivals at `rate` per second, at most `cap` jobs in the system at once: the
    /// open queues of the exact tests.
    #[cfg(test)]
    Open { rate: f64, cap: u32 },
}

/// A network to simulate.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Network {
    pub centres: Vec<Centre>,
    pub stages: Vec<Stage>,
    pub throttle: Option<Throttle>,
    pub labels: usize,
    pub source: Source,
}

/// How long to run.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct RunLength {
    pub seed: u64,
    /// Cycles discarded at the start, before the queues reach their steady state.
    pub warmup: u32,
    /// The most cycles measured, and the most events handled: the budget.
    pub max_samples: u32,
    pub max_events: u64,
    /// Stop once the p99's confidence half-width is this share of it.
    pub p99_precision: f64,
}

/// What a run measured.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Run {
    /// Each measured cycle's time, in completion order.
    pub samples: Vec<f64>,
    /// Seconds spent per label, over the measured cycles.
    pub by_label_s: Vec<f64>,
    pub events: u64,
    /// The p99's 95% confidence half-width over its value (batch p99s).
    pub p99_precision: f64,
}

/// An event: the job ends its current service at `t`.
#[derive(Debug, Clone, Copy)]
struct Event {
    t: f64,
    job: u32,
}

impl PartialEq for Event {
    fn eq(&self, o: &Event) -> bool {
        self.cmp(o) == Ordering::Equal
    }
}
impl Eq for Event {}
impl PartialOrd for Event {
    fn partial_cmp(&self, o: &Event) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}
impl Ord for Event {
    /// Reversed, so the heap pops the earliest; ties by job for determinism.
    fn cmp(&self, o: &Event) -> Ordering {
        o.t.total_cmp(&self.t).then(o.job.cmp(&self.job))
    }
}

/// A source's arrival is an event of this job number.
const ARRIVAL: u32 = u32::MAX;

/// One job's place.
#[derive(Debug, Clone, Copy, Default)]
struct Job {
    stage: usize,
    visits_left: u32,
    centre: usize,
    cycle_start: f64,
    stage_start: f64,
}

/// The run's state.
struct Sim<'a> {
    net: &'a Network,
    rng: Xoshiro256PlusPlus,
    heap: BinaryHeap<Event>,
    jobs: Vec<Job>,
    free: Vec<u32>,
    queues: Vec<VecDeque<u32>>,
    busy: Vec<u32>,
    throttle_state: Option<super::throttle::State>,
    by_label_s: Vec<f64>,
    samples: Vec<f64>,
    warm: u32,
    now: f64,
}

/// Runs `net` until the p99 is known to the precision asked, or the budget is spent.
pub(crate) fn run(net: &Network, len: &RunLength) -> Run {
    let cap = match net.source {
        Source::Closed(n) => n.max(1),
        #[cfg(test)]
        Source::Open { cap, .. } => cap.max(1),
    } as usize;
    let mut sim = Sim {
        net,
        rng: Xoshiro256PlusPlus::seed_from_u64(len.seed),
        heap: BinaryHeap::with_capacity(cap + 1),
        jobs: vec![Job::default(); cap],
        free: (0..cap as u32).rev().collect(),
        queues: net
            .centres
            .iter()
            .map(|_| VecDeque::with_capacity(cap))
            .collect(),
        busy: vec![0; net.centres.len()],
        throttle_state: net.throttle.map(|_| super::throttle::State::default()),
        by_label_s: vec![0.0; net.labels],
        samples: Vec::with_capacity(len.max_samples as usize),
        warm: len.warmup,
        now: 0.0,
    };
    sim.start();
    let (events, precision) = sim.until_precise(len);
    Run {
        samples: sim.samples,
        by_label_s: sim.by_label_s,
        events,
        p99_precision: precision,
    }
}

impl Sim<'_> {
    fn start(&mut self) {
        match self.net.source {
            Source::Closed(n) => {
                for _ in 0..n.max(1) {
                    self.arrive();
                }
            }
            #[cfg(test)]
            Source::Open { rate, .. } => {
                let t = self.exp() / rate;
                self.heap.push(Event { t, job: ARRIVAL });
            }
        }
    }

    /// Handles events, checking the p99's precision each time the samples grow by half.
    fn until_precise(&mut self, len: &RunLength) -> (u64, f64) {
        let mut events = 0u64;
        let mut check_at = 20_000usize.min(len.max_samples as usize);
        let mut scratch = Vec::with_capacity(len.max_samples as usize);
        let mut precision = f64::INFINITY;
        while let Some(ev) = self.heap.pop() {
            events += 1;
            self.now = ev.t;
            if ev.job == ARRIVAL {
                self.source_arrival();
            } else {
                self.end_service(ev.job);
            }
            let n = self.samples.len();
            if n >= check_at {
                precision = super::percentile::p99_precision(&self.samples, &mut scratch);
                if precision <= len.p99_precision || n >= len.max_samples as usize {
                    break;
                }
                check_at = (n + n / 2).min(len.max_samples as usize);
            }
            if events >= len.max_events {
                precision = super::percentile::p99_precision(&self.samples, &mut scratch);
                break;
            }
        }
        (events, precision)
    }

    #[cfg(test)]
    fn exp(&mut self) -> f64 {
        self.rng.sample::<f64, _>(Exp1)
    }

    fn source_arrival(&mut self) {
        #[cfg(test)]
        if let Source::Open { rate, .. } = self.net.source {
            if !self.free.is_empty() {
                self.arrive();
            }
            let t = self.now + self.exp() / rate;
            self.heap.push(Event { t, job: ARRIVAL });
        }
    }

    /// A job starts a cycle.
    fn arrive(&mut self) {
        let Some(j) = self.free.pop() else { return };
        self.jobs[j as usize] = Job {
            cycle_start: self.now,
            ..Job::default()
        };
        self.enter_stage(j);
    }

    /// The job enters its current stage, skipping stages it makes no visit to; past the
    /// last it completes its cycle.
    fn enter_stage(&mut self, j: u32) {
        loop {
            let job = self.jobs[j as usize];
            let Some(stage) = self.net.stages.get(job.stage) else {
                self.complete(j);
                return;
            };
            match stage {
                Stage::Visit(g) => {
                    let whole = g.visits.floor();
                    let extra = self.rng.random::<f64>() < g.visits - whole;
                    let visits = whole as u32 + u32::from(extra);
                    if visits > 0 {
                        self.jobs[j as usize].visits_left = visits;
                        self.visit(j);
                        return;
                    }
                }
                Stage::Throttle(_) => {
                    if let (Some(th), Some(st)) = (&self.net.throttle, &mut self.throttle_state) {
                        let delay = th.delay_s(st, self.now);
                        if delay > 0.0 {
                            self.jobs[j as usize].stage_start = self.now;
                            let t = self.now + delay;
                            self.heap.push(Event { t, job: j });
                            return;
                        }
                    }
                }
            }
            self.jobs[j as usize].stage += 1;
        }
    }

    /// One visit of the job's stage: to a member chosen by weight.
    fn visit(&mut self, j: u32) {
        let Stage::Visit(g) = &self.net.stages[self.jobs[j as usize].stage] else {
            return;
        };
        let last = g.members.len() - 1;
        let c = if last == 0 {
            g.members[0]
        } else {
            let u = self.rng.random::<f64>() * g.cumulative[last];
            g.members[g.cumulative.partition_point(|&c| c <= u).min(last)]
        };
        let job = &mut self.jobs[j as usize];
        job.centre = c;
        job.stage_start = self.now;
        if self.busy[c] < self.net.centres[c].servers {
            self.serve(c, j);
        } else {
            self.queues[c].push_back(j);
        }
    }

    /// Starts serving job `j` at centre `c`, its time drawn by the jobs there.
    fn serve(&mut self, c: usize, j: u32) {
        let centre = &self.net.centres[c];
        self.busy[c] += 1;
        let there = self.busy[c] as usize + self.queues[c].len();
        let mean = centre.mean_s[there.min(centre.mean_s.len()) - 1];
        let s = match centre.shape {
            #[cfg(test)]
            Shape::Exp => mean * self.exp(),
            Shape::Det => mean,
            Shape::Uniform { spread } => {
                mean * (1.0 - spread + 2.0 * spread * self.rng.random::<f64>())
            }
        };
        self.heap.push(Event {
            t: self.now + s,
            job: j,
        });
    }

    /// Job `j` ends its service or its throttle's delay.
    fn end_service(&mut self, j: u32) {
        let job = self.jobs[j as usize];
        match &self.net.stages[job.stage] {
            Stage::Visit(_) => {
                let c = job.centre;
                self.busy[c] -= 1;
                if let Some(next) = self.queues[c].pop_front() {
                    self.serve(c, next);
                }
                self.count(self.net.centres[c].label, job);
                self.jobs[j as usize].visits_left -= 1;
                if self.jobs[j as usize].visits_left > 0 {
                    self.visit(j);
                    return;
                }
            }
            Stage::Throttle(label) => self.count(*label, job),
        }
        self.jobs[j as usize].stage += 1;
        self.enter_stage(j);
    }

    /// Time spent since the stage (or visit) began, once warm.
    fn count(&mut self, label: usize, job: Job) {
        if self.warm == 0 {
            self.by_label_s[label] += self.now - job.stage_start;
        }
    }

    fn complete(&mut self, j: u32) {
        let job = self.jobs[j as usize];
        if self.warm > 0 {
            self.warm -= 1;
        } else if self.samples.len() < self.samples.capacity() {
            self.samples.push(self.now - job.cycle_start);
        }
        self.free.push(j);
        if matches!(self.net.source, Source::Closed(_)) {
            self.arrive();
        }
    }
}
