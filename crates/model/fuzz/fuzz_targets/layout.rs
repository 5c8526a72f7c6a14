//! Layout strings: parsing never panics, and whatever parses prints back to itself.
#![no_main]

use libfuzzer_sys::fuzz_target;
use model::Layout;

fuzz_target!(|text: &str| {
    if let Ok(layout) = text.parse::<Layout>() {
        let printed = layout.to_string();
        let again: Layout = printed
            .parse()
            .unwrap_or_else(|e| panic!("'{text}' printed as '{printed}', which does not parse: {e}"));
        assert_eq!(again, layout, "'{text}' printed as '{printed}'");
        assert!(layout.leaves() >= layout.top_level_vdevs());
    }
});
