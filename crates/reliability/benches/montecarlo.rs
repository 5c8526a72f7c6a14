//! Simulation speed in disk lifetimes drawn per second, on one core. A realistic pool (AFR 2%,
//! five years) mostly draws lifetimes that outlive the mission; an accelerated one (AFR 60%)
//! spends its time in the event queue: rebuilds, spares, replacements.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use model::Layout;
use std::hint::black_box;
use zpoolsim_reliability::{simulate, GroupRepair, Lifetime, RepairTime, Scenario};

fn scenario<'a>(
    layout: &'a Layout,
    repairs: &'a [GroupRepair],
    lifetime: Lifetime,
) -> Scenario<'a> {
    Scenario {
        layout,
        repairs,
        lifetime,
        repair_time: RepairTime::Fixed,
        hot_spares: 1,
        replacement_hours: 72.0,
        uer_per_bit: 1e-15,
        allocated_bytes: 40e12,
        block_bytes: 131_072.0,
        mission_hours: 5.0 * 8760.0,
        same_batch: false,
    }
}

fn bench(c: &mut Criterion) {
    let layout: Layout = "4x raidz2-10".parse().unwrap();
    let repair = GroupRepair {
        resilver_hours: 24.0,
        sequential_rebuild_hours: 24.0,
        unprotected_read_bytes: 16e12,
    };
    let repairs = vec![repair; layout.groups.len()];
    let mut group = c.benchmark_group("montecarlo");
    // Trials chosen so one iteration takes tens of milliseconds.
    for (name, lifetime, trials) in [
        (
            "exponential AFR 2%",
            Lifetime::from_afr(2.0).unwrap(),
            20_000,
        ),
        (
            "weibull 1.5 AFR 2%",
            Lifetime::weibull_from_afr(1.5, 2.0, zpoolsim_reliability::HOURS_PER_YEAR).unwrap(),
            5_000,
        ),
        (
            "exponential AFR 60%",
            Lifetime::from_afr(60.0).unwrap(),
            500,
        ),
    ] {
        let s = scenario(&layout, &repairs, lifetime);
        let draws = simulate(&s, trials, 1).unwrap().disk_lifetimes;
        group.throughput(Throughput::Elements(draws));
        group.bench_function(name, |b| {
            b.iter(|| simulate(black_box(&s), trials, 1).unwrap())
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
