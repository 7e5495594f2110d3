//! What the simulator keeps (docs/scenario.md): the ids it hands out, the journal
//! counters, preloaded documents, the sandbox that keeps nothing, `TICK`, `SET` and
//! the default branding.

use crate::support::{
    answers, assert_error, base, create_request, invoice, request, request_with, responses,
    simulator, with_requests,
};
use invoicing_core::context::Context;
use invoicing_core::numbering::Window;
use serde_json::{json, Value};

/// The base world with one preloaded document per `(id, create, state)`.
fn with_documents(documents: Value) -> Value {
    let mut s = base();
    s["documents"] = documents;
    s
}

fn tick() -> Value {
    json!({"method": "TICK"})
}

fn set(id: &str, state: &Value) -> Value {
    json!({"method": "SET", "path": format!("/documents/{id}"), "body": state})
}

#[test]
fn live_documents_get_doc_ids_in_creation_order() {
    // docs/scenario.md: ids of documents created by requests are doc-1, doc-2, … in
    // creation order; preloaded documents keep their own ids and use up none of these
    let s = with_requests(
        with_documents(json!([{"id": "doc-old", "create": invoice()}])),
        vec![
            create_request("app", "", &invoice()),
            create_request("app", "", &json!({"type": "sale_invoice"})),
            create_request("app", "", &invoice()),
            request("app", "GET", "/documents/doc-2"),
            request("app", "GET", "/documents/doc-old"),
        ],
    );
    let out = responses(&s);
    assert_eq!(out[0].1["id"], json!("doc-1"));
    assert_eq!(out[1].0, 422, "a refused create uses up no id");
    assert_eq!(out[2].1["id"], json!("doc-2"));
    assert_eq!(
        out[3],
        (200, out[2].1.clone()),
        "GET answers the stored document"
    );
    assert_eq!(out[4].1["id"], json!("doc-old"));
    assert_eq!(out[4].1["document_number"], json!("INV2026-0001"));
    assert_eq!(out[0].1["document_number"], json!("INV2026-0002"));
}

#[test]
fn sandbox_documents_get_sbx_ids_that_never_resolve() {
    // docs/scenario.md: a sandbox client's documents get ids sbx-1, sbx-2, … that never resolve
    let out = answers(vec![
        create_request("sbx", "", &invoice()),
        create_request("sbx", "", &invoice()),
        request("sbx", "GET", "/documents/sbx-1"),
        request("app", "GET", "/documents/sbx-2"),
        create_request("app", "", &invoice()),
    ]);
    assert_eq!((out[0].0, &out[0].1["id"]), (201, &json!("sbx-1")));
    assert_eq!(out[1].1["id"], json!("sbx-2"));
    assert_error(&out[2], 404, "not_found", &json!(["path", "id"]));
    assert_error(&out[3], 404, "not_found", &json!(["path", "id"]));
    assert_eq!(
        out[4].1["id"],
        json!("doc-1"),
        "sandbox creates use up no live id"
    );
}

#[test]
fn sandbox_answers_like_live_but_for_the_id() {
    // docs/scenario.md: a sandbox client is validated exactly like live and gets the status
    // and body a live client would (but for the id)
    let bad = json!({"type": "sale_invoice", "relation_id": "rel-acme", "lines": []});
    let out = answers(vec![
        create_request("sbx", "", &invoice()),
        create_request("app", "", &invoice()),
        create_request("sbx", "", &bad),
        create_request("app", "", &bad),
    ]);
    let mut sandbox = out[0].1.clone();
    sandbox["id"] = json!("doc-1");
    assert_eq!((out[0].0, sandbox), out[1].clone());
    assert_eq!(out[2], out[3]);
}

#[test]
fn sandbox_numbers_are_drawn_without_advancing_the_journal_counters() {
    // docs/scenario.md: its numbers are drawn without advancing the journal counters
    let out = answers(vec![
        create_request("sbx", "", &invoice()),
        create_request("sbx", "", &invoice()),
        create_request("app", "", &invoice()),
    ]);
    assert_eq!(out[0].1["document_number"], json!("INV2026-0001"));
    assert_eq!(out[1].1["document_number"], json!("INV2026-0001"));
    assert_eq!(out[2].1["document_number"], json!("INV2026-0001"));
}

