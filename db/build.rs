// `sqlx::migrate!` embeds ../migrations at compile time; without this, a new migration file
// does not rebuild the crate and the binary silently lacks it (sqlx's documented remedy).
fn main() {
    println!("cargo:rerun-if-changed=../migrations");
}
