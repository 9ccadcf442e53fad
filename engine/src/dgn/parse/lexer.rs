//! The line cursor: bytes of one DGN line in, the notation's items out (factions, territories,
//! forces, spice, cards, leaders, sealed lists, payments), each with the error a judge reads when
//! the item is not there. Never panics: every index is checked and every number overflow-checked.

use dune::{Faction, Rule, Spice};

use super::{ParseError, R};
use crate::board::{Card, Leader, Sector, Territory};
use crate::dgn::ast::*;

pub(super) struct Line<'a> {
    pub(super) s: &'a str,
    pub(super) b: &'a [u8],
    pub(super) i: usize,
    pub(super) line: u32,
    /// Byte offsets are columns when the line is plain ASCII (the usual case).
    pub(super) ascii: bool,
}

pub(super) fn is_upper(c: u8) -> bool {
    c.is_ascii_uppercase()
}

impl<'a> Line<'a> {
    pub(super) fn new(s: &'a str, line: u32) -> Self {
        Line {
            s,
            b: s.as_bytes(),
            i: 0,
            line,
            ascii: s.is_ascii(),
        }
    }

    pub(super) fn pos_at(&self, i: usize) -> Pos {
        let col = if self.ascii {
            i
        } else {
            self.s.get(..i).map_or(i, |p| p.chars().count())
        } + 1;
        Pos {
            line: self.line,
            col: u32::try_from(col).unwrap_or(u32::MAX),
        }
    }

    pub(super) fn pos(&self) -> Pos {
        self.pos_at(self.i)
    }

    pub(super) fn peek(&self) -> Option<u8> {
        self.b.get(self.i).copied()
    }

    pub(super) fn peek_at(&self, k: usize) -> Option<u8> {
        self.b.get(self.i + k).copied()
    }

