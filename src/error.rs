//! Errors: the stable codes, the `{loc, msg, type, input, ctx}` entries of a request's
//! answer, and the HTTP status each code answers with (docs/decisions.md §8).

use crate::wire::closed_set;
use serde_json::{Map, Value};
use std::fmt;
use std::sync::Arc;

closed_set! {
    /// A stable, machine-readable error code: the `type` of a [`ValidationError`].
    ///
    /// The string form ([`ErrorCode::as_str`]) is part of the contract and never changes.
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
    #[non_exhaustive]
    pub enum ErrorCode("error code") {
        /// The body is not JSON.
        JsonInvalid = "json_invalid",
        /// An object was expected.
        DictType = "dict_type",
        /// A list was expected.
        ListType = "list_type",
        /// A string was expected.
        StringType = "string_type",
        /// A boolean was expected.
        BoolType = "bool_type",
        /// A decimal number was expected.
        DecimalParsing = "decimal_parsing",
        /// A boolean text was expected.
        BoolParsing = "bool_parsing",
        /// A `YYYY-MM-DD` date was expected.
        DateParsing = "date_parsing",
        /// A required field or query parameter is absent.
        Missing = "missing",
        /// An unknown key.
        ExtraForbidden = "extra_forbidden",
        /// A derived field was sent.
        DerivedField = "derived_field",
        /// null on a PATCH field that cannot be empty.
        NullNotAllowed = "null_not_allowed",
        /// A read-only field was changed.
        ReadOnly = "read_only",
        /// A literal value other than the one allowed.
        LiteralError = "literal_error",
        /// A value outside its closed set.
        Enum = "enum",
        /// A string longer than its limit, counted in characters.
        StringTooLong = "string_too_long",
        /// A list shorter than its limit.
        TooShort = "too_short",
        /// A list longer than its limit.
        TooLong = "too_long",
        /// A string that does not match its pattern.
        StringPatternMismatch = "string_pattern_mismatch",
        /// A number not above its lower bound.
        GreaterThan = "greater_than",
        /// A number below its lower bound.
        GreaterThanEqual = "greater_than_equal",
        /// A number above its upper bound.
        LessThanEqual = "less_than_equal",
        /// A number with more decimals than allowed.
        DecimalMaxPlaces = "decimal_max_places",
        /// A date after today.
        DateInFuture = "date_in_future",
        /// period_start after period_end (BR-29).
        PeriodEndBeforeStart = "period_end_before_start",
        /// A currency that is not supported.
        CurrencyNotSupported = "currency_not_supported",
        /// A standard line without a VAT rate.
        VatRateRequired = "vat_rate_required",
        /// A VAT rate where the code allows none (or only 0).
        VatRateNotAllowed = "vat_rate_not_allowed",
        /// A reserved legacy VAT code on input.
        VatCodeReserved = "vat_code_reserved",
        /// An allowance/charge without exactly one of amount and rate.
        AmountOrRate = "amount_or_rate",
        /// A relation id that does not resolve.
        RelationNotFound = "relation_not_found",
        /// A journal id that does not resolve.
        JournalNotFound = "journal_not_found",
        /// A delivery location id that does not resolve.
        DeliveryLocationNotFound = "delivery_location_not_found",
        /// No journal given and no default journal for the category.
        NoDefaultJournal = "no_default_journal",
        /// The journal's category does not fit the type.
        JournalCategoryMismatch = "journal_category_mismatch",
        /// A delivery location of another relation.
        DeliveryLocationRelationMismatch = "delivery_location_relation_mismatch",
        /// A self-billing type on a company without self-billing.
        SelfBillingDisabled = "self_billing_disabled",
        /// A computed amount whose magnitude reaches 10^15.
        AmountOutOfRange = "amount_out_of_range",
        /// A negative document total.
        NegativeTotal = "negative_total",
        /// A VAT group whose base is not positive while document allowances/charges exist.
        VatGroupNotPositive = "vat_group_not_positive",
        /// paid_amount above total_amount.
        PaidAmountAboveTotal = "paid_amount_above_total",
        /// issue_date outside the window its number was drawn in.
        IssueDateOutsideNumberWindow = "issue_date_outside_number_window",
        /// A change to a locked document.
        DocumentLocked = "document_locked",
        /// A change to a deleted document.
        DocumentDeleted = "document_deleted",
        /// A send with no channel asked for.
        NoChannel = "no_channel",
        /// A send of a type Peppol does not carry.
        NotPeppolType = "not_peppol_type",
        /// A send of a document that has already left.
        AlreadySent = "already_sent",
        /// A send that could not be started.
        SendFailed = "send_failed",
        /// No credentials.
        NotAuthenticated = "not_authenticated",
        /// An unknown token.
        InvalidToken = "invalid_token",
        /// A wrong client pair.
        InvalidClient = "invalid_client",
        /// A permission is missing.
        PermissionDenied = "permission_denied",
        /// An unknown id in the path, or an unknown path.
        NotFound = "not_found",
        /// A known path with a method it does not take.
        MethodNotAllowed = "method_not_allowed",
        /// An endpoint of the interface the crate does not offer.
        NotImplemented = "not_implemented",
        /// A journal counter that has drawn its last number (its next sequence is
        /// `u64::MAX`): 422 at `["body", "journal_id"]`, never a repeated number.
        JournalCounterExhausted = "journal_counter_exhausted",
        /// A storage error of the server (see [`crate::context::ContextError`]): 500.
        InternalError = "internal_error",
        /// A document that has no UBL to show (docs/peppol.md §5).
        XmlNotAvailable = "xml_not_available",
        /// A change or a send a received document does not take (docs/peppol.md §4).
        ReceivedDocument = "received_document",
        /// An upload that is not `multipart/form-data`, or a part without a name
        /// (docs/files.md §1).
        MultipartInvalid = "multipart_invalid",
        /// An attachment's filename that is empty, too long or holds a character a
        /// filename may not hold.
        AttachmentFilenameInvalid = "attachment_filename_invalid",
        /// An attachment of a media type the EN 16931 list does not allow.
        AttachmentTypeNotAllowed = "attachment_type_not_allowed",
        /// An attachment whose bytes are not what its media type says.
        AttachmentContentMismatch = "attachment_content_mismatch",
        /// An attachment above 10 MiB.
        AttachmentTooLarge = "attachment_too_large",
        /// A document that already holds 20 attachments.
        AttachmentLimit = "attachment_limit",
        /// A document whose attachments would exceed 25 MiB in all.
        AttachmentsTotalTooLarge = "attachments_total_too_large",
        /// A document whose PDF is not (yet) available.
        PdfNotAvailable = "pdf_not_available",
    }
}

