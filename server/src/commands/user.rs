//! `mentat user add NAME [--email E] [--admin]`: create an account from the server's shell.
//! The password is read from the terminal (asked twice, not echoed) or, when standard input is
//! not a terminal, from its first line; never from the command line, where `ps` would show it.

use std::io::{BufRead, IsTerminal};

use db::{
    accounts::{self, NewUser, UserName},
    password::Password,
};

use crate::{config, database, error::StartupError};

pub fn add(name: &str, email: Option<&str>, admin: bool) -> Result<(), StartupError> {
    let username = UserName::parse(name)
        .map_err(|m| StartupError::Config(format!("user name {name:?}: {m}")))?;
    let email = accounts::parse_email(email.unwrap_or_default())
        .map_err(|m| StartupError::Config(format!("email: {m}")))?;
    let password = read_password()?;
    let url = config::database_url()?;
    super::runtime()?.block_on(async {
        let pool = database::connect(&url).await?;
        database::migrate(&pool, &url).await?;
        let new = NewUser {
            username: username.clone(),
            email,
            password,
            is_admin: admin,
        };
        match accounts::create_user(&pool, new, None).await {
            Ok(_) => {
                println!(
                    "Created {}{}. Sign in at /signin.",
                    username.as_str(),
                    if admin { " (site administrator)" } else { "" }
                );
                Ok(())
            }
            Err(
                e @ (accounts::CreateUserError::UsernameTaken(_)
                | accounts::CreateUserError::EmailTaken(_)),
            ) => Err(StartupError::Config(e.to_string())),
            Err(e) => Err(StartupError::Config(format!(
                "could not create the account: {e}"
            ))),
        }
    })
}

fn read_password() -> Result<Password, StartupError> {
    let bad = |m: String| StartupError::Config(m);
    if std::io::stdin().is_terminal() {
        let first = rpassword::prompt_password("Password (at least 10 characters): ")
            .map_err(|e| bad(format!("could not read the password: {e}")))?;
        let second = rpassword::prompt_password("Repeat the password: ")
            .map_err(|e| bad(format!("could not read the password: {e}")))?;
        if first != second {
            return Err(bad("the two passwords differ; nothing was created".into()));
        }
        Password::new_choice(first).map_err(bad)
    } else {
        let mut line = String::new();
        std::io::stdin().lock().read_line(&mut line).map_err(|e| {
            bad(format!(
                "could not read the password from standard input: {e}"
            ))
        })?;
        Password::new_choice(line.trim_end_matches(['\r', '\n'])).map_err(bad)
    }
}

/// `mentat token add NAME --label LABEL [--days N]`: an account token for NAME's scripts,
/// printed once (the server keeps only its fingerprint). It acts as NAME in every event NAME
/// holds a role in, and creates events when NAME is a site administrator.
pub fn token_add(name: &str, label: &str, days: Option<u32>) -> Result<(), StartupError> {
    let url = config::database_url()?;
    super::runtime()?.block_on(async {
        let pool = database::connect(&url).await?;
        database::migrate(&pool, &url).await?;
        let actor = account(&pool, name).await?;
        let expires = days.map(|d| chrono::Utc::now() + chrono::Duration::days(i64::from(d)));
        let issued = db::tokens::issue_account(&pool, &actor, label, expires)
            .await
            .map_err(|e| StartupError::Config(format!("could not make the token: {e}")))?;
        eprintln!(
            "Account token {:?} (id {}) for {}{}: keep it secret; it is shown only now.",
            issued.token.label,
            issued.token.id,
            actor.username,
            expires
                .map(|at| format!(", until {}", at.format("%Y-%m-%d %H:%M UTC")))
                .unwrap_or_default()
        );
        println!("{}", issued.secret.expose());
        Ok(())
    })
}

/// `mentat token revoke ID`: the account token stops working at once.
pub fn token_revoke(id: i64) -> Result<(), StartupError> {
    let url = config::database_url()?;
    super::runtime()?.block_on(async {
        let pool = database::connect(&url).await?;
        database::migrate(&pool, &url).await?;
        let owner: Option<String> = sqlx::query_scalar(
            "SELECT u.username FROM tokens t JOIN users u ON u.id = t.created_by \
             WHERE t.id = $1 AND t.kind = 'account'",
        )
        .bind(id)
        .fetch_optional(&pool)
        .await
        .map_err(|e| StartupError::Config(format!("could not read the token: {e}")))?;
        let Some(owner) = owner else {
            return Err(StartupError::Config(format!(
                "there is no account token {id}"
            )));
        };
        let actor = account(&pool, &owner).await?;
        let token = db::tokens::revoke_account(&pool, &actor, id)
            .await
            .map_err(|e| StartupError::Config(format!("could not revoke the token: {e}")))?;
        println!("Revoked {:?} (id {}) of {owner}.", token.label, token.id);
        Ok(())
    })
}

async fn account(pool: &db::PgPool, name: &str) -> Result<db::roles::Actor, StartupError> {
    let id: Option<tournament::ids::UserId> =
        sqlx::query_scalar("SELECT id FROM users WHERE lower(username) = lower($1)")
            .bind(name.trim())
            .fetch_optional(pool)
            .await
            .map_err(|e| StartupError::Config(format!("could not read the accounts: {e}")))?;
    let Some(id) = id else {
        return Err(StartupError::Config(format!(
            "no account is called {name:?}; create it with mentat user add"
        )));
    };
    accounts::actor(pool, id)
        .await
        .map_err(|e| StartupError::Config(format!("could not read the account: {e}")))?
        .ok_or_else(|| StartupError::Config(format!("no account is called {name:?}")))
}
