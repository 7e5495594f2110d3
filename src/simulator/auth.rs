//! Clients, tokens and the `authorization` header (docs/scenario.md, docs/interface.md
//! "Authentication").
//!
//! Tokens are opaque but deterministic: each is made from a counter of the tokens
//! issued in the run, its kind and a hash of the client id, so the same scenario gives
//! the same tokens byte for byte, and no token can be guessed from a client id alone
//! without knowing how many were issued before it.

use crate::context::Permissions;
use crate::error::ApiError;
use std::collections::HashMap;

/// A client of the scenario.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Client {
    /// `client_id`.
    pub(crate) id: String,
    /// `client_secret`.
    pub(crate) secret: String,
    /// Whether the client works in the sandbox (else live).
    pub(crate) sandbox: bool,
    /// Its permissions (`c`, `u`).
    pub(crate) permissions: Permissions,
}

/// The clients of the scenario in order, indexed by `client_id`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Clients {
    list: Vec<Client>,
    by_id: HashMap<String, usize>,
}

impl From<Vec<Client>> for Clients {
    fn from(list: Vec<Client>) -> Clients {
        let mut by_id = HashMap::new();
        for (i, c) in list.iter().enumerate() {
            by_id.entry(c.id.clone()).or_insert(i);
        }
        Clients { list, by_id }
    }
}

impl Clients {
    /// The index of the client `id`.
    pub(crate) fn position(&self, id: &str) -> Option<usize> {
        self.by_id.get(id).copied()
    }

    /// The client at `index`.
    pub(crate) fn get(&self, index: usize) -> Option<&Client> {
        self.list.get(index)
    }
}

/// Whether a token is an access token or a refresh token.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum TokenKind {
    /// Authenticates requests.
    Access,
    /// Does not authenticate requests (`invalid_token` when used as access).
    Refresh,
}

/// The tokens issued so far, each with the index of its client.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Tokens {
    issued: u64,
    by_token: HashMap<String, (usize, TokenKind)>,
}

impl Tokens {
    /// Issues an access and a refresh token for the client at `index`.
    pub(crate) fn issue(&mut self, index: usize, client_id: &str) -> (String, String) {
        let access = self.mint(index, client_id, TokenKind::Access);
        let refresh = self.mint(index, client_id, TokenKind::Refresh);
        (access, refresh)
    }

    fn mint(&mut self, index: usize, client_id: &str, kind: TokenKind) -> String {
        self.issued = self.issued.saturating_add(1);
        let tag = match kind {
            TokenKind::Access => "at",
            TokenKind::Refresh => "rt",
        };
        let token = format!(
            "sim{tag}{:04x}{:016x}",
            self.issued,
            fnv1a(client_id, self.issued, tag)
        );
        self.by_token.insert(token.clone(), (index, kind));
        token
    }

    /// The client index an `authorization` header value authenticates:
    /// `Bearer <access token>`, the scheme in any case.
    pub(crate) fn authenticate(&self, authorization: &str) -> Result<usize, ApiError> {
        let invalid = crate::http::invalid_token_error;
        let value = authorization.trim();
        let (scheme, token) = value.split_once(char::is_whitespace).ok_or_else(invalid)?;
        if !scheme.eq_ignore_ascii_case("bearer") {
            return Err(invalid());
        }
        match self.by_token.get(token.trim()) {
            Some(&(index, TokenKind::Access)) => Ok(index),
            Some(&(_, TokenKind::Refresh)) => Err(crate::http::refresh_token_as_access()),
            None => Err(invalid()),
        }
    }
}

/// FNV-1a over the client id, the counter and the kind: a stable, dependency-free
/// hash (not a secret: the simulator has no secrets to keep).
fn fnv1a(client_id: &str, counter: u64, tag: &str) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let bytes = client_id
        .bytes()
        .chain([0])
        .chain(counter.to_le_bytes())
        .chain(tag.bytes());
    for b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

#[cfg(test)]
mod tests;
