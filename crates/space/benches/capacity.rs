//! The capacity (zpool list SIZE and zfs list AVAIL) of every homogeneous layout on up to 60
//! disks, on one core. The target is under 50 ms for the whole set.

use criterion::{criterion_group, criterion_main, Criterion};
use std::hint::black_box;
use std::time::Instant;
use zpoolsim_space::{pool_capacity, pool_space, Profile};

#[path = "../tests/layouts/mod.rs"]
mod layouts;

fn every_layout(c: &mut Criterion) {
    let pools = layouts::pools(60, 4_000_000_000_000, 12);
    let profile = Profile::modern();
    // One plain timing first, printed as the figure to report.
    let start = Instant::now();
    let mut ok = 0usize;
    for p in &pools {
        ok += usize::from(pool_capacity(black_box(p), &profile).is_ok());
    }
    let took = start.elapsed();
    println!(
        "capacity of {} homogeneous layouts on up to 60 disks ({} computed, rest refused): {:.2} ms",
        pools.len(),
        ok,
        took.as_secs_f64() * 1e3
    );
    let mut group = c.benchmark_group("every homogeneous layout on <= 60 disks");
    group.sample_size(20);
    group.bench_function(format!("pool_capacity x {}", pools.len()), |b| {
        b.iter(|| {
            for p in &pools {
                let _ = black_box(pool_capacity(black_box(p), &profile));
            }
        })
    });
    group.bench_function(format!("pool_space (full report) x {}", pools.len()), |b| {
        b.iter(|| {
            for p in &pools {
                let _ = black_box(pool_space(black_box(p), &profile));
            }
        })
    });
    group.finish();
}

criterion_group!(benches, every_layout);
criterion_main!(benches);
