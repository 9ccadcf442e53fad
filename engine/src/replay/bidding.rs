//! CHOAM Charity (1.03) and Bidding (1.04).

use super::Replay;
use crate::board::Card;
use crate::dgn::{AuctionResult, Bid, Event, Payee, Stmt};
use crate::factions::{Charity, Fee};
use dune::Spice;
use dune::{Faction, FactionSet};
use dune::{Rule, rule};

#[derive(Default)]
pub(crate) struct BidData {
    /// Cards dealt face down for auction (1.04.04).
    pub(crate) dealt: u32,
    pub(crate) sold: u32,
    pub(crate) over: bool,
    pub(crate) auctions: u32,
    pub(crate) prev_opener: Option<Faction>,
    /// Who bought the card of the last auction (none after a bought-in), for what a faction may
    /// do with the card it just bought (000 2.07.21, 2.07.22).
    pub(crate) last_bought: Option<Faction>,
    /// Everyone who bought a card this phase.
    pub(crate) bought: FactionSet,
    /// The auction the Atreides looked at the card of (2.01.05), by its number.
    pub(crate) peeked: Option<u32>,
    /// A card a faction's ability put back on the deck before the dealing (the Ixians' supply
    /// chain, 000 2.07.07-2.07.08), with the rule: it is not among the cards auctioned.
    pub(crate) put_back: Option<(Card, Rule)>,
}

impl Replay {
    pub(crate) fn charity_event(&mut self, ev: &Event) {
        let Stmt::Charity {
            faction,
            amount,
            payer,
        } = ev.stmt
        else {
            crate::factions::ability_statement(self, ev);
            return;
        };
        let f = faction;
        if !self.in_play_or_report(f) {
            return;
        }
        if self.t.charity.contains(f) {
            self.v(
                rule!("1.03.02"),
                format!("{f} has already claimed CHOAM Charity this turn"),
            );
            return;
        }
        self.t.charity.insert(f);
        let spice = self.spice(f);
        let (due, rule) = match crate::factions::rules(f).charity(self, spice) {
            Some(Charity::Due(due, rule)) => (due, rule),
            Some(Charity::Refused) => return,
            Some(Charity::Income) => return self.income_line(f, amount, payer),
            None if spice <= 1 => (Spice::new(2).saturating_sub(spice), rule!("1.03.01")),
            None => {
                self.v(
                    rule!("1.03.01"),
                    format!(
                        "{f} has {spice} spice; only players with 0 or 1 spice may claim CHOAM Charity"
                    ),
                );
                return;
            }
        };
        // A faction at the table may pay the charity and change its amount (CHOAM, 000 2.09.04,
        // 2.09.07, 2.09.10, 2.09.11); otherwise the bank pays it (1.03.01).
        let source = self
            .st
            .in_play
            .iter()
            .find_map(|g| crate::factions::rules(g).charity_source(self, f, due));
        let (due, rule, from, from_rule) = match source {
            Some(s) => (s.due, s.rule.unwrap_or(rule), s.payer, s.payer_rule),
            None => (due, rule, Payee::Bank, rule!("1.03.01")),
        };
        if let Some(a) = amount
            && a != due
        {
            self.v(
                rule,
                format!("{f} receives {due} spice from CHOAM Charity, not {a}"),
            );
        }
        if let Some(p) = payer
            && p != from
        {
            self.v(
                from_rule,
                format!("{f}'s charity is paid by {from}, not {p}"),
            );
        }
        // CHOAM pays what it holds; the bank pays what it cannot (docs/notation.md, Decisions).
        let mut from_bank = due;
        if let Payee::Faction(g) = from {
            let paid = due.min(self.spice(g));
            self.st.faction_mut(g).spice.take(paid);
            self.st.faction_mut(f).gain(paid);
            from_bank = due.saturating_sub(paid);
        }
        self.bank_pays(f, from_bank);
    }

    /// `C CH +n [by bank]`: CHOAM states its income, taken from the bank at the start of the
    /// phase (000 2.09.04).
    fn income_line(&mut self, f: Faction, amount: Option<Spice>, payer: Option<Payee>) {
        let rule = self.choam_income_rule();
        let income = self
            .st
            .choam
            .income
            .filter(|(turn, _)| *turn == self.st.turn)
            .map(|(_, n)| n);
        match (amount, income) {
            (Some(a), Some(n)) if a != n => self.v(
                rule,
                format!(
                    "{f} takes {n} spice from the bank before charity is collected (2 per faction in the game, as its tokens say), not {a}"
                ),
            ),
            // The income hidden by a sealed Earnings token is taken as the log states it.
            (Some(a), None) => {
                self.bank_pays(f, a);
                self.st.choam.income = Some((self.st.turn, a));
            }
            _ => {}
        }
        if let Some(p) = payer
            && p != Payee::Bank
        {
            self.v(rule, format!("{f}'s income comes from the bank, not {p}"));
        }
    }

