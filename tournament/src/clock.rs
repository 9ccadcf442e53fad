//! A table's game clock (4.01.08, ruling 5): one hour per seated player from the start of setup,
//! then 30 minutes to finish the turn being played, then the game is over.
//!
//! A clock is a handful of stored instants, never a running timer: what it shows is computed
//! from them and the current time. So any server instance, a reloaded phone or the browser's own
//! ticking derive the same reading, and a restart loses nothing. Times are milliseconds since
//! the Unix epoch, so this module needs no date library and runs in the browser too.

use serde::{Deserialize, Serialize};

/// One hour per seated player (4.01.08).
pub const MS_PER_PLAYER: i64 = 60 * 60 * 1000;
/// After the limit, the time to finish the current turn (4.01.08, ruling 5).
pub const FINISH_WINDOW_MS: i64 = 30 * 60 * 1000;
/// The most one extension may add. Longer breaks are pauses, not extensions.
pub const MAX_EXTENSION_MS: i64 = 2 * 60 * 60 * 1000;

/// The stored state of one table's clock.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Clock {
    /// When the clock was first started; `None` until then.
    pub started_at: Option<i64>,
    /// When the current pause began; `None` while running (or before the start).
    pub paused_at: Option<i64>,
    /// Total length of the pauses that have ended.
    pub paused_ms: i64,
    /// Time the head judge added, in total.
    pub extension_ms: i64,
    /// Players seated at the table: the limit is one hour each.
    pub players: u8,
    /// When the table's report became final: the game is over, so its time stops there and
    /// the clock takes no more commands. Readings keep showing the time at that instant.
    #[serde(default)]
    pub stopped_at: Option<i64>,
    /// A rehearsal's short limit for the whole table, set on a test event so a clock can be
    /// seen to run out: it replaces the hour per player, and the finish window is as long (at
    /// most its 30 minutes). `None` at a real event.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rehearsal_ms: Option<i64>,
}

/// Where a game is in its time (the state judges and players see).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    NotStarted,
    /// Before the limit.
    Running,
    /// Past the limit: finish the turn being played (4.01.08).
    FinishWindow,
    /// The 30 minutes are gone: play stops, an unfinished game is adjudicated (4.01.09).
    Over,
}

impl Phase {
    pub fn label(self) -> &'static str {
        match self {
            Phase::NotStarted => "not started",
            Phase::Running => "running",
            Phase::FinishWindow => "finish window",
            Phase::Over => "over",
        }
    }

    /// A stable name for styling and tests.
    pub fn code(self) -> &'static str {
        match self {
            Phase::NotStarted => "not-started",
            Phase::Running => "running",
            Phase::FinishWindow => "finish-window",
            Phase::Over => "over",
        }
    }
}

/// A clock read at one instant.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Reading {
    pub phase: Phase,
    /// Paused (only ever while running or in the finish window, and not stopped).
    pub paused: bool,
    /// Stopped for good: the table's report is final. The other fields are as at that instant.
    #[serde(default)]
    pub stopped: bool,
    /// Playing time so far, pauses excluded.
    pub elapsed_ms: i64,
    /// The limit: players × 1 hour, plus extensions.
    pub limit_ms: i64,
    /// Time left until the next boundary: the limit while running, the end of the finish window
    /// in it; 0 when over; the full limit before the start.
    pub remaining_ms: i64,
}

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ClockError {
    #[error("the clock is already running")]
    AlreadyStarted,
    #[error("the clock has not been started")]
    NotStarted,
    #[error("the clock is already paused")]
    AlreadyPaused,
    #[error("the clock is not paused")]
    NotPaused,
    #[error("the game's time is over; extend the clock first if play should go on")]
    Over,
    #[error("an extension is 1 minute to 2 hours")]
    BadExtension,
    #[error("the table's report is final, so its clock has stopped")]
    Stopped,
}

impl Clock {
    /// A clock for a table of `players`, not started.
    pub fn new(players: u8) -> Clock {
        Clock {
            players,
            ..Clock::default()
        }
    }

