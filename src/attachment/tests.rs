use super::*;

#[test]
fn base64_skips_white_space_and_refuses_what_does_not_decode() {
    assert_eq!(decode_base64("aGVs\r\n bG8="), Some(b"hello".to_vec()));
    assert_eq!(decode_base64("aGVsbG8"), Some(b"hello".to_vec()));
    assert_eq!(decode_base64("aGVsbG8=="), None);
    assert_eq!(decode_base64("a*=="), None);
    assert_eq!(encode_base64(b"hello"), "aGVsbG8=");
}

#[test]
fn sha256_is_lower_case_hex() {
    assert_eq!(
        sha256_hex(b"abc"),
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
    );
}

#[test]
fn media_types_compare_without_case_and_drop_parameters() {
    // docs/files.md §1: parameters dropped, compared without case
    assert_eq!(
        MediaType::from_content_type("TEXT/CSV; charset=utf-8"),
        Some(MediaType::Csv)
    );
    assert_eq!(
        MediaType::from_content_type(" application/pdf "),
        Some(MediaType::Pdf)
    );
    assert_eq!(MediaType::from_content_type("image/gif"), None);
    assert_eq!(MediaType::from_content_type(""), None);
    for m in MediaType::ALL {
        assert_eq!(MediaType::from_content_type(m.as_str()), Some(m));
    }
}
