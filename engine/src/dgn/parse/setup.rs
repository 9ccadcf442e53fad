//! Setup lines (`T0`): the alliance cards (full format), traitors, the prediction, starting cards, placements, the first storm.

use super::*;

impl Parser {
    pub(super) fn setup(&mut self, l: &mut Line, kw: &str, pos: Pos) -> R<()> {
        match kw {
            "AC" => loop {
                l.ws();
                if l.end() {
                    return Ok(());
                }
                let p = l.pos();
                let faction = l.faction()?;
                let dealt = l.sealed_list(Line::faction)?;
                if dealt == Sealed::Absent {
                    return Err(
                        l.err("the two alliance cards dealt in braces, e.g. `IX{AT,IX}` or `{#}`")
                    );
                }
                self.push(
                    p,
                    Section::Phase(Phase::Setup),
                    Stmt::AllianceCards { faction, dealt },
                    Vec::new(),
                );
            },
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
                    Section::Phase(Phase::Setup),
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
                    Section::Phase(Phase::Setup),
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
                    Section::Phase(Phase::Setup),
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
                    if l.keyword("nofield") {
                        // Richese's No-Field token in the Polar Sink (000 2.10.02).
                        let value = l.sealed_one(|l| l.small("the No-Field token's number"))?;
                        let asserts = assertions(l)?;
                        self.push(
                            p,
                            Section::Phase(Phase::Setup),
                            Stmt::Trade(TradeStmt::SetupNoField {
                                faction,
                                place,
                                value,
                            }),
                            asserts,
                        );
                        l.ws();
                        if !l.eat(b',') {
                            break;
                        }
                        continue;
                    }
                    let forces = l.forces()?;
                    let asserts = assertions(l)?;
                    self.push(
                        p,
                        Section::Phase(Phase::Setup),
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
            "POCKET" => {
                l.ws();
                let faction = l.faction()?;
                let cards = l.sealed_list(Line::card)?;
                if cards == Sealed::Absent {
                    return Err(
                        l.err("the cards drawn in braces, e.g. `IX{Shield,Lasgun,?}` or `{#}`")
                    );
                }
                self.push(
                    pos,
                    Section::Phase(Phase::Setup),
                    Stmt::Pocket { faction, cards },
                    Vec::new(),
                );
                end_of_line(l)
            }
            "HMS" => {
                l.ws();
                let faction = l.faction()?;
                l.ws();
                let place = l.place()?;
                let asserts = assertions(l)?;
                self.push(
                    pos,
                    Section::Phase(Phase::Setup),
                    Stmt::HmsMove {
                        faction,
                        path: vec![place],
                        harvest: None,
                    },
                    asserts,
                );
                end_of_line(l)
            }
            _ => {
                // STORM0
                let dials = two_dials(l)?;
                l.expect_arrow()?;
                l.ws();
                let to = Some(l.sector()?);
                let asserts = assertions(l)?;
                self.push(
                    pos,
                    Section::Phase(Phase::Setup),
                    Stmt::FirstStorm { dials, to },
                    asserts,
                );
                end_of_line(l)
            }
        }
    }
}
