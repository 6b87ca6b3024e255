//! mcp-conform: a static auditor for the JSON-RPC lifecycle of MCP servers.
//!
//! The pipeline runs one way: [`discover`] → [`prefilter`] → [`parse`] →
//! [`lower`] (to the facts of [`model`]) → [`group`] into servers → [`check`]
//! (with the [`interp`] interpreter) → [`report`]. [`scan`] wires it together:
//! it reads the [`config`] and hands the stages plain [`settings`].

pub mod catalog;
pub mod check;
pub mod config;
pub mod discover;
pub mod group;
pub mod interp;
pub mod lower;
pub mod model;
pub mod parse;
pub mod prefilter;
pub mod program;
pub mod report;
pub mod scan;
pub mod settings;
pub mod stage;
pub mod suppress;
pub mod value;