#[test]
fn sandbox_patch_send_and_branding_changes_are_answered_but_not_applied() {
    // docs/scenario.md: its PATCH, send and branding changes are answered but not applied
    let s = with_requests(
        with_documents(json!([{"id": "doc-old", "create": invoice()}])),
        vec![
            request_with(
                "sbx",
                "PATCH",
                "/documents/doc-old",
                &json!({"order_number": "PO-1"}),
            ),
            request_with(
                "sbx",
                "POST",
                "/documents/doc-old/send",
                &json!({"peppol": true}),
            ),
            request_with(
                "sbx",
                "PATCH",
                "/brandings/brd-2",
                &json!({"is_default": true}),
            ),
            request("app", "GET", "/documents/doc-old"),
            request_with("app", "PATCH", "/brandings/brd-1", &json!({})),
            request_with("app", "PATCH", "/brandings/brd-2", &json!({})),
        ],
    );
    let out = responses(&s);
    assert_eq!((out[0].0, &out[0].1["order_number"]), (200, &json!("PO-1")));
    assert_eq!(
        (out[1].0, &out[1].1["peppol_status"]),
        (200, &json!("sending"))
    );
    assert_eq!(
        out[2],
        (
            200,
            json!({"id": "brd-2", "name": "Second", "default": true})
        )
    );
    assert_eq!(out[3].1["order_number"], json!(null));
    assert_eq!(out[3].1["peppol_status"], json!("not_sent"));
    assert_eq!(out[4].1["default"], json!(true));
    assert_eq!(out[5].1["default"], json!(false));
}

#[test]
fn the_sandbox_reads_the_scenario_world() {
    // docs/scenario.md: the scenario's world serves as both the live data and the
    // sandbox's demo data
    let s = with_requests(
        with_documents(json!([{"id": "doc-old", "create": invoice()}])),
        vec![
            request("sbx", "GET", "/documents/doc-old"),
            request("sbx", "GET", "/relations/rel-acme"),
        ],
    );
    let out = responses(&s);
    assert_eq!(out[0].0, 200);
    assert_eq!(out[1].0, 200);
}

#[test]
fn a_journal_next_is_the_next_sequence_of_the_window_holding_today() {
    // docs/scenario.md: journals[].next is the next sequence number of the window that
    // holds today (default 1; every other window starts at 1)
    let mut s = base();
    s["journals"][0]["next"] = json!(7);
    s["journals"][2]["numbering"] = json!("monthly");
    s["journals"][2]["next"] = json!(3);
    let sim = simulator(&s);
    let world = sim.world();
    let sales = world.journal("jrn-sales").unwrap().expect("jrn-sales");
    assert_eq!(world.next_sequence(&sales, Window::Year(2026)).unwrap(), 7);
    assert_eq!(world.next_sequence(&sales, Window::Year(2025)).unwrap(), 1);
    let credit = world.journal("jrn-credit").unwrap().expect("jrn-credit");
    assert_eq!(
        world
            .next_sequence(&credit, Window::Month(2026, 11))
            .unwrap(),
        3
    );
    assert_eq!(
        world
            .next_sequence(&credit, Window::Month(2026, 10))
            .unwrap(),
        1
    );
    let never = world.journal("jrn-sales-b").unwrap().expect("jrn-sales-b");
    assert_eq!(world.next_sequence(&never, Window::Always).unwrap(), 5);
    let proforma = world
        .journal("jrn-proforma")
        .unwrap()
        .expect("jrn-proforma");
    assert_eq!(
        world.next_sequence(&proforma, Window::Always).unwrap(),
        1,
        "next defaults to 1"
    );

    let mut earlier = invoice();
    earlier["issue_date"] = json!("2025-06-30");
    let out = responses(&with_requests(
        s,
        vec![
            create_request("app", "", &earlier),
            create_request("app", "", &invoice()),
            create_request("app", "", &invoice()),
            create_request("app", "", &earlier),
        ],
    ));
    let numbers: Vec<&Value> = out.iter().map(|(_, b)| &b["document_number"]).collect();
    assert_eq!(
        numbers,
        [
            &json!("INV2025-0001"),
            &json!("INV2026-0007"),
            &json!("INV2026-0008"),
            &json!("INV2025-0002")
        ]
    );
}

