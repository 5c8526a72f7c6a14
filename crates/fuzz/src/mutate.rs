//! Inputs made from seeds by small edits, the ones that find parser bugs: bytes flipped,
//! inserted and deleted, runs repeated, pieces of another seed spliced in, and tokens of the
//! formats (brackets, quotes, numbers at their limits, separators) dropped in. Deterministic:
//! the same seed gives the same inputs.

/// Tokens that sit at the edges of what the parsers read.
const TOKENS: [&str; 40] = [
    "[[disk]]",
    "[[link]]",
    "[[controller]]",
    "[pool]",
    "[host]",
    "[[dataset]]",
    "=",
    "\"",
    "'",
    "{",
    "}",
    "[",
    "]",
    ",",
    ":",
    "+",
    "x",
    "-",
    "..",
    "=\"",
    "\n",
    "\r\n",
    "\t",
    "\0",
    "0",
    "-1",
    "4294967296",
    "18446744073709551616",
    "1e308",
    "nan",
    "inf",
    "0.0",
    "9999999999999999999",
    "{}",
    "é",
    "\u{202e}",
    "%",
    "K",
    "TB",
    ">=",
];

/// Inputs grow at most this long: enough for every seed, short enough to stay fast.
const MAX_LEN: usize = 64 << 10;

/// A xorshift generator over the seeds.
pub struct Mutator {
    state: u64,
    seeds: Vec<Vec<u8>>,
}

impl Mutator {
    /// A generator from `seed` (0 is taken as 1: xorshift never leaves 0) over the given seed
    /// texts.
    pub fn new(seed: u64, seeds: &[String]) -> Mutator {
        Mutator {
            state: seed.max(1),
            seeds: seeds.iter().map(|s| s.as_bytes().to_vec()).collect(),
        }
    }

    fn next(&mut self) -> u64 {
        self.state ^= self.state << 13;
        self.state ^= self.state >> 7;
        self.state ^= self.state << 17;
        self.state
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }

    fn any_seed(&mut self) -> Vec<u8> {
        let i = self.below(self.seeds.len());
        self.seeds[i].clone()
    }

    /// One seed with one to eight edits, as text (invalid UTF-8 replaced, as a file read as
    /// text would be refused before parsing).
    pub fn next_input(&mut self) -> String {
        let mut bytes = self.any_seed();
        for _ in 0..=self.below(8) {
            self.edit(&mut bytes);
        }
        bytes.truncate(MAX_LEN);
        String::from_utf8_lossy(&bytes).into_owned()
    }

    fn edit(&mut self, bytes: &mut Vec<u8>) {
        let at = self.below(bytes.len() + 1);
        match self.below(6) {
            0 if !bytes.is_empty() => {
                let i = self.below(bytes.len());
                bytes[i] ^= 1 << self.below(8);
            }
            1 => bytes.insert(at, self.next() as u8),
            2 if at < bytes.len() => {
                let end = (at + 1 + self.below(16)).min(bytes.len());
                bytes.drain(at..end);
            }
            3 if at < bytes.len() => {
                let end = (at + 1 + self.below(64)).min(bytes.len());
                let run = bytes[at..end].to_vec();
                for _ in 0..=self.below(4) {
                    bytes.splice(at..at, run.iter().copied());
                }
            }
            4 => {
                let other = self.any_seed();
                let from = self.below(other.len());
                let end = (from + self.below(128)).min(other.len());
                bytes.splice(at..at, other[from..end].iter().copied());
            }
            _ => {
                let token = TOKENS[self.below(TOKENS.len())];
                bytes.splice(at..at, token.bytes());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_same_seed_gives_the_same_inputs_and_they_differ() {
        let seeds = vec!["raidz2-6".to_string(), "3x mirror-2".to_string()];
        let a: Vec<String> = {
            let mut m = Mutator::new(7, &seeds);
            (0..100).map(|_| m.next_input()).collect()
        };
        let mut m = Mutator::new(7, &seeds);
        assert!(a.iter().all(|x| *x == m.next_input()));
        let distinct: std::collections::BTreeSet<&String> = a.iter().collect();
        assert!(distinct.len() > 90, "{}", distinct.len());
    }
}
