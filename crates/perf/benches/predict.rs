//! Speed of the model: one prediction for a 24-disk system (target < 1 ms) and a 64-point
//! sweep (target < 20 ms); the latency simulation's default run on the same system (target
//! < 200 ms), reported also as events per second (target 10 million on one core).

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use model::system_file::parse;
use model::{Catalog, Workload};
use std::hint::black_box;

/// 24 x 16 TB in 4 x raidz2-6 on three 8-port HBAs in PCIe 3.0 x8 slots.
const SYSTEM: &str = r#"
name = "bench: 24 x Exos X16 as 4 x raidz2-6"
[host]
cpu = "intel-xeon-silver-4314"
ram = "128GiB"
[[link]]
id = "slot1"
kind = "pcie"
gen = 3
lanes = 8
max_payload = 256
[[link]]
id = "slot2"
kind = "pcie"
gen = 3
lanes = 8
max_payload = 256
[[controller]]
id = "hba0"
model = "lsi-sas3008"
link = "slot1"
[[link]]
id = "slot3"
kind = "pcie"
gen = 3
lanes = 8
max_payload = 256
[[controller]]
id = "hba1"
model = "lsi-sas3008"
link = "slot2"
[[controller]]
id = "hba2"
model = "lsi-sas3008"
link = "slot3"
[[disk]]
name = "a{}"
count = 8
model = "seagate-exos-x16-16tb"
controller = "hba0"
[[disk]]
name = "b{}"
count = 8
model = "seagate-exos-x16-16tb"
controller = "hba1"
[[disk]]
name = "c{}"
count = 8
model = "seagate-exos-x16-16tb"
controller = "hba2"
[pool]
layout = "4x raidz2-6"
ashift = 12
"#;

fn bench(c: &mut Criterion) {
    let system = parse(SYSTEM, "bench", Catalog::embedded()).expect("bench system");
    let stream = Workload::parse("dd-read").unwrap();
    let random = Workload::parse("fio-randread:bs=4K,qd=32,threads=4").unwrap();
    c.bench_function("predict 24 disks, dd-read", |b| {
        b.iter(|| zpoolsim_perf::predict(black_box(&system), black_box(&stream)).unwrap())
    });
    c.bench_function("predict 24 disks, fio-randread qd 128", |b| {
        b.iter(|| zpoolsim_perf::predict(black_box(&system), black_box(&random)).unwrap())
    });
    let threads: Vec<String> = (1..=64).map(|t| t.to_string()).collect();
    c.bench_function("sweep 64 points of threads, 24 disks", |b| {
        b.iter(|| zpoolsim_perf::sweep(black_box(&system), &random, "threads", &threads).unwrap())
    });
}

/// `predict --latency`'s simulation: a default run (the run length its p99 precision
/// chooses) for random reads and for a buffered writer held by the write throttle.
fn latency(c: &mut Criterion) {
    let system = parse(SYSTEM, "bench", Catalog::embedded()).expect("bench system");
    let mut group = c.benchmark_group("latency 24 disks");
    for spec in [
        "fio-randread:bs=4K,qd=32,threads=4",
        "fio-write:bs=1M,threads=4",
    ] {
        let w = Workload::parse(spec).unwrap();
        let events = zpoolsim_perf::latency(&system, &w).unwrap().events;
        group.throughput(Throughput::Elements(events));
        group.bench_function(spec, |b| {
            b.iter(|| zpoolsim_perf::latency(black_box(&system), black_box(&w)).unwrap())
        });
    }
    group.finish();
}

criterion_group!(benches, bench, latency);
criterion_main!(benches);
