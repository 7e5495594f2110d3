//! The asynchronous world (simulator.md): what happens to documents outside a
//! request. `TICK` delivers it (the files of every document exist, every send under
//! way arrives); `SET` is the back office overriding state fields.

use super::endpoints::{error, json_invalid, not_found_id, one, Answer};
use super::request::Body;
use super::Simulator;
use crate::document::PeppolStatus;
use crate::error::{ErrorCode, Loc};
use crate::lifecycle;
use serde_json::{Map, Value};

impl Simulator {
    /// `TICK`: the files of every document exist, and every send under way arrives.
    pub(super) fn tick(&mut self) -> Answer {
        for doc in self.documents.values_mut() {
            doc.pdf_available = true;
            // A proforma has no UBL (peppol.md §5).
            doc.xml_available = doc.doc_type.is_peppol_type();
            if doc.peppol_status == PeppolStatus::Sending {
                doc.peppol_status = PeppolStatus::Sent;
            }
        }
        (200, Value::Object(Map::new()))
    }

    /// `SET /documents/{id}`: the back office overrides state fields.
    pub(super) fn set(&mut self, id: &str, body: &Body) -> Answer {
        let Some(stored) = self.documents.get(id) else {
            return not_found_id("document", id);
        };
        let state = match body {
            Body::Absent | Body::Json(Value::Null) => {
                return one(ErrorCode::Missing, Loc::root("body"), "a body is required");
            }
            Body::Invalid { text, reason } => return error(&json_invalid(text, reason).into()),
            Body::Json(v) => v,
        };
        match lifecycle::apply_state(stored, state) {
            Ok(doc) => {
                let answer = (200, doc.to_json());
                self.documents.insert(id.to_owned(), doc);
                answer
            }
            Err(e) => error(&e),
        }
    }
}
