//! The server's own tokens: random (32 bytes from the operating system), stored as
//! their SHA-256 only, valid on every instance (they live in the database) and
//! expiring (`expires_in` in the token answer). `POST /auth/token` takes the client
//! pair (JSON or a form body), or `{"grant_type": "refresh_token", "refresh_token"}`
//! for a new pair. Client secrets are compared in constant time.
//!
//! Refresh tokens rotate (OAuth 2.0 Security Best Current Practice, RFC 9700 §4.14):
//! a refresh answers a new pair and the refresh token it used stops working; a used
//! refresh token presented again revokes the pair its first use produced (someone
//! else holds a copy of it), and is refused.
//!
//! Decisions taken where the interface is silent (the simulator's tokens never expire
//! and its token endpoint answers `invalid_client` to any body it cannot read):
//! - An expired access token answers 401 `invalid_token` saying it expired.
//! - A body that is neither JSON nor a form (`a=b&…`), or JSON that is not an object,
//!   answers 422 at `["body"]` (`json_invalid`, `dict_type`).
//! - A refresh grant without `refresh_token` answers 422 `missing` at
//!   `["body", "refresh_token"]`; an unknown, expired, used or revoked one 401
//!   `invalid_grant`… in the crate's words: `invalid_token` at
//!   `["body", "refresh_token"]`.

use super::serve::Server;
use super::sql::{Result, Sql, StoreError, Val};
use invoicing_core::app::parse_query;
use invoicing_core::attachment::sha256_hex;
use invoicing_core::error::{ErrorCode, Loc};
use invoicing_core::http::{self, Body};
use serde_json::Value;

/// How long tokens live, in seconds.
#[derive(Debug, Clone, Copy)]
pub struct Lifetimes {
    pub access: i64,
    pub refresh: i64,
}

/// Seconds since the Unix epoch, now.
fn now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_secs()).unwrap_or(i64::MAX))
}

/// A token as stored.
struct Stored {
    client_id: String,
    refresh: bool,
    expires_at: i64,
    used: bool,
    pair: Option<String>,
    revoked: bool,
}

fn stored(sql: &mut dyn Sql, hash: &str) -> Result<Option<Stored>> {
    let row = sql.row(
        "SELECT client_id, refresh, expires_at, used, pair, revoked FROM tokens WHERE hash = $1",
        &[hash.into()],
    )?;
    Ok(row.map(|r| {
        let mut r = r.into_iter();
        let client_id = r.next().and_then(Val::text).unwrap_or_default();
        let refresh = r.next().and_then(|v| v.int()).unwrap_or(0) != 0;
        let expires_at = r.next().and_then(|v| v.int()).unwrap_or(0);
        let used = r.next().and_then(|v| v.int()).unwrap_or(0) != 0;
        let pair = r.next().and_then(Val::text);
        let revoked = r.next().and_then(|v| v.int()).unwrap_or(0) != 0;
        Stored {
            client_id,
            refresh,
            expires_at,
            used,
            pair,
            revoked,
        }
    }))
}

/// The client of a request with this `Authorization` header, or the answer that
/// refuses it.
pub fn caller(
    sql: &mut dyn Sql,
    header: &str,
) -> Result<std::result::Result<String, (u16, Value)>> {
    let token = header
        .trim()
        .split_once(char::is_whitespace)
        .filter(|(scheme, _)| scheme.eq_ignore_ascii_case("bearer"))
        .map(|(_, t)| t.trim());
    let Some(token) = token else {
        return Ok(Err(http::invalid_token()));
    };
    Ok(match stored(sql, &sha256_hex(token.as_bytes()))? {
        None => Err(http::invalid_token()),
        Some(t) if t.refresh => Err(http::error(&http::refresh_token_as_access())),
        Some(t) if t.revoked => Err(http::invalid_token()),
        Some(t) if t.expires_at <= now() => Err(http::expired_token()),
        Some(t) => Ok(t.client_id),
    })
}

/// The body of a token request: its fields, or the answer that refuses it.
fn fields(body: &[u8]) -> std::result::Result<Vec<(String, String)>, (u16, Value)> {
    match Body::from_bytes(body) {
        Body::Json(Value::Object(m)) => Ok(m
            .into_iter()
            .filter_map(|(k, v)| v.as_str().map(|s| (k, s.to_owned())))
            .collect()),
        Body::Absent => Ok(Vec::new()),
        Body::Json(other) => {
            let err = invoicing_core::error::ValidationError::new(
                ErrorCode::DictType,
                Loc::root("body"),
                "the body must be a json object or a form (client_id=…&client_secret=…)",
            )
            .with_input(&other);
            Err(http::error(&err.into()))
        }
        Body::Invalid { text, reason } => {
            let form = parse_query(&text);
            if form.is_empty() || !text.contains('=') {
                return Err(http::json_invalid(&text, &reason));
            }
            Ok(form)
        }
    }
}

