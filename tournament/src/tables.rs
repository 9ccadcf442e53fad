//! Splitting the players of a round into tables (4.01.01, rulings.md 1).

use std::fmt;

use crate::options::TableFallback;

/// Tables of 6 and 5 with as many sixes as possible (4.01.01), sixes first; `None` when no such
/// split exists (1-4, 7, 8, 9, 13, 14, 19). Zero players split into zero tables.
///
/// Since 6a ≡ a (mod 5), the number of sixes is the largest a ≤ n/6 with a ≡ n (mod 5); at most
/// four steps down from n/6 find it or show there is none.
pub fn split(players: usize) -> Option<Vec<u8>> {
    let mut sixes = players / 6;
    loop {
        let rest = players - 6 * sixes;
        if rest.is_multiple_of(5) {
            let mut sizes = vec![6; sixes];
            sizes.resize(sixes + rest / 5, 5);
            return Some(sizes);
        }
        if sixes == 0 || players / 6 - sixes >= 4 {
            return None;
        }
        sixes -= 1;
    }
}

/// Tables for a round under the event's fallback choice (ruling 1). Only a split that 4.01.01
/// allows, or 4-player tables when the event chose them, is ever returned; every other case is
/// an error that lays out the options.
pub fn plan(players: usize, fallback: TableFallback) -> Result<Vec<u8>, TableError> {
    if players == 0 {
        return Err(TableError::NoPlayers);
    }
    if let Some(sizes) = split(players) {
        return Ok(sizes);
    }
    let options = NoSplit::new(players, fallback);
    if fallback == TableFallback::FourPlayerTables
        && let Some(sizes) = &options.four_player_tables
    {
        return Ok(sizes.clone());
    }
    Err(TableError::NoSplit(options))
}

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TableError {
    #[error("there are no players to seat")]
    NoPlayers,
    #[error("{0}")]
    NoSplit(NoSplit),
}

/// The three options of ruling 1 for a player count that 4.01.01 cannot split, each worked out
/// for this count so the head judge sees the tables each choice gives.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NoSplit {
    pub players: usize,
    /// Alternates to add and the tables that then result (always possible).
    pub alternates: (usize, Vec<u8>),
    /// Tables with as few 4-player tables as possible, then as many sixes; `None` when even
    /// that fails (7 players, or fewer than 4).
    pub four_player_tables: Option<Vec<u8>>,
    /// Byes to give and the tables of the players left; `None` under 5 players.
    pub byes: Option<(usize, Vec<u8>)>,
    /// The event's current choice, so the message can say what is missing for it.
    pub fallback: TableFallback,
}

impl NoSplit {
    pub fn new(players: usize, fallback: TableFallback) -> NoSplit {
        let alternates = (players.max(5)..)
            .find_map(|m| split(m).map(|sizes| (m - players, sizes)))
            .unwrap_or_default();
        let four_player_tables = (1..=players / 4).find_map(|fours| {
            split(players - 4 * fours).map(|mut sizes| {
                sizes.resize(sizes.len() + fours, 4);
                sizes
            })
        });
        let byes = (5..players)
            .rev()
            .find_map(|m| split(m).map(|sizes| (players - m, sizes)));
        NoSplit {
            players,
            alternates,
            four_player_tables,
            byes,
            fallback,
        }
    }
}

fn sizes_text(sizes: &[u8]) -> String {
    let parts: Vec<String> = sizes.iter().map(u8::to_string).collect();
    format!("[{}]", parts.join(","))
}

fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

