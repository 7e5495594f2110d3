//! The server's own tokens: random (32 bytes from the operating system), stored as
//! their SHA-256 only, valid on every instance (they live in the database) and
//! expiring (`expires_in` in the token answer). `POST /auth/token` takes the client
//! pair (JSON or a form body), or `{"grant_type": "refresh_token", "refresh_token"}`
//! for a new pair. Client secrets are compared in constant time. The answers and
//! errors are the crate's (`invoicing_core::http`).

use super::store::{Result, StoreError, StoredToken, Tx};
use invoicing_core::attachment::sha256_hex;
use invoicing_core::http::{self, Body};
use invoicing_core::simulator::{parse_query, Simulator};
use serde_json::Value;

/// How long tokens live, in seconds.
#[derive(Debug, Clone, Copy)]
pub struct Lifetimes {
    pub access: i64,
    pub refresh: i64,
}

/// Who a request is from.
pub enum Caller {
    /// A client, by a valid access token of this server.
    Client(String),
    /// No `Authorization` header.
    Anonymous,
    /// A token of this server that cannot be used: its answer.
    Refused((u16, Value)),
    /// A header naming no token of this server: the crate answers it.
    Unknown(String),
}

/// Seconds since the Unix epoch, now.
fn now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_secs()).unwrap_or(i64::MAX))
}

/// The caller of a request with this `Authorization` header.
pub fn caller(tx: &mut dyn Tx, authorization: Option<&str>) -> Result<Caller> {
    let Some(header) = authorization else {
        return Ok(Caller::Anonymous);
    };
    let token = header
        .split_once(' ')
        .filter(|(scheme, _)| scheme.eq_ignore_ascii_case("bearer"))
        .map(|(_, t)| t.trim());
    let Some(stored) = token
        .map(|t| tx.token(&sha256_hex(t.as_bytes())))
        .transpose()?
    else {
        return Ok(Caller::Unknown(header.to_owned()));
    };
    Ok(match stored {
        None => Caller::Unknown(header.to_owned()),
        Some(t) if t.refresh => Caller::Refused(http::error(&http::refresh_token_as_access())),
        Some(t) if t.expires_at <= now() => Caller::Refused(http::invalid_token()),
        Some(t) => Caller::Client(t.client_id),
    })
}

/// `POST /auth/token`.
pub fn token(
    sim: &Simulator,
    tx: &mut dyn Tx,
    body: &[u8],
    life: &Lifetimes,
) -> Result<(u16, Value)> {
    let body = Body::from_bytes(body);
    let field = |key: &str| -> Option<String> {
        match &body {
            Body::Json(Value::Object(m)) => m.get(key).and_then(Value::as_str).map(str::to_owned),
            Body::Invalid { text, .. } => parse_query(text)
                .into_iter()
                .rev()
                .find_map(|(k, v)| (k == key).then_some(v)),
            Body::Json(_) | Body::Absent => None,
        }
    };
    let client = if field("grant_type").as_deref() == Some("refresh_token") {
        let Some(refresh) = field("refresh_token") else {
            return Ok(http::invalid_token());
        };
        match tx.token(&sha256_hex(refresh.as_bytes()))? {
            Some(t) if t.refresh && t.expires_at > now() => t.client_id,
            _ => return Ok(http::invalid_token()),
        }
    } else {
        let (Some(id), Some(secret)) = (field("client_id"), field("client_secret")) else {
            return Ok(http::invalid_client());
        };
        match sim.client_secret(&id) {
            Some(known) if same(known.as_bytes(), secret.as_bytes()) => id,
            _ => return Ok(http::invalid_client()),
        }
    };
    let access = issue(tx, &client, false, life.access)?;
    let refresh = issue(tx, &client, true, life.refresh)?;
    let (status, mut answer) = http::token(&access, &refresh);
    answer["expires_in"] = Value::from(life.access);
    Ok((status, answer))
}

/// A new random token, stored by its hash.
fn issue(tx: &mut dyn Tx, client: &str, refresh: bool, ttl: i64) -> Result<String> {
    let mut bytes = [0u8; 32];
    getrandom::fill(&mut bytes).map_err(StoreError::fatal)?;
    let prefix = if refresh { "rt_" } else { "at_" };
    let text: String = std::iter::once(prefix.to_owned())
        .chain(bytes.iter().map(|b| format!("{b:02x}")))
        .collect();
    let stored = StoredToken {
        client_id: client.to_owned(),
        refresh,
        expires_at: now().saturating_add(ttl),
    };
    tx.put_token(&sha256_hex(text.as_bytes()), &stored)?;
    Ok(text)
}

/// Equality in time that depends on the lengths only.
fn same(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len()
        && std::hint::black_box(a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y))) == 0
}
