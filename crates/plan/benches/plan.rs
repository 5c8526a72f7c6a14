//! How the time of a whole plan grows with the number of disks: every candidate through the
//! space, performance and reliability engines, the front and the recommendation.
//! `cargo bench -p zpoolsim-plan`.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use model::system_file::default_system;
use model::Catalog;
use std::hint::black_box;
use std::time::Duration;
use zpoolsim_plan::{plan, Request, Settings};
use zpoolsim_plan::{with_controllers_for, with_disks};

fn request(disks: u32) -> Request {
    let disk = Catalog::embedded().disk("seagate-exos-x16-16tb").unwrap();
    let (grown, _) = with_controllers_for(&default_system(), disk, disks).unwrap();
    Request {
        system: with_disks(&grown, disk, disks).unwrap(),
        terms: zpoolsim_plan::Terms {
            hot_spares: 0,
            min_redundancy: 0,
            needs: vec![],
            settings: Settings::standard(0.8, 5.0),
            rank: zpoolsim_plan::Rank::Usable,
            consider_all: true,
        },
    }
}

fn by_disks(c: &mut Criterion) {
    let mut group = c.benchmark_group("plan");
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(5));
    for disks in [12, 24, 48, 96] {
        let request = request(disks);
        group.bench_with_input(BenchmarkId::from_parameter(disks), &request, |b, r| {
            b.iter(|| plan(black_box(r)).unwrap())
        });
    }
    group.finish();
}

criterion_group!(benches, by_disks);
criterion_main!(benches);
