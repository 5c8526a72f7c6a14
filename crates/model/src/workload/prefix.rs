//! How a command line was run, written before it: `N x 'CMD'` or `copies=N CMD` for N copies
//! started at once (TrueNAS's tn-bench runs one dd per thread this way), `cache=cold` or
//! `cache=warm` for what the ARC held when the timing began (a fresh import or a dropped cache
//! is cold; a run right after writing the same data is warm), `fill=80%` for how full the pool
//! was before the run.

use super::args::{count, words};
use super::{CacheState, Workload, WorkloadError};
use crate::input::clip;

/// What leads a command line, and the command.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Lead {
    pub copies: u32,
    pub cache: Option<CacheState>,
    /// `fill=` as written: each phase takes it as its own parameter (`Workload::set`).
    pub fill: Option<String>,
    pub command: String,
}

impl Lead {
    /// The lead of `spec`, or `None` when it has none.
    pub(super) fn of(spec: &str) -> Result<Option<Lead>, WorkloadError> {
        let first = spec.split_whitespace().next().unwrap_or("");
        let led = first.contains('=') && !first.contains(':')
            || first.chars().all(|c| c.is_ascii_digit()) && !first.is_empty();
        if !led {
            return Ok(None);
        }
        let w = words(spec)?;
        if w.len() == 3 && w[1] == "x" {
            let copies = count(&w[0], "copies (N x 'command')")?;
            return Ok(Some(Lead {
                copies,
                cache: None,
                fill: None,
                command: w[2].clone(),
            }));
        }
        let mut lead = Lead {
            copies: 1,
            cache: None,
            fill: None,
            command: String::new(),
        };
        let mut rest = spec.trim();
        while let Some((word, tail)) = rest.split_once(char::is_whitespace) {
            let Some((key, value)) = word.split_once('=') else {
                break;
            };
            match key {
                "copies" => lead.copies = count(value, "copies")?,
                "cache" => lead.cache = Some(cache(value)?),
                "fill" => lead.fill = Some(value.to_string()),
                _ => {
                    return Err(WorkloadError(format!(
                        "'{}' before the command: expected copies=N, cache=cold|warm or fill=N%",
                        clip(word, 30)
                    )))
                }
            }
            rest = tail.trim_start();
        }
        if rest == spec.trim() {
            // Nothing led it (a bare number, say): not a lead, and never one led by itself.
            return Ok(None);
        }
        if rest.contains('=') && !rest.contains(' ') {
            return Err(WorkloadError(
                "copies=N, cache=... or fill=... leads a command: give the command after it".into(),
            ));
        }
        lead.command = rest.to_string();
        Ok(Some(lead))
    }

    /// `phases` run as the lead says: each copy's threads on their own files.
    pub(super) fn apply(&self, mut phases: Vec<Workload>) -> Result<Vec<Workload>, WorkloadError> {
        for w in &mut phases {
            if self.copies > 1 {
                if w.shared_file && w.threads > 1 {
                    return Err(WorkloadError(format!(
                        "{} copies of '{}': copies of a run whose threads share one file are not modelled",
                        self.copies, w.kind
                    )));
                }
                w.shared_file = false;
                w.threads = w.threads.saturating_mul(self.copies).min(65_536);
                w.kind = format!("{} x {}", self.copies, w.kind);
            }
            if let Some(cache) = self.cache {
                w.cache = cache;
            }
            if let Some(fill) = &self.fill {
                w.set("fill", fill)?;
            }
        }
        Ok(phases)
    }
}

fn cache(value: &str) -> Result<CacheState, WorkloadError> {
    match value {
        "cold" => Ok(CacheState::Cold),
        "warm" => Ok(CacheState::Warm),
        _ => Err(WorkloadError(format!(
            "cache={}: expected cold or warm",
            clip(value, 20)
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::super::Access;
    use super::*;

    #[test]
    fn copies_run_each_on_its_own_file() {
        let one = Workload::parse("dd if=/dev/zero of=/tank/f bs=1M count=1000").unwrap();
        let four = Workload::parse("4 x 'dd if=/dev/zero of=/tank/f bs=1M count=1000'").unwrap();
        assert_eq!(one.threads, 1);
        assert_eq!(four.threads, 4);
        assert_eq!(four.total_bytes(), Some((4 * 1000) << 20));
        let same = Workload::parse("copies=4 dd if=/dev/zero of=/tank/f bs=1M count=1000").unwrap();
        assert_eq!(same.threads, four.threads);
        assert_eq!(same.access, Access::SeqWrite);
    }

    #[test]
    fn fill_says_how_full_the_pool_was_before_the_run() {
        let cmd = "fio --rw=write --bs=1M --size=1G";
        assert_eq!(Workload::parse(cmd).unwrap().pool_fill, 0.0);
        let led = Workload::parse(&format!("fill=91% {cmd}")).unwrap();
        assert!((led.pool_fill - 0.91).abs() < 1e-12);
        let preset = Workload::parse("dd-write:fill=0.5").unwrap();
        assert_eq!(preset.pool_fill, 0.5);
        // Past 95% the slop reservation stops writers; a raw disk holds no pool.
        let over = Workload::parse(&format!("fill=97% {cmd}")).unwrap_err().0;
        assert!(over.contains("from 0% to 95%"), "{over}");
        assert!(Workload::parse("dd-write:fill=-1%").is_err());
        let raw = Workload::parse("raw-write:fill=50%").unwrap_err().0;
        assert!(raw.contains("raw disk holds no pool"), "{raw}");
        let raw =
            Workload::parse("fill=50% dd if=/dev/zero of=/dev/sdb bs=1M count=10").unwrap_err();
        assert!(raw.0.contains("raw disk holds no pool"), "{}", raw.0);
    }

    #[test]
    fn a_bare_number_or_a_lead_inside_a_lead_is_refused_not_recursed() {
        // The fuzzer found "5" read as a lead of the command "5", forever (a stack overflow).
        for spec in [
            "5",
            "1 x 1",
            "1 x '1 x 1'",
            "copies=2 7",
            "2 x 'copies=2 dd-read'",
        ] {
            let e = Workload::parse(spec).unwrap_err().to_string();
            assert!(!e.is_empty() && !e.contains('\n'), "{spec}: {e}");
        }
        assert!(Lead::of("5").unwrap().is_none());
    }

    #[test]
    fn a_cold_cache_is_said_before_the_command() {
        let cold =
            Workload::parse("cache=cold dd if=/tank/f of=/dev/null bs=1M count=100").unwrap();
        assert_eq!(cold.cache, CacheState::Cold);
        let warm = Workload::parse("dd if=/tank/f of=/dev/null bs=1M count=100").unwrap();
        assert_eq!(warm.cache, CacheState::Warm);
        let both = Workload::parse("copies=2 cache=cold fio --rw=read --bs=1M --size=1G").unwrap();
        assert_eq!((both.threads, both.cache), (2, CacheState::Cold));
        let phase = Workload::parse("cache=cold bonnie++ -s 1g -f -b @read").unwrap();
        assert_eq!(phase.cache, CacheState::Cold);
    }

    #[test]
    fn bad_leads_are_refused() {
        assert!(Workload::parse("cache=lukewarm dd if=/tank/f of=/dev/null").is_err());
        assert!(Workload::parse("copies=0 dd if=/tank/f of=/dev/null").is_err());
        assert!(Workload::parse("speed=9 dd if=/tank/f of=/dev/null").is_err());
        assert!(Workload::parse("0 x 'dd if=/tank/f of=/dev/null'").is_err());
        assert!(Workload::parse("copies=2").is_err());
    }
}