#[test]
fn the_world_answers_the_context_of_the_scenario() {
    let mut s = base();
    s["now"] = json!("2026-11-21T08:00:00Z");
    s["company"]["exemption_mentions"] = json!({"intra_community": "Art. 39bis"});
    s["company"]["currencies"] = json!(["EUR", "USD"]);
    let sim = simulator(&s);
    let world = sim.world();
    assert_eq!(world.today().to_string(), "2026-11-21");
    assert_eq!(world.now().to_rfc3339(), "2026-11-21T08:00:00+00:00");
    assert!(world.company().accepts_currency("USD"));
    assert!(!world.company().accepts_currency("GBP"));
    assert_eq!(world.company().exemption_mentions.len(), 1);
    let acme = world.relation("rel-acme").unwrap().expect("rel-acme");
    assert_eq!(
        acme.payment_terms.map(|t| t.to_string()).as_deref(),
        Some("30-fm")
    );
    assert!(acme.peppol);
    assert!(
        !world
            .relation("rel-beta")
            .unwrap()
            .expect("rel-beta")
            .peppol
    );
    assert_eq!(
        world
            .default_journal(invoicing_core::numbering::JournalCategory::SalesInvoice)
            .unwrap()
            .map(|j| j.id),
        Some("jrn-sales".to_owned())
    );
    assert_eq!(
        world.default_journal(invoicing_core::numbering::JournalCategory::PurchasesInvoice),
        Ok(None)
    );
    assert_eq!(
        world
            .delivery_location("loc-3")
            .unwrap()
            .map(|l| l.relation_id),
        Some("rel-beta".to_owned())
    );
    assert!(world.delivery_location("loc-9").unwrap().is_none());
}

#[test]
fn preloaded_documents_are_created_in_order_and_take_their_state() {
    // docs/scenario.md: documents[] are created in order through the normal create rules
    // (drawing their number like any create), then state overwrites their state fields
    let s = with_requests(
        with_documents(json!([
            {"id": "doc-a", "create": invoice(), "state": {"peppol_status": "sent", "accounting_status": "exported"}},
            {"id": "doc-b", "create": invoice(), "state": {"paid_amount": 10}},
        ])),
        vec![
            request("app", "GET", "/documents/doc-a"),
            request("app", "GET", "/documents/doc-b"),
            create_request("app", "", &invoice()),
        ],
    );
    let out = responses(&s);
    assert_eq!(out[0].1["document_number"], json!("INV2026-0001"));
    assert_eq!(out[0].1["peppol_status"], json!("sent"));
    assert_eq!(out[0].1["accounting_status"], json!("exported"));
    assert_eq!(out[1].1["document_number"], json!("INV2026-0002"));
    assert_eq!(out[1].1["payment_status"], json!("partial"));
    assert_eq!(out[2].1["document_number"], json!("INV2026-0003"));
}

#[test]
fn tick_makes_the_files_available_and_sending_becomes_sent() {
    // docs/scenario.md: TICK: every document gets pdf_available and xml_available true,
    // and every sending becomes sent
    let s = with_requests(
        with_documents(json!([
            {"id": "doc-rejected", "create": invoice(), "state": {"peppol_status": "rejected"}}
        ])),
        vec![
            create_request("app", "?send_peppol=true", &invoice()),
            create_request("app", "", &invoice()),
            tick(),
            request("app", "GET", "/documents/doc-1"),
            request("app", "GET", "/documents/doc-2"),
            request("app", "GET", "/documents/doc-rejected"),
        ],
    );
    let out = responses(&s);
    assert_eq!(out[0].1["peppol_status"], json!("sending"), "{}", out[0].1);
    assert_eq!(out[0].1["pdf_available"], json!(false));
    assert_eq!(out[2], (200, json!({})));
    for (answer, peppol) in [
        (&out[3], "sent"),
        (&out[4], "not_sent"),
        (&out[5], "rejected"),
    ] {
        assert_eq!(answer.1["pdf_available"], json!(true));
        assert_eq!(answer.1["xml_available"], json!(true));
        assert_eq!(answer.1["peppol_status"], json!(peppol));
    }
}