    /// The rule that makes a full hand pass: the faction's own hand limit (the Harkonnen's 8,
    /// 2.05.07), or 4 (1.04.03).
    pub(crate) fn full_hand_rule(&self, f: Faction) -> Rule {
        self.hand_limit_and_rule(f).1
    }

    /// The most cards `f` may hold: its sheet's, or what a faction's rules make it (Moritani's
    /// Atomics, 000 2.12.13.02), with the rule that says so.
    pub(crate) fn hand_limit_and_rule(&self, f: Faction) -> (u8, Rule) {
        let sheet = self.st.faction(f).sheet;
        let mut out = (sheet.hand_limit, sheet.rules.hand_limit);
        for g in self.st.in_play.iter() {
            if let Some(x) = crate::factions::rules(g).hand_limit(self, f, out.0) {
                out = x;
            }
        }
        out
    }

    /// The most cards `f` may hold (1.04.03; see [`Replay::hand_limit_and_rule`]).
    pub(crate) fn hand_limit(&self, f: Faction) -> u8 {
        self.hand_limit_and_rule(f).0
    }

    pub(crate) fn eligible(&self, f: Faction) -> bool {
        self.st.faction(f).hand.len() < usize::from(self.hand_limit(f))
    }

    /// How many players may bid now (their hands not full).
    pub(crate) fn eligible_count(&self) -> u32 {
        self.st.in_play.iter().filter(|&f| self.eligible(f)).count() as u32
    }

    /// The cards dealt for the normal auction are as many as the players eligible to bid when
    /// they are dealt, after Declaration (1.04.02): a card that changes hands before then (the
    /// Black Market Auction, 000 2.13.04; Richese's black market, 2.10.22) can change that
    /// number, from `before` players to the count now.
    pub(crate) fn redeal(&mut self, before: u32) {
        let now = self.eligible_count();
        if now > before {
            self.t.bid.dealt += self.st.draw_treachery(now - before);
        } else {
            let back = (before - now).min(self.t.bid.dealt);
            self.t.bid.dealt -= back;
            self.st.treachery_deck += back;
        }
    }

    /// The first eligible bidder at or after position `start` in storm order.
    pub(crate) fn first_eligible_from(&self, start: usize) -> Option<Faction> {
        let n = self.st.order.len();
        (0..n)
            .map(|k| self.st.order[(start + k) % n])
            .find(|&f| self.eligible(f))
    }

    pub(crate) fn begin_bidding(&mut self) {
        let eligible = self.eligible_count();
        let dealt = self.st.draw_treachery(eligible);
        if dealt < eligible {
            self.v(
                rule!("1.04.04"),
                format!(
                    "the treachery deck holds only {dealt} cards for {eligible} eligible bidders"
                ),
            );
        }
        self.t.bid = BidData {
            dealt,
            ..BidData::default()
        };
    }

    pub(crate) fn bidding_event(&mut self, ev: &Event) {
        match &ev.stmt {
            Stmt::Declare(list) => {
                for &(f, n, pos) in list {
                    if !self.st.plays(f) {
                        continue;
                    }
                    let actual = self.st.faction(f).hand.len();
                    if actual != usize::from(n) {
                        self.v_at(
                            pos,
                            rule!("1.04.01"),
                            format!(
                                "{f} declares {n} treachery cards, but holds {actual} by the replay"
                            ),
                        );
                    }
                }
            }
            Stmt::Peek { .. } => {
                self.t.bid.peeked = Some(self.t.bid.auctions + 1);
                crate::factions::ability_statement(self, ev);
            }
            Stmt::Auction {
                number,
                trace,
                result,
            } => {
                self.t.bid.last_bought = None;
                self.auction(*number, trace, result);
                for f in self.st.in_play.iter() {
                    crate::factions::rules(f).after_auction(self);
                }
            }
            _ => {
                crate::factions::ability_statement(self, ev);
            }
        }
    }