    pub fn limit_ms(&self) -> i64 {
        self.rehearsal_ms
            .unwrap_or(i64::from(self.players) * MS_PER_PLAYER)
            + self.extension_ms
    }

    /// The time to finish the turn being played once the limit is reached (4.01.08): 30
    /// minutes, or a rehearsal's short limit if that is shorter.
    pub fn finish_window_ms(&self) -> i64 {
        self.rehearsal_ms
            .map_or(FINISH_WINDOW_MS, |r| r.clamp(0, FINISH_WINDOW_MS))
    }

    /// Playing time at `now`: from the start, minus every pause. A clock read slightly before
    /// its start (two servers' clocks differ by a few milliseconds) shows zero, never less.
    pub fn elapsed_ms(&self, now: i64) -> i64 {
        // A pause that began before the stop holds the time where the pause began.
        let end = match (self.paused_at, self.stopped_at) {
            (Some(paused), Some(stopped)) => paused.min(stopped),
            (Some(at), None) | (None, Some(at)) => at,
            (None, None) => now,
        };
        match self.started_at {
            None => 0,
            Some(start) => (end - start - self.paused_ms).max(0),
        }
    }

    pub fn read(&self, now: i64) -> Reading {
        let limit_ms = self.limit_ms();
        let elapsed_ms = self.elapsed_ms(now);
        let (phase, remaining_ms) = if self.started_at.is_none() {
            (Phase::NotStarted, limit_ms)
        } else if elapsed_ms < limit_ms {
            (Phase::Running, limit_ms - elapsed_ms)
        } else if elapsed_ms < limit_ms + self.finish_window_ms() {
            (
                Phase::FinishWindow,
                limit_ms + self.finish_window_ms() - elapsed_ms,
            )
        } else {
            (Phase::Over, 0)
        };
        let stopped = self.stopped_at.is_some();
        Reading {
            phase,
            paused: self.paused_at.is_some() && phase != Phase::Over && !stopped,
            stopped,
            elapsed_ms,
            limit_ms,
            remaining_ms,
        }
    }

    /// Refuses any command once the report is final.
    fn running_still(self) -> Result<Clock, ClockError> {
        match self.stopped_at {
            Some(_) => Err(ClockError::Stopped),
            None => Ok(self),
        }
    }

    pub fn start(self, now: i64) -> Result<Clock, ClockError> {
        self.running_still()?;
        if self.started_at.is_some() {
            return Err(ClockError::AlreadyStarted);
        }
        Ok(Clock {
            started_at: Some(now),
            paused_at: None,
            paused_ms: 0,
            ..self
        })
    }

    pub fn pause(self, now: i64) -> Result<Clock, ClockError> {
        self.running_still()?;
        match self.read(now) {
            Reading {
                phase: Phase::NotStarted,
                ..
            } => Err(ClockError::NotStarted),
            Reading {
                phase: Phase::Over, ..
            } => Err(ClockError::Over),
            Reading { paused: true, .. } => Err(ClockError::AlreadyPaused),
            _ => Ok(Clock {
                paused_at: Some(now),
                ..self
            }),
        }
    }

    pub fn resume(self, now: i64) -> Result<Clock, ClockError> {
        self.running_still()?;
        let (Some(_), Some(paused_at)) = (self.started_at, self.paused_at) else {
            return Err(if self.started_at.is_none() {
                ClockError::NotStarted
            } else {
                ClockError::NotPaused
            });
        };
        Ok(Clock {
            paused_at: None,
            paused_ms: self.paused_ms + (now - paused_at).max(0),
            ..self
        })
    }

    /// Adds time to the limit. Allowed at any time, even after the end, because a judge may
    /// give back time lost to a dispute once the clock has run out.
    pub fn extend(self, by_ms: i64) -> Result<Clock, ClockError> {
        self.running_still()?;
        if !(60_000..=MAX_EXTENSION_MS).contains(&by_ms) {
            return Err(ClockError::BadExtension);
        }
        Ok(Clock {
            extension_ms: self.extension_ms + by_ms,
            ..self
        })
    }
}

