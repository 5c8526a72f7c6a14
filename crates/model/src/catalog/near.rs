//! Near matches for an unknown catalog id, so an error can say what was probably meant.

/// Up to three ids close to `wanted`: those containing it or contained in it if there are any,
/// else the nearest by edit distance, within a third of the longer length.
pub(super) fn near_matches<'a>(wanted: &str, ids: impl Iterator<Item = &'a str>) -> Vec<String> {
    let wanted = wanted.to_ascii_lowercase();
    let mut scored: Vec<(usize, &str)> = ids
        .filter_map(|id| {
            let lower = id.to_ascii_lowercase();
            let score =
                if !wanted.is_empty() && (lower.contains(&wanted) || wanted.contains(&lower)) {
                    0
                } else {
                    let d = edit_distance(&wanted, &lower);
                    let limit = wanted.chars().count().max(lower.chars().count()) / 3;
                    if d > limit.max(1) {
                        return None;
                    }
                    d
                };
            Some((score, id))
        })
        .collect();
    scored.sort();
    // An id that contains what was typed beats any typo-distance guess.
    if scored.first().is_some_and(|(score, _)| *score == 0) {
        scored.retain(|(score, _)| *score == 0);
    }
    scored
        .into_iter()
        .take(3)
        .map(|(_, id)| id.to_string())
        .collect()
}

/// Levenshtein distance in characters.
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let next = (row[j + 1] + 1)
                .min(row[j] + 1)
                .min(diagonal + usize::from(ca != cb));
            diagonal = row[j + 1];
            row[j + 1] = next;
        }
    }
    row[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distance() {
        assert_eq!(edit_distance("kitten", "sitting"), 3);
        assert_eq!(edit_distance("", "abc"), 3);
        assert_eq!(edit_distance("same", "same"), 0);
    }

    #[test]
    fn suggests_substrings_then_typos() {
        let ids = [
            "seagate-exos-x16-16tb",
            "seagate-exos-x18-18tb",
            "samsung-hd753lj",
        ];
        assert_eq!(
            near_matches("exos", ids.into_iter()),
            vec!["seagate-exos-x16-16tb", "seagate-exos-x18-18tb"]
        );
        assert_eq!(
            near_matches("samsung-hd753l", ids.into_iter()),
            vec!["samsung-hd753lj"]
        );
        assert_eq!(
            near_matches("samsng-hd753lj", ids.into_iter()),
            vec!["samsung-hd753lj"]
        );
        assert!(near_matches("ibm-deskstar", ids.into_iter()).is_empty());
    }
}
