//! Any serde type as a [`serde_json::Value`] with exact floats,
//! infinities and NaN included: finite numbers are written as numbers
//! (the shortest decimal that reads back to the same `f64`), non-finite
//! ones as the marker strings (see [`crate::marker_of`]), which read back
//! as those values wherever an `f64` is expected. Plain serde_json writes
//! them as `null` and cannot read them back (e.g. the unbounded
//! winsorising limits of GLRM's linear terms).
//!
//! [`to_value`] serializes into a [`serde_json::Value`]; [`from_value`]
//! deserializes from one. Limitation: a non-finite float inside an
//! `untagged` or `flatten`ed serde type is read as a string and fails.

use serde::de::value::{MapAccessDeserializer, MapDeserializer, SeqDeserializer};
use serde::de::{self, DeserializeOwned, IntoDeserializer, Visitor};
use serde::ser::{self, Serialize};
use serde_json::{Map, Number, Value};

use crate::marker::{marker_of, parse_marker};

type Error = serde_json::Error;

/// `value` as a JSON value, non-finite floats as marker strings.
///
/// # Errors
/// serde_json's, e.g. a map key that is not a string or a number.
pub fn to_value<T: Serialize + ?Sized>(value: &T) -> Result<Value, Error> {
    value.serialize(ValueSer)
}

/// A `T` from a JSON value, reading marker strings as non-finite floats
/// where an `f64` is expected.
///
/// # Errors
/// serde_json's, for a value of another shape than `T`.
pub fn from_value<T: DeserializeOwned>(value: Value) -> Result<T, Error> {
    T::deserialize(De(value))
}

// --- serializing ----------------------------------------------------------

struct ValueSer;

impl ser::Serializer for ValueSer {
    type Ok = Value;
    type Error = Error;
    type SerializeSeq = SeqSer;
    type SerializeTuple = SeqSer;
    type SerializeTupleStruct = SeqSer;
    type SerializeTupleVariant = VariantSer<SeqSer>;
    type SerializeMap = MapSer;
    type SerializeStruct = MapSer;
    type SerializeStructVariant = VariantSer<MapSer>;

    fn serialize_bool(self, v: bool) -> Result<Value, Error> {
        Ok(Value::Bool(v))
    }
    fn serialize_i8(self, v: i8) -> Result<Value, Error> {
        Ok(Value::from(v))
    }
    fn serialize_i16(self, v: i16) -> Result<Value, Error> {
        Ok(Value::from(v))
    }
    fn serialize_i32(self, v: i32) -> Result<Value, Error> {
        Ok(Value::from(v))
    }
    fn serialize_i64(self, v: i64) -> Result<Value, Error> {
        Ok(Value::from(v))
    }
    fn serialize_u8(self, v: u8) -> Result<Value, Error> {
        Ok(Value::from(v))
    }
    fn serialize_u16(self, v: u16) -> Result<Value, Error> {
        Ok(Value::from(v))
    }
    fn serialize_u32(self, v: u32) -> Result<Value, Error> {
        Ok(Value::from(v))
    }
    fn serialize_u64(self, v: u64) -> Result<Value, Error> {
        Ok(Value::from(v))
    }
    fn serialize_f32(self, v: f32) -> Result<Value, Error> {
        self.serialize_f64(f64::from(v))
    }
    fn serialize_f64(self, v: f64) -> Result<Value, Error> {
        Ok(match Number::from_f64(v) {
            Some(n) => Value::Number(n),
            // Only non-finite floats have no JSON number.
            None => Value::String(marker_of(v).unwrap_or(crate::marker::NAN).into()),
        })
    }
    fn serialize_char(self, v: char) -> Result<Value, Error> {
        Ok(Value::String(v.to_string()))
    }
    fn serialize_str(self, v: &str) -> Result<Value, Error> {
        Ok(Value::String(v.into()))
    }
    fn serialize_bytes(self, v: &[u8]) -> Result<Value, Error> {
        Ok(Value::Array(v.iter().map(|&b| Value::from(b)).collect()))
    }
    fn serialize_none(self) -> Result<Value, Error> {
        Ok(Value::Null)
    }
    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<Value, Error> {
        value.serialize(self)
    }
    fn serialize_unit(self) -> Result<Value, Error> {
        Ok(Value::Null)
    }
    fn serialize_unit_struct(self, _: &'static str) -> Result<Value, Error> {
        Ok(Value::Null)
    }
    fn serialize_unit_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
    ) -> Result<Value, Error> {
        Ok(Value::String(variant.into()))
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        value: &T,
    ) -> Result<Value, Error> {
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<Value, Error> {
        let mut map = Map::new();
        map.insert(variant.into(), value.serialize(ValueSer)?);
        Ok(Value::Object(map))
    }
    fn serialize_seq(self, len: Option<usize>) -> Result<SeqSer, Error> {
        Ok(SeqSer(Vec::with_capacity(len.unwrap_or(0))))
    }
    fn serialize_tuple(self, len: usize) -> Result<SeqSer, Error> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_struct(self, _: &'static str, len: usize) -> Result<SeqSer, Error> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<VariantSer<SeqSer>, Error> {
        Ok(VariantSer(variant, SeqSer(Vec::with_capacity(len))))
    }
    fn serialize_map(self, _: Option<usize>) -> Result<MapSer, Error> {
        Ok(MapSer(Map::new(), None))
    }
    fn serialize_struct(self, _: &'static str, _: usize) -> Result<MapSer, Error> {
        Ok(MapSer(Map::new(), None))
    }
    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        _: usize,
    ) -> Result<VariantSer<MapSer>, Error> {
        Ok(VariantSer(variant, MapSer(Map::new(), None)))
    }
}