    pub(super) fn ws(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\r')) {
            self.i += 1;
        }
    }

    /// End of the line's content (a `%` starts a comment).
    pub(super) fn end(&mut self) -> bool {
        self.ws();
        matches!(self.peek(), None | Some(b'%'))
    }

    pub(super) fn clause_end(&mut self) -> bool {
        self.end() || self.peek() == Some(b';')
    }

    /// What is at the cursor, for error messages.
    pub(super) fn found(&self) -> String {
        let rest = self.s.get(self.i..).unwrap_or("");
        let tok: String = rest
            .chars()
            .take_while(|c| !c.is_whitespace())
            .take(24)
            .collect();
        if tok.is_empty() || tok.starts_with('%') {
            "end of line".to_string()
        } else {
            format!("`{tok}`")
        }
    }

    pub(super) fn err(&self, expected: &str) -> ParseError {
        ParseError {
            pos: self.pos(),
            expected: expected.to_string(),
            found: self.found(),
        }
    }

    pub(super) fn err_at(&self, i: usize, expected: &str, found: String) -> ParseError {
        ParseError {
            pos: self.pos_at(i),
            expected: expected.to_string(),
            found,
        }
    }

    pub(super) fn eat(&mut self, c: u8) -> bool {
        if self.peek() == Some(c) {
            self.i += 1;
            true
        } else {
            false
        }
    }

    pub(super) fn eat_str(&mut self, lit: &str) -> bool {
        if self.b.get(self.i..self.i + lit.len()) == Some(lit.as_bytes()) {
            self.i += lit.len();
            true
        } else {
            false
        }
    }

    pub(super) fn expect(&mut self, c: u8, what: &str) -> R<()> {
        if self.eat(c) {
            Ok(())
        } else {
            Err(self.err(what))
        }
    }

    pub(super) fn expect_arrow(&mut self) -> R<()> {
        self.ws();
        if self.eat_str("->") {
            Ok(())
        } else {
            Err(self.err("`->`"))
        }
    }

    /// `[A-Za-z][A-Za-z0-9_]*`, not consumed if absent.
    pub(super) fn ident(&mut self) -> Option<&'a str> {
        let start = self.i;
        if !self.peek().is_some_and(|c| c.is_ascii_alphabetic()) {
            return None;
        }
        while self
            .peek()
            .is_some_and(|c| c.is_ascii_alphanumeric() || c == b'_')
        {
            self.i += 1;
        }
        self.s.get(start..self.i)
    }

    /// `[A-Z]+`.
    pub(super) fn upper(&mut self) -> Option<&'a str> {
        let start = self.i;
        while self.peek().is_some_and(is_upper) {
            self.i += 1;
        }
        if self.i == start {
            None
        } else {
            self.s.get(start..self.i)
        }
    }

    /// Consumes `kw` if the next identifier is exactly that word.
    pub(super) fn keyword(&mut self, kw: &str) -> bool {
        let save = self.i;
        if self.ident() == Some(kw) {
            true
        } else {
            self.i = save;
            false
        }
    }

    pub(super) fn peek_keyword(&mut self, kw: &str) -> bool {
        let save = self.i;
        let r = self.ident() == Some(kw);
        self.i = save;
        r
    }

    pub(super) fn uint(&mut self, what: &str) -> R<u32> {
        let start = self.i;
        let mut v: u32 = 0;
        while let Some(c) = self.peek().filter(u8::is_ascii_digit) {
            v = v
                .checked_mul(10)
                .and_then(|v| v.checked_add(u32::from(c - b'0')))
                .ok_or_else(|| self.err_at(start, what, "a number too large".into()))?;
            self.i += 1;
        }
        if self.i == start {
            Err(self.err(what))
        } else {
            Ok(v)
        }
    }

    pub(super) fn small(&mut self, what: &str) -> R<u8> {
        let start = self.i;
        let v = self.uint(what)?;
        u8::try_from(v).map_err(|_| self.err_at(start, what, format!("{v}")))
    }

    /// A win type of either points list (4.01.10): `SSH BGP ASH SFS AFS EG SDV ADV`, and the
    /// full format's `SEG AEG` (whether the game's ruleset has it is the replay's question).
    pub(super) fn win_type(&mut self) -> R<dune::WinType> {
        const WHAT: &str = "the win type (SSH, ASH, BGP, SFS, AFS, EG, SEG, AEG, SDV, ADV)";
        self.ws();
        let start = self.i;
        let word = self.ident().unwrap_or("");
        match dune::WinType::from_code(word).filter(|w| {
            tournament::Ruleset::ALL.iter().any(|r| r.has_win_type(*w))
                && *w != dune::WinType::Adjudicated
        }) {
            Some(w) => Ok(w),
            None => Err(self.err_at(start, WHAT, format!("`{word}`"))),
        }
    }

    /// An amount of spice: a plain number (`$` is read by the caller where DGN writes it).
    pub(super) fn spice(&mut self, what: &str) -> R<Spice> {
        self.uint(what).map(Spice::new)
    }

    pub(super) fn faction(&mut self) -> R<Faction> {
        let start = self.i;
        if let (Some(a), Some(b)) = (self.peek(), self.peek_at(1))
            && is_upper(a)
            && is_upper(b)
            && !self.peek_at(2).is_some_and(is_upper)
            && let Some(f) = self
                .s
                .get(start..start + 2)
                .and_then(crate::dgn::faction_code)
        {
            self.i += 2;
            return Ok(f);
        }
        Err(self.err("a faction (AT, BG, EM, FR, HK, SG)"))
    }

    pub(super) fn try_faction(&mut self) -> Option<Faction> {
        let save = self.i;
        match self.faction() {
            Ok(f) => Some(f),
            Err(_) => {
                self.i = save;
                None
            }
        }
    }

    pub(super) fn sector(&mut self) -> R<Sector> {
        let start = self.i;
        let n = self.uint("a sector number 1-18")?;
        u8::try_from(n)
            .ok()
            .and_then(Sector::from_notation)
            .ok_or_else(|| self.err_at(start, "a sector number 1-18", format!("`{n}`")))
    }

    pub(super) fn territory(&mut self) -> R<Territory> {
        let start = self.i;
        match self.upper() {
            Some(code) => Territory::from_code(code).ok_or_else(|| {
                self.err_at(
                    start,
                    "a territory code (see docs/notation.md)",
                    format!("`{code}`"),
                )
            }),
            None => Err(self.err("a territory code")),
        }
    }

    /// The optional `/sector` after a territory code.
    pub(super) fn place_after(&mut self, territory: Territory, start: usize) -> R<Place> {
        let pos = self.pos_at(start);
        let mut sector = None;
        if self.eat(b'/') {
            let at = self.i;
            if territory == Territory::ShieldWall
                && self.peek().is_some_and(|c| c == b'L' || c == b'R')
            {
                // 4.02.01: the left side touches the Imperial Basin (sector 9 in DGN), the right
                // side is sector 8.
                let left = self.peek() == Some(b'L');
                self.i += 1;
                sector = Sector::new(if left { 8 } else { 7 });
            } else {
                let s = self.sector()?;
                if !territory.has_sector(s) {
                    let list: Vec<String> = territory.sectors().map(|s| s.to_string()).collect();
                    let what = if list.is_empty() {
                        format!("no sector: {} lies in no sector", territory.name())
                    } else {
                        format!("a sector of {} ({})", territory.name(), list.join(", "))
                    };
                    return Err(self.err_at(at, &what, format!("`{s}`")));
                }
                sector = Some(s);
            }
        }
        Ok(Place {
            territory,
            sector,
            pos,
        })
    }

    pub(super) fn place(&mut self) -> R<Place> {
        let start = self.i;
        let t = self.territory()?;
        self.place_after(t, start)
    }

    pub(super) fn stronghold(&mut self) -> R<dune::Stronghold> {
        let start = self.i;
        let t = self.territory()?;
        if let Some(s) = t.stronghold() {
            Ok(s)
        } else {
            Err(self.err_at(
                start,
                "a stronghold (ARK, CAR, TUK, TAB, HAB, SW)",
                format!("`{}`", t.code()),
            ))
        }
    }

    pub(super) fn forces(&mut self) -> R<ForceCount> {
        let start = self.i;
        let total = self.small("a number of forces")?;
        let mut starred = 0;
        if self.peek() == Some(b'(') && self.peek_at(1).is_some_and(|c| c.is_ascii_digit()) {
            self.i += 1;
            starred = self.small("a number of starred forces")?;
            self.expect(b'*', "`*` (starred forces are written `5(2*)`)")?;
            self.expect(b')', "`)`")?;
            if starred > total {
                return Err(self.err_at(
                    start,
                    "at most as many starred forces as forces",
                    format!("{starred} starred of {total}"),
                ));
            }
        }
        let side = match self.peek() {
            Some(b'a') if !self.peek_at(1).is_some_and(|c| c.is_ascii_alphanumeric()) => {
                self.i += 1;
                Side::Advisor
            }
            Some(b'f') if !self.peek_at(1).is_some_and(|c| c.is_ascii_alphanumeric()) => {
                self.i += 1;
                Side::Fighter
            }
            // The Free Traders' Smugglers (000 2.13.05): their tokens' second side.
            Some(b's') if !self.peek_at(1).is_some_and(|c| c.is_ascii_alphanumeric()) => {
                self.i += 1;
                Side::Advisor
            }
            _ => Side::Unspecified,
        };
        if self.peek().is_some_and(|c| c.is_ascii_alphanumeric()) {
            return Err(self.err("a force count such as `5`, `5(2*)`, `1a`, `3f` or `2s`"));
        }
        Ok(ForceCount {
            total,
            starred,
            side,
        })
    }

    pub(super) fn leader(&mut self) -> R<Leader> {
        let start = self.i;
        let Some(word) = self.ident() else {
            return Err(self.err("a leader name (e.g. Jessica, EM:Bashar)"));
        };
        if let Some(f) = crate::dgn::faction_code(word)
            && self.eat(b':')
        {
            let at = self.i;
            let l = self.leader()?;
            if l.faction() != f {
                return Err(self.err_at(
                    at,
                    &format!("a leader of {}", f.code()),
                    format!("`{}` ({})", l.code(), l.faction().code()),
                ));
            }
            return Ok(l);
        }
        Leader::from_code(word).ok_or_else(|| {
            self.err_at(
                start,
                "a leader name (see docs/notation.md)",
                format!("`{word}`"),
            )
        })
    }

    pub(super) fn card(&mut self) -> R<Card> {
        let start = self.i;
        let Some(word) = self.ident() else {
            return Err(self.err("a treachery card name (e.g. Crysknife)"));
        };
        Card::from_code(word).ok_or_else(|| {
            self.err_at(
                start,
                "a treachery card name (see docs/notation.md)",
                format!("`{word}`"),
            )
        })
    }

    pub(super) fn card_or_none(&mut self) -> R<Option<Card>> {
        if self.eat(b'-') {
            Ok(None)
        } else {
            self.card().map(Some)
        }
    }

    pub(super) fn string(&mut self) -> R<String> {
        self.ws();
        self.expect(b'"', "a quoted text")?;
        let start = self.i;
        while let Some(c) = self.peek() {
            if c == b'"' {
                let text = self.s.get(start..self.i).unwrap_or("").to_string();
                self.i += 1;
                return Ok(text);
            }
            self.i += 1;
        }
        Err(self.err("a closing `\"`"))
    }

    /// `{#}`, `{item,item}` or nothing; `?` items are `None`.
    pub(super) fn sealed_list<T>(
        &mut self,
        mut item: impl FnMut(&mut Self) -> R<T>,
    ) -> R<Sealed<Vec<Option<T>>>> {
        if !self.eat(b'{') {
            return Ok(Sealed::Absent);
        }
        self.ws();
        if self.eat(b'#') {
            self.ws();
            self.expect(b'}', "`}`")?;
            return Ok(Sealed::Hidden);
        }
        let mut items = Vec::new();
        loop {
            self.ws();
            if self.eat(b'?') {
                items.push(None);
            } else {
                items.push(Some(item(self)?));
            }
            self.ws();
            if self.eat(b'}') {
                return Ok(Sealed::Open(items));
            }
            self.expect(b',', "`,` or `}`")?;
        }
    }

    pub(super) fn sealed_one<T>(
        &mut self,
        item: impl FnMut(&mut Self) -> R<T>,
    ) -> R<Sealed<Option<T>>> {
        let start = self.i;
        Ok(match self.sealed_list(item)? {
            Sealed::Absent => Sealed::Absent,
            Sealed::Hidden => Sealed::Hidden,
            Sealed::Open(mut v) if v.len() == 1 => Sealed::Open(v.pop().flatten()),
            Sealed::Open(_) => {
                return Err(self.err_at(start, "a single sealed value", "a list".into()));
            }
        })
    }

    pub(super) fn payment(&mut self) -> R<Payment> {
        let pos = self.pos();
        self.expect(b'$', "`$` and an amount")?;
        let amount = self.spice("an amount of spice")?;
        let mut payee = None;
        if self.eat(b'>') {
            payee = Some(if self.keyword("bank") {
                Payee::Bank
            } else {
                Payee::Faction(self.faction()?)
            });
        }
        let save = self.i;
        self.ws();
        let payer = if self.keyword("by") {
            self.ws();
            Some(self.faction()?)
        } else {
            self.i = save;
            None
        };
        Ok(Payment {
            amount,
            payee,
            payer,
            pos,
        })
    }

    pub(super) fn optional_payment(&mut self) -> R<Option<Payment>> {
        self.ws();
        if self.peek() == Some(b'$') {
            self.payment().map(Some)
        } else {
            Ok(None)
        }
    }

    pub(super) fn spice_card(&mut self) -> R<SpiceCard> {
        let start = self.i;
        let Some(code) = self.upper() else {
            return Err(self.err("a spice card (a territory code or SH)"));
        };
        if code == "SH" {
            self.eat(b'~');
            let placed = if self.eat(b'>') {
                Some(self.place()?)
            } else {
                None
            };
            return Ok(SpiceCard::Worm(placed));
        }
        let t = Territory::from_code(code).ok_or_else(|| {
            self.err_at(
                start,
                "a spice card (a territory code or SH)",
                format!("`{code}`"),
            )
        })?;
        if t.spice_blow().is_none() {
            return Err(self.err_at(
                start,
                "a territory with a spice card",
                format!("`{code}` ({} has none)", t.name()),
            ));
        }
        let save = self.i;
        self.ws();
        let amount = if self.peek().is_some_and(|c| c.is_ascii_digit()) {
            Some(self.small("a spice amount")?)
        } else {
            self.i = save;
            None
        };
        Ok(SpiceCard::Territory(t, amount))
    }

    /// A decimal such as `8` or `8.5`, kept as written.
    pub(super) fn decimal(&mut self) -> R<String> {
        let start = self.i;
        self.uint("a number")?;
        if self.eat(b'.') {
            self.uint("decimals")?;
        }
        Ok(self.s.get(start..self.i).unwrap_or("").to_string())
    }

    /// `2.04.06 ["note"]`: the rule number of a faction ability, for Karama cancel/prevent.
    pub(super) fn ability_ref(&mut self) -> R<AbilityRef> {
        self.ws();
        let pos = self.pos();
        let start = self.i;
        let what = "the rule number of the ability (e.g. 2.04.06, see docs/notation.md)";
        self.uint(what)?;
        let mut parts = 1;
        while self.peek() == Some(b'.') && self.peek_at(1).is_some_and(|c| c.is_ascii_digit()) {
            self.i += 1;
            self.uint(what)?;
            parts += 1;
        }
        let text = self.s.get(start..self.i).unwrap_or("");
        let rule = match Rule::parse(text) {
            Ok(rule) if parts >= 3 => rule,
            _ => return Err(self.err_at(start, what, format!("`{text}`"))),
        };
        let save = self.i;
        self.ws();
        let note = if self.peek() == Some(b'"') {
            Some(self.string()?)
        } else {
            self.i = save;
            None
        };
        Ok(AbilityRef { rule, note, pos })
    }

    /// A word or a quoted text, for free-form answers and ability names.
    pub(super) fn word_or_string(&mut self, what: &str) -> R<String> {
        self.ws();
        if self.peek() == Some(b'"') {
            return self.string();
        }
        let start = self.i;
        while self
            .peek()
            .is_some_and(|c| !c.is_ascii_whitespace() && c != b';' && c != b'%' && c != b'(')
        {
            self.i += 1;
        }
        if self.i == start {
            Err(self.err(what))
        } else {
            Ok(self.s.get(start..self.i).unwrap_or("").to_string())
        }
    }
}

