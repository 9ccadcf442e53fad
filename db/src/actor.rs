//! Who makes a request: every write names its actor in the audit log.

use serde::{Deserialize, Serialize};
use tournament::ids::UserId;

/// The caller of a request, if signed in.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Actor {
    pub user_id: UserId,
    pub username: String,
    pub is_admin: bool,
}
