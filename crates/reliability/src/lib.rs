//! Reliability: MTTDL closed forms, Monte Carlo, resilver time.
