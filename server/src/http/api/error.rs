//! The API's one error type: every refusal is JSON `{"error": "…", "field": "…"}` with the
//! status that says what kind of problem it is. `field` names the part of the request at fault
//! (`name`, `seats[2].forces`, `base_revision`) or is `null`; when several fields are wrong,
//! `problems` lists each.

use axum::{
    Json,
    http::{HeaderValue, StatusCode, header},
    response::{IntoResponse, Response},
};
use serde::Serialize;
use utoipa::ToSchema;

use crate::http::access::Denied;

/// A refused request.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
pub struct ErrorBody {
    /// What went wrong and what to do about it, in words.
    #[schema(example = "Forces on the board is a whole number, such as 3 (you sent \"x\").")]
    pub error: String,
    /// The request field at fault, if one is.
    #[schema(example = "seats[2].forces")]
    pub field: Option<String>,
    /// Every field at fault, when there are several.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub problems: Vec<Problem>,
}

/// One field at fault.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
pub struct Problem {
    pub error: String,
    pub field: String,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiError {
    pub status: StatusCode,
    pub body: ErrorBody,
}

impl ApiError {
    pub fn new(status: StatusCode, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            body: ErrorBody {
                error: message.into(),
                field: None,
                problems: Vec::new(),
            },
        }
    }

    /// 422: one field is wrong.
    pub fn field(field: impl Into<String>, message: impl Into<String>) -> ApiError {
        let mut error = ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, message);
        error.body.field = Some(field.into());
        error
    }

    /// 422: these fields are wrong; the first is also the error's own field and message.
    pub fn fields(problems: Vec<Problem>) -> ApiError {
        match problems.as_slice() {
            [] => ApiError::new(
                StatusCode::UNPROCESSABLE_ENTITY,
                "The request is not valid.",
            ),
            [one] => ApiError::field(one.field.clone(), one.error.clone()),
            [first, ..] => {
                let mut error = ApiError::field(
                    first.field.clone(),
                    problems
                        .iter()
                        .map(|p| p.error.as_str())
                        .collect::<Vec<_>>()
                        .join(" "),
                );
                error.body.problems = problems;
                error
            }
        }
    }

    pub fn not_found(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::NOT_FOUND, message)
    }

    pub fn conflict(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::CONFLICT, message)
    }

    /// Logs the cause once; the caller learns only that the server failed.
    pub fn internal(context: &str, error: impl std::fmt::Display) -> ApiError {
        tracing::error!(%error, "{context}");
        ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "Something went wrong on the server; please try again. If it keeps happening, tell the organiser.",
        )
    }
}

impl From<Denied> for ApiError {
    fn from(denied: Denied) -> ApiError {
        ApiError::new(denied.status(), denied.message())
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let unauthorised = self.status == StatusCode::UNAUTHORIZED;
        let mut response = (self.status, Json(self.body)).into_response();
        if unauthorised {
            response
                .headers_mut()
                .insert(header::WWW_AUTHENTICATE, HeaderValue::from_static("Bearer"));
        }
        response
    }
}

/// A request body read as `T`, or a 422 naming the field it could not read by its path
/// (`seats[1].forces`), or a 400 for text that is not JSON.
pub fn body<T: serde::de::DeserializeOwned>(bytes: &[u8]) -> Result<T, ApiError> {
    let mut deserializer = serde_json::Deserializer::from_slice(bytes);
    match serde_path_to_error::deserialize(&mut deserializer) {
        Ok(value) => Ok(value),
        Err(error) => {
            let path = error.path().to_string();
            let inner = error.into_inner();
            if inner.is_syntax() || inner.is_eof() {
                return Err(ApiError::new(
                    StatusCode::BAD_REQUEST,
                    format!("The body is not valid JSON ({inner})."),
                ));
            }
            // A field left out is named by its own place, not its object's.
            let missing = inner
                .to_string()
                .strip_prefix("missing field `")
                .and_then(|rest| rest.split('`').next().map(str::to_owned));
            if let Some(name) = missing {
                let field = if path == "." {
                    name.clone()
                } else {
                    format!("{path}.{name}")
                };
                return Err(ApiError::field(
                    field.clone(),
                    format!("The body has no {field}, which this endpoint needs."),
                ));
            }
            let message = format!("The body's {path} is not what this endpoint takes: {inner}.");
            Err(if path == "." {
                ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, message)
            } else {
                ApiError::field(path, message)
            })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, serde::Deserialize)]
    #[allow(dead_code)]
    struct Seat {
        forces: u32,
    }

    #[derive(Debug, serde::Deserialize)]
    #[allow(dead_code)]
    struct Body {
        seats: Vec<Seat>,
    }

    #[test]
    fn a_bad_body_names_the_field_by_its_path() {
        let e = body::<Body>(br#"{"seats": [{"forces": 1}, {"forces": "x"}]}"#).unwrap_err();
        assert_eq!(e.status, StatusCode::UNPROCESSABLE_ENTITY);
        assert_eq!(e.body.field.as_deref(), Some("seats[1].forces"));
        let e = body::<Body>(br#"{"seats": [{"forces": 1}"#).unwrap_err();
        assert_eq!(e.status, StatusCode::BAD_REQUEST);
        let e = body::<Body>(br#"{}"#).unwrap_err();
        assert_eq!(e.status, StatusCode::UNPROCESSABLE_ENTITY);
        assert!(e.body.error.contains("seats"), "{}", e.body.error);
        assert_eq!(
            e.body.field.as_deref(),
            Some("seats"),
            "a missing field is named"
        );
        let e = body::<Body>(br#"{"seats": [{"forces": 1}, {}]}"#).unwrap_err();
        assert_eq!(e.body.field.as_deref(), Some("seats[1].forces"));
    }

    #[test]
    fn several_problems_keep_the_first_as_the_field() {
        let e = ApiError::fields(vec![
            Problem {
                error: "A.".into(),
                field: "a".into(),
            },
            Problem {
                error: "B.".into(),
                field: "b".into(),
            },
        ]);
        assert_eq!(e.body.field.as_deref(), Some("a"));
        assert_eq!(e.body.error, "A. B.");
        assert_eq!(e.body.problems.len(), 2);
    }
}
