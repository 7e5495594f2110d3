//! Tests of the computation, one per rule of decisions.md §3, and its properties.

use super::*;
