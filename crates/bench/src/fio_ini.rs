//! A value in a fio job file as fio's own parser reads it back, so that every line bench
//! writes is the one option it means and no value can start a line, a section or a command.
//!
//! fio reads a job file a line at a time (init.c, `__parse_jobs_ini`: `fgets` of at most
//! OPT_LEN_MAX, 8192 bytes, parse.h): a newline ends the option; a line whose first printing
//! character is `;` or `#` is a comment (`is_empty_or_comment`); every other line is cut at its
//! first `;` and at its first `#`, and its trailing blanks and control characters are dropped
//! (parse.c, `strip_blank_end`). Then `${NAME}` becomes the environment's NAME
//! (options.c, `fio_option_dup_subs`), `$pagesize`, `$mb_memory` and `$ncpus` their figures,
//! after which a line holding `+ - * /` is handed to `bc` through a shell (`fio_keyword_replace`,
//! `bc_calc`). `directory=` is a list split at each `:` that no `\` escapes (options.c,
//! `get_next_str`, which drops the `\`). A section is `[name]` of at most 255 bytes
//! (`sscanf("[%255[^\n]]")`), and any name starting `global` is the global section.

use crate::{MeasureError, Result};
use std::path::Path;

/// Longest directory written: Linux's PATH_MAX, well inside fio's 8192-byte line.
const MAX_DIRECTORY_BYTES: usize = 4096;

/// Longest section name fio's `sscanf("[%255[^\n]]")` keeps whole.
const MAX_SECTION_BYTES: usize = 255;

/// `dir` as the value of `directory=`: each `:` escaped as fio documents it (`\:`); refused in
/// one line where fio would read something else (a cut line, a new line, a substitution).
/// (Trailing blanks, which fio drops, cannot occur: bench's own directory name ends it.)
pub(crate) fn directory(dir: &Path) -> Result<String> {
    let refuse = |why: &str| {
        MeasureError::refuse(format!(
            "{}: fio's job file cannot name this directory: {why}; bench a directory whose path has none",
            model::input::echo(&dir.to_string_lossy())
        ))
    };
    let Some(text) = dir.to_str() else {
        return refuse("its path is not UTF-8");
    };
    if text.len() > MAX_DIRECTORY_BYTES {
        return refuse("its path is longer than 4096 bytes");
    }
    if text.chars().any(char::is_control) {
        return refuse("a control character (a newline would start a job-file line of its own)");
    }
    if text.contains([';', '#']) {
        return refuse("a `;` or `#` (fio cuts a job-file line at either)");
    }
    if text.contains('$') {
        return refuse(
            "a `$` (fio replaces ${NAME}, $pagesize, $mb_memory and $ncpus in a job file)",
        );
    }
    Ok(text.replace(':', "\\:"))
}

/// `name` as a section header's name: letters, digits and `-_.+`, at most 255 bytes, never
/// fio's global section; a workload's kind always is.
pub(crate) fn section(name: &str) -> Result<&str> {
    let plain = |c: char| c.is_ascii_alphanumeric() || "-_.+".contains(c);
    if name.is_empty()
        || name.len() > MAX_SECTION_BYTES
        || !name.chars().all(plain)
        || name.starts_with("global")
    {
        return MeasureError::refuse(format!(
            "{}: not a fio job name (letters, digits and -_.+, at most 255, not global)",
            model::input::echo(name)
        ));
    }
    Ok(name)
}
