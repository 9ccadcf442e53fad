//! `mentat migrate`: bring the database's tables up to date and stop.

use crate::{config, database, error::StartupError};

pub fn run() -> Result<(), StartupError> {
    let url = config::database_url()?;
    super::runtime()?.block_on(async {
        let pool = database::connect(&url).await?;
        database::migrate(&pool, &url).await?;
        let version = database::migration_version(&pool).await.ok().flatten();
        println!(
            "Database {} is at migration {}.",
            config::redact(&url),
            version.map_or_else(|| "none".to_owned(), |v| v.to_string())
        );
        Ok(())
    })
}
