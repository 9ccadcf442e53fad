//! Failures while starting up, each explained so an organiser can fix it without a backtrace.

use std::net::SocketAddr;

#[derive(Debug, thiserror::Error)]
pub enum StartupError {
    #[error(
        "DATABASE_URL is not set. Mentat keeps everything in PostgreSQL and needs to know which \
         server to use. Start Mentat with script/server, which runs a private PostgreSQL for you, \
         or set DATABASE_URL=postgres://user:password@host:5432/database."
    )]
    NoDatabaseUrl,
    #[error(
        "DATABASE_URL is not a PostgreSQL address ({0}). Expected something like \
         postgres://user:password@host:5432/database."
    )]
    BadDatabaseUrl(String),
    #[error(
        "Mentat could not reach PostgreSQL at {target}: {cause}. Check that the server is running \
         and accepts connections there, and that the user, password and database in DATABASE_URL \
         are right; or unset DATABASE_URL and use script/server, which starts a private \
         PostgreSQL for Mentat."
    )]
    DatabaseUnreachable { target: String, cause: String },
    #[error(
        "Mentat reached PostgreSQL at {target} but could not bring its tables up to date: {cause}. \
         Nothing was changed by the failed step (each migration runs in a transaction); check that \
         the user in DATABASE_URL may create tables, then start Mentat again."
    )]
    Migration { target: String, cause: String },
    #[error(
        "The address {addr} is already in use, probably by another Mentat or web server. Stop \
         that program, or choose another port with PORT=3001 (or LEPTOS_SITE_ADDR=127.0.0.1:3001)."
    )]
    PortInUse { addr: SocketAddr },
    #[error("Mentat could not listen on {addr}: {cause}.")]
    Listen { addr: SocketAddr, cause: String },
    #[error("{0}")]
    Config(String),
    #[error("The web server stopped with an error: {0}.")]
    Serve(String),
}
