//! Issue #15: what the first screens say must survive an admin's first look: headline
//! figures the disks can move, and picks an admin would sign.

use model::hardware::DiskModel;
use model::system_file::default_system;
use model::{Catalog, System, VdevType};
use zpoolsim_plan::{plan, with_controllers_for, with_disks, Plan, Rank, Request, Settings, Terms};

fn disk(id: &str) -> &'static DiskModel {
    Catalog::embedded().disk(id).unwrap()
}

fn machine(model: &DiskModel, disks: u32) -> System {
    let (grown, _) = with_controllers_for(&default_system(), model, disks).unwrap();
    with_disks(&grown, model, disks).unwrap()
}

/// The terms every test here starts from: no spares, no redundancy floor, no needs, the
/// standard settings and ranking, the policy's rules applied.
fn terms() -> Terms {
    Terms {
        hot_spares: 0,
        min_redundancy: 0,
        needs: vec![],
        settings: Settings::standard(0.8, 5.0),
        rank: Rank::Usable,
        consider_all: false,
    }
}

fn planned(model: &DiskModel, disks: u32, consider_all: bool) -> Plan {
    plan(&Request {
        system: machine(model, disks),
        terms: Terms {
            consider_all,
            ..terms()
        },
    })
    .unwrap()
}

/// The share of the bytes a vdev writes that are the user's data: the rest is parity or
/// copies. (raidz pads and dRAID fills rows, so a stream's true share is at most this.)
fn data_share(vtype: VdevType, children: u32) -> f64 {
    match vtype {
        VdevType::Disk => 1.0,
        VdevType::Mirror => 1.0 / f64::from(children),
        VdevType::Raidz { parity } => f64::from(children - parity) / f64::from(children),
        VdevType::Draid { parity, data, .. } => f64::from(data) / f64::from(data + parity),
    }
}

/// No standard (uncached, incompressible) read or write of any layout, 4 to 60 hard disks of
/// two sizes, is faster than the pool's disks can move at their outer-edge media rate: reads
/// at most every disk at its media rate, writes at most that times the data's share of what
/// the disks write. With `dd`'s zeros as the write, 8 x 16 TB showed 5.2 GB/s whatever the
/// layout (issue #15).
#[test]
fn no_headline_figure_outruns_the_disks() {
    for id in ["seagate-exos-x16-16tb", "wd-red-plus-4tb"] {
        let model = disk(id);
        let media = model.seq_outer_mb_s * 1e6;
        for n in [4, 8, 12, 24, 60] {
            let p = planned(model, n, true);
            assert!(p.evaluations.len() > 5, "{id} x {n}");
            for e in &p.evaluations {
                let layout = &e.candidate.layout;
                let leaves = f64::from(layout.leaves());
                let g = layout.groups[0];
                let write_bound = leaves * media * data_share(g.vtype, g.children);
                let name = format!("{n} x {id} {layout}");
                assert!(
                    e.read.bytes_per_s <= leaves * media * 1.0001,
                    "{name} read {}",
                    e.read.bytes_per_s
                );
                assert!(
                    e.write.bytes_per_s <= write_bound * 1.0001,
                    "{name} write {} > {write_bound}",
                    e.write.bytes_per_s
                );
            }
        }
    }
}

/// 24 x 16 TB: writes differ by layout family and width (they were all 5.2 GB/s), and mirrors,
/// which write every byte twice, write slower than raidz1 of the same disks.
#[test]
fn twenty_four_disks_write_at_different_speeds_per_family() {
    let p = planned(disk("seagate-exos-x16-16tb"), 24, true);
    let write = |name: &str| {
        p.evaluations
            .iter()
            .find(|e| e.candidate.layout.to_string() == name)
            .unwrap()
            .write
            .bytes_per_s
    };
    let mut distinct: Vec<u64> = p
        .evaluations
        .iter()
        .map(|e| (e.write.bytes_per_s / 1e7).round() as u64)
        .collect();
    distinct.sort_unstable();
    distinct.dedup();
    // 17 distinct rates (10 MB/s steps) with the constants refitted over the whole corpus.
    assert!(distinct.len() >= 15, "{distinct:?}");
    let mirrors = write("12x mirror-2");
    let raidz1 = write("2x raidz1-12");
    let raidz2 = write("2x raidz2-12");
    // One fio writer's calls bound 2x raidz1-12 at about 2.3 GB/s with the modern per-call
    // costs refitted over the whole corpus; the mirrors' disks bound them below it.
    assert!(mirrors < raidz1, "{mirrors} vs {raidz1}");
    assert!(raidz2 <= raidz1, "{raidz2} vs {raidz1}");
    assert_eq!(p.evaluations[0].write.workload, "fio-write");
}

