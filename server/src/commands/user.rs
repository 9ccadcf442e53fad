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
