//! Mentat's server: configuration, database, HTTP and the command line.
//!
//! Reading order: `cli` (what the binary can do) → `config` (where settings come from) →
//! `db` (connecting and migrating) → `http` (the router, health check and Leptos pages).
// A panic in the hall loses a judge's work: outside tests, every failure is an error value.
#![cfg_attr(not(test), deny(clippy::unwrap_used, clippy::expect_used))]
// Rendering the pages lays out deeply nested view types (a table row holding forms); their
// layout goes past the default query depth of 128.
#![recursion_limit = "256"]

pub mod cli;
pub mod commands;
pub mod config;
pub mod database;
pub mod error;
pub mod http;
pub mod telemetry;
