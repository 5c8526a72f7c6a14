//! `capacity --expand`: a raidz pool widened step by step, as text.

use model::units::format_bytes;
use space::{ExpansionReport, PoolFigures, RecordCost, StepReport};
use std::fmt::Write;

pub(crate) fn render(x: &ExpansionReport) -> String {
    let mut o = String::new();
    let _ = writeln!(o);
    let _ = writeln!(
        o,
        "raidz expansion of {} (OpenZFS 2.3 on), recordsize {}:",
        x.layout,
        space::zfs_nicenum(x.recordsize)
    );
    let _ = writeln!(
        o,
        "  zfs list converts with the deflate ratio of the original width, {}/512, for the \
         vdev's life (a vdev created at the final width has {}/512)",
        x.deflate_ratio, x.native_deflate_ratio
    );
    for (i, step) in x.steps.iter().enumerate() {
        render_step(&mut o, i + 1, step, x.recordsize);
    }
    render_rewrite(&mut o, x);
    o
}

fn render_step(o: &mut String, n: usize, s: &StepReport, recordsize: u64) {
    let _ = writeln!(o);
    let _ = writeln!(
        o,
        "step {n}: {} -> {}, {} disk{} attached, {} of data in the pool",
        s.from,
        s.to,
        s.disks_added,
        if s.disks_added == 1 { "" } else { "s" },
        format_bytes(s.data_bytes)
    );
    let _ = writeln!(
        o,
        "  {:<7} {:>11} {:>11} {:>11} {:>5}  {:>15}  {:>16}",
        "",
        "SIZE",
        "ALLOC",
        "FREE",
        "CAP",
        "zfs list AVAIL",
        format!("new {} fits", space::zfs_nicenum(recordsize))
    );
    figures_line(o, "before", &s.before);
    figures_line(o, "after", &s.after);
    let _ = writeln!(
        o,
        "  what a record costs (allocated, and charged by zfs list):"
    );
    for c in &s.records {
        record_line(o, c);
    }
}

fn figures_line(o: &mut String, label: &str, f: &PoolFigures) {
    let cap = if f.size_bytes == 0 {
        0.0
    } else {
        f.alloc_bytes as f64 * 100.0 / f.size_bytes as f64
    };
    let _ = writeln!(
        o,
        "  {label:<7} {:>11} {:>11} {:>11} {:>4.0}%  {:>15}  {:>16}",
        format_bytes(f.size_bytes),
        format_bytes(f.alloc_bytes),
        format_bytes(f.free_bytes),
        cap,
        format_bytes(f.avail_bytes),
        format_bytes(f.fits_bytes)
    );
}

fn record_line(o: &mut String, c: &RecordCost) {
    let born = if c.records == 0 {
        "new records".to_string()
    } else {
        format!("{} records", crate::render::grouped(c.records))
    };
    let _ = writeln!(
        o,
        "    width {:>2}, {:>4}: {:>7} allocated ({:.1}% data), charged {:>7}  {born}",
        c.width,
        space::zfs_nicenum(c.recordsize),
        space::zfs_nicenum(c.asize_bytes),
        c.efficiency * 100.0,
        space::zfs_nicenum(c.charged_bytes),
    );
}

fn render_rewrite(o: &mut String, x: &ExpansionReport) {
    let r = &x.rewrite;
    let _ = writeln!(o);
    if r.records == 0 {
        let _ = writeln!(
            o,
            "every record is at the final width: a rewrite gains nothing"
        );
        return;
    }
    let _ = writeln!(
        o,
        "rewriting the {} records born at an older width (zfs send | zfs recv, or zfs rewrite \
         from OpenZFS 2.4; snapshots keep the old blocks):",
        crate::render::grouped(r.records)
    );
    let _ = writeln!(
        o,
        "  frees {} of ALLOC; zfs list AVAIL {} -> {} (+{})",
        format_bytes(r.alloc_freed_bytes),
        format_bytes(x.end.avail_bytes),
        format_bytes(r.after.avail_bytes),
        format_bytes(r.avail_gained_bytes)
    );
}
