//! The DGN reader: text to [`Game`]. Line-oriented, hand-written, never panics.
//!
//! Each line is read with a small cursor. An error stops that line only; the reader goes on with
//! the next one, so one pass reports every syntax error (up to [`MAX_ERRORS`]).

use std::fmt;

use dune::{Rule, Spice};

use super::ast::*;
use crate::board::{Card, Leader, Sector, Territory};
use dune::Faction;

/// The reader stops collecting errors after this many.
pub const MAX_ERRORS: usize = 100;

/// A syntax error: where, what the reader expected, and what it found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    pub pos: Pos,
    pub expected: String,
    pub found: String,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "line {}, column {}: expected {}, found {}",
            self.pos.line, self.pos.col, self.expected, self.found
        )
    }
}

/// Every syntax error of a file, in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseErrors(pub Vec<ParseError>);

impl fmt::Display for ParseErrors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, e) in self.0.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            write!(f, "{e}")?;
        }
        Ok(())
    }
}

impl std::error::Error for ParseErrors {}

type R<T> = Result<T, ParseError>;

/// Reads a DGN file.
pub fn parse(src: &str) -> Result<Game, ParseErrors> {
    let mut p = Parser {
        game: Game::default(),
        errors: Vec::new(),
        ctx: None,
        last_line: 0,
    };
    for (idx, raw) in src.split('\n').enumerate() {
        if p.errors.len() >= MAX_ERRORS {
            break;
        }
        let n = u32::try_from(idx + 1).unwrap_or(u32::MAX);
        p.last_line = n;
        p.line(raw.strip_suffix('\r').unwrap_or(raw), n);
    }
    if p.errors.is_empty() && p.game.events.is_empty() {
        p.errors.push(ParseError {
            pos: Pos {
                line: p.last_line.max(1),
                col: 1,
            },
            expected: "a DGN game (header tags, then `T0` and the setup lines)".into(),
            found: "no statements".into(),
        });
    }
    if p.errors.is_empty() {
        Ok(p.game)
    } else {
        Err(ParseErrors(p.errors))
    }
}

struct Parser {
    game: Game,
    errors: Vec<ParseError>,
    /// Section of the last unindented statement line, for indented continuation lines.
    ctx: Option<Section>,
    last_line: u32,
}

/// Per-line state carried from one `;` clause to the next.
#[derive(Clone, Copy)]
struct Clause {
    faction: Option<Faction>,
    pile: Pile,
}

struct Line<'a> {
    s: &'a str,
    b: &'a [u8],
    i: usize,
    line: u32,
    /// Byte offsets are columns when the line is plain ASCII (the usual case).
    ascii: bool,
}

fn is_upper(c: u8) -> bool {
    c.is_ascii_uppercase()
}

impl<'a> Line<'a> {
    fn new(s: &'a str, line: u32) -> Self {
        Line {
            s,
            b: s.as_bytes(),
            i: 0,
            line,
            ascii: s.is_ascii(),
        }
    }

    fn pos_at(&self, i: usize) -> Pos {
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

    fn pos(&self) -> Pos {
        self.pos_at(self.i)
    }

    fn peek(&self) -> Option<u8> {
        self.b.get(self.i).copied()
    }

    fn peek_at(&self, k: usize) -> Option<u8> {
        self.b.get(self.i + k).copied()
    }

    fn ws(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\r')) {
            self.i += 1;
        }
    }

    /// End of the line's content (a `%` starts a comment).
    fn end(&mut self) -> bool {
        self.ws();
        matches!(self.peek(), None | Some(b'%'))
    }

    fn clause_end(&mut self) -> bool {
        self.end() || self.peek() == Some(b';')
    }

