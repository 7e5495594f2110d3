use super::*;

/// BR-CO-09 as the XSLT tests it: the first two characters found inside the list's
/// text, spaces included.
#[test]
fn br_co_09_prefix_is_looked_up_inside_the_list_text() {
    let mut f = Found::default();
    for vat in ["BE0123456749", "EL123", "E 1", "B", "XI1", " BE1"] {
        party(
            &Party {
                vat_number: Some(vat.to_owned()),
                ..Party::default()
            },
            "company",
            true,
            &mut f,
        );
        assert!(!f.has("BR-CO-09"), "{vat}");
    }
    for vat in ["be0123456749", "XX1", "0123456749"] {
        let mut f = Found::default();
        party(
            &Party {
                vat_number: Some(vat.to_owned()),
                ..Party::default()
            },
            "company",
            true,
            &mut f,
        );
        assert!(f.has("BR-CO-09"), "{vat}");
    }
}