#[test]
fn tick_and_set_need_no_client() {
    // docs/scenario.md: TICK and SET need no client
    let s = with_requests(
        with_documents(json!([{"id": "doc-old", "create": invoice()}])),
        vec![
            tick(),
            set("doc-old", &json!({"peppol_status": "rejected"})),
            json!({"client": "nobody", "method": "TICK"}),
        ],
    );
    let out = responses(&s);
    assert_eq!(out[0].0, 200);
    assert_eq!(out[1].0, 200, "{}", out[1].1);
    assert_eq!(out[2], (200, json!({})));
}

#[test]
fn set_overrides_state_fields_and_answers_the_document() {
    // docs/scenario.md: SET /documents/{id}: back-office override of state fields (for
    // example a recipient's rejected); it re-derives payment_status from a paid_amount
    let s = with_requests(
        with_documents(json!([{"id": "doc-old", "create": invoice()}])),
        vec![
            set(
                "doc-old",
                &json!({"peppol_status": "rejected", "mail_status": "sent"}),
            ),
            request("app", "GET", "/documents/doc-old"),
            set("doc-old", &json!({"paid_amount": "24.18"})),
            set(
                "doc-old",
                &json!({"paid_amount": 0, "payment_status": "unknown"}),
            ),
            set("doc-old", &json!({"peppol_status": "lost"})),
            json!({"method": "SET", "path": "/documents/doc-old"}),
        ],
    );
    let out = responses(&s);
    assert_eq!(out[0].0, 200);
    assert_eq!(out[0].1["peppol_status"], json!("rejected"));
    assert_eq!(out[0].1["mail_status"], json!("sent"));
    assert_eq!(out[1], out[0], "SET is kept");
    assert_eq!(out[2].1["payment_status"], json!("paid"));
    assert_eq!(out[2].1["remaining_amount"].to_string(), "0.00");
    assert_eq!(out[3].1["payment_status"], json!("unknown"));
    assert_eq!(out[4].0, 422);
    assert_error(&out[5], 422, "missing", &json!(["body"]));
}

#[test]
fn a_send_failed_on_create_keeps_the_document_and_answers_the_error() {
    // docs/interface.md: 422 send_failed: the document was created and numbered, and the
    // error names it (docs/decisions.md §7: ctx {"document_id": ID})
    let mut body = invoice();
    body["relation_id"] = json!("rel-beta");
    let out = answers(vec![
        create_request("app", "?send_peppol=true", &body),
        request("app", "GET", "/documents/doc-1"),
        create_request("app", "", &invoice()),
    ]);
    assert_eq!(out[0].0, 422, "{}", out[0].1);
    let detail = &out[0].1["detail"][0];
    assert_eq!(detail["type"], json!("send_failed"));
    assert_eq!(detail["ctx"], json!({"document_id": "doc-1"}));
    assert_eq!(out[1].0, 200);
    assert_eq!(out[1].1["peppol_status"], json!("not_sent"));
    assert_eq!(out[1].1["document_number"], json!("INV2026-0001"));
    assert_eq!(out[2].1["id"], json!("doc-2"));
    assert_eq!(out[2].1["document_number"], json!("INV2026-0002"));
}

#[test]
fn patch_and_send_by_a_live_client_are_kept() {
    let s = with_requests(
        with_documents(json!([{"id": "doc-old", "create": invoice()}])),
        vec![
            request_with(
                "app",
                "PATCH",
                "/documents/doc-old",
                &json!({"order_number": "PO-1"}),
            ),
            request_with(
                "app",
                "POST",
                "/documents/doc-old/send",
                &json!({"peppol": true}),
            ),
            request("app", "GET", "/documents/doc-old"),
            request_with(
                "app",
                "PATCH",
                "/documents/doc-old",
                &json!({"order_number": "PO-2"}),
            ),
        ],
    );
    let out = responses(&s);
    assert_eq!(out[2].1["order_number"], json!("PO-1"));
    assert_eq!(out[2].1["peppol_status"], json!("sending"));
    assert_error(
        &out[3],
        422,
        "document_locked",
        &json!(["body", "order_number"]),
    );
}