impl fmt::Display for NoSplit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.players;
        write!(
            f,
            "{} cannot be split into tables of 6 and 5 (4.01.01). ",
            plural(n, "player", "players")
        )?;
        match self.fallback {
            TableFallback::Ask => {
                f.write_str("The head judge chooses one of ruling 1's options:")?
            }
            TableFallback::Alternates => write!(
                f,
                "The event seats alternates (ruling 1): add {} to the player list.",
                plural(self.alternates.0, "alternate", "alternates")
            )?,
            TableFallback::Byes => match &self.byes {
                Some((byes, _)) => write!(
                    f,
                    "The event gives byes (ruling 1): name the {} the head judge picks.",
                    plural(*byes, "player who sits", "players who sit")
                )?,
                None => f.write_str(
                    "The event gives byes (ruling 1), but fewer than 5 players leave no table.",
                )?,
            },
            TableFallback::FourPlayerTables => {
                f.write_str("The event allows 4-player tables (ruling 1), but they do not help.")?
            }
        }
        if self.fallback != TableFallback::Ask {
            f.write_str(" All options:")?;
        }
        let (add, sizes) = &self.alternates;
        write!(
            f,
            "\n  1. alternates: add {} to make {} players, tables {}",
            plural(*add, "alternate", "alternates"),
            n + add,
            sizes_text(sizes)
        )?;
        match &self.four_player_tables {
            Some(sizes) => write!(f, "\n  2. 4-player tables: tables {}", sizes_text(sizes))?,
            None => write!(f, "\n  2. 4-player tables: impossible for {n}")?,
        }
        match &self.byes {
            Some((byes, sizes)) => write!(
                f,
                "\n  3. byes: {}, picked by the head judge, {} out (0 points, no game), tables {}",
                plural(*byes, "player", "players"),
                if *byes == 1 { "sits" } else { "sit" },
                sizes_text(sizes)
            )?,
            None => f.write_str("\n  3. byes: impossible, fewer than 5 players leave no table")?,
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn catalogue_table_c1() {
        let cases: [(usize, &[u8]); 17] = [
            (5, &[5]),
            (6, &[6]),
            (10, &[5, 5]),
            (11, &[6, 5]),
            (12, &[6, 6]),
            (15, &[5, 5, 5]),
            (16, &[6, 5, 5]),
            (17, &[6, 6, 5]),
            (18, &[6, 6, 6]),
            (20, &[5, 5, 5, 5]),
            (24, &[6, 6, 6, 6]),
            (25, &[5, 5, 5, 5, 5]),
            (26, &[6, 5, 5, 5, 5]),
            (27, &[6, 6, 5, 5, 5]),
            (30, &[6, 6, 6, 6, 6]),
            (31, &[6, 5, 5, 5, 5, 5]),
            (36, &[6, 6, 6, 6, 6, 6]),
        ];
        for (n, sizes) in cases {
            assert_eq!(split(n).as_deref(), Some(sizes), "{n} players");
        }
        for n in [1, 2, 3, 4, 7, 8, 9, 13, 14, 19] {
            assert_eq!(split(n), None, "{n} players");
        }
    }

    #[test]
    fn fallbacks_follow_catalogue_c1() {
        let f = |n| NoSplit::new(n, TableFallback::Ask);
        assert_eq!(f(7).alternates, (3, vec![5, 5]));
        assert_eq!(f(19).alternates, (1, vec![5, 5, 5, 5]));
        assert_eq!(f(3).alternates, (2, vec![5]));
        assert_eq!(f(7).four_player_tables, None);
        assert_eq!(f(8).four_player_tables, Some(vec![4, 4]));
        assert_eq!(f(9).four_player_tables, Some(vec![5, 4]));
        assert_eq!(f(13).four_player_tables, Some(vec![5, 4, 4]));
        assert_eq!(f(14).four_player_tables, Some(vec![5, 5, 4]));
        assert_eq!(f(19).four_player_tables, Some(vec![5, 5, 5, 4]));
        assert_eq!(f(4).four_player_tables, Some(vec![4]));
        assert_eq!(f(3).four_player_tables, None);
        assert_eq!(f(7).byes, Some((1, vec![6])));
        assert_eq!(f(9).byes, Some((3, vec![6])));
        assert_eq!(f(14).byes, Some((2, vec![6, 6])));
        assert_eq!(f(19).byes, Some((1, vec![6, 6, 6])));
        assert_eq!(f(4).byes, None);
    }

    #[test]
    fn plan_never_decides_silently() {
        assert_eq!(plan(17, TableFallback::Ask), Ok(vec![6, 6, 5]));
        assert_eq!(plan(0, TableFallback::Ask), Err(TableError::NoPlayers));
        assert!(matches!(
            plan(8, TableFallback::Ask),
            Err(TableError::NoSplit(_))
        ));
        assert!(matches!(
            plan(8, TableFallback::Byes),
            Err(TableError::NoSplit(_))
        ));
        assert_eq!(plan(8, TableFallback::FourPlayerTables), Ok(vec![4, 4]));
        assert!(matches!(
            plan(7, TableFallback::FourPlayerTables),
            Err(TableError::NoSplit(_))
        ));
        let text = plan(7, TableFallback::Ask).unwrap_err().to_string();
        assert!(
            text.contains("4.01.01") && text.contains("ruling 1"),
            "{text}"
        );
        assert!(
            text.contains("add 3 alternates to make 10 players, tables [5,5]"),
            "{text}"
        );
        assert!(text.contains("4-player tables: impossible"), "{text}");
        assert!(
            text.contains("byes: 1 player, picked by the head judge, sits out"),
            "{text}"
        );
    }
}