/// "5:59:58": hours, minutes and seconds, rounding up so a clock shows 0:00:00 only when the
/// time is really gone.
pub fn format_hms(ms: i64) -> String {
    let secs = (ms.max(0) + 999) / 1000;
    format!("{}:{:02}:{:02}", secs / 3600, secs / 60 % 60, secs % 60)
}

#[cfg(test)]
mod tests {
    use super::*;

    const MIN: i64 = 60_000;
    const T0: i64 = 1_780_000_000_000;

    #[test]
    fn a_rehearsal_clock_runs_out_in_minutes() {
        let c = Clock {
            rehearsal_ms: Some(2 * MIN),
            ..Clock::new(6)
        }
        .start(T0)
        .unwrap();
        assert_eq!(c.limit_ms(), 2 * MIN);
        assert_eq!(c.read(T0 + MIN).phase, Phase::Running);
        assert_eq!(c.read(T0 + 3 * MIN).phase, Phase::FinishWindow);
        assert_eq!(c.read(T0 + 3 * MIN).remaining_ms, MIN);
        assert_eq!(c.read(T0 + 4 * MIN).phase, Phase::Over);
        // A long rehearsal still gives at most the real finish window.
        let long = Clock {
            rehearsal_ms: Some(50 * MIN),
            ..Clock::new(5)
        };
        assert_eq!(long.finish_window_ms(), FINISH_WINDOW_MS);
        // An extension adds to the rehearsal's limit as to a real one.
        assert_eq!(c.extend(5 * MIN).unwrap().limit_ms(), 7 * MIN);
    }

    #[test]
    fn the_limit_is_an_hour_per_seated_player() {
        assert_eq!(Clock::new(6).limit_ms(), 6 * 60 * MIN);
        assert_eq!(Clock::new(5).limit_ms(), 5 * 60 * MIN);
        let c = Clock::new(5).read(T0);
        assert_eq!(c.phase, Phase::NotStarted);
        assert_eq!(c.remaining_ms, 5 * 60 * MIN);
        assert_eq!(c.elapsed_ms, 0);
    }

    #[test]
    fn running_then_finish_window_then_over() {
        let c = Clock::new(5).start(T0).unwrap();
        let at = |m: i64| c.read(T0 + m * MIN);
        assert_eq!(at(0).phase, Phase::Running);
        assert_eq!(at(299).phase, Phase::Running);
        assert_eq!(at(299).remaining_ms, MIN);
        assert_eq!(at(300).phase, Phase::FinishWindow);
        assert_eq!(at(300).remaining_ms, 30 * MIN);
        assert_eq!(at(329).remaining_ms, MIN);
        assert_eq!(at(330).phase, Phase::Over);
        assert_eq!(at(330).remaining_ms, 0);
        assert_eq!(at(1000).phase, Phase::Over);
    }

    #[test]
    fn pauses_stop_the_clock_and_are_subtracted_afterwards() {
        let c = Clock::new(6).start(T0).unwrap();
        let paused = c.pause(T0 + 10 * MIN).unwrap();
        // Time passes during the pause, the reading does not move.
        assert_eq!(paused.read(T0 + 50 * MIN).elapsed_ms, 10 * MIN);
        assert!(paused.read(T0 + 50 * MIN).paused);
        let resumed = paused.resume(T0 + 50 * MIN).unwrap();
        assert_eq!(resumed.paused_ms, 40 * MIN);
        assert_eq!(resumed.read(T0 + 60 * MIN).elapsed_ms, 20 * MIN);
        assert!(!resumed.read(T0 + 60 * MIN).paused);
        // A second pause adds to the first.
        let again = resumed
            .pause(T0 + 70 * MIN)
            .unwrap()
            .resume(T0 + 75 * MIN)
            .unwrap();
        assert_eq!(again.paused_ms, 45 * MIN);
        assert_eq!(again.read(T0 + 100 * MIN).elapsed_ms, 55 * MIN);
    }

    #[test]
    fn a_pause_in_the_finish_window_holds_the_window() {
        let c = Clock::new(5).start(T0).unwrap();
        let paused = c.pause(T0 + 310 * MIN).unwrap();
        let r = paused.read(T0 + 400 * MIN);
        assert_eq!(r.phase, Phase::FinishWindow);
        assert_eq!(r.remaining_ms, 20 * MIN);
        assert!(r.paused);
    }