struct SeqSer(Vec<Value>);

impl SeqSer {
    fn push<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
        self.0.push(value.serialize(ValueSer)?);
        Ok(())
    }
}

impl ser::SerializeSeq for SeqSer {
    type Ok = Value;
    type Error = Error;
    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
        self.push(value)
    }
    fn end(self) -> Result<Value, Error> {
        Ok(Value::Array(self.0))
    }
}

impl ser::SerializeTuple for SeqSer {
    type Ok = Value;
    type Error = Error;
    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
        self.push(value)
    }
    fn end(self) -> Result<Value, Error> {
        Ok(Value::Array(self.0))
    }
}

impl ser::SerializeTupleStruct for SeqSer {
    type Ok = Value;
    type Error = Error;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
        self.push(value)
    }
    fn end(self) -> Result<Value, Error> {
        Ok(Value::Array(self.0))
    }
}

/// A map or struct under construction, with the pending map key.
struct MapSer(Map<String, Value>, Option<String>);

/// A map key as JSON writes it: strings as they are, numbers and bools
/// printed.
fn key_string(key: Value) -> Result<String, Error> {
    match key {
        Value::String(s) => Ok(s),
        Value::Number(n) => Ok(n.to_string()),
        Value::Bool(b) => Ok(b.to_string()),
        other => Err(ser::Error::custom(format!(
            "a map key must be a string or a number, found {other}"
        ))),
    }
}

impl ser::SerializeMap for MapSer {
    type Ok = Value;
    type Error = Error;
    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<(), Error> {
        self.1 = Some(key_string(key.serialize(ValueSer)?)?);
        Ok(())
    }
    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
        let key = self
            .1
            .take()
            .ok_or_else(|| <Error as ser::Error>::custom("a map value without a key"))?;
        self.0.insert(key, value.serialize(ValueSer)?);
        Ok(())
    }
    fn end(self) -> Result<Value, Error> {
        Ok(Value::Object(self.0))
    }
}

impl ser::SerializeStruct for MapSer {
    type Ok = Value;
    type Error = Error;
    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), Error> {
        self.0.insert(key.into(), value.serialize(ValueSer)?);
        Ok(())
    }
    fn end(self) -> Result<Value, Error> {
        Ok(Value::Object(self.0))
    }
}

/// An enum variant with data: `{ "Variant": data }`.
struct VariantSer<S>(&'static str, S);

impl<S> VariantSer<S> {
    fn wrap(name: &'static str, inner: Value) -> Value {
        let mut map = Map::new();
        map.insert(name.into(), inner);
        Value::Object(map)
    }
}

impl ser::SerializeTupleVariant for VariantSer<SeqSer> {
    type Ok = Value;
    type Error = Error;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
        self.1.push(value)
    }
    fn end(self) -> Result<Value, Error> {
        Ok(Self::wrap(self.0, Value::Array(self.1 .0)))
    }
}

impl ser::SerializeStructVariant for VariantSer<MapSer> {
    type Ok = Value;
    type Error = Error;
    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), Error> {
        self.1 .0.insert(key.into(), value.serialize(ValueSer)?);
        Ok(())
    }
    fn end(self) -> Result<Value, Error> {
        Ok(Self::wrap(self.0, Value::Object(self.1 .0)))
    }
}

// --- deserializing --------------------------------------------------------

/// A JSON value read as serde data, marker strings as non-finite floats
/// where a float is expected.
struct De(Value);

impl<'de> IntoDeserializer<'de, Error> for De {
    type Deserializer = De;
    fn into_deserializer(self) -> De {
        self
    }
}