/// A refused refresh token, at `["body", "refresh_token"]`.
fn bad_refresh(msg: &str) -> (u16, Value) {
    http::one(
        ErrorCode::InvalidToken,
        Loc::root("body").key("refresh_token"),
        msg,
    )
}

/// A used refresh token presented again: its copy is in other hands. The pair its
/// first use produced is revoked (read again: a racing first use may have just
/// committed it), and the token refused.
fn reused(sql: &mut dyn Sql, hash: &str) -> Result<(u16, Value)> {
    let pair = stored(sql, hash)?.and_then(|t| t.pair).unwrap_or_default();
    for produced in pair.split(' ').filter(|p| !p.is_empty()) {
        sql.exec(
            "UPDATE tokens SET revoked = 1 WHERE hash = $1",
            &[produced.into()],
        )?;
    }
    Ok(bad_refresh(
        "this refresh token was already used: the tokens it gave are revoked; authenticate again",
    ))
}

/// `POST /auth/token`.
pub fn token(
    server: &Server,
    sql: &mut dyn Sql,
    body: &[u8],
    life: &Lifetimes,
) -> Result<(u16, Value)> {
    let form = match fields(body) {
        Ok(form) => form,
        Err(answer) => return Ok(answer),
    };
    let field = |key: &str| {
        form.iter()
            .rev()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.clone())
    };
    let (client, used) = if field("grant_type").as_deref() == Some("refresh_token") {
        let Some(refresh) = field("refresh_token") else {
            return Ok(http::one(
                ErrorCode::Missing,
                Loc::root("body").key("refresh_token"),
                "a refresh_token grant needs the refresh_token",
            ));
        };
        let hash = sha256_hex(refresh.as_bytes());
        match stored(sql, &hash)? {
            Some(t) if t.refresh && t.used => return reused(sql, &hash),
            Some(t) if t.refresh && !t.revoked && t.expires_at > now() => {
                // Claimed before anything is issued: of two refreshes racing with one
                // token (PostgreSQL reads without a lock), the second waits for the
                // first's row and finds it used, a reuse like any other.
                let claim = "UPDATE tokens SET used = 1 WHERE hash = $1 AND used = 0";
                if sql.exec(claim, &[hash.as_str().into()])? == 0 {
                    return reused(sql, &hash);
                }
                (t.client_id, Some(hash))
            }
            Some(t) if t.refresh && !t.revoked => {
                return Ok(bad_refresh("the refresh token expired: authenticate again"))
            }
            _ => {
                return Ok(bad_refresh(
                    "the refresh_token is not a known refresh token",
                ))
            }
        }
    } else {
        let (Some(id), Some(secret)) = (field("client_id"), field("client_secret")) else {
            return Ok(http::invalid_client());
        };
        match server.client_secret(&id) {
            Some(known) if same(known.as_bytes(), secret.as_bytes()) => (id, None),
            _ => return Ok(http::invalid_client()),
        }
    };
    let (access, access_hash) = issue(sql, &client, false, life.access)?;
    let (refresh, refresh_hash) = issue(sql, &client, true, life.refresh)?;
    if let Some(used) = used {
        sql.exec(
            "UPDATE tokens SET used = 1, pair = $2 WHERE hash = $1",
            &[used.into(), format!("{access_hash} {refresh_hash}").into()],
        )?;
    }
    let (status, mut answer) = http::token(&access, &refresh);
    answer["expires_in"] = Value::from(life.access);
    Ok((status, answer))
}

/// A new random token, stored by its hash: the token and its hash.
fn issue(sql: &mut dyn Sql, client: &str, refresh: bool, ttl: i64) -> Result<(String, String)> {
    let mut bytes = [0u8; 32];
    getrandom::fill(&mut bytes).map_err(StoreError::fatal)?;
    let prefix = if refresh { "rt_" } else { "at_" };
    let text: String = std::iter::once(prefix.to_owned())
        .chain(bytes.iter().map(|b| format!("{b:02x}")))
        .collect();
    let hash = sha256_hex(text.as_bytes());
    sql.exec(
        "INSERT INTO tokens (hash, client_id, refresh, expires_at, used, pair, revoked)
         VALUES ($1, $2, $3, $4, 0, NULL, 0)",
        &[
            hash.as_str().into(),
            client.into(),
            refresh.into(),
            now().saturating_add(ttl).into(),
        ],
    )?;
    Ok((text, hash))
}

/// Equality in time that depends on the lengths only.
fn same(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len()
        && std::hint::black_box(a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y))) == 0
}
