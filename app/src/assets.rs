//! The addresses of the site's built files: the stylesheet, the script and the wasm of the
//! browser half.
//!
//! A build names them by a hash of their content (cargo-leptos's `hash-files`:
//! `/pkg/mentat.<hash>.css`), so a browser may keep them for a year: a new build has new names.
//! cargo-leptos writes the hashes into the site's `hash.txt`; the server reads it once at start
//! ([`Assets::of_site`], then [`set`]) and every page links the names from here. A site built
//! without hashes (an older build, a test's own folder) keeps the plain names.

use std::sync::OnceLock;

/// What the site's pages link to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Assets {
    pub stylesheet: String,
    pub script: String,
    pub wasm: String,
    /// Whether the names carry their content's hash (and may be kept for good).
    pub hashed: bool,
}

/// The output name every build of the browser half uses (`LEPTOS_OUTPUT_NAME`).
const NAME: &str = "mentat";

impl Assets {
    /// The plain names, for a site built without hashes.
    pub fn unhashed() -> Assets {
        Assets {
            stylesheet: format!("/pkg/{NAME}.css"),
            script: format!("/pkg/{NAME}.js"),
            wasm: format!("/pkg/{NAME}.wasm"),
            hashed: false,
        }
    }

    /// The names `hash.txt` gives (lines such as `css: 3kq0…`), or `None` when it lacks one of
    /// the three or a hash is not a plain base64url word.
    pub fn from_hash_file(text: &str) -> Option<Assets> {
        let hash = |kind: &str| {
            text.lines()
                .filter_map(|line| line.split_once(':'))
                .find(|(k, _)| k.trim() == kind)
                .map(|(_, h)| h.trim())
                .filter(|h| {
                    !h.is_empty()
                        && h.len() <= 64
                        && h.bytes()
                            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
                })
        };
        Some(Assets {
            stylesheet: format!("/pkg/{NAME}.{}.css", hash("css")?),
            script: format!("/pkg/{NAME}.{}.js", hash("js")?),
            wasm: format!("/pkg/{NAME}.{}.wasm", hash("wasm")?),
            hashed: true,
        })
    }

    /// The names of the site in `site_root`, from its `hash.txt` if it has one.
    pub fn of_site(site_root: &std::path::Path) -> Assets {
        std::fs::read_to_string(site_root.join(HASH_FILE))
            .ok()
            .and_then(|text| Assets::from_hash_file(&text))
            .unwrap_or_else(Assets::unhashed)
    }

    /// Whether `path` is one of the files named by their content's hash, which never change.
    pub fn is_immutable(&self, path: &str) -> bool {
        self.hashed && (path == self.stylesheet || path == self.script || path == self.wasm)
    }
}

/// Where cargo-leptos writes the hashes, in the site's folder (script/lib/common.sh sets
/// `LEPTOS_HASH_FILE_NAME` to it).
pub const HASH_FILE: &str = "hash.txt";

static CURRENT: OnceLock<Assets> = OnceLock::new();

/// Fixes the names for this process (the first call wins: a process serves one site).
pub fn set(assets: Assets) {
    let _ = CURRENT.set(assets);
}

/// The names this process serves.
pub fn current() -> &'static Assets {
    CURRENT.get_or_init(Assets::unhashed)
}

/// The stylesheet every page links.
pub fn stylesheet() -> &'static str {
    &current().stylesheet
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_hash_file_names_the_three_files() {
        let assets =
            Assets::from_hash_file("js: AbC-1_x\nwasm: QQ\ncss: zz9\n").expect("three hashes");
        assert_eq!(assets.stylesheet, "/pkg/mentat.zz9.css");
        assert_eq!(assets.script, "/pkg/mentat.AbC-1_x.js");
        assert_eq!(assets.wasm, "/pkg/mentat.QQ.wasm");
        assert!(assets.is_immutable("/pkg/mentat.zz9.css"));
        assert!(!assets.is_immutable("/pkg/mentat.css"));
        assert!(!Assets::unhashed().is_immutable("/pkg/mentat.css"));
    }

    #[test]
    fn a_damaged_hash_file_leaves_the_plain_names() {
        assert_eq!(Assets::from_hash_file("js: a\ncss: b\n"), None);
        assert_eq!(Assets::from_hash_file("js: a\nwasm: b\ncss: ../x\n"), None);
        assert_eq!(
            Assets::of_site(std::path::Path::new("/nonexistent-site")),
            Assets::unhashed()
        );
    }
}
