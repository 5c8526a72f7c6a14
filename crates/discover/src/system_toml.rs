//! Writes a system file (docs/system-file.md) from sections of keys and values, each value
//! with the note of what was assumed for it: `# assumed: ...` after the key, so a reader sees
//! at once which figures the machine showed and which it did not.

/// One table of the file (`[host]`, `[[disk]]`, ...) or the top level (an empty header).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Section {
    pub header: String,
    /// Comment lines written above the table.
    pub notes: Vec<String>,
    pub entries: Vec<Entry>,
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Entry {
    pub key: String,
    pub value: toml::Value,
    /// What was assumed for this value; None: it was read from the machine.
    pub assumed: Option<String>,
}

impl Section {
    pub(crate) fn new(header: &str) -> Section {
        Section {
            header: header.to_string(),
            notes: Vec::new(),
            entries: Vec::new(),
        }
    }

    /// Adds a value read from the machine.
    pub(crate) fn read(mut self, key: &str, value: impl Into<toml::Value>) -> Section {
        self.entries.push(Entry {
            key: key.to_string(),
            value: value.into(),
            assumed: None,
        });
        self
    }

    /// Adds a value the machine did not show, with why it is what it is.
    pub(crate) fn assumed(
        mut self,
        key: &str,
        value: impl Into<toml::Value>,
        why: &str,
    ) -> Section {
        self.entries.push(Entry {
            key: key.to_string(),
            value: value.into(),
            assumed: Some(why.to_string()),
        });
        self
    }

    pub(crate) fn note(mut self, line: impl Into<String>) -> Section {
        self.notes.push(line.into());
        self
    }
}

/// The file's text: a heading comment, then each section.
pub(crate) fn write(heading: &[String], sections: &[Section]) -> String {
    let mut out = String::new();
    for line in heading {
        out.push_str(&format!("# {line}\n"));
    }
    for s in sections {
        out.push('\n');
        for n in &s.notes {
            out.push_str(&format!("# {n}\n"));
        }
        if !s.header.is_empty() {
            out.push_str(&format!("{}\n", s.header));
        }
        for e in &s.entries {
            let line = format!("{} = {}", e.key, inline(&e.value));
            match &e.assumed {
                Some(why) => out.push_str(&format!("{line}    # assumed: {why}\n")),
                None => out.push_str(&format!("{line}\n")),
            }
        }
    }
    out
}

/// A value on one line: tables inline (`{ a = 1 }`), arrays of them too.
fn inline(value: &toml::Value) -> String {
    match value {
        toml::Value::Table(t) => {
            let parts: Vec<String> = t
                .iter()
                .map(|(k, v)| format!("{} = {}", key(k), inline(v)))
                .collect();
            format!("{{ {} }}", parts.join(", "))
        }
        toml::Value::Array(a) => {
            let parts: Vec<String> = a.iter().map(inline).collect();
            format!("[{}]", parts.join(", "))
        }
        other => other.to_string(),
    }
}

/// A key, quoted when it is not a bare key.
fn key(k: &str) -> String {
    if !k.is_empty()
        && k.chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
    {
        k.to_string()
    } else {
        toml::Value::String(k.to_string()).to_string()
    }
}

/// A catalog id from a model name: lowercase letters, digits, '.' and single '-'.
pub(crate) fn catalog_id(model: &str) -> String {
    let s: String = model
        .to_ascii_lowercase()
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '.' {
                c
            } else {
                '-'
            }
        })
        .collect();
    let s = s
        .split('-')
        .filter(|p| !p.is_empty())
        .collect::<Vec<_>>()
        .join("-");
    if s.is_empty() {
        "disk".into()
    } else {
        s
    }
}
