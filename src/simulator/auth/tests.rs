use super::*;

#[test]
fn tokens_are_deterministic_and_distinct() {
    let mut a = Tokens::default();
    let mut b = Tokens::default();
    let pair = a.issue(0, "app");
    assert_eq!(pair, b.issue(0, "app"));
    assert_ne!(pair.0, pair.1);
    assert_ne!(a.issue(0, "app"), pair);
    assert_eq!(a.authenticate(&format!("bEaReR   {}  ", pair.0)), Ok(0));
    assert!(a.authenticate(&format!("Bearer {}", pair.1)).is_err());
    assert!(a.authenticate(&pair.0).is_err());
    assert!(a.authenticate(&format!("Basic {}", pair.0)).is_err());
    assert!(a.authenticate("").is_err());
}
