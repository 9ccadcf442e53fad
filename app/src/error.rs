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

/// Logs the cause once and tells the user only that something failed.
#[cfg(feature = "ssr")]
pub fn internal(context: &str, error: impl std::fmt::Display) -> AppError {
    tracing::error!(%error, "{context}");
    AppError::Internal(context.to_owned())
}

/// The id of the form control a problem belongs to. The database layer names fields by what
/// they are (a seat's position in the report, a turn, the reason); only the pages know their
/// controls, so this is the one place that spells them.
#[cfg(feature = "ssr")]
pub fn field_id(field: db::results::Field) -> String {
    use db::results::Field;
    use tournament::{ReportField, attempts::AttemptField};
    match field {
        Field::Report(ReportField::Seat(i, f)) => seat_field_id(i, f.name()),
        Field::Report(f) => f.name().to_owned(),
        Field::Attempt(AttemptField::Turn) => "turn".to_owned(),
        Field::Attempt(AttemptField::Seat(i)) => format!("evidence-{i}"),
        Field::Attempt(AttemptField::Seats) => "players".to_owned(),
        Field::Named(name) => name.to_owned(),
    }
}

/// The id of one seat's control on the report form: `seat-<position>-<field>`.
pub fn seat_field_id(position: usize, field: &str) -> String {
    format!("seat-{position}-{field}")
}

#[cfg(feature = "ssr")]
mod from_db {
    //! Each database error as the page shows it. Which HTTP status goes with which kind of
    //! error is decided once, in [`AppError::status`].

    use super::{AppError, field_id, internal};

    impl From<db::results::ResultsError> for AppError {
        fn from(error: db::results::ResultsError) -> Self {
            use db::results::{Field, ResultsError as E};
            use tournament::{ReportField, attempts::AttemptField};
            match error {
                E::NotFound => AppError::NotFound(error.to_string()),
                E::Forbidden(m) => AppError::Forbidden(m),
                E::Changed { .. } | E::Taken { .. } => AppError::Conflict(error.to_string()),
                // A problem of the whole form (a page older than the table) goes to the form's
                // message; one at a field the form shows is told there alone.
                E::Invalid(mut problems) if problems.len() == 1 => {
                    let p = problems.remove(0);
                    match p.field {
                        Field::Report(ReportField::Seats) | Field::Attempt(AttemptField::Seats) => {
                            AppError::Invalid(p.message)
                        }
                        field => AppError::Field {
                            field: field_id(field),
                            message: p.message,
                        },
                    }
                }
                E::Invalid(problems) => AppError::Fields(
                    problems
                        .into_iter()
                        .map(|p| (field_id(p.field), p.message))
                        .collect(),
                ),
                E::State(m) => AppError::Invalid(m),
                E::Database(e) => internal("saving the results", e),
            }
        }
    }

    impl From<db::rounds::RoundError> for AppError {
        fn from(error: db::rounds::RoundError) -> Self {
            use db::rounds::RoundError;
            use tournament::{DrawError, tables::TableError};
            match error {
                e if e.is_conflict() => AppError::Conflict(e.to_string()),
                RoundError::Field { field, message } => AppError::field(field, message),
                e @ RoundError::Unreported { .. } => {
                    AppError::field("override_reason", e.to_string())
                }
                e @ RoundError::Draw(DrawError::Tables(TableError::NoSplit(_))) => {
                    AppError::field("fallback", e.to_string())
                }
                e @ RoundError::NotFound => AppError::NotFound(e.to_string()),
                RoundError::Database(e) => internal("changing the round", e),
                e => AppError::Invalid(e.to_string()),
            }
        }
    }

    impl From<db::clocks::ClockCommandError> for AppError {
        fn from(error: db::clocks::ClockCommandError) -> Self {
            use db::clocks::ClockCommandError as E;
            match error {
                e @ E::Stale(_) => AppError::Conflict(e.to_string()),
                e @ E::NotFound => AppError::NotFound(e.to_string()),
                e @ E::ReasonRequired => AppError::field("reason", e.to_string()),
                e @ E::Clock {
                    error: tournament::ClockError::BadExtension,
                    ..
                } => AppError::field("minutes", e.to_string()),
                E::Database(e) => internal("changing the clock", e),
                e => AppError::Invalid(e.to_string()),
            }
        }
    }

    impl From<db::players::PlayerError> for AppError {
        fn from(error: db::players::PlayerError) -> Self {
            use db::players::PlayerError as E;
            match error {
                e @ E::Stale(_) => AppError::Conflict(e.to_string()),
                e @ E::NotFound => AppError::NotFound(e.to_string()),
                E::Database(e) => internal("saving the player", e),
                e => match e.field() {
                    Some(field) => AppError::field(field, e.to_string()),
                    None => AppError::Invalid(e.to_string()),
                },
            }
        }
    }

    impl From<db::events::SettingsError> for AppError {
        fn from(error: db::events::SettingsError) -> Self {
            use db::events::SettingsError as E;
            match error {
                e @ E::Stale => AppError::Conflict(e.to_string()),
                e @ E::NotFound => AppError::NotFound(e.to_string()),
                E::Database(e) => internal("saving the settings", e),
                e => match e.field() {
                    Some(field) => AppError::field(field, e.to_string()),
                    None => AppError::Invalid(e.to_string()),
                },
            }
        }
    }

    impl From<db::Error> for AppError {
        fn from(error: db::Error) -> Self {
            internal("reading the database", error)
        }
    }
}