fn map_access(
    map: Map<String, Value>,
) -> MapDeserializer<'static, impl Iterator<Item = (String, De)>, Error> {
    MapDeserializer::new(map.into_iter().map(|(k, v)| (k, De(v))))
}

impl<'de> de::Deserializer<'de> for De {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self.0 {
            Value::Null => visitor.visit_unit(),
            Value::Bool(b) => visitor.visit_bool(b),
            Value::Number(n) => {
                if let Some(u) = n.as_u64() {
                    visitor.visit_u64(u)
                } else if let Some(i) = n.as_i64() {
                    visitor.visit_i64(i)
                } else if let Some(f) = n.as_f64() {
                    visitor.visit_f64(f)
                } else {
                    Err(de::Error::custom(format!("unreadable number {n}")))
                }
            }
            Value::String(s) => visitor.visit_string(s),
            Value::Array(items) => {
                let mut seq = SeqDeserializer::new(items.into_iter().map(De));
                let out = visitor.visit_seq(&mut seq)?;
                seq.end()?;
                Ok(out)
            }
            Value::Object(map) => {
                let mut access = map_access(map);
                let out = visitor.visit_map(&mut access)?;
                access.end()?;
                Ok(out)
            }
        }
    }

    fn deserialize_f64<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match &self.0 {
            Value::String(s) => match parse_marker(s) {
                Some(v) => visitor.visit_f64(v),
                None => self.deserialize_any(visitor),
            },
            _ => self.deserialize_any(visitor),
        }
    }

    fn deserialize_f32<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.deserialize_f64(visitor)
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self.0 {
            Value::Null => visitor.visit_none(),
            other => visitor.visit_some(De(other)),
        }
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        visitor: V,
    ) -> Result<V::Value, Error> {
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _: &'static str,
        _: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        match self.0 {
            Value::String(s) => visitor.visit_enum(s.into_deserializer()),
            Value::Object(map) if map.len() == 1 => {
                visitor.visit_enum(MapAccessDeserializer::new(map_access(map)))
            }
            other => Err(de::Error::custom(format!(
                "expected an enum variant (a string or an object with one key), found {other}"
            ))),
        }
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 char str string
        bytes byte_buf unit unit_struct seq tuple tuple_struct map struct
        identifier ignored_any
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::{Deserialize, Serialize};

    #[derive(Debug, Serialize, Deserialize)]
    enum Shape {
        Point,
        Bound(f64),
        Range { lo: f64, hi: f64 },
        Pair(f64, Option<f64>),
    }

    #[derive(Debug, Serialize, Deserialize)]
    struct Holder {
        name: String,
        values: Vec<f64>,
        shapes: Vec<Shape>,
        by_id: std::collections::BTreeMap<String, f32>,
        none: Option<f64>,
    }

    fn same(a: f64, b: f64) -> bool {
        a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan())
    }

    #[test]
    fn non_finite_floats_and_exact_floats_survive_text() {
        let h = Holder {
            name: "inf".into(),
            values: vec![
                0.1,
                -0.0,
                f64::INFINITY,
                f64::NEG_INFINITY,
                f64::NAN,
                1e-308,
                5e-324,
            ],
            shapes: vec![
                Shape::Point,
                Shape::Bound(f64::NEG_INFINITY),
                Shape::Range {
                    lo: f64::NEG_INFINITY,
                    hi: 2.5,
                },
                Shape::Pair(f64::NAN, None),
            ],
            by_id: [("a".to_string(), f32::INFINITY)].into_iter().collect(),
            none: None,
        };
        let text = serde_json::to_string(&to_value(&h).unwrap()).unwrap();
        assert!(text.contains("\"-inf\""), "{text}");
        let back: Holder = from_value(serde_json::from_str(&text).unwrap()).unwrap();
        assert_eq!(
            back.name, "inf",
            "a string that looks like a marker stays a string"
        );
        assert_eq!(back.values.len(), h.values.len());
        for (a, b) in back.values.iter().zip(&h.values) {
            assert!(same(*a, *b), "{a} vs {b}");
        }
        assert!(matches!(back.shapes[0], Shape::Point));
        assert!(matches!(back.shapes[1], Shape::Bound(v) if v == f64::NEG_INFINITY));
        assert!(
            matches!(back.shapes[2], Shape::Range { lo, hi } if lo == f64::NEG_INFINITY && hi == 2.5)
        );
        assert!(matches!(back.shapes[3], Shape::Pair(v, None) if v.is_nan()));
        assert_eq!(back.by_id["a"], f32::INFINITY);
        assert!(back.none.is_none());
    }

    #[test]
    fn a_stray_string_is_not_a_float() {
        let v: Result<Vec<f64>, _> = from_value(serde_json::json!(["infinity"]));
        assert!(v.is_err());
    }
}
