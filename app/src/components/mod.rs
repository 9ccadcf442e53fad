//! Pieces shared by several pages.

pub mod clock;
pub mod field;
pub mod header;
pub mod live;
pub mod refresh;