impl ErrorCode {
    /// The HTTP status this code answers with (docs/decisions.md §8).
    pub fn status(self) -> u16 {
        match self {
            Self::NotAuthenticated | Self::InvalidToken | Self::InvalidClient => 401,
            Self::PermissionDenied => 403,
            Self::NotFound => 404,
            Self::MethodNotAllowed => 405,
            Self::NotImplemented => 501,
            Self::InternalError => 500,
            _ => 422,
        }
    }
}

/// One step of an error's location: a list index (from 0) or an object key. They
/// order as declared: an index before a key, indexes by number, keys by text.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum LocItem {
    /// A list index, counted from 0.
    Index(usize),
    /// An object key, or a section such as `body`, `query`, `path`. Shared, so that the
    /// location of every line of a body reuses its parents without copying them.
    Key(Arc<str>),
}

impl From<&str> for LocItem {
    fn from(s: &str) -> Self {
        Self::Key(Arc::from(s))
    }
}

impl From<usize> for LocItem {
    fn from(i: usize) -> Self {
        Self::Index(i)
    }
}

/// Where an error is: a path such as `["body", "lines", 3, "quantity"]`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub struct Loc(pub Vec<LocItem>);

impl Loc {
    /// `["header", "authorization"]`, where 401 and 403 answer.
    pub fn authorization() -> Self {
        Loc::root("header").key("authorization")
    }

    /// A location made of a single key, such as `body`.
    pub fn root(key: &str) -> Self {
        Self(vec![LocItem::from(key)])
    }

    /// This location followed by one object key.
    #[must_use]
    pub fn key(&self, key: &str) -> Self {
        self.then(LocItem::from(key))
    }