/// The default policy's picks: raidz or mirrors for 4 and 8 disks, never dRAID without a
/// distributed spare for 12 to 24; each caveat of the pick its own sentence.
#[test]
fn picks_an_admin_would_sign() {
    let exos = disk("seagate-exos-x16-16tb");
    for n in [4, 8, 12, 24] {
        let p = planned(exos, n, false);
        let pick = &p.evaluations[p.recommendation.index].candidate.layout;
        for g in &pick.groups {
            match g.vtype {
                VdevType::Draid { spares, .. } => {
                    assert!(n >= 12 && spares > 0, "{n}: {pick}")
                }
                VdevType::Disk => panic!("{n}: {pick}"),
                _ => {}
            }
        }
        if n <= 8 {
            assert!(
                pick.groups
                    .iter()
                    .all(|g| matches!(g.vtype, VdevType::Raidz { .. } | VdevType::Mirror)),
                "{n}: {pick}"
            );
        }
        // Nothing the policy rules out is evaluated.
        let ruled_out = |g: &model::VdevGroup| match g.vtype {
            VdevType::Draid { spares, .. } => spares == 0,
            VdevType::Raidz { .. } => g.children > 12,
            _ => false,
        };
        assert!(p
            .evaluations
            .iter()
            .all(|e| !e.candidate.layout.groups.iter().any(ruled_out)));
        assert!(!p.recommendation.reason.contains("caveat"));
    }
    // The measured picks of the default policy on 16 TB disks.
    let pick = |n: u32| planned(exos, n, false).recommendation.layout;
    // raidz1-4 at 0.12% is at the 0.1% target (within a simulation's interval): kept.
    assert_eq!(pick(4), "raidz1-4");
    assert_eq!(pick(8), "raidz2-8");
    assert_eq!(pick(12), "raidz2-12");
    // 24 disks: the dRAID with a distributed spare now clears the speed floor where 2x
    // raidz2-12 did before the whole-corpus refit.
    assert_eq!(pick(24), "draid2:8d:24c:1s");
    // 24 disks: 45 dRAID without a spare, 66 too narrow for two groups, 18 raidz past 12
    // wide and 36 single-parity layouts ruled out; 228 - 165 = 63 evaluated.
    let p = planned(exos, 24, false);
    let counts: Vec<usize> = p.ruled_out.iter().map(|r| r.layouts).collect();
    assert_eq!(counts, [45, 66, 18, 36]);
    assert_eq!(p.considered, 63);
}

/// `--rank` changes the pick as it says.
#[test]
fn each_ranking_picks_its_best() {
    let exos = disk("seagate-exos-x16-16tb");
    let with = |rank: Rank| {
        plan(&Request {
            system: machine(exos, 24),
            terms: Terms { rank, ..terms() },
        })
        .unwrap()
    };
    let space = with(Rank::Space);
    let safe_best = |p: &Plan, f: &dyn Fn(&zpoolsim_plan::Evaluation) -> f64| {
        p.evaluations
            .iter()
            .filter(|e| e.data_loss().unwrap() <= 0.001)
            .map(f)
            .fold(0.0, f64::max)
    };
    let chosen = |p: &Plan| p.evaluations[p.recommendation.index].clone();
    assert_eq!(
        chosen(&space).avail_bytes as f64,
        safe_best(&space, &|e| e.avail_bytes as f64)
    );
    let iops = with(Rank::Iops);
    assert_eq!(
        chosen(&iops).random.iops,
        safe_best(&iops, &|e| e.random.iops)
    );
    let write = with(Rank::Write);
    assert_eq!(
        chosen(&write).write.bytes_per_s,
        safe_best(&write, &|e| e.write.bytes_per_s)
    );
    assert!(space
        .recommendation
        .reason
        .starts_with("the most usable space (--rank space)"));
}