#[test]
fn designating_a_branding_clears_the_previous_default() {
    // docs/scenario.md: PATCH /brandings/{id} designates the default branding and answers
    // the record with default as in the scenario
    let out = answers(vec![
        request_with(
            "app",
            "PATCH",
            "/brandings/brd-2",
            &json!({"is_default": true}),
        ),
        request_with("app", "PATCH", "/brandings/brd-1", &json!({})),
        request_with(
            "updater",
            "PATCH",
            "/brandings/brd-1",
            &json!({"is_default": "yes"}),
        ),
        request_with("app", "PATCH", "/brandings/brd-2", &json!({})),
    ]);
    assert_eq!(
        out[0],
        (
            200,
            json!({"id": "brd-2", "name": "Second", "default": true})
        )
    );
    assert_eq!(
        out[1],
        (
            200,
            json!({"id": "brd-1", "name": "Main", "default": false})
        )
    );
    assert_eq!(
        out[2],
        (200, json!({"id": "brd-1", "name": "Main", "default": true}))
    );
    assert_eq!(
        out[3],
        (
            200,
            json!({"id": "brd-2", "name": "Second", "default": false})
        )
    );
}

#[test]
fn an_empty_branding_patch_changes_nothing() {
    // docs/scenario.md: {} changes nothing
    let out = answers(vec![
        request_with("app", "PATCH", "/brandings/brd-2", &json!({})),
        request_with("app", "PATCH", "/brandings/brd-1", &json!({})),
    ]);
    assert_eq!(
        out[0],
        (
            200,
            json!({"id": "brd-2", "name": "Second", "default": false})
        )
    );
    assert_eq!(
        out[1],
        (200, json!({"id": "brd-1", "name": "Main", "default": true}))
    );
}

#[test]
fn a_branding_key_other_than_is_default_is_read_only() {
    // docs/scenario.md: any key but is_default is read_only (docs/decisions.md §8)
    let out = answers(vec![
        request_with(
            "app",
            "PATCH",
            "/brandings/brd-2",
            &json!({"name": "New", "is_default": true, "logo": null}),
        ),
        request_with("app", "PATCH", "/brandings/brd-1", &json!({})),
    ]);
    assert_eq!(out[0].0, 422);
    let mut errors = crate::support::error_types(&out[0].1);
    errors.sort_by_key(|(_, loc)| loc.to_string());
    assert_eq!(
        errors,
        vec![
            ("read_only".to_owned(), json!(["body", "logo"])),
            ("read_only".to_owned(), json!(["body", "name"])),
        ]
    );
    assert_eq!(
        out[1].1["default"],
        json!(true),
        "a refused PATCH changes nothing"
    );
}

#[test]
fn is_default_must_mean_true() {
    // docs/decisions.md §9: is_default must mean true; a value that means false is
    // literal_error; anything else is bool_parsing
    let loc = json!(["body", "is_default"]);
    for value in [json!(false), json!("off"), json!(0), json!("No")] {
        let out = answers(vec![request_with(
            "app",
            "PATCH",
            "/brandings/brd-2",
            &json!({"is_default": value}),
        )]);
        assert_error(&out[0], 422, "literal_error", &loc);
    }
    for value in [json!("maybe"), json!(2), json!(null), json!([true])] {
        let out = answers(vec![request_with(
            "app",
            "PATCH",
            "/brandings/brd-2",
            &json!({"is_default": value}),
        )]);
        assert_error(&out[0], 422, "bool_parsing", &loc);
    }
    for value in [json!(true), json!("TRUE"), json!(1), json!("on")] {
        let out = answers(vec![request_with(
            "app",
            "PATCH",
            "/brandings/brd-2",
            &json!({"is_default": value}),
        )]);
        assert_eq!(out[0].1["default"], json!(true), "{value}");
    }
}

#[test]
fn a_branding_patch_needs_u_and_an_object_body() {
    // docs/scenario.md: PATCH /brandings/{id} needs u; docs/decisions.md §9: a missing body is
    // missing at ["body"], a body that is not an object dict_type
    let out = answers(vec![
        request_with(
            "creator",
            "PATCH",
            "/brandings/brd-2",
            &json!({"is_default": true}),
        ),
        request("app", "PATCH", "/brandings/brd-2"),
        request_with("app", "PATCH", "/brandings/brd-2", &json!(null)),
        request_with("app", "PATCH", "/brandings/brd-2", &json!([])),
        request_with("app", "PATCH", "/brandings/brd-1", &json!({})),
    ]);
    assert_error(
        &out[0],
        403,
        "permission_denied",
        &json!(["header", "authorization"]),
    );
    assert_error(&out[1], 422, "missing", &json!(["body"]));
    assert_error(&out[2], 422, "missing", &json!(["body"]));
    assert_error(&out[3], 422, "dict_type", &json!(["body"]));
    assert_eq!(out[4].1["default"], json!(true));
}