    /// This location followed by one list index.
    #[must_use]
    pub fn index(&self, i: usize) -> Self {
        self.then(LocItem::Index(i))
    }

    /// This location followed by `item`, in one allocation (a clone then a push
    /// would allocate twice).
    fn then(&self, item: LocItem) -> Self {
        let mut v = Vec::with_capacity(self.0.len() + 1);
        v.extend(self.0.iter().cloned());
        v.push(item);
        Self(v)
    }

    /// The location as a JSON array of strings and integers.
    pub fn to_json(&self) -> Value {
        Value::Array(
            self.0
                .iter()
                .map(|item| match item {
                    LocItem::Key(k) => Value::String(k.to_string()),
                    LocItem::Index(i) => Value::from(*i),
                })
                .collect(),
        )
    }
}

impl fmt::Display for Loc {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (n, item) in self.0.iter().enumerate() {
            if n > 0 {
                f.write_str(".")?;
            }
            match item {
                LocItem::Key(k) => f.write_str(k)?,
                LocItem::Index(i) => write!(f, "{i}")?,
            }
        }
        Ok(())
    }
}

/// One entry of an error answer: where, what, which code, and optionally the input
/// that was refused and a context object.
#[derive(Debug, Clone, PartialEq)]
pub struct ValidationError {
    /// Where the error is.
    pub loc: Loc,
    /// A human-readable message: lowercase, no trailing period.
    pub msg: String,
    /// The stable code.
    pub code: ErrorCode,
    /// The refused input, where useful.
    pub input: Option<Value>,
    /// Extra facts (a limit, a document id), where useful.
    pub ctx: Option<Value>,
}

impl ValidationError {
    /// A new error without input or context.
    pub fn new(code: ErrorCode, loc: Loc, msg: impl Into<String>) -> Self {
        Self {
            loc,
            msg: msg.into(),
            code,
            input: None,
            ctx: None,
        }
    }

    /// `json_invalid` at `["body"]`: the body sent (as text) is not JSON, for the
    /// parser's `reason`.
    pub fn json_invalid(text: &str, reason: &str) -> Self {
        Self::new(
            ErrorCode::JsonInvalid,
            Loc::root("body"),
            format!("the body is not valid json: {reason}"),
        )
        .with_input(&Value::String(text.to_owned()))
    }

    /// `missing` at `loc`: a required field is not there.
    pub fn field_required(loc: Loc) -> Self {
        Self::new(ErrorCode::Missing, loc, "field required")
    }

    /// `dict_type` at `loc`: `input` should be a JSON object.
    pub fn not_object(loc: Loc, input: &Value) -> Self {
        Self::new(ErrorCode::DictType, loc, "input should be a valid object").with_input(input)
    }

    /// `string_type` at `loc`: `input` should be a string.
    pub fn not_string(loc: Loc, input: &Value) -> Self {
        Self::new(ErrorCode::StringType, loc, "input should be a valid string").with_input(input)
    }

    /// The same error carrying the refused input.
    #[must_use]
    pub fn with_input(mut self, input: &Value) -> Self {
        self.input = Some(input.clone());
        self
    }

    /// The same error carrying a context object.
    #[must_use]
    pub fn with_ctx(mut self, ctx: Value) -> Self {
        self.ctx = Some(ctx);
        self
    }

    /// The entry as a JSON object `{type, loc, msg, input?, ctx?}`.
    pub fn to_json(&self) -> Value {
        let mut m = Map::new();
        m.insert("type".into(), Value::String(self.code.as_str().into()));
        m.insert("loc".into(), self.loc.to_json());
        m.insert("msg".into(), Value::String(self.msg.clone()));
        if let Some(input) = &self.input {
            m.insert("input".into(), input.clone());
        }
        if let Some(ctx) = &self.ctx {
            m.insert("ctx".into(), ctx.clone());
        }
        Value::Object(m)
    }
}

impl fmt::Display for ValidationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} at {}: {}", self.code, self.loc, self.msg)
    }
}