pub(super) fn end_of_line(l: &mut Line) -> R<()> {
    if l.end() {
        Ok(())
    } else {
        Err(l.err("the end of the line"))
    }
}

pub(super) fn clock_marks(l: &mut Line) -> R<(Option<String>, bool)> {
    let mut time = None;
    let mut limit = false;
    loop {
        l.ws();
        if !l.eat(b'@') {
            return Ok((time, limit));
        }
        if l.keyword("LIMIT") {
            limit = true;
            continue;
        }
        let start = l.i;
        let h = l.uint("a clock time hh:mm or LIMIT")?;
        l.expect(b':', "`:` in hh:mm")?;
        let m = l.uint("minutes")?;
        if h > 23 || m > 59 {
            return Err(l.err_at(start, "a clock time hh:mm", format!("{h}:{m}")));
        }
        time = Some(format!("{h:02}:{m:02}"));
    }
}

pub(super) fn faction_values<'a, T>(
    l: &mut Line<'a>,
    mut value: impl FnMut(&mut Line<'a>) -> R<T>,
) -> R<Vec<(Faction, T)>> {
    let mut v = Vec::new();
    loop {
        l.ws();
        if l.peek() == Some(b')') || l.peek().is_none() {
            return Ok(v);
        }
        let f = l.faction()?;
        v.push((f, value(l)?));
    }
}
