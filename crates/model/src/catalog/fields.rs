//! The names of a struct's fields as serde knows them, to check `sources` keys and measured
//! overrides against the real fields without keeping a second list by hand.

use serde::de::{self, Deserialize, Visitor};
use std::cell::Cell;

/// Field names of a `#[derive(Deserialize)]` struct.
pub(crate) fn field_names<'de, T: Deserialize<'de>>() -> &'static [&'static str] {
    let grab = Grab(Cell::new(&[]));
    let _ = T::deserialize(&grab);
    grab.0.get()
}

/// A deserializer that only records the field list a struct asks for, then refuses.
struct Grab(Cell<&'static [&'static str]>);

impl<'de> de::Deserializer<'de> for &Grab {
    type Error = de::value::Error;

    fn deserialize_any<V: Visitor<'de>>(self, _: V) -> Result<V::Value, Self::Error> {
        Err(de::Error::custom("field names only"))
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        fields: &'static [&'static str],
        _visitor: V,
    ) -> Result<V::Value, Self::Error> {
        self.0.set(fields);
        Err(de::Error::custom("field names only"))
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
        option unit unit_struct newtype_struct seq tuple tuple_struct map enum identifier
        ignored_any
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hardware::{CpuModel, DiskModel};

    #[test]
    fn lists_every_field_of_a_model() {
        let disk = field_names::<DiskModel>();
        assert!(disk.contains(&"seq_inner_mb_s"));
        assert!(disk.contains(&"zones"));
        assert_eq!(disk.first(), Some(&"id"));
        assert_eq!(field_names::<CpuModel>().len(), 11);
    }
}
