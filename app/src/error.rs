//! The one error type of Mentat's server functions: what went wrong, in words a judge can act
//! on, and (for forms) which field it concerns.

use leptos::server_fn::{codec::JsonEncoding, error::FromServerFnError, error::ServerFnErrorErr};
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, thiserror::Error)]
pub enum AppError {
    #[error("Sign in to do this.")]
    SignInRequired,
    #[error("{0}")]
    Forbidden(String),
    #[error("{0}")]
    NotFound(String),
    /// A form field is wrong; the page shows the message next to that field.
    #[error("{message}")]
    Field { field: String, message: String },
    /// Several form fields are wrong at once: (field, message) pairs, each shown at its field.
    #[error("{}", .0.iter().map(|(_, m)| m.as_str()).collect::<Vec<_>>().join(" "))]
    Fields(Vec<(String, String)>),
    #[error("{0}")]
    Invalid(String),
    /// Someone else changed the same thing first: reload and look before trying again.
    #[error("{0}")]
    Conflict(String),
    #[error(
        "Something went wrong on the server; please try again. If it keeps happening, tell the organiser ({0})."
    )]
    Internal(String),
    #[error("Mentat could not be reached ({0}). Check the connection and try again.")]
    Transport(String),
}

impl AppError {
    pub fn field(field: &str, message: impl Into<String>) -> Self {
        Self::Field {
            field: field.to_owned(),
            message: message.into(),
        }
    }

    /// The message for `name` if this error is about that form field.
    pub fn message_for(&self, name: &str) -> Option<String> {
        match self {
            Self::Field { field, message } if field == name => Some(message.clone()),
            Self::Fields(list) => list
                .iter()
                .find(|(field, _)| field == name)
                .map(|(_, m)| m.clone()),
            _ => None,
        }
    }

    /// The HTTP status this error is answered with.
    pub fn status(&self) -> u16 {
        match self {
            Self::SignInRequired => 401,
            Self::Forbidden(_) => 403,
            Self::NotFound(_) => 404,
            Self::Field { .. } | Self::Fields(_) | Self::Invalid(_) => 422,
            Self::Conflict(_) => 409,
            Self::Internal(_) => 500,
            Self::Transport(_) => 502,
        }
    }
}

impl FromServerFnError for AppError {
    type Encoder = JsonEncoding;

    fn from_server_fn_error(value: ServerFnErrorErr) -> Self {
        match value {
            ServerFnErrorErr::Args(e) | ServerFnErrorErr::MissingArg(e) => {
                Self::Invalid(format!("The form was incomplete: {e}"))
            }
            other => Self::Transport(other.to_string()),
        }
    }
}