    pub(crate) fn auction(&mut self, number: u32, trace: &[Bid], result: &AuctionResult) {
        if self.t.bid.over {
            self.v(
                rule!("1.04.08"),
                "bidding is over: no card is left for auction this turn",
            );
            return;
        }
        let expected_no = self.t.bid.auctions + 1;
        self.t.bid.auctions += 1;
        if number != expected_no {
            self.v(rule!("1.04.05"), format!("cards are auctioned one at a time in the order dealt: expected #{expected_no}, found #{number}"));
        }
        // Opener (1.04.06, 1.04.07).
        let start = match self.t.bid.prev_opener {
            None => 0,
            Some(p) => self.st.order_index(p).wrapping_add(1),
        };
        let expected_opener = self.first_eligible_from(start);
        if let (Some(first), Some(exp)) = (trace.first(), expected_opener)
            && first.faction != exp
        {
            let rule = if self.t.bid.prev_opener.is_none() {
                rule!("1.04.06")
            } else {
                rule!("1.04.07")
            };
            self.v_at(
                first.pos,
                rule,
                format!(
                    "{exp} opens the bidding on card #{number}, not {}",
                    first.faction
                ),
            );
        }
        self.t.bid.prev_opener = trace.first().map(|b| b.faction).or(expected_opener);
        let (winner, karama) = match result {
            AuctionResult::Bought {
                faction, karama, ..
            } => (Some(*faction), *karama),
            AuctionResult::BoughtIn { .. } => (None, false),
        };
        // Trace (1.04.06.01-.03).
        let n = self.st.order.len();
        let mut top: Option<(Faction, Spice)> = None;
        let mut prev: Option<Faction> = None;
        for b in trace {
            if !self.st.plays(b.faction) {
                self.v_at(
                    b.pos,
                    rule!("0.08"),
                    format!("{} is not playing at this table", b.faction),
                );
                continue;
            }
            if let Some(p) = prev {
                let i = self.st.order_index(p);
                for k in (1..=n).filter(|_| i < n) {
                    let g = self.st.order[(i + k) % n];
                    if g == b.faction {
                        break;
                    }
                    if self.eligible(g) {
                        self.v_at(
                            b.pos,
                            rule!("1.04.06.01"),
                            format!(
                                "bidding goes to the right: after {p} it is {g}'s turn, not {}",
                                b.faction
                            ),
                        );
                        break;
                    }
                }
            }
            prev = Some(b.faction);
            let Some(amount) = b.amount else { continue };
            if !self.deals.is_empty() {
                self.deals_bid(b.faction, number, b.pos, "bids on");
            }
            if !self.eligible(b.faction) {
                let limit = self.hand_limit(b.faction);
                self.v_at(
                    b.pos,
                    self.full_hand_rule(b.faction),
                    format!(
                        "{} holds {limit} cards (a full hand) and must pass",
                        b.faction
                    ),
                );
            }
            match top {
                Some((_, t)) if amount <= t => {
                    self.v_at(
                        b.pos,
                        rule!("1.04.06.01"),
                        format!(
                            "{} bids {amount}, which does not raise the bid of {t}",
                            b.faction
                        ),
                    );
                    continue;
                }
                None if amount == 0 => self.v_at(
                    b.pos,
                    rule!("1.04.06.01"),
                    "the opening bid is at least 1 spice",
                ),
                _ => {}
            }
            let limit = self.spice(b.faction)
                + self
                    .st
                    .ally(b.faction)
                    .map_or(Spice::ZERO, |a| self.spice(a));
            if amount > limit && !(karama && Some(b.faction) == winner) {
                // An ally's help sets the limit (1.10.02.04 supersedes 1.04.06.03).
                let rule = if self.st.ally(b.faction).is_some() {
                    rule!("1.10.02.04")
                } else {
                    rule!("1.04.06.03")
                };
                self.v_at(
                    b.pos,
                    rule,
                    format!(
                        "{} bids {amount} but has only {limit} spice (own and ally's){}",
                        b.faction,
                        self.bribe_note(b.faction)
                    ),
                );
            }
            top = Some((b.faction, amount));
        }
        match result {
            AuctionResult::BoughtIn { returned } => {
                if let Some((f, a)) = top {
                    self.v(
                        rule!("1.04.09"),
                        format!("{f} bid {a} on this card: it is bought only when everyone passes"),
                    );
                }
                let left = self.t.bid.dealt.saturating_sub(self.t.bid.sold);
                if let Some(r) = returned
                    && u32::from(*r) != left
                {
                    self.v(
                        rule!("1.04.09"),
                        format!("{left} card(s) go back on the deck, not {r}"),
                    );
                }
                self.st.treachery_deck += left;
                self.t.bid.sold = self.t.bid.dealt;
                self.t.bid.over = true;
            }
            AuctionResult::Bought {
                faction,
                price,
                card,
                ally,
                payee: logged_payee,
                karama,
                top: extra,
            } => {
                let f = *faction;
                if !self.in_play_or_report(f) {
                    return;
                }
                if !self.deals.is_empty()
                    && !trace.iter().any(|b| b.faction == f && b.amount.is_some())
                {
                    let pos = self.pos;
                    self.deals_bid(f, number, pos, "buys");
                }
                if let Some((tf, tp)) = top
                    && (tf != f || tp != *price)
                {
                    self.v(
                        rule!("1.04.06.02"),
                        format!(
                            "the card goes to the top bidder, {tf} for {tp}, not {f} for {price}"
                        ),
                    );
                } else if top.is_none() && !trace.is_empty() {
                    self.v(
                        rule!("1.04.06.02"),
                        format!("nobody bid on this card, so {f} cannot buy it"),
                    );
                }
                if !self.eligible(f) {
                    self.v(
                        self.full_hand_rule(f),
                        format!("{f} has a full hand and cannot buy a card"),
                    );
                }
                if *price == 0 {
                    self.v(rule!("1.04.06.01"), "a card is bought for at least 1 spice");
                }
                if *karama {
                    // 3.01.11.04: bid beyond one's spice and buy without paying.
                    self.play_card(f, Card::Karama, rule!("3.01.11"), false);
                } else {
                    self.pay_for_card(f, *price, *ally, *logged_payee);
                }
                let id = self.sealed(card).cloned().flatten();
                if let (Some(c), Some((back, rule))) = (id, self.t.bid.put_back)
                    && c == back
                    && self.st.copies(c) == 1
                {
                    self.v(
                        rule,
                        format!("{c} was put back on the deck before the dealing; the cards auctioned are the others"),
                    );
                }
                self.st.faction_mut(f).hand.push(id);
                if let Some(c) = id {
                    self.check_copies(c);
                }
                self.free_top_card(f, extra.as_ref());
                self.t.bid.last_bought = Some(f);
                self.t.bid.bought.insert(f);
                self.t.bid.sold += 1;
                if self.t.bid.sold >= self.t.bid.dealt {
                    self.t.bid.over = true;
                }
            }
        }
    }