    /// What is at the cursor, for error messages.
    fn found(&self) -> String {
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

    fn err(&self, expected: &str) -> ParseError {
        ParseError {
            pos: self.pos(),
            expected: expected.to_string(),
            found: self.found(),
        }
    }

    fn err_at(&self, i: usize, expected: &str, found: String) -> ParseError {
        ParseError {
            pos: self.pos_at(i),
            expected: expected.to_string(),
            found,
        }
    }

    fn eat(&mut self, c: u8) -> bool {
        if self.peek() == Some(c) {
            self.i += 1;
            true
        } else {
            false
        }
    }

    fn eat_str(&mut self, lit: &str) -> bool {
        if self.b.get(self.i..self.i + lit.len()) == Some(lit.as_bytes()) {
            self.i += lit.len();
            true
        } else {
            false
        }
    }

    fn expect(&mut self, c: u8, what: &str) -> R<()> {
        if self.eat(c) {
            Ok(())
        } else {
            Err(self.err(what))
        }
    }

    fn expect_arrow(&mut self) -> R<()> {
        self.ws();
        if self.eat_str("->") {
            Ok(())
        } else {
            Err(self.err("`->`"))
        }
    }

    /// `[A-Za-z][A-Za-z0-9_]*`, not consumed if absent.
    fn ident(&mut self) -> Option<&'a str> {
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
    fn upper(&mut self) -> Option<&'a str> {
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
    fn keyword(&mut self, kw: &str) -> bool {
        let save = self.i;
        if self.ident() == Some(kw) {
            true
        } else {
            self.i = save;
            false
        }
    }

    fn peek_keyword(&mut self, kw: &str) -> bool {
        let save = self.i;
        let r = self.ident() == Some(kw);
        self.i = save;
        r
    }

    fn uint(&mut self, what: &str) -> R<u32> {
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

    fn small(&mut self, what: &str) -> R<u8> {
        let start = self.i;
        let v = self.uint(what)?;
        u8::try_from(v).map_err(|_| self.err_at(start, what, format!("{v}")))
    }

    /// A win type of the GenCon points list (4.01.10): `SSH BGP ASH SFS AFS EG SDV ADV`.
    fn win_type(&mut self) -> R<dune::WinType> {
        const WHAT: &str = "the win type (SSH, ASH, BGP, SFS, AFS, EG, SDV, ADV)";
        self.ws();
        let start = self.i;
        let word = self.ident().unwrap_or("");
        match dune::WinType::from_code(word).filter(|w| {
            tournament::Ruleset::Gc2133.has_win_type(*w) && *w != dune::WinType::Adjudicated
        }) {
            Some(w) => Ok(w),
            None => Err(self.err_at(start, WHAT, format!("`{word}`"))),
        }
    }

    /// An amount of spice: a plain number (`$` is read by the caller where DGN writes it).
    fn spice(&mut self, what: &str) -> R<Spice> {
        self.uint(what).map(Spice::new)
    }

    fn faction(&mut self) -> R<Faction> {
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

    fn try_faction(&mut self) -> Option<Faction> {
        let save = self.i;
        match self.faction() {
            Ok(f) => Some(f),
            Err(_) => {
                self.i = save;
                None
            }
        }
    }

    fn sector(&mut self) -> R<Sector> {
        let start = self.i;
        let n = self.uint("a sector number 1-18")?;
        u8::try_from(n)
            .ok()
            .and_then(Sector::from_notation)
            .ok_or_else(|| self.err_at(start, "a sector number 1-18", format!("`{n}`")))
    }

    fn territory(&mut self) -> R<Territory> {
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
    fn place_after(&mut self, territory: Territory, start: usize) -> R<Place> {
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

    fn place(&mut self) -> R<Place> {
        let start = self.i;
        let t = self.territory()?;
        self.place_after(t, start)
    }

    fn stronghold(&mut self) -> R<dune::Stronghold> {
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

    fn forces(&mut self) -> R<ForceCount> {
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
            _ => Side::Unspecified,
        };
        if self.peek().is_some_and(|c| c.is_ascii_alphanumeric()) {
            return Err(self.err("a force count such as `5`, `5(2*)`, `1a` or `3f`"));
        }
        Ok(ForceCount {
            total,
            starred,
            side,
        })
    }

    fn leader(&mut self) -> R<Leader> {
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

    fn card(&mut self) -> R<Card> {
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

    fn card_or_none(&mut self) -> R<Option<Card>> {
        if self.eat(b'-') {
            Ok(None)
        } else {
            self.card().map(Some)
        }
    }

    fn string(&mut self) -> R<String> {
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
    fn sealed_list<T>(
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

    fn sealed_one<T>(&mut self, item: impl FnMut(&mut Self) -> R<T>) -> R<Sealed<Option<T>>> {
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

    fn payment(&mut self) -> R<Payment> {
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

    fn optional_payment(&mut self) -> R<Option<Payment>> {
        self.ws();
        if self.peek() == Some(b'$') {
            self.payment().map(Some)
        } else {
            Ok(None)
        }
    }

    fn spice_card(&mut self) -> R<SpiceCard> {
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
    fn decimal(&mut self) -> R<String> {
        let start = self.i;
        self.uint("a number")?;
        if self.eat(b'.') {
            self.uint("decimals")?;
        }
        Ok(self.s.get(start..self.i).unwrap_or("").to_string())
    }

    /// `2.04.06 ["note"]`: the rule number of a faction ability, for Karama cancel/prevent.
    fn ability_ref(&mut self) -> R<AbilityRef> {
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
    fn word_or_string(&mut self, what: &str) -> R<String> {
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

impl Parser {
    fn push(&mut self, pos: Pos, section: Section, stmt: Stmt, asserts: Vec<Assertion>) {
        self.game.events.push(Event {
            pos,
            section,
            stmt,
            asserts,
        });
    }

    fn line(&mut self, s: &str, n: u32) {
        let mut l = Line::new(s, n);
        let indented = matches!(l.peek(), Some(b' ' | b'\t'));
        if l.end() {
            return;
        }
        let r = if indented {
            self.continuation(&mut l)
        } else {
            self.top(&mut l)
        };
        if let Err(e) = r {
            self.errors.push(e);
        }
    }

    fn top(&mut self, l: &mut Line) -> R<()> {
        match l.peek() {
            Some(b'[') => return self.tags(l),
            Some(b'@') => {
                let pos = l.pos();
                let (time, limit) = clock_marks(l)?;
                self.push(pos, Section::Turn, Stmt::Clock { time, limit }, Vec::new());
                return end_of_line(l);
            }
            Some(b'$') => {
                self.ctx = Some(Section::Any);
                return self.money(l);
            }
            Some(b'(') => {
                let pos = l.pos();
                let asserts = assertions(l)?;
                self.push(pos, Section::Any, Stmt::Check, asserts);
                return end_of_line(l);
            }
            _ => {}
        }
        let start = l.i;
        let pos = l.pos();
        let Some(kw) = l.ident() else {
            return Err(l.err(
                "a phase letter (S B N C A R M X H P), a keyword (T1, TR, PLACE, …) or a tag",
            ));
        };
        let section =
            match kw {
                "S" => Section::Storm,
                "B" => Section::SpiceBlow,
                "N" => Section::Nexus,
                "C" => Section::Charity,
                "A" => Section::Bidding,
                "R" => Section::Revival,
                "M" => Section::Movement,
                "X" => Section::Battle,
                "H" => Section::Collection,
                "P" => Section::Mentat,
                "TR" | "PRED" | "TC" | "PLACE" | "STORM0" => {
                    self.ctx = Some(Section::Setup);
                    return self.setup(l, kw, pos);
                }
                "K" | "TT" | "GHOLA" | "HAJR" | "DEAL" | "RULING" | "END" => {
                    self.ctx = Some(Section::Any);
                    return self.any(l, kw, pos);
                }
                t if t.len() > 1
                    && t.starts_with('T')
                    && t[1..].bytes().all(|c| c.is_ascii_digit()) =>
                {
                    let number = t[1..]
                        .parse::<u32>()
                        .map_err(|_| l.err_at(start, "a turn number", format!("`{t}`")))?;
                    let (clock, limit) = clock_marks(l)?;
                    self.ctx = None;
                    self.push(
                        pos,
                        Section::Turn,
                        Stmt::Turn {
                            number,
                            clock,
                            limit,
                        },
                        Vec::new(),
                    );
                    return end_of_line(l);
                }
                other => return Err(l.err_at(
                    start,
                    "a phase letter (S B N C A R M X H P), a keyword (T1, TR, PLACE, …) or a tag",
                    format!("`{other}`"),
                )),
            };
        self.ctx = Some(section);
        self.clauses(l, section)
    }

    fn continuation(&mut self, l: &mut Line) -> R<()> {
        l.ws();
        if l.peek() == Some(b'(') {
            let pos = l.pos();
            let asserts = assertions(l)?;
            self.push(pos, self.ctx.unwrap_or(Section::Any), Stmt::Check, asserts);
            return end_of_line(l);
        }
        match self.ctx {
            Some(Section::Battle) => self.battle_detail(l),
            Some(Section::Setup) | Some(Section::Turn) | Some(Section::Any) | None => {
                Err(l.err("a statement at the start of the line (only battle details and assertions are indented)"))
            }
            Some(section) => self.clauses(l, section),
        }
    }

    fn tags(&mut self, l: &mut Line) -> R<()> {
        loop {
            l.ws();
            if l.end() {
                return Ok(());
            }
            let pos = l.pos();
            l.expect(b'[', "`[` starting a tag")?;
            l.ws();
            let Some(name) = l.ident() else {
                return Err(l.err("a tag name"));
            };
            let name = name.to_string();
            let value = l.string()?;
            l.ws();
            l.expect(b']', "`]` closing the tag")?;
            self.game.tags.push(Tag { name, value, pos });
        }
    }

    fn clauses(&mut self, l: &mut Line, section: Section) -> R<()> {
        let mut c = Clause {
            faction: None,
            pile: Pile::A,
        };
        loop {
            l.ws();
            let pos = l.pos();
            let stmt = match section {
                Section::Storm => storm(l)?,
                Section::SpiceBlow => blow(l, &mut c)?,
                Section::Nexus => nexus(l)?,
                Section::Charity => charity(l)?,
                Section::Bidding => bidding(l)?,
                Section::Revival => revival(l)?,
                Section::Movement => movement(l, &mut c)?,
                Section::Battle => battle(l)?,
                Section::Collection => collection(l)?,
                Section::Mentat => mentat(l)?,
                _ => return Err(l.err("a statement")),
            };
            let asserts = assertions(l)?;
            self.push(pos, section, stmt, asserts);
            if section == Section::Storm {
                l.ws();
                let p = l.pos();
                if l.keyword("order") {
                    let order = Some(order_list(l)?);
                    let asserts = assertions(l)?;
                    self.push(
                        p,
                        section,
                        Stmt::StormAt {
                            sector: None,
                            order,
                        },
                        asserts,
                    );
                }
            }
            if l.end() {
                return Ok(());
            }
            l.expect(b';', "`;` or the end of the line")?;
        }
    }

    fn setup(&mut self, l: &mut Line, kw: &str, pos: Pos) -> R<()> {
        match kw {
            "TR" => loop {
                l.ws();
                if l.end() {
                    return Ok(());
                }
                let p = l.pos();
                let faction = l.faction()?;
                let leaders = l.sealed_list(Line::leader)?;
                if leaders == Sealed::Absent {
                    return Err(l.err("the kept traitors in braces, e.g. `HK{Stilgar,Duncan,Sook,Otheym}` or `{#}`"));
                }
                self.push(
                    p,
                    Section::Setup,
                    Stmt::Traitors { faction, leaders },
                    Vec::new(),
                );
            },
            "PRED" => {
                l.ws();
                let faction = l.faction()?;
                let prediction = l.sealed_one(|l| {
                    l.ws();
                    let f = l.faction()?;
                    l.ws();
                    let t = l.uint("a turn number")?;
                    l.ws();
                    Ok((f, t))
                })?;
                if prediction == Sealed::Absent {
                    return Err(l.err("the sealed prediction, e.g. `{HK 6}` or `{#}`"));
                }
                self.push(
                    pos,
                    Section::Setup,
                    Stmt::Prediction {
                        faction,
                        prediction,
                    },
                    Vec::new(),
                );
                end_of_line(l)
            }
            "TC" => loop {
                l.ws();
                if l.end() {
                    return Ok(());
                }
                let p = l.pos();
                let faction = l.faction()?;
                l.ws();
                let count = l.small("the number of starting cards")?;
                let cards = l.sealed_list(Line::card)?;
                self.push(
                    p,
                    Section::Setup,
                    Stmt::StartingCards {
                        faction,
                        count,
                        cards,
                    },
                    Vec::new(),
                );
            },
            "PLACE" => loop {
                l.ws();
                let faction = l.faction()?;
                loop {
                    l.ws();
                    let p = l.pos();
                    let place = l.place()?;
                    l.ws();
                    let forces = l.forces()?;
                    let asserts = assertions(l)?;
                    self.push(
                        p,
                        Section::Setup,
                        Stmt::Place {
                            faction,
                            place,
                            forces,
                        },
                        asserts,
                    );
                    l.ws();
                    if !l.eat(b',') {
                        break;
                    }
                }
                if l.end() {
                    return Ok(());
                }
                l.expect(b';', "`,`, `;` or the end of the line")?;
            },
            _ => {
                // STORM0
                let dials = two_dials(l)?;
                l.expect_arrow()?;
                l.ws();
                let to = Some(l.sector()?);
                let asserts = assertions(l)?;
                self.push(pos, Section::Setup, Stmt::FirstStorm { dials, to }, asserts);
                end_of_line(l)
            }
        }
    }

    fn money(&mut self, l: &mut Line) -> R<()> {
        let pos = l.pos();
        let gift = l.eat_str("$$");
        if !gift {
            l.expect(b'$', "`$`")?;
        }
        l.ws();
        let from = l.faction()?;
        l.expect(b'>', "`>` between payer and payee")?;
        let to = l.faction()?;
        l.ws();
        let amount = l.spice("an amount of spice")?;
        let stmt = if gift {
            Stmt::Gift { from, to, amount }
        } else {
            l.ws();
            let terms = if l.peek() == Some(b'"') {
                Some(l.string()?)
            } else {
                None
            };
            Stmt::Bribe {
                from,
                to,
                amount,
                terms,
            }
        };
        let asserts = assertions(l)?;
        self.push(pos, Section::Any, stmt, asserts);
        end_of_line(l)
    }

    fn any(&mut self, l: &mut Line, kw: &str, pos: Pos) -> R<()> {
        l.ws();
        let stmt = match kw {
            "K" => {
                let faction = l.faction()?;
                l.ws();
                let save = l.i;
                let card = match l.ident() {
                    Some(w) if w.starts_with(|c: char| c.is_ascii_uppercase()) => {
                        Some(Card::from_code(w).ok_or_else(|| {
                            l.err_at(save, "a treachery card name", format!("`{w}`"))
                        })?)
                    }
                    _ => {
                        l.i = save;
                        None
                    }
                };
                l.ws();
                let at = l.i;
                let usage = match l.ident() {
                    Some("cancel") => KaramaUse::Cancel(l.ability_ref()?),
                    Some("prevent") => KaramaUse::Prevent(l.ability_ref()?),
                    Some("worm") => {
                        l.ws();
                        KaramaUse::Worm(l.place()?)
                    }
                    Some("revive") => {
                        l.ws();
                        if l.eat_str("L:") {
                            KaramaUse::ReviveLeader(l.leader()?)
                        } else {
                            KaramaUse::ReviveForces(l.forces()?)
                        }
                    }
                    Some("hand") => {
                        l.ws();
                        let target = l.faction()?;
                        let returned = l.sealed_list(Line::card)?;
                        KaramaUse::TakeHand { target, returned }
                    }
                    Some("cancelship") => {
                        l.ws();
                        KaramaUse::CancelShipment(l.faction()?)
                    }
                    Some("plan") => {
                        l.ws();
                        KaramaUse::SeePlan(l.faction()?)
                    }
                    _ => {
                        return Err(l.err_at(
                            at,
                            "a Karama use: cancel, prevent, worm, revive, hand, cancelship or plan",
                            l.found(),
                        ));
                    }
                };
                Stmt::Karama {
                    faction,
                    card,
                    usage,
                }
            }
            "TT" => {
                let from = l.faction()?;
                l.expect(b'>', "`>` between asker and answerer")?;
                let to = l.faction()?;
                let question = l.string()?;
                l.ws();
                l.expect(b'=', "`=` and the answer")?;
                l.ws();
                let answer = if l.keyword("yes") {
                    true
                } else if l.keyword("no") {
                    false
                } else {
                    return Err(l.err("`yes` or `no`"));
                };
                Stmt::Truthtrance {
                    from,
                    to,
                    question,
                    answer,
                }
            }
            "GHOLA" => {
                let faction = l.faction()?;
                ghola(l, faction)?
            }
            "HAJR" => Stmt::Hajr {
                faction: l.faction()?,
            },
            "DEAL" => {
                let mut factions = vec![l.faction()?];
                while l.eat(b',') {
                    factions.push(l.faction()?);
                }
                let terms = l.string()?;
                Stmt::Deal { factions, terms }
            }
            "RULING" => Stmt::Ruling(l.string()?),
            _ => {
                // END
                let at = l.i;
                let word = l.ident().unwrap_or("");
                let turn = word
                    .strip_prefix('T')
                    .and_then(|n| n.parse::<u32>().ok())
                    .ok_or_else(|| {
                        l.err_at(at, "the last turn, e.g. `T10`", format!("`{word}`"))
                    })?;
                let reason = l.word_or_string("the reason (SH, BGP, FRS, GSV, EG, DEF, ADJ)")?;
                Stmt::End { turn, reason }
            }
        };
        let asserts = assertions(l)?;
        self.push(pos, Section::Any, stmt, asserts);
        end_of_line(l)
    }

    fn battle_detail(&mut self, l: &mut Line) -> R<()> {
        let pos = l.pos();
        if l.eat(b'=') {
            let stmt = battle_result(l)?;
            self.push(pos, Section::Battle, stmt, Vec::new());
            return end_of_line(l);
        }
        let faction = l.faction()?;
        l.ws();
        let at = l.i;
        let stmt = match l.ident() {
            Some("presc") => {
                l.ws();
                let element = l.word_or_string("the element asked (leader, W, D, dial)")?;
                l.ws();
                l.expect(b'=', "`=` and the answer")?;
                let answer = l.word_or_string("the answer")?;
                Stmt::Prescience { faction, element, answer }
            }
            Some("voice") => {
                l.ws();
                let target = l.faction()?;
                l.ws();
                let positive = if l.eat(b'+') {
                    true
                } else if l.eat(b'-') {
                    false
                } else {
                    return Err(l.err("`+` (must play) or `-` (must not play)"));
                };
                let command = l.word_or_string("the command (poison, proj, poisondef, projdef, worthless, CH or a card)")?;
                Stmt::Voice { faction, target, positive, command }
            }
            Some("plan") => plan(l, faction)?,
            Some("TRAITOR") => {
                l.ws();
                let leader = l.leader()?;
                let save = l.i;
                l.ws();
                let for_ally = if l.keyword("for") {
                    l.ws();
                    Some(l.faction()?)
                } else {
                    l.i = save;
                    None
                };
                Stmt::TraitorCall { faction, leader, for_ally }
            }
            Some("capture") => {
                l.ws();
                Stmt::Capture { faction, leader: l.leader()?, kill: false }
            }
            Some("kill") => {
                l.ws();
                Stmt::Capture { faction, leader: l.leader()?, kill: true }
            }
            _ => return Err(l.err_at(at, "a battle detail: presc, voice, plan, TRAITOR, capture, kill (or a line starting with `=`)", l.found())),
        };
        let asserts = assertions(l)?;
        self.push(pos, Section::Battle, stmt, asserts);
        end_of_line(l)
    }
}

fn end_of_line(l: &mut Line) -> R<()> {
    if l.end() {
        Ok(())
    } else {
        Err(l.err("the end of the line"))
    }
}

fn clock_marks(l: &mut Line) -> R<(Option<String>, bool)> {
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

fn two_dials(l: &mut Line) -> R<[(Faction, u32, Pos); 2]> {
    l.ws();
    let p1 = l.pos();
    let f1 = l.faction()?;
    l.ws();
    let d1 = l.uint("the number dialed")?;
    l.ws();
    let p2 = l.pos();
    let f2 = l.faction()?;
    l.ws();
    let d2 = l.uint("the number dialed")?;
    Ok([(f1, d1, p1), (f2, d2, p2)])
}

fn optional_arrow_sector(l: &mut Line) -> R<Option<Sector>> {
    let save = l.i;
    l.ws();
    if l.eat_str("->") {
        l.ws();
        Ok(Some(l.sector()?))
    } else {
        l.i = save;
        Ok(None)
    }
}

fn storm(l: &mut Line) -> R<Stmt> {
    if l.peek().is_some_and(|c| c.is_ascii_digit()) {
        let sector = Some(l.sector()?);
        l.ws();
        let order = if l.keyword("order") {
            Some(order_list(l)?)
        } else {
            None
        };
        return Ok(Stmt::StormAt { sector, order });
    }
    let save = l.i;
    let faction = l.faction()?;
    l.ws();
    let at = l.i;
    if l.peek().is_some_and(|c| c.is_ascii_digit()) {
        l.i = save;
        let dials = two_dials(l)?;
        let to = optional_arrow_sector(l)?;
        return Ok(Stmt::StormDial { dials, to });
    }
    match l.ident() {
        Some("card") => {
            l.ws();
            let value = l.uint("the storm card's number")?;
            let to = optional_arrow_sector(l)?;
            Ok(Stmt::StormCard { faction, value, to })
        }
        Some("draw") => {
            let value = l.sealed_one(|l| l.uint("the storm card's number"))?;
            Ok(Stmt::StormDraw { faction, value })
        }
        Some("WeatherControl") => {
            l.ws();
            Ok(Stmt::WeatherControl {
                faction,
                sectors: l.uint("the sectors the storm moves (0-10)")?,
            })
        }
        Some("FamilyAtomics") => Ok(Stmt::FamilyAtomics { faction }),
        _ => Err(l.err_at(
            at,
            "a storm dial, `card`, `draw`, `WeatherControl` or `FamilyAtomics`",
            l.found(),
        )),
    }
}

fn order_list(l: &mut Line) -> R<Vec<Faction>> {
    let mut v = Vec::new();
    loop {
        l.ws();
        if l.clause_end() || l.peek() == Some(b'(') {
            return Ok(v);
        }
        v.push(l.faction()?);
    }
}

fn blow(l: &mut Line, c: &mut Clause) -> R<Stmt> {
    if matches!(l.peek(), Some(b'A' | b'B')) && l.peek_at(1) == Some(b':') {
        c.pile = if l.peek() == Some(b'A') {
            Pile::A
        } else {
            Pile::B
        };
        l.i += 2;
        l.ws();
    }
    if let Some(faction) = l.try_faction() {
        l.ws();
        let at = l.i;
        return match l.ident() {
            Some("ride") => {
                l.ws();
                let from = l.place()?;
                l.expect(b'>', "`>` and the destination")?;
                let to = l.place()?;
                l.ws();
                let forces = l.forces()?;
                Ok(Stmt::Ride {
                    faction,
                    from,
                    to,
                    forces,
                })
            }
            Some("noprotect") => Ok(Stmt::NoProtect { faction }),
            _ => Err(l.err_at(at, "`ride` or `noprotect`", l.found())),
        };
    }
    let card = l.spice_card()?;
    Ok(Stmt::Blow { pile: c.pile, card })
}

fn nexus(l: &mut Line) -> R<Stmt> {
    if l.eat(b'-') {
        return Ok(Stmt::NexusPass);
    }
    let a = l.faction()?;
    if l.eat(b'+') {
        let b = l.faction()?;
        Ok(Stmt::Ally(a, b))
    } else if l.eat(b'-') {
        Ok(Stmt::Unally(a))
    } else {
        Err(l.err("`+` and a faction (alliance) or `-` (breaking it)"))
    }
}

fn charity(l: &mut Line) -> R<Stmt> {
    if l.eat(b'-') {
        return Ok(Stmt::CharityNone);
    }
    let faction = l.faction()?;
    l.ws();
    let amount = if l.eat(b'+') {
        Some(l.spice("the spice received")?)
    } else {
        None
    };
    Ok(Stmt::Charity { faction, amount })
}

fn bidding(l: &mut Line) -> R<Stmt> {
    if l.keyword("decl") {
        let mut v = Vec::new();
        loop {
            l.ws();
            if l.clause_end() {
                break;
            }
            let p = l.pos();
            let f = l.faction()?;
            let n = l.small("the number of cards in hand")?;
            v.push((f, n, p));
        }
        return Ok(Stmt::Declare(v));
    }
    if l.keyword("peek") {
        l.ws();
        return Ok(Stmt::Peek {
            faction: l.faction()?,
        });
    }
    if let Some(f) = l.try_faction() {
        l.ws();
        if l.keyword("peek") {
            return Ok(Stmt::Peek { faction: f });
        }
        return Err(l.err("`peek`"));
    }
    l.expect(b'#', "`decl`, `peek` or `#` and the card number")?;
    let number = l.uint("the card number")?;
    let mut trace = Vec::new();
    loop {
        l.ws();
        if l.eat(b'=') {
            break;
        }
        let pos = l.pos();
        let faction = l
            .faction()
            .map_err(|_| l.err("a bid such as `HK3`, a pass such as `HK-`, or `=`"))?;
        let amount = if l.eat(b'-') {
            None
        } else {
            Some(l.spice("a bid (a number) or `-` (pass)")?)
        };
        trace.push(Bid {
            faction,
            amount,
            pos,
        });
    }
    l.ws();
    if l.eat_str("bought-in") || l.eat(b'-') {
        l.ws();
        let returned = if l.peek().is_some_and(|c| c.is_ascii_digit()) {
            Some(l.small("the number of cards returned")?)
        } else {
            None
        };
        return Ok(Stmt::Auction {
            number,
            trace,
            result: AuctionResult::BoughtIn { returned },
        });
    }
    let faction = l.faction()?;
    l.ws();
    let price = l.spice("the price paid")?;
    let card = l.sealed_one(Line::card)?;
    let mut ally = None;
    let mut karama = false;
    let mut top = None;
    loop {
        let save = l.i;
        l.ws();
        if l.keyword("by") {
            l.ws();
            let f = l.faction()?;
            l.ws();
            l.expect(b'$', "`$` and the ally's share")?;
            ally = Some((f, l.spice("the ally's share")?));
        } else if l.keyword("K") {
            karama = true;
        } else if l.eat_str("+top") {
            top = Some(l.sealed_one(Line::card)?);
        } else {
            l.i = save;
            break;
        }
    }
    Ok(Stmt::Auction {
        number,
        trace,
        result: AuctionResult::Bought {
            faction,
            price,
            card,
            ally,
            karama,
            top,
        },
    })
}

/// The arguments of a Tleilaxu Ghola (3.01.20): `L:leader` or forces.
fn ghola(l: &mut Line, faction: Faction) -> R<Stmt> {
    l.ws();
    if l.eat_str("L:") {
        return Ok(Stmt::Ghola {
            faction,
            forces: None,
            leader: Some(l.leader()?),
        });
    }
    Ok(Stmt::Ghola {
        faction,
        forces: Some(l.forces()?),
        leader: None,
    })
}

fn revival(l: &mut Line) -> R<Stmt> {
    if l.eat(b'-') {
        return Ok(Stmt::ReviveNone);
    }
    let faction = l.faction()?;
    l.ws();
    if l.eat_str("L:") {
        let leader = l.leader()?;
        let paid = l.optional_payment()?.map(|p| p.amount);
        return Ok(Stmt::ReviveLeader {
            faction,
            leader,
            paid,
        });
    }
    if l.keyword("ghola") {
        return ghola(l, faction);
    }
    if l.keyword("grant") {
        return Ok(Stmt::Grant { faction });
    }
    let forces = l.forces()?;
    let paid = l.optional_payment()?.map(|p| p.amount);
    l.ws();
    let extra = if l.eat(b'+') {
        let n = l.forces()?;
        l.ws();
        if !l.keyword("by") {
            return Err(l.err("`by` and the paying ally"));
        }
        l.ws();
        let f = l.faction()?;
        let paid = l.optional_payment()?.map(|p| p.amount);
        Some((n, f, paid))
    } else {
        None
    };
    Ok(Stmt::Revive {
        faction,
        forces,
        paid,
        extra,
    })
}

fn movement(l: &mut Line, c: &mut Clause) -> R<Stmt> {
    let named = l.try_faction();
    let faction = match named.or(c.faction) {
        Some(f) => f,
        None => return Err(l.err("a faction")),
    };
    l.ws();
    let at = l.i;
    if l.eat(b'-') {
        c.faction = Some(faction);
        return Ok(Stmt::Pass { faction });
    }
    let verb = l.ident();
    // `BG spirit` and `BG flip` answer someone else's action: they do not change whose line it is.
    if !matches!(verb, Some("spirit" | "flip")) {
        c.faction = Some(faction);
    }
    l.ws();
    Ok(match verb {
        Some("ship") => {
            if l.eat(b'-') {
                return Ok(Stmt::NoShip { faction });
            }
            let forces = l.forces()?;
            l.ws();
            let to = l.place()?;
            let payment = l.optional_payment()?;
            let save = l.i;
            l.ws();
            let karama = l.keyword("K");
            if !karama {
                l.i = save;
            }
            Stmt::Ship {
                faction,
                forces,
                to,
                payment,
                karama,
            }
        }
        Some("send") => {
            let forces = l.forces()?;
            l.ws();
            Stmt::Send {
                faction,
                forces,
                to: l.place()?,
            }
        }
        Some("cross") => {
            let from = l.place()?;
            l.expect(b'>', "`>` and the destination")?;
            let to = l.place()?;
            l.ws();
            let forces = l.forces()?;
            let payment = l.optional_payment()?;
            Stmt::CrossShip {
                faction,
                from,
                to,
                forces,
                payment,
            }
        }
        Some("home") => {
            let from = l.place()?;
            l.ws();
            let forces = l.forces()?;
            let payment = l.optional_payment()?;
            Stmt::ShipHome {
                faction,
                from,
                forces,
                payment,
            }
        }
        Some("move") => {
            if l.eat(b'-') {
                return Ok(Stmt::NoMove { faction });
            }
            let from = l.place()?;
            let mut via = Vec::new();
            l.expect(b'>', "`>` and the destination")?;
            let mut to = l.place()?;
            while l.eat(b'>') {
                via.push(to);
                to = l.place()?;
            }
            l.ws();
            let forces = l.forces()?;
            Stmt::Move {
                faction,
                from,
                via,
                to,
                forces,
            }
        }
        Some("Hajr") => Stmt::Hajr { faction },
        Some("peek") => Stmt::Wormsign {
            faction,
            card: l.sealed_one(Line::spice_card)?,
        },
        Some("delay") => Stmt::Delay { faction },
        Some("spirit") => {
            let to = l.place()?;
            l.ws();
            let forces = if l.peek().is_some_and(|c| c.is_ascii_digit()) {
                l.forces()?
            } else {
                ForceCount {
                    total: 1,
                    starred: 0,
                    side: if to.territory == Territory::PolarSink {
                        Side::Fighter
                    } else {
                        Side::Advisor
                    },
                }
            };
            Stmt::Spirit {
                faction,
                to,
                forces,
            }
        }
        Some("flip") => {
            let place = l.place()?;
            l.ws();
            let to = if l.eat(b'a') {
                Side::Advisor
            } else if l.eat(b'f') {
                Side::Fighter
            } else {
                return Err(l.err("`a` (to advisors) or `f` (to fighters)"));
            };
            Stmt::Flip { faction, place, to }
        }
        Some("card") => {
            let stronghold = l.stronghold()?;
            Stmt::StrongholdCard {
                faction,
                stronghold,
                count: None,
            }
        }
        _ => {
            return Err(l.err_at(
                at,
                "ship, send, cross, home, move, Hajr, peek, delay, spirit, flip, card or `-`",
                l.found(),
            ));
        }
    })
}

fn battle(l: &mut Line) -> R<Stmt> {
    if l.keyword("WA") {
        let mut v = Vec::new();
        l.ws();
        if l.eat(b'-') {
            return Ok(Stmt::WinAttempts(v));
        }
        loop {
            l.ws();
            if l.clause_end() || l.peek() == Some(b'(') {
                break;
            }
            v.push(l.faction()?);
        }
        return Ok(Stmt::WinAttempts(v));
    }
    if let Some(faction) = l.try_faction() {
        l.ws();
        if !l.keyword("card") {
            return Err(l.err("`card` and a stronghold"));
        }
        l.ws();
        let stronghold = l.stronghold()?;
        return Ok(Stmt::StrongholdCard {
            faction,
            stronghold,
            count: None,
        });
    }
    let place = l.place()?;
    l.expect(b':', "`:` after the battle's territory")?;
    l.ws();
    let aggressor = l.faction()?;
    l.ws();
    if !l.keyword("v") {
        return Err(l.err("`v` between the two factions"));
    }
    l.ws();
    let defender = l.faction()?;
    Ok(Stmt::Battle {
        place,
        aggressor,
        defender,
    })
}

fn plan(l: &mut Line, faction: Faction) -> R<Stmt> {
    l.ws();
    let leader = if l.eat(b'-') {
        PlanLeader::None
    } else if l.peek_keyword("CH") {
        l.keyword("CH");
        PlanLeader::CheapHero
    } else {
        PlanLeader::Leader(l.leader()?)
    };
    let kwisatz = l.eat_str("+KH");
    l.ws();
    l.expect(b'd', "`d` and the forces dialed, e.g. `d5$4`")?;
    let dial = l.forces()?;
    let spice = if l.eat(b'$') {
        l.spice("the spice dialed")?
    } else {
        Spice::ZERO
    };
    l.ws();
    if !l.eat_str("W:") {
        return Err(l.err("`W:` and the weapon (or `W:-`)"));
    }
    let weapon = l.card_or_none()?;
    l.ws();
    if !l.eat_str("D:") {
        return Err(l.err("`D:` and the defense (or `D:-`)"));
    }
    let defense = l.card_or_none()?;
    Ok(Stmt::Plan {
        faction,
        leader,
        kwisatz,
        dial,
        spice,
        weapon,
        defense,
    })
}

fn battle_result(l: &mut Line) -> R<Stmt> {
    l.ws();
    let winner = if l.eat(b'-') {
        None
    } else {
        Some(l.faction()?)
    };
    l.ws();
    let totals = if l.peek().is_some_and(|c| c.is_ascii_digit()) {
        let a = l.decimal()?;
        l.expect(b':', "`:` between the two totals")?;
        let b = l.decimal()?;
        Some((a, b))
    } else {
        None
    };
    let mut items = Vec::new();
    loop {
        if l.end() {
            break;
        }
        l.expect(b';', "`;` before the next result item")?;
        l.ws();
        if l.keyword("dead") {
            let mut v = Vec::new();
            loop {
                l.ws();
                if l.clause_end() {
                    break;
                }
                v.push(l.leader()?);
            }
            items.push(ResultItem::Dead(v));
            continue;
        }
        let f = l.faction()?;
        l.ws();
        if l.eat_str("+$") {
            items.push(ResultItem::Gain(f, l.spice("the spice gained")?));
        } else if l.eat(b'-') {
            items.push(ResultItem::Loss(f, l.forces()?));
        } else if l.keyword("keep") || l.keyword("discard") {
            let keep = l.s.get(..l.i).is_some_and(|s| s.ends_with("keep"));
            let mut v = Vec::new();
            loop {
                l.ws();
                if l.clause_end() {
                    break;
                }
                v.push(l.card()?);
            }
            items.push(if keep {
                ResultItem::Keep(f, v)
            } else {
                ResultItem::Discard(f, v)
            });
        } else if l.keyword("card") {
            l.ws();
            let at = l.i;
            let t = l.stronghold()?;
            if t != dune::Stronghold::TueksSietch {
                return Err(l.err_at(
                    at,
                    "TUK (only the Tuek's Sietch card acts on battle losses)",
                    format!("`{}`", t.code()),
                ));
            }
            l.ws();
            items.push(ResultItem::TuksCard(
                f,
                l.small("the forces sent to reserves")?,
            ));
        } else {
            return Err(l.err("`+$n`, `-forces`, `keep`, `discard` or `card TUK n`"));
        }
    }
    Ok(Stmt::BattleResult {
        winner,
        totals,
        items,
    })
}

fn collection(l: &mut Line) -> R<Stmt> {
    if l.eat(b'-') {
        return Ok(Stmt::CollectNone);
    }
    let faction = l.faction()?;
    l.ws();
    if l.eat(b'+') {
        let amount = l.spice("the bonus collected")?;
        l.ws();
        let at = l.i;
        let territory = l.territory()?;
        if !matches!(
            territory,
            Territory::Arrakeen | Territory::Carthag | Territory::TueksSietch
        ) {
            return Err(l.err_at(
                at,
                "ARK, CAR or TUK (1.13.01)",
                format!("`{}`", territory.code()),
            ));
        }
        return Ok(Stmt::Bonus {
            faction,
            amount,
            territory,
        });
    }
    let amount = l.spice("the spice collected")?;
    l.ws();
    let territory = l.territory()?;
    Ok(Stmt::Collect {
        faction,
        amount,
        territory,
    })
}

fn mentat(l: &mut Line) -> R<Stmt> {
    let at = l.i;
    match l.ident() {
        Some("control") => {
            let mut v = Vec::new();
            l.ws();
            if l.eat(b'-') {
                return Ok(Stmt::Control(v));
            }
            loop {
                l.ws();
                if l.clause_end() || l.peek() == Some(b'(') {
                    break;
                }
                let p = l.pos();
                let t = l.stronghold()?;
                l.expect(b':', "`:` and the controlling faction")?;
                v.push((t, l.faction()?, p));
            }
            Ok(Stmt::Control(v))
        }
        Some("win") => {
            l.ws();
            if l.eat(b'-') {
                return Ok(Stmt::Win(WinClaim::None));
            }
            let mut factions = vec![l.faction()?];
            while l.eat(b'+') {
                factions.push(l.faction()?);
            }
            let kind = l.win_type()?;
            Ok(Stmt::Win(WinClaim::Win { factions, kind }))
        }
        Some("cards") => {
            let mut v = Vec::new();
            l.ws();
            if l.eat(b'-') {
                return Ok(Stmt::StrongholdCards(v));
            }
            loop {
                l.ws();
                if l.clause_end() || l.peek() == Some(b'(') {
                    break;
                }
                let p = l.pos();
                let t = l.stronghold()?;
                l.expect(b'>', "`>` and the faction taking the card")?;
                v.push((t, l.faction()?, p));
            }
            Ok(Stmt::StrongholdCards(v))
        }
        _ => Err(l.err_at(at, "`control`, `win` or `cards`", l.found())),
    }
}

/// Zero or more `( … )` groups.
fn assertions(l: &mut Line) -> R<Vec<Assertion>> {
    let mut v = Vec::new();
    loop {
        let save = l.i;
        l.ws();
        if l.peek() != Some(b'(') {
            l.i = save;
            return Ok(v);
        }
        let pos = l.pos();
        l.i += 1;
        l.ws();
        if l.peek() == Some(b'"') {
            v.push(Assertion::Note(l.string()?));
            l.ws();
            l.expect(b')', "`)`")?;
            continue;
        }
        let word_start = l.i;
        let word = l.ident();
        let a = match word {
            Some("spice") => Assertion::Spice {
                pos,
                values: faction_values(l, |l| l.spice("an amount of spice"))?,
            },
            Some("bribes") => Assertion::Bribes {
                pos,
                values: faction_values(l, |l| l.spice("an amount of spice"))?,
            },
            Some("hands") => Assertion::Hands {
                pos,
                values: faction_values(l, |l| l.small("a number of cards"))?,
            },
            Some("tanks") => Assertion::Tanks {
                pos,
                values: faction_values(l, Line::forces)?,
            },
            Some("reserves") => Assertion::Reserves {
                pos,
                values: faction_values(l, Line::forces)?,
            },
            Some("worms") => {
                l.ws();
                Assertion::Worms {
                    pos,
                    count: l.uint("the number of worms")?,
                }
            }
            Some("storm") => {
                l.ws();
                Assertion::Storm {
                    pos,
                    sector: l.sector()?,
                }
            }
            _ => {
                l.i = word_start;
                let territory = l.territory().map_err(|_| l.err("an assertion: spice, bribes, hands, tanks, reserves, worms, storm, a territory with losses `SM: SG -3, -$4`, or a quoted note"))?;
                l.expect(b':', "`:` and the losses")?;
                let mut forces = Vec::new();
                let mut spice = None;
                loop {
                    l.ws();
                    if l.eat_str("-$") {
                        spice = Some(l.spice("the spice lost")?);
                    } else {
                        let f = l.faction()?;
                        l.ws();
                        l.expect(b'-', "`-` and the forces lost")?;
                        forces.push((f, l.forces()?));
                    }
                    l.ws();
                    if !l.eat(b',') {
                        break;
                    }
                }
                Assertion::Losses {
                    pos,
                    territory,
                    forces,
                    spice,
                }
            }
        };
        l.ws();
        l.expect(b')', "`)` closing the assertion")?;
        v.push(a);
    }
}

fn faction_values<'a, T>(
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

#[cfg(test)]
mod tests {
    use super::*;
    use dune::rule;

    fn one(src: &str) -> Stmt {
        let g = parse(src).unwrap_or_else(|e| panic!("{e}"));
        g.events.into_iter().next().unwrap().stmt
    }

    fn error(src: &str) -> ParseError {
        parse(src).unwrap_err().0.remove(0)
    }

    #[test]
    fn tags_and_turns() {
        let g = parse("[Event \"Qualifier\"] [Mode \"Advanced\"]\nT0 @10:05\n").unwrap();
        assert_eq!(g.tag("Mode").unwrap().value, "Advanced");
        assert_eq!(
            g.events[0].stmt,
            Stmt::Turn {
                number: 0,
                clock: Some("10:05".into()),
                limit: false
            }
        );
    }

    #[test]
    fn forces_places_and_payments() {
        match one("M EM ship 5(2*) HAB $5>SG by HK") {
            Stmt::Ship {
                faction,
                forces,
                to,
                payment,
                karama,
            } => {
                assert_eq!(faction, Faction::Emperor);
                assert_eq!((forces.total, forces.starred), (5, 2));
                assert_eq!(to.territory, Territory::HabbanyaSietch);
                let p = payment.unwrap();
                assert_eq!(
                    (p.amount, p.payee, p.payer),
                    (
                        Spice::new(5),
                        Some(Payee::Faction(Faction::SpacingGuild)),
                        Some(Faction::Harkonnen)
                    )
                );
                assert!(!karama);
            }
            other => panic!("{other:?}"),
        }
        match one("M BG move PS>SM/5 2a") {
            Stmt::Move { to, forces, .. } => {
                assert_eq!(to.sector, Sector::from_notation(5));
                assert_eq!(forces.side, Side::Advisor);
            }
            other => panic!("{other:?}"),
        }
        match one("M AT move SW/L>IB/9 1") {
            Stmt::Move { from, .. } => assert_eq!(from.sector, Sector::new(8)),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn clauses_inherit_the_faction() {
        let g =
            parse("M AT peek{?} ; ship 2 ARK $2>SG ; BG spirit ARK 1a ; move ARK>IB/9 3").unwrap();
        assert_eq!(g.events.len(), 4);
        assert!(matches!(
            g.events[3].stmt,
            Stmt::Move {
                faction: Faction::Atreides,
                ..
            }
        ));
        assert!(matches!(
            g.events[2].stmt,
            Stmt::Spirit {
                faction: Faction::BeneGesserit,
                ..
            }
        ));
        assert_eq!(g.events[3].pos, Pos { line: 1, col: 54 });
    }

    #[test]
    fn bidding_trace_and_results() {
        match one("A #1 EM1 SG- FR2 AT- BG- HK3 EM- SG- FR- = HK 3{Lasgun} by EM $1 +top{?}") {
            Stmt::Auction {
                number,
                trace,
                result,
            } => {
                assert_eq!(number, 1);
                assert_eq!(trace.len(), 9);
                assert_eq!(trace[2].amount, Some(Spice::new(2)));
                assert_eq!(
                    result,
                    AuctionResult::Bought {
                        faction: Faction::Harkonnen,
                        price: Spice::new(3),
                        card: Sealed::Open(Some(Card::Lasgun)),
                        ally: Some((Faction::Emperor, Spice::new(1))),
                        karama: false,
                        top: Some(Sealed::Open(None))
                    }
                );
            }
            other => panic!("{other:?}"),
        }
        assert!(matches!(
            one("A #6 EM- SG- = bought-in 1"),
            Stmt::Auction {
                result: AuctionResult::BoughtIn { returned: Some(1) },
                ..
            }
        ));
    }

    #[test]
    fn assertions_attach_to_the_clause() {
        let g = parse("B A: SH (SM: SG -3, -$4) ; CN 8").unwrap();
        assert_eq!(g.events.len(), 2);
        assert_eq!(
            g.events[0].asserts,
            vec![Assertion::Losses {
                pos: Pos { line: 1, col: 9 },
                territory: Territory::SouthMesa,
                forces: vec![(Faction::SpacingGuild, ForceCount::plain(3))],
                spice: Some(Spice::new(4))
            }]
        );
        assert_eq!(
            g.events[1].stmt,
            Stmt::Blow {
                pile: Pile::A,
                card: SpiceCard::Territory(Territory::CielagoNorth, Some(8))
            }
        );
        let g = parse("P control ARK:AT ; win -\n  (spice AT2 SG18) (worms 0)").unwrap();
        assert_eq!(g.events.len(), 3);
        assert!(
            matches!(&g.events[2].asserts[0], Assertion::Spice { values, .. } if values == &vec![(Faction::Atreides, Spice::new(2)), (Faction::SpacingGuild, Spice::new(18))])
        );
    }

    #[test]
    fn battle_blocks() {
        let src = "X ARK: AT v HK\n  AT plan Gurney d5$4 W:Crysknife D:-\n  HK plan Rabban d6$2 W:- D:Shield\n  = AT 8.5:8 ; AT -5 ; HK -8 ; AT keep Crysknife ; HK discard Shield ; dead Rabban";
        let g = parse(src).unwrap();
        assert_eq!(g.events.len(), 4);
        assert!(matches!(
            g.events[1].stmt,
            Stmt::Plan {
                spice,
                weapon: Some(Card::Crysknife),
                defense: None,
                ..
            } if spice == 4
        ));
        match &g.events[3].stmt {
            Stmt::BattleResult {
                winner,
                totals,
                items,
            } => {
                assert_eq!(*winner, Some(Faction::Atreides));
                assert_eq!(totals.as_ref().unwrap().0, "8.5");
                assert_eq!(items.len(), 5);
                assert_eq!(items[4], ResultItem::Dead(vec![Leader::Rabban]));
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn karama_abilities_hand_swaps_and_any_phase_cards() {
        match one("K AT cancel 2.06.12 \"Delay\"") {
            Stmt::Karama {
                usage: KaramaUse::Cancel(r),
                ..
            } => {
                assert_eq!(r.rule, rule!("2.06.12"));
                assert_eq!(r.note.as_deref(), Some("Delay"));
            }
            other => panic!("{other:?}"),
        }
        assert!(matches!(
            one("K SG prevent 2.06.05.01"),
            Stmt::Karama { usage: KaramaUse::Prevent(r), .. } if r.rule == rule!("2.06.05.01")
        ));
        assert!(parse("K SG prevent voice").is_err());
        assert!(parse("K SG cancel 2.04").is_err());
        assert!(matches!(
            one("K HK hand AT{Shield,?}"),
            Stmt::Karama { usage: KaramaUse::TakeHand { target: Faction::Atreides, returned: Sealed::Open(v) }, .. }
                if v == vec![Some(Card::Shield), None]
        ));
        assert!(matches!(
            one("GHOLA AT L:Duncan"),
            Stmt::Ghola {
                leader: Some(Leader::Duncan),
                ..
            }
        ));
        assert!(matches!(one("HAJR AT"), Stmt::Hajr { .. }));
        let g = parse("R FR grant ; SG 3 $0\n(bribes BG2)").unwrap();
        assert_eq!(
            g.events[0].stmt,
            Stmt::Grant {
                faction: Faction::Fremen
            }
        );
        assert!(matches!(g.events[2].asserts[0], Assertion::Bribes { .. }));
    }

    #[test]
    fn errors_name_line_column_and_expectation() {
        let e = error("T0\nM HK ship 5 XYZ $5");
        assert_eq!(e.pos, Pos { line: 2, col: 13 });
        assert!(e.expected.contains("territory"), "{e}");
        assert_eq!(e.found, "`XYZ`");
        let e = error("M HK ship 5 SM/9");
        assert!(e.expected.contains("sector of South Mesa (4, 5, 6)"), "{e}");
        let e = error("A #1 HK3 EM = HK 3");
        assert_eq!(e.pos.col, 12);
        let e = error("X ARK: AT v HK\n  AT plan EM:Gurney d1 W:- D:-");
        assert!(e.expected.contains("leader of EM"), "{e}");
    }

    #[test]
    fn every_bad_line_is_reported() {
        let errs = parse("T0\nQ\nS 19\nM AT ship x\n").unwrap_err();
        assert_eq!(
            errs.0.iter().map(|e| e.pos.line).collect::<Vec<_>>(),
            vec![2, 3, 4]
        );
        assert!(parse("").is_err());
        assert!(parse("% only a comment\n").is_err());
    }

    #[test]
    fn odd_bytes_never_panic() {
        for src in [
            "T0 é",
            "M AT ship 5(9*) ARK",
            "$ AT>BG 99999999999999",
            "[Event \"unterminated",
            "S 5 order",
            "  ",
            "é\n  é",
            "B A: SH>",
            "M BG spirit",
            "X ARK: AT v",
        ] {
            let _ = parse(src);
        }
    }
}