#[test]
fn the_company_settings_of_the_scenario_reach_the_rules() {
    // docs/scenario.md: company {self_billing, legal_notice, exemption_mentions, currencies}
    let mut s = base();
    s["company"] = json!({
        "self_billing": true,
        "legal_notice": "Terms apply.",
        "exemption_mentions": {"intra_community": "Art. 39bis Belgian VAT Code"},
        "currencies": ["USD"]
    });
    if let Some(list) = s["journals"].as_array_mut() {
        list.push(json!({"id": "jrn-sb", "category": "purchases_invoice", "numbering": "never", "prefix": "SB", "default": true}));
    }
    let mut intra = invoice();
    intra["currency"] = json!("USD");
    intra["lines"] = json!([{"quantity": 1, "unit_price": 100, "vat_code": "intra_community"}]);
    let mut purchase = intra.clone();
    purchase["type"] = json!("purchase_invoice");
    let out = responses(&with_requests(
        s,
        vec![
            create_request("app", "", &intra),
            create_request("app", "", &invoice()),
            create_request("app", "", &purchase),
        ],
    ));
    assert_eq!(out[0].0, 201, "{}", out[0].1);
    assert_eq!(out[0].1["legal_notice"], json!("Terms apply."));
    assert_eq!(
        out[0].1["vat_breakdown"][0]["exemption_reason"],
        json!("Art. 39bis Belgian VAT Code")
    );
    assert_eq!(
        out[0].1["vat_breakdown"][0]["exemption_reason_code"],
        json!("VATEX-EU-IC")
    );
    assert_error(
        &out[1],
        422,
        "currency_not_supported",
        &json!(["body", "currency"]),
    );
    assert_eq!(out[2].0, 201, "{}", out[2].1);
    assert_eq!(out[2].1["document_number"], json!("SB000001"));
}

/// What a live client can observe of the world: every document, every branding, and
/// the world itself (journal counters included).
fn observe(
    sim: &mut invoicing_core::simulator::Simulator,
) -> (invoicing_core::simulator::World, Vec<(u16, Value)>) {
    let mut seen = Vec::new();
    for path in ["/documents/doc-old", "/documents/doc-1", "/documents/sbx-1"] {
        seen.push(sim.handle(&request("app", "GET", path)));
    }
    for id in ["brd-1", "brd-2"] {
        seen.push(sim.handle(&request_with(
            "app",
            "PATCH",
            &format!("/brandings/{id}"),
            &json!({}),
        )));
    }
    (sim.world().clone(), seen)
}

#[test]
fn the_sandbox_keeps_nothing() {
    // docs/interface.md rule 3, docs/scenario.md: the sandbox validates fully and stores no change:
    // documents, journal counters and brandings are the same before and after
    let scenario = with_requests(
        with_documents(json!([{"id": "doc-old", "create": invoice()}])),
        vec![],
    );
    let bytes = serde_json::to_vec(&scenario).unwrap_or_default();
    let Ok(mut sim) = invoicing_core::simulator::Simulator::load(&bytes) else {
        panic!("the scenario loads");
    };
    let before = observe(&mut sim);
    let sandbox = [
        create_request("sbx", "", &invoice()),
        create_request("sbx", "?send_peppol=true", &invoice()),
        request_with(
            "sbx",
            "PATCH",
            "/documents/doc-old",
            &json!({"order_number": "PO-9", "paid_amount": 1}),
        ),
        request_with(
            "sbx",
            "POST",
            "/documents/doc-old/send",
            &json!({"peppol": true}),
        ),
        request_with(
            "sbx",
            "PATCH",
            "/brandings/brd-2",
            &json!({"is_default": true}),
        ),
        create_request("sbx", "", &json!({"type": "sale_invoice"})),
    ];
    let statuses: Vec<u16> = sandbox.iter().map(|r| sim.handle(r).0).collect();
    assert_eq!(
        statuses,
        [201, 201, 200, 200, 200, 422],
        "the sandbox answers like live"
    );
    let after = observe(&mut sim);
    assert_eq!(before, after, "nothing the sandbox did is kept");
}
