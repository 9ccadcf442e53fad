//! Pieces shared by several pages.

pub mod field;
pub mod header;
