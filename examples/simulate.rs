//! scratch
fn main() {
    let v: serde_json::Value = serde_json::from_str(r#"{"a": 0.1, "b": 1e2, "c": 12.50, "d": 1e400, "e": -0.0}"#).unwrap();
    println!("{v}");
    let n: serde_json::Number = "121.00".parse().unwrap();
    println!("{} {:?}", n, n.as_str());
    let d = rust_decimal::Decimal::from_scientific("1e2").unwrap();
    println!("{} {}", d, d.scale());
    let d = rust_decimal::Decimal::from_scientific("1.50e1").unwrap();
    println!("{} {}", d, d.scale());
}