    /// 1.04.06.02, 1.10.02.04, 2.03.04, rulings.md 22: the buyer's own share goes to the Emperor
    /// (the bank when the Emperor buys); an ally's share goes to the Emperor unless the ally is
    /// the Emperor.
    pub(crate) fn pay_for_card(
        &mut self,
        f: Faction,
        price: Spice,
        ally: Option<(Faction, Spice)>,
        logged: Option<Payee>,
    ) {
        // Who receives the payment for a card: a faction by its rules (the Emperor, 2.03.04,
        // unless a Karama prevented it), else the bank; nobody pays itself (rulings.md 22).
        let claim = self.payee_of(Fee::Card, f);
        let receiver = claim.map_or(Fee::Card.default_payee(), |c| c.payee);
        let payee = |payer: Faction| {
            if receiver == Payee::Faction(payer) {
                Payee::Bank
            } else {
                receiver
            }
        };
        // The buyer's payee, checked at the auction line where the log names it.
        let pos = self.pos;
        self.check_payee(Fee::Card, f, claim, logged.map(|l| (l, pos)), || {
            format!("{f}'s payment for its card")
        });
        let mut own = price;
        if let Some((a, share)) = ally {
            if self.st.ally(f) != Some(a) {
                self.v(
                    rule!("1.10.02.04"),
                    format!("{a} is not {f}'s ally and cannot pay for its card"),
                );
            } else if share > price {
                self.v(
                    rule!("1.10.02.04"),
                    format!("{a} pays {share} of a {price}-spice card"),
                );
            } else {
                if share > self.spice(a) {
                    self.v(
                        rule!("1.10.02.04"),
                        format!(
                            "{a} pays {share} toward the card but has only {} spice",
                            self.spice(a)
                        ),
                    );
                }
                self.pay(a, payee(a), share);
                own = price.saturating_sub(share);
            }
        }
        if own > self.spice(f) {
            // An allied buyer's limit is its own and its ally's spice (1.10.02.04).
            let rule = if self.st.ally(f).is_some() {
                rule!("1.10.02.04")
            } else {
                rule!("1.04.06.03")
            };
            self.v(
                rule,
                format!(
                    "{f} pays {own} for the card but has only {} spice{}",
                    self.spice(f),
                    self.bribe_note(f)
                ),
            );
        }
        self.pay(f, payee(f), own);
    }

    pub(crate) fn finish_bidding(&mut self) {
        if self.t.bid.over {
            return;
        }
        let left = self.t.bid.dealt.saturating_sub(self.t.bid.sold);
        if self.t.bid.auctions > 0 && left > 0 {
            self.v(rule!("1.04.08"), format!("{left} card(s) dealt for auction were never auctioned (an auction line or `bought-in` is missing)"));
        }
        // No auction logged: everyone passed on the first card (1.04.09).
        self.st.treachery_deck += left;
        self.t.bid.over = true;
    }
}
