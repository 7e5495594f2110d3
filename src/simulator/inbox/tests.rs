use crate::attachment::decode_base64 as base64;

#[test]
fn base64_standard_alphabet_padding_optional() {
    assert_eq!(base64("JVBERi0xLjQ=").as_deref(), Some(&b"%PDF-1.4"[..]));
    assert_eq!(base64("JVBERi0xLjQ").as_deref(), Some(&b"%PDF-1.4"[..]));
    assert_eq!(
        base64("JVBE\r\nRi0x LjQ=").as_deref(),
        Some(&b"%PDF-1.4"[..])
    );
    assert_eq!(base64("").as_deref(), Some(&b""[..]));
    for bad in ["JVBERi0xLjQ*", "J", "JV=BE", "JVBERi0xLjR="] {
        assert_eq!(base64(bad), None, "{bad}");
    }
}