    #[test]
    fn extensions_move_the_limit_even_after_the_end() {
        let c = Clock::new(5).start(T0).unwrap();
        assert_eq!(c.read(T0 + 331 * MIN).phase, Phase::Over);
        assert_eq!(c.pause(T0 + 331 * MIN), Err(ClockError::Over));
        let longer = c.extend(15 * MIN).unwrap();
        assert_eq!(longer.limit_ms(), 315 * MIN);
        let r = longer.read(T0 + 331 * MIN);
        assert_eq!(r.phase, Phase::FinishWindow);
        assert_eq!(r.remaining_ms, 14 * MIN);
        assert_eq!(c.extend(0), Err(ClockError::BadExtension));
        assert_eq!(c.extend(121 * MIN), Err(ClockError::BadExtension));
        assert!(
            Clock::new(5).extend(5 * MIN).is_ok(),
            "before the start too"
        );
    }

    #[test]
    fn transitions_refuse_what_makes_no_sense() {
        let fresh = Clock::new(6);
        assert_eq!(fresh.pause(T0), Err(ClockError::NotStarted));
        assert_eq!(fresh.resume(T0), Err(ClockError::NotStarted));
        let running = fresh.start(T0).unwrap();
        assert_eq!(running.start(T0 + 1), Err(ClockError::AlreadyStarted));
        assert_eq!(running.resume(T0 + 1), Err(ClockError::NotPaused));
        let paused = running.pause(T0 + 1).unwrap();
        assert_eq!(paused.pause(T0 + 2), Err(ClockError::AlreadyPaused));
    }

    #[test]
    fn a_final_report_stops_the_clock_at_its_instant() {
        let running = Clock::new(5).start(T0).unwrap();
        let stopped = Clock {
            stopped_at: Some(T0 + 200 * MIN),
            ..running
        };
        // Hours later the reading is still the one at finality.
        let r = stopped.read(T0 + 900 * MIN);
        assert!(r.stopped);
        assert!(!r.paused);
        assert_eq!(r.elapsed_ms, 200 * MIN);
        assert_eq!(r.phase, Phase::Running);
        assert_eq!(r.remaining_ms, 100 * MIN);
        // A clock paused before the report became final keeps the time of the pause.
        let paused = Clock {
            stopped_at: Some(T0 + 200 * MIN),
            ..running.pause(T0 + 150 * MIN).unwrap()
        };
        assert_eq!(paused.read(T0 + 900 * MIN).elapsed_ms, 150 * MIN);
        assert!(!paused.read(T0 + 900 * MIN).paused);
        // A stopped clock takes no more commands.
        assert_eq!(stopped.pause(T0 + 901 * MIN), Err(ClockError::Stopped));
        assert_eq!(paused.resume(T0 + 901 * MIN), Err(ClockError::Stopped));
        assert_eq!(stopped.extend(5 * MIN), Err(ClockError::Stopped));
        let never_started = Clock {
            stopped_at: Some(T0),
            ..Clock::new(6)
        };
        assert_eq!(never_started.start(T0 + 1), Err(ClockError::Stopped));
        assert!(!running.read(T0 + MIN).stopped);
    }

    #[test]
    fn a_reading_before_the_start_instant_is_zero() {
        let c = Clock::new(6).start(T0).unwrap();
        assert_eq!(c.read(T0 - 500).elapsed_ms, 0);
        assert_eq!(c.read(T0 - 500).phase, Phase::Running);
    }

    #[test]
    fn times_read_as_hours_minutes_seconds() {
        assert_eq!(format_hms(6 * 60 * MIN), "6:00:00");
        assert_eq!(format_hms(6 * 60 * MIN - 1), "6:00:00");
        assert_eq!(format_hms(6 * 60 * MIN - 1000), "5:59:59");
        assert_eq!(format_hms(61_000), "0:01:01");
        assert_eq!(format_hms(1), "0:00:01");
        assert_eq!(format_hms(0), "0:00:00");
        assert_eq!(format_hms(-5), "0:00:00");
    }
}
