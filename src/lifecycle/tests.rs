//! Tests of create, PATCH, send and state overrides, one per rule.

use super::*;