/// Issue #15: a 4 x 4 TB 2x mirror-2 was excluded by the data sheet's 1e-14 per bit taken as
/// the rate (3.9% block loss); at the field rate of latent errors it stays under the target,
/// and `--afr` moves the odds.
#[test]
fn small_mirrors_are_not_excluded_and_afr_moves_the_odds() {
    let red = disk("wd-red-plus-4tb");
    let p = planned(red, 4, false);
    let mirrors = p
        .evaluations
        .iter()
        .find(|e| e.candidate.layout.to_string() == "2x mirror-2")
        .unwrap();
    let loss = mirrors.data_loss().unwrap();
    assert!((3.0e-4..4.5e-4).contains(&loss), "{loss}");
    // The home NAS's raidz1-4, 0.11% against the 0.1% target, is at the target: kept, picked
    // for its 47% more space, and said so.
    assert_eq!(p.recommendation.layout, "raidz1-4");
    assert!(p.recommendation.caveats[0].starts_with("at the target: its P(data loss) 1.1e-1%"));
    let with_afr = |afr: f64| {
        let mut settings = Settings::standard(0.8, 5.0);
        settings.afr_pct = Some(afr);
        let p = plan(&Request {
            system: machine(red, 4),
            terms: Terms {
                settings,
                consider_all: true,
                ..terms()
            },
        })
        .unwrap();
        p.evaluations
            .iter()
            .find(|e| e.candidate.layout.to_string() == "2x mirror-2")
            .unwrap()
            .closed_form
            .unwrap()
    };
    // Blocks lost scale with the first failure's rate, the pool with its square.
    let (low, high) = (with_afr(1.0), with_afr(4.0));
    let blocks = high.block_loss / low.block_loss;
    let pool = high.pool_loss / low.pool_loss;
    assert!((3.9..4.1).contains(&blocks), "{blocks}");
    assert!((15.5..16.5).contains(&pool), "{pool}");
}

/// Issue #15: `plan --disks 4 --disk micron-7450-pro-3.84tb` failed ("room for 0 disks"):
/// NVMe disks get a PCIe 3.0 x4 link each, as hard disks get HBAs, and the output says so.
#[test]
fn nvme_disks_plan_on_links_of_their_own() {
    let request = zpoolsim_plan::DiskRequest {
        disks: zpoolsim_plan::Disks {
            system: None,
            disk: Some("micron-7450-pro-3.84tb".into()),
            count: Some(4),
            price_usd: None,
        },
        terms: terms(),
        grow_to: None,
    };
    let p = zpoolsim_plan::plan_disks(&request, Catalog::embedded()).unwrap();
    assert_eq!(p.disks, 4);
    assert!(p
        .assumed
        .iter()
        .any(|a| a.starts_with("4 PCIe 3.0 x4 links (nvme-slot0..), one per NVMe disk")));
    let nvme_links = p
        .machine
        .links
        .iter()
        .filter(|l| l.id.starts_with("nvme-slot"))
        .count();
    assert_eq!(nvme_links, 4);
    // With the modern read-call and zio costs back near their priors (the refit after issue
    // 29's encryption, SLC-cache and POSIX AIO mechanisms), the flash layouts no longer all
    // tie on speed: 2x mirror-2 is picked over raidz1-3 and a spare, equal to it in space.
    assert_eq!(p.plan.recommendation.layout, "2x mirror-2");
    // Every layout's loss is known: the field rate of flash (0.98% a year).
    assert!(p.plan.evaluations.iter().all(|e| e.closed_form.is_some()));
}