/// A refused request: its HTTP status and every error found, in one answer.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{status}: {}", .errors.iter().map(ToString::to_string).collect::<Vec<_>>().join("; "))]
pub struct ApiError {
    /// The HTTP status: the status of the first error's code.
    pub status: u16,
    /// Every error of the request (never empty).
    pub errors: Vec<ValidationError>,
}

impl ApiError {
    /// `Ok` when no error was found, else the answer made of `errors`; its status is
    /// the first error's.
    ///
    /// When any error is a 500 (`internal_error`, a storage failure), only the first
    /// 500 is kept: what the rules said after a failed read (a `relation_not_found`
    /// for a relation that could not be read) would be a lie to the client. An
    /// `ApiError` is never empty: it is built from at least one error.
    pub fn check(errors: Vec<ValidationError>) -> Result<(), Self> {
        if errors.is_empty() {
            return Ok(());
        }
        Err(Self { status: 0, errors }.settled())
    }

    /// This answer's errors after `before` (the errors found ahead of it).
    #[must_use]
    pub fn after(mut self, mut before: Vec<ValidationError>) -> Self {
        before.append(&mut self.errors);
        self.errors = before;
        self.settled()
    }

    /// Applies the 500 rule of [`ApiError::check`] and takes the first error's status.
    fn settled(mut self) -> Self {
        if let Some(i) = self.errors.iter().position(|e| e.code.status() == 500) {
            self.errors = vec![self.errors.swap_remove(i)];
        }
        if let Some(first) = self.errors.first() {
            self.status = first.code.status();
        }
        self
    }

    /// The answer to a body that is not JSON (docs/decisions.md §8, §9), the one body
    /// policy of the crate: the request ran without its body, so that what is checked
    /// before the body (the permissions, then the query) answers as it would. A refusal
    /// other than a 422 stands; otherwise the errors at `["body", …]` give way to
    /// `invalid` (`json_invalid` at `["body"]`), after the other errors when
    /// `keep_other_errors` (a create's query), alone otherwise.
    pub fn body_not_json<T>(
        attempt: Result<T, ApiError>,
        invalid: ValidationError,
        keep_other_errors: bool,
    ) -> ApiError {
        match attempt {
            Err(e) if e.status != 422 => e,
            Err(e) if keep_other_errors => {
                let others: Vec<ValidationError> = e
                    .errors
                    .into_iter()
                    .filter(|v| !matches!(v.loc.0.first(), Some(LocItem::Key(k)) if &**k == "body"))
                    .collect();
                ApiError::from(invalid).after(others)
            }
            _ => invalid.into(),
        }
    }

    /// 403 `permission_denied` at `["header", "authorization"]`, where 401 and 403
    /// answer; `msg` says what was asked and which permission it needs.
    pub fn permission_denied(msg: &str) -> Self {
        Self::one(ErrorCode::PermissionDenied, Loc::authorization(), msg)
    }

    /// An answer made of one error.
    pub fn one(code: ErrorCode, loc: Loc, msg: impl Into<String>) -> Self {
        ValidationError::new(code, loc, msg).into()
    }

    /// The body `{"detail": [...]}`.
    pub fn body(&self) -> Value {
        let detail = self.errors.iter().map(ValidationError::to_json).collect();
        let mut m = Map::new();
        m.insert("detail".into(), Value::Array(detail));
        Value::Object(m)
    }

    /// Whether any of the errors has this code.
    pub fn has(&self, code: ErrorCode) -> bool {
        self.errors.iter().any(|e| e.code == code)
    }
}

impl From<ContextError> for ApiError {
    /// 500 `internal_error` at `[]`; the storage's message stays out of the answer.
    fn from(_: ContextError) -> Self {
        Self::one(
            ErrorCode::InternalError,
            Loc::default(),
            "internal error: the server could not read its storage",
        )
    }
}

impl From<ValidationError> for ApiError {
    fn from(e: ValidationError) -> Self {
        Self {
            status: e.code.status(),
            errors: vec![e],
        }
    }
}

/// A storage failure while reading the world (a database error, a timeout): the
/// request answers 500 `internal_error`, never a 4xx (the client's request may be
/// fine). The message is for the server's logs; the answer does not carry it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("storage: {0}")]
pub struct ContextError(pub String);

#[cfg(test)]
mod tests;
