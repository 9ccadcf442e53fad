//! Pieces shared by several pages.

pub mod board;
pub mod clock;
pub mod field;
pub mod header;
pub mod live;
pub mod log_editor;
pub mod refresh;
pub mod rule_link;
pub mod title;