/// Issue #15: the planner's DEGRADED and loss odds were an idle pool's whatever the load;
/// with a load they use the loaded resilver, the same figure `reliability --load` shows.
#[test]
fn the_planner_uses_the_loaded_resilver() {
    let exos = disk("seagate-exos-x16-16tb");
    let with = |load: Option<&str>| {
        let mut settings = Settings::standard(0.8, 5.0);
        settings.load = load.map(|l| zpoolsim_plan::LabelledWorkload::parse(l).unwrap());
        let p = plan(&Request {
            system: machine(exos, 12),
            terms: Terms {
                settings,
                ..terms()
            },
        })
        .unwrap();
        p.evaluations
            .iter()
            .find(|e| e.candidate.layout.to_string() == "2x raidz2-6")
            .unwrap()
            .clone()
    };
    let (idle, loaded) = (with(None), with(Some("fio-randread:qd=32")));
    // The wait for a disk (72 h) is the same; the resilver under a saturating random load
    // keeps one queue slot in eleven: about 11x the idle resilver.
    let resilver = |e: &zpoolsim_plan::Evaluation| e.degraded_hours - 72.0;
    let ratio = resilver(&loaded) / resilver(&idle);
    assert!((10.0..11.5).contains(&ratio), "{ratio}");
    assert!(loaded.data_loss().unwrap() > idle.data_loss().unwrap());
    // The same figure reliability gives for that pool under that load.
    let system = zpoolsim_plan::with_candidate(
        &machine(exos, 12),
        &zpoolsim_plan::Candidate {
            layout: "2x raidz2-6".parse().unwrap(),
            hot_spares: 0,
        },
    )
    .unwrap();
    let w = model::Workload::parse("fio-randread:qd=32").unwrap();
    let a = reliability::assess(
        &system,
        &reliability::Mission {
            fill: 0.8,
            years: 5.0,
            replacement_hours: 72.0,
            user: Some(reliability::UserLoad {
                workload: &w,
                busy: 1.0,
            }),
            lifetime: None,
            afr_pct: None,
            weibull_shape: None,
            trials: 0,
            seed: 1,
            same_batch: false,
        },
    )
    .unwrap();
    assert!((a.rebuilds[0].hours / resilver(&loaded) - 1.0).abs() < 1e-9);
}

/// Issue #26: the default pick is what an admin would give: raidz2 for 12 x 16 TB (it was 4x
/// mirror-3, 44% of the best space), at least 85% of the best space under the loss target on
/// 60 x 20 TB, and mirrors when the pool is for virtual machines.
#[test]
fn the_default_pick_buys_space_and_a_vm_host_gets_mirrors() {
    let exos = disk("seagate-exos-x16-16tb");
    let twelve = planned(exos, 12, false);
    let pick = &twelve.evaluations[twelve.recommendation.index];
    assert!(matches!(
        pick.candidate.layout.groups[0].vtype,
        VdevType::Raidz { parity: 2 }
    ));
    assert!(twelve
        .recommendation
        .reason
        .contains("against the runner-up raidz3-12"));
    let x20 = disk("seagate-exos-x20-20tb");
    let sixty = planned(x20, 60, false);
    let safe_best = sixty
        .evaluations
        .iter()
        .filter(|e| e.data_loss().unwrap() <= 0.001)
        .map(|e| e.avail_bytes)
        .max()
        .unwrap();
    let chosen = sixty.evaluations[sixty.recommendation.index].avail_bytes;
    assert!(
        chosen as f64 >= 0.85 * safe_best as f64,
        "{chosen} of {safe_best}"
    );
    let purpose: zpoolsim_plan::policy::Purpose = "vm".parse().unwrap();
    let mut settings = Settings::standard(0.8, 5.0);
    settings.random =
        zpoolsim_plan::LabelledWorkload::parse(purpose.random_workload(false)).unwrap();
    let vm = plan(&Request {
        system: machine(exos, 12),
        terms: Terms {
            settings,
            rank: purpose.rank(),
            ..terms()
        },
    })
    .unwrap();
    assert_eq!(vm.recommendation.layout, "6x mirror-2");
}

/// Issue #26: with --grow-to the pick is a layout raidz expansion can grow there within the
/// policy: 6 x 16 TB growing to 10 picked 2x raidz1-3, whose 2x raidz1-5 on 16 TB disks the
/// policy rules out (single parity past 6 disks); raidz2-6 -> raidz2-10 is kept.
#[test]
fn a_pool_that_will_grow_gets_a_layout_that_can() {
    let request = |grow_to| zpoolsim_plan::DiskRequest {
        disks: zpoolsim_plan::Disks {
            system: None,
            disk: Some("seagate-exos-x16-16tb".into()),
            count: Some(6),
            price_usd: None,
        },
        terms: terms(),
        grow_to,
    };
    let pick = |grow_to| {
        zpoolsim_plan::plan_disks(&request(grow_to), Catalog::embedded())
            .unwrap()
            .plan
            .recommendation
            .layout
    };
    assert_eq!(pick(None), "2x raidz1-3");
    assert_eq!(pick(Some(10)), "raidz2-6");
}
